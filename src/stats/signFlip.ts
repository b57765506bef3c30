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

export const EXACT_ENUMERATION_MAX = 16;
export const RESAMPLING_MAX = 2000;

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
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash (FNV-1a) so each metric gets its own stream from one seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** log(i!) for i = 0..n, summed in one fixed order (the power computation shares it). */
export function logFactorialTable(n: number): Float64Array {
  const t = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) t[i] = t[i - 1] + Math.log(i);
  return t;
}

/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
export function exactSignTest(positives: number, m: number): number {
  if (m === 0) return 1;
  return signTestTail(binomialHalf(m), positives, m);
}

/** P(X = x) for X ~ Binomial(m, 1/2), x = 0..m. */
function binomialHalf(m: number): Float64Array {
  const lf = logFactorialTable(m);
  const pmf = new Float64Array(m + 1);
  for (let x = 0; x <= m; x++) pmf[x] = Math.exp(lf[m] - lf[x] - lf[m - x] - m * Math.LN2);
  return pmf;
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
function signTestCritical(m: number, alpha: number): number {
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
 * The critical value from a null distribution of |sum| given as `atoms` sorted from largest down, each with
 * probability 1/`total`, and p(x) = (`extra` + #{atom >= x - tolerance}) / `total`: the largest x with p(x) >= alpha
 * is the k-th largest atom (plus the tolerance), k the fewest atoms that reach alpha.
 */
function criticalFromAtoms(atoms: Float64Array, extra: number, total: number, alpha: number, ceiling: number): number {
  const k = Math.ceil(alpha * total - extra - 1e-12);
  if (k <= 0) return ceiling; // p >= alpha whatever the sum: nothing can be significant
  return atoms[k - 1];
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

function descending(values: Float64Array): Float64Array {
  return values.sort().reverse();
}

export function signFlipTest(
  diffs: ArrayLike<number>,
  permutations: number,
  random: () => number,
  alpha: number,
): SignFlipTest {
  const nonZero: number[] = [];
  for (let i = 0; i < diffs.length; i++) if (diffs[i] !== 0) nonZero.push(diffs[i]);
  const m = nonZero.length;
  if (m === 0) return { pValue: 1, critical: 0 };
  const observed = Math.abs(nonZero.reduce((a, b) => a + b, 0));
  const tolerance = 1e-9 * Math.max(1, observed);
  // No |sum| exceeds sum |d|: the critical value when no p can fall below alpha (the tolerance is added below).
  const largest = nonZero.reduce((a, d) => a + Math.abs(d), 0);
  const size = Math.abs(nonZero[0]);
  if (nonZero.every((d) => Math.abs(Math.abs(d) - size) <= 1e-12)) {
    const positives = nonZero.filter((d) => d > 0).length;
    // |sum| = size * |2x - m| for x positives: the largest such value whose tail probability reaches alpha.
    return { pValue: exactSignTest(positives, m), critical: size * signTestCritical(m, alpha) + tolerance };
  }
  if (m > RESAMPLING_MAX) {
    let sumSq = 0;
    for (const d of nonZero) sumSq += d * d;
    const sd = Math.sqrt(sumSq);
    return {
      pValue: Math.min(1, 2 * normalUpperTail(observed / sd)),
      critical: normalQuantile(alpha / 2) * sd + tolerance,
    };
  }
  // Two-sided: the null distribution of |sum|.
  const flips = flippedSums(nonZero, permutations, random);
  const test = upperTailTest({ ...flips, sums: flips.sums.map(Math.abs) }, observed, tolerance, largest);
  return { pValue: test.pValue, critical: test.critical(alpha) };
}

/** The sign-flip test's p-value alone. */
export function signFlipPValue(diffs: ArrayLike<number>, permutations: number, random: () => number): number {
  return signFlipTest(diffs, permutations, random, 0.05).pValue;
}

/** Test and interval (level 1 - alpha) for one metric's paired differences. Null when there are none. */
export function pairedSignificance(
  diffs: ArrayLike<number>,
  permutations: number,
  seed: number,
  alpha = 0.05,
): PairedResult | null {
  const n = diffs.length;
  if (n === 0) return null;
  const { pValue, critical } = signFlipTest(diffs, permutations, seededRandom(seed), alpha);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += diffs[i];
  const mean = sum / n;
  const half = critical / n;
  // A mean of differences lies between the smallest and the largest difference; the bounds keep 0 so that
  // clipping never takes 0 out of an interval that held it.
  let low = 0;
  let high = 0;
  for (let i = 0; i < n; i++) {
    if (diffs[i] < low) low = diffs[i];
    if (diffs[i] > high) high = diffs[i];
  }
  return { pValue, ci: [Math.max(low, mean - half), Math.min(high, mean + half)], n };
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

/** The sign-flip null distribution's sums: `extra` 1 when resampled (the observed pattern counts once more). */
interface FlippedSums {
  sums: Float64Array;
  extra: number;
}

/** Every sign pattern's sum for up to EXACT_ENUMERATION_MAX values, else `permutations` random ones. */
function flippedSums(values: number[], permutations: number, random: () => number): FlippedSums {
  return values.length <= EXACT_ENUMERATION_MAX
    ? { sums: enumeratedSums(values), extra: 0 }
    : { sums: resampledSums(values, permutations, random), extra: 1 };
}

/**
 * p = P(sum* >= observed) (within the tolerance) over the flipped sums, and the critical value at any level: the
 * largest sum the test does not call significant (`largest` when nothing can be).
 */
function upperTailTest(
  flips: FlippedSums,
  observed: number,
  tolerance: number,
  largest: number,
): { pValue: number; critical: (level: number) => number } {
  const { sums, extra } = flips;
  let extreme = 0;
  for (const s of sums) if (s >= observed - tolerance) extreme++;
  const total = sums.length + extra;
  const atoms = descending(sums);
  return {
    pValue: (extra + extreme) / total,
    critical: (level) => criticalFromAtoms(atoms, extra, total, level, largest) + tolerance,
  };
}

/** Every signed sum of the 2^m sign patterns. */
function enumeratedSums(values: number[]): Float64Array {
  const m = values.length;
  const sums = new Float64Array(2 ** m);
  for (let mask = 0; mask < sums.length; mask++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += mask & (1 << i) ? -values[i] : values[i];
    sums[mask] = s;
  }
  return sums;
}

/** `permutations` signed sums of random sign patterns, 32 signs per draw of the seeded generator. */
function resampledSums(values: number[], permutations: number, random: () => number): Float64Array {
  const sums = new Float64Array(permutations);
  for (let p = 0; p < permutations; p++) {
    let s = 0;
    let bits = 0;
    for (let i = 0; i < values.length; i++) {
      if ((i & 31) === 0) bits = (random() * 4294967296) >>> 0;
      s += bits & 1 ? -values[i] : values[i];
      bits >>>= 1;
    }
    sums[p] = s;
  }
  return sums;
}

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

export function dropBounds(drops: ArrayLike<number>, beta: number, step: number): DropBounds {
  const n = drops.length;
  if (n === 0) return { n, meanDrop: 0, se: 0, lower: 0, upper: 0, pValue: 1 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += drops[i];
  const meanDrop = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (drops[i] - meanDrop) ** 2;
  const variance = Math.max(n > 1 ? squares / (n - 1) : 0, (2 * step * step) / (n + 1));
  const se = Math.sqrt(variance / n);
  const df = Math.max(1, n - 1);
  const half = studentPoint(normalQuantile(beta), df) * se;
  const pValue = se > 0 ? normalUpperTail(normalPointOf(meanDrop / se, df)) : meanDrop > 0 ? 0 : 1;
  return { n, meanDrop, se, lower: meanDrop - half, upper: meanDrop + half, pValue };
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
function normalPointOf(t: number, df: number): number {
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentPoint(mid, df) <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}
