import type { MetricDef } from '../aggregate/metrics/types.js';
import type { CommitSource, MetricComparison, QueryOutcome } from '../compare/types.js';
import type { CompareReport, GateResult } from '../gate/types.js';
/** Rows shown before the first `<details>` (docs/compare.md names this budget). */
export declare const OPEN_GATE_ROWS = 8;
export declare const OPEN_METRIC_ROWS = 8;
export declare const OPEN_QUERY_ROWS = 10;
/** Metrics worth a reviewer's glance, in this order, when the runs have them (the action's `summary` too). */
export declare const KEY_METRICS: string[];
/** "95%" for alpha 0.05: a level as the report prints it (the metric tables at 1 - alpha, a gate at its own). */
export declare function intervalLevel(alpha: number): string;
export declare function unitOf(metric: string, byId: Map<string, MetricDef>): string | undefined;
/**
 * The report with every p-value and interval as the reports print them (`shownP`, `shownEnd`): the JSON report and
 * the action's outputs then agree with the marks and outcomes too, which were decided on the exact values before this.
 */
export declare function withShownPValues(report: CompareReport): CompareReport;
/**
 * An interval end as every output prints it: an end within 0.00005 of 0 but not 0 is ±0.0001, on its own side.
 * Which side of 0 an end is on is the test's answer, and 4 decimals (the JSON report's) would make it 0.
 */
export declare function shownEnd(x: number): number;
/** A `where` group as its pairs, `category=what` (`k=v, k=v` for more keys), the values as they are. */
export declare function wherePairs(where: Record<string, string | boolean>): string;
/**
 * " where category=what" after a gate's metric, '' for a gate without a group: how every output names a group.
 * `shown` is the output's own escaping of the pairs (the comment's Markdown escape, the terminal's plain text).
 */
export declare function whereText(where: Record<string, string | boolean> | undefined, shown?: (pairs: string) => string): string;
/** A gate's value as the reports name it: its delta, or its candidate value for a `min`/`max` gate. */
export declare function gateValueText(g: GateResult, unit: string | undefined): string;
/** " (paired −0.4000)" where the gate's test is of a paired change that is not the means' delta; else nothing. */
export declare function pairedShort(g: GateResult, unit: string | undefined): string;
/**
 * The same, with what the gate itself used: a tested gate's interval (at its own level) and its one-sided p and
 * adjusted p; a relative threshold's relative change. A gate without a test shows no p.
 */
export declare function gateChangeText(g: GateResult, report: CompareReport, byId: Map<string, MetricDef>): string;
/** The delta and its relative change where the threshold is relative (`+187 (+22%)`), without the test. */
export declare function gateDeltaShort(g: GateResult, unit: string | undefined): string;
/** The gate table's delta cell: the delta, its relative change where the threshold is relative, the gate's test. */
export declare function gateDeltaText(g: GateResult, unit: string | undefined, alpha: number): string;
/** An interval as every table prints it; each end keeps its sign when it rounds to 0 (— for none). */
export declare function intervalText(ci: [number, number] | null, unit: string | undefined): string;
/** The p of the gate's bounds, as gates.ts words it; '' for a gate without a test. */
export declare function gatePText(g: GateResult, alpha: number): string;
/** The row's result as words: a `where` group below min_n says so, an inconclusive gate says why. */
export declare function gateResultWords(g: GateResult): string;
/**
 * Advice for an inconclusive tested gate: "finds 0.72 (80%)", with "> margin 0.1" when the margin is out of its
 * reach. Power decides nothing: a gate that passed or failed gets none.
 */
export declare function detectableText(g: GateResult, unit: string | undefined): string;
/**
 * One sentence for the verdict line when a tested gate cannot see a drop of its margin's size: what it detects
 * and how many queries would bring it to the margin (the largest need among such gates). Null when all can.
 */
export declare function adviceSentence(report: CompareReport): string | null;
/** Gates that make the verdict fail, then those that warn, then inconclusive ones accepted, in config order. */
export declare function gatesToName(report: CompareReport): GateResult[];
/** The verdict as words: an inconclusive gate never reads as a plain pass. */
export type VerdictWord = 'fail' | 'inconclusive' | 'pass with warnings' | 'pass, inconclusive accepted' | 'pass';
export declare function verdictWord(report: CompareReport): VerdictWord;
/** "2 of 5 gates failed, 1 gate warned, 2 inconclusive", "all 5 gates passed", "no gates configured". */
export declare function gateTally(report: CompareReport): string;
/** Gates shown open: all of them when few, else the ones that did not pass (the rest are in "All gates"). */
export declare function openGates(report: CompareReport): GateResult[];
/** Key metrics with a value on either side: gated metrics first, then the usual ones, at most OPEN_METRIC_ROWS. */
export declare function keyMetrics(report: CompareReport): string[];
/** Metrics whose two denominators differ: the one thing the key-metric columns do not show. */
export declare function changedDenominators(report: CompareReport, ids: string[]): Array<[string, MetricComparison]>;
/**
 * The per-query outcomes as a partition of the compared queries, each counted once by its first relevant hit (a
 * flaky one set aside), then the answer regressions, which are among those queries and so not added to them.
 */
