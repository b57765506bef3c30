/**
 * Whether main itself shifted recently: an exact permutation test of the last `recent` values of a series against
 * the earlier ones (docs/history.md, "Change point"). The statistic is |mean(last w) - mean(earlier)|; its p-value
 * is the share of the C(n, w) ways to pick w of the n values whose statistic is at least as large. Under no change
 * (the values exchangeable: independent draws from one distribution, whatever it is) P(p <= alpha) <= alpha, so
 * the false-alarm rate per metric is at most alpha for any series length; test/history.test.ts checks it and the
 * detection of a planted shift by simulation.
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
 * The exact permutation p-value of the last `recent` values against the earlier ones, and the shift. Null when the
 * series is too short for the test to reach `alpha` (minimumRuns) or has a non-finite value.
 */
export function recentShift(
  series: readonly number[],
  alpha = CHANGE_POINT_ALPHA,
  recent = RECENT_RUNS,
): ChangePoint | null {
  const n = series.length;
  if (n < minimumRuns(alpha, recent) || series.some((x) => !Number.isFinite(x))) return null;
  const total = series.reduce((a, b) => a + b, 0);
  // |mean(S) - mean(rest)| grows with |sum(S) - w * total / n|: the same order, without the divisions.
  const centre = (recent * total) / n;
  const observedSum = series.slice(n - recent).reduce((a, b) => a + b, 0);
  const observed = Math.abs(observedSum - centre);
  const tolerance = 1e-9 * (Math.abs(total) + 1);
  let atLeast = 0;
  let all = 0;
  subsetSums(series, recent, (sum) => {
    all++;
    if (Math.abs(sum - centre) >= observed - tolerance) atLeast++;
  });
  const shift = observedSum / recent - (total - observedSum) / (n - recent);
  return { direction: shift >= 0 ? 'up' : 'down', pValue: atLeast / all, shift };
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
