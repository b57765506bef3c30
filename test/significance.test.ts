/**
 * The paired significance test and interval (src/stats/signFlip.ts), against values worked out by hand:
 * binomial sums for the sign test, full enumeration tables for small samples, a chosen z for the normal branch.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { binomialUpperTails, largestReaching, normalQuantile, normalUpperTail } from '../src/stats/distributions.js';
import { exactSignTest } from '../src/stats/signTest.js';
import { hashString, seededRandom } from '../src/stats/random.js';
import { pairedSignificance, RESAMPLING_MAX, signFlipPValue } from '../src/stats/signFlip.js';
import { chunkQuery, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';

const N = 10_000;
/** A resampled p-value is (1 + k) / (1 + N) for a whole k: p * (N + 1) is a whole number. */
const isResampled = (p: number, permutations = N) =>
  Math.abs(p * (permutations + 1) - Math.round(p * (permutations + 1))) < 1e-6;
const repeat = (value: number, times: number) => new Array<number>(times).fill(value);

describe('exact sign test (binomial, p = 1/2)', () => {
  it('8 positives of 8: p = 2 * (1/2)^8 = 2/256 = 0.0078125', () => {
    // |X - 4| >= 4 only for X = 0 and X = 8: (C(8,0) + C(8,8)) / 2^8 = 2/256
    expect(exactSignTest(8, 8)).toBeCloseTo(0.0078125, 12);
  });

  it('7 positives of 8: p = 18/256 = 0.0703125', () => {
    // |X - 4| >= 3 for X in {0, 1, 7, 8}: (1 + 8 + 8 + 1) / 256 = 18/256
    expect(exactSignTest(7, 8)).toBeCloseTo(18 / 256, 12);
  });

  it('6 positives of 10: p = 1 - C(10,5)/1024 = 772/1024', () => {
    // |X - 5| >= 1 for every X but 5: 1 - 252/1024 = 0.75390625
    expect(exactSignTest(6, 10)).toBeCloseTo(772 / 1024, 12);
  });

  it('a balanced split and no data give p = 1', () => {
    expect(exactSignTest(4, 8)).toBe(1);
    expect(exactSignTest(0, 0)).toBe(1);
  });

  it('binary differences (all +-1) go through the sign test; zeros are dropped first', () => {
    const random = seededRandom(1);
    // 8 x (+1) and 5 zeros: m = 8 non-zero, all positive -> 2/256
    expect(signFlipPValue([...repeat(1, 8), ...repeat(0, 5)], N, random)).toBeCloseTo(0.0078125, 12);
    // 7 x (+1), 1 x (-1): 18/256
    expect(signFlipPValue([...repeat(1, 7), -1], N, random)).toBeCloseTo(18 / 256, 12);
    // the same with every difference of size 0.25 (a binary metric of another scale): still the sign test
    expect(signFlipPValue([...repeat(0.25, 7), -0.25], N, random)).toBeCloseTo(18 / 256, 12);
  });
});

describe('exact enumeration (m <= 16 non-zero differences)', () => {
  it('[1, 2, 3]: 2 of the 8 sign patterns reach |sum| >= 6, p = 0.25', () => {
    // +-1 +-2 +-3 = 6, 4, 2, 0, 0, -2, -4, -6: only +6 and -6 reach 6
    expect(signFlipPValue([1, 2, 3], N, seededRandom(1))).toBe(0.25);
  });

  it('[1, 2, 3, 4]: only all-plus and all-minus reach 10, p = 2/16', () => {
    expect(signFlipPValue([1, 2, 3, 4, 0, 0], N, seededRandom(1))).toBe(0.125);
  });

  it('[0.5, -1, 2] (observed |sum| 1.5): 6 of 8 patterns reach it, p = 0.75', () => {
    // +-0.5 +-1 +-2 = 3.5, 1.5, 2.5, 0.5, -0.5, -2.5, -1.5, -3.5: all but +-0.5 have |s| >= 1.5
    expect(signFlipPValue([0.5, -1, 2], N, seededRandom(1))).toBe(0.75);
  });

  it('16 distinct positive differences (the largest exact case): p = 2/2^16', () => {
    const diffs = Array.from({ length: 16 }, (_, i) => i + 1);
    // every flip of a positive value lowers the sum: only the two all-same-sign patterns reach |sum| = 136
    expect(signFlipPValue(diffs, N, seededRandom(1))).toBe(2 / 65536);
  });

  it('17 differences are resampled: p = (1 + k) / (1 + N), never below 1/(1 + N)', () => {
    const diffs = Array.from({ length: 17 }, (_, i) => i + 1);
    const p = signFlipPValue(diffs, N, seededRandom(7));
    expect(isResampled(p)).toBe(true);
    expect(p).toBeGreaterThanOrEqual(1 / (N + 1));
    // the exact value is 2/2^17 = 1.5e-5; with 10,000 flips k is small
    expect(p).toBeLessThan(5 / (N + 1));
  });
});

