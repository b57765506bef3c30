/**
 * Tested gates: a gate on a paired metric that asks "is the candidate worse by a drop that matters?" (a
 * `significant_only` gate, a gate with `margin`, the `retrieval` preset). One pair of one-sided bounds of the mean
 * drop, each at 1 - beta with beta fixed in advance (alpha / k for the k corrected gates: Bonferroni; alpha for the
 * primary and for `correction: none`), read against the margin m (docs/gates.md, docs/decisions/0010):
 * - pass: upper < m (a drop of m or more is ruled out);
 * - fail: lower > m (the drop is significantly beyond the margin);
 * - inconclusive: neither; it follows on_inconclusive (warn by default) and never reads as a pass.
 * The p printed is the same statistic's, so the mark, the interval and the outcome cannot disagree.
 */
import type { MetricDef } from '../aggregate/metrics/types.js';
import { minimumDetectableDrop, noiseModel, queriesNeeded } from '../stats/power.js';
import { dropBounds } from '../stats/dropBounds.js';
import type { GateSpec } from './config.js';
import { adjustedP, levelInFamily } from '../stats/familywise.js';
import type { Correction } from '../stats/familywise.js';
import { noiseFloorModel, type MetricNoiseFloor } from './noise.js';

export function isTested(spec: GateSpec): boolean {
  return spec.significantOnly || spec.margin !== undefined;
}

/** The tests a tested gate brings to its family: its bounds, and its trade's gain test (docs/gates.md, "Trades"). */
export const testsOf = (spec: GateSpec): number => (spec.trade ? 2 : 1);

/** The primary's own family: its bounds and its trade's test split alpha, unless nothing is split (`none`). */
export const primaryFamilySize = (spec: GateSpec, correction: Correction): number =>
  correction === 'none' ? 1 : testsOf(spec);

/** +1 when higher is better: a drop is then baseline - candidate. */
export function directionOf(def: MetricDef | undefined): 1 | -1 {
  return def?.direction === 'lower' ? -1 : 1;
}

/** The per-query drops (positive = worse) of a gate's metric, from the paired differences candidate - baseline. */
export function dropsOf(diffs: Float64Array, def: MetricDef | undefined): Float64Array {
  const dir = directionOf(def);
  return diffs.map((d) => (d === 0 ? 0 : -dir * d));
}

/** What a tested gate's bounds say, before the margin: the numbers every output prints. */
export interface TestedNumbers {
  /** One-sided p of "no drop", for the bounds' statistic. */
  pValue: number;
  /** The mean drop over the paired queries (positive: worse), the delta the interval and the p describe. */
  meanDrop: number;
  /** The p held to alpha: k x p for the corrected gates (Bonferroni, the bounds' split), p itself otherwise. */
  pAdjusted: number;
  correction: Correction | 'primary';
  /** The drop's one-sided bounds, each at 1 - alpha / k (lower: how small the drop surely is; upper: how large). */
  dropBounds: [number, number];
  /** The change (candidate - baseline) between the bounds, at the nominal level ciLevel = 1 - 2 alpha. */
  ci: [number, number];
  ciLevel: number;
  /** The tests the bounds are simultaneous over: tested gates and trades' gain tests (1: the primary, or no correction). */
  simultaneousOver: number;
  /** lower > 0: a drop is shown (pAdjusted < alpha). */
  significant: boolean;
  margin: number;
  /** Null: no drop the test could see at 80% power. Advice for an inconclusive gate only. */
  mdd: number | null;
  queriesNeeded: number | null;
  /**
   * The noise mdd and queriesNeeded come from: the config's measured `noise:` block for the metric (the baseline
   * side's), else the comparison's own differences with the mean change removed.
   */
  adviceFrom: 'noise floor' | 'comparison';
  nPaired: number;
}

/** Where a gate's bounds sit among the tested gates: how many share the split of alpha. */
export interface Family {
  correction: Correction | 'primary';
  /** Tests alpha is split over, a trade's gain test among them (1 for the primary and for `none`). */
  size: number;
}

/**
 * The numbers of one tested gate: its drops' bounds at 1 - alpha / size, read for a margin in the caller.
 * `step` is the metric's full step (1 for a rate): the pseudo-queries of the bounds (src/stats/signFlip.ts).
 * `noise`: the metric's measured noise floor (the config's `noise:` block), the advice's noise when given.
 */
export function testedNumbers(
  drops: Float64Array,
  family: Family,
  alpha: number,
  margin: number,
  def: MetricDef | undefined,
  noise?: MetricNoiseFloor | null,
): TestedNumbers {
  const beta = levelInFamily(alpha, family.size);
  const b = dropBounds(drops, beta, stepOf(def, drops));
  const ci: [number, number] = directionOf(def) === 1 ? [-b.upper, -b.lower] : [b.lower, b.upper];
  return {
    pValue: b.pValue,
    meanDrop: b.meanDrop,
    pAdjusted: adjustedP(b.pValue, family.size),
    correction: family.correction,
    dropBounds: [clean(b.lower), clean(b.upper)],
    ci: [clean(ci[0]), clean(ci[1])],
    ciLevel: 1 - 2 * alpha,
    simultaneousOver: family.size,
    significant: b.lower > 0,
    margin,
    ...advice(drops, beta, margin, noise ?? null),
    nPaired: b.n,
  };
}

/**
 * Power is advice, never the outcome: the smallest drop found 80% of the time at the gate's level, and the queries
 * that would bring it to the margin, from the baseline side's measured noise when the config carries it, else from
 * the comparison's differences with their mean change removed (a real change, better or worse, is not noise).
 */
function advice(
  drops: Float64Array,
  beta: number,
  margin: number,
  noise: MetricNoiseFloor | null,
): Pick<TestedNumbers, 'mdd' | 'queriesNeeded' | 'adviceFrom'> {
  const model = noise ? noiseFloorModel(noise, drops.length) : noiseModel(drops);
  const mdd = minimumDetectableDrop(model, beta);
  return {
    mdd: Number.isFinite(mdd) ? mdd : null,
    queriesNeeded: mdd > margin ? queriesNeeded(model, beta, margin) : null,
    adviceFrom: noise ? 'noise floor' : 'comparison',
  };
}

/** A rate moves by at most 1 a query; another metric's step is its largest observed change. */
function stepOf(def: MetricDef | undefined, drops: Float64Array): number {
  if (def?.unit === 'ratio') return 1;
  let largest = 0;
  for (const d of drops) largest = Math.max(largest, Math.abs(d));
  return largest;
}

/** -0 prints as "-0.0000"; an interval end is 0 then. */
const clean = (x: number) => (x === 0 ? 0 : x);
