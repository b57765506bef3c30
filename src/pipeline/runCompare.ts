/**
 * load -> aggregate -> compare -> gate -> render: the one code path behind `evalverdict compare` and the action.
 * Reads the files it is given and publishes nothing; report files are the entries'.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  cappedResultsWarning,
  duplicateResultsWarning,
  ignoredStagesWarning,
  unknownResultsWarning,
} from '../aggregate/aggregate.js';
import type { RunSummary } from '../aggregate/aggregate.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { CompareOptions } from '../compare/compare.js';
import type { ComparedRuns } from '../compare/types.js';
import { settingsOf } from '../gate/config.js';
import type { GateConfig } from '../gate/config.js';
import { requireExpectations } from '../gate/expectations.js';
import { applyGates } from '../gate/gates.js';
import type { CompareReport } from '../gate/types.js';
import { readGoldenFile } from '../load/golden.js';
import { baselineSource, GITHUB_COMMENT_LIMIT, renderReportMarkdowns } from '../render/markdown.js';
import type { FullReportHint } from '../render/markdown.js';
import { withShownPValues, withWorkflowCommits } from '../render/reportParts.js';
import { reportWarnings, runnerWarningsJson } from '../render/reportWarnings.js';
import type { ReportContext, SameRunReason } from '../render/reportContext.js';
import { stableJson } from '../stableJson.js';
import { runTime } from '../time.js';
import type { GoldenSet } from '../types.js';
import { formatFinding } from '../validate/findings.js';
import { compareGoldenView, runFormatChecks } from '../validate/pipelineChecks.js';
import { notes } from '../warnings.js';
import type { Warning } from '../warnings.js';
import { compareChosen } from './compareSides.js';
import type { SidesToCompare } from './compareSides.js';
import { loadGateConfig } from './gateConfigFile.js';
import { tracer } from './trace.js';
import type { Trace } from './trace.js';

export interface CompareInputs extends SidesToCompare {
  /** A gate config file; when absent and `configText` is absent too, the built-in default applies. */
  configPath?: string | null;
  /** Inline gate config YAML (the action's `gates` input). */
  configText?: string | null;
  /** A built-in config other than the default (the action's candidate-only one), used when neither above is given. */
  builtInConfig?: GateConfig;
  strictChunkerVersion?: boolean;
  options?: Partial<CompareOptions>;
  /** Where the untruncated report can be found, named in the comment when it has to be cut. */
  fullReportHint?: FullReportHint;
  /** Links the report gives (the action's repository and workflow run). */
  reportContext?: ReportContext;
  /** Told each phase as it ends, with the seconds since the start (EVALVERDICT_TRACE=1 in the entries). */
  trace?: Trace;
}

export interface CompareOutputs {
  /** The gated report, its p-values as printed (`withShownPValues`). */
  report: CompareReport;
  /** The metric table used (direction, unit, family), for renderers the caller picks. */
  defs: MetricDef[];
  /** The comment-ready report, always under GitHub's comment limit. */
  markdown: string;
  /** The untruncated report. */
  markdownFull: string;
  json: string;
  warnings: Warning[];
  /** What the reports were rendered with (the caller's context, the config and any same-run finding), for others. */
  context: ReportContext;
  /** Whether the candidate was scored in a worker thread beside the baseline (see src/pipeline/twoThreads.ts). */
  parallel: boolean;
  /** The golden set read for it (always read: the expectations check needs it), for `--unjudged`. */
  golden: GoldenSet;
}

/**
 * Why the two sides are one run, or null: the same run of the same database file (both sides picking the newest run
 * of one database, most often), or the same run id with the same creation time and results.
 */
export function sameRunReason(
  inputs: Pick<SidesToCompare, 'baselinePath' | 'candidatePath'>,
  report: CompareReport,
): SameRunReason | null {
  const { baseline: b, candidate: c } = report;
  if (b === null || inputs.baselinePath === null || b.run_id !== c.run_id) return null;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  if (real(inputs.baselinePath) === real(inputs.candidatePath)) return 'same database and run';
  const unchanged = Object.values(report.metrics).every((m) => m.delta === null || m.delta === 0);
  return b.created_at === c.created_at && unchanged && report.golden.removed.length === 0
    ? 'same run id and results'
    : null;
}

