/**
 * What a comparison warns about, as data (src/warnings.ts ReportWarning): one list that the Markdown comment, the
 * text report and the entries' stderr each word in their own format. Pure.
 */
import type { HistoryTrend } from '../compare/historyTrend.js';
import type { CompareReport } from '../gate/types.js';
import type { NoiseFloor } from '../gate/noise.js';
import { millisecondsBetween } from '../time.js';
import type { ReportWarning, RunnerMistakeWarning } from '../warnings.js';
import { ageBetween, commitOf, otherRecordedGoldenSets } from './reportParts.js';

/** Links the report can give; only the action knows them. */
export interface ReportContext {
  /** `https://github.com/owner/repo`: commit hashes link to `<repoUrl>/commit/<sha>`. */
  repoUrl?: string;
  /** The workflow run, whose page shows the job summary. */
  runUrl?: string;
  /** The commit the workflow evaluated (a pull request's head); the candidate's when its database records none. */
  headSha?: string;
  /** The baseline run is stale when older than `maxAgeDays` (0: never) at `now` (an ISO time: the action's clock). */
  staleAfter?: { now: string; maxAgeDays: number };
  /**
   * Where the baseline came from when the action found it (`artifact:NAME`); `headSha`, the head commit of the run
   * that uploaded it, is the baseline's commit when its database records none.
   */
  baselineFrom?: { source: string; runUrl: string; commitsBehind: number; baseCommitRun: boolean; headSha?: string };
  /** The gate config that produced the verdict, named in every format (set by the pipeline). */
  config?: ConfigOrigin;
  /** Why the baseline and the candidate are one run, when they are (set by the pipeline, which knows the paths). */
  sameRun?: SameRunReason | null;
  /** Main's history: the gated metrics' trend and the queries flaky by history, shown when given. */
  trend?: HistoryTrend;
  /**
   * The runs' mistakes that change what is scored (a misspelt key, hits that can match nothing), found by the checks
   * `evalverdict validate` runs (set by the pipeline): warned of before the queries without a result.
   */
  runnerMistakes?: readonly RunnerMistakeWarning[];
}

/** Where the gate config came from: a file or the action's `gates` input, with its hash; null: the built-in default. */
export interface ConfigOrigin {
  source: string | null;
  /** The first 12 hex digits of the SHA-256 of the config's text; null for the built-in default. */
  sha256: string | null;
  /** The noise floor the config carries (`noise:`, written by `evalverdict calibrate`), named by the reports. */
  noise?: NoiseFloor;
}

export type SameRunReason = 'same database and run' | 'same run id and results';

/** The config as the text report and stderr name it: `PATH (sha256 0123456789ab)`, or `built-in default`. */
export function configText(config: ConfigOrigin): string {
  return config.source === null ? 'built-in default' : `${config.source} (sha256 ${config.sha256})`;
}

/** "12 days" when the baseline run is older than the action's `baseline-max-age`, else null. */
export function staleAge(createdAt: string, context: ReportContext): string | null {
  const limit = context.staleAfter;
  if (!limit || limit.maxAgeDays <= 0) return null;
  const age = ageBetween(createdAt, limit.now);
  if (age === null || age.negative) return null;
  return millisecondsBetween(createdAt, limit.now)! > limit.maxAgeDays * 86_400_000 ? age.text : null;
}

/** The report's warnings, in the order the comment lists them. */
export function reportWarnings(report: CompareReport, context: ReportContext = {}): ReportWarning[] {
  const { golden } = report;
  const out: ReportWarning[] = [...runWarnings(report, context), ...(context.runnerMistakes ?? [])];
  if (golden.removed.length)
    out.push({
      kind: 'missing_results',
      count: golden.removed.length,
      ...(report.options.mean_over === 'trec' ? { leftOut: true } : {}),
    });
  if (golden.added.length) out.push({ kind: 'added_results', count: golden.added.length });
  for (const side of ['baseline', 'candidate'] as const) {
    const unknown = golden.unknown_query_ids[side].length;
    if (unknown) out.push({ kind: 'unknown_results', side, count: unknown });
    const repeated = golden.duplicate_query_ids[side].length;
    if (repeated) out.push({ kind: 'duplicate_results', side, count: repeated });
    const capped = golden.capped_query_ids?.[side].length ?? 0;
    if (capped) out.push({ kind: 'capped_results', side, count: capped });
  }
  for (const { side, recorded } of otherRecordedGoldenSets(report))
    out.push({ kind: 'other_golden_set', side, recorded, fingerprint: golden.fingerprint });
  if (!report.judge_comparable) out.push({ kind: 'judge_differs' });
  if (golden.pending) out.push({ kind: 'pending', count: golden.pending });
  return out;
}

/** Which runs were compared: a stale, distant, swapped or repeated baseline, a candidate of another commit. */
function runWarnings(report: CompareReport, context: ReportContext): ReportWarning[] {
  const { baseline: b, candidate: c } = report;
  const out: ReportWarning[] = [];
  if (context.sameRun) out.push({ kind: 'same_run', runId: c.run_id, why: context.sameRun });
  const stale = b === null ? null : staleAge(b.created_at, context);
  if (stale) out.push({ kind: 'stale_baseline', age: stale, maxAgeDays: context.staleAfter!.maxAgeDays });
  const from = context.baselineFrom;
  if (from && !from.baseCommitRun) out.push({ kind: 'baseline_behind', commitsBehind: from.commitsBehind });
  const age = b === null ? null : ageBetween(b.created_at, c.created_at);
  if (age?.negative) out.push({ kind: 'swapped_runs', age: age.text });
  const head = context.headSha ? commitOf(context.headSha) : null;
  const candidateSha = commitOf(c.commit_hash);
  if (head && candidateSha && !head.startsWith(candidateSha) && !candidateSha.startsWith(head))
    out.push({ kind: 'candidate_commit', candidate: candidateSha, head });
  return out;
}

/** More than half of the run's results show the mistake. */
export const inMostResults = (m: RunnerMistakeWarning): boolean => m.queries * 2 > m.results;

/**
 * The runs most of whose results have hits that can match nothing in the golden set: their scores are mostly a
 * runner's mistake, so the verdict line says so itself (warnings.ts, verdictCaveatText), not only a warning below.
 */
export function mostlyUnmatchable(context: ReportContext): RunnerMistakeWarning[] {
  return (context.runnerMistakes ?? []).filter((m) => m.check === 'unmatchable-hit' && inMostResults(m));
}

/**
 * The runner mistakes as the JSON report's `runner_warnings` (docs/compare.md, "The JSON report"): each with its side,
 * run, check and field (as `evalverdict validate` names them), the key meant, its count of the run's results, and
 * whether that is more than half of them (`most_results`: with `unmatchable-hit`, what the verdict line names).
 */
export function runnerWarningsJson(mistakes: readonly RunnerMistakeWarning[]): Array<Record<string, unknown>> {
  return mistakes.map((m) => ({
    side: m.side,
    run: m.run,
    check: m.check,
    field: m.field,
    meant: m.meant,
    queries: m.queries,
    results: m.results,
    first_query: m.firstQuery,
    most_results: inMostResults(m),
  }));
}
