/**
 * The change-point test on values near the largest double (issue 44): a constant history of 1e308 summed to
 * Infinity, the statistic came out NaN, p 0, and main was marked "shifted down". src/stats/changePoint.ts now
 * scales such a series down by a power of two first, which the test is invariant under (the permutations, the AR
 * coefficient's estimate and its bound alike): a constant series is never a shift, whatever its magnitude, and a
 * real shift among huge values is found as among small ones, at the same run (issue 45's test, the same property).
 */
import { describe, expect, it } from 'vitest';
import { changePointOf, MIN_RUNS, shiftTest } from '../src/stats/changePoint.js';
import { seededRandom } from '../src/stats/random.js';

const constant = (n: number, value: number) => new Array<number>(n).fill(value);

describe('a constant series is never a shift, whatever its magnitude', () => {
  const huge = [1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, 1.5e307, -6e306];
  it.each(huge)('%d, 14, 20 and 50 times: p = 1, no change point', (value) => {
    for (const n of [14, 20, 50]) {
      expect(shiftTest(constant(n, value))?.pValue).toBe(1);
      expect(changePointOf(constant(n, value))).toBeNull();
    }
  });

  it('any finite value, any length from 14 to 50 (seeded): p = 1', () => {
    expect(MIN_RUNS).toBe(14);
    const random = seededRandom(44);
    for (let t = 0; t < 300; t++) {
      // a random double over the whole range, both signs, subnormals included
      const value = (random() < 0.5 ? -1 : 1) * (1 + random()) * 2 ** Math.floor(random() * 2098 - 1074);
      const n = 14 + Math.floor(random() * 37);
      if (!Number.isFinite(value)) continue;
      expect(shiftTest(constant(n, value))?.pValue, `${n} times ${value}`).toBe(1);
    }
  });
});

describe('huge values: the same test as on small ones', () => {
  /** The last 3 of 14 the 3 largest and distinct, the earlier ones without a trend: marked, from run 12. */
  const planted = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 100, 101, 102];
  const scale = 2 ** 1015; // 102 x 2^1015 is 3.8e307: the sum of the 14 is past the largest double

  it('a planted shift up, and down, found with the small series p, start and shift (times the scale)', () => {
    const small = shiftTest(planted)!;
    expect([small.pValue <= 0.01, small.start, small.direction]).toEqual([true, 11, 'up']);
    const up = shiftTest(planted.map((x) => x * scale))!;
    expect(up).toEqual({ ...small, shift: small.shift * scale });
    const down = shiftTest(planted.map((x) => -x * scale))!;
    expect(down).toEqual({ ...small, direction: 'down', shift: -small.shift * scale });
    expect(changePointOf(planted.map((x) => -x * scale))).toMatchObject({ direction: 'down', start: 11 });
  });

  it('eleven runs at 1e308 and three at -1e308: shifted down from run 12, the p of 1 and -1, a shift of -Infinity', () => {
    const series = [...constant(11, 1e308), ...constant(3, -1e308)];
    const signs = [...constant(11, 1), ...constant(3, -1)];
    expect(changePointOf(series)).toEqual({ ...changePointOf(signs)!, shift: Number.NEGATIVE_INFINITY });
    expect(changePointOf(series)).toMatchObject({ direction: 'down', start: 11, runs: 14 });
  });

  it('a shift past the largest double: found, its size Infinity', () => {
    const series = [...constant(17, -Number.MAX_VALUE), ...constant(3, Number.MAX_VALUE)];
    const signs = [...constant(17, -1), ...constant(3, 1)];
    expect(changePointOf(series)).toEqual({ ...changePointOf(signs)!, shift: Number.POSITIVE_INFINITY });
    expect(changePointOf(series)).toMatchObject({ direction: 'up', start: 17 });
  });

  it('random series (seeded) scaled up to 1e308: the p-value, start, direction and marks of the unscaled series', () => {
    const random = seededRandom(7);
    let marked = 0;
    for (let t = 0; t < 200; t++) {
      const n = 14 + Math.floor(random() * 20);
      const series = Array.from({ length: n }, (_, i) => random() + (t % 4 === 0 && i >= n - 3 ? 2 : 0));
      const small = shiftTest(series)!;
      const big = shiftTest(series.map((x) => x * 2 ** 1022))!;
      expect([big.pValue, big.direction, big.start, big.arBound]).toEqual([
        small.pValue,
        small.direction,
        small.start,
        small.arBound,
      ]);
      expect(big.shift).toBe(small.shift * 2 ** 1022);
      expect(changePointOf(series.map((x) => x * 2 ** 1022))).toEqual(changePointOf(series) && big);
      if (changePointOf(series)) marked++;
    }
    expect(marked).toBeGreaterThan(30); // the planted shifts are in the comparison, not only unmarked series
  });

  it('small whole numbers times 1e306 or 1e308 / 3, whose sums cancel and round: the whole numbers p-value', () => {
    // Ties among the permutations' scores are exact for whole numbers and rounded for their huge multiples; the
    // tolerance that absorbs the rounding is relative to the values' magnitudes, not to their total (often 0 here).
    const random = seededRandom(9);
    for (let t = 0; t < 3000; t++) {
      const n = 14 + Math.floor(random() * 8);
      const whole = Array.from({ length: n }, () => Math.floor(random() * 7) - 3);
      const expected = shiftTest(whole);
      for (const factor of [1e306, 1e308 / 3]) {
        const found = shiftTest(whole.map((x) => x * factor));
        expect([found?.pValue, found?.start], `${whole} x ${factor}`).toEqual([expected?.pValue, expected?.start]);
      }
    }
  });

  it('values alternating between 1e308 and -1e308: the p-value of the series of 1 and -1', () => {
    const signs = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(shiftTest(signs.map((s) => s * 1e308))?.pValue).toBe(shiftTest(signs)?.pValue);
    expect(changePointOf(signs.map((s) => s * 1e308))).toBeNull();
  });
});
