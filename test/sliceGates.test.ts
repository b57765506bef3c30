/**
 * Per-slice gates (`slices:`, `per_slice: true`; docs/gates.md, "Slices"): the config, the expansion into one tested
 * gate a slice (alpha split over the slices and the gates together), and the claims by simulation on the two models
 * of a retrieval system the verdict's checks use (test/helpers/verdictSim.ts, test/helpers/latentSim.ts):
 * - honest pull requests (no change, and a true drop of exactly the margin in every slice) fail in at most alpha;
 * - a loss planted in one slice of 100 queries, which the overall metric hides, is caught in 90% or more.
 * Each rate is over `TRIALS` pairs a model, with its binomial standard error stated where it is asserted.
 */
import { describe, expect, it } from 'vitest';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import type { MetricComparison } from '../src/compare/types.js';
import { parseGateConfig } from '../src/gate/config.js';
import type { GateConfig } from '../src/gate/config.js';
import { evaluateGates, verdictOf, withSliceGates } from '../src/gate/gates.js';
import type { GateResult, Verdict } from '../src/gate/types.js';
import { seededRandom } from '../src/stats/random.js';
import { LATENT_LEVELS, latentPair } from './helpers/latentSim.js';
import { comparisonOf, SIM_METRICS, simulatePair } from './helpers/verdictSim.js';
import type { SimPair } from './helpers/verdictSim.js';

const defs = new Map<string, MetricDef>(
  SIM_METRICS.map((id) => [id, { id, paired: true, perQuery: true, direction: 'higher' } as unknown as MetricDef]),
);

const MODELS: Array<{ name: string; pair: (n: number, drop: number, r: () => number) => SimPair }> = [
  { name: 'rank', pair: (n, drop, r) => simulatePair(n, drop, r, 0.37) },
  { name: 'latent', pair: (n, drop, r) => latentPair(n, LATENT_LEVELS[1], drop, r) },
];

/** Slices of the sizes given, each its own pair with its own true drop, gated with `config` as applyGates gates. */
function gateSlices(
  model: (typeof MODELS)[number],
  slices: Array<{ name: string; n: number; drop: number }>,
  config: GateConfig,
  random: () => number,
): { gates: GateResult[]; verdict: Verdict } {
  const pairs = slices.map((s) => model.pair(s.n, s.drop, random));
  const joined = (side: 'baseline' | 'candidate', k: number) =>
    Float64Array.from(pairs.flatMap((p) => [...p[side][k]]));
  const metrics: Record<string, MetricComparison> = {};
  const diffs: Record<string, Float64Array> = {};
  const category: Record<string, Record<string, MetricComparison>> = {};
  const rows: Record<string, number[]> = {};
  let at = 0;
  for (const [i, s] of slices.entries()) {
    rows[s.name] = Array.from({ length: s.n }, (_, r) => at + r);
    at += s.n;
    category[s.name] = Object.fromEntries(
      SIM_METRICS.map((id, k) => [id, comparisonOf(pairs[i].baseline[k], pairs[i].candidate[k])]),
    );
  }
  SIM_METRICS.forEach((id, k) => {
    const [b, c] = [joined('baseline', k), joined('candidate', k)];
    metrics[id] = comparisonOf(b, c);
    diffs[id] = c.map((v, i) => v - b[i]);
  });
  const groupSizes = { category: Object.fromEntries(slices.map((s) => [s.name, s.n])) };
  const gates = evaluateGates(withSliceGates(config, groupSizes), {
    defs,
    metrics,
    breakdowns: { category },
    groupSizes,
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: config.alpha,
    pairedDiffsOf: (id, where) =>
      where === undefined ? (diffs[id] ?? null) : Float64Array.from(rows[where.value].map((r) => diffs[id][r])),
    seed: 1,
    permutations: 2000,
  });
  return { gates, verdict: verdictOf(gates) };
}

const CONFIG = parseGateConfig(
  'slices: category\nmin_queries: 20\ngates:\n  - metric: hit@5\n    margin: 0.1\n    per_slice: true\n',
  'g.yml',
);
const sixSlices = (drops: number[]) => drops.map((drop, i) => ({ name: `s${i}`, n: 100, drop }));

