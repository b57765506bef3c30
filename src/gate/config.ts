/**
 * Gate configuration: YAML validated with errors that name the line. Presets expand to plain gates.
 *
 *   preset: retrieval            # or presets: [retrieval, rag-answers]
 *   alpha: 0.05
 *   gates:
 *     - metric: hit@5
 *       min: 0.80
 */
import gateConfigSchema from '../../schemas/gate-config.schema.json' with { type: 'json' };
import { isMap, isScalar, isSeq } from 'yaml';
import type { YAMLMap } from 'yaml';
import { parseYamlWithLines } from '../yamlLines.js';
import type { YamlWithLines } from '../yamlLines.js';
import { InputError } from '../errors.js';
import { valueText } from '../inputText.js';
import { suggest } from '../suggest.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import type { Correction } from '../stats/familywise.js';
import { parseNoise } from './noise.js';
import { ALPHA_ABOVE, ALPHA_MAX, CUTOFF_WORDS, DEFAULT_ALPHA, isAlpha, isCutoff } from './settings.js';
import type { NoiseFloor } from './noise.js';

/** The gate config both entries read when none is named and it exists (relative to the working directory). */
export const DEFAULT_CONFIG_PATH = '.github/evalverdict.yml';

export type ThresholdKey = 'min' | 'max' | 'max_drop' | 'max_increase' | 'max_drop_pct' | 'max_increase_pct';
export const THRESHOLD_KEYS: ThresholdKey[] = [
  'min',
  'max',
  'max_drop',
  'max_increase',
  'max_drop_pct',
  'max_increase_pct',
];
export const WHERE_KEYS = ['category', 'difficulty', 'tag', 'answerable', 'vault'] as const;
export type WhereKey = (typeof WHERE_KEYS)[number];

export interface GateSpec {
  metric: string;
  where: { key: WhereKey; value: string } | null;
  level: 'error' | 'warn';
  thresholds: Partial<Record<ThresholdKey, number>>;
  significantOnly: boolean;
  /** A `where` group with fewer queries is reported as informational, not enforced. */
  minN: number;
  /** What a gate whose metric is null on a side it reads does. */
  onNoData: 'fail' | 'warn' | 'pass';
  /** The smallest drop that matters, when the gate sets its own (else the config's `margin`). */
  margin?: number;
  /** What a tested gate does when it can neither fail nor pass (too little power at the margin, or an unproven drop). */
  onInconclusive?: OnInconclusive;
  /** Where it was written: `file:line`, or `preset NAME`. */
  origin: string;
  line?: number;
  /** A tested gate that must also hold in every slice (`per_slice: true`; the config's `slices`). */
  perSlice?: boolean;
  /** One slice's gate, made from a `per_slice` gate (gates.ts, withSliceGates); never written in a config. */
  slice?: boolean;
  /** A drop beyond the margin but under `margin` passes when `cost` falls by `minGain` or more (docs/gates.md, "Trades"). */
  trade?: Trade;
}

/** `trade: {margin: 0.05, metric: latency_ms, min_gain: 0.25}` on a tested gate. */
export interface Trade {
  margin: number;
  cost: TradeCost;
  /** The relative fall of the cost that buys the drop: 0.25 is a quarter lower. */
  minGain: number;
}

/** The costs a quality drop may be traded for: each the per-query quantity it reads, and its name in words. */
export const TRADE_COSTS = {
  latency_ms: { quantity: 'elapsed_ms', words: 'latency' },
  cost_usd: { quantity: 'cost_usd', words: 'cost' },
  prompt_tokens: { quantity: 'prompt_tokens', words: 'prompt tokens' },
  completion_tokens: { quantity: 'completion_tokens', words: 'completion tokens' },
} as const;
export type TradeCost = keyof typeof TRADE_COSTS;
const TRADE_KEYS = ['margin', 'metric', 'min_gain'];

export type OnInconclusive = 'fail' | 'warn' | 'pass';

/** The smallest drop that matters, by default: see docs/gates.md, "Margins" (chosen by test/verdict.test.ts). */
export const DEFAULT_MARGIN = 0.1;

