/**
 * The detectable drop's model at its edges (src/stats/power.ts; the mutation run of issue 45): the noise models'
 * special cases, and the exact power against a reference summed here from the model's definition (module comment).
 */
import { describe, expect, it } from 'vitest';
import {
  EXACT_POWER_MAX,
  lossWinShares,
  measuredNoiseModel,
  minimumDetectableDrop,
  noiseModel,
  queriesNeeded,
  redrawnNoiseModel,
  TARGET_POWER,
} from '../src/stats/power.js';
import { normalQuantile, normalUpperTail } from '../src/stats/distributions.js';

/** log(i!) by the plain sum, i = 0..n. */
function logFactorials(n: number): number[] {
  const lf = [0];
  for (let i = 1; i <= n; i++) lf.push(lf[i - 1] + Math.log(i));
  return lf;
}

/** For m changed queries, the fewest losses the one-sided sign test rejects: P(X >= losses) < level, X ~ Bin(m, 1/2). */
function fewestRejected(n: number, level: number): number[] {
  const lf = logFactorials(n);
  return Array.from({ length: n + 1 }, (_, m) => {
    let tail = 0;
    let losses = m + 1;
    while (losses > 0 && tail + Math.exp(lf[m] - lf[losses - 1] - lf[m - losses + 1] - m * Math.LN2) < level) {
      losses--;
      tail += Math.exp(lf[m] - lf[losses] - lf[m - losses] - m * Math.LN2);
    }
    return losses;
  });
}

/** The power of that test over n queries, each a loss with probability `loss`, a win with `win`. */
function referencePower(n: number, loss: number, win: number, fewest: number[]): number {
  const lf = logFactorials(n);
  const logOr = (p: number, count: number) => (count === 0 ? 0 : count * Math.log(p));
  let power = 0;
  for (let losses = 0; losses <= n; losses++)
    for (let wins = 0; losses + wins <= n; wins++) {
      if (losses < fewest[losses + wins]) continue;
      const same = n - losses - wins;
      power += Math.exp(
        lf[n] - lf[losses] - lf[wins] - lf[same] + logOr(loss, losses) + logOr(win, wins) + logOr(1 - loss - win, same),
      );
    }
  return power;
}

/** The smallest d in [0, 1] (to 1e-9) whose reference power reaches 80%, times the size; Infinity when none. */
function referenceMdd(n: number, rho: number, size: number, level: number): number {
  const fewest = fewestRejected(n, level);
  const power = (d: number) => {
    const { loss, win } = lossWinShares(rho, d);
    return referencePower(n, loss, win, fewest);
  };
  if (power(1) < TARGET_POWER) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-9) {
    const mid = (lo + hi) / 2;
    if (power(mid) >= TARGET_POWER) hi = mid;
    else lo = mid;
  }
  return hi * size;
}

describe('the noise models at their edges', () => {
  it("the comparison's own: the share changed, at the spread about the mean over that share", () => {
    // 1, 1, -1, 0: 3 of 4 changed; mean 1/4, mean square 3/4, so variance 3/4 - 1/16 = 11/16
    const model = noiseModel([1, 1, -1, 0]);
    expect(model.n).toBe(4);
    expect(model.rho).toBe(0.75);
    expect(model.size).toBeCloseTo(Math.sqrt(11 / 16 / 0.75), 12);
    expect(noiseModel([0, 0, 0])).toEqual({ n: 3, rho: 0, size: 1 });
    expect(noiseModel([])).toEqual({ n: 0, rho: 0, size: 1 });
    // the changed queries by one amount, the others not: still a spread about the mean (mean square 1/8, mean -1/4)
    const some = noiseModel([-0.5, -0.5, 0, 0]);
    expect(some.rho).toBe(0.5);
    expect(some.size).toBeCloseTo(Math.sqrt((0.125 - 0.0625) / 0.5), 12);
    // every query by the same amount: no noise, at the changes' size
    expect(noiseModel([-0.5, -0.5, -0.5])).toEqual({ n: 3, rho: 0, size: 0.5 });
    expect(noiseModel([0.3, 0.3 + 1e-12])).toMatchObject({ n: 2, rho: 0 });
    // "the same amount" is relative to the changes' mean square: small changes that differ are noise
    expect(noiseModel([0.001, 0.00101])).toMatchObject({ n: 2, rho: 1 });
    const alternating = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 0.5 : 0.5001));
    expect(noiseModel(alternating).rho).toBe(1);
    expect(noiseModel(alternating).size).toBeCloseTo(0.00005, 9);
  });

  it('measured: a share above 1 is 1; a size of 1 when nothing changed or the changes have no spread', () => {
    expect(measuredNoiseModel(30, 1.5, 0.5)).toEqual({ n: 30, rho: 1, size: 0.5 });
    expect(measuredNoiseModel(30, 0, 0.5)).toEqual({ n: 30, rho: 0, size: 1 });
    expect(measuredNoiseModel(30, 0.25, 0)).toEqual({ n: 30, rho: 0.25, size: 1 });
    expect(measuredNoiseModel(30, 0.25, 0.2)).toEqual({ n: 30, rho: 0.25, size: 0.4 });
  });

  it('redrawn: the values grouped whatever their order, NaN left out', () => {
    // kept 0, 1, 1: shares 1/3 and 2/3, so two draws differ with 1 - 1/9 - 4/9; variance 2/9
    const differ = 1 - 1 / 9 - 4 / 9;
    for (const values of [
      [1, 0, 1, Number.NaN],
      [Number.NaN, 1, 1, 0],
    ]) {
      const model = redrawnNoiseModel(values, 0.5);
      expect(model.n).toBe(3);
      expect(model.rho).toBeCloseTo(0.5 * differ, 12);
      expect(model.size).toBeCloseTo(Math.sqrt((2 * 2) / 9 / differ), 12);
    }
    // nothing left, or one value only: nothing can differ, at a hit's size
    expect(redrawnNoiseModel([Number.NaN], 0.4)).toEqual({ n: 0, rho: 0, size: 1 });
    expect(redrawnNoiseModel([0.3, 0.3], 0.4)).toEqual({ n: 2, rho: 0, size: 1 });
    // three values out of order, each once: 1 - 3/9 differ; variance of 0.2, 0.5, 0.8 is 0.06
    const spread = redrawnNoiseModel([0.8, 0.2, 0.5], 1);
    expect(spread.rho).toBeCloseTo(2 / 3, 12);
    expect(spread.size).toBeCloseTo(Math.sqrt((2 * 0.06) / (2 / 3)), 12);
  });
});

