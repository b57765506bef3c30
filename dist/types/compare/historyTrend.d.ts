import type { ChangePoint } from '../stats/changePoint.js';
import type { Comparison } from './types.js';
import type { History, HistoryRun } from '../load/historyFile.js';
export declare function emptyHistory(maxRuns?: number): History;
/** The metrics the report's whole-set gates read, in the gates' order, each once. */
export declare function gatedMetrics(report: {
    gates: ReadonlyArray<{
        metric: string;
        where?: unknown;
    }>;
}): string[];
/**
 * The history with the report's candidate appended (with the values of `metricIds`, gatedMetrics' list) as its newest run, the oldest dropped beyond `max_runs`. The
 * query list becomes the report's; older runs' outcomes are carried over by query id (`-` where unknown). A
 * candidate-only report has no per-query outcomes: its run's are all `-`.
 */
export declare function appendRun(history: History, report: Comparison, metricIds: readonly string[]): History;
/** The runs of the newest run's golden set (the series trends and flips are read from), oldest first. */
export declare function currentRuns(history: History): HistoryRun[];
/**
 * A query flaky by history has the rarer of its hit and miss outcomes in at least this share of main's runs (its hit
 * rate between 1/4 and 3/4): in 20 runs, 5 misses of an always-found query. Rare random misses are not flaky.
 */
export declare const HISTORY_FLAKY_SHARE = 0.25;
/**
 * Queries flaky by history: among the runs of the newest golden set (`-` skipped), a query whose hit/miss outcome
 * changed at least twice (`minFlips`) and whose rarer outcome is at least HISTORY_FLAKY_SHARE of its runs. A real
 * change flips a query once and it stays; two flips mean it went and came back (noise, or a change undone); the
 * share scales the rule with the runs, so an always-found query missed once or twice in 20 runs is not flaky.
 * Query id -> the reason, for CompareInputs.knownFlaky.
 */
export declare function flakyByHistory(history: History, minFlips?: number): Map<string, string>;
/** What the report shows of a history: each metric's series over the newest golden set's runs, with its change point. */
export interface HistoryTrend {
    /** Runs of the series (the newest golden set's), oldest first: their commits and times. */
    runs: Array<{
        commit: string | null;
        time: string;
    }>;
    /** Runs of other golden sets left out of the series. */
    otherGolden: number;
    metrics: Array<{
        id: string;
        values: Array<number | null>;
        changePoint: ChangePoint | null;
    }>;
    /** Queries flaky by history (flakyByHistory), query id -> reason. */
    flaky: Map<string, string>;
    /**
     * The change-point test's settings, for the report's line on the method: the fewest runs a shift lasts (and
     * follows), the false-alarm rate, the fewest runs tested, the largest AR(1) coefficient guarded against.
     */
    test: {
        minSegment: number;
        alpha: number;
        minRuns: number;
        arMax: number;
    };
}
/**
 * The trend of `metricIds` (the report's gated metrics; those the history has no value of are left out) over the
 * newest golden set's runs. A metric with a missing value in the series gets no change point.
 */
export declare function trendOf(history: History, metricIds: readonly string[]): HistoryTrend;