export interface GateConfig {
  source: string;
  alpha: number;
  gates: GateSpec[];
  /** The default margin of tested gates. */
  margin: number;
  onInconclusive: OnInconclusive;
  /** How the tested gates' p-values are adjusted together. */
  correction: Correction;
  /** The metric whose tested gates are tested at the full alpha, outside the correction. */
  primary: string | null;
  /** `k` and `mrr_cutoff` when the config sets them (the CLI's --k / --mrr-cutoff win). */
  ks?: number[];
  mrrCutoff?: number;
  /** Lines whose meaning changed (significant_only), for the report's warnings. */
  notices: string[];
  /** The run-to-run noise `evalverdict calibrate` measured, when the config carries it (src/gate/noise.ts). */
  noise?: NoiseFloor;
  /** `slices` and `min_queries` when set: the breakdown fields a `per_slice` gate holds in, value by value. */
  slices?: { keys: WhereKey[]; minQueries: number };
  /** `repeats.may_differ` when set: settings a side's repeats may differ in without a warning (else compare's default). */
  repeatsMayDiffer?: string[];
}

/** A gate's keys and the config's: the gate-config schema's, the one list (editors read the same file). */
const GATE_KEYS = new Set(Object.keys(gateConfigSchema.$defs.gate.properties));
const TOP_KEYS = new Set(Object.keys(gateConfigSchema.properties));

type PresetGate = Omit<GateSpec, 'origin' | 'minN' | 'where' | 'onNoData'> & {
  where?: GateSpec['where'];
  onNoData?: GateSpec['onNoData'];
};

/** The most gates a config may hold (presets' included). */
export const MAX_GATES = 200;

/** Shipped presets. Thresholds are the issue's; each is documented in docs/gates.md. */
export const PRESETS: Record<string, PresetGate[]> = {
  /**
   * WFGY example 08's gates G1-G5, on its metrics: G4 is its citation hit rate over answerable questions
   * (attribution_hit_rate, a refusal counting as a miss). WFGY reports an empty denominator as 0.0 and gates on it,
   * so a `min` gate without data fails and a `max` gate passes, whatever the golden set's profile.
   */
  'rag-answers': [
    { metric: 'answer_precision', level: 'error', thresholds: { min: 0.8 }, significantOnly: false, onNoData: 'fail' },
    {
      metric: 'under_refusal_rate',
      level: 'error',
      thresholds: { max: 0.05 },
      significantOnly: false,
      onNoData: 'pass',
    },
    {
      metric: 'over_refusal_rate',
      level: 'error',
      thresholds: { max: 0.25 },
      significantOnly: false,
      onNoData: 'pass',
    },
    {
      metric: 'attribution_hit_rate',
      level: 'error',
      thresholds: { min: 0.75 },
      significantOnly: false,
      onNoData: 'fail',
    },
    {
      metric: 'citation_schema_compliance',
      level: 'error',
      thresholds: { min: 0.98 },
      significantOnly: false,
      onNoData: 'fail',
    },
  ],
  // Tested gates at the config's margin: pass when a drop of it is ruled out, fail when the drop is shown to be
  // beyond it (docs/gates.md).
  retrieval: ['hit@5', 'mrr@10', 'nDCG@10', 'recall@10'].map((metric) => ({
    metric,
    level: 'error' as const,
    thresholds: {},
    significantOnly: true,
  })),
};

/**
 * Used when no config is given: the retrieval preset alone. No count gate such as `regressions: max 0`: a count
 * with no test is yellow on nearly every honest change of a 300-query set (test/verdict.test.ts).
 */
export function defaultGateConfig(): GateConfig {
  return parseGateConfig('preset: retrieval\n', 'built-in default');
}

/**
 * The built-in default for a report without a baseline (the action's `baseline: none` with no config): its gates,
 * all relative, have nothing to compare with, and warn instead of failing (docs/action.md).
 */
export function candidateOnlyDefaultConfig(): GateConfig {
  const config = defaultGateConfig();
  return { ...config, gates: config.gates.map((g) => ({ ...g, onNoData: 'warn' as const })) };
}

