/** Applying gates to a comparison: each gate's actual values, threshold, result, and the verdict. Pure. */
import { familySize } from '../stats/familywise.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { ComparedRuns, Comparison, MetricComparison } from '../compare/types.js';
import { InputError } from '../errors.js';
import { formatValue } from '../numberFormat.js';
import { MAX_GATES } from './config.js';
import type { GateConfig, GateSpec, OnInconclusive, ThresholdKey } from './config.js';
import { suggest } from '../suggest.js';
import {
  directionOf,
  dropsOf,
  isTested,
  testedNumbers,
  type TestedNumbers,
  primaryFamilySize,
  testsOf,
} from './testedGates.js';
import type { GatedRuns, GateResult, Verdict } from './types.js';
import { boundsWords, detectText } from './gateWords.js';
import { gainText, gainWords, tradeResultOf, tradeThresholdText, untradedText } from './trades.js';
import type { TradeTest } from './trades.js';

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
  /** A paired metric's per-query differences (candidate - baseline), for tested gates. */
  pairedDiffsOf?: ComparedRuns['pairedDiffsOf'];
  /** A per-query quantity on both sides, for trades' costs. */
  pairedQuantityOf?: ComparedRuns['pairedQuantityOf'];
  /** The candidate's queries whose per-query value of a metric is the bad one, for failed answer gates. */
  failingQueriesOf?: (metric: string, bad: number) => string[] | null;
  seed?: number;
  permutations?: number;
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
  return isTested(spec) || Object.keys(spec.thresholds).some((k) => k !== 'min' && k !== 'max');
}

/**
 * The comparison gated: every gate of `config` evaluated, and the verdict, added to the report. The gates test at the
 * level the comparison was tested at, so the report's ▲ / ▼ and a tested gate agree; settingsOf (config.ts) gives
 * the comparison the config's alpha.
 */
export function applyGates(compared: ComparedRuns, config: GateConfig): GatedRuns {
  const { report: comparison, defs, groupSizes } = compared;
  const gates = evaluateGates(withSliceGates(config, groupSizes), {
    defs: new Map(defs.map((d) => [d.id, d])),
    metrics: comparison.metrics,
    breakdowns: comparison.breakdowns,
    groupSizes,
    counts: comparison.counts,
    alpha: comparison.alpha,
    hasBaseline: comparison.baseline !== null,
    pairedDiffsOf: compared.pairedDiffsOf,
    pairedQuantityOf: compared.pairedQuantityOf,
    failingQueriesOf: compared.failingQueriesOf,
    seed: comparison.options.seed,
    permutations: comparison.options.permutations,
  });
  return { report: { ...comparison, verdict: verdictOf(gates), gates }, defs };
}

/**
 * The config with each `per_slice` gate followed by one gate a slice: every value of each `slices` field, in name
 * order, gated as the gate is (its margin and test) on that slice's queries, with `min_queries` as its min_n (a
 * smaller slice is shown, never enforced). They join the tested gates' family, so alpha is split over the slices
 * and the gates together (docs/gates.md, "Slices").
 */
export function withSliceGates(config: GateConfig, groupSizes: GateContext['groupSizes']): GateConfig {
  const slices = config.slices;
  if (slices === undefined || !config.gates.some((g) => g.perSlice)) return config;
  const sliceGates = (g: GateSpec) =>
    slices.keys.flatMap((key) => {
      const values = Object.keys(groupSizes[key] ?? {}).sort();
      if (values.length === 0)
        throw new InputError(
          `${g.origin}: \`per_slice\` has no slice of \`${key}\`: no golden query has a ${key} (\`slices\` names the golden set's fields)`,
        );
      return values.map((value) => ({
        ...g,
        perSlice: false,
        slice: true,
        where: { key, value },
        minN: slices.minQueries,
      }));
    });
  const gates = config.gates.flatMap((g) => (g.perSlice ? [g, ...sliceGates(g)] : [g]));
  if (gates.length > MAX_GATES) {
    const origin = config.gates.find((g) => g.perSlice)!.origin;
    throw new InputError(
      `${origin}: \`per_slice\` makes ${gates.length} gates with this golden set's ${slices.keys.join(' and ')} values, more than the ${MAX_GATES} a report can show in a pull request comment: slice by fewer fields, or by one with fewer values`,
    );
  }
  return { ...config, gates };
}

