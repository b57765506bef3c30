/**
 * Gate configs (src/gate/config.ts) and their evaluation (src/gate/gates.ts): each threshold at and across its
 * boundary, significant_only, where + min_n, on_no_data, levels and the verdict, presets, count gates, and
 * config errors that name the line and suggest the closest name. Gate contexts are built by hand, so every
 * baseline / candidate value below is the one the gate reads.
 */
import { describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import type { MetricComparison } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import { defaultGateConfig, parseGateConfig, PRESETS } from '../src/gate/config.js';
import { compareCandidateOnly, compareRuns } from '../src/compare/compare.js';
import { applyGates, evaluateGates, verdictOf } from '../src/gate/gates.js';
import type { GateContext } from '../src/gate/gates.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import { chunkQuery, compareAndGate, gates, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';

const defs = new Map(buildMetricTable(DEFAULT_OPTIONS, ['retrieve']).map((d) => [d.id, d]));

function mc(
  baseline: number | null,
  candidate: number | null,
  extra: Partial<MetricComparison> = {},
): MetricComparison {
  const delta = baseline === null || candidate === null ? null : candidate - baseline;
  return {
    baseline,
    candidate,
    delta,
    rel_delta: delta === null || baseline === null || baseline === 0 ? null : delta / baseline,
    n: 100,
    n_baseline: 100,
    n_paired: null,
    p_value: null,
    ci: null,
    significant: null,
    comparable: true,
    ...extra,
  };
}

function ctx(metrics: Record<string, MetricComparison>, extra: Partial<GateContext> = {}): GateContext {
  return {
    defs,
    metrics,
    breakdowns: {},
    groupSizes: {},
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: 0.05,
    ...extra,
  };
}

/** The one gate of `yaml` evaluated in `context`. */
function one(yaml: string, context: GateContext): GateResult {
  const results = evaluateGates(gates(yaml), context);
  expect(results).toHaveLength(1);
  return results[0];
}

function inputError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('thresholds', () => {
  const gate = (metric: string, key: string, x: number) => `gates:\n  - metric: ${metric}\n    ${key}: ${x}\n`;

  it('min: candidate >= x (equal passes)', () => {
    const c = ctx({ 'hit@5': mc(0.9, 0.8) });
    expect(one(gate('hit@5', 'min', 0.8), c)).toMatchObject({
      result: 'pass',
      effect: 'none',
      baseline: 0.9,
      candidate: 0.8,
    });
    // 0.8 < 0.81
    expect(one(gate('hit@5', 'min', 0.81), c)).toMatchObject({ result: 'fail', effect: 'fail' });
  });

  it('max: candidate <= x (equal passes)', () => {
    const c = ctx({ latency_p95_ms: mc(900, 1000) });
    expect(one(gate('latency_p95_ms', 'max', 1000), c).result).toBe('pass');
    expect(one(gate('latency_p95_ms', 'max', 999), c).result).toBe('fail');
  });

  it('max_drop: candidate - baseline >= -x', () => {
    // 0.75 -> 0.625: delta = -0.125
    const c = ctx({ 'hit@5': mc(0.75, 0.625) });
    expect(one(gate('hit@5', 'max_drop', 0.125), c)).toMatchObject({ result: 'pass', delta: -0.125 });
    expect(one(gate('hit@5', 'max_drop', 0.1), c).result).toBe('fail');
    // max_drop: 0 fails on any drop and passes an improvement
    expect(one(gate('hit@5', 'max_drop', 0), c).result).toBe('fail');
    expect(one(gate('hit@5', 'max_drop', 0), ctx({ 'hit@5': mc(0.5, 0.75) })).result).toBe('pass');
  });

  it('max_increase: candidate - baseline <= x', () => {
    // 1000 -> 1250 ms: +250
    const c = ctx({ latency_p95_ms: mc(1000, 1250) });
    expect(one(gate('latency_p95_ms', 'max_increase', 250), c).result).toBe('pass');
    expect(one(gate('latency_p95_ms', 'max_increase', 200), c).result).toBe('fail');
  });

  it('max_drop_pct: (candidate - baseline) / baseline * 100 >= -x', () => {
    // 0.75 -> 0.5625: -0.1875 / 0.75 = -0.25 = -25%
    const c = ctx({ 'hit@5': mc(0.75, 0.5625) });
    expect(one(gate('hit@5', 'max_drop_pct', 25), c).result).toBe('pass');
    expect(one(gate('hit@5', 'max_drop_pct', 20), c).result).toBe('fail');
  });

  it('max_increase_pct: (candidate - baseline) / baseline * 100 <= x', () => {
    // 800 -> 1000 ms: +200 / 800 = +25%
    const c = ctx({ latency_p95_ms: mc(800, 1000) });
    expect(one(gate('latency_p95_ms', 'max_increase_pct', 25), c).result).toBe('pass');
    expect(one(gate('latency_p95_ms', 'max_increase_pct', 24.9), c).result).toBe('fail');
  });

  it('relative thresholds against a baseline of 0: no change passes, any change that way fails', () => {
    expect(one(gate('error_rate', 'max_increase_pct', 50), ctx({ error_rate: mc(0, 0) })).result).toBe('pass');
    // 0 -> 0.01 is an infinite relative increase
    expect(one(gate('error_rate', 'max_increase_pct', 50), ctx({ error_rate: mc(0, 0.01) })).result).toBe('fail');
    expect(one(gate('hit@5', 'max_drop_pct', 10), ctx({ 'hit@5': mc(0, 0.5) })).result).toBe('pass');
  });

  it('several thresholds on one gate must all hold', () => {
    // 0.75 -> 0.7: min 0.6 holds, max_drop 0.02 does not (delta -0.05)
    const r = one('gates:\n  - metric: hit@5\n    min: 0.6\n    max_drop: 0.02\n', ctx({ 'hit@5': mc(0.75, 0.7) }));
    expect(r.result).toBe('fail');
    expect(r.threshold).toContain(' and ');
    expect(r).toMatchObject({ min: 0.6, max_drop: 0.02 });
  });
});

describe('significant_only', () => {
  const yaml = 'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n';

  // Per-query differences of hit@5 for 8 queries; the gate's one-sided test reads them (pairedDiffsOf).
  const diffs = (values: number[]) => ({ pairedDiffsOf: () => Float64Array.from(values) });

  // max_drop 0 is the gate's margin: a margin of 0 fails on any drop shown, and passes only on a gain shown.
  it('a drop that is not shown is inconclusive on 8 queries, and says why', () => {
    const r = one(yaml, ctx({ 'hit@5': mc(0.75, 0.625) }, diffs([-1, 0, 0, 0, 0, 0, 0, 0])));
    expect(r).toMatchObject({ result: 'inconclusive', effect: 'warn', significant_only: true, margin: 0 });
    expect(r.p_value!).toBeGreaterThan(0.05);
    expect(r.note).toMatch(
      /^inconclusive: a drop of the margin 0\.0000 is neither ruled out nor shown: change between /,
    );
    expect(r.note).toMatch(
      /; with 8 queries a drop of 0\.\d{4} or more is found 80% of the time; on_inconclusive: warn$/,
    );
  });

  it('a drop shown beyond the margin 0 fails (8 of 8 lost), its p below alpha and its interval below 0', () => {
    const r = one(yaml, ctx({ 'hit@5': mc(1, 0) }, diffs(new Array(8).fill(-1))));
    expect(r).toMatchObject({ result: 'fail', effect: 'fail' });
    expect(r.p_value!).toBeLessThan(0.05);
    expect(r.p_adjusted).toBe(r.p_value);
    expect(r.ci![1]).toBeLessThan(0);
    expect(r.note).toMatch(
      /^a drop beyond the margin 0\.0000: change between −\d\.\d{4} and −0\.\d{4} \(90%; one-sided p /,
    );
  });

  it('alpha comes from the config: 3 of 8 lost fails at 0.05, not at 0.01', () => {
    const c = (alpha: number) => ctx({ 'hit@5': mc(1, 0.625) }, { ...diffs([-1, -1, -1, 0, 0, 0, 0, 0]), alpha });
    expect(evaluateGates(gates(yaml), c(0.05))[0].result).toBe('fail');
    expect(evaluateGates(gates(`alpha: 0.01\n${yaml}`), c(0.01))[0].result).toBe('inconclusive');
  });

  it('needs a metric with a paired test', () => {
    const message = inputError(() =>
      one(
        'gates:\n  - metric: recall_doc@5\n    max_drop: 0\n    significant_only: true\n',
        ctx({ 'recall_doc@5': mc(1, 0.5) }),
      ),
    );
    expect(message).toMatch(/^gates\.yml:2: `significant_only` needs a metric with a paired test/);
  });

  it("with `where`, tests that group's paired differences (one slice): a drop of 0.4 in 50 queries fails", () => {
    // big group: 0.9 -> 0.5, every loss a hit lost: 20 of its 50 queries
    const asked: unknown[] = [];
    const c = ctx(
      {},
      {
        breakdowns: { category: { big: { 'hit@5': mc(0.9, 0.5) } } },
        groupSizes: { category: { big: 50 } },
        pairedDiffsOf: (id, where) => {
          asked.push([id, where]);
          return where?.value === 'big' ? Float64Array.from({ length: 50 }, (_, i) => (i < 20 ? -1 : 0)) : null;
        },
      },
    );
    const r = one(
      'gates:\n  - metric: hit@5\n    where: { category: big }\n    max_drop: 0\n    significant_only: true\n',
      c,
    );
    expect(asked).toEqual([['hit@5', { key: 'category', value: 'big' }]]);
    expect(r).toMatchObject({ result: 'fail', n_paired: 50, where: { category: 'big' } });
  });
});

describe('where and min_n', () => {
  const c = ctx(
    { 'hit@5': mc(0.9, 0.9) },
    {
      breakdowns: {
        category: { small: { 'hit@5': mc(1, 0.2) }, big: { 'hit@5': mc(0.9, 0.5) } },
        answerable: { unanswerable: { under_refusal_rate: mc(0, 0.5) } },
        tag: { flaky: { 'hit@5': mc(0.8, 0.8) } },
      },
      groupSizes: { category: { small: 5, big: 25 }, answerable: { unanswerable: 20 }, tag: { flaky: 19 } },
    },
  );

  it('a group smaller than min_n (default 20) is informational, not enforced, and says so', () => {
    const r = one('gates:\n  - metric: hit@5\n    where: { category: small }\n    min: 0.8\n', c);
    expect(r).toMatchObject({
      result: 'info',
      effect: 'none',
      where: { category: 'small' },
      baseline: 1,
      candidate: 0.2,
    });
    expect(r.note).toBe('informational: group category=small has 5 queries, fewer than min_n 20; not enforced');
  });

  it('a group no golden query has is no data (fails by default), naming the closest group: a typo never turns a gate off', () => {
    const r = one('gates:\n  - metric: hit@5\n    where: { category: bgi }\n    min: 0.8\n', c);
    expect(r).toMatchObject({
      result: 'no_data',
      effect: 'fail',
      where: { category: 'bgi' },
      baseline: null,
      candidate: null,
    });
    expect(r.note).toBe(
      'no data: no golden query has category=bgi; did you mean `big`? (groups: big, small); on_no_data: fail',
    );
    expect(
      one('gates:\n  - metric: hit@5\n    where: { tag: nope }\n    min: 0.8\n    on_no_data: warn\n', c),
    ).toMatchObject({ result: 'no_data', effect: 'warn' });
  });

  it('a group of at least min_n is enforced (here 25 >= 20)', () => {
    expect(one('gates:\n  - metric: hit@5\n    where: { category: big }\n    min: 0.8\n', c)).toMatchObject({
      result: 'fail',
      candidate: 0.5,
    });
  });

  it('min_n is per gate or top-level; a group of exactly min_n is enforced', () => {
    expect(
      one('gates:\n  - metric: hit@5\n    where: { category: small }\n    min: 0.8\n    min_n: 5\n', c).result,
    ).toBe('fail');
    expect(one('min_n: 5\ngates:\n  - metric: hit@5\n    where: { category: small }\n    min: 0.8\n', c).result).toBe(
      'fail',
    );
    // 19 queries < 20: info even though it would pass
    expect(one('gates:\n  - metric: hit@5\n    where: { tag: flaky }\n    min: 0.5\n', c).result).toBe('info');
  });

  it('where answerable: false reads the unanswerable group', () => {
    const r = one('gates:\n  - metric: under_refusal_rate\n    where: { answerable: false }\n    max: 0.1\n', c);
    expect(r).toMatchObject({ result: 'fail', where: { answerable: false }, candidate: 0.5 });
  });

  it('the overall metric is not read by a where gate', () => {
    // overall hit@5 is 0.9 (would pass min 0.8); the big group is 0.5
    expect(one('gates:\n  - metric: hit@5\n    where: { category: big }\n    min: 0.8\n', c).candidate).toBe(0.5);
  });

  it('with compareRuns: group sizes come from the golden set', () => {
    // 20 queries in category "a" (all hits in both runs), 3 in "b" (hit in the baseline, miss in the candidate)
    const golden = goldenSet([
      ...Array.from({ length: 20 }, (_, i) => chunkQuery(`a${i}`, { category: 'a' })),
      ...Array.from({ length: 3 }, (_, i) => chunkQuery(`b${i}`, { category: 'b' })),
    ]);
    const base = runData(
      'base',
      golden.queries.map((q) => rankedResult(q.id, 1)),
    );
    const cand = runData(
      'cand',
      golden.queries.map((q) => rankedResult(q.id, q.category === 'a' ? 1 : null)),
    );
    const config = gates(
      'gates:\n  - metric: hit@1\n    where: { category: b }\n    min: 1\n  - metric: hit@1\n    where: { category: a }\n    min: 1\n',
    );
    const { report } = compareAndGate(base, cand, golden, config);
    // group b: hit@1 1 -> 0 over 3 queries (< 20): info; group a: 1 -> 1 over 20 queries: enforced, passes
    expect(report.gates.map((g) => [g.result, g.baseline, g.candidate])).toEqual([
      ['info', 1, 0],
      ['pass', 1, 1],
    ]);
    expect(report.gates[0].note).toContain('has 3 queries, fewer than min_n 20');
    expect(report.verdict).toBe('pass');
  });

  it('applyGates adds gates and the verdict to a comparison made without them, at the level it was tested at', () => {
    const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
    const compared = compareRuns(
      runData('b', [rankedResult('q1', 1), rankedResult('q2', 1)]),
      runData('c', [rankedResult('q1', null), rankedResult('q2', 1)]),
      golden,
    );
    expect(Object.keys(compared.report)).not.toContain('gates');
    expect(Object.keys(compared.report)).not.toContain('verdict');
    const { report } = applyGates(compared, gates('gates:\n  - metric: regressions\n    max: 0\n'));
    expect(report.gates.map((g) => [g.metric, g.candidate, g.result])).toEqual([['regressions', 1, 'fail']]);
    expect(report.verdict).toBe('fail');
    expect(report.metrics).toBe(compared.report.metrics);
    // The gates test at the comparison's level (settingsOf gives the comparison the config's alpha), so ▲ / ▼ and a
    // tested gate cannot disagree: a config handed over directly does not move it.
    const atItsLevel = applyGates(compared, gates('alpha: 0.01\ngates:\n  - metric: hit@5\n    margin: 0.5\n'));
    expect(atItsLevel.report.gates[0].threshold).toBe('drop < 0.5000 (margin) (bounds at α 0.05)');
  });
});

describe('on_no_data', () => {
  // judge_correctness_mean is null on the candidate side: no query has a judge score
  const c = ctx({ judge_correctness_mean: mc(4, null), 'hit@5': mc(null, 0.5) });

  it('defaults to fail: a gate on a null metric never passes silently', () => {
    const r = one('gates:\n  - metric: judge_correctness_mean\n    min: 3\n', c);
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(r.note).toContain('candidate value is null');
  });

  it('warn and pass', () => {
    expect(one('gates:\n  - metric: judge_correctness_mean\n    min: 3\n    on_no_data: warn\n', c)).toMatchObject({
      result: 'no_data',
      effect: 'warn',
    });
    expect(one('gates:\n  - metric: judge_correctness_mean\n    min: 3\n    on_no_data: pass\n', c)).toMatchObject({
      result: 'no_data',
      effect: 'none',
    });
  });

  it('a baseline null matters only to thresholds that read the baseline', () => {
    const drop = one('gates:\n  - metric: hit@5\n    max_drop: 0.1\n', c);
    expect(drop).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(drop.note).toContain('baseline value is null');
    // min reads the candidate only: 0.5 >= 0.4
    expect(one('gates:\n  - metric: hit@5\n    min: 0.4\n', c).result).toBe('pass');
  });

  it('a warn-level gate with no data warns at most', () => {
    expect(one('gates:\n  - metric: judge_correctness_mean\n    min: 3\n    level: warn\n', c)).toMatchObject({
      result: 'no_data',
      effect: 'warn',
    });
  });

  it('a group that does not exist, with min_n 0, is no data', () => {
    expect(
      one('gates:\n  - metric: hit@5\n    where: { category: nowhere }\n    min: 0.5\n    min_n: 0\n', c),
    ).toMatchObject({ result: 'no_data', effect: 'fail' });
  });
});

describe('levels and the verdict', () => {
  const c = ctx({ 'hit@5': mc(0.75, 0.5), 'hit@1': mc(0.5, 0.5) });

  it('a failing warn-level gate warns', () => {
    expect(one('gates:\n  - metric: hit@5\n    min: 0.9\n    level: warn\n', c)).toMatchObject({
      result: 'warn',
      effect: 'warn',
      level: 'warn',
    });
  });

  it('fail if an error-level gate fails; warn if only warn-level ones do; pass otherwise', () => {
    const passing = '  - metric: hit@1\n    min: 0.5\n';
    const warning = '  - metric: hit@5\n    min: 0.9\n    level: warn\n';
    const failing = '  - metric: hit@5\n    max_drop: 0.1\n';
    expect(verdictOf(evaluateGates(gates(`gates:\n${passing}`), c))).toBe('pass');
    expect(verdictOf(evaluateGates(gates(`gates:\n${passing}${warning}`), c))).toBe('warn');
    expect(verdictOf(evaluateGates(gates(`gates:\n${passing}${warning}${failing}`), c))).toBe('fail');
    expect(verdictOf([])).toBe('pass');
  });

  it('info, not_comparable and on_no_data: pass do not change the verdict', () => {
    const c2 = ctx(
      { judge_correctness_mean: mc(4.5, 2, { comparable: false }), timeout_rate: mc(null, null) },
      {
        breakdowns: { category: { x: { 'hit@5': mc(1, 0) } } },
        groupSizes: { category: { x: 2 } },
      },
    );
    const results = evaluateGates(
      gates(`gates:
  - metric: judge_correctness_mean
    min: 4
  - metric: timeout_rate
    max: 0
    on_no_data: pass
  - metric: hit@5
    where: { category: x }
    min: 1
`),
      c2,
    );
    expect(results.map((r) => r.result)).toEqual(['not_comparable', 'no_data', 'info']);
    expect(verdictOf(results)).toBe('pass');
  });
});

describe('not comparable (judge settings differ)', () => {
  it('a judge metric marked not comparable is shown, not gated', () => {
    // 4.5 -> 2 would fail min 4
    const r = one(
      'gates:\n  - metric: judge_correctness_mean\n    min: 4\n',
      ctx({ judge_correctness_mean: mc(4.5, 2, { comparable: false }) }),
    );
    expect(r).toMatchObject({ result: 'not_comparable', effect: 'none', baseline: 4.5, candidate: 2 });
    expect(r.note).toContain('judge settings differ');
  });
});

describe('count gates', () => {
  const c = ctx({}, { counts: { win: 4, loss: 1, draw: 10, regression: 3, answer_regression: 2 } });

  it('regressions: the number of per-query regressions against min / max', () => {
    expect(one('gates:\n  - metric: regressions\n    max: 0\n', c)).toMatchObject({
      result: 'fail',
      effect: 'fail',
      candidate: 3,
      baseline: null,
    });
    expect(one('gates:\n  - metric: regressions\n    max: 3\n', c).result).toBe('pass');
    expect(one('gates:\n  - metric: regressions\n    max: 2\n    level: warn\n', c)).toMatchObject({
      result: 'warn',
      effect: 'warn',
    });
    expect(one('gates:\n  - metric: wins\n    min: 4\n', c).result).toBe('pass');
    expect(one('gates:\n  - metric: losses\n    max: 0\n', c)).toMatchObject({ result: 'fail', candidate: 1 });
    expect(one('gates:\n  - metric: answer_regressions\n    max: 1\n', c)).toMatchObject({
      result: 'fail',
      candidate: 2,
    });
  });

  it('a count gate takes no baseline thresholds and no where', () => {
    expect(inputError(() => one('gates:\n  - metric: regressions\n    max_drop: 0\n', c))).toMatch(
      /^gates\.yml:2: `regressions` is a count/,
    );
    expect(
      inputError(() => one('gates:\n  - metric: regressions\n    where: { category: x }\n    max: 0\n', c)),
    ).toMatch(/use min or max, without where/);
  });
});

describe('presets', () => {
  it("retrieval: tested gates on hit@5, mrr@10, nDCG@10, recall@10 at the config's margin", () => {
    const config = gates('preset: retrieval\n');
    expect(config.gates.map((g) => [g.metric, g.thresholds, g.significantOnly, g.level, g.origin])).toEqual([
      ['hit@5', {}, true, 'error', 'preset retrieval'],
      ['mrr@10', {}, true, 'error', 'preset retrieval'],
      ['nDCG@10', {}, true, 'error', 'preset retrieval'],
      ['recall@10', {}, true, 'error', 'preset retrieval'],
    ]);
    expect(config.margin).toBe(0.1);
  });

  it("rag-answers: WFGY's G1-G5 (G4 over answerable questions; no data as WFGY's 0.0: min fails, max passes)", () => {
    const config = gates('preset: rag-answers\n');
    expect(config.gates.map((g) => [g.metric, g.thresholds, g.onNoData])).toEqual([
      ['answer_precision', { min: 0.8 }, 'fail'],
      ['under_refusal_rate', { max: 0.05 }, 'pass'],
      ['over_refusal_rate', { max: 0.25 }, 'pass'],
      ['attribution_hit_rate', { min: 0.75 }, 'fail'],
      ['citation_schema_compliance', { min: 0.98 }, 'fail'],
    ]);
    // every preset metric exists in the metric table
    for (const g of Object.values(PRESETS).flat()) expect(defs.has(g.metric), g.metric).toBe(true);
  });

  it('presets combine with each other and with gates', () => {
    const config = gates('presets: [retrieval, rag-answers]\nmin_n: 30\ngates:\n  - metric: regressions\n    max: 0\n');
    expect(config.gates).toHaveLength(4 + 5 + 1);
    expect(config.gates.every((g) => g.minN === 30)).toBe(true);
    // rag-answers' max gates pass without data, as WFGY's 0.0 does; every other gate fails
    expect(config.gates.filter((g) => g.onNoData !== 'fail').map((g) => g.metric)).toEqual([
      'under_refusal_rate',
      'over_refusal_rate',
    ]);
    expect(config.gates[9]).toMatchObject({ metric: 'regressions', origin: 'gates.yml:4', line: 4 });
  });

  it('the built-in default is the retrieval preset alone, Holm-corrected, margin 0.1, on_inconclusive warn', () => {
    const config = defaultGateConfig();
    expect(config.gates.map((g) => `${g.metric}:${g.level}`)).toEqual([
      'hit@5:error',
      'mrr@10:error',
      'nDCG@10:error',
      'recall@10:error',
    ]);
    expect(config).toMatchObject({
      alpha: 0.05,
      margin: 0.1,
      correction: 'holm',
      onInconclusive: 'warn',
      primary: null,
    });
  });

  it('an empty config has no gates', () => {
    expect(parseGateConfig('', 'empty.yml')).toMatchObject({ source: 'empty.yml', alpha: 0.05, gates: [] });
  });
});

describe('config errors name the line and suggest the closest name', () => {
  const c = ctx({});

  it('a metric typo: `nDGC@10` -> did you mean `nDCG@10`', () => {
    const yaml = 'alpha: 0.05\ngates:\n  - metric: hit@5\n    min: 0.8\n  - metric: nDGC@10\n    max_drop: 0.02\n';
    //            line 1       line 2   line 3              line 4       line 5 (the gate)
    expect(inputError(() => evaluateGates(gates(yaml), c))).toMatch(
      /^gates\.yml:5: unknown metric `nDGC@10`; did you mean `nDCG@10`\?/,
    );
  });

  it('`hit@50` -> a nearest id (hit@5 and hit@10 are both one edit away)', () => {
    expect(inputError(() => evaluateGates(gates('gates:\n  - metric: hit@50\n    min: 1\n'), c))).toMatch(
      /^gates\.yml:2: unknown metric `hit@50`; did you mean `hit@(5|10)`\?/,
    );
  });

  it('a name far from every metric gets no suggestion', () => {
    const message = inputError(() => evaluateGates(gates('gates:\n  - metric: banana_split_ratio\n    min: 1\n'), c));
    expect(message).toMatch(/^gates\.yml:2: unknown metric `banana_split_ratio`/);
    expect(message).not.toContain('did you mean');
  });

  it('an unknown gate key on line 6: `max_dorp` -> `max_drop`', () => {
    const yaml = 'gates:\n  - metric: hit@5\n    min: 0.8\n\n  - metric: mrr@10\n    max_dorp: 0.02\n';
    expect(inputError(() => gates(yaml))).toBe('gates.yml:6: unknown gate key `max_dorp`; did you mean `max_drop`?');
  });

  it('an unknown top-level key, preset and where key', () => {
    expect(inputError(() => gates('alpha: 0.05\ngate:\n  - metric: hit@5\n    min: 1\n'))).toMatch(
      /^gates\.yml:3: unknown key `gate`; did you mean `gates`\?/,
    );
    expect(inputError(() => gates('preset: retreival\n'))).toMatch(
      /^gates\.yml:1: unknown preset "retreival"; did you mean `retrieval`\?/,
    );
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n    where: { categroy: x }\n    min: 1\n'))).toMatch(
      /^gates\.yml:3: `where` key `categroy` is not one of .*; did you mean `category`\?/,
    );
  });

  it('bad values name their line', () => {
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n    min: high\n'))).toBe(
      'gates.yml:3: `min` must be a number, got "high"',
    );
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n    min: 1\n    level: fatal\n'))).toBe(
      'gates.yml:4: `level` must be error or warn, got "fatal"',
    );
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n    min: 1\n    on_no_data: ignore\n'))).toMatch(
      /^gates\.yml:4: `on_no_data` must be fail, warn or pass/,
    );
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n    min: 1\n    min_n: -1\n'))).toMatch(
      /^gates\.yml:4: `min_n` must be a whole number/,
    );
    expect(
      inputError(() => gates('gates:\n  - metric: hit@5\n    min: 1\n    significant_only: yes please\n')),
    ).toMatch(/^gates\.yml:4: `significant_only` must be true or false/);
    expect(inputError(() => gates('gates:\n  - metric: hit@5\n'))).toMatch(
      /^gates\.yml:2: gate on `hit@5` has no threshold/,
    );
    expect(inputError(() => gates('alpha: 2\n'))).toMatch(
      /^gates\.yml:1: `alpha` must be a number above 0 and at most 0.5/,
    );
    expect(inputError(() => gates('gates:\n  - min: 1\n'))).toMatch(/^gates\.yml:2: a gate needs `metric`/);
  });

  it('invalid YAML names line and column', () => {
    expect(inputError(() => gates('gates:\n  - metric: [hit@5\n    min: 1\n'))).toMatch(
      /^gates\.yml:\d+:\d+: invalid YAML/,
    );
  });

  it('every error from a real compare is an InputError too (exit 2 in the CLI)', () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const run = runData('r', [rankedResult('q1', 1)]);
    expect(() => compareAndGate(run, run, golden, gates('gates:\n  - metric: nDGC@10\n    min: 0\n'))).toThrow(
      InputError,
    );
  });
});