export function parseGateConfig(text: string, source: string): GateConfig {
  const yaml = parseYamlWithLines(text, source);
  const { doc, lineOf, keyLine } = yaml;
  const root = doc.contents;
  if (root === null) return { source, alpha: DEFAULT_ALPHA, gates: [], ...TESTING_DEFAULTS, notices: [] };
  if (!isMap(root))
    throw new InputError(
      `${source}:${lineOf(root)}: the gate config must be a map with \`gates\` (and optionally \`preset\`, \`alpha\`)`,
    );
  const top = root.toJSON() as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    if (!TOP_KEYS.has(key))
      throw new InputError(`${source}:${keyLine(root, key)}: unknown key \`${key}\`${suggest(key, [...TOP_KEYS])}`);
  }
  const alpha = top.alpha ?? DEFAULT_ALPHA;
  if (!isAlpha(alpha))
    throw new InputError(
      `${source}:${keyLine(root, 'alpha')}: \`alpha\` must be a number above ${ALPHA_ABOVE} and at most ${ALPHA_MAX}, got ${valueText(alpha)}`,
    );
  const defaultMinN = top.min_n ?? 20;
  if (typeof defaultMinN !== 'number' || !Number.isInteger(defaultMinN) || defaultMinN < 0)
    throw new InputError(`${source}:${keyLine(root, 'min_n')}: \`min_n\` must be a whole number >= 0`);
  const at = (key: string) => `${source}:${keyLine(root, key)}`;
  const testing = { ...parseTesting(top, at), ...parseRepeats(root, yaml, source), ...parseSlices(top, at) };
  const gates = presetGates(top, keyLine(root, top.preset !== undefined ? 'preset' : 'presets'), source, defaultMinN);
  // `gates:` with nothing under it (every gate commented out) is no gates. Checked on the plain value: the node of
  // an empty value is a scalar holding null, never null itself.
  const gatesNode = root.get('gates', true);
  if (top.gates !== undefined && top.gates !== null) {
    if (!isSeq(gatesNode)) throw new InputError(`${source}:${lineOf(gatesNode)}: \`gates\` must be a list`);
    for (const item of gatesNode.items) gates.push(parseGate(item, yaml, source, defaultMinN));
  }
  // Each gate is a row of the comment's gate table (and an annotation): too many make a report GitHub refuses,
  // leaving the old comment up (bench/README.md, "What was kept").
  if (gates.length > MAX_GATES) {
    throw new InputError(
      `${source}:${lineOf(gatesNode ?? root)}: ${gates.length} gates, more than the ${MAX_GATES} a report can show in a pull request comment`,
    );
  }
  checkSlices(gates, testing, at);
  // A misspelt primary would leave every gate corrected without a word: it must name a gated metric.
  const gated = [...new Set(gates.map((g) => g.metric))];
  if (testing.primary !== null && !gated.includes(testing.primary))
    throw new InputError(
      `${source}:${keyLine(root, 'primary')}: \`primary\` ${JSON.stringify(testing.primary)} is the metric of no gate here${suggest(testing.primary, gated)}`,
    );
  const noise = top.noise === undefined ? undefined : parseNoise(root.get('noise', true), yaml, source);
  // A config calibrate wrote was written for the one-sided, corrected question: no notice of the change.
  const notices = gates
    .filter((g) => g.significantOnly && g.line !== undefined && noise === undefined)
    .map(
      (g) =>
        `${g.origin}: \`significant_only\` now reads the gate's ${g.margin === undefined ? 'max_drop (or other threshold) as its margin' : 'margin'}: it passes when its interval rules out a drop of it, fails when the drop is shown beyond it, and can be inconclusive (docs/gates.md, "What changed")`,
    );
  return { source, alpha, gates, ...testing, notices, ...(noise ? { noise } : {}) };
}

/** The fewest queries a slice needs for a per_slice gate to hold in it (docs/gates.md, "Slices"). */
export const DEFAULT_MIN_SLICE_QUERIES = 20;

/** `slices: category` (or a list of breakdown fields) and `min_queries`. */
function parseSlices(top: Record<string, unknown>, at: (key: string) => string): Pick<GateConfig, 'slices'> {
  if (top.slices === undefined) {
    if (top.min_queries !== undefined)
      throw new InputError(`${at('min_queries')}: \`min_queries\` is for \`slices\`, which this config does not set`);
    return {};
  }
  const keys = Array.isArray(top.slices) ? top.slices : [top.slices];
  const bad = keys.find((k) => !(WHERE_KEYS as readonly unknown[]).includes(k));
  if (keys.length === 0 || bad !== undefined)
    throw new InputError(
      `${at('slices')}: \`slices\` must be one of ${WHERE_KEYS.join(', ')} or a list of them, got ${valueText(bad ?? top.slices)}${typeof bad === 'string' ? suggest(bad, [...WHERE_KEYS]) : ''}`,
    );
  const minQueries = top.min_queries ?? DEFAULT_MIN_SLICE_QUERIES;
  if (typeof minQueries !== 'number' || !Number.isInteger(minQueries) || minQueries < 1)
    throw new InputError(
      `${at('min_queries')}: \`min_queries\` must be a whole number >= 1, got ${valueText(minQueries)}`,
    );
  return { slices: { keys: [...new Set(keys as WhereKey[])], minQueries } };
}

