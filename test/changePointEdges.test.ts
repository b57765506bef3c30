/**
 * The change-point test against its definition (src/stats/changePoint.ts), on a few short series, in process and
 * quick: the level split and the autocorrelation around it by brute force; each start's whitened step score, the
 * start the mark names, the shift and the permutation p-value (the same seeded shuffles, the same tie rule, the same
 * sequential stop) redone here over plain arrays; and the bounds of the rules (MIN_RUNS, alpha, a shift of 0).
 * test/changePointAutocorrelated.test.ts checks the false-alarm rate and the power by simulation.
 */
import { describe, expect, it } from 'vitest';
import {
  AR_MAX,
  arBound,
  CHANGE_POINT_ALPHA,
  CHANGE_POINT_SEED,
  calibration,
  changePointOf,
  gaussians,
  levelSplit,
  MIN_RUNS,
  MIN_SEGMENT,
  shiftTest,
  splitAutocorrelation,
} from '../src/stats/changePoint.js';
import { seededRandom } from '../src/stats/random.js';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => sum(xs) / xs.length;

/** The first index whose value is within 1e-9 (relative) of the largest. */
const firstNearLargest = (xs: readonly number[]) => {
  const largest = Math.max(...xs);
  return xs.findIndex((v) => v >= largest - 1e-9 * Math.abs(largest));
};

/** The starts with MIN_SEGMENT runs or more on either side. */
const startsOf = (n: number) => Array.from({ length: n - 2 * MIN_SEGMENT + 1 }, (_, k) => MIN_SEGMENT + k);

/** Least squares for one mean shift, by brute force: the start of the largest scaled difference of means. */
function splitByDefinition(x: readonly number[]): number {
  const n = x.length;
  const scores = startsOf(n).map(
    (t) => Math.abs(mean(x.slice(t)) - mean(x.slice(0, t))) * Math.sqrt((t * (n - t)) / n),
  );
  return MIN_SEGMENT + firstNearLargest(scores);
}

/** Lag-1 autocorrelation of the deviations from each side's mean, the pair across the split left out. */
function autocorrelationByDefinition(x: readonly number[]): number {
  const t = splitByDefinition(x);
  const d = x.map((v, i) => v - (i < t ? mean(x.slice(0, t)) : mean(x.slice(t))));
  const squares = sum(d.map((v) => v * v));
  if (squares === 0) return 0;
  return sum(d.map((v, i) => (i === 0 || i === t ? 0 : v * d[i - 1]))) / squares;
}

/** For each start, the step (1 at the start's residual, 1 - phi after it) less its mean, over its length. */
function centredSteps(phi: number, n: number): number[][] {
  return startsOf(n).map((t) => {
    const step = Array.from({ length: n - 1 }, (_, j) => (j + 1 < t ? 0 : j + 1 === t ? 1 : 1 - phi));
    const m = mean(step);
    const centred = step.map((s) => s - m);
    const length = Math.sqrt(sum(centred.map((c) => c * c)));
    return centred.map((c) => c / length);
  });
}

/** Each start's score: |residuals . the centred step| over the step's length. */
const stepScores = (residuals: readonly number[], steps: number[][]) =>
  steps.map((step) => Math.abs(step.reduce((a, c, j) => a + c * residuals[j], 0)));

/**
 * The test written out: residuals x[t] - phi x[t-1] for phi from the bound down to 0, 999 shuffles of the residual
 * positions (one seeded stream, each shuffle from the last), a permutation as extreme when its largest score is at
 * least the observed less 1e-9 of the residuals' absolute sum; stopped at the first coefficient whose count reaches
 * ceil(alpha x 1000).
 */
function testByDefinition(x: readonly number[], alpha: number) {
  const n = x.length;
  const bound = arBound(x);
  const phis = Array.from({ length: bound + 1 }, (_, i) => (i * 5) / 100).reverse();
  const residuals = phis.map((phi) => x.slice(1).map((v, j) => v - phi * x[j]));
  const steps = phis.map((phi) => centredSteps(phi, n));
  const observed = phis.map((_, g) => stepScores(residuals[g], steps[g]));
  const thresholds = observed.map((s, g) => Math.max(...s) - 1e-9 * sum(residuals[g].map(Math.abs)));
  const start = MIN_SEGMENT + firstNearLargest(observed[0]);
  const shift = mean(x.slice(start)) - mean(x.slice(0, start));
  const enough = Math.ceil(alpha * 1000);
  const counts = phis.map(() => 0);
  const random = seededRandom(CHANGE_POINT_SEED);
  const order = residuals[0].map((_, j) => j);
  let pValue = Number.NaN;
  for (let b = 1; b <= 999 && Number.isNaN(pValue); b++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let g = 0; g < phis.length && Number.isNaN(pValue); g++) {
      const permuted = order.map((j) => residuals[g][j]);
      if (Math.max(...stepScores(permuted, steps[g])) >= thresholds[g] && ++counts[g] >= enough) pValue = enough / b;
    }
  }
  if (Number.isNaN(pValue)) pValue = (Math.max(...counts) + 1) / 1000;
  return { direction: shift >= 0 ? 'up' : 'down', pValue, shift, start, runs: n, arBound: phis[0] };
}

