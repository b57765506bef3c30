/**
 * Paired significance of candidate - baseline per-query differences.
 *
 * Test: two-sided paired randomization (sign-flip) test of the mean difference. Only non-zero differences
 * can change sign, so zeros are dropped first (identical runs give p = 1). Then, for m non-zero differences:
 * - all differences +-d of one size (binary metrics such as hit@k): the exact sign test (binomial, p = 1/2),
 *   which is the sign-flip distribution computed exactly;
 * - m <= 16: exact enumeration of all 2^m sign patterns;
 * - m <= 2,000: `permutations` random sign flips (default 10,000) from a seeded generator, p = (1 + #{|mean*| >= |mean|}) / (1 + N);
 * - m > 2,000: the normal approximation of the sign-flip distribution (mean 0, variance sum(d^2)), which at
 *   that size agrees with the resampled p-value to the precision we report.
 * Interval: 95% paired percentile bootstrap of the mean difference over all shared queries (zeros included),
 * 2,000 resamples seeded the same way; past 2,000 queries the normal interval mean +- 1.96 sd/sqrt(n).
 * Every branch is deterministic for a given seed.
 */

export const EXACT_ENUMERATION_MAX = 16;
export const RESAMPLING_MAX = 2000;
/** Bootstrap resamples for the interval (its 2.5% and 97.5% quantiles are stable to ~3 decimals at this count). */
export const BOOTSTRAP_RESAMPLES = 2000;

export interface PairedResult {
  pValue: number;
  ci95: [number, number];
  n: number;
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

function logFactorialTable(n: number): Float64Array {
  const t = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) t[i] = t[i - 1] + Math.log(i);
  return t;
}

/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
export function exactSignTest(positives: number, m: number): number {
  if (m === 0) return 1;
  const lf = logFactorialTable(m);
  const dev = Math.abs(positives - m / 2);
  let p = 0;
  for (let x = 0; x <= m; x++) {
    if (Math.abs(x - m / 2) >= dev - 1e-9) p += Math.exp(lf[m] - lf[x] - lf[m - x] - m * Math.LN2);
  }
  return Math.min(1, p);
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

export function signFlipPValue(diffs: ArrayLike<number>, permutations: number, random: () => number): number {
  const nonZero: number[] = [];
  for (let i = 0; i < diffs.length; i++) if (diffs[i] !== 0) nonZero.push(diffs[i]);
  const m = nonZero.length;
  if (m === 0) return 1;
  const observed = Math.abs(nonZero.reduce((a, b) => a + b, 0));
  const tolerance = 1e-9 * Math.max(1, observed);
  const size = Math.abs(nonZero[0]);
  if (nonZero.every((d) => Math.abs(Math.abs(d) - size) <= 1e-12)) {
    return exactSignTest(nonZero.filter((d) => d > 0).length, m);
  }
  if (m <= EXACT_ENUMERATION_MAX) {
    let extreme = 0;
    const total = 2 ** m;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += mask & (1 << i) ? -nonZero[i] : nonZero[i];
      if (Math.abs(s) >= observed - tolerance) extreme++;
    }
    return extreme / total;
  }
  if (m > RESAMPLING_MAX) {
    let sumSq = 0;
    for (const d of nonZero) sumSq += d * d;
    return Math.min(1, 2 * normalUpperTail(observed / Math.sqrt(sumSq)));
  }
  const values = Float64Array.from(nonZero);
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    let s = 0;
    let bits = 0;
    for (let i = 0; i < m; i++) {
      if ((i & 31) === 0) bits = (random() * 4294967296) >>> 0;
      s += bits & 1 ? -values[i] : values[i];
      bits >>>= 1;
    }
    if (Math.abs(s) >= observed - tolerance) extreme++;
  }
  return (1 + extreme) / (1 + permutations);
}

export function bootstrapInterval(diffs: ArrayLike<number>, resamples: number, random: () => number): [number, number] {
  const n = diffs.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += diffs[i];
  const mean = sum / n;
  if (n > RESAMPLING_MAX) {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (diffs[i] - mean) ** 2;
    const half = (1.959963984540054 * Math.sqrt(ss / (n - 1))) / Math.sqrt(n);
    return [mean - half, mean + half];
  }
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diffs[Math.floor(random() * n)];
    means[b] = s / n;
  }
  means.sort();
  const lo = means[Math.floor(0.025 * (resamples - 1))];
  const hi = means[Math.ceil(0.975 * (resamples - 1))];
  return [lo, hi];
}

/** Test and interval for one metric's paired differences. Null when there are none. */
export function pairedSignificance(diffs: ArrayLike<number>, permutations: number, seed: number): PairedResult | null {
  if (diffs.length === 0) return null;
  const random = seededRandom(seed);
  const pValue = signFlipPValue(diffs, permutations, random);
  const ci95 = bootstrapInterval(diffs, BOOTSTRAP_RESAMPLES, seededRandom(seed ^ 0x9e3779b9));
  return { pValue, ci95, n: diffs.length };
}
