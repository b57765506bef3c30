/**
 * The distributions the tests read their tails from: Binomial(m, 1/2) exactly (log-factorials summed in one fixed
 * order, so every caller gets the same bits), the standard normal (the erfc approximation of Numerical Recipes,
 * 2nd ed., section 6.2, |error| < 1.2e-7) and Student's t (the Cornish-Fisher expansion, Abramowitz and Stegun
 * 26.7.5).
 */
/** log(i!) for i = 0..n, summed in one fixed order (the power computation shares it). */
export declare function logFactorialTable(n: number): Float64Array;
/** P(X = x) for X ~ Binomial(m, 1/2), x = 0..m. */
export declare function binomialHalf(m: number): Float64Array;
/** Standard normal upper tail, via the complementary error function (Numerical Recipes erfc, |error| < 1.2e-7). */
export declare function normalUpperTail(z: number): number;
/**
 * Upper-tail point z with P(Z > z) = tail, by bisection on normalUpperTail itself (so the test and it agree). From
 * -40: a tail above 1/2 (an alpha above 0.5) has a negative point.
 */
export declare function normalQuantile(tail: number): number;
/** P(X >= k) for X ~ Binomial(m, 1/2), k = 0..m (and 0 at m + 1), each summed from the top in one fixed order. */
export declare function binomialUpperTails(m: number): Float64Array;
/** The largest k (at least 0) whose tail `upper[k]` = P(X >= k) reaches `level`: k + 1 losses are significant. */
export declare function largestReaching(upper: Float64Array, level: number): number;
/**
 * Student's t point with `df` degrees of freedom for the normal point z (Cornish-Fisher, to df^-3: within 0.001 of
 * the exact point from 5 degrees of freedom; smaller, so less conservative, below). Odd and increasing in z, so
 * the p of a t statistic is read back by bisection and agrees with the bounds.
 */
export declare function studentPoint(z: number, df: number): number;
/** The normal point whose Student point (studentPoint) is t: bisection, so p < beta exactly when t > t_beta. */
export declare function normalPointOf(t: number, df: number): number;
