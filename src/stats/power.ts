/**
 * The smallest drop a gate's one-sided test can see: the minimum detectable drop (MDD) at a level and 80% power,
 * the question Webber, Moffat and Zobel ask of IR test collections ("Statistical power in retrieval experimentation",
 * CIKM 2008).
 *
 * Model: n queries, a share rho of them changed between two runs with no real change, with a typical size s (root
 * mean square; 1, a hit lost, when none changed), from baseline-side noise (measuredNoiseModel: the config's
 * `noise:` block or the baseline's repeats; redrawnNoiseModel: `evalverdict power`'s assumed churn) or, lacking it,
 * from a comparison's own differences with the mean change removed (noiseModel). Under no change a changed query
 * is as likely better as worse. A drop of size d * s first moves a share of the unchanged queries to a loss of
 * size s (P(loss) = rho/2 + d, P(win) = rho/2, while d <= 1 - rho); past that, when too few
 * queries are unchanged, the rest of the drop turns wins into losses (each such query moves the mean by 2s), so the
 * mean difference is always -d * s and d runs up to 1 (every query a loss). For a metric whose differences all have one
 * size (hit@k, and nDCG/MRR when every change is a hit found or lost) the gate's test is then the exact sign
 * test, and for n <= EXACT_POWER_MAX the power is summed exactly over every (losses, wins) count; above it the
 * normal approximation of the same test is used (at 100/101 queries the two agree within 0.02: test/verdict.test.ts).
 */
import {
  binomialUpperTails,
  largestReaching,
  logFactorialTable,
  normalQuantile,
  normalUpperTail,
} from './distributions.js';

export const EXACT_POWER_MAX = 100;
export const TARGET_POWER = 0.8;

export interface NoiseModel {
  n: number;
  /** Share of queries whose value changed. */
  rho: number;
  /** Typical size of a change (root mean square). */
  size: number;
}

/**
 * The noise of a comparison's own paired differences with the mean change removed, for when no baseline-side noise
 * is known: the share of queries that changed, at the size their spread about the mean gives (the variance of the
 * differences, not their mean square: sqrt(variance / share)). A real change, better or worse, then does not count
 * as noise by its mean. No spread about the mean (nothing changed, or every query by the same amount): no noise, at
 * the changes' size (1 when none changed). On the latent model (test/powerAdvice.test.ts) its detectable drop at 300
 * queries is 0.96-1.23 times the A/A noise's (median) under true drops of up to twice the margin; twice the rarer
 * side's share, the other way to remove a change, fell to 0.45, since a real drop also removes wins.
 */
export function noiseModel(diffs: ArrayLike<number>): NoiseModel {
  const n = diffs.length;
  let changed = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    if (diffs[i] === 0) continue;
    changed++;
    sum += diffs[i];
    squares += diffs[i] * diffs[i];
  }
  if (changed === 0) return { n, rho: 0, size: 1 };
  const mean = sum / n;
  const variance = squares / n - mean * mean;
  // every query changed by the same amount: a spread of rounding error only
  if (variance <= 1e-12 * (squares / n)) return { n, rho: 0, size: Math.sqrt(squares / changed) };
  const rho = changed / n;
  return { n, rho, size: Math.sqrt(variance / rho) };
}

/**
 * The model of a measured noise floor (the config's `noise:` block, `evalverdict calibrate`): a share `changed` of the
 * queries differs between two runs with no change, with a mean squared difference sdDiff^2, so a typical change of
 * sdDiff / sqrt(changed) (1 when nothing changed), over the n queries a comparison pairs.
 */
export function measuredNoiseModel(n: number, changed: number, sdDiff: number): NoiseModel {
  const rho = Math.min(1, changed);
  return { n, rho, size: rho === 0 || sdDiff === 0 ? 1 : sdDiff / Math.sqrt(rho) };
}

/**
 * The noise when a share `churn` of the queries is redrawn between two runs with no change, a redrawn query taking
 * another value of the same run's per-query values (NaN: left out): it differs with probability 1 - sum p_v^2 over
 * the distinct values v, by a mean square of twice their variance. A hit@k at value v gives 2v(1 - v) and size 1;
 * nDCG or MRR get the size of their own spread instead of a hit's.
 */