/** A tested gate's paired drops, before its bounds. */
interface PendingTest {
  drops: Float64Array;
  primary: boolean;
}

/**
 * Every gate evaluated. Tested gates split alpha among themselves in advance (Bonferroni over the corrected ones, a
 * trade's gain test counted as one more; docs/gates.md, "Error control"), so each gate's bounds depend on its own
 * data and the family's size only.
 */
export function evaluateGates(config: GateConfig, ctx: GateContext): GateResult[] {
  const pending = config.gates.map((spec) => pendingTest(spec, config, ctx));
  const corrected = pending.reduce((n, t, i) => (t && !t.primary ? n + testsOf(config.gates[i]) : n), 0);
  const split = familySize(config.correction, corrected);
  return config.gates.map((spec, i) => {
    const t = pending[i];
    const margin = marginOf(spec, config, ctx);
    const numbers = t
      ? testedNumbers(
          t.drops,
          t.primary
            ? { correction: 'primary', size: primaryFamilySize(spec, config.correction) }
            : { correction: config.correction, size: split },
          ctx.alpha,
          margin,
          ctx.defs.get(spec.metric),
          // The advice reads the baseline side's measured noise when the config records it (evalverdict calibrate).
          config.noise?.metrics[spec.metric] ?? null,
        )
      : null;
    const result = evaluateGate(spec, ctx, numbers, {
      margin,
      onInconclusive: spec.onInconclusive ?? config.onInconclusive,
      trade: spec.trade && numbers ? tradeResultOf(spec.trade, ctx.pairedQuantityOf, numbers, ctx.alpha) : null,
    });
    // A slice says how many queries it has, tested or not (the Slices table, the verdict line).
    return spec.slice && spec.where
      ? { ...result, slice_queries: ctx.groupSizes[spec.where.key]?.[spec.where.value] ?? 0 }
      : result;
  });
}

/**
 * A tested gate's margin, the drop that matters: its own `margin`; else its own thresholds as a drop from the
 * baseline (`max_drop` 0.02 is a margin of 0.02, `max_drop_pct` 5 of 5% of the baseline, `min` 0.8 of the
 * baseline's distance to 0.8; the smallest when several); else the config's `margin`.
 */
function marginOf(spec: GateSpec, config: GateConfig, ctx: GateContext): number {
  if (spec.margin !== undefined) return spec.margin;
  // A group's gate (a slice) reads its thresholds against the group's own baseline.
  const m = spec.where ? ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric] : ctx.metrics[spec.metric];
  const b = m?.baseline ?? null;
  const own = Object.entries(spec.thresholds).flatMap(([k, x]) => {
    switch (k as ThresholdKey) {
      case 'max_drop':
      case 'max_increase':
        return [x];
      case 'max_drop_pct':
      case 'max_increase_pct':
        return b === null ? [] : [(x / 100) * Math.abs(b)];
      case 'min':
        return b === null ? [] : [b - x];
      case 'max':
        return b === null ? [] : [x - b];
      default:
        return [];
    }
  });
  return own.length > 0 ? Math.min(...own) : config.margin;
}