describe('known answers', () => {
  it('identical runs (all differences 0): p = 1 and the interval is [0, 0]', () => {
    const r = pairedSignificance(repeat(0, 50), N, 123)!;
    expect(r.pValue).toBe(1);
    expect(r.ci).toEqual([0, 0]);
    expect(r.n).toBe(50);
  });

  it('a large consistent shift (50 different positive differences): p = 1/(1 + 10,000) < 0.001', () => {
    const diffs = Array.from({ length: 50 }, (_, i) => 0.1 + 0.01 * i);
    const r = pairedSignificance(diffs, N, 123)!;
    // no random sign pattern reaches the all-positive sum, so k = 0
    expect(r.pValue).toBeCloseTo(1 / 10_001, 12);
    expect(r.pValue).toBeLessThan(0.001);
    // significant, so the interval excludes 0; it is clipped to the largest difference and holds the mean 0.345
    expect(r.ci[0]).toBeGreaterThan(0);
    expect(r.ci[1]).toBeLessThanOrEqual(0.59);
    expect(r.ci[0]).toBeLessThan(0.345);
    expect(r.ci[1]).toBeGreaterThan(0.345);
  });

  it('no differences at all: null', () => {
    expect(pairedSignificance([], N, 1)).toBeNull();
  });
});

describe('reproducibility', () => {
  // 40 mixed differences, p well inside (0, 1): the resampling branch, where the seed matters
  const diffs = Array.from({ length: 40 }, (_, i) => ((i * 7) % 11) / 10 - 0.45);

  it('the same seed gives the same p-value and interval', () => {
    const a = pairedSignificance(diffs, N, 42)!;
    const b = pairedSignificance(diffs, N, 42)!;
    expect(isResampled(a.pValue)).toBe(true);
    expect(b).toEqual(a);
  });

  it('another seed draws other sign flips (a different resampled p for these data)', () => {
    expect(pairedSignificance(diffs, N, 43)!.pValue).not.toBe(pairedSignificance(diffs, N, 42)!.pValue);
  });

  it('compareRuns with the same seed gives the same p-values; the seed is in the report', () => {
    const golden = goldenSet(Array.from({ length: 30 }, (_, i) => chunkQuery(`q${i}`)));
    // ranks vary so mrr@10 differences have several sizes (resampled, m between 17 and 2,000)
    const base = runData(
      'b',
      golden.queries.map((q, i) => rankedResult(q.id, (i % 5) + 1)),
    );
    const cand = runData(
      'c',
      golden.queries.map((q, i) => rankedResult(q.id, ((i * 3) % 4) + 1)),
    );
    const one = compareRuns(base, cand, golden, { seed: 99 }).report;
    const two = compareRuns(base, cand, golden, { seed: 99 }).report;
    expect(one.metrics['mrr@10'].p_value).not.toBeNull();
    expect(isResampled(one.metrics['mrr@10'].p_value!)).toBe(true);
    expect(two.metrics['mrr@10']).toEqual(one.metrics['mrr@10']);
    expect(one.options.seed).toBe(99);
  });
});

