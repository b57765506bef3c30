/** The false-alarm rate per metric. */
export declare const CHANGE_POINT_ALPHA = 0.01;
/** A shift starts after at least this many runs and lasts at least this many: fewer is one run's noise. */
export declare const MIN_SEGMENT = 3;
/**
 * The fewest runs the test is run on. The first run has no residual, so a shift in the last MIN_SEGMENT of n runs
 * reaches at best p = 2 / C(n - 1, 3) (those runs' residuals the largest, or the smallest): 0.012 at 12 runs, never
 * under alpha; 0.007 at 14, where the Monte Carlo p-value (its error about 0.003 with PERMUTATIONS) is mostly under.
 */
export declare const MIN_RUNS = 14;
/** The largest AR(1) coefficient the test guards against. */
export declare const AR_MAX = 0.7;
/** The permutations' seed (exported so a test can redo them); mixed with n and g, the calibrations'. */
export declare const CHANGE_POINT_SEED = 45;
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
/**
 * The start that best splits `x` into two levels: the largest |mean(from start) - mean(before)| x sqrt(start (n -
 * start) / n), over starts with MIN_SEGMENT runs or more on either side (least squares for one mean shift). The
 * first start within rounding of the largest, so a rounded copy of the series picks the same.
 */
export declare function levelSplit(x: ArrayLike<number>): number;
/**
 * Lag-1 autocorrelation of `x` less each side's mean around levelSplit: the AR coefficient with a shift kept out.
 * The deviations are divided by the largest first, so their squares neither overflow nor underflow.
 */
export declare function splitAutocorrelation(x: ArrayLike<number>): number;
/** Standard normal draws from `random`, two per pair of uniforms (Box-Muller). Exported for its test. */
export declare function gaussians(random: () => number): () => number;
/**
 * The sorted splitAutocorrelation of CALIBRATION_SERIES stationary Gaussian AR(1) series of n runs with coefficient
 * AR_GRID[g], from a seed of their own (computed once per n and g). Exported for its test.
 */
export declare function calibration(n: number, g: number): Float64Array;
/**
 * The index in AR_GRID of the largest coefficient the series does not rule out: one whose simulated series have an
 * autocorrelation (splitAutocorrelation) at most the observed one more than AR_BOUND_MISS of the time; 0 when every
 * other is ruled out. Scanned from the largest down, so only the coefficients above the bound are simulated.
 */
export declare function arBound(x: ArrayLike<number>): number;
/**
 * The test for one shift in the series' level: its p-value (the largest over the AR coefficients up to arBound),
 * where the shift starts (the largest score's start at arBound) and its size (±Infinity only when the shift itself
 * is beyond the largest double). p-values above `alpha` are not refined: the coefficients' tests stop there. Null
 * when the series has fewer than MIN_RUNS values or a non-finite one.
 */
export declare function shiftTest(values: readonly number[], alpha?: number): ChangePoint | null;
/** The change point when the test finds one at `alpha`, else null. */
export declare function changePointOf(series: readonly number[], alpha?: number): ChangePoint | null;