/** The paired drops of a tested gate that has paired data; null for every other gate. */
function pendingTest(spec: GateSpec, config: GateConfig, ctx: GateContext): PendingTest | null {
  const def = ctx.defs.get(spec.metric);
  if (!isTested(spec) || !def?.paired || ctx.hasBaseline === false) return null;
  // A slice (a `where` group) is tested only when it has min_n queries: a smaller one is shown, not enforced.
  const w = spec.where;
  if (w !== null && (ctx.groupSizes[w.key]?.[w.value] ?? 0) < Math.max(1, spec.minN)) return null;
  const m = w === null ? ctx.metrics[spec.metric] : ctx.breakdowns[w.key]?.[w.value]?.[spec.metric];
  if (!m?.comparable) return null;
  const diffs = ctx.pairedDiffsOf?.(spec.metric, w ?? undefined);
  if (!diffs || diffs.length === 0) return null;
  return {
    drops: dropsOf(diffs, def),
    primary: w === null && config.primary !== null && config.primary === spec.metric,
  };
}

/** What a gate's result holds whatever the values: metric, level, thresholds and their text, where, line. */
type GateBase = Omit<GateResult, 'baseline' | 'candidate' | 'delta' | 'result' | 'effect' | 'note'>;

function evaluateGate(
  spec: GateSpec,
  ctx: GateContext,
  tested: TestedNumbers | null,
  how: { margin: number; onInconclusive: OnInconclusive; trade: TradeTest | null },
): GateResult {
  const countKey = COUNT_METRICS[spec.metric] as CountKey | undefined;
  const def = ctx.defs.get(spec.metric);
  checkGate(spec, ctx, countKey, def);
  const base = gateBase(spec, countKey ? 'count' : def?.unit, ctx.alpha, how.margin);
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
  if (!spec.where && isTested(spec)) {
    return testedGate(spec, base, def, ctx.metrics[spec.metric], tested, how, ctx.alpha);
  }
  if (!spec.where) return withFailingQueries(metricGate(spec, base, def, ctx.metrics[spec.metric]), def, ctx);
  const m = ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric];
  const notGated = groupNotGated(spec, spec.where, base, m, ctx);
  if (notGated !== null) return notGated;
  // A slice where the metric has no paired value (unanswerable queries for a rank metric) has nothing to hold.
  if (spec.slice && tested === null && isTested(spec))
    return informational(
      base,
      m,
      `no query of slice ${spec.where.key}=${spec.where.value} has \`${spec.metric}\` in both runs`,
    );
  return isTested(spec) ? testedGate(spec, base, def, m, tested, how, ctx.alpha) : metricGate(spec, base, def, m);
}

/**
 * Every gate of `config` checked against the metric table `defs` as evaluation checks it (checkGate), before any
 * comparison: `evalverdict power` refuses what compare would, in its words.
 */
export function checkGates(config: GateConfig, defs: readonly MetricDef[]): void {
  const ctx = { defs: new Map(defs.map((d) => [d.id, d])) };
  for (const spec of config.gates) checkGate(spec, ctx, COUNT_METRICS[spec.metric], ctx.defs.get(spec.metric));
}

/** A gate the comparison cannot answer is a mistake in the config: an InputError naming where the gate was written. */
function checkGate(
  spec: GateSpec,
  ctx: Pick<GateContext, 'defs'>,
  countKey: CountKey | undefined,
  def: MetricDef | undefined,
): void {
  if (!countKey && !def) {
    throw new InputError(
      `${spec.origin}: unknown metric \`${spec.metric}\`${suggest(spec.metric, [...ctx.defs.keys(), ...Object.keys(COUNT_METRICS)])} (run \`evalverdict metrics\` for the list)`,
    );
  }
  const testKey = spec.significantOnly ? 'significant_only' : 'margin';
  if (isTested(spec) && !def?.paired) {
    const paired = [...ctx.defs.values()].filter((d) => d.paired).map((d) => d.id);
    throw new InputError(
      `${spec.origin}: \`${testKey}\` needs a metric with a paired test (${paired.join(', ')}); \`${spec.metric}\` has none`,
    );
  }
  if (countKey && (needsBaseline(spec) || spec.where)) {
    throw new InputError(
      `${spec.origin}: \`${spec.metric}\` is a count of per-query outcomes: use min or max, without where`,
    );
  }
}

