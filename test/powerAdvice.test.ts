/**
 * Power is advice, from the baseline side's noise (issue 45): a tested gate's detectable drop and "about N queries"
 * come from the config's measured `noise:` block when it has the metric, else from the comparison's own differences
 * with the mean change removed, so a real change (better or worse) never counts as noise. The models are checked
 * here against numbers computed by hand from docs/gates.md's description, not against the code's own helpers.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/runDb.js';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import {
  measuredNoiseModel,
  minimumDetectableDrop,
  noiseModel,
  queriesNeeded,
  redrawnNoiseModel,
} from '../src/compare/power.js';
import { noiseFloorModel } from '../src/gate/noise.js';
import { testedNumbers } from '../src/gate/tested.js';

const hit5 = () => buildMetricTable(DEFAULT_OPTIONS, []).find((d) => d.id === 'hit@5');
const ndcg = () => buildMetricTable(DEFAULT_OPTIONS, []).find((d) => d.id === 'nDCG@10');

/** Per-query drops (positive = worse): `losses` at +size, `wins` at -size, the rest of n unchanged. */
const drops = (losses: number, wins: number, n: number, size = 1) =>
  Float64Array.from([
    ...new Array(losses).fill(size),
    ...new Array(wins).fill(-size),
    ...new Array(n - losses - wins).fill(0),
  ]);

describe("the comparison's own noise, with the mean change removed", () => {
  it('R6: 70 gained and 40 lost of 300 read as 80 changed (twice the rarer side), not 110', () => {
    expect(noiseModel(drops(40, 70, 300))).toEqual({ n: 300, rho: 80 / 300, size: 1 });
    // the same for a drop: 70 lost, 40 gained
    expect(noiseModel(drops(70, 40, 300))).toEqual({ n: 300, rho: 80 / 300, size: 1 });
  });

  it('a real improvement does not inflate the advice: 40/40 and 40 lost / 70 gained advise the same', () => {
    const noise = testedNumbers(drops(40, 40, 300), { correction: 'holm', size: 4 }, 0.05, 0.01, hit5());
    const improved = testedNumbers(drops(40, 70, 300), { correction: 'holm', size: 4 }, 0.05, 0.01, hit5());
    expect(improved.mdd).toBe(noise.mdd);
    expect(improved.queriesNeeded).toBe(noise.queriesNeeded);
    expect(improved.adviceFrom).toBe('comparison');
    expect(improved.mdd).toBe(minimumDetectableDrop({ n: 300, rho: 80 / 300, size: 1 }, 0.0125));
  });

  it("a graded metric's size is the rarer side's: a change's own larger steps are not noise", () => {
    // 30 small losses of 0.05 (noise) and 60 gains of 0.4 (the change): size 0.05, rho 60 / 200
    const d = Float64Array.from([...new Array(30).fill(0.05), ...new Array(60).fill(-0.4), ...new Array(110).fill(0)]);
    const model = noiseModel(d);
    expect(model.n).toBe(200);
    expect(model.rho).toBeCloseTo(0.3, 12);
    expect(model.size).toBeCloseTo(0.05, 12);
    // as many each way: both sides' root mean square
    const even = noiseModel(Float64Array.from([0.3, -0.4, 0, 0]));
    expect(even).toMatchObject({ n: 4, rho: 0.5 });
    expect(even.size).toBeCloseTo(Math.sqrt((0.09 + 0.16) / 2), 12);
    // nothing changed: a hit's size; one side only: that side's size and no share
    expect(noiseModel(drops(0, 0, 10))).toEqual({ n: 10, rho: 0, size: 1 });
    expect(noiseModel(drops(5, 0, 10, 0.2))).toEqual({ n: 10, rho: 0, size: 0.2 });
  });
});

