/**
 * gates.ts at its edges (the mutation run of issue 45): a tested gate's margin from each kind of its own threshold,
 * its threshold's words, the advice read from the config's noise block, the signs of an interval's ends, and the
 * check `evalverdict power` runs before any comparison. Contexts are built by hand, as in testedGates.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import type { MetricComparison } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import { checkGates, evaluateGates } from '../src/gate/gates.js';
import { boundsWords, detectText } from '../src/gate/gateWords.js';
import type { GateContext } from '../src/gate/gates.js';
import type { TestedNumbers } from '../src/gate/testedGates.js';
import { gates } from './helpers/compareFixtures.js';

const table = () => buildMetricTable(DEFAULT_OPTIONS, ['retrieve']);

function mc(baseline: number, candidate: number): MetricComparison {
  return {
    baseline,
    candidate,
    delta: candidate - baseline,
    rel_delta: (candidate - baseline) / baseline,
    n: 40,
    n_baseline: 40,
    n_paired: null,
    p_value: null,
    ci: null,
    significant: null,
    comparable: true,
  };
}

/** One metric, hit@5, at `baseline` and `candidate`, with `losses` of 40 queries lost by a hit and `wins` won. */
function ctx(baseline: number, candidate: number, losses: number, wins: number): GateContext {
  const diffs = [...new Array(losses).fill(-1), ...new Array(wins).fill(1), ...new Array(40 - losses - wins).fill(0)];
  return {
    defs: new Map(table().map((d) => [d.id, d])),
    metrics: { 'hit@5': mc(baseline, candidate) },
    breakdowns: {},
    groupSizes: {},
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: 0.05,
    pairedDiffsOf: (id) => (id === 'hit@5' ? Float64Array.from(diffs) : null),
  };
}

/** The first gate of a config whose default margin (0.5) no threshold below gives. */
const gateOf = (yaml: string, context = ctx(0.8, 0.75, 4, 2)) =>
  evaluateGates(gates(`margin: 0.5\ngates:\n  - metric: hit@5\n${yaml}`), context)[0];

describe("a tested gate's margin from its own thresholds, against a baseline of 0.8", () => {
  it('each kind of threshold: the drop it allows', () => {
    const margin = (threshold: string) => gateOf(`    ${threshold}\n    significant_only: true\n`).margin;
    expect(margin('max_drop: 0.03')).toBe(0.03);
    expect(margin('max_increase: 0.04')).toBe(0.04);
    expect(margin('max_drop_pct: 10')).toBeCloseTo(0.08, 15);
    expect(margin('max_increase_pct: 5')).toBeCloseTo(0.04, 15);
    expect(margin('min: 0.7')).toBeCloseTo(0.1, 15);
    expect(margin('max: 0.9')).toBeCloseTo(0.1, 15);
  });

  it('the smallest of several', () => {
    expect(gateOf('    min: 0.6\n    max: 0.85\n    significant_only: true\n').margin).toBeCloseTo(0.05, 15);
  });
});

describe("a tested gate's threshold in words", () => {
  it('its own margin, whether or not it has thresholds too; else its thresholds', () => {
    expect(gateOf('    margin: 0.05\n').threshold).toBe('drop < 0.0500 (margin) (bounds at α 0.05)');
    expect(gateOf('    margin: 0.05\n    max_drop: 0.02\n').threshold).toBe(
      'drop < 0.0500 (margin) (bounds at α 0.05)',
    );
    expect(gateOf('    max_drop: 0.02\n    significant_only: true\n').threshold).toBe(
      'drop ≤ 0.0200 (bounds at α 0.05)',
    );
  });
});

