/**
 * Alpha spent over a family of tested gates (src/stats/familywise.ts): the sizes and levels the gates, calibrate and
 * `evalverdict power` share, and the claim behind them, by simulation: with every null true, the chance that any of
 * m tests at alpha / m fires is at most alpha, for independent tests and for tests that move together.
 */
import { describe, expect, it } from 'vitest';
import { adjustedP, familySize, levelInFamily } from '../src/stats/familywise.js';
import { seededRandom } from '../src/stats/random.js';

describe('the family of tested gates', () => {
  it('none tests each at alpha; holm and bh split it over the corrected tests', () => {
    expect(familySize('none', 4)).toBe(1);
    expect(familySize('holm', 4)).toBe(4);
    expect(familySize('bh', 3)).toBe(3);
    expect(familySize('holm', 0)).toBe(1);
    expect(levelInFamily(0.05, 4)).toBe(0.0125);
    expect(adjustedP(0.02, 4)).toBe(0.08);
    expect(adjustedP(0.4, 4)).toBe(1);
  });

  // 20,000 trials a model: the rate's binomial standard error at 0.05 is 0.0015; the bound allows 3 of them.
  const TRIALS = 20_000;
  const bound = (alpha: number) => alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / TRIALS);
  const anyFires = (pValuesOf: (random: () => number) => number[], m: number, alpha: number): number => {
    const random = seededRandom(47);
    let fired = 0;
    for (let t = 0; t < TRIALS; t++) if (pValuesOf(random).some((p) => p < levelInFamily(alpha, m))) fired++;
    return fired / TRIALS;
  };

  it.each([2, 4, 8])('%i independent true nulls: any false alarm at most alpha (within 3 binomial errors)', (m) => {
    const rate = anyFires((random) => Array.from({ length: m }, () => random()), m, 0.05);
    expect(rate).toBeLessThanOrEqual(bound(0.05));
    // Not far below either: Bonferroni is nearly exact for independent tests (1 - (1 - 0.05/m)^m).
    expect(rate).toBeGreaterThan(1 - (1 - 0.05 / m) ** m - 3 * Math.sqrt(0.05 / TRIALS));
  });

  it('4 true nulls that move together (one p for all): at most alpha, about alpha / 4', () => {
    const rate = anyFires((random) => Array(4).fill(random()), 4, 0.05);
    expect(rate).toBeLessThanOrEqual(bound(0.0125));
  });
});
