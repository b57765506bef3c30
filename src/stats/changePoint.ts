/**
 * Whether main itself shifted: one change in a metric's level, anywhere in main's runs, tested so that runs which
 * follow each other (autocorrelated, as real histories are) raise no more false alarms than independent ones
 * (docs/history.md, "Change point").
 *
 * The model: run t's value is level + shift x [t >= start] + e_t, the noise e an AR(1) process with coefficient phi
 * (phi = 0: independent runs). For a known phi the prewhitened residuals r_t = x_t - phi x_{t-1} (t >= 1) are
 * independent and identically distributed when there is no shift, so a permutation test on them is exact; its
 * statistic is the largest standardized score of r on the whitened step (1 at the start, 1 - phi after it) over the
 * starts with MIN_SEGMENT runs or more on either side. phi is unknown: the p-value is the largest over the grid
 * coefficients 0, 0.05, ..., AR_MAX that the series' own autocorrelation does not rule out (arBound: a one-sided 90%
 * bound, calibrated by simulating Gaussian AR(1) series through the same estimator), a confidence-set-restricted
 * maximized Monte Carlo test (Dufour, "Monte Carlo tests with nuisance parameters", Journal of Econometrics 133,
 * 2006; mean shifts in correlated series: Robbins, Gallagher, Lund and Aue, Journal of Time Series Analysis 32, 2011). phi = 0 is always among them, so for exchangeable runs (independent,
 * any distribution, ties included) the false-alarm rate is at most alpha exactly; for AR(1) runs up to 0.6 it was
 * measured at or below alpha (test/changePointAutocorrelated.test.ts). Values so large that a sum would overflow are
 * first scaled down by a power of two (overflowScale), so a constant series is never a shift, whatever its magnitude.
 * Every random draw comes from fixed seeds: the same series always gets the same p-value.
 */
import { seededRandom } from './random.js';

/** The false-alarm rate per metric. */
export const CHANGE_POINT_ALPHA = 0.01;
/** A shift starts after at least this many runs and lasts at least this many: fewer is one run's noise. */
export const MIN_SEGMENT = 3;
/**
 * The fewest runs the test is run on. The first run has no residual, so a shift in the last MIN_SEGMENT of n runs
 * reaches at best p = 2 / C(n - 1, 3) (those runs' residuals the largest, or the smallest): 0.012 at 12 runs, never
 * under alpha; 0.007 at 14, where the Monte Carlo p-value (its error about 0.003 with PERMUTATIONS) is mostly under.
 */
export const MIN_RUNS = 14;
/** The largest AR(1) coefficient the test guards against. */
export const AR_MAX = 0.7;
/** AR(1) coefficients the p-value is maximized over (those the series does not rule out). */
const AR_GRID = Array.from({ length: Math.round(AR_MAX / 0.05) + 1 }, (_, i) => (i * 5) / 100);
/** A coefficient is ruled out when the series' autocorrelation is in its lowest 10% (a one-sided 90% bound). */
const AR_BOUND_MISS = 0.1;
/** Simulated series per grid coefficient that calibrate arBound. */
const CALIBRATION_SERIES = 999;
/** Permutations per coefficient: p-values from 1/1000 up. */
const PERMUTATIONS = 999;
/** The permutations' seed (exported so a test can redo them); mixed with n and g, the calibrations'. */
export const CHANGE_POINT_SEED = 45;

export interface ChangePoint {
  /** The level from `start` on is above (`up`) or below (`down`) the level before. */
  direction: 'up' | 'down';
  pValue: number;
  /** Mean of the runs from `start` on minus the mean of the runs before it. */
  shift: number;
  /** Index in the series (0 is the oldest run) of the first run at the new level. */
  start: number;
  /** Runs in the series. */
  runs: number;
  /** The largest AR(1) coefficient the p-value was maximized over (arBound). */
  arBound: number;
}

/** The first index whose value is within rounding of the largest (so a rounded copy of a series picks the same). */
function firstNearMax(values: readonly number[]): number {
  const largest = Math.max(...values);
  return values.findIndex((v) => v >= largest - 1e-9 * Math.abs(largest));
}

/** The score of a split before `t` in levelSplit, from the sum of the values before it and the total. */
function splitScore(before: number, total: number, t: number, n: number): number {
  return Math.abs(before / t - (total - before) / (n - t)) * Math.sqrt((t * (n - t)) / n);
}

/**
 * The start that best splits `x` into two levels: the largest |mean(from start) - mean(before)| x sqrt(start (n -
 * start) / n), over starts with MIN_SEGMENT runs or more on either side (least squares for one mean shift). The
 * first start within rounding of the largest, so a rounded copy of the series picks the same.
 */