export function redrawnNoiseModel(values: ArrayLike<number>, churn: number): NoiseModel {
  const kept = Array.from(values)
    .filter((v) => !Number.isNaN(v))
    .sort((a, b) => a - b);
  const n = kept.length;
  if (n === 0) return { n, rho: 0, size: 1 };
  const mean = kept.reduce((a, v) => a + v, 0) / n;
  const variance = kept.reduce((a, v) => a + (v - mean) * (v - mean), 0) / n;
  let same = 0;
  for (let i = 0, j = 0; i < n; i = j) {
    while (j < n && kept[j] === kept[i]) j++;
    same += ((j - i) / n) ** 2;
  }
  const differ = Math.max(0, 1 - same);
  return { n, rho: churn * differ, size: differ === 0 ? 1 : Math.sqrt((2 * variance) / differ) };
}

/** For m changed queries, the fewest losses the one-sided exact sign test rejects at `level` (m + 1: none). */
function rejectionCounts(n: number, level: number): Int32Array {
  const least = new Int32Array(n + 1);
  for (let m = 0; m <= n; m++) least[m] = largestReaching(binomialUpperTails(m), level) + 1;
  return least;
}

/** count * log(p), 0 for no count (so that a share of 0 never makes 0 * -Infinity). */
const countTimesLog = (count: number, logP: number) => (count === 0 ? 0 : count * logP);

/** Exact power of the one-sided sign test when P(loss) = lossP and P(win) = winP per query. */
function exactPower(n: number, lossP: number, winP: number, least: Int32Array, lf: Float64Array): number {
  // The three logs once per call, not once per cell: the MDD search alone calls this 41 times for a gate.
  const logLoss = Math.log(lossP);
  const logWin = Math.log(winP);
  const logSame = Math.log(Math.max(0, 1 - lossP - winP));
  let power = 0;
  for (let losses = 0; losses <= n; losses++) {
    // least[] never falls as the changed count grows: once these losses are too few, they stay too few with more wins.
    for (let wins = 0; wins + losses <= n && losses >= least[losses + wins]; wins++) {
      const same = n - losses - wins;
      const log =
        lf[n] -
        lf[losses] -
        lf[wins] -
        lf[same] +
        countTimesLog(losses, logLoss) +
        countTimesLog(wins, logWin) +
        countTimesLog(same, logSame);
      power += Math.exp(log);
    }
  }
  return power;
}

/**
 * Per query, P(loss) and P(win) under a drop of d (in units of the typical size): from unchanged queries first, then
 * from wins, so that P(loss) - P(win) = d for every d in [0, 1] (module comment).
 */
export function lossWinShares(rho: number, d: number): { loss: number; win: number } {
  const fromUnchanged = Math.min(d, 1 - rho);
  const fromWins = (d - fromUnchanged) / 2;
  return { loss: rho / 2 + fromUnchanged + fromWins, win: Math.max(0, rho / 2 - fromWins) };
}

/** Normal-approximation power of the same test: reject when the drop sum exceeds z * sqrt(sum of squares). */
function normalPower(n: number, rho: number, d: number, zLevel: number): number {
  const { loss, win } = lossWinShares(rho, d);
  const changed = loss + win;
  if (changed === 0) return 0;
  const mean = n * d;
  const sd = Math.sqrt(n * Math.max(1e-12, changed - d * d));
  return normalUpperTail((zLevel * Math.sqrt(n * changed) - mean) / sd);
}

/** The minimum detectable drop (in the metric's unit) at `level` (one-sided) and `target` power (80%); Infinity: none. */
export function minimumDetectableDrop(model: NoiseModel, level: number, target = TARGET_POWER): number {
  const { n, rho, size } = model;
  if (n === 0) return Number.POSITIVE_INFINITY;
  let power: (pi: number) => number;
  if (n <= EXACT_POWER_MAX) {
    const lf = logFactorialTable(n);
    const least = rejectionCounts(n, level);
    power = (d) => {
      const { loss, win } = lossWinShares(rho, d);
      return exactPower(n, loss, win, least, lf);
    };
  } else {
    const zLevel = normalQuantile(level);
    power = (d) => normalPower(n, rho, d, zLevel);
  }
  const most = 1;
  if (power(most) < target) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = most;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (power(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi * size;
}

/** The fewest queries, with the same share and size of changes, whose MDD is at most `margin` (null: over 10^7). */
export function queriesNeeded(model: NoiseModel, level: number, margin: number): number | null {
  const mddAt = (n: number) => minimumDetectableDrop({ ...model, n }, level);
  const ceiling = 10_000_000;
  if (mddAt(ceiling) > margin) return null;
  let lo = 1;
  let hi = ceiling;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (mddAt(mid) <= margin) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
