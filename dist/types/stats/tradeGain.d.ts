export interface TradeGain {
    /** The fall, 1 - the geometric mean of candidate / baseline (0.5: half the cost); null: no query above 0 in both. */
    gain: number | null;
    /**
     * One-sided p of "the fall is under minGain"; null when not tested: no gain, under MIN_TRADE_QUERIES queries, or
     * a query whose cost is 0 in one run only (`oneSidedZeros`).
     */
    pValue: number | null;
    /** The queries with the cost on both sides. */
    n: number;
    /** Queries whose cost is 0 in one run and not the other: a ratio cannot say how far a free query fell. */
    oneSidedZeros: number;
}
/**
 * The fewest queries with the cost on both sides a gain is tested on: fewer often miss a rare slowdown altogether
 * and "show" a gain that is not there (docs/decisions/0013-trades.md).
 */
export declare const MIN_TRADE_QUERIES = 100;
/**
 * The gain over the queries with the cost above 0 in both runs (0 in both is no change, and counts as a ratio of 1).
 * A query at 0 in one run only has no ratio: the gain is then shown without a test, since any price read for the 0
 * would decide it (docs/decisions/0013-trades.md).
 */
export declare function tradeGain(baseline: Float64Array, candidate: Float64Array, minGain: number): TradeGain;
/**
 * One-sided p of "the mean is at most 0" for values that may be skewed (most queries a little faster, a few much
 * slower: Student's t alone then "shows" gains that are not there too often; docs/decisions/0013-trades.md), by
 * Hall's monotone transformation of the t statistic (Hall, "On the removal of skewness by transformation", JRSS B
 * 54, 1992): g(t) = t + γ/(6√n) + γt²/(3√n) + γ²t³/(27n), γ the sample skewness, read as Student's t with n - 1
 * degrees of freedom. The variance is floored as the gates' bounds floor it (dropBounds.ts), with the values' range
 * as the step: every ratio lower by the same share moves the mean and not the spread, so it never raises the p.
 */
export declare function skewCorrectedP(values: Float64Array): number;