function gateBase(spec: GateSpec, unit: string | undefined, alpha: number, margin: number): GateBase {
  const own = Object.entries(spec.thresholds).map(([k, x]) => describeThreshold(k as ThresholdKey, x, unit));
  const trade = spec.trade ? `, ${tradeThresholdText(spec.trade, unit)}` : '';
  const threshold = isTested(spec)
    ? `${spec.margin === undefined && own.length ? own.join(' and ') : `drop < ${formatValue(margin, unit)} (margin)`}${trade} (bounds at α ${alpha})`
    : own.join(' and ');
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
    ...(spec.slice ? { slice: true } : {}),
    ...(spec.perSlice ? { per_slice: true } : {}),
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

/** A group's gate shown with its values and `why`, never enforced. */
function informational(base: GateBase, m: MetricComparison | undefined, why: string): GateResult {
  return {
    ...base,
    baseline: m?.baseline ?? null,
    candidate: m?.candidate ?? null,
    delta: m?.delta ?? null,
    result: 'info',
    effect: 'none',
    note: `informational: ${why}; not enforced`,
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
    return informational(
      base,
      m,
      `group ${where.key}=${where.value} has ${size} ${size === 1 ? 'query' : 'queries'}, fewer than min_n ${spec.minN}`,
    );
  }
  return null;
}

/** An untested gate on a metric: its thresholds against the values, no test (and so no p-value). */
function metricGate(
  spec: GateSpec,
  base: GateBase,
  def: MetricDef | undefined,
  m: MetricComparison | undefined,
): GateResult {
  const values = unavailable(spec, base, m);
  if ('result' in values) return values;
  const { baseline, candidate } = values;
  const violated = Object.entries(spec.thresholds).filter(
    ([k, x]) => !meets(k as ThresholdKey, x, baseline, candidate!),
  );
  if (violated.length === 0) return { ...values, result: 'pass', effect: 'none', note: '' };
  return { ...values, result: failResult(spec), effect: failResult(spec), note: relativeNote(def, spec, m) };
}

/** The most query ids a failed answer gate lists (the count is always given). */
export const MAX_FAILING_QUERIES = 100;

/**
 * A failed gate on an answer metric with a per-query value names the candidate's queries that failed it: those
 * whose value is the bad end (0 for higher-is-better, 1 for lower-is-better).
 */
function withFailingQueries(g: GateResult, def: MetricDef | undefined, ctx: GateContext): GateResult {
  if (g.result !== 'fail' && g.result !== 'warn') return g;
  if (!def?.perQuery || (def.family !== 'answers' && def.family !== 'abstention')) return g;
  const ids = ctx.failingQueriesOf?.(def.id, def.direction === 'lower' ? 1 : 0);
  if (!ids || ids.length === 0) return g;
  return { ...g, failing_queries: ids.slice(0, MAX_FAILING_QUERIES), failing_count: ids.length };
}

/** The values a gate reads, or its result when the runs cannot be compared or a value is missing. */
function unavailable(
  spec: GateSpec,
  base: GateBase,
  m: MetricComparison | undefined,
): GateResult | (GateBase & Pick<GateResult, 'baseline' | 'candidate' | 'delta'>) {
  const baseline = m?.baseline ?? null;
  const candidate = m?.candidate ?? null;
  const values = { ...base, baseline, candidate, delta: m?.delta ?? null };
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
  return values;
}

/** Nothing for absolute thresholds; the relative change for a relative one, which the delta alone does not show. */
function relativeNote(_def: MetricDef | undefined, spec: GateSpec, m: MetricComparison | undefined): string {
  if (spec.thresholds.max_drop_pct === undefined && spec.thresholds.max_increase_pct === undefined) return '';
  return m?.rel_delta === null || m?.rel_delta === undefined
    ? 'baseline is 0: any change in that direction is infinite'
    : `${m.rel_delta >= 0 ? '+' : ''}${(m.rel_delta * 100).toFixed(1)}% of the baseline`;
}

const inconclusiveEffect = (spec: GateSpec, on: OnInconclusive): GateResult['effect'] =>
  on === 'pass' ? 'none' : on === 'warn' ? 'warn' : failResult(spec);

/**
 * A tested gate: fail, pass or inconclusive, its drop's bounds against its margin (src/gate/testedGates.ts); with a
 * trade, a drop ruled out at the trade's margin passes when the trade's gain is shown (src/gate/trades.ts).
 */
function testedGate(
  spec: GateSpec,
  base: GateBase,
  def: MetricDef | undefined,
  m: MetricComparison | undefined,
  tested: TestedNumbers | null,
  { onInconclusive, trade }: { onInconclusive: OnInconclusive; trade: TradeTest | null },
  alpha: number,
): GateResult {
  const values = unavailable(spec, base, m);
  if ('result' in values) return values;
  if (!tested) {
    return {
      ...values,
      result: 'no_data',
      effect: noDataEffect(spec),
      note: `no data: no query has a value in both runs, so the paired test cannot run; on_no_data: ${spec.onNoData}`,
    };
  }
  const unit = def?.unit;
  const [lower, upper] = tested.dropBounds;
  const t = trade && { ...trade, margin_holds: upper < trade.margin, traded: false };
  const withTest = {
    ...values,
    ...testFields(tested),
    ...pairedDelta(values.delta, -directionOf(def) * tested.meanDrop),
    ...(t ? { trade: t } : {}),
  };
  const margin = formatValue(tested.margin, unit);
  const bounds = boundsWords(tested, alpha, unit);
  if (upper < tested.margin) {
    const what = tested.significant
      ? `a real drop of ${formatValue(tested.meanDrop, unit)}, within the margin ${margin}`
      : `no drop of the margin ${margin} or more`;
    return { ...withTest, result: 'pass', effect: 'none', note: `${what}: ${bounds}` };
  }
  if (t?.bought && t.margin_holds) {
    const drop = `a drop of ${formatValue(tested.meanDrop, unit)} for ${gainText(t)}`;
    const note = `traded: ${drop}, within the trade's margin ${formatValue(t.margin, unit)}: ${bounds}; ${gainWords(t, tested, alpha)}`;
    return { ...withTest, trade: { ...t, traded: true }, result: 'pass', effect: 'none', note };
  }
  // What the trade lacked, said after the outcome.
  const untraded = t ? `; ${untradedText(t, tested, alpha, unit)}` : '';
  if (lower > tested.margin) {
    const note = `a drop beyond the margin ${margin}: ${bounds}${untraded}`;
    return { ...withTest, result: failResult(spec), effect: failResult(spec), note };
  }
  return {
    ...withTest,
    result: 'inconclusive',
    effect: inconclusiveEffect(spec, onInconclusive),
    note: `inconclusive: a drop of the margin ${margin} is neither ruled out nor shown: ${bounds}; ${detectText(tested, unit)}${untraded}; on_inconclusive: ${onInconclusive}`,
  };
}

/** The paired mean change, where it is not the change of the two means (beyond rounding noise). */
function pairedDelta(delta: number | null, paired: number): Pick<GateResult, 'paired_delta'> {
  const same = delta !== null && Math.abs(delta - paired) <= EPS * Math.max(1, Math.abs(delta));
  return same ? {} : { paired_delta: paired === 0 ? 0 : paired };
}

function testFields(t: TestedNumbers): Partial<GateResult> {
  return {
    p_value: t.pValue,
    p_adjusted: t.pAdjusted,
    correction: t.correction,
    ci: t.ci,
    ci_level: t.ciLevel,
    simultaneous_over: t.simultaneousOver,
    margin: t.margin,
    min_detectable_drop: t.mdd,
    queries_needed: t.queriesNeeded,
    n_paired: t.nPaired,
  };
}

export function verdictOf(gates: GateResult[]): Verdict {
  if (gates.some((g) => g.effect === 'fail')) return 'fail';
  if (gates.some((g) => g.effect === 'warn')) return 'warn';
  return 'pass';
}
