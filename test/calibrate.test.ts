/**
 * `evalverdict calibrate`'s core by simulation (test/helpers/calibrateSim.ts): runs of one simulated commit differ by a
 * known noise (each run redraws 20% of the queries' ranks), so the true spread is known; then the config calibrate
 * suggests is gated on fresh A/A pairs and on pairs with a planted drop of the size it says it detects.
 */
import { describe, expect, it } from 'vitest';
import { calibrate } from '../src/compare/calibration.js';
import type { CalibrationRun } from '../src/compare/calibration.js';
import { parse as parseYaml } from 'yaml';
import { parseGateConfig } from '../src/gate/config.js';
import { checkAgainstSchema } from '../src/validate/schema.js';
import { renderCalibrationYaml } from '../src/render/calibrationReport.js';
import { simulateRun, simulateSystem, trueHit5SdDiff } from './helpers/calibrateSim.js';
import type { SimSystem } from './helpers/calibrateSim.js';
import { gatePair, SIM_METRICS, seededRandom } from './helpers/verdictSim.js';

const REDRAW = 0.2;
const N = 300;

function runsOf(system: SimSystem, k: number, random: () => number): CalibrationRun[] {
  return Array.from({ length: k }, (_, r) => {
    const columns = simulateRun(system, random);
    return {
      runId: `run-${r}`,
      commit: 'c0ffee',
      createdAt: `2026-11-2${r}T00:00:00Z`,
      values: new Map(SIM_METRICS.map((id, m) => [id, columns[m]])),
    };
  });
}

const options = (metrics: readonly string[]) => ({ metrics, alpha: 0.05, power: 0.8, correction: 'holm' as const });

describe('calibrate: the spread it reports', () => {
  it('covers the true SD of the per-query difference within 1.96 stated errors about 95% of the time', () => {
    // 200 calibrations of 3 runs of a fresh 300-query system each: the share of intervals sd(diff) ± 1.96 error that
    // hold the true value has a binomial error of sqrt(0.95 * 0.05 / 200) = 0.015 at 95%; 0.90 is 3 errors below.
    const random = seededRandom(31);
    const truth = trueHit5SdDiff(REDRAW);
    let covered = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const cal = calibrate(runsOf(simulateSystem(N, REDRAW, random), 3, random), options(['hit@5']));
      const m = cal.metrics[0];
      if (Math.abs(m.sdDiff - truth) <= 1.96 * m.sdDiffError) covered++;
    }
    // Seeded: 193 of 200 (96.5%).
    expect(covered / trials).toBeGreaterThanOrEqual(0.9);
    expect(covered / trials).toBeLessThanOrEqual(0.99);
  });

  it('says the runs, commits and the newest run, and refuses fewer than two runs', () => {
    const random = seededRandom(7);
    const runs = runsOf(simulateSystem(50, REDRAW, random), 3, random);
    const cal = calibrate(runs, options(SIM_METRICS));
    expect(cal.runs).toEqual(['run-0', 'run-1', 'run-2']);
    expect(cal.commits).toEqual(['c0ffee']);
    expect(cal.measured).toBe('2026-11-22T00:00:00Z');
    expect(cal.metrics.map((m) => m.level)).toEqual([0.0125, 0.0125, 0.0125, 0.0125]);
    expect(() => calibrate(runs.slice(0, 1), options(['hit@5']))).toThrow(/at least 2 runs/);
  });
});