/** Seeded normal draws (Box-Muller), for series this file builds. */
function normals(seed: number, count: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

/** AR(1) series with coefficient phi, plus `shift` from run `from` on. */
function series(seed: number, n: number, phi: number, shift = 0, from = n): number[] {
  const e = normals(seed, n);
  const x: number[] = [];
  for (let i = 0; i < n; i++) x.push((i > 0 ? phi * x[i - 1] : 0) + e[i]);
  return x.map((v, i) => v + (i >= from ? shift : 0));
}

// [what, the series]: no shift and planted ones, independent and autocorrelated (a bound above 0 tests several
// coefficients), long and at the fewest runs.
const SERIES: Array<[string, number[]]> = [
  ['14 independent runs', series(1, 14, 0)],
  ['14 runs, the last 3 up by 8', series(2, 14, 0, 8, 11)],
  ['20 AR(1) 0.6 runs, a drop of 6 from run 9', series(3, 20, 0.6, -6, 8)],
  ['20 AR(1) 0.8 runs', series(4, 20, 0.8)],
  ['30 AR(1) 0.3 runs, a rise of 4 from run 16', series(5, 30, 0.3, 4, 15)],
  ['20 independent runs, the last 6 down by 6', series(7, 20, 0, -6, 14)],
];

describe('the level split and the autocorrelation around it, by definition', () => {
  it.each(SERIES)('%s', (_what, x) => {
    expect(levelSplit(x)).toBe(splitByDefinition(x));
    expect(splitAutocorrelation(x)).toBeCloseTo(autocorrelationByDefinition(x), 12);
  });

  it('a step at the first and at the last start allowed; a tie: the first of the two', () => {
    expect(levelSplit([0, 0, 0, 5, 5, 5, 5, 5, 5, 5])).toBe(3);
    expect(levelSplit([0, 0, 0, 0, 0, 0, 0, 5, 5, 5])).toBe(7);
    expect(levelSplit([0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5])).toBe(4);
    // mirror images: starts 3 and 9 score the same
    const mirrored = [0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0];
    expect(levelSplit(mirrored)).toBe(3);
    expect(levelSplit(mirrored.map((v) => v * 0.1))).toBe(3);
  });

  it('the deviations over their largest: the same autocorrelation at 1e-300 and 1e300 times the values', () => {
    for (const [, x] of SERIES)
      for (const factor of [1e-300, 1e300]) {
        const scaled = splitAutocorrelation(x.map((v) => v * factor));
        expect(scaled, `x ${factor}`).toBeCloseTo(splitAutocorrelation(x), 12);
      }
  });

  it('a constant series: no deviation, an autocorrelation of 0 (not 0 / 0)', () => {
    // quarters: each side's mean is exact (of 0.7s it is not, and the deviations are rounding's)
    expect(splitAutocorrelation(new Array(14).fill(0.25))).toBe(0);
    expect(levelSplit(new Array(14).fill(0.25))).toBe(MIN_SEGMENT);
  });

  it('the shift kept out: two flat levels have no autocorrelation left; alternating runs a negative one', () => {
    const twoLevels = [...new Array(8).fill(1), ...new Array(8).fill(3)];
    expect(splitAutocorrelation(twoLevels)).toBe(0);
    const alternating = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 1 : -1));
    expect(splitAutocorrelation(alternating)).toBeLessThan(-0.8);
  });
});