describe('normal approximation past 2,000 non-zero differences', () => {
  it(`uses it above RESAMPLING_MAX = 2,000 (z = 2 -> p = 2 * (1 - Phi(2)) = 0.0455003)`, () => {
    expect(RESAMPLING_MAX).toBe(2000);
    // 1150 x (+1), 1150 x (-1), 50 x (+2): m = 2350 non-zero, sizes differ (not the sign test)
    // sum = 1150 - 1150 + 100 = 100; sum of squares = 1150 + 1150 + 50 * 4 = 2500; z = 100 / sqrt(2500) = 2
    // Phi(2) = 0.9772498681, so p = 2 * 0.0227501319 = 0.0455002639
    const diffs = [...repeat(1, 1150), ...repeat(-1, 1150), ...repeat(2, 50)];
    const p = signFlipPValue(diffs, N, seededRandom(1));
    expect(p).toBeCloseTo(0.0455002639, 6);
    // no randomness in this branch: another seed, the same p; and not of the resampled form (1 + k)/(1 + N)
    expect(signFlipPValue(diffs, N, seededRandom(999))).toBe(p);
    expect(isResampled(p)).toBe(false);
  });

  it('a sum of exactly 0 past 2,000 differences: z = 0, p = 2 * (upper half at 0), clipped to 1', () => {
    // 1000 x (+1), 1000 x (-1), 50 x (+2), 100 x (-1): m = 2150 of mixed sizes, sum 1000 - 1000 + 100 - 100 = 0.
    // No evidence either way: p = 1. (The erfc formula gives 0.50000002 at 0; from the lower side, 1 - that,
    // p would be 0.99999997.)
    const diffs = [...repeat(1, 1000), ...repeat(-1, 1000), ...repeat(2, 50), ...repeat(-1, 100)];
    expect(signFlipPValue(diffs, N, seededRandom(1))).toBe(1);
  });

  it('exactly 2,000 non-zero differences are still resampled', () => {
    // 975 x (+1), 975 x (-1), 50 x (+2): m = 2000, mixed sizes
    const diffs = [...repeat(1, 975), ...repeat(-1, 975), ...repeat(2, 50), ...repeat(0, 300)];
    const p = signFlipPValue(diffs, 2000, seededRandom(1));
    expect(isResampled(p, 2000)).toBe(true);
    // the normal value it should be near: z = 100 / sqrt(975 + 975 + 200) = 100 / 46.368 = 2.1567, p ~ 0.031;
    // with 2,000 flips the resampled p has a standard error of about sqrt(0.031 * 0.969 / 2000) = 0.004
    expect(Math.abs(p - 0.031)).toBeLessThan(0.02);
  });

  it('normalUpperTail matches the table: 1 - Phi(1.959964) = 0.025, 1 - Phi(0) = 0.5', () => {
    expect(normalUpperTail(1.959963984540054)).toBeCloseTo(0.025, 6);
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 6);
    expect(normalUpperTail(-1)).toBeCloseTo(1 - 0.1586552539, 6);
  });
});

