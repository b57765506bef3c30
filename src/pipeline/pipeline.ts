/**
 * load -> aggregate -> compare -> gate -> render: the one code path behind `evalverdict compare` and the action.
 * Reads the files it is given and publishes nothing; the one file it writes is a run's own `aggregate_json` when
 * asked (`aggregate --write`, the action's `write-aggregate`), through src/write. Report files are the entries'.
 */
import { plural } from '../numberFormat.js';
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  compareCandidateOnly,
  compareExactlyScored,
  compareRuns,
  declaredVersionsDiffer,
  prepareBaseline,
} from '../compare/compare.js';
import type { CompareOptions } from '../compare/compare.js';
import { compareRepeatedRuns, setAsideFlaky } from '../compare/repeats.js';
import type { RepeatedComparison } from '../compare/repeats.js';
import type { ComparedRuns } from '../compare/types.js';
import { cannotRead, InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { suggest } from '../suggest.js';
import { atScoringCutoffs, parseGateConfig, defaultGateConfig } from '../gate/config.js';
import type { GateConfig } from '../gate/config.js';
import { applyGates } from '../gate/gates.js';
import { requireExpectations } from '../gate/expectations.js';
import { formatFinding } from '../validate/findings.js';
import {
  aggregateGoldenView,
  compareGoldenView,
  runFormatChecks,
  runFormatFindings,
} from '../validate/pipelineChecks.js';
import type { RunRead } from '../validate/pipelineChecks.js';
import type { CompareReport } from '../gate/types.js';
import { goldenFormatOf, readGoldenFile } from '../load/golden.js';
import { deferRunStream, openRunDatabase, openRunStream } from '../load/runDatabase.js';
import { runTime } from '../time.js';
import { checkReplaceable } from '../load/sideFiles.js';
import { MAX_CONFIG_BYTES, readRegularFile } from '../load/regularFile.js';
import { writeAggregateJson } from '../write/writeRunDatabase.js';
import { aggregateInTwoThreads, scoreRunInWorker, workerMode, workersAvailable } from './twoThreads.js';
import type { WorkerPhase } from './twoThreads.js';
import {
  aggregateScored,
  aggregateTableOf,
  cappedResultsWarning,
  duplicateResultsWarning,
  ignoredStagesWarning,
  metricTableFor,
  summariseRun,
  unknownResultsWarning,
} from '../aggregate/aggregate.js';
import type { AggregateReport, AggregateTable, RunSummary } from '../aggregate/aggregate.js';
import { kebabAggregateJson } from '../aggregate/kebab.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import { perQueryRows } from '../aggregate/perQuery.js';
import type { PerQueryReport } from '../aggregate/perQuery.js';
import { sideBySide } from '../aggregate/sideBySide.js';
import type { SideBySideReport } from '../aggregate/sideBySide.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { scoreToTable, tableFromTransfer } from '../aggregate/table.js';
import type { GoldenSet, RunStream } from '../types.js';
import { stableJson } from '../stableJson.js';
import { baselineSource, renderReportMarkdowns, GITHUB_COMMENT_LIMIT } from '../render/markdown.js';
import { withShownPValues, withWorkflowCommits } from '../render/reportParts.js';
import type { FullReportHint, ReportContext } from '../render/markdown.js';
import { reportWarnings, runnerWarningsJson } from '../render/reportWarnings.js';
import type { ConfigOrigin, SameRunReason } from '../render/reportWarnings.js';
import { notes } from '../warnings.js';
import type { Warning } from '../warnings.js';

export interface CompareInputs {
  /** Null: no baseline, a candidate-only report (`--baseline none`) on which only `min`/`max` gates apply. */
  baselinePath: string | null;
  candidatePath: string;
  goldenPath: string;
  baselineRun?: string | null;
  candidateRun?: string | null;
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
  /**
   * Queries flaky by history (query id -> why, e.g. "flipped on main 3 times in the last 10 runs"): treated as
   * flaky on both sides, even with one run per side (docs/compare.md, "Repeated runs and flaky queries").
   */
  knownFlaky?: ReadonlyMap<string, string>;
}

/** A phase's label, the seconds since the command started, and the process's minor page faults by then. */
export type Trace = (label: string, seconds: number, faults: number) => void;

/** Marks phases for `trace`, and the worker's phases, placed on the same clock. */
function tracer(trace: Trace | undefined): {
  mark: (label: string) => void;
  worker: (phases: Promise<WorkerPhase[]>) => Promise<void>;
} {
  const start = performance.timeOrigin + performance.now();
  const now = () => (performance.timeOrigin + performance.now() - start) / 1000;
  return {
    mark: (label) => trace?.(label, now(), process.resourceUsage().minorPageFault),
    worker: async (phases) => {
      if (!trace) return;
      for (const [label, epochMs, faults] of await phases) trace(`worker: ${label}`, (epochMs - start) / 1000, faults);
    },
  };
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
 * The gate config (the inline text, else the file, else the built-in default) and where it came from: a file's hash
 * is of its bytes as read; the inline text's of the text trimmed, as the action's inputs are.
 */
export function loadGateConfig(
  configPath: string | null | undefined,
  configText: string | null | undefined,
  builtIn: GateConfig = defaultGateConfig(),
): { config: GateConfig; origin: ConfigOrigin } {
  const hashOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);
  if (configText && configText.trim() !== '')
    return {
      config: parseGateConfig(configText, 'gates input'),
      origin: { source: 'gates input', sha256: hashOf(configText.trim()) },
    };
  if (!configPath) return { config: builtIn, origin: { source: null, sha256: null } };
  let text: string;
  try {
    text = readRegularFile(configPath, 'the gate config', MAX_CONFIG_BYTES).toString('utf8');
  } catch (error) {
    throw cannotRead(configPath, error, 'the gate config');
  }
  return { config: parseGateConfig(text, configPath), origin: { source: configPath, sha256: hashOf(text) } };
}

/**
 * Why the two sides are one run, or null: the same run of the same database file (both sides picking the newest run
 * of one database, most often), or the same run id with the same creation time and results.
 */
export function sameRunReason(inputs: CompareInputs, report: CompareReport): SameRunReason | null {
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
  const { config, options: scoring } = atScoringCutoffs(loaded.config, withoutUndefined(inputs.options ?? {}));
  const origin = loaded.origin;
  const options: Partial<CompareOptions> = {
    ...scoring,
    strictChunkerVersion: inputs.strictChunkerVersion ?? false,
    alpha: config.alpha,
  };
  let read: GoldenSet | null = null;
  const golden = () => (read ??= readGoldenFile(inputs.goldenPath));
  const baselinePath = inputs.baselinePath;
  const chosen = await compareChosen(inputs, golden, options, t, config.repeatsMayDiffer);
  const { compared, runsRead } = chosen;
  inputs = chosen.inputs;
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

/**
 * The comparison by the path the inputs call for: several runs on a side (repeats), else two threads where
 * available, else in sequence; the inputs with each side's first run named, and every run read (file, run id, side).
 */
async function compareChosen(
  given: CompareInputs,
  golden: () => GoldenSet,
  options: Partial<CompareOptions>,
  t: ReturnType<typeof tracer>,
  mayDiffer: readonly string[] | undefined,
): Promise<{
  compared: ComparedRuns;
  inputs: CompareInputs;
  runsRead: RunRead[];
  parallel: boolean;
  repeatWarnings: string[];
}> {
  const baselinePath = given.baselinePath;
  const lists = await repeatedRuns(given);
  const inputs = lists ? { ...given, baselineRun: lists.baseline[0] ?? null, candidateRun: lists.candidate[0] } : given;
  const repeated = lists !== null && (lists.baseline.length > 1 || lists.candidate.length > 1);
  const inParallel =
    baselinePath !== null && workersAvailable() && !repeated && worthAWorker(inputs.candidatePath)
      ? await compareInParallel({ ...inputs, baselinePath }, golden, options, t)
      : null;
  const repeatedCompared = repeated
    ? await compareRepeated({ ...inputs, baselinePath: baselinePath! }, lists, golden(), options, mayDiffer)
    : null;
  const compared =
    repeatedCompared ??
    withKnownFlaky(
      inParallel ??
        (baselinePath === null
          ? await compareCandidateAlone(inputs, golden(), options)
          : await compareInSequence({ ...inputs, baselinePath }, golden(), options)),
      inputs.knownFlaky,
    );
  const { baseline: b, candidate: c } = compared.report;
  const read = (path: string, ids: Array<string | null>, id: string, side: RunRead['side']): RunRead[] =>
    (repeated ? ids : [null]).map((each) => ({ file: path, run: each ?? id, side }));
  const runsRead = [
    ...(baselinePath !== null && b ? read(baselinePath, lists?.baseline ?? [], b.run_id, 'baseline') : []),
    ...read(inputs.candidatePath, lists?.candidate ?? [], c.run_id, 'candidate'),
  ];
  const repeatWarnings = repeatedCompared?.repeatWarnings ?? [];
  return { compared, inputs, runsRead, parallel: inParallel !== null, repeatWarnings };
}

/** The runs of each side when a run option names several (`a,b,c`, `all`, `all:SUITE`); null when each names one. */
interface RunLists {
  /** null: the database's newest run (a side that names no run). */
  baseline: Array<string | null>;
  candidate: Array<string | null>;
}

async function repeatedRuns(inputs: CompareInputs): Promise<RunLists | null> {
  const baseline =
    inputs.baselinePath !== null && inputs.baselineRun
      ? await sideRunsNamed(inputs.baselinePath, inputs.baselineRun, '--baseline-run')
      : null;
  const candidate = inputs.candidateRun
    ? await sideRunsNamed(inputs.candidatePath, inputs.candidateRun, '--candidate-run')
    : null;
  if (baseline === null && candidate === null) return null;
  if (inputs.baselinePath === null && candidate !== null && candidate.length > 1)
    throw new InputError('--candidate-run: several candidate runs need a baseline (not --baseline none)');
  return {
    baseline: inputs.baselinePath === null ? [] : (baseline ?? [inputs.baselineRun ?? null]),
    candidate: candidate ?? [inputs.candidateRun ?? null],
  };
}

/**
 * The runs a side's run option names when it names several: ids separated by commas, `all` (every run of the
 * database, when its runs are of one suite) or `all:SUITE` (every run of that suite), in the order written. Null
 * when it names one run (as runsNamed). Ambiguity, an unknown id or suite, an empty or repeated id: an InputError.
 */
export async function sideRunsNamed(runPath: string, value: string, flag: string): Promise<string[] | null> {
  if (value !== 'all' && !value.startsWith('all:') && !value.includes(',')) return null;
  const runs = await runsIn(runPath);
  const ids = runs.map((r) => r.id);
  if (ids.includes(value)) return null;
  const suites = [...new Set(runs.map((r) => r.suite))].sort();
  const suiteList = () =>
    suites
      .slice(0, 10)
      .map((s) => `\`${oneLine(s)}\` (${plural(runs.filter((r) => r.suite === s).length, 'run', 'runs')})`)
      .join(', ');
  if (value === 'all') {
    if (suites.length > 1)
      throw new InputError(
        `${runPath}: ${flag} all is ambiguous: the database holds runs of ${suites.length} suites (${suiteList()}); ` +
          `name one suite (${flag} all:${oneLine(suites[0])}) or the runs (${flag} a,b,c)`,
      );
    return ids;
  }
  if (value.startsWith('all:')) {
    const suite = value.slice(4);
    const of = runs.filter((r) => r.suite === suite).map((r) => r.id);
    if (of.length === 0)
      throw new InputError(
        `${runPath}: ${flag}: no run of suite \`${oneLine(suite)}\` in \`eval_runs\`${suggest(suite, suites)} (suites: ${suiteList()})`,
      );
    return of;
  }
  return listedRuns(runPath, value, flag, ids);
}

/** The ids of a comma list, each checked against the database's (`present`). */
function listedRuns(runPath: string, value: string, flag: string, present: string[]): string[] {
  const ids = value.split(',').map((id) => id.trim());
  const listed = () =>
    `(runs: ${present
      .slice(0, 20)
      .map((id) => oneLine(id))
      .join(', ')}${present.length > 20 ? `, and ${present.length - 20} more` : ''})`;
  const seen = new Set<string>();
  for (const id of ids) {
    if (id === '') throw new InputError(`${flag}: ${JSON.stringify(value)} has an empty run id ${listed()}`);
    if (seen.has(id)) throw new InputError(`${flag}: run \`${oneLine(id)}\` is given twice`);
    seen.add(id);
    if (!present.includes(id))
      throw new InputError(
        `${runPath}: ${flag}: no run \`${oneLine(id)}\` in \`eval_runs\`${suggest(id, present)} ${listed()}`,
      );
  }
  return ids;
}

/** Each side's runs scored one after another (one run database in memory at a time), means per query compared. */
async function compareRepeated(
  inputs: CompareInputs & { baselinePath: string },
  lists: RunLists,
  golden: GoldenSet,
  options: Partial<CompareOptions>,
  mayDiffer: readonly string[] | undefined,
): Promise<RepeatedComparison> {
  const opens = async (path: string, ids: Array<string | null>) => {
    const out: Array<() => RunStream> = [];
    for (const id of ids) out.push(await deferRunStream(path, id));
    return out;
  };
  return compareRepeatedRuns(
    await opens(inputs.baselinePath, lists.baseline),
    await opens(inputs.candidatePath, lists.candidate),
    golden,
    options,
    inputs.knownFlaky,
    mayDiffer,
  );
}

/** One run per side: the queries flaky by history set aside (unchanged without any). */
function withKnownFlaky(
  compared: ReturnType<typeof compareRuns>,
  knownFlaky: ReadonlyMap<string, string> | undefined,
): ReturnType<typeof compareRuns> {
  if (!knownFlaky || knownFlaky.size === 0) return compared;
  const ks = compared.report.options.ks;
  return setAsideFlaky(compared, {
    baseline: null,
    candidate: null,
    knownFlaky,
    rule: { k: Math.max(...ks), labels: false },
    queries: null,
  });
}

/**
 * One run database in memory at a time: the baseline is scored and released before the candidate is opened (its
 * path and header are checked first, so a wrong path fails before any scoring).
 */
async function compareCandidateAlone(
  inputs: CompareInputs,
  golden: GoldenSet,
  options: Partial<CompareOptions>,
): Promise<ReturnType<typeof compareRuns>> {
  const candidate = await openRunStream(inputs.candidatePath, inputs.candidateRun);
  return compareCandidateOnly(candidate, golden, options);
}

async function compareInSequence(
  inputs: CompareInputs & { baselinePath: string },
  golden: GoldenSet,
  options: Partial<CompareOptions>,
): Promise<ReturnType<typeof compareRuns>> {
  const baseline = await openRunStream(inputs.baselinePath, inputs.baselineRun);
  const openCandidate = await deferRunStream(inputs.candidatePath, inputs.candidateRun);
  let candidate: RunStream | null = null;
  try {
    return compareRuns(baseline, () => (candidate = openCandidate()), golden, options);
  } finally {
    baseline.release?.();
    (candidate as RunStream | null)?.release?.();
  }
}

/**
 * Two cores: a worker thread scores the candidate while this thread scores the baseline, each reading the golden
 * set itself. Null when the chunker versions differ (declared or seen in the hits): that case needs both runs'
 * chunks and is scored in sequence.
 */
async function compareInParallel(
  inputs: CompareInputs & { baselinePath: string },
  golden: () => GoldenSet,
  options: Partial<CompareOptions>,
  t: ReturnType<typeof tracer>,
): Promise<ReturnType<typeof compareRuns> | null> {
  const strict = options.strictChunkerVersion ?? false;
  // The merged options (the config's k and mrr_cutoff included), less compare's own keys.
  const { strictChunkerVersion: _s, seed: _seed, permutations: _p, alpha: _a, ...given } = options;
  const scoring = { ...DEFAULT_OPTIONS, ...given, chunkMatch: 'exact' as const };
  const { referenceChunks: _unused, ...workerOptions } = scoring;
  t.mark('worker started');
  const worker = scoreRunInWorker({
    runPath: inputs.candidatePath,
    runId: inputs.candidateRun ?? null,
    goldenPath: inputs.goldenPath,
    options: workerOptions,
  });
  let baseline: RunStream | null = null;
  try {
    const goldenSet = golden();
    t.mark('golden set read');
    baseline = await openRunStream(inputs.baselinePath, inputs.baselineRun);
    const candidateMeta = await openRunStream(inputs.candidatePath, inputs.candidateRun);
    candidateMeta.release?.();
    t.mark('run tables read');
    if (declaredVersionsDiffer(baseline, candidateMeta, strict)) {
      worker.cancel();
      return null;
    }
    const bs = scoreToTable(baseline, goldenSet, { ...scoring, referenceChunks: null });
    baseline.release?.();
    t.mark('baseline scored into its table');
    // While the worker finishes: the baseline's side of the comparison (reused when the candidate has the same stages).
    const prepared = prepareBaseline(bs, scoring);
    t.mark('baseline measured');
    const reply = await worker.reply;
    const cs = tableFromTransfer(reply.ok, candidateMeta, goldenSet, { ...scoring, referenceChunks: null });
    t.mark('candidate table received');
    await t.worker(Promise.resolve(reply.phases));
    return compareExactlyScored(bs, cs, options, prepared);
  } catch (error) {
    worker.cancel();
    throw error;
  } finally {
    baseline?.release?.();
  }
}

export interface AggregateInputs {
  runPath: string;
  goldenPath: string;
  runId?: string | null;
  options?: Partial<AggregateOptions>;
  /** Store the aggregate in the run's `eval_runs.aggregate_json` (kebab's keys filled), replacing the file atomically. */
  write?: boolean;
  /** Told each phase as it ends (EVALVERDICT_TRACE=1 in the entries). */
  trace?: Trace;
}

export interface AggregateOutputs {
  report: AggregateReport;
  defs: MetricDef[];
  runId: string;
  /** The golden set's warnings (unknown keys). */
  warnings: Warning[];
  /** Whether a worker thread scored half of the results (see src/pipeline/twoThreads.ts). */
  parallel: boolean;
}

/**
 * When a second thread pays off for aggregate: each thread reads half of a JSON Lines golden set and scores its
 * queries' results, so the gain grows with the golden set; the second heap costs memory, and a small run gains
 * nothing (bench/README.md). YAML golden sets are read in one thread.
 */
const SPLIT_MIN_GOLDEN_BYTES = 16 << 20;
const SPLIT_MIN_RUN_BYTES = 64 << 20;

/**
 * When scoring the candidate in a worker pays off for compare: the worker loads the bundle, compiles sql.js and
 * reads the golden set again, which a run under 64 MiB does not win back in wall time (bench/README.md).
 */
function worthAWorker(candidatePath: string): boolean {
  return workerMode() === 'always' || sizeAtLeast(candidatePath, SPLIT_MIN_RUN_BYTES);
}

function worthSplitting(runPath: string, goldenPath: string): boolean {
  if (goldenFormatOf(goldenPath) !== 'jsonl') return false;
  if (workerMode() === 'always') return true;
  return sizeAtLeast(goldenPath, SPLIT_MIN_GOLDEN_BYTES) && sizeAtLeast(runPath, SPLIT_MIN_RUN_BYTES);
}

function sizeAtLeast(path: string, bytes: number): boolean {
  try {
    return statSync(path).size >= bytes;
  } catch {
    return false; // the readers name the missing file
  }
}

/**
 * load -> aggregate (-> store): `evalverdict aggregate` and the action's `write-aggregate`. From a bundle, a large run
 * with a large JSON Lines golden set is scored by two threads, a golden half each (the same table as one pass).
 */
export async function runAggregate(inputs: AggregateInputs): Promise<AggregateOutputs> {
  const t = tracer(inputs.trace);
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  // Refused before scoring too, not only before writing: scoring a large run only to refuse its --write wastes it.
  if (inputs.write) checkReplaceable(inputs.runPath);
  const inTwo =
    workersAvailable() && worthSplitting(inputs.runPath, inputs.goldenPath)
      ? await aggregateInTwoThreads(
          { runPath: inputs.runPath, runId: inputs.runId ?? null, goldenPath: inputs.goldenPath, options },
          t.mark,
        )
      : null;
  if (inTwo !== null) await t.worker(Promise.resolve(inTwo.phases));
  const { table, warnings } = inTwo ?? (await aggregateInOneThread(inputs, options, t.mark));
  const runId = table.run.run.runId;
  const defs = metricTableFor(table);
  const report = aggregateScored(table, defs);
  t.mark('aggregated');
  const findings = await runFormatFindings([[inputs.runPath, runId]], aggregateGoldenView(inputs.goldenPath, report));
  const resultWarnings = notes([
    unknownResultsWarning(inputs.runPath, runId, report.unknown_query_ids),
    duplicateResultsWarning(inputs.runPath, runId, report.duplicate_query_ids),
    cappedResultsWarning(inputs.runPath, runId, report.capped_query_ids ?? []),
    ignoredStagesWarning(inputs.runPath, runId, table.ignoredStageTimings),
    ...findings.map(formatFinding),
  ]);
  if (inputs.write) await storeAggregate(inputs.runPath, runId, report);
  return { report, defs, runId, warnings: [...warnings, ...resultWarnings], parallel: inTwo !== null };
}

async function aggregateInOneThread(
  inputs: AggregateInputs,
  options: AggregateOptions,
  mark: (label: string) => void,
): Promise<{ table: AggregateTable; warnings: Warning[] }> {
  // The run is opened before the golden set is read: the other way round, the golden set's garbage was still in
  // the heap when sql.js took its memory. With both files wrong, the golden file's error is the one reported.
  let whole: RunStream;
  try {
    whole = await openRunStream(inputs.runPath, inputs.runId);
  } catch (error) {
    if (error instanceof InputError) readGoldenFile(inputs.goldenPath); // throws the golden file's error, if it has one
    throw error;
  }
  try {
    const golden = readGoldenFile(inputs.goldenPath);
    mark('golden set read');
    const table = aggregateTableOf(scoreToTable(whole, golden, options));
    mark('run scored into its table');
    return { table, warnings: golden.warnings };
  } finally {
    whole.release?.();
  }
}

/** The aggregate in the run's `eval_runs.aggregate_json` (kebab's keys), the file replaced atomically. */
async function storeAggregate(runPath: string, runId: string, report: AggregateReport): Promise<void> {
  await writeAggregateJson(runPath, runId, stableJson(kebabAggregateJson(report)).trimEnd());
}

export interface PerQueryOutputs {
  report: PerQueryReport;
  /** The golden set's warnings, and those for unknown and duplicate result rows. */
  warnings: Warning[];
}

/** load -> per-query rows of one run (`evalverdict aggregate --per-query`): each golden query's row, in golden order. */
export async function runPerQuery(inputs: Omit<AggregateInputs, 'write'>): Promise<PerQueryOutputs> {
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  let run: RunStream;
  try {
    run = await openRunStream(inputs.runPath, inputs.runId);
  } catch (error) {
    if (error instanceof InputError) readGoldenFile(inputs.goldenPath); // the golden file's error first, as aggregate
    throw error;
  }
  try {
    const golden = readGoldenFile(inputs.goldenPath);
    const { rows, unknownQueryIds, duplicateQueryIds, cappedQueryIds } = perQueryRows(run, golden, options);
    const pending = rows.filter((r) => r.pending).length;
    const runId = run.run.runId;
    return {
      report: {
        run: summariseRun(run),
        golden: { fingerprint: golden.fingerprint, queries: rows.length - pending, pending },
        rows,
        unknown_query_ids: unknownQueryIds,
        duplicate_query_ids: duplicateQueryIds,
        ...(cappedQueryIds.length > 0 ? { capped_query_ids: cappedQueryIds } : {}),
      },
      warnings: [
        ...golden.warnings,
        ...notes([
          unknownResultsWarning(inputs.runPath, runId, unknownQueryIds),
          duplicateResultsWarning(inputs.runPath, runId, duplicateQueryIds),
          cappedResultsWarning(inputs.runPath, runId, cappedQueryIds),
        ]),
      ],
    };
  } finally {
    run.release?.();
  }
}

/**
 * The run ids of a database in the order they were written (rowid; by run_id for a table without one), after the
 * reader's checks of the file (a wrong file fails with the reader's message).
 */
export async function runIdsIn(runPath: string): Promise<string[]> {
  return (await runsIn(runPath)).map((r) => r.id);
}

/** runIdsIn with each run's suite. */
async function runsIn(runPath: string): Promise<Array<{ id: string; suite: string }>> {
  (await openRunStream(runPath)).release?.();
  const db = await openRunDatabase(runPath);
  try {
    let rows: ReturnType<typeof db.exec>;
    try {
      rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY rowid');
    } catch {
      rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY run_id');
    }
    return (rows[0]?.values ?? []).map((v) => ({ id: String(v[0]), suite: String(v[1] ?? '') }));
  } finally {
    db.close();
  }
}

/**
 * The runs a `--run` value names when it names several: `all`, or ids separated by commas. Null when it names one
 * run: a value without a comma other than `all`, or the exact id of a run (a run may be called `all` or `a,b`).
 * An id the database does not have, an empty one or one given twice is refused, naming the runs there are.
 */
export async function runsNamed(runPath: string, value: string): Promise<string[] | null> {
  if (value !== 'all' && !value.includes(',')) return null;
  const present = await runIdsIn(runPath);
  if (present.includes(value)) return null;
  if (value === 'all') return present;
  return listedRuns(runPath, value, '--run', present);
}

export interface SideBySideOutputs {
  report: SideBySideReport;
  /** The metric table in the report's order (direction, unit, family). */
  defs: MetricDef[];
  warnings: Warning[];
}

/** Every run of `runIds` aggregated as `aggregate` does, then side by side with the best values marked. */
export async function runAggregateSideBySide(
  inputs: Omit<AggregateInputs, 'write' | 'runId'> & { runIds: string[] },
): Promise<SideBySideOutputs> {
  const outputs: AggregateOutputs[] = [];
  for (const runId of inputs.runIds) outputs.push(await runAggregate({ ...inputs, runId, write: false }));
  const { report, defs } = sideBySide(outputs);
  // each run's reading gives the golden set's warnings again: once each
  const warnings = new Map(outputs.flatMap((o) => o.warnings).map((w) => [JSON.stringify(w), w]));
  return { report, defs, warnings: [...warnings.values()] };
}