describe('calibrate: the config it suggests', () => {
  const random = seededRandom(2026);
  const system = simulateSystem(N, REDRAW, random);
  const suggested = calibrate(runsOf(system, 5, random), options(SIM_METRICS));
  const config = parseGateConfig(renderCalibrationYaml(suggested), 'calibrated.yml');

  it('parses with the gate config loader, noise block included', () => {
    expect(config.gates.map((g) => [g.metric, g.significantOnly, g.margin])).toEqual(
      suggested.metrics.map((m) => [m.metric, true, m.margin]),
    );
    expect(config.noise?.runs).toBe(5);
    expect(config.noise?.metrics['hit@5'].sd_diff).toBeCloseTo(suggested.metrics[0].sdDiff, 4);
    expect(config.notices).toEqual([]);
    expect(checkAgainstSchema(parseYaml(renderCalibrationYaml(suggested)), 'gate-config.schema.json')).toEqual([]);
  });

  it('refuses a broken noise block naming its line', () => {
    const base = 'preset: retrieval\nnoise:\n  measured: "2026-11-28T00:00:00Z"\n  runs: 3\n  metrics:\n';
    const good = `${base}    hit@5: { sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null }\n`;
    expect(parseGateConfig(good, 'c.yml').noise?.metrics['hit@5'].detects).toBeNull();
    expect(() => parseGateConfig(good.replace('runs: 3', 'runs: 1'), 'c.yml')).toThrow(
      'c.yml:4: `noise.runs` must be a whole number >= 2, got 1',
    );
    expect(() => parseGateConfig(good.replace('sd_diff: 0.3', 'sd_dif: 0.3'), 'c.yml')).toThrow(
      'c.yml:6: unknown key `sd_dif` in `noise.metrics.hit@5`; did you mean `sd_diff`?',
    );
    expect(() => parseGateConfig(good.replace('sd_mean: 0.01', 'sd_mean: -1'), 'c.yml')).toThrow(
      'c.yml:6: `noise.metrics.hit@5.sd_mean` must be a number >= 0, got -1',
    );
    expect(() => parseGateConfig(`${base.replace('runs: 3', 'run: 3')}    hit@5: {}\n`, 'c.yml')).toThrow(
      'c.yml:4: unknown `noise` key `run`; did you mean `runs`?',
    );
    expect(() => parseGateConfig(good.replace('"2026-11-28T00:00:00Z"', 'yesterday'), 'c.yml')).toThrow(
      'c.yml:3: `noise.measured` must be an RFC 3339 time, got "yesterday"',
    );
  });

  it('fails at most alpha of 200 A/A pairs, and passes most of them', () => {
    // 200 A/A pairs of two fresh runs of the calibrated system. The false-alarm rate is promised at most
    // alpha = 0.05 (split over the 4 gates); the binomial error of a rate near 0.05 over 200 pairs is 0.015.
    const trials = 200;
    let failed = 0;
    let passed = 0;
    for (let t = 0; t < trials; t++) {
      const pair = { baseline: simulateRun(system, random), candidate: simulateRun(system, random) };
      const { verdict } = gatePair(pair, config, t + 1);
      if (verdict === 'fail') failed++;
      if (verdict === 'pass') passed++;
    }
    expect(failed / trials).toBeLessThanOrEqual(0.05);
    expect(passed / trials).toBeGreaterThanOrEqual(0.85);
  });

  it('shows a planted drop of the size it says it detects as real at about the stated 80% power', () => {
    // One gate (hit@5, at the full alpha), a drop of calibrate's `detects` planted in the candidate. `detects` is
    // the drop the gate shows to be real (its interval below 0) 80% of the time; whether that fails depends on the
    // margin. 200 pairs: the binomial error of a rate near 0.8 is 0.028; the band allows 3 errors and the MDD
    // model's approximation.
    const one = calibrate(runsOf(system, 5, random), options(['hit@5']));
    const oneConfig = parseGateConfig(renderCalibrationYaml(one), 'calibrated.yml');
    const drop = one.metrics[0].detects as number;
    const trials = 200;
    let caught = 0;
    for (let t = 0; t < trials; t++) {
      const pair = { baseline: simulateRun(system, random), candidate: simulateRun(system, random, drop) };
      if (gatePair(pair, oneConfig, t + 1).gates[0].ci![1] < 0) caught++;
    }
    expect(caught / trials).toBeGreaterThanOrEqual(0.7);
    expect(caught / trials).toBeLessThanOrEqual(0.92);
  });
});
