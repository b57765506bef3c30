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
import { minimumDetectableDrop, noiseModel } from '../src/stats/power.js';
import type { MetricComparison } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import type { GateConfig } from '../src/gate/config.js';
import { evaluateGates, MAX_FAILING_QUERIES } from '../src/gate/gates.js';
import { gatePSentence, pWords } from '../src/gate/gateWords.js';
import { gatePText } from '../src/render/reportParts.js';
import type { GateContext } from '../src/gate/gates.js';
import { directionOf, dropsOf, testedNumbers } from '../src/gate/testedGates.js';
import { dropBounds } from '../src/stats/dropBounds.js';
import { normalQuantile, studentPoint } from '../src/stats/distributions.js';
import { seededRandom } from '../src/stats/random.js';
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

/** 40 of 400 lost, 20 won: a mean drop of 0.05 that is significant, and 400 queries see a small drop. */
const DETECTING = () => sample(40, 20, 400);
/** The minimum detectable drop of DETECTING's drops for one gate at alpha 0.05, as testedNumbers computes it. */
const detectingMdd = () => minimumDetectableDrop(noiseModel(Float64Array.from(DETECTING(), (d) => -d)), 0.05);

describe('the gates that split alpha', () => {
  it('only tested gates: a plain gate on a paired metric with paired values does not take a share of alpha', () => {
    const config = 'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    min: 0\n';
    const [tested, plain] = evaluateGates(
      gates(config),
      ctx({ 'hit@5': mc(1, 0), 'mrr@10': mc(0.5, 0.5) }, { 'hit@5': sample(8, 0, 8), 'mrr@10': sample(0, 8, 8) }),
    );
    expect(tested.simultaneous_over).toBe(1);
    expect(tested.p_adjusted).toBe(tested.p_value);
    expect(tested.result).toBe('fail');
    expect(plain).toMatchObject({ result: 'pass', note: '' });
    expect(plain.p_value).toBeUndefined();
  });

  it('a tested gate whose runs cannot be compared takes no share either, and is not_comparable', () => {
    const config = 'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n';
    const [hit, mrr] = evaluateGates(
      gates(config),
      ctx(
        { 'hit@5': mc(1, 0), 'mrr@10': mc(0.5, 0.5, { comparable: false }) },
        { 'hit@5': sample(8, 0, 8), 'mrr@10': sample(0, 8, 8) },
      ),
    );
    expect(hit.simultaneous_over).toBe(1);
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

  it('correction: none bounds each gate at alpha; otherwise alpha is split over the tested gates (Bonferroni)', () => {
    const yaml = (c: string) =>
      `correction: ${c}\ngates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n`;
    const c = ctx({ 'hit@5': mc(0.8, 0.75), 'mrr@10': mc(0.5, 0.5) }, { 'hit@5': DETECTING(), 'mrr@10': DETECTING() });
    const drops = Float64Array.from(DETECTING(), (d) => -d);
    const none = evaluateGates(gates(yaml('none')), c)[0];
    const split = evaluateGates(gates(yaml('holm')), c)[0];
    const at = (beta: number) => dropBounds(drops, beta, 1);
    expect(none).toMatchObject({ simultaneous_over: 1, ci: [-at(0.05).upper, -at(0.05).lower] });
    expect(split).toMatchObject({ simultaneous_over: 2, ci: [-at(0.025).upper, -at(0.025).lower] });
    expect(split.p_adjusted).toBe(2 * split.p_value!);
    expect(none.ci_level).toBe(split.ci_level);
    expect(none.ci_level).toBeCloseTo(0.9, 15);
  });

  it("a gate's bounds depend on its own drops and the family's size only, never on another gate's data", () => {
    const yaml = 'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n';
    const hitWith = (mrr: number[]) =>
      evaluateGates(
        gates(yaml),
        ctx({ 'hit@5': mc(0.8, 0.75), 'mrr@10': mc(0.5, 0.5) }, { 'hit@5': DETECTING(), 'mrr@10': mrr }),
      )[0];
    const quiet = hitWith(sample(0, 0, 400));
    const loud = hitWith(sample(200, 0, 400));
    expect(loud.ci).toEqual(quiet.ci);
    expect(loud.p_adjusted).toBe(quiet.p_adjusted);
    expect(loud.result).toBe(quiet.result);
  });

  it("a gate's own margin wins over the config's", () => {
    const [r] = evaluateGates(
      gates('margin: 0.3\ngates:\n  - metric: hit@5\n    margin: 0.05\n'),
      ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': DETECTING() }),
    );
    expect(r.margin).toBe(0.05);
    expect(r.threshold).toBe('drop < 0.0500 (margin) (bounds at α 0.05)');
  });
});

describe("a tested gate's outcome at its edges", () => {
  const marginGate = 'gates:\n  - metric: hit@5\n    margin: 0.1\n';
  /** hit@5's one gate with `margin`, over `diffs`. */
  const at = (margin: number, diffs: number[]) =>
    evaluateGates(withMargin(marginGate, margin), ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': diffs }))[0];

  it('fail when the lower bound of the drop is beyond the margin (8 of 8 lost by 0.5)', () => {
    const [r] = evaluateGates(gates(marginGate), ctx({ 'hit@5': mc(1, 0.5) }, { 'hit@5': new Array(8).fill(-0.5) }));
    const b = dropBounds(Float64Array.from(new Array(8).fill(0.5)), 0.05, 1);
    expect(b.lower).toBeGreaterThan(0.1);
    expect(r.threshold).toBe('drop < 0.1000 (margin) (bounds at α 0.05)');
    expect(r).toMatchObject({ result: 'fail', effect: 'fail', ci: [-b.upper, -b.lower], ci_level: 0.9 });
    expect(r.note).toMatch(
      /^a drop beyond the margin 0\.1000: change between −0\.\d{4} and −0\.\d{4} \(90%; one-sided p /,
    );
  });

  it('fails exactly when the lower bound is above the margin, passes exactly when the upper bound is below it', () => {
    const diffs = sample(80, 20, 400); // a mean drop of 0.15
    const b = dropBounds(
      Float64Array.from(diffs, (d) => -d),
      0.05,
      1,
    );
    expect(at(b.lower, diffs).result).toBe('inconclusive');
    expect(at(b.lower - 1e-9, diffs).result).toBe('fail');
    expect(at(b.upper, diffs).result).toBe('inconclusive');
    expect(at(b.upper + 1e-9, diffs).result).toBe('pass');
  });

  it('a real drop within the margin passes, and the note says it is real', () => {
    const r = at(0.1, DETECTING()); // 40 lost, 20 won of 400: a drop of 0.05, significant
    expect(r).toMatchObject({ result: 'pass', effect: 'none' });
    expect(r.ci![1]).toBeLessThan(0);
    expect(r.note).toMatch(/^a real drop of 0\.0500, within the margin 0\.1000: change between /);
    // The advice is in the JSON of every tested gate (the reports print it for inconclusive gates only).
    expect(r.min_detectable_drop).toBe(detectingMdd());
  });

  it('no drop within the margin: the note says a drop of the margin is ruled out', () => {
    const r = at(0.1, sample(20, 20, 400));
    expect(r.result).toBe('pass');
    expect(r.note).toMatch(/^no drop of the margin 0\.1000 or more: change between −0\.\d{4} and \+0\.\d{4} /);
  });

  it('own thresholds are the margin when the gate sets none: max_drop, max_drop_pct of the baseline, min', () => {
    const own = (yaml: string) =>
      evaluateGates(
        gates(`gates:\n  - metric: hit@5\n${yaml}    significant_only: true\n`),
        ctx({ 'hit@5': mc(0.8, 0.75) }, { 'hit@5': DETECTING() }),
      )[0];
    expect(own('    max_drop: 0.2\n    max_drop_pct: 10\n').margin).toBeCloseTo(0.08, 15);
    expect(own('    min: 0.7\n').margin).toBeCloseTo(0.1, 15);
    expect(own('    max_drop: 0.03\n').margin).toBe(0.03);
  });

  it('margin 0 asks for a gain: pass only on a significant gain, fail on any significant drop', () => {
    expect(at(0, sample(0, 40, 400)).result).toBe('pass');
    expect(at(0, sample(40, 0, 400)).result).toBe('fail');
    expect(at(0, sample(10, 10, 400)).result).toBe('inconclusive');
  });

  it('Student points: within 0.001 of the exact ones from 5 degrees of freedom, odd, increasing', () => {
    // Exact t points (tables): 5, 10, 30 degrees of freedom at 0.05 and 0.0125.
    const exact: Array<[number, number, number]> = [
      [5, 0.05, 2.015],
      [10, 0.05, 1.8125],
      [30, 0.05, 1.6973],
      [10, 0.0125, 2.6338],
      [30, 0.0125, 2.3596],
    ];
    for (const [df, tail, t] of exact)
      expect(Math.abs(studentPoint(normalQuantile(tail), df) - t), `${df} ${tail}`).toBeLessThan(0.001);
    expect(studentPoint(-1.5, 3)).toBe(-studentPoint(1.5, 3));
    for (let z = -5; z < 5; z += 0.25) expect(studentPoint(z + 0.25, 1)).toBeGreaterThan(studentPoint(z, 1));
  });

  it('a small set where nothing changed is not proof: 18 queries are inconclusive at 0.1, 40 pass', () => {
    expect(at(0.1, sample(0, 0, 18)).result).toBe('inconclusive');
    expect(at(0.1, sample(0, 0, 40)).result).toBe('pass');
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
  it('one query that did not change: inconclusive, and the advice says no drop is found, for "1 query"', () => {
    const gate = 'gates:\n  - metric: hit@5\n    margin: 0.2\n';
    const [one] = evaluateGates(gates(gate), ctx({ 'hit@5': mc(0.8, 0.8) }, { 'hit@5': [0] }));
    expect(one).toMatchObject({ result: 'inconclusive', min_detectable_drop: null });
    expect(one.note).toMatch(
      /^inconclusive: a drop of the margin 0\.2000 is neither ruled out nor shown: change between .*; with 1 query no drop is found 80% of the time; on_inconclusive: warn$/,
    );
  });

  it('the primary gate is "primary, not adjusted", bounded at alpha alone', () => {
    const [r] = evaluateGates(
      gates('primary: hit@5\ngates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n'),
      ctx({ 'hit@5': mc(1, 0), 'mrr@10': mc(1, 1) }, { 'hit@5': sample(8, 0, 8), 'mrr@10': sample(0, 0, 8) }),
    );
    expect(r).toMatchObject({ correction: 'primary', simultaneous_over: 1 });
    expect(r.note).toMatch(/\(90%; one-sided p [<0-9. ]+, primary, not adjusted < α 0\.05\)$/);
  });

  it('a Bonferroni-adjusted p that is not below alpha, and the words of an interval simultaneous over 2 tests', () => {
    const config = 'gates:\n  - metric: hit@5\n    margin: 0.1\n  - metric: mrr@10\n    margin: 0.1\n';
    const [r] = evaluateGates(
      gates(config),
      ctx({ 'hit@5': mc(1, 0.9), 'mrr@10': mc(1, 1) }, { 'hit@5': sample(5, 2, 40), 'mrr@10': sample(0, 0, 40) }),
    );
    expect(r.p_adjusted).toBe(Math.min(1, 2 * r.p_value!));
    expect(r.p_adjusted!).toBeGreaterThanOrEqual(0.05);
    expect(r.note).toMatch(
      /\(90%, simultaneous over 2 tests; one-sided p 0\.\d{4}, Bonferroni-adjusted 0\.\d{4} ≥ α 0\.05\)/,
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

describe('testedGates.ts: drops, bounds and the numbers of one gate', () => {
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

  it('the bounds: mean drop plus or minus t standard errors, the variance floored at 2 full steps in n + 1', () => {
    // 5 of 8 lost by 1: mean 0.625, sample variance 15/56; the floor 2/9 is below it.
    const b = dropBounds(Float64Array.from([1, 1, 1, 1, 1, 0, 0, 0]), 0.05, 1);
    const se = Math.sqrt(15 / 56 / 8);
    expect(b.meanDrop).toBe(0.625);
    expect(b.se).toBeCloseTo(se, 15);
    // Student's t with 7 degrees of freedom at 0.05 is 1.8946; ours (Cornish-Fisher) is within 0.002 at 7.
    const t = studentPoint(normalQuantile(0.05), 7);
    expect(Math.abs(t - 1.8946)).toBeLessThan(0.002);
    expect(b.lower).toBeCloseTo(0.625 - t * se, 12);
    expect(b.upper).toBeCloseTo(0.625 + t * se, 12);
    // Nothing changed in 10: the floor 2/11 gives a spread, so the bounds are not [0, 0].
    const still = dropBounds(new Float64Array(10), 0.05, 1);
    expect(still.se).toBeCloseTo(Math.sqrt(2 / 11 / 10), 15);
    expect(still.upper).toBeCloseTo(-still.lower, 15);
    expect(still.pValue).toBeCloseTo(0.5, 7);
    expect(dropBounds(new Float64Array(0), 0.05, 1)).toMatchObject({ n: 0, lower: 0, upper: 0, pValue: 1 });
  });

  it('the p and the bounds agree: lower > 0 exactly when p < beta, over random samples', () => {
    const random = seededRandom(9);
    for (let t = 0; t < 2000; t++) {
      const n = 2 + Math.floor(random() * 60);
      const drops = Float64Array.from({ length: n }, () => Math.round((random() - 0.4) * 4) / 4);
      const beta = [0.05, 0.025, 0.0125][t % 3];
      const b = dropBounds(drops, beta, 1);
      expect(b.lower > 0, `n ${n}`).toBe(b.pValue < beta);
    }
  });

  it('the change interval is the drop bounds negated and turned round when higher is better, as they are when lower', () => {
    const drops = Float64Array.from([1, 1, 1, 1, 1, 0, 0, 0]);
    const up = testedNumbers(drops, { correction: 'holm', size: 2 }, 0.05, 0.1, higher());
    const b = dropBounds(drops, 0.025, 1);
    expect(up.dropBounds).toEqual([b.lower, b.upper]);
    expect(up.ci).toEqual([-b.upper, -b.lower]);
    expect(up.ciLevel).toBeCloseTo(0.9, 15);
    expect(up.pAdjusted).toBe(Math.min(1, 2 * b.pValue));
    expect(up.significant).toBe(b.lower > 0);
    const down = testedNumbers(drops, { correction: 'holm', size: 2 }, 0.05, 0.1, lower);
    expect(down.ci).toEqual([b.lower, b.upper]);
  });

  it('the queries needed only when the detectable drop is above the margin (none at exactly the margin)', () => {
    const drops = Float64Array.from([1, 1, 1, 1, 1, 0, 0, 0]);
    const numbers = (margin: number) => testedNumbers(drops, { correction: 'none', size: 1 }, 0.05, margin, higher());
    const mdd = numbers(0.1).mdd!;
    expect(numbers(0.1).queriesNeeded).toBeGreaterThan(8);
    expect(numbers(mdd).queriesNeeded).toBeNull();
    expect(numbers(1).queriesNeeded).toBeNull();
  });

  it('a p of 0 far out in the tail: the bounds are finite, not NaN', () => {
    const random = seededRandom(4);
    const drops = Float64Array.from({ length: 2500 }, () => 0.5 + (random() - 0.5) * 0.1);
    const t = testedNumbers(drops, { correction: 'holm', size: 2 }, 0.05, 0.1, higher());
    expect(t.pValue).toBe(0);
    expect(t.ci.every(Number.isFinite)).toBe(true);
    expect(t.significant).toBe(true);
  });

  it('no -0 end: an interval end at 0 is 0', () => {
    const t = testedNumbers(Float64Array.from([0, 0]), { correction: 'none', size: 1 }, 0.05, 0.1, {
      ...higher()!,
      unit: 'ms',
    });
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

describe('testedGates.ts at its edges', () => {
  const hit5 = () => defs().get('hit@5');
  const ms = { id: 'latency_ms', direction: 'lower', unit: 'ms', paired: true } as unknown as MetricDef;

  it('nothing to show: an interval end of exactly 0 is no drop shown', () => {
    const still = testedNumbers(Float64Array.from([0, 0, 0]), { correction: 'none', size: 1 }, 0.05, 0.1, ms);
    expect(still.dropBounds).toEqual([0, 0]);
    expect(still.significant).toBe(false);
  });

  it('the advice comes from the noise floor when given, and says so; else from the comparison', () => {
    const drops = Float64Array.from([...new Array(6).fill(1), ...new Array(6).fill(-1), ...new Array(28).fill(0)]);
    const floor = { sd_diff: 0.1, sd_mean: 0.01, changed: 0.01, detects: null };
    const measured = testedNumbers(drops, { correction: 'none', size: 1 }, 0.05, 0.1, hit5(), floor);
    const own = testedNumbers(drops, { correction: 'none', size: 1 }, 0.05, 0.1, hit5());
    expect(measured.adviceFrom).toBe('noise floor');
    expect(own.adviceFrom).toBe('comparison');
    expect(measured.mdd!).toBeLessThan(own.mdd!);
    // The bounds and the outcome do not read the noise floor.
    expect(measured.ci).toEqual(own.ci);
  });

  it('without a metric definition the step is the largest change seen; a non-rate metric likewise', () => {
    const drops = Float64Array.from([0, 0, 0, 5]);
    const largest = dropBounds(drops, 0.05, 5);
    for (const def of [undefined, ms]) {
      const t = testedNumbers(drops, { correction: 'none', size: 1 }, 0.05, 10, def);
      expect(t.dropBounds).toEqual([largest.lower, largest.upper]);
    }
    // The floor of a step of 5 (2 x 25 / 5 = 10) is above the sample variance (6.25): the step matters here.
    expect(largest.se).toBeCloseTo(Math.sqrt(10 / 4), 12);
  });
});

describe("a tested gate's p: one sentence in the note and in the gate table", () => {
  const kinds = [
    ['holm', 'one-sided p 0.0200, Bonferroni-adjusted 0.0800'],
    ['bh', 'one-sided p 0.0200, Bonferroni-adjusted 0.0800'],
    ['none', 'one-sided p 0.0200, not adjusted'],
    ['primary', 'one-sided p 0.0200, primary, not adjusted'],
  ] as const;
  it.each(kinds)('%s', (correction, words) => {
    expect(gatePSentence(0.02, 0.08, correction, 0.05)).toBe(words);
    const row = { p_value: 0.02, p_adjusted: 0.08, correction } as GateResult;
    expect(gatePText(row, 0.05)).toBe(words);
    const numbers = { pValue: 0.02, pAdjusted: 0.08, correction, significant: true } as ReturnType<
      typeof testedNumbers
    >;
    expect(pWords(numbers, 0.05)).toBe(`${words} < α 0.05`);
  });

  it('a gate without a test has no p', () => {
    expect(gatePText({ p_value: undefined } as GateResult, 0.05)).toBe('');
  });
});