describe('the interval is read off the test: mean +- its critical value, clipped to the possible means', () => {
  it('three differences 1, 2, 3 at alpha 0.3: the 3rd largest of 8 enumerated |sums| is the critical value', () => {
    // The 8 sign patterns give |sum| = 6, 6, 4, 4, 2, 2, 0, 0. p = #{|sum| >= 6} / 8 = 0.25 < 0.3: significant.
    // The fewest atoms whose share reaches alpha: ceil(0.3 * 8) = 3, so the critical |sum| is 4 (p(4) = 4/8).
    // Mean 2, half width 4 / 3: [0.6667, 3.3333], clipped to the largest difference 3: [0.6667, 3].
    const r = pairedSignificance([1, 2, 3], N, 7, 0.3)!;
    expect(r.pValue).toBe(0.25);
    expect(r.ci[0]).toBeCloseTo(2 / 3, 8);
    expect(r.ci[1]).toBe(3);
  });

  it('the same differences at alpha 0.05: p 0.25 is not significant, and the interval holds 0', () => {
    // ceil(0.05 * 8) = 1: the critical |sum| is the largest, 6; half width 6 / 3 = 2 around the mean 2: [0, 4],
    // clipped to [0, 3] (the tolerance puts the low end a hair below the mean - 2, so the clip gives exactly 0).
    const r = pairedSignificance([1, 2, 3], N, 7, 0.05)!;
    expect(r.pValue).toBe(0.25);
    expect(r.ci).toEqual([0, 3]);
  });

  it('the same differences at alpha 0.25 = p (alpha * 8 a whole 2): not significant, the critical |sum| is 6', () => {
    // p = 2/8 = 0.25 is not below alpha 0.25. The fewest atoms whose share reaches alpha: 0.25 * 8 = 2 exactly (no
    // rounding up to 3), so the critical |sum| is the 2nd largest, 6: half width 2 around the mean 2, [0, 3] clipped.
    // One atom too many (4) would give [2/3, 3], an interval without 0 for a p that is not significant.
    const r = pairedSignificance([1, 2, 3], N, 7, 0.25)!;
    expect(r.pValue).toBe(0.25);
    expect(r.ci).toEqual([0, 3]);
  });

  it('zeros count in the mean, not in the test: 1, 2, 3, 0 has mean 1.5 and half width 4 / 4 at alpha 0.3', () => {
    const r = pairedSignificance([1, 2, 3, 0], N, 7, 0.3)!;
    expect(r.pValue).toBe(0.25);
    expect(r.ci[0]).toBeCloseTo(0.5, 8);
    expect(r.ci[1]).toBeCloseTo(2.5, 8);
  });

  it('30 differences of +1 (the sign test): the critical |2x - 30| is 10, so [1 - 10/30, 1]', () => {
    // P(X <= 9) = 0.0214 for X ~ Bin(30, 1/2): two-sided 0.0428 < 0.05; P(X <= 10) = 0.0494: 0.0987 >= 0.05.
    // So |sum| = |2x - 30| up to 10 is not significant: half width 10 / 30, clipped above at the difference 1.
    expect(exactSignTest(9, 30)).toBeLessThan(0.05);
    expect(exactSignTest(10, 30)).toBeGreaterThanOrEqual(0.05);
    const r = pairedSignificance(repeat(1, 30), N, 7, 0.05)!;
    expect(r.ci[0]).toBeCloseTo(1 - 10 / 30, 8);
    expect(r.ci[1]).toBe(1);
  });

  it('30 differences of -1: the same interval mirrored, clipped below at the difference -1', () => {
    const r = pairedSignificance(repeat(-1, 30), N, 7, 0.05)!;
    expect(r.ci[0]).toBe(-1);
    expect(r.ci[1]).toBeCloseTo(-1 + 10 / 30, 8);
  });

  it('the sign test at alpha exactly a tail probability: that tail is not significant, so it is the critical value', () => {
    // 8 differences of +1: P(|X - 4| >= 3) = 18/256 = 0.0703125. At alpha = 18/256, |2x - 8| = 6 has p = alpha,
    // not below it: the critical |sum| is 6 (half width 6/8), and 8 of 8 positive (p = 2/256) is significant.
    const alpha = exactSignTest(7, 8); // 18/256, as the test computes it (the boundary must be its own value)
    expect(alpha).toBeCloseTo(18 / 256, 12);
    const r = pairedSignificance(repeat(1, 8), N, 7, alpha)!;
    expect(r.pValue).toBeCloseTo(2 / 256, 12);
    expect(r.ci[0]).toBeCloseTo(1 - 6 / 8, 8);
    expect(r.ci[1]).toBe(1);
  });

  it('when no resampled p can fall below alpha (alpha 0.001, 100 flips), the interval spans every possible mean', () => {
    // p >= 1/101 > 0.001 whatever the data: the critical value is the largest |sum|, sum |d| = 21, so the half width
    // is 21/20 = 1.05 around the mean 1.05: [0, 2.1], clipped to the differences' range [0, 2].
    const diffs = Array.from({ length: 20 }, (_, i) => (i + 1) / 10);
    const r = pairedSignificance(diffs, 100, 7, 0.001)!;
    expect(r.pValue).toBeGreaterThanOrEqual(1 / 101);
    expect(r.ci[0]).toBe(0);
    expect(r.ci[1]).toBe(2);
  });

  it('past 2,000 differences (the normal branch): mean +- z(0.975) * sqrt(sum d^2) / n, computed here by hand', () => {
    // 1,500 of +0.5 and 1,500 of -0.25: n 3,000, mean 0.125, sum d^2 = 375 + 93.75 = 468.75.
    // half width = 1.959964 * sqrt(468.75) / 3000 = 1.959964 * 21.650635 / 3000 = 0.0141449
    const diffs = [...repeat(0.5, 1500), ...repeat(-0.25, 1500)];
    const r = pairedSignificance(diffs, N, 7, 0.05)!;
    const half = (1.959963984540054 * Math.sqrt(468.75)) / 3000;
    expect(half).toBeCloseTo(0.0141449, 6);
    expect(r.ci[0]).toBeCloseTo(0.125 - half, 5);
    expect(r.ci[1]).toBeCloseTo(0.125 + half, 5);
  });

  it('in every branch and at every alpha, the interval excludes 0 exactly when p < alpha', () => {
    const random = seededRandom(2026);
    const cases: number[][] = [];
    for (let c = 0; c < 60; c++) {
      const n = [5, 12, 16, 40, 300, 2500][c % 6];
      const shift = (random() - 0.5) * 0.4;
      const binary = c % 4 === 0;
      cases.push(
        Array.from({ length: n }, () => {
          const d = binary ? Math.round((random() - 0.5 + shift) * 2) : random() - 0.5 + shift;
          return Math.max(-1, Math.min(1, d));
        }),
      );
    }
    let significant = 0;
    for (const [i, diffs] of cases.entries()) {
      for (const alpha of [0.01, 0.05, 0.1, 0.3]) {
        const r = pairedSignificance(diffs, 2000, i, alpha)!;
        const excludesZero = r.ci[0] > 0 || r.ci[1] < 0;
        expect(excludesZero, `case ${i}, alpha ${alpha}: p ${r.pValue}, ci ${r.ci}`).toBe(r.pValue < alpha);
        if (excludesZero) significant++;
      }
    }
    // both outcomes occur, so the agreement above is not one-sided
    expect(significant).toBeGreaterThan(20);
    expect(significant).toBeLessThan(220);
  });
});