/** Each per_slice gate against the config: `slices` set, and read by a gate. */
function checkSlices(gates: GateSpec[], testing: Pick<GateConfig, 'slices'>, at: (key: string) => string): void {
  for (const g of gates.filter((gate) => gate.perSlice)) checkPerSlice(g, testing.slices !== undefined);
  if (testing.slices !== undefined && !gates.some((g) => g.perSlice))
    throw new InputError(
      `${at('slices')}: \`slices\` is read by a gate with \`per_slice: true\`, and no gate here has one`,
    );
}

/** A per_slice gate is a tested gate on the whole set (it holds in each slice as it holds overall), with slices set. */
function checkPerSlice(g: GateSpec, slicesSet: boolean): void {
  if (!g.significantOnly && g.margin === undefined)
    throw new InputError(`${g.origin}: \`per_slice\` is for a tested gate: give it a \`margin\` (or significant_only)`);
  if (g.where !== null)
    throw new InputError(
      `${g.origin}: \`per_slice\` cannot be combined with \`where\`: the slices are the config's \`slices\``,
    );
  if (!slicesSet)
    throw new InputError(`${g.origin}: \`per_slice\` needs \`slices:\` in the config (e.g. \`slices: category\`)`);
}

const REPEATS_KEYS = ['may_differ'];

/**
 * `repeats: {may_differ: [seed, started_at]}`: the config_snapshot_json keys (top-level) a side's repeats may differ
 * in without a warning, in place of compare's default (seed); one key alone may be written without the list. Every
 * error names the line at fault.
 */
function parseRepeats(
  root: YAMLMap,
  { lineOf, keyLine }: YamlWithLines,
  source: string,
): Pick<GateConfig, 'repeatsMayDiffer'> {
  const node = root.get('repeats', true);
  if (node == null || (isScalar(node) && node.value === null)) return {}; // `repeats:` with nothing under it
  const shape = '`repeats` must be a map, e.g. `repeats: {may_differ: [seed, started_at]}`';
  if (!isMap(node)) throw new InputError(`${source}:${lineOf(node)}: ${shape}`);
  const at = (key: string) => `${source}:${keyLine(node, key)}`;
  const given = node.toJSON() as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (!REPEATS_KEYS.includes(key))
      throw new InputError(`${at(key)}: unknown \`repeats\` key \`${key}\`${suggest(key, REPEATS_KEYS)}`);
  if (given.may_differ === undefined) return {};
  const value = given.may_differ ?? []; // `may_differ:` with nothing under it: no key may differ
  const keys = Array.isArray(value) ? value : [value];
  const list = node.get('may_differ', true);
  keys.forEach((key, i) => {
    if (typeof key !== 'string' || key === '') {
      const item = isSeq(list) ? list.items[i] : list;
      throw new InputError(
        `${source}:${lineOf(item ?? node)}: \`repeats.may_differ\` lists config_snapshot_json keys (strings), got ${valueText(key)}`,
      );
    }
  });
  return { repeatsMayDiffer: [...new Set(keys as string[])] };
}

const TESTING_DEFAULTS = {
  margin: DEFAULT_MARGIN,
  onInconclusive: 'warn' as OnInconclusive,
  correction: 'holm' as Correction,
  primary: null,
};

