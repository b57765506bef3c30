/**
 * Paired significance of candidate - baseline per-query differences: one test, and the interval read off it. The
 * paired randomization test as Smucker, Allan and Carterette compare it for IR evaluation ("A comparison of
 * statistical significance tests for information retrieval evaluation", CIKM 2007).
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
import { normalQuantile, normalUpperTail } from './distributions.js';
import { seededRandom } from './random.js';
import { exactSignTest, signTestCritical } from './signTest.js';

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
