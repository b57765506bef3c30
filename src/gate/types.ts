/** The gate stage's part of the compare report: each gate's result and the verdict, added to the comparison. */
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { Comparison } from '../compare/types.js';
import type { TradeCost } from './config.js';

export type Verdict = 'pass' | 'warn' | 'fail';

export interface GateResult {
  metric: string;
  where?: Record<string, string | boolean>;
  /** A gate that holds over the whole set and in every slice (`per_slice: true`); its slices follow it. */
  per_slice?: boolean;
  /** One slice's gate, made from the `per_slice` gate before it (docs/gates.md, "Slices"). */
  slice?: boolean;
  /** A slice's golden queries. */
  slice_queries?: number;
  level: 'error' | 'warn';
  min?: number;
  max?: number;
  max_drop?: number;
  max_increase?: number;
  max_drop_pct?: number;
  max_increase_pct?: number;
  significant_only?: boolean;
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
  /** A tested gate's one-sided p-value (no p on a gate without a test). */
  p_value?: number | null;
  /** The p-value after the correction across tested gates (equal to p_value for none and the primary). */
  p_adjusted?: number;
  correction?: 'none' | 'holm' | 'bh' | 'primary';
  /**
   * A tested gate's interval of the paired delta, at ci_level (1 - 2 alpha), simultaneous over simultaneous_over
   * tests (the tested gates and their trades' gain tests): each end a one-sided bound at 1 - alpha /
   * simultaneous_over. The gate passes when its worse end is within the margin, fails when its better end is beyond
   * it (docs/gates.md); it leaves 0 on the worse side exactly when p_adjusted < alpha.
   */
  ci?: [number, number];
  ci_level?: number;
  simultaneous_over?: number;
  /** The smallest drop that matters. */
  margin?: number;
  /** Advice: the smallest drop found 80% of the time (null: none), and the queries that would bring it to the margin. */
  min_detectable_drop?: number | null;
  queries_needed?: number | null;
  n_paired?: number;
  /**
   * A tested gate's mean change over its n_paired queries (candidate - baseline), present only where it differs from
   * `delta` (the means count different queries): the change the interval, the p and the outcome describe.
   */
  paired_delta?: number;
  /** A gate's `trade` and what its gain's test said (docs/gates.md, "Trades"). */
  trade?: TradeResult;
  /** A failed answer gate: the candidate's queries that failed it (at most 100) and how many there are. */
  failing_queries?: string[];
  failing_count?: number;
  /**
   * pass | fail | warn (a failed warn-level gate) | inconclusive (a tested gate that can neither show a drop nor
   * rule out one of the margin's size) | info (group below min_n, not enforced) | no_data | not_comparable
   */
  result: 'pass' | 'fail' | 'warn' | 'inconclusive' | 'info' | 'no_data' | 'not_comparable';
  /** Whether this result makes the verdict fail or warn. */
  effect: 'none' | 'warn' | 'fail';
  threshold: string;
  note: string;
  /** Line of the gate in the config file, when it came from one. */
  line?: number;
}

/**
 * A trade on a tested gate: its terms; the cost's measured fall `gain` (1 - the geometric mean of the per-query
 * ratios candidate / baseline; null: no query has the cost above 0 in both runs); the one-sided p of "the fall is
 * under min_gain", adjusted as the gate's p is (null: not tested, under 100 queries with the cost or a cost 0 in one
 * run only); whether the fall is shown (`bought`: p_adjusted < alpha); and whether the trade passed the gate
 * (`traded`: the gate's drop is beyond its margin, ruled out at the trade's margin, and bought).
 */
export interface TradeResult {
  metric: TradeCost;
  margin: number;
  min_gain: number;
  gain: number | null;
  p_value: number | null;
  p_adjusted: number | null;
  n_paired: number;
  /** Queries whose cost is 0 in one run only: the gain is then not tested (docs/gates.md, "Trades"). */
  one_sided_zeros: number;
  bought: boolean;
  /** The gate's drop is ruled out at the trade's margin (its upper bound is under it). */
  margin_holds: boolean;
  traded: boolean;
}

/** The compare report: the stable JSON document `evalverdict compare --json` writes, and what the renderer reads. */
export interface CompareReport extends Comparison {
  verdict: Verdict;
  gates: GateResult[];
}

export interface GatedRuns {
  report: CompareReport;
  /** The metric table used, for rendering (direction, unit, family). */
  defs: MetricDef[];
}
