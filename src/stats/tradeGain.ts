/**
 * A trade's gain: has a cost (latency, money, tokens) fallen by at least a share `minGain`, on the paired queries?
 * One-sided, with the bounds every tested gate uses (dropBounds), so the p and the "bought" it gives cannot disagree:
 * bought exactly when p < beta (docs/gates.md, "Trades").
 */
import { dropBounds } from './dropBounds.js';

/**
 * How a cost's fall is measured: `ratio` is the geometric mean of each query's candidate / baseline (latency: a few
 * slow queries neither buy nor spoil a trade), `total` the candidate's total over the baseline's (money and tokens:
 * what the bill says, zeros included).
 */
export type GainMeasure = 'ratio' | 'total';

export interface TradeGain {
  /** The fall, 1 - candidate / baseline as `measure` reads it (0.5: half the cost); null when nothing to divide by. */
  gain: number | null;
  /** One-sided p of "the fall is under minGain"; null when not tested (no gain, or under MIN_TRADE_QUERIES queries). */
  pValue: number | null;
  /** The fall is shown to be minGain or more at level 1 - beta. */
  bought: boolean;
  /** The queries with the cost on both sides. */
  n: number;
}

/** The fewest queries with the cost on both sides a gain is tested on. */
export const MIN_TRADE_QUERIES = 10;

/** A time under `floor` (the clock's resolution) reads as `floor`, so a query of 0 ms has a ratio. */
export function tradeGain(
  baseline: Float64Array,
  candidate: Float64Array,
  measure: GainMeasure,
  minGain: number,
  beta: number,
  floor = 1,
): TradeGain {
  const n = baseline.length;
  // Each query's excess over the wanted fall, positive when it fell by more than minGain; their mean is > 0 exactly
  // when the measured gain is > minGain.
  const excess = new Float64Array(n);
  let gain: number | null;
  if (measure === 'ratio') {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const logRatio = Math.log(Math.max(candidate[i], floor) / Math.max(baseline[i], floor));
      sum += logRatio;
      excess[i] = Math.log(1 - minGain) - logRatio;
    }
    gain = n === 0 ? null : 1 - Math.exp(sum / n);
  } else {
    let [b, c] = [0, 0];
    for (let i = 0; i < n; i++) {
      b += baseline[i];
      c += candidate[i];
      excess[i] = (1 - minGain) * baseline[i] - candidate[i];
    }
    gain = b > 0 ? 1 - c / b : null;
  }
  if (gain === null || n < MIN_TRADE_QUERIES) return { gain, pValue: null, bought: false, n };
  // The variance floor's step is the excesses' range: a fall by the same share more (every ratio scaled) moves
  // the mean and not the spread, so it never raises the p.
  let [low, high] = [Infinity, -Infinity];
  for (const x of excess) [low, high] = [Math.min(low, x), Math.max(high, x)];
  const bounds = dropBounds(excess, beta, high - low);
  return { gain, pValue: bounds.pValue, bought: bounds.lower > 0, n };
}
