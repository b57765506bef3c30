/** Applying gates to a comparison: each gate's actual values, threshold, result, and the verdict. Pure. */
import type { MetricDef } from '../aggregate/metrics.js';
import type { CompareReport, GateResult, MetricComparison, Verdict } from '../compare/types.js';
import { InputError } from '../errors.js';
import { formatValue } from '../render/format.js';
import type { GateConfig, GateSpec, ThresholdKey } from './config.js';
import { suggest } from './config.js';

/** Gate-only metrics: per-query outcome counts of the comparison (candidate side only). */
export const COUNT_METRICS: Record<string, keyof CompareReport['counts']> = {
  regressions: 'regression',
  losses: 'loss',
  wins: 'win',
  answer_regressions: 'answer_regression',
};

export interface GateContext {
  defs: Map<string, MetricDef>;
  metrics: Record<string, MetricComparison>;
  breakdowns: CompareReport['breakdowns'];
  /** Queries per breakdown group (the candidate's, same golden set). */
  groupSizes: Record<string, Record<string, number>>;
  counts: CompareReport['counts'];
  alpha: number;
}

const EPS = 1e-12;

/** Absolute thresholds in the metric's unit (a count gate reads `≤ 0`, not `≤ 0.0000`). */
function describeThreshold(key: ThresholdKey, x: number, unit: string | undefined): string {
  switch (key) {
    case 'min': return `≥ ${formatValue(x, unit)}`;
    case 'max': return `≤ ${formatValue(x, unit)}`;
    case 'max_drop': return `drop ≤ ${formatValue(x, unit)}`;
    case 'max_increase': return `increase ≤ ${formatValue(x, unit)}`;
    case 'max_drop_pct': return `drop ≤ ${x}%`;
    case 'max_increase_pct': return `increase ≤ ${x}%`;
  }
}

/** Is the threshold met? Relative thresholds against a baseline of 0 treat any change in that direction as infinite. */
function meets(key: ThresholdKey, x: number, baseline: number | null, candidate: number): boolean {
  const delta = baseline === null ? null : candidate - baseline;
  switch (key) {
    case 'min': return candidate >= x - EPS;
    case 'max': return candidate <= x + EPS;
    case 'max_drop': return delta! >= -x - EPS;
    case 'max_increase': return delta! <= x + EPS;
    case 'max_drop_pct': return baseline === 0 ? delta! >= -EPS : (delta! / Math.abs(baseline!)) * 100 >= -x - EPS;
    case 'max_increase_pct': return baseline === 0 ? delta! <= EPS : (delta! / Math.abs(baseline!)) * 100 <= x + EPS;
  }
}

function needsBaseline(spec: GateSpec): boolean {
  return Object.keys(spec.thresholds).some((k) => k !== 'min' && k !== 'max');
}

export function evaluateGates(config: GateConfig, ctx: GateContext): GateResult[] {
  return config.gates.map((spec) => evaluateGate(spec, ctx));
}

