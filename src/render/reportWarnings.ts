/**
 * What a comparison warns about, as data (src/warnings.ts ReportWarning): one list that the Markdown comment, the
 * text report and the entries' stderr each word in their own format. Pure.
 */
import type { CompareReport } from '../gate/types.js';
import { millisecondsBetween } from '../time.js';
import type { ReportWarning, RunnerMistakeWarning } from '../warnings.js';
import { ageBetween, commitOf, otherRecordedGoldenSets } from './reportParts.js';
import type { ReportContext } from './reportContext.js';

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
