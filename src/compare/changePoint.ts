/**
 * Whether main itself shifted recently: an exact permutation test of the last `recent` values of a series against
 * the earlier ones (docs/history.md, "Change point"). The statistic is |mean(last w) - mean(earlier)|; its p-value
 * is the share of the C(n, w) ways to pick w of the n values whose statistic is at least as large. Under no change
 * (the values exchangeable: independent draws from one distribution, whatever it is) P(p <= alpha) <= alpha, so
 * the false-alarm rate per metric is at most alpha for any series length; test/history.test.ts checks it and the
 * detection of a planted shift by simulation. Values so large that a sum would overflow are first scaled down by a
 * power of two (overflowScale), so a constant series is never a shift, whatever its magnitude.
 */

/** The values compared with the earlier ones: a shift in the last three main runs is "recent". */
export const RECENT_RUNS = 3;
/** The false-alarm rate per metric. */
export const CHANGE_POINT_ALPHA = 0.01;

export interface ChangePoint {
  /** The recent values' mean is above (`up`) or below (`down`) the earlier ones'. */
  direction: 'up' | 'down';
  pValue: number;
  /** Mean of the last `recent` values minus the mean of the earlier ones. */
  shift: number;
}

/** The fewest values for which the smallest attainable p-value, 1 / C(n, w) (two-sided: 2 / C(n, w)), is <= alpha. */
export function minimumRuns(alpha = CHANGE_POINT_ALPHA, recent = RECENT_RUNS): number {
  for (let n = recent + 2; n < 10_000; n++) if (2 / binomial(n, recent) <= alpha) return n;
  return Number.POSITIVE_INFINITY;
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/** Every sum of `w` distinct values of `xs` (C(n, w) of them), told to `visit`. */
function subsetSums(xs: readonly number[], w: number, visit: (sum: number) => void): void {
  const walk = (from: number, left: number, sum: number): void => {
    if (left === 0) {
      visit(sum);
      return;
    }
    for (let i = from; i <= xs.length - left; i++) walk(i + 1, left - 1, sum + xs[i]);
  };
  walk(0, w, 0);
}

/**
 * 1 when no sum or product recentShift forms of the series can overflow (its largest magnitude times 4 n `recent`
 * is finite): every ordinary series, computed as it always was. Else the power of two that brings the largest
 * magnitude under that bound. Scaling by a power of two is exact (but for values that become subnormal, far below
 * the tolerance) and the test is invariant under it: the same p-value and direction (but for ties within the
 * tolerance), and a constant series stays constant, so every subset's sum equals the observed one and p = 1
 * (unscaled, a sum of values near 1e308 overflowed to Infinity, and the statistic to NaN).
 */
function overflowScale(series: readonly number[], recent: number): number {
  const largest = series.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const safe = Number.MAX_VALUE / (4 * series.length * recent);
  return largest <= safe ? 1 : 2 ** -(Math.ceil(Math.log2(largest / safe)) + 1);
}

/**
 * The exact permutation p-value of the last `recent` values against the earlier ones, and the shift (±Infinity only
 * when the shift itself is beyond the largest double). Null when the series is too short for the test to reach
 * `alpha` (minimumRuns) or has a non-finite value.
 */
export function recentShift(
  values: readonly number[],
  alpha = CHANGE_POINT_ALPHA,
  recent = RECENT_RUNS,
): ChangePoint | null {
  const n = values.length;
  if (n < minimumRuns(alpha, recent) || values.some((x) => !Number.isFinite(x))) return null;
  const scale = overflowScale(values, recent);
  const series = scale === 1 ? values : values.map((x) => x * scale);
  const total = series.reduce((a, b) => a + b, 0);
  // |mean(S) - mean(rest)| grows with |sum(S) - w * total / n|: the same order, without the divisions.
  const centre = (recent * total) / n;
  const observedSum = series.slice(n - recent).reduce((a, b) => a + b, 0);
  const observed = Math.abs(observedSum - centre);
  // Ties within rounding. Huge values may cancel (1e308 and -1e308 total 0), and their rounding is far above
  // 1e-9: a scaled series' tolerance is relative to the sum of its magnitudes.
  const tolerance = scale === 1 ? 1e-9 * (Math.abs(total) + 1) : 1e-9 * series.reduce((a, x) => a + Math.abs(x), 0);
  let atLeast = 0;
  let all = 0;
  subsetSums(series, recent, (sum) => {
    all++;
    if (Math.abs(sum - centre) >= observed - tolerance) atLeast++;
  });
  const shift = observedSum / recent - (total - observedSum) / (n - recent);
  return { direction: shift >= 0 ? 'up' : 'down', pValue: atLeast / all, shift: shift / scale };
}

/** The change point when the test finds one at `alpha`, else null. */
export function changePointOf(
  series: readonly number[],
  alpha = CHANGE_POINT_ALPHA,
  recent = RECENT_RUNS,
): ChangePoint | null {
  const found = recentShift(series, alpha, recent);
  return found && found.pValue <= alpha && found.shift !== 0 ? found : null;
}