/** The config's testing keys: margin, on_inconclusive, correction, primary, k, mrr_cutoff. */
function parseTesting(
  top: Record<string, unknown>,
  at: (key: string) => string,
): Omit<GateConfig, 'source' | 'alpha' | 'gates' | 'notices'> {
  const margin = top.margin ?? DEFAULT_MARGIN;
  if (typeof margin !== 'number' || !(margin >= 0 && Number.isFinite(margin)))
    throw new InputError(`${at('margin')}: \`margin\` must be a number, 0 or more, got ${valueText(margin)}`);
  const onInconclusive = parseOnInconclusive(top.on_inconclusive, at('on_inconclusive'));
  const correction = top.correction ?? 'holm';
  if (correction !== 'none' && correction !== 'holm' && correction !== 'bh')
    throw new InputError(`${at('correction')}: \`correction\` must be none, holm or bh, got ${valueText(correction)}`);
  const primary = top.primary ?? null;
  if (primary !== null && (typeof primary !== 'string' || primary === ''))
    throw new InputError(`${at('primary')}: \`primary\` must be a metric id, got ${valueText(primary)}`);
  const ks = top.k === undefined ? undefined : Array.isArray(top.k) ? top.k : [top.k];
  if (ks !== undefined && (ks.length === 0 || !ks.every(isCutoff)))
    throw new InputError(`${at('k')}: \`k\` must be ${CUTOFF_WORDS} or a list of them, e.g. [1, 5, 10, 20]`);
  const cutoff = top.mrr_cutoff;
  if (cutoff !== undefined && !isCutoff(cutoff))
    throw new InputError(`${at('mrr_cutoff')}: \`mrr_cutoff\` must be ${CUTOFF_WORDS}`);
  return {
    margin,
    onInconclusive: onInconclusive ?? 'warn',
    correction,
    primary: primary as string | null,
    ...(ks ? { ks: [...new Set(ks as number[])].sort((a, b) => a - b) } : {}),
    ...(cutoff !== undefined ? { mrrCutoff: cutoff as number } : {}),
  };
}

function parseOnInconclusive(value: unknown, at: string): OnInconclusive | undefined {
  if (value === undefined) return undefined;
  if (value !== 'fail' && value !== 'warn' && value !== 'pass')
    throw new InputError(`${at}: \`on_inconclusive\` must be fail, warn or pass, got ${valueText(value)}`);
  return value;
}

/** The gates of the presets `preset` / `presets` name, in order; `line` is where they are named. */
function presetGates(top: Record<string, unknown>, line: number, source: string, minN: number): GateSpec[] {
  const gates: GateSpec[] = [];
  const presetNames = [
    top.preset,
    ...(Array.isArray(top.presets) ? top.presets : top.presets !== undefined ? [top.presets] : []),
  ].filter((p) => p !== undefined && p !== null);
  for (const name of presetNames) {
    const preset = typeof name === 'string' ? PRESETS[name] : undefined;
    if (!preset)
      throw new InputError(
        `${source}:${line}: unknown preset ${JSON.stringify(name)}${suggest(String(name), Object.keys(PRESETS))} (presets: ${Object.keys(PRESETS).join(', ')})`,
      );
    for (const g of preset) gates.push({ where: null, onNoData: 'fail', ...g, minN, origin: `preset ${name}` });
  }
  return gates;
}

