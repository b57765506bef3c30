/**
 * The metric registry (src/aggregate/metrics/): families in table order, and each source system's definitions
 * confined to the metrics its profile overrides (docs/golden-sets.md, "Metric profiles").
 */
import { describe, expect, it } from 'vitest';
import { buildMetricTable, METRIC_FAMILIES } from '../src/aggregate/metrics/registry.js';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import type { MetricProfile } from '../src/types.js';
import { runCli } from './helpers/runDb.js';

const tableOf = (profile: MetricProfile) => buildMetricTable({ ...DEFAULT_OPTIONS, profile }, ['retrieval']);

/**
 * The ids whose printed definition, denominator, empty value or per-query function's source differs from
 * EvalVerdict's own under `profile` (closures are made per table, so their source, not their identity, is compared).
 */
function changedUnder(profile: MetricProfile): string[] {
  const own = new Map(tableOf('evalverdict').map((d) => [d.id, d]));
  const differs = (a: MetricDef, b: MetricDef) =>
    a.definition !== b.definition ||
    a.denominator !== b.denominator ||
    String(a.perQuery) !== String(b.perQuery) ||
    a.emptyValue !== b.emptyValue;
  return tableOf(profile)
    .filter((d) => differs(d, own.get(d.id)!))
    .map((d) => d.id);
}

describe('the metric registry', () => {
  it('lists the six families in order, each metric once, with the same ids, units and directions under every profile', () => {
    expect(METRIC_FAMILIES.map((f) => f.family)).toEqual([
      'retrieval',
      'answers',
      'abstention',
      'judge',
      'operations',
      'index',
    ]);
    const own = tableOf('evalverdict');
    const families = own.map((d) => d.family);
    // families come in one block each, in registry order
    expect([...new Set(families)]).toEqual(METRIC_FAMILIES.map((f) => f.family));
    expect(new Set(own.map((d) => d.id)).size).toBe(own.length);
    for (const profile of ['wfgy', 'paperbot'] as const) {
      const shape = (d: MetricDef) => [d.id, d.family, d.unit, d.direction, d.paired ?? false];
      expect(tableOf(profile).map(shape)).toEqual(own.map(shape));
    }
  });

  it("wfgy's overrides are exactly the six metrics docs/golden-sets.md lists", () => {
    expect(changedUnder('wfgy').sort()).toEqual(
      [
        'answer_precision',
        'attribution_hit_rate',
        'citation_schema_compliance',
        'claim_containment',
        'over_refusal_rate',
        'under_refusal_rate',
      ].sort(),
    );
  });

  it("paperbot's rules change retrieval metrics only, and not the trec_eval-only ones' definitions", () => {
    const changed = changedUnder('paperbot');
    const families = new Map(tableOf('paperbot').map((d) => [d.id, d.family]));
    expect(changed.every((id) => families.get(id) === 'retrieval')).toBe(true);
    for (const id of ['hit@5', 'recall@10', 'mrr@10', 'nDCG@10', 'MAP', 'bpref']) expect(changed).toContain(id);
    for (const id of ['judged@10', 'recall_doc@10', 'scope_miss_rate']) expect(changed).not.toContain(id);
  });
});

describe('evalverdict metrics --profile', () => {
  it("prints the profile's own definitions", async () => {
    const json = async (args: string[]) =>
      JSON.parse((await runCli(['metrics', '--json', ...args])).stdout) as Array<{ id: string; denominator: string }>;
    const byId = (list: Array<{ id: string; denominator: string }>, id: string) => list.find((d) => d.id === id)!;
    const own = await json([]);
    const wfgy = await json(['--profile', 'wfgy']);
    expect(byId(own, 'answer_precision').denominator).toBe('answered queries (not refused)');
    expect(byId(wfgy, 'answer_precision').denominator).toBe(
      'answered queries (not refused) (wfgy profile: 0 when there are none)',
    );
    const paperbot = await json(['--profile', 'paperbot']);
    expect(byId(paperbot, 'recall@10').denominator).toBe(
      'every golden query (paperbot profile: one with nothing relevant scores 1)',
    );
  });

  it('refuses an unknown profile: exit 2, one line naming the flag, then the usage', async () => {
    const res = await runCli(['metrics', '--profile', 'ckv']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/^evalverdict: --profile must be evalverdict, wfgy or paperbot, got "ckv"\nusage: /);
  });
});
