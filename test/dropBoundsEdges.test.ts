/**
 * significance.ts's `dropBounds` at its edges (the mutation run of issue 45): no query, one query, a step of 0 (no
 * variance floor), the floor against the sample's own variance, and the p read back from the t statistic.
 */
import { describe, expect, it } from 'vitest';
import { dropBounds } from '../src/stats/dropBounds.js';
import { normalQuantile, studentPoint } from '../src/stats/distributions.js';

/** The sample variance (n - 1 in the denominator). */
function sampleVariance(xs: number[]): number {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
}

describe('dropBounds at its edges', () => {
  it('no query: no drop, bounds at 0, p 1', () => {
    expect(dropBounds(new Float64Array(0), 0.05, 1)).toEqual({
      n: 0,
      meanDrop: 0,
      se: 0,
      lower: 0,
      upper: 0,
      pValue: 1,
    });
  });

  it('one query: the floor alone (two full steps in 2), at 1 degree of freedom', () => {
    const b = dropBounds(Float64Array.from([0.4]), 0.05, 1);
    const half = studentPoint(normalQuantile(0.05), 1) * 1;
    expect(b.n).toBe(1);
    expect(b.meanDrop).toBe(0.4);
    expect(b.se).toBe(1);
    expect(b.lower).toBeCloseTo(0.4 - half, 12);
    expect(b.upper).toBeCloseTo(0.4 + half, 12);
    expect(b.pValue).toBeGreaterThan(0.05);
    expect(b.pValue).toBeLessThan(0.5);
  });

  it('the floor 2 step^2 / (n + 1) when the sample varies less; the sample variance when it varies more', () => {
    const still = [0.5, 0.5, 0.5, 0.5, 0.7];
    // a step of 2: floor 2 x 4 / 6, above the sample's 0.008
    expect(dropBounds(Float64Array.from(still), 0.05, 2).se).toBeCloseTo(Math.sqrt(8 / 6 / 5), 12);
    const spread = [2, -2, 3, -3, 0];
    // a step of 1: floor 2 / 6, below the sample's 6.5
    expect(dropBounds(Float64Array.from(spread), 0.05, 1).se).toBeCloseTo(Math.sqrt(sampleVariance(spread) / 5), 12);
  });

  it('the bounds are the mean drop plus or minus the t point at n - 1 degrees of freedom times the se', () => {
    const drops = [1, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1];
    const b = dropBounds(Float64Array.from(drops), 0.025, 1);
    const half = studentPoint(normalQuantile(0.025), drops.length - 1) * b.se;
    expect(b.meanDrop).toBeCloseTo(0.5, 15);
    expect(b.lower).toBeCloseTo(0.5 - half, 12);
    expect(b.upper).toBeCloseTo(0.5 + half, 12);
  });

  it("the p is the t statistic's, read back: its normal point's t point is meanDrop / se", () => {
    for (const [drops, df] of [
      [[1, 1, 0, 1, 0, 0, 1, 1], 7],
      [[-1, 0, 0, 1, -1, -1, 0, 0, 0, 0], 9],
      [[0.2, 0.3], 1],
    ] as const) {
      const b = dropBounds(Float64Array.from(drops), 0.05, 1);
      expect(studentPoint(normalQuantile(b.pValue), df), `${drops}`).toBeCloseTo(b.meanDrop / b.se, 6);
    }
  });

  it('a step of 0 (nothing can change): no floor; a sample that does not vary has p 0 for a drop, 1 for none', () => {
    // quarters add without rounding: the sample's variance is exactly 0
    expect(dropBounds(Float64Array.from([0.25, 0.25, 0.25]), 0.05, 0)).toEqual({
      n: 3,
      meanDrop: 0.25,
      se: 0,
      lower: 0.25,
      upper: 0.25,
      pValue: 0,
    });
    expect(dropBounds(Float64Array.from([0, 0]), 0.05, 0)).toEqual({
      n: 2,
      meanDrop: 0,
      se: 0,
      lower: 0,
      upper: 0,
      pValue: 1,
    });
    expect(dropBounds(Float64Array.from([-0.5, -0.5]), 0.05, 0).pValue).toBe(1);
  });

  it("Student points are never above the exact ones (the bounds never wider than Student's), 1 to 10 df", () => {
    // Exact one-sided t points (tables, 6 decimals) at 0.05, 0.025 and 0.005.
    const exact: Array<[number, number, number, number]> = [
      [1, 6.313752, 12.706205, 63.656741],
      [2, 2.919986, 4.302653, 9.924843],
      [3, 2.353363, 3.182446, 5.840909],
      [4, 2.131847, 2.776445, 4.604095],
      [5, 2.015048, 2.570582, 4.032143],
      [10, 1.812461, 2.228139, 3.169273],
    ];
    for (const [df, ...points] of exact)
      for (const [i, tail] of [0.05, 0.025, 0.005].entries())
        expect(studentPoint(normalQuantile(tail), df), `${df} ${tail}`).toBeLessThan(points[i]);
  });
});
