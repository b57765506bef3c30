/**
 * evaluateGates (src/gate/gates.ts) on contexts built by hand: which gates join the correction, the tested gate's
 * outcome at each edge (crossed, significant, detects, beyond the margin), the words of its note, the failing
 * queries a failed answer gate lists and the relative note of a percentage threshold. Quick, so the mutation runs
 * of gates.ts and tested.ts include it (docs/mutation.md). Every baseline, candidate and per-query difference below
 * is the one the gate reads.
 */
import { describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { minimumDetectableDrop, noiseModel } from '../src/compare/power.js';
import type { MetricComparison } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import type { GateConfig } from '../src/gate/config.js';
import { evaluateGates, MAX_FAILING_QUERIES } from '../src/gate/gates.js';
import type { GateContext } from '../src/gate/gates.js';
import { directionOf, dropsOf, gateDropTest, testedNumbers } from '../src/gate/tested.js';
import { dropInterval, dropTest, seededRandom } from '../src/compare/significance.js';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import type { GateResult } from '../src/gate/types.js';
import { gates } from './helpers/compareFixtures.js';

const defs = () => new Map(buildMetricTable(DEFAULT_OPTIONS, ['retrieve']).map((d) => [d.id, d]));

function mc(baseline: number, candidate: number | null, extra: Partial<MetricComparison> = {}): MetricComparison {
  const delta = candidate === null ? null : candidate - baseline;
  return {
    baseline,
    candidate,
    delta,
    rel_delta: delta === null || baseline === 0 ? null : delta / baseline,
    n: 400,
    n_baseline: 400,
    n_paired: null,
    p_value: null,
    ci: null,
    significant: null,
    comparable: true,
    ...extra,
  };
}

/** A context whose paired differences (candidate - baseline) per metric are `diffs`. */
function ctx(
  metrics: Record<string, MetricComparison>,
  diffs: Record<string, number[]>,
  extra: Partial<GateContext> = {},
): GateContext {
  return {
    defs: defs(),
    metrics,
    breakdowns: {},
    groupSizes: {},
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: 0.05,
    pairedDiffsOf: (id) => (diffs[id] ? Float64Array.from(diffs[id]) : null),
    ...extra,
  };
}

/** `losses` queries at -1, `wins` at +1, the rest of `n` unchanged: a mean drop of (losses - wins) / n. */
const sample = (losses: number, wins: number, n: number) => [
  ...new Array(losses).fill(-1),
  ...new Array(wins).fill(1),
  ...new Array(n - losses - wins).fill(0),
];

/** The config of `yaml` with the margin of its first gate set exactly (a yaml number would be rounded text). */
function withMargin(yaml: string, margin: number): GateConfig {
  const config = gates(yaml);
  return { ...config, gates: [{ ...config.gates[0], margin }, ...config.gates.slice(1)] };
}

const EPS = 1e-12;
/** 40 of 400 lost, 20 won: a mean drop of 0.05 that is significant, and 400 queries see a small drop. */
const DETECTING = () => sample(40, 20, 400);
/** The minimum detectable drop of DETECTING's drops for one gate at alpha 0.05, as testedNumbers computes it. */
const detectingMdd = () => minimumDetectableDrop(noiseModel(Float64Array.from(DETECTING(), (d) => -d)), 0.05);

describe('the gates whose tests are corrected together', () => {
  it('only tested gates: a plain gate on a paired metric with paired values stays out of the Holm family', () => {
    // hit@5: 8 of 8 lost, p = 1/256; alone in the family its adjusted p is its p (with mrr@10 in it, 2/256).
    const config =
      'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n  - metric: mrr@10\n    min: 0\n';
    const [tested, plain] = evaluateGates(
      gates(config),
      ctx({ 'hit@5': mc(1, 0), 'mrr@10': mc(0.5, 0.5) }, { 'hit@5': sample(8, 0, 8), 'mrr@10': sample(0, 8, 8) }),
    );
    expect(tested.p_value).toBeCloseTo(1 / 256, 15);
    expect(tested.p_adjusted).toBe(tested.p_value);
    expect(tested.result).toBe('fail');
    expect(plain).toMatchObject({ result: 'pass', note: '' });
    expect(plain.p_value).toBeUndefined();
  });

  it('a tested gate whose runs cannot be compared stays out of it too, and is not_comparable', () => {
    const config =
      'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n  - metric: mrr@10\n    margin: 0.1\n';
    const [hit, mrr] = evaluateGates(
      gates(config),
      ctx(
        { 'hit@5': mc(1, 0), 'mrr@10': mc(0.5, 0.5, { comparable: false }) },
        { 'hit@5': sample(8, 0, 8), 'mrr@10': sample(0, 8, 8) },
      ),
    );
    expect(hit.p_value).toBeCloseTo(1 / 256, 15);
    expect(hit.p_adjusted).toBe(hit.p_value);
    expect(mrr).toMatchObject({ result: 'not_comparable', effect: 'none' });
    expect(mrr.p_value).toBeUndefined();
  });

  it('a tested gate on a metric the comparison lacks is no data, not a crash', () => {
    const [r] = evaluateGates(gates('gates:\n  - metric: hit@5\n    margin: 0.1\n'), ctx({}, { 'hit@5': [-1] }));
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail', candidate: null });
  });

  it('no paired value (an empty list) is no data: the test cannot run', () => {
    const [r] = evaluateGates(
      gates('gates:\n  - metric: hit@5\n    margin: 0.1\n'),
      ctx({ 'hit@5': mc(1, 0) }, { 'hit@5': [] }),
    );
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(r.note).toBe('no data: no query has a value in both runs, so the paired test cannot run; on_no_data: fail');
  });

  it('a null candidate value is no data though paired values exist', () => {
    const [r] = evaluateGates(
      gates('gates:\n  - metric: hit@5\n    margin: 0.1\n'),
      ctx({ 'hit@5': mc(1, null) }, { 'hit@5': sample(8, 0, 8) }),
    );
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(r.note).toMatch(/^no data: candidate value is null/);
  });

  it("correction: none tests each gate at alpha: its detectable drop is the one gate's, however many gates", () => {
    const yaml = (c: string) =>
      `correction: ${c}\ngates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n`;
    const c = ctx({ 'hit@5': mc(0.8, 0.75), 'mrr@10': mc(0.5, 0.5) }, { 'hit@5': DETECTING(), 'mrr@10': DETECTING() });
    const none = evaluateGates(gates(yaml('none')), c);
    expect(none[0].min_detectable_drop).toBe(detectingMdd());
    // Holm over two gates: each at alpha / 2 for its detectable drop, which is larger.
    const holm = evaluateGates(gates(yaml('holm')), c);
    expect(holm[0].min_detectable_drop).toBeGreaterThan(detectingMdd());
  });

  it("a gate's own margin wins over the config's, in the test's numbers too", () => {
    const [r] = evaluateGates(
      gates('margin: 0.3\ngates:\n  - metric: hit@5\n    margin: 0.05\n'),
      ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': DETECTING() }),
    );
    expect(r.margin).toBe(0.05);
    expect(r.threshold).toBe('drop ≤ 0.0500 (margin) (if significant, one-sided α 0.05)');
  });

  it("the report's seed and permutations reach the gate's resampled test", () => {
    // 40 distinct differences: too many to enumerate, so the p comes from resampling.
    const diffs = Array.from({ length: 40 }, (_, i) => ((i * 37) % 41) / 41 - 0.6);
    const drops = Float64Array.from(diffs, (d) => -d);
    const [r] = evaluateGates(
      gates('gates:\n  - metric: hit@5\n    margin: 0.1\n'),
      ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': diffs }, { seed: 7, permutations: 300 }),
    );
    const p = (seed: number, permutations: number) => gateDropTest('hit@5', drops, seed, permutations).pValue;
    expect(r.p_value).toBe(p(7, 300));
    expect(p(7, 300)).not.toBe(p(0, 300));
    expect(p(7, 300)).not.toBe(p(7, 10_000));
  });
});

describe("a tested gate's outcome at its edges", () => {
  const marginGate = 'gates:\n  - metric: hit@5\n    margin: 0.1\n';

  it('a gate with only a margin: threshold and crossing are the margin (8 of 8 lost by 0.5: a fail)', () => {
    const [r] = evaluateGates(gates(marginGate), ctx({ 'hit@5': mc(1, 0.5) }, { 'hit@5': new Array(8).fill(-0.5) }));
    expect(r.threshold).toBe('drop ≤ 0.1000 (margin) (if significant, one-sided α 0.05)');
    expect(r).toMatchObject({ result: 'fail', effect: 'fail' });
    expect(r.note).toBe(
      'significant drop beyond the margin 0.1000 (one-sided p 0.0039, Holm-adjusted 0.0039 < α 0.05)',
    );
  });

  it('a drop of exactly the margin is not beyond it; a drop of the margin + 1e-12 is', () => {
    // Every query drops by 1: the mean drop is 1, significant (p 1/256).
    const c = ctx({ 'hit@5': mc(1, 0) }, { 'hit@5': new Array(8).fill(-1) });
    expect(evaluateGates(withMargin(marginGate, 1), c)[0].result).not.toBe('fail');
    // 1 - 1e-12 + 1e-12 is 1 in doubles: the drop is then the margin + 1e-12 to the last bit, still within.
    expect(1 - EPS + EPS).toBe(1);
    expect(evaluateGates(withMargin(marginGate, 1 - EPS), c)[0].result).not.toBe('fail');
    expect(evaluateGates(withMargin(marginGate, 1 - 2 * EPS), c)[0].result).toBe('fail');
  });

  it('own thresholds: crossed when any one of them is (max_drop 0.1 crossed, max_drop_pct 90 not)', () => {
    const [r] = evaluateGates(
      gates('gates:\n  - metric: hit@5\n    max_drop: 0.1\n    max_drop_pct: 90\n    significant_only: true\n'),
      ctx({ 'hit@5': mc(1, 0.5) }, { 'hit@5': new Array(8).fill(-0.5) }),
    );
    expect(r.result).toBe('fail');
    expect(r.note).toMatch(/^significant drop beyond the gate's max_drop 0\.1, max_drop_pct 90 \(/);
  });

  it('crossing is judged on the paired drop: 0.5 from a baseline of 1 is within max_drop 1', () => {
    // The paired candidate is 1 - 0.5 = 0.5 (a division would give 1 - 1 / 0.5 = -1, beyond max_drop 1).
    const [r] = evaluateGates(
      gates('gates:\n  - metric: hit@5\n    max_drop: 1\n    significant_only: true\n'),
      ctx({ 'hit@5': mc(1, 0.5) }, { 'hit@5': new Array(8).fill(-0.5) }),
    );
    expect(r.result).toBe('inconclusive');
    expect(r.note).toMatch(/^inconclusive: significant drop within what the gate allows \(one-sided p 0\.0039/);
  });

  it('passes when the test detects the margin and the drop is within it; says what it saw', () => {
    const mdd = detectingMdd();
    const [r] = evaluateGates(
      withMargin('gates:\n  - metric: hit@5\n    max_drop: 0.5\n    significant_only: true\n', 0.06),
      ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': DETECTING() }),
    );
    expect(mdd).toBeLessThan(0.06);
    expect(r).toMatchObject({ result: 'pass', effect: 'none', min_detectable_drop: mdd });
    expect(r.note).toBe(
      // 40 losses against 20 wins: the sign test's P(X >= 40), X ~ Bin(60, 1/2), is 0.0067.
      `significant drop within what the gate allows (one-sided p 0.0067, Holm-adjusted 0.0067 < α 0.05); with 400 queries this gate detects drops of ${mdd.toFixed(4)} or more`,
    );
  });

  it('detects at a margin of exactly its detectable drop, and of it less 1e-12; not of it less 2e-12', () => {
    const mdd = detectingMdd();
    const gate = 'gates:\n  - metric: hit@5\n    max_drop: 0.5\n    significant_only: true\n';
    const result = (margin: number) =>
      evaluateGates(withMargin(gate, margin), ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': DETECTING() }))[0];
    expect(result(mdd).result).toBe('pass');
    expect(mdd - EPS + EPS).toBe(mdd);
    expect(result(mdd - EPS).result).toBe('pass');
    const short = result(mdd - 2 * EPS);
    expect(short.result).toBe('inconclusive');
    expect(short.note).toMatch(/, more than the margin 0\.\d{4}; on_inconclusive: warn$/);
  });

  it('a detecting test with a drop beyond the margin but within max_drop: inconclusive, saying so', () => {
    // 80 lost, 20 won of 400: a mean drop of 0.15, significant, within max_drop 0.5. At a margin of 0.15, or of it
    // less 1e-12 (0.15 to the last bit with the tolerance), the drop is within the margin: a pass; less 2e-12, beyond.
    const diffs = sample(80, 20, 400);
    expect(-diffs.reduce((a, b) => a + b, 0) / 400).toBe(0.15);
    expect(0.15 - EPS + EPS).toBe(0.15);
    const gate = 'gates:\n  - metric: hit@5\n    max_drop: 0.5\n    significant_only: true\n';
    const result = (margin: number) =>
      evaluateGates(withMargin(gate, margin), ctx({ 'hit@5': mc(0.8, 0.65) }, { 'hit@5': diffs }))[0];
    expect(result(0.15).result).toBe('pass');
    expect(result(0.15 - EPS).result).toBe('pass');
    const beyond = result(0.15 - 2 * EPS);
    expect(beyond).toMatchObject({ result: 'inconclusive', effect: 'warn' });
    expect(beyond.note).toMatch(
      /^inconclusive: significant drop within what the gate allows \(.*\); with 400 queries this gate detects drops of 0\.\d{4} or more, but the drop is beyond the margin 0\.1500; on_inconclusive: warn$/,
    );
  });

  it('on_inconclusive: pass takes an inconclusive gate out of the verdict (effect none); fail fails it', () => {
    const c = ctx({ 'hit@5': mc(0.8, 0.8) }, { 'hit@5': sample(0, 0, 10) });
    const on = (what: string) =>
      evaluateGates(gates(`on_inconclusive: ${what}\ngates:\n  - metric: hit@5\n    margin: 0.2\n`), c)[0];
    expect(on('pass')).toMatchObject({ result: 'inconclusive', effect: 'none' });
    expect(on('fail')).toMatchObject({ result: 'inconclusive', effect: 'fail' });
    expect(on('warn')).toMatchObject({ result: 'inconclusive', effect: 'warn' });
  });
});

describe("a tested gate's words", () => {
  it('one query that did not change: no test can see a drop of any size, and it is "1 query"', () => {
    const gate = 'gates:\n  - metric: hit@5\n    margin: 0.2\n';
    const [one] = evaluateGates(gates(gate), ctx({ 'hit@5': mc(0.8, 0.8) }, { 'hit@5': [0] }));
    expect(one).toMatchObject({ result: 'inconclusive', min_detectable_drop: null });
    expect(one.note).toBe(
      'inconclusive: no significant drop (one-sided p 1.0000, Holm-adjusted 1.0000 ≥ α 0.05); with 1 query this gate cannot detect a drop of any size, more than the margin 0.2000; on_inconclusive: warn',
    );
  });

  it('the primary gate is "primary, not adjusted", without a second p', () => {
    const [r] = evaluateGates(
      gates('primary: hit@5\ngates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n'),
      ctx({ 'hit@5': mc(1, 0) }, { 'hit@5': sample(8, 0, 8) }),
    );
    expect(r.correction).toBe('primary');
    expect(r.note).toBe(
      "significant drop beyond the gate's max_drop 0 (one-sided p 0.0039, primary, not adjusted < α 0.05)",
    );
  });

  it('a Holm-adjusted p that is not below alpha: "Holm-adjusted 0.1250 ≥ α 0.05"', () => {
    // 5 of 5 lost on hit@5 (p 1/32), nothing lost on mrr@10 (p 1): Holm gives hit@5 2/32.
    const config =
      'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n  - metric: mrr@10\n    max_drop: 0\n    significant_only: true\n';
    const [r] = evaluateGates(
      gates(config),
      ctx({ 'hit@5': mc(1, 0.375), 'mrr@10': mc(1, 1) }, { 'hit@5': sample(5, 0, 8), 'mrr@10': sample(0, 0, 8) }),
    );
    expect(r.note).toMatch(
      /^inconclusive: drop beyond the gate's max_drop 0 but not significant \(one-sided p 0\.0313, Holm-adjusted 0\.0625 ≥ α 0\.05\)/,
    );
  });

  it('`margin` on a metric without a paired test is refused naming `margin`', () => {
    let message = '';
    try {
      evaluateGates(
        gates('gates:\n  - metric: hit_hallucination_rate\n    margin: 0.1\n'),
        ctx({ hit_hallucination_rate: mc(0.1, 0.2) }, {}),
      );
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/^gates\.yml:2: `margin` needs a metric with a paired test/);
  });
});

describe('the queries a failed answer gate lists', () => {
  /** One gate on `metric`, the candidate's bad queries by metric and bad value as `bad` gives them. */
  function gated(yaml: string, metrics: Record<string, MetricComparison>, ids: string[] | null): GateResult {
    const asked: Array<[string, number]> = [];
    const c = ctx(
      metrics,
      {},
      {
        failingQueriesOf: (metric, bad) => {
          asked.push([metric, bad]);
          return ids;
        },
      },
    );
    const [r] = evaluateGates(gates(yaml), c);
    return { ...r, asked } as GateResult & { asked: Array<[string, number]> };
  }

  it('a failed higher-is-better answer gate lists the queries at 0; a lower-is-better one those at 1', () => {
    const high = gated('gates:\n  - metric: groundedness\n    min: 0.9\n', { groundedness: mc(0.9, 0.5) }, [
      'q1',
      'q4',
    ]);
    expect(high).toMatchObject({
      result: 'fail',
      failing_queries: ['q1', 'q4'],
      failing_count: 2,
      asked: [['groundedness', 0]],
    });
    const low = gated('gates:\n  - metric: under_refusal_rate\n    max: 0.1\n', { under_refusal_rate: mc(0, 0.5) }, [
      'q2',
    ]);
    expect(low).toMatchObject({
      result: 'fail',
      failing_queries: ['q2'],
      failing_count: 1,
      asked: [['under_refusal_rate', 1]],
    });
  });

  it('a warn-level failure lists them too; a pass, a no-data fail and a retrieval gate do not', () => {
    const warn = gated(
      'gates:\n  - metric: groundedness\n    min: 0.9\n    level: warn\n',
      { groundedness: mc(0.9, 0.5) },
      ['q1'],
    );
    expect(warn).toMatchObject({ result: 'warn', failing_queries: ['q1'] });
    const pass = gated('gates:\n  - metric: groundedness\n    min: 0.1\n', { groundedness: mc(0.9, 0.5) }, ['q1']);
    expect(pass.result).toBe('pass');
    expect(pass.failing_queries).toBeUndefined();
    const noData = gated('gates:\n  - metric: groundedness\n    min: 0.9\n', { groundedness: mc(0.9, null) }, ['q1']);
    expect(noData).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(noData.failing_queries).toBeUndefined();
    const retrieval = gated('gates:\n  - metric: hit@5\n    min: 0.9\n', { 'hit@5': mc(0.9, 0.5) }, ['q1']);
    expect(retrieval.result).toBe('fail');
    expect(retrieval.failing_queries).toBeUndefined();
  });

  it('an answer metric with no per-query value lists none; neither does an empty or absent list', () => {
    const rate = gated(
      'gates:\n  - metric: hit_hallucination_rate\n    max: 0.1\n',
      { hit_hallucination_rate: mc(0, 0.5) },
      ['q1'],
    );
    expect(rate.result).toBe('fail');
    expect(rate.failing_queries).toBeUndefined();
    for (const ids of [[], null]) {
      const r = gated('gates:\n  - metric: groundedness\n    min: 0.9\n', { groundedness: mc(0.9, 0.5) }, ids);
      expect(r.result).toBe('fail');
      expect('failing_queries' in r).toBe(false);
    }
  });

  it('a context that cannot list queries (no failingQueriesOf) fails the gate without a list', () => {
    const [r] = evaluateGates(
      gates('gates:\n  - metric: groundedness\n    min: 0.9\n'),
      ctx({ groundedness: mc(0.9, 0.5) }, {}),
    );
    expect(r.result).toBe('fail');
    expect('failing_queries' in r).toBe(false);
  });

  it(`lists at most ${MAX_FAILING_QUERIES}, and counts them all`, () => {
    const ids = Array.from({ length: MAX_FAILING_QUERIES + 1 }, (_, i) => `q${i}`);
    const r = gated('gates:\n  - metric: groundedness\n    min: 0.9\n', { groundedness: mc(0.9, 0.5) }, ids);
    expect(r.failing_queries).toEqual(ids.slice(0, MAX_FAILING_QUERIES));
    expect(r.failing_count).toBe(MAX_FAILING_QUERIES + 1);
  });
});

describe('the note of a failed relative threshold', () => {
  const one = (yaml: string, m: MetricComparison) => evaluateGates(gates(yaml), ctx({ 'hit@5': m }, {}))[0];

  it('max_drop_pct: the relative change, signed, to one decimal; an absolute threshold has none', () => {
    expect(one('gates:\n  - metric: hit@5\n    max_drop_pct: 10\n', mc(0.8, 0.6)).note).toBe('-25.0% of the baseline');
    expect(one('gates:\n  - metric: hit@5\n    max_increase_pct: 10\n', mc(0.4, 0.6)).note).toBe(
      '+50.0% of the baseline',
    );
    expect(one('gates:\n  - metric: hit@5\n    max_drop: 0.1\n', mc(0.8, 0.6))).toMatchObject({
      result: 'fail',
      note: '',
    });
  });

  it('a negative max_drop_pct (an improvement asked for) failed by no change: "+0.0% of the baseline"', () => {
    expect(one('gates:\n  - metric: hit@5\n    max_drop_pct: -10\n', mc(0.8, 0.8))).toMatchObject({
      result: 'fail',
      note: '+0.0% of the baseline',
    });
  });

  it('a baseline of 0: any change that way is infinite', () => {
    expect(one('gates:\n  - metric: hit@5\n    max_increase_pct: 10\n', mc(0, 0.2)).note).toBe(
      'baseline is 0: any change in that direction is infinite',
    );
  });
});

describe('tested.ts: drops, streams and the numbers of one gate', () => {
  const higher = () => defs().get('hit@5');
  const lower = { id: 'lower_is_better', direction: 'lower', paired: true } as unknown as MetricDef;

  it('higher is better unless the metric says lower, and when there is no metric', () => {
    expect(directionOf(higher())).toBe(1);
    expect(directionOf(lower)).toBe(-1);
    expect(directionOf(undefined)).toBe(1);
  });

  it('drops are positive when worse: the negated difference when higher is better, the difference when lower', () => {
    expect([...dropsOf(Float64Array.from([-0.5, 0.25, 0]), higher())]).toEqual([0.5, -0.25, 0]);
    expect([...dropsOf(Float64Array.from([-0.5, 0.25, 0]), lower)]).toEqual([-0.5, 0.25, 0]);
    // An unchanged query is a drop of 0, not -0 (which JSON and toEqual tell apart).
    expect(Object.is(dropsOf(Float64Array.from([0]), higher())[0], 0)).toBe(true);
  });

  it("each gate's test draws from a stream of its own metric: the same drops resample differently", () => {
    const drops = Float64Array.from({ length: 40 }, (_, i) => 0.6 - ((i * 37) % 41) / 41);
    expect(gateDropTest('hit@5', drops, 7, 300).pValue).not.toBe(gateDropTest('mrr@10', drops, 7, 300).pValue);
  });

  /** 5 of 8 lost and 3 unchanged: the sign test's p is 1/32, exactly. */
  const fiveOfEight = () => {
    const drops = Float64Array.from([1, 1, 1, 1, 1, 0, 0, 0]);
    return { drops, test: dropTest(drops, 1000, seededRandom(1)) };
  };

  it('the interval is at the level the adjusted p is compared at: alpha * p / adjusted p, and 1 - 2 level wide', () => {
    const { drops, test } = fiveOfEight();
    expect(test.pValue).toBe(1 / 32);
    const holm = { pAdjusted: 2 / 32, correction: 'holm' as const, mddLevel: 0.025 };
    const t = testedNumbers(test, drops, holm, 0.05, 0.1, higher());
    const level = (0.05 * (1 / 32)) / (2 / 32);
    expect(t.ciLevel).toBeCloseTo(1 - 2 * level, 15);
    // At that level (0.025) the interval of the drop, clipped to the range of the drops, holds 0: [0, 1]; at alpha
    // itself (0.05 > p) it would leave 0.
    expect(dropInterval(test, level)).toEqual([0, 1]);
    expect(dropInterval(test, 0.05)[0]).toBeGreaterThan(0);
    // higher is better: the interval of the delta is the drop's negated and turned round (0, not -0)
    expect(t.ci).toEqual([-1, 0]);
    expect(t.significant).toBe(false);
    const down = testedNumbers(test, drops, holm, 0.05, 0.1, lower);
    expect(down.ci).toEqual([0, 1]);
  });

  it('significant only below alpha: an adjusted p of exactly alpha is not', () => {
    const { drops, test } = fiveOfEight();
    const at = (alpha: number) =>
      testedNumbers(test, drops, { pAdjusted: 1 / 32, correction: 'none', mddLevel: alpha }, alpha, 0.1, higher());
    expect(at(1 / 32).significant).toBe(false);
    expect(at(0.05).significant).toBe(true);
  });

  it('the queries needed only when the detectable drop is above the margin (none at exactly the margin)', () => {
    const { drops, test } = fiveOfEight();
    const numbers = (margin: number) =>
      testedNumbers(test, drops, { pAdjusted: 1 / 32, correction: 'none', mddLevel: 0.05 }, 0.05, margin, higher());
    const mdd = numbers(0.1).mdd!;
    expect(numbers(0.1).queriesNeeded).toBeGreaterThan(8);
    expect(numbers(mdd).queriesNeeded).toBeNull();
    expect(numbers(1).queriesNeeded).toBeNull();
  });

  it('a significant drop: the interval of the delta lies below 0, both ends negated', () => {
    const drops = Float64Array.from(new Array(8).fill(0.5));
    const test = dropTest(drops, 1000, seededRandom(1));
    const none = { pAdjusted: test.pValue, correction: 'none' as const, mddLevel: 0.05 };
    const t = testedNumbers(test, drops, none, 0.05, 0.1, higher());
    const [low, high] = dropInterval(test, 0.05);
    expect(low).toBeGreaterThan(0);
    expect(t.ci).toEqual([-high, -low]);
  });

  it('a p of 0 (the normal branch, far out in the tail): the interval at alpha itself, not NaN', () => {
    // 2,500 drops near 0.5: z is so large that the normal tail underflows to 0.
    const random = seededRandom(4);
    const drops = Float64Array.from({ length: 2500 }, () => 0.5 + (random() - 0.5) * 0.1);
    const test = dropTest(drops, 1000, seededRandom(1));
    expect(test.pValue).toBe(0);
    const t = testedNumbers(test, drops, { pAdjusted: 0, correction: 'holm', mddLevel: 0.025 }, 0.05, 0.1, higher());
    expect(t.ciLevel).toBeCloseTo(0.9, 15);
    const [low, high] = dropInterval(test, 0.05);
    expect(t.ci).toEqual([-high, -low]);
    expect(t.significant).toBe(true);
  });

  it('nothing changed: the interval is [0, 0], with no -0 end', () => {
    const drops = new Float64Array(10);
    const t = testedNumbers(
      dropTest(drops, 1000, seededRandom(1)),
      drops,
      { pAdjusted: 1, correction: 'none', mddLevel: 0.05 },
      0.05,
      0.1,
      higher(),
    );
    expect(t.ci).toEqual([0, 0]);
    expect(t.ci.map((x) => Object.is(x, -0))).toEqual([false, false]);
  });
});

describe('paired_delta: the paired mean change, beside a tested gate whose means count other queries', () => {
  const gate = gates('gates:\n  - metric: hit@5\n    margin: 0.1\n');
  /** hit@5's gate with the means 0.8 -> 0.75 (or a change of `delta`) and the paired differences `diffs`. */
  const hit5 = (diffs: number[], delta?: number) =>
    evaluateGates(gate, ctx({ 'hit@5': mc(0.8, 0.75, delta === undefined ? {} : { delta }) }, { 'hit@5': diffs }))[0];

  it('absent where the change of the means is the paired mean; else the paired mean, and 0 never -0', () => {
    expect(hit5(DETECTING()).paired_delta).toBeUndefined(); // -0.05 both ways
    expect(hit5(sample(4, 0, 8)).paired_delta).toBe(-0.5); // the means say -0.05, the 8 pairs -4/8
    expect(Object.is(hit5(sample(4, 4, 8)).paired_delta, 0)).toBe(true); // 4 lost, 4 won
  });

  it('"the same" is within 1e-12, the edge included (paired tests are on ratios: a change is at most 1)', () => {
    expect(hit5(sample(4, 4, 8), 1e-12).paired_delta).toBeUndefined();
    expect(hit5(sample(4, 4, 8), 2e-12).paired_delta).toBe(0);
  });
});
