/**
 * The distributions the tests read their tails from: Binomial(m, 1/2) exactly (log-factorials summed in one fixed
 * order, so every caller gets the same bits), the standard normal (the erfc approximation of Numerical Recipes,
 * 2nd ed., section 6.2, |error| < 1.2e-7) and Student's t (the Cornish-Fisher expansion, Abramowitz and Stegun
 * 26.7.5).
 */

/** log(i!) for i = 0..n, summed in one fixed order (the power computation shares it). */
export function logFactorialTable(n: number): Float64Array {
  const t = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) t[i] = t[i - 1] + Math.log(i);
  return t;
}

/** P(X = x) for X ~ Binomial(m, 1/2), x = 0..m. */
export function binomialHalf(m: number): Float64Array {
  const lf = logFactorialTable(m);
  const pmf = new Float64Array(m + 1);
  for (let x = 0; x <= m; x++) pmf[x] = Math.exp(lf[m] - lf[x] - lf[m - x] - m * Math.LN2);
  return pmf;
}

/** Standard normal upper tail, via the complementary error function (Numerical Recipes erfc, |error| < 1.2e-7). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  const upper = erfc / 2;
  return z >= 0 ? upper : 1 - upper;
}

/**
 * Upper-tail point z with P(Z > z) = tail, by bisection on normalUpperTail itself (so the test and it agree). From
 * -40: a tail above 1/2 (an alpha above 0.5) has a negative point.
 */
export function normalQuantile(tail: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (normalUpperTail(mid) >= tail) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** P(X >= k) for X ~ Binomial(m, 1/2), k = 0..m (and 0 at m + 1), each summed from the top in one fixed order. */
export function binomialUpperTails(m: number): Float64Array {
  const pmf = binomialHalf(m);
  const upper = new Float64Array(m + 2);
  for (let k = m; k >= 0; k--) upper[k] = upper[k + 1] + pmf[k];
  return upper;
}

/** The largest k (at least 0) whose tail `upper[k]` = P(X >= k) reaches `level`: k + 1 losses are significant. */
export function largestReaching(upper: Float64Array, level: number): number {
  let k = upper.length - 2;
  while (k > 0 && upper[k] < level) k--;
  return k;
}

/**
 * Student's t point with `df` degrees of freedom for the normal point z (Cornish-Fisher, to df^-3: within 0.001 of
 * the exact point from 5 degrees of freedom; smaller, so less conservative, below). Odd and increasing in z, so
 * the p of a t statistic is read back by bisection and agrees with the bounds.
 */
export function studentPoint(z: number, df: number): number {
  const z2 = z * z;
  const g1 = (z2 + 1) / 4;
  const g2 = (5 * z2 * z2 + 16 * z2 + 3) / 96;
  const g3 = (3 * z2 * z2 * z2 + 19 * z2 * z2 + 17 * z2 - 15) / 384;
  return z * (1 + g1 / df + g2 / df ** 2 + g3 / df ** 3);
}

/** The normal point whose Student point (studentPoint) is t: bisection, so p < beta exactly when t > t_beta. */
export function normalPointOf(t: number, df: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentPoint(mid, df) <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}
