/**
 * `calibrate`'s figures on runs small enough to work out by hand (src/compare/calibration.ts): every field of a
 * metric's noise against its definition written out here over the listed (query, pair) differences, the family
 * level of each correction, the newest run, the commits, and the edges (no query in every run, one query, no change
 * at all, a run without the metric). test/calibrate.test.ts checks the same figures by simulation.
 */
import { describe, expect, it } from 'vitest';
import { calibrate, MIN_CALIBRATION_RUNS } from '../src/compare/calibration.js';
import type { CalibrationRun } from '../src/compare/calibration.js';
import type { Correction } from '../src/stats/familywise.js';
import { minimumDetectableDrop } from '../src/stats/power.js';
import { normalQuantile } from '../src/stats/distributions.js';

/** Runs from per-query rows (one value per run), metric `m`; times in the runs' order unless given. */
function runsOf(rows: number[][], times?: string[], commits?: (string | null)[]): CalibrationRun[] {
  const k = rows[0].length;
  return Array.from({ length: k }, (_, r) => ({
    runId: `run-${r}`,
    commit: commits ? commits[r] : 'c0ffee',
    createdAt: times ? times[r] : `2026-11-2${r}T00:00:00Z`,
    values: new Map([['m', Float64Array.from(rows.map((row) => row[r]))]]),
  }));
}

const options = (metrics: readonly string[], correction: Correction = 'holm') => ({
  metrics,
  alpha: 0.05,
  power: 0.8,
  correction,
});

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sampleSd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

/** Every metric figure from its definition: queries with a value in every run, their differences over all pairs. */
function byDefinition(rows: number[][], level: number, power: number) {
  const kept = rows.filter((row) => row.every((v) => !Number.isNaN(v)));
  const pairDiffs = kept.map((row) => row.flatMap((a, i) => row.slice(i + 1).map((b) => b - a)));
  const queryMeanSquare = pairDiffs.map((ds) => mean(ds.map((d) => d * d)));
  const queryChanged = pairDiffs.map((ds) => ds.filter((d) => d !== 0).length / ds.length);
  const squares = pairDiffs.flat().map((d) => d * d);
  const n = kept.length;
  const k = rows[0].length;
  const runMeans = Array.from({ length: k }, (_, r) => mean(rows.map((row) => row[r]).filter((v) => !Number.isNaN(v))));
  const meanSquare = mean(queryMeanSquare);
  const changed = mean(queryChanged);
  const size = Math.sqrt(meanSquare / changed);
  const meanSquareError = sampleSd(queryMeanSquare) / Math.sqrt(n);
  const onePair = sampleSd(squares) / Math.sqrt(n);
  const upper = meanSquare + normalQuantile(0.025) * Math.hypot(onePair, meanSquareError);
  const marginDrop = minimumDetectableDrop({ n, rho: Math.min(1, (changed * upper) / meanSquare), size }, level, power);
  return {
    n,
    means: runMeans,
    sdMean: sampleSd(runMeans),
    sdMeanError: sampleSd(runMeans) / Math.sqrt(2 * (k - 1)),
    sdDiff: Math.sqrt(meanSquare),
    sdDiffError: meanSquareError / (2 * Math.sqrt(meanSquare)),
    changed,
    changedError: sampleSd(queryChanged) / Math.sqrt(n),
    size,
    level,
    detects: minimumDetectableDrop({ n, rho: changed, size }, level, power),
    margin: Math.max(0.01, Math.ceil(marginDrop * 100 - 1e-9) / 100),
    marginDrop,
  };
}

/** The drop the margin is rounded up from. */
const marginDrop = (rows: number[][]) => byDefinition(rows, 0.05, 0.8).marginDrop;

/** Four kinds of query, each repeated: unchanged, changed in one pair of three, in two, in all three; one NaN. */
const PATTERNS = [
  [1, 1, 1],
  [0, 0.5, 0.5],
  [0.2, 0.2, 1],
  [0.5, 0, 1],
];
const ROWS = [...Array.from({ length: 40 }, (_, i) => PATTERNS[i % 4]), [1, 0, Number.NaN], [Number.NaN, 1, 1]];

