import type { Correction } from '../stats/familywise.js';
export interface CalibrationRun {
    runId: string;
    commit: string | null;
    createdAt: string;
    /** Per metric id, one value per golden query (the same order in every run); NaN: not in its denominator. */
    values: ReadonlyMap<string, Float64Array>;
}
export interface CalibrateOptions {
    metrics: readonly string[];
    /** The false-alarm rate of the whole config: each gate's one-sided test runs at alpha / metrics (holm, bh). */
    alpha: number;
    /** The power at which a drop counts as detectable (the verdict's: 0.8). */
    power: number;
    correction: Correction;
}
export interface MetricNoise {
    metric: string;
    /** Queries with a value in every run. */
    n: number;
    /** The metric's mean in each run, in the runs' order. */
    means: number[];
    /** Standard deviation of the run mean across runs, and its standard error (normal theory, k - 1 degrees). */
    sdMean: number;
    sdMeanError: number;
    /** Standard deviation of a query's difference between two runs (root mean square over all pairs), its error. */
    sdDiff: number;
    sdDiffError: number;
    /** Share of (query, pair of runs) whose value differs, and its standard error. */
    changed: number;
    changedError: number;
    /** Root mean square of the non-zero differences (1 when none): the typical size of a change. */
    size: number;
    /** The one-sided level of this metric's gate: alpha, or alpha over the metrics for holm and bh. */
    level: number;
    /** The smallest drop the gate's test detects with `power` at this noise; null: none with these queries. */
    detects: number | null;
    /** The margin to suggest: the drop detectable at the noisiest a comparison is likely to be, up to 0.01; null: none. */
    margin: number | null;
}
export interface Calibration {
    runs: string[];
    /** Distinct commits the runs record (null: a run without one), in order of first appearance. */
    commits: (string | null)[];
    /** The newest run's created_at. */
    measured: string;
    alpha: number;
    power: number;
    correction: Correction;
    metrics: MetricNoise[];
}
/** Fewer runs cannot show a difference: calibrate refuses them. */
export declare const MIN_CALIBRATION_RUNS = 2;
export declare function calibrate(runs: readonly CalibrationRun[], options: CalibrateOptions): Calibration;
