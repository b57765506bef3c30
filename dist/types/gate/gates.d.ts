import type { MetricDef } from '../aggregate/metrics/types.js';
import type { ComparedRuns, Comparison, MetricComparison } from '../compare/types.js';
import type { GateConfig } from './config.js';
import type { GatedRuns, GateResult, Verdict } from './types.js';
type CountKey = keyof Comparison['counts'];
/** Gate-only metrics: per-query outcome counts of the comparison (candidate side only). */
export declare const COUNT_METRICS: Record<string, CountKey>;
export interface GateContext {
    defs: Map<string, MetricDef>;
    metrics: Record<string, MetricComparison>;
    breakdowns: Comparison['breakdowns'];
    /** Queries per breakdown group (the candidate's, same golden set). */
    groupSizes: Record<string, Record<string, number>>;
    counts: Comparison['counts'];
    alpha: number;
    /** False for a candidate-only report: gates that compare with a baseline have no data. Default true. */
    hasBaseline?: boolean;
    /** A paired metric's per-query differences (candidate - baseline), for tested gates. */
    pairedDiffsOf?: ComparedRuns['pairedDiffsOf'];
    /** A per-query quantity on both sides, for trades' costs. */
    pairedQuantityOf?: ComparedRuns['pairedQuantityOf'];
    /** The candidate's queries whose per-query value of a metric is the bad one, for failed answer gates. */
    failingQueriesOf?: (metric: string, bad: number) => string[] | null;
    seed?: number;
    permutations?: number;
}
/**
 * The comparison gated: every gate of `config` evaluated, and the verdict, added to the report. The gates test at the
 * level the comparison was tested at, so the report's ▲ / ▼ and a tested gate agree; settingsOf (config.ts) gives
 * the comparison the config's alpha.
 */
export declare function applyGates(compared: ComparedRuns, config: GateConfig): GatedRuns;
/**
 * The config with each `per_slice` gate followed by one gate a slice: every value of each `slices` field, in name
 * order, gated as the gate is (its margin and test) on that slice's queries, with `min_queries` as its min_n (a
 * smaller slice is shown, never enforced). They join the tested gates' family, so alpha is split over the slices
 * and the gates together (docs/gates.md, "Slices").
 */
export declare function withSliceGates(config: GateConfig, groupSizes: GateContext['groupSizes']): GateConfig;
/**
 * Every gate evaluated. Tested gates split alpha among themselves in advance (Bonferroni over the corrected ones, a
 * trade's gain test counted as one more; docs/gates.md, "Error control"), so each gate's bounds depend on its own
 * data and the family's size only.
 */
export declare function evaluateGates(config: GateConfig, ctx: GateContext): GateResult[];
/**
 * Every gate of `config` checked against the metric table `defs` as evaluation checks it (checkGate), before any
 * comparison: `evalverdict power` refuses what compare would, in its words.
 */
export declare function checkGates(config: GateConfig, defs: readonly MetricDef[]): void;
/** The most query ids a failed answer gate lists (the count is always given). */
export declare const MAX_FAILING_QUERIES = 100;
export declare function verdictOf(gates: GateResult[]): Verdict;
export {};
