/**
 * compare's and aggregate's share of `evalverdict validate`: the same checks on each run read, their findings as
 * warnings, and a stop (exit 2) when a run has no hit that can match a golden set that expects hits, where every
 * retrieval metric would read 0 and a runner's bug would look like a regression.
 */
import type { AggregateReport } from '../aggregate/aggregate.js';
import { InputError } from '../errors.js';
import type { GoldenSet, RowNotice } from '../types.js';
import { checkRunFile } from './checkRunFile.js';
import type { RunCheck } from './checkRunFile.js';
import { formatFinding, goldenViewOf } from './findings.js';
import type { FindingCheck, GoldenView, RunFinding, RunnerMistake } from './findings.js';
import type { RunnerMistakeWarning, Side } from '../warnings.js';

/**
 * Rows checked in full before compare and aggregate read on only for a usable hit: a runner's mistake repeats in
 * every row, and a full check of 2 million hits costs more than scoring them (`evalverdict validate` checks every row).
 * Once a row shows a mistake the report names (a misspelt key, an unmatchable hit), or the reader saw one past
 * these rows (load/queryResult.ts, RowNotice), every row is checked, so that its count is validate's: a clean run
 * costs what it did; a run with a mistake pays for the full check (bench/README.md, "What was kept").
 */
export const PIPELINE_CHECK_ROWS = 200;

/**
 * Findings the reports already carry in their own words: unknown_query_ids, duplicate_query_ids, and missing queries
 * (an empty run's every query is missing).
 */
const WARNED_ELSEWHERE: ReadonlySet<FindingCheck> = new Set([
  'not-in-golden',
  'duplicate-query',
  'missing-from-run',
  'empty-run',
]);

/**
 * The findings of each run (path, run id), for the warning list; throws the first blocking one as an InputError,
 * naming the file, the run and the command that shows every finding.
 */
export async function runFormatFindings(
  runs: ReadonlyArray<Omit<RunRead, 'side'>>,
  golden: GoldenView,
): Promise<RunFinding[]> {
  return (
    await runFormatChecks(
      runs.map((r) => ({ ...r, side: 'candidate' as const })),
      golden,
    )
  ).findings;
}

/** A run compare read: its file, its id, its side, and what its reader noticed in every row (load/queryResult.ts). */
export interface RunRead {
  file: string;
  run: string;
  side: Side;
  noticed: RowNotice;
}

/**
 * runFormatFindings for compare, which knows each run's side: the findings for the warning list, and the runner
 * mistakes among them as the report's warnings (each counted over every row of its run).
 */
export async function runFormatChecks(
  runs: readonly RunRead[],
  golden: GoldenView,
): Promise<{ findings: RunFinding[]; mistakes: RunnerMistakeWarning[] }> {
  const findings: RunFinding[] = [];
  const mistakes: RunnerMistakeWarning[] = [];
  for (const { file, run, side, noticed } of runs) {
    let check = await checkRunFile(file, run, golden, { rows: PIPELINE_CHECK_ROWS });
    // The reader looked at every row: what it saw past the rows checked sends the run to a check of every row.
    if (check.partial && missedByCheck(check, noticed))
      check = await checkRunFile(file, run, golden, { rows: Number.POSITIVE_INFINITY });
    const blocking = check.findings.find((f) => f.blocking);
    if (blocking !== undefined) {
      const others = check.findings.filter((f) => !f.blocking && !WARNED_ELSEWHERE.has(f.check)).slice(0, 3);
      const hints = others.length > 0 ? `; found there: ${others.map((f) => f.text).join('; ')}` : '';
      throw new InputError(
        `${formatFinding(blocking)}${hints} (\`evalverdict validate ${file} --golden ${golden.source}\` lists every finding)`,
      );
    }
    findings.push(...check.findings.filter((f) => !WARNED_ELSEWHERE.has(f.check)));
    mistakes.push(...check.mistakes.map((m) => mistakeWarning(m, side, check.rows)));
  }
  return { findings, mistakes };
}

/** Whether the reader saw an unknown key or an unmatchable hit that the check of the first rows did not find. */
function missedByCheck(check: RunCheck, noticed: RowNotice): boolean {
  const found = (kind: FindingCheck, field: string | null) =>
    check.findings.some((f) => f.check === kind && (field === null || f.field === field));
  for (const key of noticed.unknownKeys) if (!found('unknown-key', key)) return true;
  return noticed.unmatchableHit && !found('unmatchable-hit', null);
}

/** A runner mistake as the report's warning: its side, and its count of the run's `results`. */
function mistakeWarning({ finding, meant }: RunnerMistake, side: Side, results: number): RunnerMistakeWarning {
  return {
    kind: 'runner_mistake',
    side,
    run: finding.run,
    check: finding.check === 'unmatchable-hit' ? 'unmatchable-hit' : 'unknown-key',
    field: finding.field ?? '',
    meant,
    queries: finding.count,
    results,
    firstQuery: finding.query ?? '',
  };
}

/** The view compare has: the golden set itself. */
export const compareGoldenView = (golden: GoldenSet): GoldenView => goldenViewOf(golden);

/**
 * The view aggregate has: its report (the golden set was read, perhaps in two threads, and dropped). A golden set
 * expects hits when some retrieval metric counts a query with a relevant expectation; paths are let count as
 * matching, since whether it has gold_supports is not in the report (the lenient side: no false stop).
 */
export function aggregateGoldenView(goldenPath: string, report: AggregateReport): GoldenView {
  const counts = (id: string) => (report.metrics[id]?.n ?? 0) > 0;
  // Under trec_c every query is in rr's denominator, relevant expectation or not: only recall_doc then says.
  const relevant = report.options.mean_over !== 'trec_c' && counts('rr');
  return {
    source: goldenPath,
    queries: null,
    expectsHits: relevant || counts(`recall_doc@${report.options.ks[0]}`),
    pathsMatch: true,
  };
}
