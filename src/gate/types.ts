/** The gate stage's part of the compare report: each gate's result and the verdict, added to the comparison. */
import type { MetricDef } from '../aggregate/metrics.js';
import type { Comparison } from '../compare/types.js';

export type Verdict = 'pass' | 'warn' | 'fail';

export interface GateResult {
  metric: string;
  where?: Record<string, string | boolean>;
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
  p_value?: number | null;
  /** pass | fail | warn (a failed warn-level gate) | info (group below min_n, not enforced) | no_data | not_comparable */
  result: 'pass' | 'fail' | 'warn' | 'info' | 'no_data' | 'not_comparable';
  /** Whether this result makes the verdict fail or warn. */
  effect: 'none' | 'warn' | 'fail';
  threshold: string;
  note: string;
  /** Line of the gate in the config file, when it came from one. */
  line?: number;
}

/** The compare report: the stable JSON document `evalgate compare --json` writes, and what the renderer reads. */
export interface CompareReport extends Comparison {
  verdict: Verdict;
  gates: GateResult[];
}

export interface GatedRuns {
  report: CompareReport;
  /** The metric table used, for rendering (direction, unit, family). */
  defs: MetricDef[];
}
