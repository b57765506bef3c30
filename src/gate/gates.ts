/** Applying gates to a comparison: each gate's actual values, threshold, result, and the verdict. Pure. */
import type { MetricDef } from '../aggregate/metrics.js';
import type { ComparedRuns, Comparison, MetricComparison } from '../compare/types.js';
import { InputError } from '../errors.js';
import { formatValue } from '../format.js';
import type { GateConfig, GateSpec, ThresholdKey } from './config.js';
import { suggest } from '../suggest.js';
import type { GatedRuns, GateResult, Verdict } from './types.js';

type CountKey = keyof Comparison['counts'];

/** Gate-only metrics: per-query outcome counts of the comparison (candidate side only). */
export const COUNT_METRICS: Record<string, CountKey> = {
  regressions: 'regression',
  losses: 'loss',
  wins: 'win',
  answer_regressions: 'answer_regression',
};

export interface GateContext {
  defs: Map<string, MetricDef>;
  metrics: Record<string, MetricComparison>;
  breakdowns: Comparison['breakdowns'];
  /** Queries per breakdown group (the candidate's, same golden set). */
  groupSizes: Record<string, Record<string, number>>;
  counts: Comparison['counts'];
  alpha: number;
  /** False for a candidate-only report: gates that compare with a baseline have no data. Default true. */
  hasBaseline?: boolean;
}

const EPS = 1e-12;

/** Absolute thresholds in the metric's unit (a count gate reads `≤ 0`, not `≤ 0.0000`). */
function describeThreshold(key: ThresholdKey, x: number, unit: string | undefined): string {
  switch (key) {
    case 'min':
      return `≥ ${formatValue(x, unit)}`;
    case 'max':
      return `≤ ${formatValue(x, unit)}`;
    case 'max_drop':
      return `drop ≤ ${formatValue(x, unit)}`;
    case 'max_increase':
      return `increase ≤ ${formatValue(x, unit)}`;
    case 'max_drop_pct':
      return `drop ≤ ${x}%`;
    case 'max_increase_pct':
      return `increase ≤ ${x}%`;
  }
}

/** Is the threshold met? Relative thresholds against a baseline of 0 treat any change in that direction as infinite. */
function meets(key: ThresholdKey, x: number, baseline: number | null, candidate: number): boolean {
  const delta = baseline === null ? null : candidate - baseline;
  switch (key) {
    case 'min':
      return candidate >= x - EPS;
    case 'max':
      return candidate <= x + EPS;
    case 'max_drop':
      return delta! >= -x - EPS;
    case 'max_increase':
      return delta! <= x + EPS;
    case 'max_drop_pct':
      return baseline === 0 ? delta! >= -EPS : (delta! / Math.abs(baseline!)) * 100 >= -x - EPS;
    case 'max_increase_pct':
      return baseline === 0 ? delta! <= EPS : (delta! / Math.abs(baseline!)) * 100 <= x + EPS;
  }
}

function needsBaseline(spec: GateSpec): boolean {
  return Object.keys(spec.thresholds).some((k) => k !== 'min' && k !== 'max');
}

/**
 * The comparison gated: every gate of `config` evaluated, and the verdict, added to the report. The comparison's
 * paired tests must be at the config's alpha (compareRuns(..., { alpha: config.alpha })): the report's ▲ / ▼ and a
 * significant_only gate then agree.
 */
export function applyGates(compared: ComparedRuns, config: GateConfig): GatedRuns {
  const { report: comparison, defs, groupSizes } = compared;
  if (comparison.alpha !== config.alpha) {
    throw new Error(
      `the comparison was tested at alpha ${comparison.alpha}, the gate config ${config.source} says ${config.alpha}: compare with { alpha: config.alpha }`,
    );
  }
  const gates = evaluateGates(config, {
    defs: new Map(defs.map((d) => [d.id, d])),
    metrics: comparison.metrics,
    breakdowns: comparison.breakdowns,
    groupSizes,
    counts: comparison.counts,
    alpha: config.alpha,
    hasBaseline: comparison.baseline !== null,
  });
  return { report: { ...comparison, verdict: verdictOf(gates), gates }, defs };
}

