/**
 * The metric table's values: per-query columns reduced to means, sums, ratios and percentiles (PerQueryValues).
 * The metrics themselves are declared in src/aggregate/metrics/, one module per family (registry.ts lists them).
 */
import type { RunMeta } from '../types.js';
import type { MetricDef, MetricValue } from './metrics/types.js';
import type { QueryRecord } from './score.js';
/** Mean of the non-null per-query values; null (never 0) when there are none. */
export declare function meanOf(records: QueryRecord[], perQuery: (r: QueryRecord) => number | null): MetricValue;
/**
 * Per-query values as columns: a metric's under its id, a quantity's under `quantity:` and its name (NaN = not in
 * the denominator, or no value), filled record by record (src/aggregate/table.ts). See PerQueryValues.
 */
export type Columns = Map<string, Float64Array>;
export declare const quantityKey: (quantity: string) => string;
/** The per-query functions behind `defs`, each under its column key (a quantity shared by several metrics once). */
export declare function perQueryFunctions(defs: MetricDef[]): Map<string, (r: QueryRecord) => number | null>;
/**
 * The metrics of one run from its per-query columns: means over the whole run, over breakdown groups and the paired
 * differences of compare all read these, so no per-query metric is computed twice for a record. A column the
 * table lacks (a stage this run's results never timed) is all NaN.
 */
export declare class PerQueryValues {
    readonly length: number;
    private readonly values;
    private readonly quantities;
    /** The key of "all rows" in the caches below. */
    private readonly all;
    constructor(defs: MetricDef[], length: number, columns: Columns);
    /** A per-query quantity's column (`elapsed_ms`, `cost_usd`; NaN where the result has none), or null if no metric reads it. */
    quantity(name: string): Float64Array | null;
    /** The column of a per-query metric (NaN where the query is not in its denominator). */
    column(id: string): Float64Array;
    /** Mean over the given record indexes (all when omitted); null when none has a value. */
    mean(id: string, indexes?: ArrayLike<number>): MetricValue;
    /** Sums and counts summed ahead per index list (sumGroups), per column. */
    private readonly summed;
    private sumOf;
    /** The columns sumGroups sums: those of means, and the quantities of sums, counts and ratios. */
    private summedColumns;
    /**
     * The sums and counts every metric of `defs` needs over each of `groups` (breakdown groups), four columns per
     * pass over a group's rows: a column's NaN checks mispredict, and four sums side by side keep the core busy
     * (bench/README.md, "What was kept"). Each sum adds its values in sumOf's order, so every value is the same.
     */
    sumGroups(defs: MetricDef[], groups: ReadonlyArray<ArrayLike<number>>): void;
    /** Values already evaluated, per index list (the whole run: `all`) and metric id. */
    private readonly evaluated;
    /** A metric over a subset of the records (all when omitted), from the table's columns; each computed once. */
    evaluate(def: MetricDef, run: RunMeta, indexes?: ArrayLike<number>): MetricValue;
    private compute;
    private computeValue;
    /**
     * The non-null values of a quantity per index list (the whole run: `all`), shared by p50, p95 and max, with their
     * counts by value once a percentile has asked (null: not whole numbers, see wholeNumberCounts).
     */
    private readonly sorted;
    /**
     * Per quantity: whether every value of the whole run is a whole number, the smallest `min`, within `span` of it
     * (wholeNumberCounts' rule: latencies, token counts); null when not. Then so are those of every row list, and
     * each list's values are counted by value in one pass over its rows, never picked into an array of their own.
     */
    private readonly wholeNumbers;
    /** Per index list (the whole run: `all`) and quantity of whole numbers: its values counted by value. */
    private readonly countedValues;
    private reduced;
}
