/**
 * How a cost's fall is measured: `ratio` is the geometric mean of each query's candidate / baseline (latency: a few
 * slow queries neither buy nor spoil a trade), `total` the candidate's total over the baseline's (money and tokens:
 * what the bill says, zeros included).
 */
export type GainMeasure = 'ratio' | 'total';
export interface TradeGain {
    /** The fall, 1 - candidate / baseline as `measure` reads it (0.5: half the cost); null when nothing to divide by. */
    gain: number | null;
    /** One-sided p of "the fall is under minGain"; null when not tested (no gain, or under MIN_TRADE_QUERIES queries). */
    pValue: number | null;
    /** The fall is shown to be minGain or more at level 1 - beta. */
    bought: boolean;
    /** The queries with the cost on both sides. */
    n: number;
}
/** The fewest queries with the cost on both sides a gain is tested on. */
export declare const MIN_TRADE_QUERIES = 10;
/** A time under `floor` (the clock's resolution) reads as `floor`, so a query of 0 ms has a ratio. */
export declare function tradeGain(baseline: Float64Array, candidate: Float64Array, measure: GainMeasure, minGain: number, beta: number, floor?: number): TradeGain;