describe('calibrate: each figure of a metric against its definition', () => {
  it('40 queries of four kinds over 3 runs, two queries without a value in some run', () => {
    const got = calibrate(runsOf(ROWS), options(['m'], 'none')).metrics[0];
    const want = byDefinition(ROWS, 0.05, 0.8);
    expect(got.metric).toBe('m');
    expect(got.n).toBe(40);
    expect(Number.isFinite(want.detects)).toBe(true);
    for (const key of Object.keys(want) as Array<keyof typeof want>) {
      if (key === 'means' || key === 'marginDrop') continue;
      expect(got[key], key).toBeCloseTo(want[key] as number, 12);
    }
    expect(got.means).toHaveLength(3);
    for (const [r, m] of got.means.entries()) expect(m, `run ${r}`).toBeCloseTo(want.means[r], 12);
  });

  it('two runs: the run means and their spread over one degree of freedom', () => {
    const rows = Array.from({ length: 30 }, (_, i) => [i % 3 === 0 ? 1 : 0, i % 5 === 0 ? 1 : 0]);
    const got = calibrate(runsOf(rows), options(['m'], 'none')).metrics[0];
    const want = byDefinition(rows, 0.05, 0.8);
    expect(got.sdMean).toBeCloseTo(want.sdMean, 12);
    expect(got.sdMeanError).toBeCloseTo(want.sdMean / Math.sqrt(2), 12);
    expect(got.margin).toBeCloseTo(want.margin, 12);
    expect(got.detects).toBeCloseTo(want.detects, 12);
  });
});

describe('calibrate: the edges', () => {
  it('no change at all: no spread, size 1, and a margin from the rule of three over the (query, pair) count', () => {
    const rows = Array.from({ length: 60 }, (_, i) => [i % 2, i % 2, i % 2]);
    const got = calibrate(runsOf(rows), options(['m'], 'none')).metrics[0];
    expect([got.sdDiff, got.sdDiffError, got.changed, got.changedError, got.size]).toEqual([0, 0, 0, 0, 1]);
    const rho = 3 / (60 * 3);
    const drop = minimumDetectableDrop({ n: 60, rho, size: 1 }, 0.05, 0.8);
    expect(got.margin).toBe(Math.max(0.01, Math.ceil(drop * 100 - 1e-9) / 100));
    expect(got.detects).toBe(minimumDetectableDrop({ n: 60, rho: 0, size: 1 }, 0.05, 0.8));
  });

  it('no change in 2 runs of 1 query: the rule of three caps the share at 1', () => {
    const got = calibrate(runsOf([[0.5, 0.5]]), options(['m'], 'none')).metrics[0];
    expect(got.n).toBe(1);
    // one query never reaches 5%: nothing is detectable, so no margin either
    expect([got.detects, got.margin]).toEqual([null, null]);
  });

  it('one query in every run: no spread over queries, so the errors are 0, not NaN', () => {
    const rows = [
      [0, 1, 1],
      [Number.NaN, 0, 1],
    ];
    const got = calibrate(runsOf(rows), options(['m'], 'none')).metrics[0];
    expect(got.n).toBe(1);
    expect([got.sdDiffError, got.changedError]).toEqual([0, 0]);
    expect(got.sdDiff).toBeCloseTo(Math.sqrt(2 / 3), 12);
    expect(got.means).toEqual([0, 0.5, 1]);
  });

  it('no query in every run: n 0, no detectable drop, no margin; each run still has its mean', () => {
    const rows = [
      [Number.NaN, 1],
      [1, Number.NaN],
    ];
    const got = calibrate(runsOf(rows), options(['m'], 'none')).metrics[0];
    expect([got.n, got.detects, got.margin, got.sdDiff, got.changed, got.size]).toEqual([0, null, null, 0, 0, 1]);
    expect([got.sdDiffError, got.changedError]).toEqual([0, 0]);
    expect(got.means).toEqual([1, 1]);
  });

  it('a run whose values are all missing has a mean of 0, not NaN', () => {
    const got = calibrate(runsOf([[Number.NaN, 1]]), options(['m'], 'none')).metrics[0];
    expect(got.means).toEqual([0, 1]);
  });

  it('the margin is a hundredth at least, and the detectable drop rounded up to the next hundredth', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => [i % 50 === 0 ? 1 : 0, 0, 0]);
    const got = calibrate(runsOf(rows), options(['m'], 'none')).metrics[0];
    expect(got.margin).toBe(0.01);
    const noisy = calibrate(runsOf(ROWS), options(['m'], 'none')).metrics[0];
    expect(noisy.margin!).toBe(Math.round(noisy.margin! * 100) / 100);
    expect(noisy.margin!).toBeGreaterThan(noisy.detects!);
  });

  it('a detectable drop on a hundredth but for its last bits: that hundredth, not the next', () => {
    // The margin's share changed and its bisection do not depend on the size of a change: scaled so that the drop
    // times 100 is 7 up to rounding, the margin is 0.07.
    const unit = Array.from({ length: 400 }, (_, i) => [0, i % 3 === 0 ? 1 : 0, i % 7 === 0 ? 1 : 0]);
    const scale = 7 / (100 * marginDrop(unit));
    const scaled = unit.map((row) => row.map((v) => v * scale));
    expect(Math.abs(marginDrop(scaled) * 100 - 7)).toBeLessThan(1e-9);
    expect(calibrate(runsOf(scaled), options(['m'], 'none')).metrics[0].margin).toBe(0.07);
  });

  it('a run without the metric: its run and the metric named', () => {
    const runs = runsOf([[1, 1]]);
    expect(() => calibrate(runs, options(['m', 'ndcg@10']))).toThrow('run run-0 has no per-query values for ndcg@10');
  });
});