export function evaluateGates(config: GateConfig, ctx: GateContext): GateResult[] {
  return config.gates.map((spec) => evaluateGate(spec, ctx));
}

/** What a gate's result holds whatever the values: metric, level, thresholds and their text, where, line. */
type GateBase = Omit<GateResult, 'baseline' | 'candidate' | 'delta' | 'result' | 'effect' | 'note'>;

function evaluateGate(spec: GateSpec, ctx: GateContext): GateResult {
  const countKey = COUNT_METRICS[spec.metric] as CountKey | undefined;
  const def = ctx.defs.get(spec.metric);
  checkGate(spec, ctx, countKey, def);
  const base = gateBase(spec, countKey ? 'count' : def?.unit, ctx.alpha);
  if (ctx.hasBaseline === false && (countKey || needsBaseline(spec))) {
    const m = spec.where ? undefined : ctx.metrics[spec.metric];
    return {
      ...base,
      baseline: null,
      candidate: m?.candidate ?? null,
      delta: null,
      result: 'no_data',
      effect: noDataEffect(spec),
      note: `no baseline: a candidate-only report has nothing to compare with; on_no_data: ${spec.onNoData}`,
    };
  }
  if (countKey) return countGate(spec, base, ctx.counts[countKey]);
  if (!spec.where) return metricGate(spec, base, def, ctx.metrics[spec.metric], ctx.alpha);
  const m = ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric];
  return groupNotGated(spec, spec.where, base, m, ctx) ?? metricGate(spec, base, def, m, ctx.alpha);
}

/** A gate the comparison cannot answer is a mistake in the config: an InputError naming where the gate was written. */
function checkGate(spec: GateSpec, ctx: GateContext, countKey: CountKey | undefined, def: MetricDef | undefined): void {
  if (!countKey && !def) {
    throw new InputError(
      `${spec.origin}: unknown metric \`${spec.metric}\`${suggest(spec.metric, [...ctx.defs.keys(), ...Object.keys(COUNT_METRICS)])} (run \`evalgate metrics\` for the list)`,
    );
  }
  if (spec.significantOnly && !def?.paired) {
    const paired = [...ctx.defs.values()].filter((d) => d.paired).map((d) => d.id);
    throw new InputError(
      `${spec.origin}: \`significant_only\` needs a metric with a paired test (${paired.join(', ')}); \`${spec.metric}\` has none`,
    );
  }
  if (spec.significantOnly && spec.where) {
    // Breakdown groups have no paired test: such a gate could never fail (every crossing "not significant").
    throw new InputError(
      `${spec.origin}: \`significant_only\` cannot be combined with \`where\`: breakdown groups have no paired test, so the gate could never fail`,
    );
  }
  if (countKey && (needsBaseline(spec) || spec.where)) {
    throw new InputError(
      `${spec.origin}: \`${spec.metric}\` is a count of per-query outcomes: use min or max, without where`,
    );
  }
}

function gateBase(spec: GateSpec, unit: string | undefined, alpha: number): GateBase {
  const threshold =
    Object.entries(spec.thresholds)
      .map(([k, x]) => describeThreshold(k as ThresholdKey, x, unit))
      .join(' and ') + (spec.significantOnly ? ` (if significant, α ${alpha})` : '');
  return {
    metric: spec.metric,
    level: spec.level,
    ...spec.thresholds,
    ...(spec.significantOnly ? { significant_only: true } : {}),
    threshold,
    ...(spec.where
      ? {
          where: {
            [spec.where.key]: spec.where.key === 'answerable' ? spec.where.value === 'answerable' : spec.where.value,
          },
        }
      : {}),
    ...(spec.line !== undefined ? { line: spec.line } : {}),
  };
}

const failResult = (spec: GateSpec): 'fail' | 'warn' => (spec.level === 'error' ? 'fail' : 'warn');
const noDataEffect = (spec: GateSpec): GateResult['effect'] =>
  spec.onNoData === 'pass' ? 'none' : spec.onNoData === 'warn' ? 'warn' : failResult(spec);