function evaluateGate(spec: GateSpec, ctx: GateContext): GateResult {
  const countKey = COUNT_METRICS[spec.metric];
  const def = ctx.defs.get(spec.metric);
  if (!countKey && !def) {
    throw new InputError(`${spec.origin}: unknown metric \`${spec.metric}\`${suggest(spec.metric, [...ctx.defs.keys(), ...Object.keys(COUNT_METRICS)])} (run \`evalgate metrics\` for the list)`);
  }
  if (spec.significantOnly && !def?.paired) {
    const paired = [...ctx.defs.values()].filter((d) => d.paired).map((d) => d.id);
    throw new InputError(`${spec.origin}: \`significant_only\` needs a metric with a paired test (${paired.join(', ')}); \`${spec.metric}\` has none`);
  }
  if (spec.significantOnly && spec.where) {
    // Breakdown groups have no paired test: such a gate could never fail (every crossing "not significant").
    throw new InputError(`${spec.origin}: \`significant_only\` cannot be combined with \`where\`: breakdown groups have no paired test, so the gate could never fail`);
  }
  if (countKey && (needsBaseline(spec) || spec.where)) {
    throw new InputError(`${spec.origin}: \`${spec.metric}\` is a count of per-query outcomes: use min or max, without where`);
  }
  const unit = countKey ? 'count' : def?.unit;
  const threshold = Object.entries(spec.thresholds).map(([k, x]) => describeThreshold(k as ThresholdKey, x, unit)).join(' and ')
    + (spec.significantOnly ? ` (if significant, α ${ctx.alpha})` : '');
  const base: Omit<GateResult, 'baseline' | 'candidate' | 'delta' | 'result' | 'effect' | 'note'> = {
    metric: spec.metric,
    level: spec.level,
    ...spec.thresholds,
    ...(spec.significantOnly ? { significant_only: true } : {}),
    threshold,
    ...(spec.where ? { where: { [spec.where.key]: spec.where.key === 'answerable' ? spec.where.value === 'answerable' : spec.where.value } } : {}),
    ...(spec.line !== undefined ? { line: spec.line } : {}),
  };
  const failEffect = spec.level === 'error' ? 'fail' : 'warn';
  const noDataEffect = spec.onNoData === 'pass' ? 'none' : spec.onNoData === 'warn' ? 'warn' : failEffect;

  if (countKey) {
    const candidate = ctx.counts[countKey];
    const ok = Object.entries(spec.thresholds).every(([k, x]) => meets(k as ThresholdKey, x, null, candidate));
    return { ...base, baseline: null, candidate, delta: null, result: ok ? 'pass' : spec.level === 'error' ? 'fail' : 'warn', effect: ok ? 'none' : failEffect, note: '' };
  }

  let m: MetricComparison | undefined;
  let note = '';
  if (spec.where) {
    const groups = ctx.groupSizes[spec.where.key] ?? {};
    const size = groups[spec.where.value] ?? 0;
    m = ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric];
    if (size === 0) {
      // A group no golden query has is most often a typo: reading it as "too small to enforce" would turn the gate off.
      const known = Object.keys(groups).sort();
      return {
        ...base, baseline: null, candidate: null, delta: null, result: 'no_data', effect: noDataEffect,
        note: `no data: no golden query has ${spec.where.key}=${spec.where.value}${suggest(spec.where.value, known)}`
          + `${known.length > 0 && known.length <= 12 ? ` (groups: ${known.join(', ')})` : ''}; on_no_data: ${spec.onNoData}`,
      };
    }
    if (size < spec.minN) {
      return {
        ...base, baseline: m?.baseline ?? null, candidate: m?.candidate ?? null, delta: m?.delta ?? null,
        result: 'info', effect: 'none',
        note: `informational: group ${spec.where.key}=${spec.where.value} has ${size} ${size === 1 ? 'query' : 'queries'}, fewer than min_n ${spec.minN}; not enforced`,
      };
    }
  } else {
    m = ctx.metrics[spec.metric];
  }
  const baseline = m?.baseline ?? null;
  const candidate = m?.candidate ?? null;
  const delta = m?.delta ?? null;
  const pValue = def?.paired && !spec.where ? m?.p_value ?? null : undefined;
  const withP = pValue !== undefined ? { p_value: pValue } : {};
  if (m && !m.comparable) {
    return { ...base, baseline, candidate, delta, ...withP, result: 'not_comparable', effect: 'none', note: 'judge settings differ between the runs: shown, not gated' };
  }
  if (candidate === null || (needsBaseline(spec) && baseline === null)) {
    return {
      ...base, baseline, candidate, delta, ...withP, result: 'no_data', effect: noDataEffect,
      note: `no data: ${candidate === null ? 'candidate' : 'baseline'} value is null (zero denominator); on_no_data: ${spec.onNoData}`,
    };
  }
  const violated = Object.entries(spec.thresholds).filter(([k, x]) => !meets(k as ThresholdKey, x, baseline, candidate));
  if (violated.length > 0 && spec.significantOnly) {
    if (pValue === null || pValue === undefined) {
      // No query has a value in both runs, so no test can clear the crossing: that is missing data, not a pass.
      return {
        ...base, baseline, candidate, delta, ...withP, result: 'no_data', effect: noDataEffect,
        note: `no data: threshold crossed and no query has a value in both runs, so the paired test cannot run; on_no_data: ${spec.onNoData}`,
      };
    }
    if (pValue >= ctx.alpha) {
      note = `threshold crossed but not significant (p = ${formatValue(pValue)} ≥ α ${ctx.alpha})`;
      return { ...base, baseline, candidate, delta, ...withP, result: 'pass', effect: 'none', note };
    }
    note = `significant (p = ${formatValue(pValue)} < α ${ctx.alpha})`;
  }
  if (violated.length === 0) return { ...base, baseline, candidate, delta, ...withP, result: 'pass', effect: 'none', note };
  return { ...base, baseline, candidate, delta, ...withP, result: spec.level === 'error' ? 'fail' : 'warn', effect: failEffect, note };
}

export function verdictOf(gates: GateResult[]): Verdict {
  if (gates.some((g) => g.effect === 'fail')) return 'fail';
  if (gates.some((g) => g.effect === 'warn')) return 'warn';
  return 'pass';
}