describe('gate results carry what the report shows', () => {
  it('threshold text, where, line and p_value', () => {
    const c = ctx(
      { 'hit@5': mc(0.75, 0.625, { p_value: 0.5 }) },
      {
        breakdowns: { category: { x: { 'hit@5': mc(1, 1) } } },
        groupSizes: { category: { x: 30 } },
      },
    );
    const [a, b] = evaluateGates(
      gates(
        'gates:\n  - metric: hit@5\n    min: 0.5\n  - metric: hit@5\n    where: { category: x }\n    max_drop_pct: 5\n',
      ),
      c,
    );
    // a gate without a test has no p-value (issue 34)
    expect(a).toMatchObject({ metric: 'hit@5', line: 2, threshold: '≥ 0.5000', level: 'error' });
    expect(a.p_value).toBeUndefined();
    // where gates have no p-value (no paired test per group)
    expect(b).toMatchObject({ line: 4, threshold: 'drop ≤ 5%', where: { category: 'x' } });
    expect(b.p_value).toBeUndefined();
    const report: Pick<CompareReport, 'gates'> = { gates: [a, b] };
    expect(verdictOf(report.gates)).toBe('pass');
  });

  it('thresholds are written in the metric unit: counts and milliseconds without decimals', () => {
    const c = ctx({ latency_p95_ms: mc(1000, 1100) });
    const [count, ms] = evaluateGates(
      gates(
        'gates:\n  - metric: regressions\n    max: 0\n  - metric: latency_p95_ms\n    max_increase: 250\n    max: 1500\n',
      ),
      c,
    );
    expect(count.threshold).toBe('≤ 0');
    expect(ms.threshold).toBe('≤ 1500 and increase ≤ 250');
  });
});