/** One item of `gates`, checked key by key; every error names the line of the key at fault. */
function parseGate(item: unknown, { lineOf, keyLine }: YamlWithLines, source: string, defaultMinN: number): GateSpec {
  const line = lineOf(item);
  if (!isMap(item)) throw new InputError(`${source}:${line}: each gate must be a map with \`metric\` and a threshold`);
  const g = item.toJSON() as Record<string, unknown>;
  const at = (key: string) => `${source}:${keyLine(item, key)}`;
  for (const key of Object.keys(g)) {
    if (!GATE_KEYS.has(key))
      throw new InputError(`${at(key)}: unknown gate key \`${key}\`${suggest(key, [...GATE_KEYS])}`);
  }
  if (typeof g.metric !== 'string' || g.metric === '') throw new InputError(`${at('metric')}: a gate needs \`metric\``);
  const thresholds: GateSpec['thresholds'] = {};
  for (const key of THRESHOLD_KEYS) {
    if (g[key] === undefined) continue;
    if (typeof g[key] !== 'number' || !Number.isFinite(g[key]))
      throw new InputError(`${at(key)}: \`${key}\` must be a number, got ${valueText(g[key])}`);
    thresholds[key] = g[key] as number;
  }
  const margin = g.margin;
  if (margin !== undefined && (typeof margin !== 'number' || !(margin >= 0 && Number.isFinite(margin))))
    throw new InputError(`${at('margin')}: \`margin\` must be a number, 0 or more, got ${valueText(margin)}`);
  if (Object.keys(thresholds).length === 0 && margin === undefined)
    throw new InputError(
      `${source}:${line}: gate on \`${g.metric}\` has no threshold (one of ${THRESHOLD_KEYS.join(', ')}, or margin)`,
    );
  const level = g.level ?? 'error';
  if (level !== 'error' && level !== 'warn')
    throw new InputError(`${at('level')}: \`level\` must be error or warn, got ${JSON.stringify(level)}`);
  const onNoData = g.on_no_data ?? 'fail';
  if (onNoData !== 'fail' && onNoData !== 'warn' && onNoData !== 'pass')
    throw new InputError(`${at('on_no_data')}: \`on_no_data\` must be fail, warn or pass`);
  const minN = g.min_n ?? defaultMinN;
  if (typeof minN !== 'number' || !Number.isInteger(minN) || minN < 0)
    throw new InputError(`${at('min_n')}: \`min_n\` must be a whole number >= 0`);
  if (g.significant_only !== undefined && typeof g.significant_only !== 'boolean')
    throw new InputError(`${at('significant_only')}: \`significant_only\` must be true or false`);
  if (g.per_slice !== undefined && typeof g.per_slice !== 'boolean')
    throw new InputError(`${at('per_slice')}: \`per_slice\` must be true or false`);
  const trade = g.trade === undefined ? undefined : parseTrade(item.get('trade', true), g, keyLine, source, at);
  return {
    metric: g.metric,
    where: g.where === undefined ? null : parseWhere(g.where, at('where')),
    level,
    thresholds,
    significantOnly: g.significant_only === true,
    minN,
    onNoData,
    ...(margin !== undefined ? { margin: margin as number } : {}),
    ...(g.on_inconclusive !== undefined
      ? { onInconclusive: parseOnInconclusive(g.on_inconclusive, at('on_inconclusive')) }
      : {}),
    origin: `${source}:${line}`,
    line,
    ...(g.per_slice === true ? { perSlice: true } : {}),
    ...(trade ? { trade } : {}),
  };
}

/**
 * A gate's `trade`, checked key by key: on a tested gate over the whole set (a slice's cost is not measured), with
 * a margin above the gate's own and a gain between 0 and 1.
 */
function parseTrade(
  node: unknown,
  g: Record<string, unknown>,
  keyLine: YamlWithLines['keyLine'],
  source: string,
  gateAt: (key: string) => string,
): Trade {
  const shape = '`trade` must be a map, e.g. `trade: {margin: 0.05, metric: latency_ms, min_gain: 0.25}`';
  if (!isMap(node)) throw new InputError(`${gateAt('trade')}: ${shape}`);
  const t = node.toJSON() as Record<string, unknown>;
  // A missing key is named at the `trade` line.
  const at = (key: string) => (t[key] === undefined ? gateAt('trade') : `${source}:${keyLine(node, key)}`);
  for (const key of Object.keys(t))
    if (!TRADE_KEYS.includes(key))
      throw new InputError(`${at(key)}: unknown \`trade\` key \`${key}\`${suggest(key, TRADE_KEYS)}`);
  const gateMargin = tradedGateMargin(g, gateAt('trade'));
  const costs = Object.keys(TRADE_COSTS);
  if (typeof t.metric !== 'string' || !costs.includes(t.metric))
    throw new InputError(
      `${at('metric')}: \`trade.metric\` must be one of ${costs.join(', ')}, got ${valueText(t.metric)}${typeof t.metric === 'string' ? suggest(t.metric, costs) : ''}`,
    );
  const margin = t.margin;
  if (typeof margin !== 'number' || !Number.isFinite(margin) || !(margin > gateMargin))
    throw new InputError(
      `${at('margin')}: \`trade.margin\` must be a number above the gate's margin ${gateMargin} (the larger drop a gain may buy, in the metric's unit), got ${valueText(margin)}`,
    );
  const minGain = t.min_gain;
  if (typeof minGain !== 'number' || !(minGain > 0 && minGain < 1))
    throw new InputError(
      `${at('min_gain')}: \`trade.min_gain\` must be a share above 0 and below 1 (0.25: a quarter lower), got ${valueText(minGain)}`,
    );
  return { margin, cost: t.metric as TradeCost, minGain };
}

