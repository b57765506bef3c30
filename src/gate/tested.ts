/**
 * Tested gates: a gate on a paired metric that asks "is the candidate worse by a drop that matters?" (a
 * `significant_only` gate, a gate with `margin`, the `retrieval` preset). Three outcomes, docs/gates.md "Margins":
 * - fail: the one-sided test finds a drop (adjusted p < alpha) and the drop crosses the gate's threshold (its
 *   max_drop & co., or the margin when it has none);
 * - pass: not a fail, and the test had 80% power at the margin (the minimum detectable drop is within it);
 * - inconclusive: neither; it follows on_inconclusive (warn by default) and never reads as a pass.
 * The printed interval is the one the test uses: at level 1 - 2 * alpha_g, alpha_g = alpha * p / adjusted p, so it
 * leaves 0 on the worse side exactly when the adjusted p is below alpha.
 */
import type { MetricDef } from '../aggregate/metrics/types.js';
import { minimumDetectableDrop, noiseModel, queriesNeeded } from '../compare/power.js';
import { dropInterval, dropTest, hashString, seededRandom } from '../compare/significance.js';
import type { DropTest } from '../compare/significance.js';
import type { Correction, GateSpec } from './config.js';

export function isTested(spec: GateSpec): boolean {
  return spec.significantOnly || spec.margin !== undefined;
}

/** +1 when higher is better: a drop is then baseline - candidate. */
export function directionOf(def: MetricDef | undefined): 1 | -1 {
  return def?.direction === 'lower' ? -1 : 1;
}

/** The per-query drops (positive = worse) of a gate's metric, from the paired differences candidate - baseline. */
export function dropsOf(diffs: Float64Array, def: MetricDef | undefined): Float64Array {
  const dir = directionOf(def);
  return diffs.map((d) => (d === 0 ? 0 : -dir * d));
}

/** The gate's one-sided test, on its own stream of the report's seed. */
export function gateDropTest(metric: string, drops: Float64Array, seed: number, permutations: number): DropTest {
  return dropTest(drops, permutations, seededRandom((seed ^ hashString(`gate:${metric}`)) >>> 0));
}

/** Adjusted p-values: Holm's step-down, Benjamini-Hochberg's step-up, or none; each capped at 1. */
export function adjustPValues(ps: number[], correction: Correction): number[] {
  const k = ps.length;
  if (correction === 'none' || k === 0) return [...ps];
  const order = ps.map((_, i) => i).sort((a, b) => ps[a] - ps[b] || a - b);
  const adjusted = new Array<number>(k);
  if (correction === 'holm') {
    let running = 0;
    order.forEach((i, rank) => {
      running = Math.max(running, Math.min(1, (k - rank) * ps[i]));
      adjusted[i] = running;
    });
  } else {
    let running = 1;
    for (let rank = k - 1; rank >= 0; rank--) {
      const i = order[rank];
      running = Math.min(running, Math.min(1, (k * ps[i]) / (rank + 1)));
      adjusted[i] = running;
    }
  }
  return adjusted;
}

/** What a tested gate's test says, before the thresholds: the numbers every output prints. */
export interface TestedNumbers {
  pValue: number;
  /** The mean drop over the paired queries (positive: worse), the delta the interval and the p describe. */
  meanDrop: number;
  pAdjusted: number;
  correction: Correction | 'primary';
  /** Of the delta (candidate - baseline), at ciLevel. */
  ci: [number, number];
  ciLevel: number;
  significant: boolean;
  margin: number;
  /** Null: no drop the test could see at 80% power. */
  mdd: number | null;
  queriesNeeded: number | null;
  nPaired: number;
}

/**
 * The numbers of one tested gate. `mddLevel` is the level the gate's drop must clear when it is the only real
 * one: alpha / (gates in the correction) for holm and bh, alpha alone for none and the primary.
 */
export function testedNumbers(
  test: DropTest,
  drops: Float64Array,
  adjusted: { pAdjusted: number; correction: Correction | 'primary'; mddLevel: number },
  alpha: number,
  margin: number,
  def: MetricDef | undefined,
): TestedNumbers {
  const { pAdjusted } = adjusted;
  // The level at which this p is compared once adjusted: p < alpha_g exactly when pAdjusted < alpha.
  const level = pAdjusted > 0 ? Math.min(alpha, (alpha * test.pValue) / pAdjusted) : alpha;
  const [low, high] = dropInterval(test, level);
  const ci: [number, number] = directionOf(def) === 1 ? [-high, -low] : [low, high];
  const model = noiseModel(drops);
  const mdd = minimumDetectableDrop(model, adjusted.mddLevel);
  const needed = mdd > margin ? queriesNeeded(model, adjusted.mddLevel, margin) : null;
  return {
    pValue: test.pValue,
    meanDrop: test.meanDrop,
    pAdjusted,
    correction: adjusted.correction,
    ci: [clean(ci[0]), clean(ci[1])],
    ciLevel: 1 - 2 * level,
    significant: pAdjusted < alpha,
    margin,
    mdd: Number.isFinite(mdd) ? mdd : null,
    queriesNeeded: needed,
    nPaired: test.n,
  };
}

/** -0 prints as "-0.0000"; an interval end is 0 then. */
const clean = (x: number) => (x === 0 ? 0 : x);