describe('a zero baseline, no paired values, both count bounds and the groups a gate reads', () => {
  it('max_drop_pct and max_increase_pct at a zero baseline with no change pass (0 / 0 is not a drop)', () => {
    // 0 -> 0: delta 0; dividing by the baseline would give NaN, and NaN >= -x is false
    expect(one('gates:\n  - metric: hit@5\n    max_drop_pct: 10\n', ctx({ 'hit@5': mc(0, 0) }))).toMatchObject({
      result: 'pass',
      effect: 'none',
      delta: 0,
    });
    expect(
      one('gates:\n  - metric: error_rate\n    max_increase_pct: 10\n', ctx({ error_rate: mc(0, 0) })),
    ).toMatchObject({ result: 'pass', effect: 'none', delta: 0 });
  });

  it('significant_only crossed with no paired values is no data under on_no_data, never a fail or a pass', () => {
    // 0.75 -> 0.625 crosses max_drop 0; p_value null: no query has a value in both runs
    const c = ctx({ 'hit@5': mc(0.75, 0.625, { p_value: null }) });
    const yaml = (onNoData: string) =>
      `gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n    on_no_data: ${onNoData}\n`;
    expect(one(yaml('pass'), c)).toMatchObject({ result: 'no_data', effect: 'none' });
    expect(one(yaml('warn'), c)).toMatchObject({ result: 'no_data', effect: 'warn' });
    expect(one(yaml('fail'), c)).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(one(yaml('pass'), c).note).toBe(
      'no data: no query has a value in both runs, so the paired test cannot run; on_no_data: pass',
    );
  });

  it('a count gate with min and max fails when either one is violated (3 regressions)', () => {
    const c = ctx({}, { counts: { win: 0, loss: 0, draw: 0, regression: 3, answer_regression: 0 } });
    // min 1 holds, max 2 does not
    expect(one('gates:\n  - metric: regressions\n    min: 1\n    max: 2\n', c)).toMatchObject({
      result: 'fail',
      effect: 'fail',
      candidate: 3,
    });
    // max 10 holds, min 4 does not
    expect(one('gates:\n  - metric: regressions\n    min: 4\n    max: 10\n', c).result).toBe('fail');
    // 3 <= 3 <= 3: both hold
    expect(one('gates:\n  - metric: regressions\n    min: 3\n    max: 3\n', c).result).toBe('pass');
  });

  it('where answerable: true / false is reported as the boolean and reads that group, never the string group name', () => {
    const c = ctx(
      {},
      {
        breakdowns: {
          answerable: { answerable: { 'hit@5': mc(0.9, 0.85) }, unanswerable: { 'hit@5': mc(0.5, 0.25) } },
        },
        groupSizes: { answerable: { answerable: 30, unanswerable: 30 } },
      },
    );
    const yes = one('gates:\n  - metric: hit@5\n    where: { answerable: true }\n    min: 0.8\n', c);
    // the answerable group: 0.85 >= 0.8
    expect(yes).toMatchObject({ result: 'pass', candidate: 0.85 });
    expect(yes.where).toStrictEqual({ answerable: true });
    const no = one('gates:\n  - metric: hit@5\n    where: { answerable: false }\n    min: 0.8\n', c);
    // the unanswerable group: 0.25 < 0.8
    expect(no).toMatchObject({ result: 'fail', candidate: 0.25 });
    expect(no.where).toStrictEqual({ answerable: false });
  });

  it('a no-data note lists the known groups, sorted, up to 12 (13 are too many to list; none lists nothing)', () => {
    const sizes = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`g${String(n - i).padStart(2, '0')}`, 25]));
    const yaml = 'gates:\n  - metric: hit@5\n    where: { category: nowhere-at-all }\n    min: 0.5\n';
    const note = (groupSizes: GateContext['groupSizes']) => one(yaml, ctx({}, { groupSizes })).note;
    // inserted g12 ... g01, listed g01 ... g12
    expect(note({ category: sizes(12) })).toBe(
      'no data: no golden query has category=nowhere-at-all (groups: g01, g02, g03, g04, g05, g06, g07, g08, g09, g10, g11, g12); on_no_data: fail',
    );
    expect(note({ category: sizes(13) })).toBe(
      'no data: no golden query has category=nowhere-at-all; on_no_data: fail',
    );
    // no query has any category: nothing to list, not an empty "(groups: )"
    expect(note({ tag: { x: 25 } })).toBe('no data: no golden query has category=nowhere-at-all; on_no_data: fail');
  });
});

