/**
 * Paired significance of candidate - baseline per-query differences: one test, and the interval read off it.
 *
 * Test: two-sided paired randomization (sign-flip) test of the mean difference. Only non-zero differences
 * can change sign, so zeros are dropped first (identical runs give p = 1). Then, for m non-zero differences:
 * - all differences +-d of one size (binary metrics such as hit@k): the exact sign test (binomial, p = 1/2),
 *   which is the sign-flip distribution computed exactly;
 * - m <= 16: exact enumeration of all 2^m sign patterns;
 * - m <= 2,000: `permutations` random sign flips (default 10,000) from a seeded generator, p = (1 + #{|sum*| >= |sum|}) / (1 + N);
 * - m > 2,000: the normal approximation of the sign-flip distribution (mean 0, variance sum(d^2)), which at
 *   that size agrees with the resampled p-value to the precision we report.
 * Interval: the mean difference (over all paired queries, zeros included) plus or minus the test's critical
 * value at level alpha: the largest |sum| the same null distribution does not call significant, over n. So the
 * interval (level 1 - alpha) excludes 0 exactly when p < alpha: the mark, the p-value and the interval cannot
 * disagree. It is clipped to [min(0, smallest difference), max(0, largest)], where every mean lies. Every branch
 * is deterministic for a given seed.
 */
export declare const EXACT_ENUMERATION_MAX = 16;
export declare const RESAMPLING_MAX = 2000;
export interface PairedResult {
    pValue: number;
    /** The interval of the mean difference at level 1 - alpha; excludes 0 exactly when pValue < alpha. */
    ci: [number, number];
    n: number;
}
/** A sign-flip test's p-value and its critical value: the largest |sum| with p >= alpha (tolerance included). */
export interface SignFlipTest {
    pValue: number;
    critical: number;
}
/** mulberry32: a small, well-distributed 32-bit generator; seeded so every p-value is reproducible. */
export declare function seededRandom(seed: number): () => number;
/** A stable 32-bit hash (FNV-1a) so each metric gets its own stream from one seed. */
export declare function hashString(text: string): number;
/** log(i!) for i = 0..n, summed in one fixed order (the power computation shares it). */
export declare function logFactorialTable(n: number): Float64Array;
/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
export declare function exactSignTest(positives: number, m: number): number;
/** Standard normal upper tail, via the complementary error function (Numerical Recipes erfc, |error| < 1.2e-7). */
export declare function normalUpperTail(z: number): number;
/**
 * Upper-tail point z with P(Z > z) = tail, by bisection on normalUpperTail itself (so the test and it agree). From
 * -40: a tail above 1/2 (an alpha above 0.5) has a negative point.
 */
export declare function normalQuantile(tail: number): number;
export declare function signFlipTest(diffs: ArrayLike<number>, permutations: number, random: () => number, alpha: number): SignFlipTest;
/** The sign-flip test's p-value alone. */
export declare function signFlipPValue(diffs: ArrayLike<number>, permutations: number, random: () => number): number;
/** Test and interval (level 1 - alpha) for one metric's paired differences. Null when there are none. */
export declare function pairedSignificance(diffs: ArrayLike<number>, permutations: number, seed: number, alpha?: number): PairedResult | null;
/** P(X >= k) for X ~ Binomial(m, 1/2), k = 0..m (and 0 at m + 1), each summed from the top in one fixed order. */
export declare function binomialUpperTails(m: number): Float64Array;
/** The largest k (at least 0) whose tail `upper[k]` = P(X >= k) reaches `level`: k + 1 losses are significant. */
export declare function largestReaching(upper: Float64Array, level: number): number;
/**
 * One-sided bounds of a mean drop (positive = worse), each at level 1 - `beta` (docs/decisions/0010): the mean
 * plus or minus Student's t point (n - 1 degrees of freedom) standard errors. The variance of a query's drop is taken as at least that of two queries
 * in n + 1 changing by `step` (the metric's full step: 1 for a rate), the spread Agresti and Min's two added
 * discordant pairs give paired proportions, so a set in which nothing changed is not proof that nothing could: 18
 * unchanged queries cannot rule out a drop of 0.1. `pValue` is the one-sided p of "no drop" for the same
 * statistic, so `lower > 0` exactly when `pValue < beta`.
 */
export interface DropBounds {
    n: number;
    meanDrop: number;
    se: number;
    lower: number;
    upper: number;
    pValue: number;
}
export declare function dropBounds(drops: ArrayLike<number>, beta: number, step: number): DropBounds;
/**
 * Student's t point with `df` degrees of freedom for the normal point z (Cornish-Fisher, to df^-3: within 0.001 of
 * the exact point from 5 degrees of freedom; smaller, so less conservative, below). Odd and increasing in z, so
 * the p of a t statistic is read back by bisection and agrees with the bounds.
 */
export declare function studentPoint(z: number, df: number): number;