describe('in compareRuns', () => {
  it('identical runs: every paired metric has p = 1 and is not significant', () => {
    const golden = goldenSet(Array.from({ length: 25 }, (_, i) => chunkQuery(`q${i}`)));
    const results = golden.queries.map((q, i) => rankedResult(q.id, i % 4 === 0 ? null : (i % 6) + 1));
    const { report } = compareRuns(runData('b', results), runData('c', results), golden);
    const paired = Object.entries(report.metrics).filter(([, m]) => m.p_value !== null);
    // hit@1,3,5,10, mrr@10, rr, recall@1,3,5,10, nDCG@1,3,5,10 have per-query values for every query here
    // (groundedness and refusal_correctness are paired too, but have no per-query value here: p null)
    expect(paired.map(([id]) => id).sort()).toEqual([
      'hit@1',
      'hit@10',
      'hit@3',
      'hit@5',
      'mrr@10',
      'nDCG@1',
      'nDCG@10',
      'nDCG@3',
      'nDCG@5',
      'recall@1',
      'recall@10',
      'recall@3',
      'recall@5',
      'rr',
    ]);
    for (const [, m] of paired) {
      expect(m.p_value).toBe(1);
      expect(m.significant).toBe(false);
      expect(m.ci).toEqual([0, 0]);
      expect(m.n_paired).toBe(25);
    }
  });

  it('30 misses turned into rank-1 hits: hit@1 p = 2/2^30 (sign test), significant, interval [2/3, 1]', () => {
    const golden = goldenSet(Array.from({ length: 30 }, (_, i) => chunkQuery(`q${i}`)));
    const base = runData(
      'b',
      golden.queries.map((q) => rankedResult(q.id, null)),
    );
    const cand = runData(
      'c',
      golden.queries.map((q) => rankedResult(q.id, 1)),
    );
    const m = compareRuns(base, cand, golden).report.metrics['hit@1'];
    // 30 differences of +1: two-sided sign test = 2 * (1/2)^30 = 1.862645e-9
    expect(m.p_value).toBeCloseTo(2 / 2 ** 30, 15);
    expect(m.significant).toBe(true);
    // the sign test's critical |2x - 30| is 10 (see above): [1 - 10/30, 1]
    expect(m.ci![0]).toBeCloseTo(2 / 3, 8);
    expect(m.ci![1]).toBe(1);
    expect(m.n_paired).toBe(30);
  });
});