describe('the threshold tolerance, thresholds in words, no data and the notes of passing gates', () => {
  it('the threshold tolerance is 1e-12 inclusive: exactly x - 1e-12 meets min, exactly x + 1e-12 meets max', () => {
    // the tolerance absorbs float noise; these values are computed the way meets() computes its bounds
    const gate = (yaml: string, m: MetricComparison) =>
      one(`gates:\n  - metric: hit@5\n${yaml}`, ctx({ 'hit@5': m })).result;
    expect(gate('    min: 0.5\n', mc(null, 0.5 - 1e-12))).toBe('pass');
    expect(gate('    min: 0.5\n', mc(null, 0.5 - 1e-11))).toBe('fail');
    expect(gate('    max: 0.5\n', mc(null, 0.5 + 1e-12))).toBe('pass');
    expect(gate('    max: 0.5\n', mc(null, 0.5 + 1e-11))).toBe('fail');
    // from a baseline of 0 the delta is the candidate itself
    expect(gate('    max_drop: 0.25\n', mc(0, -0.25 - 1e-12))).toBe('pass');
    expect(gate('    max_drop: 0.25\n', mc(0, -0.25 - 1e-11))).toBe('fail');
    expect(gate('    max_increase: 0.25\n', mc(0, 0.25 + 1e-12))).toBe('pass');
    expect(gate('    max_increase: 0.25\n', mc(0, 0.25 + 1e-11))).toBe('fail');
    // relative thresholds at a baseline of 0: a change within the tolerance is no change
    expect(gate('    max_drop_pct: 5\n', mc(0, -1e-12))).toBe('pass');
    expect(gate('    max_drop_pct: 5\n', mc(0, -1e-11))).toBe('fail');
    expect(gate('    max_increase_pct: 5\n', mc(0, 1e-12))).toBe('pass');
    expect(gate('    max_increase_pct: 5\n', mc(0, 1e-11))).toBe('fail');
    // relative thresholds: a percentage exactly at x + 1e-12 still meets x (the bound is inclusive). 1 -> 0.75 is
    // -25% to the last bit and -24.999999999999 - 1e-12 is -25 in doubles; likewise 0.48 -> 0.6 and +25%.
    expect(gate('    max_drop_pct: 24.999999999999\n', mc(1, 0.75))).toBe('pass');
    expect(gate('    max_drop_pct: 24.99999999999\n', mc(1, 0.75))).toBe('fail');
    expect(gate('    max_increase_pct: 24.999999999999\n', mc(0.48, 0.6))).toBe('pass');
    expect(gate('    max_increase_pct: 24.99999999999\n', mc(0.48, 0.6))).toBe('fail');
  });

  it('every threshold is written in words: drop, increase, and the percentages with a % sign', () => {
    const c = ctx({ latency_p95_ms: mc(1000, 1000), 'hit@5': mc(0.5, 0.5) });
    const text = (yaml: string) => one(`gates:\n${yaml}`, c).threshold;
    expect(text('  - metric: latency_p95_ms\n    max_drop: 20\n')).toBe('drop ≤ 20');
    expect(text('  - metric: hit@5\n    max_drop: 0.02\n')).toBe('drop ≤ 0.0200');
    expect(text('  - metric: latency_p95_ms\n    max_increase_pct: 15\n')).toBe('increase ≤ 15%');
    expect(text('  - metric: hit@5\n    max_drop_pct: 2.5\n')).toBe('drop ≤ 2.5%');
    expect(text('  - metric: hit@5\n    min: 0.4\n    max_drop: 0\n    significant_only: true\n')).toBe(
      '≥ 0.4000 and drop ≤ 0.0000 (bounds at α 0.05)',
    );
  });

  it('a gate with min and a baseline threshold is no data when the baseline is null, though min alone holds', () => {
    const r = one('gates:\n  - metric: hit@5\n    min: 0.5\n    max_drop: 0.1\n', ctx({ 'hit@5': mc(null, 0.9) }));
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(r.note).toBe('no data: baseline value is null (zero denominator); on_no_data: fail');
  });

  it('significant_only on a count metric is a config error naming the paired metrics, not a crash', () => {
    const message = inputError(() =>
      one('gates:\n  - metric: regressions\n    max: 0\n    significant_only: true\n', ctx({})),
    );
    expect(message).toBe(
      'gates.yml:2: `significant_only` needs a metric with a paired test (hit@1, hit@3, hit@5, hit@10, mrr@10, rr, recall@1, recall@3, recall@5, recall@10, nDCG@1, nDCG@3, nDCG@5, nDCG@10, groundedness, refusal_correctness); `regressions` has none',
    );
  });

  it('a passing count gate has effect none and an empty note', () => {
    const c = ctx({}, { counts: { win: 2, loss: 0, draw: 1, regression: 0, answer_regression: 0 } });
    expect(one('gates:\n  - metric: regressions\n    max: 0\n', c)).toMatchObject({
      result: 'pass',
      effect: 'none',
      note: '',
      baseline: null,
      delta: null,
      candidate: 0,
    });
  });

  it('a passing gate without significant_only has an empty note', () => {
    expect(one('gates:\n  - metric: hit@5\n    min: 0.5\n', ctx({ 'hit@5': mc(0.6, 0.7) })).note).toBe('');
  });

  it('significant_only without paired values is no data even with no crossing: it cannot rule a drop out', () => {
    const r = one(
      'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n',
      ctx({ 'hit@5': mc(0.5, 0.75, { p_value: null }) }),
    );
    expect(r).toMatchObject({ result: 'no_data', effect: 'fail' });
  });

  it('a small group is informational with its values, or nulls when the group has no value for the metric', () => {
    const yaml = 'gates:\n  - metric: hit@5\n    where: { category: tiny }\n    min: 0.5\n';
    const withValue = one(
      yaml,
      ctx(
        {},
        { breakdowns: { category: { tiny: { 'hit@5': mc(0.5, 0.75) } } }, groupSizes: { category: { tiny: 1 } } },
      ),
    );
    expect(withValue).toMatchObject({ result: 'info', effect: 'none', baseline: 0.5, candidate: 0.75, delta: 0.25 });
    // one query: "1 query", not "1 queries"
    expect(withValue.note).toBe('informational: group category=tiny has 1 query, fewer than min_n 20; not enforced');
    const noValue = one(yaml, ctx({}, { breakdowns: {}, groupSizes: { category: { tiny: 3 } } }));
    expect(noValue).toMatchObject({ result: 'info', baseline: null, candidate: null, delta: null });
    expect(noValue.note).toBe('informational: group category=tiny has 3 queries, fewer than min_n 20; not enforced');
  });
});

