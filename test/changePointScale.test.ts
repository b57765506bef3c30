/**
 * The change-point test on values near the largest double (issue 44): a constant history of 1e308 summed to
 * Infinity, the statistic came out NaN, p 0, and main was marked "shifted down". src/compare/changePoint.ts now
 * scales such a series down by a power of two first, which the permutation test is invariant under: a constant
 * series is never a shift, whatever its magnitude, and a real shift among huge values is found as among small ones.
 */
import { describe, expect, it } from 'vitest';
import { changePointOf, recentShift } from '../src/compare/changePoint.js';
import { seededRandom } from '../src/compare/significance.js';

const constant = (n: number, value: number) => new Array<number>(n).fill(value);

describe('a constant series is never a shift, whatever its magnitude', () => {
  const huge = [1e308, -1e308, Number.MAX_VALUE, -Number.MAX_VALUE, 1.5e307, -6e306];
  it.each(huge)('%d, 12, 20 and 50 times: p = 1, no change point', (value) => {
    for (const n of [12, 20, 50]) {
      expect(recentShift(constant(n, value))?.pValue).toBe(1);
      expect(changePointOf(constant(n, value))).toBeNull();
    }
  });

  it('any finite value, any length from 12 to 50 (seeded): p = 1', () => {
    const random = seededRandom(44);
    for (let t = 0; t < 300; t++) {
      // a random double over the whole range, both signs, subnormals included
      const value = (random() < 0.5 ? -1 : 1) * (1 + random()) * 2 ** Math.floor(random() * 2098 - 1074);
      const n = 12 + Math.floor(random() * 39);
      if (!Number.isFinite(value)) continue;
      expect(recentShift(constant(n, value))?.pValue, `${n} times ${value}`).toBe(1);
    }
  });
});

describe('huge values: the same test as on small ones', () => {
  /** The last 3 of 12 the 3 largest and distinct: p = 1 / C(12, 3), shift 100 - 5 = 96 (test/history.test.ts). */
  const planted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101, 102];
  const scale = 2 ** 1015; // 102 x 2^1015 is 3.8e307: the sum of the 12 is past the largest double

  it('a planted shift up, and down, found with the small series p and shift (times the scale)', () => {
    const small = recentShift(planted)!;
    expect(small.pValue).toBeCloseTo(1 / 220, 12);
    const up = recentShift(planted.map((x) => x * scale))!;
    expect(up).toEqual({ direction: 'up', pValue: small.pValue, shift: small.shift * scale });
    const down = recentShift(planted.map((x) => -x * scale))!;
    expect(down).toEqual({ direction: 'down', pValue: small.pValue, shift: -small.shift * scale });
    expect(changePointOf(planted.map((x) => -x * scale))?.direction).toBe('down');
  });

  it('nine runs at 1e308 and three at -1e308: shifted down, p = 1 / C(12, 3)', () => {
    const series = [...constant(9, 1e308), ...constant(3, -1e308)];
    expect(recentShift(series)?.pValue).toBeCloseTo(1 / 220, 12);
    expect(changePointOf(series)?.direction).toBe('down');
  });

  it('a shift past the largest double: found, its size Infinity', () => {
    const series = [...constant(17, -Number.MAX_VALUE), ...constant(3, Number.MAX_VALUE)];
    expect(changePointOf(series)).toEqual({ direction: 'up', pValue: 1 / 1140, shift: Number.POSITIVE_INFINITY });
  });

  it('random series (seeded) scaled up to 1e308: the p-value, direction and marks of the unscaled series', () => {
    const random = seededRandom(7);
    let marked = 0;
    for (let t = 0; t < 200; t++) {
      const n = 12 + Math.floor(random() * 20);
      const series = Array.from({ length: n }, (_, i) => random() + (t % 4 === 0 && i >= n - 3 ? 2 : 0));
      const small = recentShift(series)!;
      const big = recentShift(series.map((x) => x * 2 ** 1022))!;
      expect([big.pValue, big.direction]).toEqual([small.pValue, small.direction]);
      expect(big.shift).toBe(small.shift * 2 ** 1022);
      expect(changePointOf(series.map((x) => x * 2 ** 1022))).toEqual(changePointOf(series) && big);
      if (changePointOf(series)) marked++;
    }
    expect(marked).toBeGreaterThan(30); // the planted shifts are in the comparison, not only unmarked series
  });

  it('small whole numbers times 1e306 or 1e308 / 3, whose sums cancel and round: the whole numbers p-value', () => {
    // Ties among the subsets' sums are exact for whole numbers and rounded for their huge multiples; the tolerance
    // that absorbs the rounding is relative to the values' magnitudes, not to their total (often 0 here).
    const random = seededRandom(9);
    for (let t = 0; t < 3000; t++) {
      const n = 12 + Math.floor(random() * 10);
      const whole = Array.from({ length: n }, () => Math.floor(random() * 7) - 3);
      for (const factor of [1e306, 1e308 / 3])
        expect(recentShift(whole.map((x) => x * factor))?.pValue, `${whole} x ${factor}`).toBe(
          recentShift(whole)?.pValue,
        );
    }
  });

  it('values alternating between 1e308 and -1e308: the p-value of the series of 1 and -1', () => {
    const signs = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(recentShift(signs.map((s) => s * 1e308))?.pValue).toBe(recentShift(signs)?.pValue);
    expect(changePointOf(signs.map((s) => s * 1e308))).toBeNull();
  });
});