export async function runCompare(inputs: CompareInputs): Promise<CompareOutputs> {
  const t = tracer(inputs.trace);
  const loaded = loadGateConfig(inputs.configPath, inputs.configText, inputs.builtInConfig);
  const { config, options: scoring } = settingsOf(loaded.config, withoutUndefined(inputs.options ?? {}));
  const origin = loaded.origin;
  const options: Partial<CompareOptions> = {
    ...scoring,
    strictChunkerVersion: inputs.strictChunkerVersion ?? false,
  };
  let read: GoldenSet | null = null;
  const golden = () => (read ??= readGoldenFile(inputs.goldenPath));
  const baselinePath = inputs.baselinePath;
  const chosen = await compareChosen(inputs, golden, options, t, config.repeatsMayDiffer);
  const { compared, runsRead } = chosen;
  requireExpectations(golden(), config, compared);
  const checked = await runFormatChecks(runsRead, compareGoldenView(golden()));
  const { report: gated, defs } = applyGates(compared, config);
  // A run whose database records no commit takes the action's (the workflow run's), and says so.
  const report = withShownPValues(withWorkflowCommits(gated, inputs.reportContext ?? {}));
  t.mark('compared');
  // A calibrated config's noise floor is named beside the config (src/render/calibrationReport.ts, noiseFloorLine).
  const named = config.noise ? { ...origin, noise: config.noise } : origin;
  const context: ReportContext = {
    ...inputs.reportContext,
    config: named,
    sameRun: sameRunReason(inputs, report),
    ...(checked.mistakes.length > 0 ? { runnerMistakes: checked.mistakes } : {}),
  };
  const { full: markdownFull, cut: markdown } = renderReportMarkdowns(report, defs, {
    maxLength: GITHUB_COMMENT_LIMIT,
    fullReportHint: inputs.fullReportHint,
    context,
  });
  const json = stableJson({
    ...report,
    baseline_source: baselineSource(report, baselinePath, inputs.reportContext),
    config: origin,
    ...(checked.mistakes.length > 0 ? { runner_warnings: runnerWarningsJson(checked.mistakes) } : {}),
  });
  t.mark('reports rendered');
  const warnings = [
    ...notes([report.baseline && swappedRunsWarning(report.baseline, report.candidate)]),
    ...golden().warnings,
    ...runWarnings(compared, baselinePath, inputs.candidatePath),
    ...notes(chosen.repeatWarnings),
    ...reportWarnings(report, context).filter((w) => !SAID_ELSEWHERE.has(w.kind)),
    ...notes(checked.findings.map(formatFinding)),
    ...notes(config.notices),
  ];
  return { report, defs, markdown, markdownFull, json, warnings, context, parallel: chosen.parallel, golden: golden() };
}

/**
 * The report's warnings not repeated in the entries' warnings: those the pipeline words itself with the run's path
 * and ids (swappedRunsWarning, runWarnings), and those of the action's context (a stale or distant baseline, a
 * candidate of another commit), which the comment shows and the action reports itself, and the runner mistakes, whose
 * findings are worded as validate words them (runFormatChecks). The others reach stderr and
 * the action's annotations as the report words them.
 */
const SAID_ELSEWHERE = new Set<Warning['kind']>([
  'swapped_runs',
  'unknown_results',
  'duplicate_results',
  'capped_results',
  'stale_baseline',
  'baseline_behind',
  'candidate_commit',
  'runner_mistake',
]);

/** Each side's results the golden set does not know, repeated results, and ignored stage timings. */
function runWarnings(compared: ComparedRuns, baselinePath: string | null, candidatePath: string): Warning[] {
  const { report, ignoredStageTimings } = compared;
  const b = report.baseline;
  const { unknown_query_ids: unknown, duplicate_query_ids: duplicate, capped_query_ids: capped } = report.golden;
  return notes([
    b && unknownResultsWarning(baselinePath!, b.run_id, unknown.baseline),
    unknownResultsWarning(candidatePath, report.candidate.run_id, unknown.candidate),
    b && duplicateResultsWarning(baselinePath!, b.run_id, duplicate.baseline),
    duplicateResultsWarning(candidatePath, report.candidate.run_id, duplicate.candidate),
    b && cappedResultsWarning(baselinePath!, b.run_id, capped?.baseline ?? []),
    cappedResultsWarning(candidatePath, report.candidate.run_id, capped?.candidate ?? []),
    b && ignoredStagesWarning(baselinePath!, b.run_id, ignoredStageTimings.baseline),
    ignoredStagesWarning(candidatePath, report.candidate.run_id, ignoredStageTimings.candidate),
  ]);
}

/** An options object without the keys set to undefined, so that spreading it keeps what came before. */
function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * A baseline created after its candidate: most often the two paths were given the wrong way round, which turns
 * every regression into an improvement. Equal or unreadable times say nothing.
 */
export function swappedRunsWarning(baseline: RunSummary, candidate: RunSummary): string | null {
  const [b, c] = [runTime(baseline.created_at), runTime(candidate.created_at)];
  if (b === null || c === null || b <= c) return null;
  return (
    `the baseline run \`${baseline.run_id}\` (created ${baseline.created_at}) is newer than the candidate run ` +
    `\`${candidate.run_id}\` (created ${candidate.created_at}): the runs may be swapped (the baseline comes first)`
  );
}