describe('gates of a candidate-only report, in process', () => {
  const golden = goldenSet([chunkQuery('q1', { category: 'a' }), chunkQuery('q2', { category: 'a' })]);
  // the candidate finds q1 at rank 1 and misses q2: hit@1 = 1/2
  const candidate = () => runData('c', [rankedResult('q1', 1), rankedResult('q2', null)]);
  const gated = (config: string) => {
    const g = gates(config);
    return applyGates(compareCandidateOnly(candidate(), golden, { alpha: g.alpha }), g).report.gates;
  };

  it('min and max apply to the candidate; a delta gate and a count gate have no data, named as such', () => {
    const [min, drop, count] = gated(
      'gates:\n  - metric: hit@1\n    min: 0.4\n  - metric: hit@1\n    max_drop: 0.1\n  - metric: regressions\n    max: 0\n',
    );
    expect(min).toMatchObject({ result: 'pass', candidate: 0.5, baseline: null });
    for (const g of [drop, count]) {
      expect(g).toMatchObject({ result: 'no_data', baseline: null, delta: null });
      expect(g.note).toBe('no baseline: a candidate-only report has nothing to compare with; on_no_data: fail');
    }
    // the delta gate still shows the candidate's value; a count has none without a baseline
    expect(drop.candidate).toBe(0.5);
    expect(count.candidate).toBeNull();
  });

  it('on_no_data: pass takes such a gate out of the verdict; a gate on a group shows no candidate value', () => {
    const [drop, grouped] = gated(
      'gates:\n  - metric: hit@1\n    max_drop: 0.1\n    on_no_data: pass\n  - metric: hit@1\n    where: { category: a }\n    max_drop: 0.1\n',
    );
    expect(drop).toMatchObject({ result: 'no_data', effect: 'none' });
    expect(drop.note).toMatch(/on_no_data: pass$/);
    expect(grouped).toMatchObject({ result: 'no_data', candidate: null, effect: 'fail' });
  });

  it('with a baseline the same delta gate is evaluated (the report has one)', () => {
    const g = gates('gates:\n  - metric: hit@1\n    max_drop: 0.1\n');
    const base = runData('b', [rankedResult('q1', 1), rankedResult('q2', 1)]);
    const [drop] = applyGates(compareRuns(base, candidate(), golden, { alpha: g.alpha }), g).report.gates;
    // 1 -> 0.5: a drop of 0.5 fails max_drop 0.1
    expect(drop).toMatchObject({ result: 'fail', baseline: 1, candidate: 0.5 });
  });
});