export function levelSplit(x: ArrayLike<number>): number {
  const n = x.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += x[i];
  let largest = 0;
  for (let pass = 0; pass < 2; pass++) {
    let before = 0;
    for (let t = 1; t <= n - MIN_SEGMENT; t++) {
      before += x[t - 1];
      if (t < MIN_SEGMENT) continue;
      const score = splitScore(before, total, t, n);
      if (pass === 0) largest = Math.max(largest, score);
      else if (score >= largest - 1e-9 * largest) return t;
    }
  }
  return MIN_SEGMENT;
}

/**
 * Lag-1 autocorrelation of `x` less each side's mean around levelSplit: the AR coefficient with a shift kept out.
 * The deviations are divided by the largest first, so their squares neither overflow nor underflow.
 */
export function splitAutocorrelation(x: ArrayLike<number>): number {
  const n = x.length;
  const start = levelSplit(x);
  let early = 0;
  let late = 0;
  for (let i = 0; i < n; i++) i < start ? (early += x[i]) : (late += x[i]);
  const earlyMean = early / start;
  const lateMean = late / (n - start);
  let largest = 0;
  for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(x[i] - (i < start ? earlyMean : lateMean)));
  if (largest === 0) return 0;
  let products = 0;
  let squares = 0;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const d = (x[i] - (i < start ? earlyMean : lateMean)) / largest;
    squares += d * d;
    if (i > 0 && i !== start) products += d * previous;
    previous = d;
  }
  return products / squares;
}

