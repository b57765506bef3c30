/**
 * A trade's gain: has a cost (latency, money, tokens) fallen by at least a share `minGain`, query by query? The fall
 * is read off the geometric mean of the per-query ratios candidate / baseline and tested one-sided on their logs,
 * Student's t corrected for skew; the gate buys it when the p, adjusted as its own is, is under alpha (src/gate/
 * trades.ts; docs/gates.md, "Trades"; docs/decisions/0013-trades.md says why ratios and why the correction).
 */
import { normalPointOf, normalUpperTail } from './distributions.js';

export interface TradeGain {
  /** The fall, 1 - the geometric mean of candidate / baseline (0.5: half the cost); null: no query above 0 in both. */
  gain: number | null;
  /**
   * One-sided p of "the fall is under minGain"; null when not tested: no gain, under MIN_TRADE_QUERIES queries, or
   * a query whose cost is 0 in one run only (`oneSidedZeros`).
   */
  pValue: number | null;
  /** The queries with the cost on both sides. */
  n: number;
  /** Queries whose cost is 0 in one run and not the other: a ratio cannot say how far a free query fell. */
  oneSidedZeros: number;
}

/**
 * The fewest queries with the cost on both sides a gain is tested on: fewer often miss a rare slowdown altogether
 * and "show" a gain that is not there (docs/decisions/0013-trades.md).
 */
export const MIN_TRADE_QUERIES = 100;

/**
 * The gain over the queries with the cost above 0 in both runs (0 in both is no change, and counts as a ratio of 1).
 * A query at 0 in one run only has no ratio: the gain is then shown without a test, since any price read for the 0
 * would decide it (docs/decisions/0013-trades.md).
 */
export function tradeGain(baseline: Float64Array, candidate: Float64Array, minGain: number): TradeGain {
  const n = baseline.length;
  // Each query's log excess over the wanted fall, positive when it fell by more than minGain; their mean is > 0
  // exactly when the measured gain is > minGain.
  const excess: number[] = [];
  let [sum, priced, oneSidedZeros] = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const [b, c] = [baseline[i], candidate[i]];
    if (b > 0 !== c > 0) {
      oneSidedZeros++;
      continue;
    }
    const logRatio = b > 0 ? Math.log(c / b) : 0;
    if (b > 0) priced++;
    sum += logRatio;
    excess.push(Math.log(1 - minGain) - logRatio);
  }
  const gain = priced === 0 ? null : 1 - Math.exp(sum / excess.length);
  const tested = gain !== null && n >= MIN_TRADE_QUERIES && oneSidedZeros === 0;
  return { gain, pValue: tested ? skewCorrectedP(Float64Array.from(excess)) : null, n, oneSidedZeros };
}

/**
 * One-sided p of "the mean is at most 0" for values that may be skewed (most queries a little faster, a few much
 * slower: Student's t alone then "shows" gains that are not there too often; docs/decisions/0013-trades.md), by
 * Hall's monotone transformation of the t statistic (Hall, "On the removal of skewness by transformation", JRSS B
 * 54, 1992): g(t) = t + γ/(6√n) + γt²/(3√n) + γ²t³/(27n), γ the sample skewness, read as Student's t with n - 1
 * degrees of freedom. The variance is floored as the gates' bounds floor it (dropBounds.ts), with the values' range
 * as the step: every ratio lower by the same share moves the mean and not the spread, so it never raises the p.
 */
export function skewCorrectedP(values: Float64Array): number {
  const n = values.length;
  let [sum, low, high] = [0, Infinity, -Infinity];
  for (const x of values) [sum, low, high] = [sum + x, Math.min(low, x), Math.max(high, x)];
  const mean = sum / n;
  let [m2, m3] = [0, 0];
  for (const x of values) [m2, m3] = [m2 + (x - mean) ** 2, m3 + (x - mean) ** 3];
  const variance = Math.max(m2 / (n - 1), (2 * (high - low) ** 2) / (n + 1));
  if (variance === 0) return mean > 0 ? 0 : 1;
  const t = mean / Math.sqrt(variance / n);
  const skew = m2 > 0 ? m3 / n / (m2 / n) ** 1.5 : 0;
  const root = Math.sqrt(n);
  const g = t + skew / (6 * root) + (skew * t * t) / (3 * root) + (skew * skew * t ** 3) / (27 * n);
  return normalUpperTail(normalPointOf(g, n - 1));
}