describe('slices in the config', () => {
  it('slices (one field or a list), min_queries, per_slice on a tested gate', () => {
    expect(CONFIG.slices).toEqual({ keys: ['category'], minQueries: 20 });
    expect(CONFIG.gates[0].perSlice).toBe(true);
    const two = parseGateConfig(
      'slices: [category, tag]\ngates:\n  - metric: hit@5\n    margin: 0.1\n    per_slice: true\n',
      'g.yml',
    );
    expect(two.slices).toEqual({ keys: ['category', 'tag'], minQueries: 20 });
  });

  it.each([
    [
      'slices: category\ngates:\n  - metric: hit@5\n    margin: 0.1\n',
      'g.yml:1: `slices` is read by a gate with `per_slice: true`, and no gate here has one',
    ],
    [
      'slices: lang\n',
      'g.yml:1: `slices` must be one of category, difficulty, tag, answerable, vault or a list of them, got "lang"',
    ],
    ['slices: category\nmin_queries: 0\n', 'g.yml:2: `min_queries` must be a whole number >= 1, got 0'],
    ['min_queries: 5\n', 'g.yml:1: `min_queries` is for `slices`, which this config does not set'],
    [
      'gates:\n  - metric: hit@5\n    margin: 0.1\n    per_slice: true\n',
      'g.yml:2: `per_slice` needs `slices:` in the config',
    ],
    [
      'slices: category\ngates:\n  - metric: hit@5\n    min: 0.5\n    per_slice: true\n',
      'g.yml:3: `per_slice` is for a tested gate',
    ],
  ])('refused, naming the line: %j', (yaml, message) => {
    expect(() => parseGateConfig(yaml, 'g.yml')).toThrow(message);
  });

  it('one gate a slice after its per_slice gate, in name order, at min_queries; the small ones shown, not tested', () => {
    const random = seededRandom(49);
    // given out of name order: the slices follow in name order
    const slices = [{ name: 'tiny', n: 12, drop: 0 }, ...sixSlices([0, 0, 0]).reverse()];
    const { gates } = gateSlices(MODELS[0], slices, CONFIG, random);
    expect(gates.map((g) => [g.where?.category ?? 'all', g.slice ?? false, g.result === 'info'])).toEqual([
      ['all', false, false],
      ['s0', true, false],
      ['s1', true, false],
      ['s2', true, false],
      ['tiny', true, true],
    ]);
    // alpha split over the whole set and the three slices tested (the small one takes no share)
    expect(gates.filter((g) => g.simultaneous_over !== undefined).map((g) => g.simultaneous_over)).toEqual([
      4, 4, 4, 4,
    ]);
  });
});

describe('slices at their edges', () => {
  const spec = CONFIG;
  it('a field with no values in the golden set is refused, naming the gate: no silent pass', () => {
    expect(() => withSliceGates(spec, { category: {} })).toThrow(
      'g.yml:4: `per_slice` has no slice of `category`: no golden query has a category',
    );
    expect(() => withSliceGates(spec, {})).toThrow('no golden query has a category');
  });

  it('more gates than a comment can show is refused, with what to change', () => {
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`t${i}`, 30]));
    expect(() => withSliceGates(spec, { category: many })).toThrow(
      "g.yml:4: `per_slice` makes 251 gates with this golden set's category values, more than the 200",
    );
    expect(withSliceGates(spec, { category: { a: 30, b: 40 } }).gates).toHaveLength(3);
  });

  it("a slice's thresholds read against the slice's own baseline", () => {
    const config = parseGateConfig(
      'slices: category\ngates:\n  - metric: hit@5\n    min: 0.5\n    significant_only: true\n    per_slice: true\n',
      'g.yml',
    );
    const random = seededRandom(491);
    const { gates } = gateSlices(MODELS[0], sixSlices([0, 0.2]), config, random);
    for (const g of gates.filter((x) => x.slice)) expect(g.margin).toBeCloseTo((g.baseline ?? 0) - 0.5, 12);
    expect(gates[0].margin).toBeCloseTo((gates[0].baseline ?? 0) - 0.5, 12);
  });
});