/** Standard normal draws from `random`, two per pair of uniforms (Box-Muller). Exported for its test. */
export function gaussians(random: () => number): () => number {
  let spare = Number.NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const drawn = spare;
      spare = Number.NaN;
      return drawn;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

const calibrations = new Map<string, Float64Array>();

/**
 * The sorted splitAutocorrelation of CALIBRATION_SERIES stationary Gaussian AR(1) series of n runs with coefficient
 * AR_GRID[g], from a seed of their own (computed once per n and g). Exported for its test.
 */
export function calibration(n: number, g: number): Float64Array {
  const key = `${n}/${g}`;
  let values = calibrations.get(key);
  if (values) return values;
  const phi = AR_GRID[g];
  const gaussian = gaussians(seededRandom(CHANGE_POINT_SEED * 1_000_003 + n * 101 + g));
  const innovation = Math.sqrt(1 - phi * phi);
  const x = new Float64Array(n);
  values = new Float64Array(CALIBRATION_SERIES);
  for (let s = 0; s < CALIBRATION_SERIES; s++) {
    x[0] = gaussian();
    for (let i = 1; i < n; i++) x[i] = phi * x[i - 1] + innovation * gaussian();
    values[s] = splitAutocorrelation(x);
  }
  values.sort();
  calibrations.set(key, values);
  return values;
}

/** How many of the sorted `values` are <= x. */
function countAtMost(values: Float64Array, x: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= x) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The index in AR_GRID of the largest coefficient the series does not rule out: one whose simulated series have an
 * autocorrelation (splitAutocorrelation) at most the observed one more than AR_BOUND_MISS of the time; 0 when every
 * other is ruled out. Scanned from the largest down, so only the coefficients above the bound are simulated.
 */
export function arBound(x: ArrayLike<number>): number {
  const observed = splitAutocorrelation(x);
  for (let g = AR_GRID.length - 1; g > 0; g--) {
    const values = calibration(x.length, g);
    if ((countAtMost(values, observed) + 1) / (values.length + 1) > AR_BOUND_MISS) return g;
  }
  return 0;
}

/** The whitened step at one AR coefficient: for each start, the step's mean and 1 / its length once centred. */
interface Step {
  phi: number;
  mean: Float64Array;
  inverseNorm: Float64Array;
}

function whitenedStep(n: number, phi: number): Step {
  const starts = n - 2 * MIN_SEGMENT + 1;
  const mean = new Float64Array(starts);
  const inverseNorm = new Float64Array(starts);
  for (let k = 0; k < starts; k++) {
    const after = n - 1 - (MIN_SEGMENT + k);
    mean[k] = (1 + (1 - phi) * after) / (n - 1);
    inverseNorm[k] = 1 / Math.sqrt(1 + (1 - phi) ** 2 * after - (n - 1) * mean[k] ** 2);
  }
  return { phi, mean, inverseNorm };
}

/**
 * The largest standardized score, over the starts, of the residuals later[j] - phi earlier[j] (residual j belongs to
 * run j + 1) on the whitened step: 1 at the start's residual, 1 - phi after it. `total` is the residuals' sum; with
 * `scores`, each start's score is kept there.
 */
function stepScore(step: Step, later: Float64Array, earlier: Float64Array, total: number, scores?: Float64Array) {
  const { phi, mean, inverseNorm } = step;
  const last = mean.length - 1;
  let after = 0;
  for (let j = later.length - 1; j >= MIN_SEGMENT + last; j--) after += later[j] - phi * earlier[j];
  let largest = 0;
  for (let k = last; k >= 0; k--) {
    const j = MIN_SEGMENT + k - 1;
    const r = later[j] - phi * earlier[j];
    const score = Math.abs(r + (1 - phi) * after - mean[k] * total) * inverseNorm[k];
    if (scores) scores[k] = score;
    if (score > largest) largest = score;
    after += r;
  }
  return largest;
}

/**
 * The largest over `phis` of the permutation p-values of the largest step score, with the same permutations for
 * each (each p-value is exact at its own coefficient), and the start of the observed largest score at the first
 * coefficient. Sequential (Besag and Clifford 1991): once one coefficient's count of permutations at least as
 * extreme reaches ceil(alpha (B + 1)), p > alpha is certain and that count over the permutations so far is returned;
 * else (1 + the largest count) / (B + 1).
 */
function maximizedP(series: readonly number[], phis: readonly number[], alpha: number): { p: number; start: number } {
  const n = series.length;
  const later = Float64Array.from(series.slice(1));
  const earlier = Float64Array.from(series.slice(0, n - 1));
  const steps = phis.map((phi) => whitenedStep(n, phi));
  const totals = phis.map((phi) => later.reduce((a, x, j) => a + x - phi * earlier[j], 0));
  const scores = new Float64Array(n - 2 * MIN_SEGMENT + 1);
  // Ties within rounding, relative to the residuals' magnitudes (a constant series: every permutation ties).
  const thresholds = steps.map(
    (step, g) =>
      stepScore(step, later, earlier, totals[g], g === 0 ? scores : undefined) -
      1e-9 * later.reduce((a, x, j) => a + Math.abs(x - step.phi * earlier[j]), 0),
  );
  const start = MIN_SEGMENT + firstNearMax([...scores]);
  const enough = Math.ceil(alpha * (PERMUTATIONS + 1));
  const counts = phis.map(() => 0);
  const random = seededRandom(CHANGE_POINT_SEED);
  for (let b = 1; b <= PERMUTATIONS; b++) {
    for (let i = later.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const l = later[i];
      const e = earlier[i];
      later[i] = later[j];
      earlier[i] = earlier[j];
      later[j] = l;
      earlier[j] = e;
    }
    for (let g = 0; g < steps.length; g++)
      if (stepScore(steps[g], later, earlier, totals[g]) >= thresholds[g] && ++counts[g] >= enough)
        return { p: enough / b, start };
  }
  return { p: (Math.max(...counts) + 1) / (PERMUTATIONS + 1), start };
}

/**
 * 1 when no sum or product the test forms of the series can overflow (its largest magnitude times 4 n MIN_SEGMENT
 * is finite): every ordinary series, computed as it is. Else the power of two that brings the largest magnitude
 * under that bound. Scaling by a power of two is exact (but for values that become subnormal, far below the
 * tolerance) and the test is invariant under it: the same p-value, start and direction, and a constant series stays
 * constant, so every permutation ties with it and p = 1 (unscaled, a sum of values near 1e308 overflowed).
 */
function overflowScale(series: readonly number[]): number {
  const largest = series.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const safe = Number.MAX_VALUE / (4 * series.length * MIN_SEGMENT);
  return largest <= safe ? 1 : 2 ** -(Math.ceil(Math.log2(largest / safe)) + 1);
}

/**
 * The test for one shift in the series' level: its p-value (the largest over the AR coefficients up to arBound),
 * where the shift starts (the largest score's start at arBound) and its size (±Infinity only when the shift itself
 * is beyond the largest double). p-values above `alpha` are not refined: the coefficients' tests stop there. Null
 * when the series has fewer than MIN_RUNS values or a non-finite one.
 */
export function shiftTest(values: readonly number[], alpha = CHANGE_POINT_ALPHA): ChangePoint | null {
  const n = values.length;
  if (n < MIN_RUNS || values.some((x) => !Number.isFinite(x))) return null;
  const scale = overflowScale(values);
  const series = scale === 1 ? values : values.map((x) => x * scale);
  const bound = arBound(series);
  const { p: pValue, start } = maximizedP(series, AR_GRID.slice(0, bound + 1).reverse(), alpha);
  let before = 0;
  let after = 0;
  for (let i = 0; i < n; i++) i < start ? (before += series[i]) : (after += series[i]);
  const shift = after / (n - start) - before / start;
  return {
    direction: shift >= 0 ? 'up' : 'down',
    pValue,
    shift: shift / scale,
    start,
    runs: n,
    arBound: AR_GRID[bound],
  };
}

/** The change point when the test finds one at `alpha`, else null. */
export function changePointOf(series: readonly number[], alpha = CHANGE_POINT_ALPHA): ChangePoint | null {
  const found = shiftTest(series, alpha);
  return found && found.pValue <= alpha && found.shift !== 0 ? found : null;
}