describe('random sign flips (17 to 2,000 non-zero differences): ties, the number of draws and the seed', () => {
  /** A generator that returns `values` in turn, cycling: each value's 32 bits are one permutation's flips (m <= 32). */
  const scripted = (values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length];
  };
  const word = (bits: number) => bits / 2 ** 32;
  // 16 differences of 1 and one of 2 (not one size, m = 17 > 16: resampled); observed |sum| = 18
  const diffs = [...repeat(1, 16), 2];
  // per permutation: no flip (sum 18, a tie), flip the first 1 (16), flip all 17 (-18, a tie), flip the first 1 (16)
  const flips = [word(0), word(1), word(2 ** 32 - 1), word(1)];

  it('a flip whose |sum| ties the observed one counts as extreme: 2 ties in 4 flips, p = (1 + 2)/(1 + 4) = 0.6', () => {
    expect(signFlipPValue(diffs, 4, scripted(flips))).toBe(0.6);
  });

  it('draws exactly `permutations` flips: a 5th draw (no flip, a tie) would give (1 + 3)/(1 + 4) = 0.8', () => {
    // the scripted cycle's 5th value is word(0); drawing it would count one more tie
    expect(signFlipPValue(diffs, 4, scripted(flips))).toBe(0.6);
    // one draw per permutation (17 differences fit in one 32-bit word): 4 permutations, 4 draws
    let draws = 0;
    const counting = scripted(flips);
    signFlipPValue(diffs, 4, () => {
      draws++;
      return counting();
    });
    expect(draws).toBe(4);
  });

  it('seed 42, 1,002 flips of 20 differences: p = 661/1003 (245 ties), the same as redrawing the flips here', () => {
    // ten 1s, nine -1s and a 2: every flipped sum is odd, observed |sum| = 3, so |sum| = 3 ties are frequent.
    // Of these 1,002 flips 660 reach |sum| >= 3, 245 of them ties; the 1,003rd would reach 5 (so a draw too many,
    // 662/1003, or ties dropped, 416/1003, both show).
    const d = [...repeat(1, 10), ...repeat(-1, 9), 2];
    const permutations = 1002;
    // independent count: one 32-bit word per flip, bit i set = difference i negated; integer sums, exact ties
    const random = seededRandom(42);
    let extreme = 0;
    for (let p = 0; p < permutations; p++) {
      const bits = (random() * 2 ** 32) >>> 0;
      let s = 0;
      for (let i = 0; i < d.length; i++) s += (bits >>> i) & 1 ? -d[i] : d[i];
      if (Math.abs(s) >= 3) extreme++;
    }
    const expected = (1 + extreme) / (1 + permutations);
    const p = signFlipPValue(d, permutations, seededRandom(42));
    expect(p).toBe(expected);
    expect(extreme).toBe(660);
    expect(p).toBe(661 / 1003);
  });
});

describe('the seed of each metric and the tolerance of ties', () => {
  it("each metric's stream is seeded with the 32-bit FNV-1a hash of its id (the published test vectors)", () => {
    // FNV-1a: offset basis 0x811c9dc5 for the empty string; 'a' and 'foobar' are the FNV reference vectors
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
    expect(hashString('foobar')).toBe(0xbf9cf968);
  });

  it('the normal branch at alpha exactly its p: not significant, so the interval holds 0 (the tolerance widens it)', () => {
    // As in the normal-branch test above: sum 100, sqrt(sum d^2) = 50, z = 2, p = 2 * (1 - Phi(2)) = 0.0455.
    // At alpha = that p (as the test computes it) p < alpha is false; the critical |sum| z(alpha/2) * 50 is 100 give
    // or take the bisection's last bit, so only the added tolerance keeps mean - half = (100 - critical) / 2350 <= 0.
    const diffs = [...repeat(1, 1150), ...repeat(-1, 1150), ...repeat(2, 50)];
    const alpha = signFlipPValue(diffs, N, seededRandom(1));
    expect(alpha).toBeCloseTo(0.0455002639, 6);
    const r = pairedSignificance(diffs, N, 7, alpha)!;
    expect(r.pValue).toBe(alpha);
    expect(r.ci[0]).toBeLessThanOrEqual(0);
    expect(r.ci[0]).toBeCloseTo(0, 9);
    // and the upper end: mean 100/2350 plus a half width of about 100/2350
    expect(r.ci[1]).toBeCloseTo(200 / 2350, 6);
  });

  it('ties are judged relative to the size of the sum: 826000 and six small differences, p = 22/128', () => {
    // Small values 0.3, -0.1, 0.7, -0.1, 0.5, -0.2 (sum 1.1, of sizes 1.9); observed |sum| 826001.1. With the big one
    // positive, a pattern reaches it when the small sizes it negates sum to at most 0.4: {}, {0.3}, {0.1} x 2, {0.2},
    // {0.1, 0.1}, {0.1, 0.2} x 2, and the ties {0.3, 0.1} x 2 and {0.1, 0.1, 0.2}: 11, times 2 signs of the big one,
    // 22 of 2^7 = 128. Sums near 826001 round at about 1e-10: a tolerance of 1e-9 x 826001 keeps the ties, a fixed
    // 1e-9 / 826001 would drop four of them (18/128).
    expect(signFlipPValue([826000, 0.3, -0.1, 0.7, -0.1, 0.5, -0.2], N, seededRandom(1))).toBe(22 / 128);
  });

  it('sums within 1e-9 tie (float noise, not evidence): differences 1e-10, 2e-10, 3e-10 give p = 1, not 2/8', () => {
    // The tolerance is 1e-9 * max(1, |sum|): at least 1e-9, so every one of the 8 sign patterns (|sum| <= 6e-10)
    // reaches the observed 6e-10 - 1e-9. With exact comparison only +-6e-10 would, p = 0.25.
    expect(signFlipPValue([1e-10, 2e-10, 3e-10], N, seededRandom(1))).toBe(1);
    // the same data scaled by 1e10 are far above the tolerance: p = 2/8 (as [1, 2, 3] above)
    expect(signFlipPValue([1, 2, 3], N, seededRandom(1))).toBe(0.25);
  });
});