function countGate(spec: GateSpec, base: GateBase, candidate: number): GateResult {
  const ok = Object.entries(spec.thresholds).every(([k, x]) => meets(k as ThresholdKey, x, null, candidate));
  return {
    ...base,
    baseline: null,
    candidate,
    delta: null,
    result: ok ? 'pass' : failResult(spec),
    effect: ok ? 'none' : failResult(spec),
    note: '',
  };
}

/** A `where` group no golden query has (no data), or one smaller than min_n (shown, not enforced); else null. */
function groupNotGated(
  spec: GateSpec,
  where: NonNullable<GateSpec['where']>,
  base: GateBase,
  m: MetricComparison | undefined,
  ctx: GateContext,
): GateResult | null {
  const groups = ctx.groupSizes[where.key] ?? {};
  const size = groups[where.value] ?? 0;
  if (size === 0) {
    // A group no golden query has is most often a typo: reading it as "too small to enforce" would turn the gate off.
    const known = Object.keys(groups).sort();
    return {
      ...base,
      baseline: null,
      candidate: null,
      delta: null,
      result: 'no_data',
      effect: noDataEffect(spec),
      note:
        `no data: no golden query has ${where.key}=${where.value}${suggest(where.value, known)}` +
        `${known.length > 0 && known.length <= 12 ? ` (groups: ${known.join(', ')})` : ''}; on_no_data: ${spec.onNoData}`,
    };
  }
  if (size < spec.minN) {
    return {
      ...base,
      baseline: m?.baseline ?? null,
      candidate: m?.candidate ?? null,
      delta: m?.delta ?? null,
      result: 'info',
      effect: 'none',
      note: `informational: group ${where.key}=${where.value} has ${size} ${size === 1 ? 'query' : 'queries'}, fewer than min_n ${spec.minN}; not enforced`,
    };
  }
  return null;
}

function metricGate(
  spec: GateSpec,
  base: GateBase,
  def: MetricDef | undefined,
  m: MetricComparison | undefined,
  alpha: number,
): GateResult {
  const baseline = m?.baseline ?? null;
  const candidate = m?.candidate ?? null;
  const pValue = def?.paired && !spec.where ? (m?.p_value ?? null) : undefined;
  const values = {
    ...base,
    baseline,
    candidate,
    delta: m?.delta ?? null,
    ...(pValue !== undefined ? { p_value: pValue } : {}),
  };
  if (m && !m.comparable) {
    return {
      ...values,
      result: 'not_comparable',
      effect: 'none',
      note: 'judge settings differ between the runs: shown, not gated',
    };
  }
  if (candidate === null || (needsBaseline(spec) && baseline === null)) {
    return {
      ...values,
      result: 'no_data',
      effect: noDataEffect(spec),
      note: `no data: ${candidate === null ? 'candidate' : 'baseline'} value is null (zero denominator); on_no_data: ${spec.onNoData}`,
    };
  }
  const violated = Object.entries(spec.thresholds).filter(
    ([k, x]) => !meets(k as ThresholdKey, x, baseline, candidate),
  );
  let note = '';
  if (violated.length > 0 && spec.significantOnly) {
    if (typeof pValue !== 'number') {
      // No query has a value in both runs, so no test can clear the crossing: that is missing data, not a pass.
      return {
        ...values,
        result: 'no_data',
        effect: noDataEffect(spec),
        note: `no data: threshold crossed and no query has a value in both runs, so the paired test cannot run; on_no_data: ${spec.onNoData}`,
      };
    }
    if (pValue >= alpha) {
      return {
        ...values,
        result: 'pass',
        effect: 'none',
        note: `threshold crossed but not significant (p = ${formatValue(pValue)} ≥ α ${alpha})`,
      };
    }
    note = `significant (p = ${formatValue(pValue)} < α ${alpha})`;
  }
  if (violated.length === 0) return { ...values, result: 'pass', effect: 'none', note };
  return { ...values, result: failResult(spec), effect: failResult(spec), note };
}

export function verdictOf(gates: GateResult[]): Verdict {
  if (gates.some((g) => g.effect === 'fail')) return 'fail';
  if (gates.some((g) => g.effect === 'warn')) return 'warn';
  return 'pass';
}