describe('slices by simulation (150 pairs a model and case; the binomial SE at 5% is 0.018)', () => {
  const TRIALS = 150;
  const se = (p: number) => Math.sqrt((p * (1 - p)) / TRIALS);

  for (const [m, model] of MODELS.entries()) {
    it(`${model.name} model: no change in six slices of 100 fails in at most alpha`, () => {
      const random = seededRandom(4900 + m);
      let failed = 0;
      for (let t = 0; t < TRIALS; t++)
        if (gateSlices(model, sixSlices([0, 0, 0, 0, 0, 0]), CONFIG, random).verdict === 'fail') failed++;
      expect(failed / TRIALS).toBeLessThanOrEqual(0.05 + 3 * se(0.05));
    });

    it(`${model.name} model: a true drop of exactly the margin in every slice fails in at most alpha`, () => {
      const random = seededRandom(4910 + m);
      let failed = 0;
      for (let t = 0; t < TRIALS; t++)
        if (gateSlices(model, sixSlices(Array(6).fill(0.1)), CONFIG, random).verdict === 'fail') failed++;
      expect(failed / TRIALS).toBeLessThanOrEqual(0.05 + 3 * se(0.05));
    });

    it(`${model.name} model: a loss of 0.4 in one slice of 100, hidden overall, is caught in >= 90%`, () => {
      const random = seededRandom(4920 + m);
      let caught = 0;
      let hiddenOverall = 0;
      for (let t = 0; t < TRIALS; t++) {
        const { gates, verdict } = gateSlices(model, sixSlices([0.4, 0, 0, 0, 0, 0]), CONFIG, random);
        const overall = gates[0];
        const slice = gates.find((g) => g.where?.category === 's0')!;
        if (overall.effect !== 'fail') hiddenOverall++;
        if (slice.effect === 'fail' && verdict === 'fail') caught++;
      }
      expect(hiddenOverall / TRIALS).toBeGreaterThanOrEqual(0.9);
      expect(caught / TRIALS).toBeGreaterThanOrEqual(0.9);
    });
  }
});

describe('slices in the reports (the fixtures, nDCG@10 per category)', () => {
  it('the verdict line names the worst slice, a collapsed table has every slice, the JSON each outcome', async () => {
    const { runCompare } = await import('../src/pipeline/runCompare.js');
    const out = await runCompare({
      baselinePath: 'fixtures/baseline.sqlite',
      candidatePath: 'fixtures/candidate.sqlite',
      goldenPath: 'fixtures/golden.yaml',
      configText: 'slices: category\ngates:\n  - metric: nDCG@10\n    margin: 0.05\n    per_slice: true\n',
    });
    const verdict = out.markdown.split('\n').find((l) => l.startsWith('> **EvalVerdict'))!;
    expect(verdict).toContain('worst slice category=what: nDCG@10 −0.0349, 78 queries');
    expect(out.markdown).toContain('<details><summary>Slices (6): the per_slice gates in every slice</summary>');
    expect(out.markdown).toMatch(
      /\| category=why \| `nDCG@10` \| 3 \| 0\.5050 \| 0\.4086 \| −0\.0964 \| ℹ️ below min_n \|/,
    );
    const gates = JSON.parse(out.json).gates as GateResult[];
    expect(gates.filter((g) => g.slice).map((g) => [g.where?.category, g.result])).toEqual([
      ['adversarial', 'info'],
      ['how', 'inconclusive'],
      ['statement', 'inconclusive'],
      ['what', 'inconclusive'],
      ['why', 'info'],
      ['yes-no', 'inconclusive'],
    ]);
    expect(gates[0]).toMatchObject({ metric: 'nDCG@10', per_slice: true, result: 'pass' });
  });

  it('a slice where the metric has no value (unanswerable queries) is shown, never the verdict', async () => {
    const { runCompare } = await import('../src/pipeline/runCompare.js');
    const out = await runCompare({
      baselinePath: 'fixtures/baseline.sqlite',
      candidatePath: 'fixtures/candidate.sqlite',
      goldenPath: 'fixtures/golden.yaml',
      configText:
        'slices: answerable\nmin_queries: 5\ngates:\n  - metric: nDCG@10\n    margin: 0.05\n    per_slice: true\n',
    });
    const unanswerable = out.report.gates.find((g) => g.where?.answerable === false)!;
    expect(unanswerable).toMatchObject({ result: 'info', effect: 'none' });
    expect(unanswerable.note).toContain('no query of slice answerable=unanswerable has `nDCG@10` in both runs');
    expect(out.report.verdict).toBe('pass');
  });
});