describe("the advice of an inconclusive gate reads the config's noise block", () => {
  const noise = (metric: string) =>
    `noise:\n  measured: "2026-11-28T00:00:00Z"\n  runs: 3\n  metrics:\n    ${metric}: { sd_diff: 0.1, sd_mean: 0.01, changed: 0.01, detects: null }\n`;
  const gate = (yaml: string) =>
    evaluateGates(gates(`${yaml}gates:\n  - metric: hit@5\n    margin: 0.1\n`), ctx(0.8, 0.75, 6, 6))[0];

  it("the metric's own floor: its detectable drop, and the note says where it came from", () => {
    const measured = gate(noise('hit@5'));
    const own = gate('');
    expect(measured.result).toBe('inconclusive');
    expect(measured.min_detectable_drop!).toBeLessThan(own.min_detectable_drop!);
    expect(measured.note).toMatch(/ or more is found 80% of the time \(at the noise the config records\); on_incon/);
    expect(own.note).toMatch(/ or more is found 80% of the time; on_inconclusive: warn$/);
  });

  it("another metric's floor is not this gate's", () => {
    // the noise block moves the gate's line only
    expect({ ...gate(noise('mrr@10')), line: 0 }).toEqual({ ...gate(''), line: 0 });
  });
});

/** Numbers of one tested gate, as tested.ts gives them, with the fields the words read set by the test. */
function numbers(fields: Partial<TestedNumbers>): TestedNumbers {
  return {
    pValue: 0.5,
    meanDrop: 0,
    pAdjusted: 0.5,
    correction: 'none',
    dropBounds: [-0.1, 0.1],
    ci: [-0.1, 0.1],
    ciLevel: 0.9,
    simultaneousOver: 1,
    significant: false,
    margin: 0.1,
    mdd: 0.2,
    queriesNeeded: null,
    adviceFrom: 'comparison',
    nPaired: 40,
    ...fields,
  };
}

describe('the words of the numbers', () => {
  it('an interval end of 0 is +0, a negative end has a minus sign', () => {
    expect(boundsWords(numbers({ ci: [0, 0.25] }), 0.05, undefined)).toMatch(
      /^change between \+0\.0000 and \+0\.2500 /,
    );
    expect(boundsWords(numbers({ ci: [-0.25, 0] }), 0.05, undefined)).toMatch(
      /^change between −0\.2500 and \+0\.0000 /,
    );
  });

  it('the advice names the noise floor only when it came from it', () => {
    expect(detectText(numbers({ adviceFrom: 'noise floor' }), undefined)).toBe(
      'with 40 queries a drop of 0.2000 or more is found 80% of the time (at the noise the config records)',
    );
    expect(detectText(numbers({ adviceFrom: 'noise floor', mdd: null, nPaired: 1 }), undefined)).toBe(
      'with 1 query no drop is found 80% of the time (at the noise the config records)',
    );
    expect(detectText(numbers({}), undefined)).toBe(
      'with 40 queries a drop of 0.2000 or more is found 80% of the time',
    );
  });
});

describe('checkGates: what compare would refuse, refused before any comparison', () => {
  const check = (yaml: string, defs: readonly MetricDef[] = table()) => {
    try {
      checkGates(gates(yaml), defs);
    } catch (error) {
      if (error instanceof InputError) return error.message;
      throw error;
    }
    return 'accepted';
  };

  it('accepts metric gates, count gates and tested gates on paired metrics', () => {
    expect(check('gates:\n  - metric: hit@5\n    min: 0.5\n  - metric: regressions\n    max: 0\n')).toBe('accepted');
    expect(check('gates:\n  - metric: hit@5\n    margin: 0.1\n')).toBe('accepted');
  });

  it('refuses an unknown metric, naming the gate and the nearest id', () => {
    expect(check('gates:\n  - metric: hit@55\n    min: 0.5\n')).toMatch(
      /^gates\.yml:2: unknown metric `hit@55`; did you mean `hit@5`\? \(run `evalverdict metrics` for the list\)$/,
    );
  });

  it('refuses a count gate with a baseline threshold, checking every gate of the config', () => {
    expect(check('gates:\n  - metric: hit@5\n    min: 0.5\n  - metric: regressions\n    max_drop: 1\n')).toBe(
      'gates.yml:4: `regressions` is a count of per-query outcomes: use min or max, without where',
    );
  });

  it('reads the metric table it is given: a metric missing from it is unknown', () => {
    expect(check('gates:\n  - metric: hit@5\n    min: 0.5\n', [])).toMatch(/^gates\.yml:2: unknown metric `hit@5`/);
  });
});