describe('the detectable drop: exact power up to EXACT_POWER_MAX queries', () => {
  it(`agrees with the power summed here from the model, at ${EXACT_POWER_MAX} queries and below`, () => {
    for (const [n, rho, size] of [
      [EXACT_POWER_MAX, 0, 1],
      [EXACT_POWER_MAX, 0.2, 0.5],
      [12, 0.3, 1],
      [9, 0.9, 1],
    ])
      expect(minimumDetectableDrop({ n, rho, size }, 0.05), `${n} ${rho}`).toBeCloseTo(
        referenceMdd(n, rho, size, 0.05),
        7,
      );
  });

  it('none at 0 queries, nor when even every query lost is not significant', () => {
    expect(minimumDetectableDrop({ n: 0, rho: 0, size: 1 }, 0.05)).toBe(Number.POSITIVE_INFINITY);
    // one loss of one query: p 1/2
    expect(minimumDetectableDrop({ n: 1, rho: 0, size: 1 }, 0.05)).toBe(Number.POSITIVE_INFINITY);
    expect(referenceMdd(1, 0, 1, 0.05)).toBe(Number.POSITIVE_INFINITY);
  });
});

/** The normal approximation of the same test, from the model: S = losses - wins, reject when S > z sqrt(E[S^2]). */
function referenceNormalMdd(n: number, rho: number, level: number): number {
  const z = normalQuantile(level);
  const power = (d: number) => {
    const { loss, win } = lossWinShares(rho, d);
    const changed = loss + win;
    return normalUpperTail((z * Math.sqrt(n * changed) - n * d) / Math.sqrt(n * Math.max(1e-12, changed - d * d)));
  };
  if (power(1) < TARGET_POWER) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-10) {
    const mid = (lo + hi) / 2;
    if (power(mid) >= TARGET_POWER) hi = mid;
    else lo = mid;
  }
  return hi;
}

describe('the detectable drop past EXACT_POWER_MAX queries: the normal approximation', () => {
  it('agrees with the approximation written from the model, every query unchanged or some changed', () => {
    for (const [n, rho] of [
      [EXACT_POWER_MAX + 1, 0],
      [EXACT_POWER_MAX + 1, 0.3],
      [2_000, 0.05],
      [2_000, 0.95],
    ])
      expect(minimumDetectableDrop({ n, rho, size: 2 }, 0.025), `${n} ${rho}`).toBeCloseTo(
        2 * referenceNormalMdd(n, rho, 0.025),
        8,
      );
  });

  it('the queries needed: the fewest whose detectable drop is at most the margin; null past ten million', () => {
    const model = { n: 50, rho: 0.3, size: 1 };
    for (const margin of [0.5, 0.2, 0.05]) {
      const needed = queriesNeeded(model, 0.05, margin)!;
      expect(minimumDetectableDrop({ ...model, n: needed }, 0.05)).toBeLessThanOrEqual(margin);
      expect(minimumDetectableDrop({ ...model, n: needed - 1 }, 0.05)).toBeGreaterThan(margin);
    }
    // past the exact power's range the detectable drop falls with every query: a margin of exactly the drop
    // 500 queries detect needs 500, and the drop ten million detect is within reach
    const at = (n: number) => minimumDetectableDrop({ ...model, n }, 0.05);
    expect(queriesNeeded(model, 0.05, at(500))).toBe(500);
    expect(queriesNeeded(model, 0.05, at(10_000_000))).toBe(10_000_000);
    // a drop one query in a million: ten million queries do not see it
    expect(queriesNeeded(model, 0.05, 1e-6)).toBeNull();
    expect(minimumDetectableDrop({ ...model, n: 10_000_000 }, 0.05)).toBeLessThan(1e-3);
  });
});
