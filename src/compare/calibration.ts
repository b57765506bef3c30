/**
 * Thresholds from measured noise (`evalverdict calibrate`, docs/cli.md): runs of one commit (A/A) differ only by the
 * system's own noise, so their per-query differences are what a comparison with no real change looks like. From
 * them, per metric: the run-to-run spread, the smallest drop a tested gate detects at that noise (the same
 * minimum detectable drop the verdict computes: src/stats/power.ts), and the margin to suggest.
 *
 * Every pair of runs is used: per query, the mean over pairs of the squared difference is twice the sample variance
 * of its k values, so queries (independent of each other) carry the error: the standard errors below are the
 * spread over queries of each query's own statistic, divided by the square root of the number of queries.
 */
import { familySize, levelInFamily } from '../stats/familywise.js';
import type { Correction } from '../stats/familywise.js';
import { minimumDetectableDrop } from '../stats/power.js';
import { normalQuantile } from '../stats/distributions.js';
import { runTime } from '../time.js';

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
export const MIN_CALIBRATION_RUNS = 2;

/** One-sided tail of the headroom in the suggested margin: 2.5% of comparisons noisier than it. */
const MARGIN_TAIL = 0.025;

export function calibrate(runs: readonly CalibrationRun[], options: CalibrateOptions): Calibration {
  if (runs.length < MIN_CALIBRATION_RUNS)
    throw new Error(`calibrate needs at least ${MIN_CALIBRATION_RUNS} runs, got ${runs.length}`);
  const level = levelInFamily(options.alpha, familySize(options.correction, options.metrics.length));
  const measured = runs.map((r) => r.createdAt).reduce((a, b) => ((runTime(b) ?? 0) > (runTime(a) ?? 0) ? b : a));
  return {
    runs: runs.map((r) => r.runId),
    commits: [...new Set(runs.map((r) => r.commit))],
    measured,
    alpha: options.alpha,
    power: options.power,
    correction: options.correction,
    metrics: options.metrics.map((metric) => metricNoise(metric, runs, level, options.power)),
  };
}

/** Per query over every pair of runs: mean squared difference, share changed, and one pair's squared differences. */
interface QueryStats {
  meanSquare: number[];
  changedShare: number[];
  /** Every (pair, query) squared difference: one comparison's mean square varies as these do. */
  pairSquares: number[];
}

function queryStats(columns: Float64Array[]): QueryStats {
  const stats: QueryStats = { meanSquare: [], changedShare: [], pairSquares: [] };
  const k = columns.length;
  const pairs = (k * (k - 1)) / 2;
  for (let i = 0; i < columns[0].length; i++) {
    if (columns.some((c) => c[i] !== c[i])) continue; // NaN in some run: not in every run's denominator
    let squares = 0;
    let changed = 0;
    for (let a = 0; a < k; a++) {
      for (let b = a + 1; b < k; b++) {
        const d = columns[b][i] - columns[a][i];
        squares += d * d;
        stats.pairSquares.push(d * d);
        if (d !== 0) changed++;
      }
    }
    stats.meanSquare.push(squares / pairs);
    stats.changedShare.push(changed / pairs);
  }
  return stats;
}

const meanOf = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Sample standard deviation (n - 1); 0 for fewer than two values. */
function sdOf(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = meanOf(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) * (x - m), 0) / (xs.length - 1));
}

/** Up to the next hundredth (a float's last bit never adds one), at least 0.01. */
const upToHundredth = (x: number) => Math.max(0.01, Math.ceil(x * 100 - 1e-9) / 100);

function metricNoise(metric: string, runs: readonly CalibrationRun[], level: number, power: number): MetricNoise {
  const columns = runs.map((r) => {
    const c = r.values.get(metric);
    if (!c) throw new Error(`run ${r.runId} has no per-query values for ${metric}`);
    return c;
  });
  const stats = queryStats(columns);
  const n = stats.meanSquare.length;
  const means = columns.map((c) => meanOf([...c].filter((v) => v === v)));
  const k = runs.length;
  const sdMean = sdOf(means);
  const meanSquare = meanOf(stats.meanSquare);
  const meanSquareError = sdOf(stats.meanSquare) / Math.sqrt(Math.max(1, n));
  const sdDiff = Math.sqrt(meanSquare);
  const changed = meanOf(stats.changedShare);
  const size = changed === 0 ? 1 : Math.sqrt(meanSquare / changed);
  const mdd = minimumDetectableDrop({ n, rho: changed, size }, level, power);
  return {
    metric,
    n,
    means,
    sdMean,
    sdMeanError: sdMean / Math.sqrt(2 * (k - 1)),
    sdDiff,
    sdDiffError: sdDiff === 0 ? 0 : meanSquareError / (2 * sdDiff),
    changed,
    changedError: sdOf(stats.changedShare) / Math.sqrt(Math.max(1, n)),
    size,
    level,
    detects: Number.isFinite(mdd) ? mdd : null,
    margin: suggestedMargin(stats, { n, changed, size, meanSquare, meanSquareError }, level, power),
  };
}

/**
 * The drop detectable when a comparison's mean squared difference is at its upper 97.5% point: one pair's mean
 * square varies over queries as the pair squares do, and the calibration's own estimate adds its error. The share
 * changed is scaled to that mean square at the measured size of a change; with no change seen, the share is the
 * rule of three's 95% bound (3 / observations).
 */
function suggestedMargin(
  stats: QueryStats,
  m: { n: number; changed: number; size: number; meanSquare: number; meanSquareError: number },
  level: number,
  power: number,
): number | null {
  if (m.n === 0) return null;
  const z = normalQuantile(MARGIN_TAIL);
  const onePair = sdOf(stats.pairSquares) / Math.sqrt(m.n);
  const upper = m.meanSquare + z * Math.sqrt(onePair * onePair + m.meanSquareError * m.meanSquareError);
  const rho =
    m.meanSquare === 0 ? Math.min(1, 3 / stats.pairSquares.length) : Math.min(1, m.changed * (upper / m.meanSquare));
  const mdd = minimumDetectableDrop({ n: m.n, rho, size: m.size }, level, power);
  return Number.isFinite(mdd) ? upToHundredth(mdd) : null;
}
