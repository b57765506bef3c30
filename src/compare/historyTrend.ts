/**
 * Main's history: the last N runs of the default branch, each with its commit, time, gated metrics and
 * per-query hit/miss outcome, carried from one main run to the next (docs/history.md). Pure: a report in, a
 * history out; the reader (src/load/historyFile.ts) checks a file before it becomes a History.
 */
import { AR_MAX, CHANGE_POINT_ALPHA, changePointOf, MIN_RUNS, MIN_SEGMENT } from '../stats/changePoint.js';
import type { ChangePoint } from '../stats/changePoint.js';
import type { Comparison } from './types.js';
import { DEFAULT_HISTORY_RUNS, HISTORY_SCHEMA_VERSION } from '../load/historyFile.js';
import type { History, HistoryRun } from '../load/historyFile.js';

export function emptyHistory(maxRuns = DEFAULT_HISTORY_RUNS): History {
  return { schema_version: HISTORY_SCHEMA_VERSION, max_runs: maxRuns, queries: [], runs: [] };
}

/** The metrics the report's whole-set gates read, in the gates' order, each once. */
export function gatedMetrics(report: { gates: ReadonlyArray<{ metric: string; where?: unknown }> }): string[] {
  return [...new Set(report.gates.filter((g) => g.where === undefined).map((g) => g.metric))];
}

/**
 * The history with the report's candidate appended (with the values of `metricIds`, gatedMetrics' list) as its newest run, the oldest dropped beyond `max_runs`. The
 * query list becomes the report's; older runs' outcomes are carried over by query id (`-` where unknown). A
 * candidate-only report has no per-query outcomes: its run's are all `-`.
 */
export function appendRun(history: History, report: Comparison, metricIds: readonly string[]): History {
  const queries = report.per_query.length > 0 ? report.per_query.map((q) => q.query_id) : history.queries;
  const marks = new Map(report.per_query.map((q) => [q.query_id, q.candidate_rank === null ? 'm' : 'h']));
  const metrics: Record<string, number | null> = {};
  for (const id of metricIds) metrics[id] = report.metrics[id]?.candidate ?? null;
  const run: HistoryRun = {
    run_id: report.candidate.run_id,
    commit: report.candidate.commit_hash,
    time: report.candidate.created_at,
    golden: report.golden.fingerprint,
    metrics,
    outcomes: queries.map((id) => marks.get(id) ?? '-').join(''),
  };
  const index = new Map(history.queries.map((id, i) => [id, i]));
  const realign = (r: HistoryRun): HistoryRun =>
    queries === history.queries
      ? r
      : {
          ...r,
          outcomes: queries
            .map((id) => {
              const i = index.get(id);
              return i === undefined ? '-' : (r.outcomes[i] ?? '-');
            })
            .join(''),
        };
  const runs = [...history.runs.map(realign), run].slice(-history.max_runs);
  return { schema_version: HISTORY_SCHEMA_VERSION, max_runs: history.max_runs, queries, runs };
}

/** The runs of the newest run's golden set (the series trends and flips are read from), oldest first. */
export function currentRuns(history: History): HistoryRun[] {
  const newest = history.runs.at(-1);
  return newest ? history.runs.filter((r) => r.golden === newest.golden) : [];
}

/**
 * A query flaky by history has the rarer of its hit and miss outcomes in at least this share of main's runs (its hit
 * rate between 1/4 and 3/4): in 20 runs, 5 misses of an always-found query. Rare random misses are not flaky.
 */
export const HISTORY_FLAKY_SHARE = 0.25;

/**
 * Queries flaky by history: among the runs of the newest golden set (`-` skipped), a query whose hit/miss outcome
 * changed at least twice (`minFlips`) and whose rarer outcome is at least HISTORY_FLAKY_SHARE of its runs. A real
 * change flips a query once and it stays; two flips mean it went and came back (noise, or a change undone); the
 * share scales the rule with the runs, so an always-found query missed once or twice in 20 runs is not flaky.
 * Query id -> the reason, for CompareInputs.knownFlaky.
 */
export function flakyByHistory(history: History, minFlips = 2): Map<string, string> {
  const runs = currentRuns(history);
  const flaky = new Map<string, string>();
  history.queries.forEach((id, i) => {
    let flips = 0;
    let hits = 0;
    let marked = 0;
    let last = '';
    for (const r of runs) {
      const mark = r.outcomes[i];
      if (mark !== 'h' && mark !== 'm') continue;
      marked++;
      if (mark === 'h') hits++;
      if (last !== '' && mark !== last) flips++;
      last = mark;
    }
    if (flips >= minFlips && Math.min(hits, marked - hits) >= HISTORY_FLAKY_SHARE * marked)
      flaky.set(id, `flipped between hit and miss ${flips} times in the last ${runs.length} main runs`);
  });
  return flaky;
}

/** What the report shows of a history: each metric's series over the newest golden set's runs, with its change point. */
export interface HistoryTrend {
  /** Runs of the series (the newest golden set's), oldest first: their commits and times. */
  runs: Array<{ commit: string | null; time: string }>;
  /** Runs of other golden sets left out of the series. */
  otherGolden: number;
  metrics: Array<{ id: string; values: Array<number | null>; changePoint: ChangePoint | null }>;
  /** Queries flaky by history (flakyByHistory), query id -> reason. */
  flaky: Map<string, string>;
  /**
   * The change-point test's settings, for the report's line on the method: the fewest runs a shift lasts (and
   * follows), the false-alarm rate, the fewest runs tested, the largest AR(1) coefficient guarded against.
   */
  test: { minSegment: number; alpha: number; minRuns: number; arMax: number };
}

/**
 * The trend of `metricIds` (the report's gated metrics; those the history has no value of are left out) over the
 * newest golden set's runs. A metric with a missing value in the series gets no change point.
 */
export function trendOf(history: History, metricIds: readonly string[]): HistoryTrend {
  const runs = currentRuns(history);
  const metrics = metricIds
    .filter((id) => runs.some((r) => typeof r.metrics[id] === 'number'))
    .map((id) => {
      const values = runs.map((r) => r.metrics[id] ?? null);
      const complete = values.every((v): v is number => v !== null);
      return { id, values, changePoint: complete ? changePointOf(values) : null };
    });
  return {
    runs: runs.map((r) => ({ commit: r.commit, time: r.time })),
    otherGolden: history.runs.length - runs.length,
    metrics,
    flaky: flakyByHistory(history),
    test: { minSegment: MIN_SEGMENT, alpha: CHANGE_POINT_ALPHA, minRuns: MIN_RUNS, arMax: AR_MAX },
  };
}
