/**
 * The two-sided exact sign test (binomial, p = 1/2; Conover, Practical Nonparametric Statistics, 3rd ed., 3.4) and its
 * critical value: the sign-flip test when every difference has one size (hit@k and other binary metrics).
 */
import { binomialHalf } from './distributions.js';

/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
export function exactSignTest(positives: number, m: number): number {
  if (m === 0) return 1;
  return signTestTail(binomialHalf(m), positives, m);
}

/** P(|X - m/2| >= |positives - m/2|), summed in one fixed order so that every caller gets the same bits. */
function signTestTail(pmf: Float64Array, positives: number, m: number): number {
  const dev = Math.abs(positives - m / 2);
  let p = 0;
  for (let x = 0; x <= m; x++) if (Math.abs(x - m / 2) >= dev - 1e-9) p += pmf[x];
  return Math.min(1, p);
}

/**
 * The sign test's critical |2x - m|: for the fewest positives x (x <= m/2) whose tail reaches alpha. The tail grows
 * with x, so a binary search finds it in O(m log m), with the tail computed exactly as exactSignTest computes it.
 */
export function signTestCritical(m: number, alpha: number): number {
  const pmf = binomialHalf(m);
  let lo = 0;
  let hi = Math.floor(m / 2); // its tail is 1 >= alpha
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (signTestTail(pmf, mid, m) >= alpha) hi = mid;
    else lo = mid + 1;
  }
  return m - 2 * lo;
}