describe('the edges of the two tolerances are inclusive', () => {
  // Far below the sums' rounding: 0.5 - 5e-10 + 1e-20 is 0.5 - 5e-10 in doubles, so 15 of them change no sum but
  // take the count of differences past 16, from enumeration to random sign flips.
  const vanishing = repeat(1e-20, 15);

  it('sizes exactly 1e-12 apart are one size: 2e-12, 1e-12, 1e-12 go to the sign test', () => {
    // 2e-12 - 1e-12 is 1e-12 in doubles. Sign test, 3 positives of 3: p = 2/8 two-sided, P(X >= 3) = 1/8 one-sided.
    // Enumerated instead, every |sum| (at most 4e-12) would tie with the observed one within 1e-9: p = 1.
    expect(2e-12 - 1e-12).toBe(1e-12);
    expect(signFlipPValue([2e-12, 1e-12, 1e-12], N, seededRandom(1))).toBeCloseTo(0.25, 12);
  });

  it('a |sum| exactly the tolerance below the observed one ties with it: 0.5 and 5e-10', () => {
    // Observed 0.5 + 5e-10, tolerance 1e-9; 0.5 - 5e-10 is exactly 0.5 + 5e-10 - 1e-9 in doubles. Two-sided, all 4
    // patterns reach it (|sum| 0.5 +- 5e-10): p = 1. One-sided, +0.5 +- 5e-10 do and -0.5 +- 5e-10 do not: p = 2/4.
    expect(0.5 - 5e-10).toBe(0.5 + 5e-10 - 1e-9);
    expect(signFlipPValue([0.5, 5e-10], N, seededRandom(1))).toBe(1);
  });

  it('the same edge under random sign flips (17 differences)', () => {
    // Two-sided every draw ties: p = (1 + N) / (1 + N). One-sided the draws that keep 0.5 positive do: with 17
    // signs each draw takes one 32-bit word of the generator, whose lowest bit flips the first difference.
    expect(signFlipPValue([0.5, 5e-10, ...vanishing], N, seededRandom(1))).toBe(1);
  });
});

describe('normalQuantile', () => {
  it('inverts normalUpperTail on both sides of 1/2 (an alpha above 0.5 has a negative point)', () => {
    for (const tail of [0.0001, 0.0125, 0.05, 0.5, 0.6, 0.9]) {
      const z = normalQuantile(tail);
      expect(normalUpperTail(z)).toBeCloseTo(tail, 9);
    }
    expect(normalQuantile(0.6)).toBeLessThan(0);
  });
});

describe("the one-sided sign test's tails (the detectable drop reads them)", () => {
  it('P(X >= k) for every k from 0, where it is 1, to m + 1, where it is 0', () => {
    // Binomial(4, 1/2): 1, 15/16, 11/16, 5/16, 1/16, then 0
    const upper = binomialUpperTails(4);
    expect(upper).toHaveLength(6);
    for (const [k, tail] of [1, 15 / 16, 11 / 16, 5 / 16, 1 / 16, 0].entries())
      expect(upper[k], `k ${k}`).toBeCloseTo(tail, 14);
  });

  it('the largest k whose tail reaches the level: a tail equal to the level reaches it, one below does not', () => {
    const upper = binomialUpperTails(10);
    expect(largestReaching(upper, upper[3])).toBe(3);
    expect(largestReaching(upper, upper[3] + 1e-9)).toBe(2);
    expect(largestReaching(upper, upper[10])).toBe(10);
    // a level above every tail but P(X >= 0) = 1: none, and k stops at 0
    expect(largestReaching(upper, 0.9999)).toBe(0);
  });
});