export declare function perQueryTally(report: CompareReport): string;
/**
 * What puts a row among the regressions and in which order (regressionsBySeverity), in the words the reports head
 * them with: the first relevant hit decides the kind, `metric` (the report's per_query_metric) the order within one.
 */
export declare function regressionOrder(metric: string): string;
/** "Regressions (10 of 31): lost hits, then …": the heading of the worst rows, saying their order. */
export declare function regressionsHeading(shown: number, total: number, metric: string): string;
/**
 * Regressions, losses and answer regressions by kind (a lost hit before a slipped rank before an answer alone),
 * then the metric delta, then the query id.
 */
export declare function regressionsBySeverity(perQuery: QueryOutcome[]): QueryOutcome[];
/**
 * The wins' membership and order (winsByGain), as regressionOrder words the regressions': a win is decided by the
 * first relevant hit, so a win's Δ of `metric` can be negative (its rank rose while other relevant hits fell).
 */
export declare function winOrder(metric: string): string;
/** Wins in winOrder: a first relevant hit found before a rank that improved; then the metric delta, largest first. */
export declare function winsByGain(perQuery: QueryOutcome[]): QueryOutcome[];
/** Answer changes, those for the worse first. */
export declare function answerChanges(perQuery: QueryOutcome[]): QueryOutcome[];
/** "3 h", "2 days": the gap between two timestamps, or null when either does not parse. */
export declare function ageBetween(earlier: string, later: string): {
    text: string;
    negative: boolean;
} | null;
/** A commit hash the report may link: hex only (the value comes from a run database). */
export declare function commitOf(hash: string | null): string | null;
/** The commits the action's workflow context knows, for runs whose database records none. */
export interface WorkflowCommits {
    /** The commit the workflow run evaluated (a pull request's head): the candidate's. */
    headSha?: string;
    /** Where the action found the baseline; `headSha` is the head commit of the run that uploaded its artifact. */
    baselineFrom?: {
        headSha?: string;
    };
}
/**
 * The report with each run's commit and where it came from (`commit_source`): the commit its database records
 * wins; a run that records none takes the workflow context's (`workflow_run`), else stays without one (null).
 */
export declare function withWorkflowCommits(report: CompareReport, context: WorkflowCommits): CompareReport;
/** Where a run's commit came from, in words, when not from its own database ("from the workflow run"). */
export declare function commitSourceText(side: 'baseline' | 'candidate', source: CommitSource | null | undefined): string;
/** The first relevant rank as a cell: a rank, `miss`, or `missing` when the run has no result for the query. */
export declare function rankText(rank: number | null, missing: boolean): string;
/** The verdict in one plain line, for a commit status (GitHub keeps 140 characters): the gates that failed first. */
export declare function statusHeadline(report: CompareReport, defs: MetricDef[]): string;
/** How many queries each match mode scored, loosest last: "2 exact, 3 by document and span". */
export declare function chunkMatchSummary(report: CompareReport): string | null;
/** Each run whose stored aggregate was computed on another golden set than the one compared with, and that set's. */
export declare function otherRecordedGoldenSets(report: CompareReport): Array<{
    side: 'baseline' | 'candidate';
    recorded: string;
}>;
/** How much lower the candidate's judged@10 may be than the baseline's before the report says so (docs/gates.md). */
export declare const UNJUDGED_GAP = 0.05;
/**
 * With TREC-style judgments, a candidate that surfaces documents nobody judged loses P, nDCG and MAP although nothing
 * may be worse: when its judged@10 is lower than the baseline's by more than UNJUDGED_GAP, one sentence says so.
 */
export declare function unjudgedNote(report: CompareReport): string | null;
/**
 * The slice the verdict line names when the gates hold per slice: a failing slice first, else an inconclusive or
 * warning one, else the tested slice with the strongest sign of a drop (the smallest one-sided p); with how many
 * slices share its state. Null when no slice was tested.
 */
export declare function sliceToName(report: CompareReport): {
    gate: GateResult;
    state: 'failing' | 'worst';
    others: number;
} | null;
/**
 * "traded nDCG@10 −0.0370 for 47% lower latency: within the trade's margin 0.0500", for the verdict line: the first
 * gate a trade passed (and how many more).
 */
export declare function tradeVerdictText(report: CompareReport, byId: Map<string, MetricDef>, code: (text: string) => string): string | null;
/** "traded for 49% lower latency, a fall of 25% or more shown (600 queries; one-sided p ...)": a traded gate's line. */
export declare function tradedText(g: GateResult, alpha: number): string;
/** "; not traded: ..." for a gate whose trade did not pass it (and was needed), else "". */
export declare function untradedClause(g: GateResult, alpha: number, unit: string | undefined): string;
/** "failing slice category=multi_hop: hit@5 −0.5600, 70 queries" (and "1 more failing"), as the verdict line says it. */
export declare function sliceVerdictText(report: CompareReport, byId: Map<string, MetricDef>, code: (text: string) => string): string | null;