describe('calibrate: the level, the runs, the commits, the newest run', () => {
  it('each gate at alpha with no correction, at alpha over the metrics with holm or bh', () => {
    const rows = [[1, 0]];
    const runs = runsOf(rows).map((r) => ({ ...r, values: new Map([...r.values, ['n', r.values.get('m')!]]) }));
    const levels = (correction: Correction) =>
      calibrate(runs, options(['m', 'n'], correction)).metrics.map((m) => m.level);
    expect(levels('none')).toEqual([0.05, 0.05]);
    expect(levels('holm')).toEqual([0.025, 0.025]);
    expect(levels('bh')).toEqual([0.025, 0.025]);
    const cal = calibrate(runs, options(['m'], 'bh'));
    expect([cal.alpha, cal.power, cal.correction]).toEqual([0.05, 0.8, 'bh']);
  });

  it('refuses fewer than two runs, saying how many it got', () => {
    expect(MIN_CALIBRATION_RUNS).toBe(2);
    expect(() => calibrate([], options(['m']))).toThrow('calibrate needs at least 2 runs, got 0');
    expect(() => calibrate(runsOf([[1]]), options(['m']))).toThrow('calibrate needs at least 2 runs, got 1');
    expect(calibrate(runsOf([[1, 1]]), options(['m'])).runs).toEqual(['run-0', 'run-1']);
  });

  it('measured: the newest created_at by time, not by place or text; of two at one instant, the first', () => {
    const rows = [[1, 1, 1, 1]];
    const later = ['2026-11-20T00:00:00Z', '2026-11-22T00:00:00Z', '2026-11-21T00:00:00Z', '2026-11-19T00:00:00Z'];
    expect(calibrate(runsOf(rows, later), options(['m'])).measured).toBe('2026-11-22T00:00:00Z');
    // the same instant written two ways: the first of them stays
    const same = ['2026-11-20T00:00:00Z', '2026-11-22T01:00:00+01:00', '2026-11-22T00:00:00Z', '2026-11-01T00:00:00Z'];
    expect(calibrate(runsOf(rows, same), options(['m'])).measured).toBe('2026-11-22T01:00:00+01:00');
    // a time that does not parse is never the newest
    const unreadable = ['2026-11-20T00:00:00Z', 'not a time', '2026-11-19T00:00:00Z', '2026-11-18T00:00:00Z'];
    expect(calibrate(runsOf(rows, unreadable), options(['m'])).measured).toBe('2026-11-20T00:00:00Z');
  });

  it('the commits: each once, in order of first appearance, a run without one as null', () => {
    const rows = [[1, 1, 1, 1, 1]];
    const cal = calibrate(runsOf(rows, undefined, ['b', null, 'a', 'b', null]), options(['m']));
    expect(cal.commits).toEqual(['b', null, 'a']);
    expect(cal.runs).toEqual(['run-0', 'run-1', 'run-2', 'run-3', 'run-4']);
  });
});
