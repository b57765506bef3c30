/**
 * The gate config's `noise:` block: the run-to-run noise `evalverdict calibrate` measured, carried in the config it
 * suggests so the report can name the noise floor its margins came from (docs/gates.md, "Noise floor"). It is a
 * record, not a gate: nothing here changes a verdict.
 *
 *   noise:
 *     measured: "2026-11-28T04:00:00Z"   # the newest calibration run's created_at
 *     runs: 5
 *     commit: "0123456789ab"             # optional: the commit the runs record
 *     metrics:
 *       hit@5: { sd_diff: 0.2828, sd_mean: 0.0119, changed: 0.08, detects: 0.0412 }
 */
import { isMap } from 'yaml';
import { measuredNoiseModel, type NoiseModel } from '../stats/power.js';
import type { YamlWithLines } from '../yamlLines.js';
import { InputError } from '../errors.js';
import { valueText } from '../inputText.js';
import { suggest } from '../suggest.js';
import { runTime } from '../time.js';

export interface MetricNoiseFloor {
  /** SD of a query's difference between two runs. */
  sd_diff: number;
  /** SD of the run mean across runs. */
  sd_mean: number;
  /** Share of queries whose value differs between two runs. */
  changed: number;
  /** The smallest drop the gate detects at that noise; null: none. */
  detects: number | null;
}

export interface NoiseFloor {
  measured: string;
  runs: number;
  commit: string | null;
  metrics: Record<string, MetricNoiseFloor>;
}

const NOISE_KEYS = ['measured', 'runs', 'commit', 'metrics'];
const METRIC_KEYS = ['sd_diff', 'sd_mean', 'changed', 'detects'] as const;
/** A config names at most this many metrics' noise (as many as it may have gates). */
const MAX_NOISE_METRICS = 200;

/** The `noise` node of a config's root map, checked key by key; every error names the line of the key at fault. */
export function parseNoise(node: unknown, { lineOf, keyLine }: YamlWithLines, source: string): NoiseFloor {
  if (!isMap(node))
    throw new InputError(`${source}:${lineOf(node)}: \`noise\` must be a map with measured, runs and metrics`);
  const at = (key: string) => `${source}:${keyLine(node, key)}`;
  const top = node.toJSON() as Record<string, unknown>;
  for (const key of Object.keys(top))
    if (!NOISE_KEYS.includes(key))
      throw new InputError(`${at(key)}: unknown \`noise\` key \`${key}\`${suggest(key, NOISE_KEYS)}`);
  const { measured, runs, commit } = top;
  if (typeof measured !== 'string' || runTime(measured) === null)
    throw new InputError(`${at('measured')}: \`noise.measured\` must be an RFC 3339 time, got ${valueText(measured)}`);
  if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 2)
    throw new InputError(`${at('runs')}: \`noise.runs\` must be a whole number >= 2, got ${valueText(runs)}`);
  if (commit !== undefined && commit !== null && typeof commit !== 'string')
    throw new InputError(`${at('commit')}: \`noise.commit\` must be a string, got ${valueText(commit)}`);
  const metricsNode = node.get('metrics', true);
  if (!isMap(metricsNode) || metricsNode.items.length === 0)
    throw new InputError(`${at('metrics')}: \`noise.metrics\` must map metric ids to their noise`);
  if (metricsNode.items.length > MAX_NOISE_METRICS)
    throw new InputError(`${at('metrics')}: \`noise.metrics\` names more than ${MAX_NOISE_METRICS} metrics`);
  const metrics: Record<string, MetricNoiseFloor> = {};
  for (const pair of metricsNode.items) {
    const id = String((pair.key as { value?: unknown })?.value ?? pair.key);
    metrics[id] = parseMetricNoise(id, pair.value, `${source}:${lineOf(pair.value ?? pair.key)}`);
  }
  return { measured, runs, commit: commit ?? null, metrics };
}

function parseMetricNoise(id: string, node: unknown, at: string): MetricNoiseFloor {
  if (!isMap(node)) throw new InputError(`${at}: \`noise.metrics.${id}\` must be a map of ${METRIC_KEYS.join(', ')}`);
  const m = node.toJSON() as Record<string, unknown>;
  for (const key of Object.keys(m))
    if (!(METRIC_KEYS as readonly string[]).includes(key))
      throw new InputError(`${at}: unknown key \`${key}\` in \`noise.metrics.${id}\`${suggest(key, [...METRIC_KEYS])}`);
  const number = (key: (typeof METRIC_KEYS)[number], nullable: boolean): number | null => {
    const v = m[key];
    if (nullable && v === null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new InputError(`${at}: \`noise.metrics.${id}.${key}\` must be a number >= 0, got ${valueText(v)}`);
    return v;
  };
  return {
    sd_diff: number('sd_diff', false) as number,
    sd_mean: number('sd_mean', false) as number,
    changed: number('changed', false) as number,
    detects: number('detects', true),
  };
}

/**
 * A metric's measured noise as the detectable drop's model over the n queries a comparison pairs: the share of
 * queries that changed between two runs of one commit, at a typical size sd_diff / sqrt(changed) (graded metrics
 * too: nDCG's small changes keep their own size, not a hit's). The baseline side's noise, not the comparison's.
 */
export function noiseFloorModel(floor: MetricNoiseFloor, n: number): NoiseModel {
  return measuredNoiseModel(n, floor.changed, floor.sd_diff);
}