describe("the config's measured noise (`noise:`) is the advice's noise", () => {
  const floor = { sd_diff: 0.06, sd_mean: 0.004, changed: 0.36, detects: null };

  it('share changed and size sd_diff / sqrt(changed), for a graded metric too', () => {
    expect(noiseFloorModel(floor, 225)).toEqual({ n: 225, rho: 0.36, size: 0.1 });
    expect(measuredNoiseModel(40, 0.25, 0.5)).toEqual({ n: 40, rho: 0.25, size: 1 });
    expect(measuredNoiseModel(40, 0, 0)).toEqual({ n: 40, rho: 0, size: 1 });
  });

  it("the gate's advice reads the noise floor, whatever the comparison's churn holds", () => {
    const family = { correction: 'holm' as const, size: 4 };
    const expected = minimumDetectableDrop({ n: 225, rho: 0.36, size: 0.1 }, 0.0125);
    for (const d of [drops(60, 10, 225, 0.1), drops(5, 5, 225, 0.3), drops(0, 120, 225, 0.2)]) {
      const t = testedNumbers(d, family, 0.05, 0.005, ndcg(), floor);
      expect(t.mdd).toBe(expected);
      expect(t.queriesNeeded).toBe(queriesNeeded({ n: 225, rho: 0.36, size: 0.1 }, 0.0125, 0.005));
      expect(t.adviceFrom).toBe('noise floor');
    }
    // the bounds are the comparison's still: the noise floor is advice only
    const without = testedNumbers(drops(60, 10, 225, 0.1), family, 0.05, 0.005, ndcg());
    const withFloor = testedNumbers(drops(60, 10, 225, 0.1), family, 0.05, 0.005, ndcg(), floor);
    expect({ ...withFloor, mdd: 0, queriesNeeded: 0, adviceFrom: '' }).toEqual({
      ...without,
      mdd: 0,
      queriesNeeded: 0,
      adviceFrom: '',
    });
  });
});

describe("power's assumed churn over the baseline's own values", () => {
  it('a hit@k at value v: 2v(1 - v) changed, by a hit', () => {
    const values = [...new Array(90).fill(1), ...new Array(30).fill(0)];
    const model = redrawnNoiseModel(values, 0.4);
    expect(model.n).toBe(120);
    expect(model.rho).toBeCloseTo(0.4 * 2 * 0.75 * 0.25, 12);
    expect(model.size).toBeCloseTo(1, 12);
  });

  it('a graded metric: the chance two draws differ, at a size of its own spread (NaN left out)', () => {
    // MRR 1, 0.5 and 0 a third each: two draws differ with probability 2/3; variance 1/6, so size sqrt(1/2)
    const values = [...new Array(40).fill(1), ...new Array(40).fill(0.5), ...new Array(40).fill(0), NaN, NaN];
    const model = redrawnNoiseModel(values, 0.4);
    expect(model.n).toBe(120);
    expect(model.rho).toBeCloseTo(0.4 * (2 / 3), 12);
    expect(model.size).toBeCloseTo(Math.sqrt(0.5), 12);
    expect(redrawnNoiseModel([0.3, 0.3], 0.4)).toEqual({ n: 2, rho: 0, size: 1 });
    expect(redrawnNoiseModel([NaN], 0.4)).toEqual({ n: 0, rho: 0, size: 1 });
  });
});

describe("power's figure against compare's on the fixtures (docs/cli.md states the band)", () => {
  it('never below what compare advises, at most 3.2 times it, graded metrics included', async () => {
    const config = 'fixtures/evalgate.yml';
    const compare = await runCli([
      'compare',
      'fixtures/baseline.sqlite',
      'fixtures/candidate.sqlite',
      '--golden',
      'fixtures/golden.yaml',
      '--config',
      config,
      '--format',
      'json',
    ]);
    expect(compare.status).toBe(1); // the README's two failing gates
    const advised = new Map<string, number>(
      JSON.parse(compare.stdout).gates.map((g: { metric: string; min_detectable_drop: number }) => [
        g.metric,
        g.min_detectable_drop,
      ]),
    );
    const power = await runCli([
      'power',
      '--golden',
      'fixtures/golden.yaml',
      '--baseline',
      'fixtures/baseline.sqlite',
      '--config',
      config,
    ]);
    expect(power.status).toBe(0);
    const detects = new Map(
      power.stdout
        .split('\n')
        .filter((l) => /^\S+@\d+ /.test(l))
        .map((l) => l.split(/ +/))
        .map(([gate, , , d]) => [gate, Number(d)] as const),
    );
    expect([...detects.keys()]).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10']);
    for (const [gate, d] of detects) {
      const c = advised.get(gate)!;
      expect(d, gate).toBeGreaterThanOrEqual(c);
      expect(d / c, gate).toBeLessThanOrEqual(3.2);
    }
    // the figures docs/cli.md prints
    expect([...detects.values()]).toEqual([0.1002, 0.0815, 0.0575, 0.0648]);
    expect([...advised.values()]).toEqual([0.0823, 0.0586, 0.0193, 0.0208]);
  });
});