describe('the AR bound', () => {
  it('alternating runs rule out every positive coefficient; a slow drift none', () => {
    expect(AR_MAX).toBe(0.7);
    expect(arBound(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 1 : -1)))).toBe(0);
    // a smooth wave: consecutive runs all but equal, far more alike than AR(1) 0.7 makes them
    expect(arBound(Array.from({ length: 20 }, (_, i) => Math.sin(i / 3)))).toBe(14);
  });

  it('a one-sided 90% bound: AR(1) series of a grid coefficient keep it about 90% of the time, not all the time', () => {
    // 300 series of 20 runs per coefficient (its own seed): the share kept has a binomial SE of 0.017 at 90%.
    for (const [phi, seed] of [
      [0.35, 101],
      [0.7, 102],
    ]) {
      let kept = 0;
      for (let s = 0; s < 300; s++) if ((arBound(series(seed * 1000 + s, 20, phi)) * 5) / 100 >= phi - 1e-9) kept++;
      expect(kept / 300, `AR(1) ${phi}`).toBeGreaterThanOrEqual(0.85);
      expect(kept / 300, `AR(1) ${phi}`).toBeLessThanOrEqual(0.97);
    }
  });

  it('the same under a shift of the level and a positive scale (it reads deviations over their spread)', () => {
    for (const [, x] of SERIES) expect(arBound(x.map((v) => 3 * v - 7))).toBe(arBound(x));
  });
});

describe('the calibration of the AR bound, by definition', () => {
  it('normal draws: each pair of uniforms gives radius x cos(angle), then radius x sin(angle)', () => {
    const random = seededRandom(5);
    const draw = gaussians(seededRandom(5));
    for (let k = 0; k < 50; k++) {
      const radius = Math.sqrt(-2 * Math.log(1 - random()));
      const angle = 2 * Math.PI * random();
      expect(draw()).toBe(radius * Math.cos(angle));
      expect(draw()).toBe(radius * Math.sin(angle));
    }
  });

  it("each coefficient's 999 series: AR(1) from a stationary start, a seed per n and coefficient, sorted", () => {
    for (const [n, g] of [
      [14, 0],
      [20, 7],
      [14, 14],
    ]) {
      const phi = (g * 5) / 100;
      const draw = gaussians(seededRandom(CHANGE_POINT_SEED * 1_000_003 + n * 101 + g));
      const want: number[] = [];
      for (let s = 0; s < 999; s++) {
        const x = [draw()];
        for (let i = 1; i < n; i++) x.push(phi * x[i - 1] + Math.sqrt(1 - phi * phi) * draw());
        want.push(splitAutocorrelation(x));
      }
      want.sort((a, b) => a - b);
      expect([...calibration(n, g)], `n ${n}, coefficient ${phi}`).toEqual(want);
    }
  });

  it('the bound: the largest coefficient whose series are at most the observed more than 10% of the time', () => {
    for (const [, x] of SERIES) {
      const observed = splitAutocorrelation(x);
      let want = 0;
      for (let g = 14; g > 0 && want === 0; g--)
        if ((calibration(x.length, g).filter((v) => v <= observed).length + 1) / 1000 > 0.1) want = g;
      expect(arBound(x)).toBe(want);
    }
  });

  it('exactly 10% at or under the observed: ruled out; one more (a tie counts as at most): kept', () => {
    // The simulated series of coefficient 0.7 at 14 runs whose autocorrelations are the 99th and 100th smallest:
    // taken as the observed series, 99 and 100 of the 999 are at most theirs.
    const draw = gaussians(seededRandom(CHANGE_POINT_SEED * 1_000_003 + 14 * 101 + 14));
    const simulated = Array.from({ length: 999 }, () => {
      const x = [draw()];
      for (let i = 1; i < 14; i++) x.push(0.7 * x[i - 1] + Math.sqrt(1 - 0.7 * 0.7) * draw());
      return x;
    });
    const values = calibration(14, 14);
    const at = (k: number) => simulated.find((x) => splitAutocorrelation(x) === values[k])!;
    expect(arBound(at(98))).toBeLessThan(14);
    expect(arBound(at(99))).toBe(14);
  });
});