/**
 * The margin of a gate that carries a trade, which must be a tested gate over the whole set (its cost is measured
 * there) with an absolute margin, so the trade's margin can be compared with it here: its `margin`, else its
 * `max_drop` or `max_increase`.
 */
function tradedGateMargin(g: Record<string, unknown>, at: string): number {
  if (g.significant_only !== true && g.margin === undefined)
    throw new InputError(`${at}: \`trade\` is for a tested gate: give the gate a \`margin\``);
  if (g.where !== undefined || g.per_slice === true)
    throw new InputError(
      `${at}: \`trade\` cannot be combined with \`${g.where !== undefined ? 'where' : 'per_slice'}\`: a trade is decided over the whole set, where its cost is measured`,
    );
  if (typeof g.margin === 'number') return g.margin;
  const relative = ['min', 'max', 'max_drop_pct', 'max_increase_pct'].filter((k) => g[k] !== undefined);
  if (relative.length > 0)
    throw new InputError(
      `${at}: a trade's margin is in the metric's unit, and this gate's margin comes from \`${relative[0]}\` and the baseline: give the gate a \`margin\``,
    );
  return Math.min(...[g.max_drop, g.max_increase].filter((x): x is number => typeof x === 'number'));
}

/** A gate's `where`: one group, e.g. `{ category: adversarial }`; `at` is its `file:line`. */
function parseWhere(value: unknown, at: string): NonNullable<GateSpec['where']> {
  const w = value as Record<string, unknown>;
  const keys = w && typeof w === 'object' && !Array.isArray(w) ? Object.keys(w) : [];
  if (keys.length !== 1)
    throw new InputError(`${at}: \`where\` must name one group, e.g. \`{ category: adversarial }\``);
  const key = keys[0];
  if (!(WHERE_KEYS as readonly string[]).includes(key))
    throw new InputError(
      `${at}: \`where\` key \`${key}\` is not one of ${WHERE_KEYS.join(', ')}${suggest(key, [...WHERE_KEYS])}`,
    );
  const group = w[key];
  if (key === 'answerable') {
    if (typeof group !== 'boolean') throw new InputError(`${at}: \`where.answerable\` must be true or false`);
    return { key, value: group ? 'answerable' : 'unanswerable' };
  }
  if (typeof group !== 'string' && typeof group !== 'number')
    throw new InputError(`${at}: \`where.${key}\` must be a string`);
  return { key: key as WhereKey, value: String(group) };
}

/**
 * The settings in force, resolved once, and the config's gates at them: the cutoffs are `given`'s (the command
 * line's, the action's inputs') when set, else the config's `k` and `mrr_cutoff`, else the defaults; the level is the
 * config's alpha. Every k a gate's metric names (`hit@5`, `nDCG@20`, up to CUTOFF_MAX) joins the k list, so the
 * retrieval preset holds under any `k`; the preset's `mrr@10` follows the MRR cutoff, MRR having one. A gate of the
 * config's own on `mrr@N` must name the cutoff in use. The options go to scoring and the comparison; the gates read
 * the level from the comparison (gates.ts, applyGates).
 */
export function settingsOf<T extends Partial<AggregateOptions>>(
  config: GateConfig,
  given: T,
): { config: GateConfig; options: T & { ks: number[]; mrrCutoff: number; alpha: number } } {
  const mrrCutoff = given.mrrCutoff ?? config.mrrCutoff ?? DEFAULT_OPTIONS.mrrCutoff;
  const renamed = new Map<string, string>();
  const gates = config.gates.map((g) => {
    if (!g.origin.startsWith('preset ') || !g.metric.startsWith('mrr@')) return g;
    renamed.set(g.metric, `mrr@${mrrCutoff}`);
    return { ...g, metric: `mrr@${mrrCutoff}` };
  });
  const named = gates.flatMap((g) => {
    const k = /^(?!mrr@)[A-Za-z_]+@(\d{1,4})$/.exec(g.metric)?.[1];
    return k !== undefined && isCutoff(Number(k)) ? [Number(k)] : [];
  });
  const ks = [...new Set([...(given.ks ?? config.ks ?? DEFAULT_OPTIONS.ks), ...named])].sort((a, b) => a - b);
  const primary = config.primary === null ? null : (renamed.get(config.primary) ?? config.primary);
  return { config: { ...config, gates, primary }, options: { ...given, ks, mrrCutoff, alpha: config.alpha } };
}
