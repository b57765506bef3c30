/**
 * The shape of a metric: what the table, JSON, docs, `evalverdict metrics` and gate validation read (MetricDef), and
 * the declaration a family module writes (MetricDecl), with the source systems' own definitions beside it.
 */
import type { MetricProfile, RunMeta } from '../../types.js';
import type { AggregateOptions, QueryRecord } from '../score.js';
export type Direction = 'higher' | 'lower' | 'neutral';
export type Family = 'retrieval' | 'answers' | 'abstention' | 'judge' | 'operations' | 'index';
export interface MetricValue {
    value: number | null;
    n: number;
}
/**
 * sum and max are null without values; count is their sum, 0 without values (a count of queries); p50 and p95 are
 * nearest-rank percentiles; ratio is the sum over the sum of `reduce.over` (its n), null when that is 0.
 */
export type Reducer = 'sum' | 'count' | 'mean' | 'p50' | 'p95' | 'max' | 'ratio';
/** A per-query quantity: metrics over one quantity name share its column. */
export interface Quantity {
    quantity: string;
    value: (r: QueryRecord) => number | null;
}
export interface MetricDef {
    id: string;
    family: Family;
    direction: Direction;
    unit: 'ratio' | 'ms' | 'count' | 'score' | 'usd' | 'tokens';
    definition: string;
    denominator: string;
    /** Per-query value; null leaves the query out of the denominator. The metric is the mean. */
    perQuery?: (r: QueryRecord) => number | null;
    /**
     * A per-query quantity reduced otherwise than by its mean (percentiles, totals). Metrics over one `quantity`
     * share its column and its sort; a null value leaves the query out, and `n` counts the values.
     */
    reduce?: Quantity & {
        by: Reducer;
        over?: Quantity;
    };
    /** Properties of the index, not of queries: not broken down. */
    runLevel?: (run: RunMeta) => MetricValue;
    /** Take part in the paired significance test of `compare`. */
    paired?: boolean;
    /**
     * The value when no query is in the denominator, instead of null: WFGY reports 0.0 there and gates on it (its
     * metrics under the wfgy profile). `n` stays 0.
     */
    emptyValue?: number;
}
/** The fields a source system's definition may replace (never the id, family, unit or direction). */
export type ProfileOverride = Partial<Pick<MetricDef, 'definition' | 'denominator' | 'perQuery' | 'emptyValue'>>;
/**
 * One metric as a family module declares it: its family comes from the module, and `profiles` holds a source
 * system's own definition of it, used when the golden set names that profile (docs/golden-sets.md).
 */
export interface MetricDecl extends Omit<MetricDef, 'family'> {
    profiles?: Partial<Record<MetricProfile, ProfileOverride>>;
}
/** What a family's declarations depend on: the scoring options (cutoffs, grades, means) and the timed stages. */
export interface MetricContext {
    options: AggregateOptions;
    /** Stage names in the results' `timings_ms` (one latency metric pair each). */
    stages: string[];
}
/** A family: its name and its declarations for one context. */
export interface MetricFamily {
    family: Family;
    declare: (ctx: MetricContext) => MetricDecl[];
}
/** A boolean per-query fact as a 1/0 value; null leaves the query out. */
export declare const bool: (b: boolean | null) => number | null;