describe('the test against its definition', () => {
  it.each(SERIES)('%s: p-value, start, shift, direction, at alpha 1 (no early stop), 0.01 and 0.0501', (_what, x) => {
    const full = shiftTest(x, 1)!;
    const want = testByDefinition(x, 1);
    expect({ ...full, shift: 0 }).toEqual({ ...want, shift: 0 });
    expect(full.shift).toBeCloseTo(want.shift, 12);
    const early = shiftTest(x)!;
    const wantEarly = testByDefinition(x, CHANGE_POINT_ALPHA);
    expect([early.pValue, early.start, early.arBound]).toEqual([wantEarly.pValue, wantEarly.start, wantEarly.arBound]);
    // an alpha whose stopping count is ceil(50.1) = 51 permutations
    expect(shiftTest(x, 0.0501)!.pValue).toBe(testByDefinition(x, 0.0501).pValue);
    // the early stop decides as the full count does
    expect(early.pValue <= CHANGE_POINT_ALPHA).toBe(full.pValue <= CHANGE_POINT_ALPHA);
  });

  it('the planted shifts are found at their runs; the series without one are not', () => {
    const found = SERIES.map(([, x]) => changePointOf(x));
    expect(found.map((f) => (f ? [f.direction, f.start] : null))).toEqual([
      null,
      null, // p 0.04 at 14 runs, its coefficient unknown
      ['down', 8],
      null,
      ['up', 15],
      ['down', 14],
    ]);
  });

  it('the same p-value, start and arBound after a shift of the level and a positive scale (1e-6 too); a negative one turns it', () => {
    for (const [, x] of SERIES) {
      const plain = shiftTest(x)!;
      const moved = shiftTest(x.map((v) => 2 * v + 5))!;
      expect([moved.pValue, moved.start, moved.arBound]).toEqual([plain.pValue, plain.start, plain.arBound]);
      expect(moved.shift).toBeCloseTo(2 * plain.shift, 9);
      const small = shiftTest(x.map((v) => v * 1e-6))!;
      expect([small.pValue, small.start, small.arBound]).toEqual([plain.pValue, plain.start, plain.arBound]);
      const turned = shiftTest(x.map((v) => -v))!;
      expect([turned.pValue, turned.start]).toEqual([plain.pValue, plain.start]);
      expect(turned.direction).toBe(plain.shift > 0 ? 'down' : 'up');
    }
  });
});

describe('the bounds of the rules', () => {
  it('MIN_RUNS values and more are tested; fewer, or a value that is not finite, are not', () => {
    const x = series(2, 14, 0, 8, 11);
    expect(MIN_RUNS).toBe(14);
    expect(shiftTest(x)?.runs).toBe(14);
    expect(shiftTest(x.slice(1))).toBeNull();
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(shiftTest([...x.slice(0, 13), bad])).toBeNull();
      expect(shiftTest([bad, ...x.slice(1)])).toBeNull();
    }
  });

  it('a change point at p equal to alpha, none just under it', () => {
    const x = series(2, 14, 0, 8, 11);
    const p = shiftTest(x, 1)!.pValue;
    expect(p).toBeLessThan(0.05);
    expect(changePointOf(x, p)).toMatchObject({ pValue: p, direction: 'up', start: 11 });
    expect(changePointOf(x, p - 0.0001)).toBeNull();
  });

  it('a constant series: p = 1, a shift of 0, up; no change point even at alpha 1', () => {
    const flat = new Array(16).fill(0.25);
    expect(shiftTest(flat, 1)).toMatchObject({ direction: 'up', pValue: 1, shift: 0, runs: 16 });
    expect(changePointOf(flat, 1)).toBeNull();
  });

  it('values near the largest double: scaled down by a power of two first, the test of the small values', () => {
    const planted = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 100, 101, 102];
    const small = shiftTest(planted)!;
    const scale = 2 ** 1015; // the sum of the 14 is past the largest double
    expect(shiftTest(planted.map((v) => v * scale))).toEqual({ ...small, shift: small.shift * scale });
    expect(shiftTest(planted.map((v) => -v * scale))).toEqual({
      ...small,
      direction: 'down',
      shift: -small.shift * scale,
    });
    for (const value of [Number.MAX_VALUE, -Number.MAX_VALUE, 0, Number.MIN_VALUE])
      expect(shiftTest(new Array(14).fill(value), 1), `14 times ${value}`).toMatchObject({ pValue: 1, shift: 0 });
    // every score exactly 0: the first start allowed
    expect(shiftTest(new Array(14).fill(0), 1)?.start).toBe(MIN_SEGMENT);
    const signs = [...new Array(11).fill(1), -1, -1, -1];
    expect(changePointOf(signs.map((s) => s * 1e308))).toEqual({ ...changePointOf(signs)!, shift: -Infinity });
  });

  it('p-values from 1/1000 up: a shift no permutation matches gets 1/1000, and a change point at alpha 0.001', () => {
    const x = [...new Array(10).fill(0), 1e-6, -1e-6, 0, 100, 101, 99, 100, 100];
    expect(shiftTest(x, 1)?.pValue).toBe(0.001);
    expect(changePointOf(x, 0.001)).toMatchObject({ direction: 'up', start: 13 });
  });
});
