/**
 * The tables in docs/history.md ("Change point", "Measured"), regenerated on demand:
 *
 *   EVALVERDICT_MEASURE_CHANGE_POINT=1 npx vitest run test/changePointMeasure.test.ts
 *
 * prints the false-alarm rate of every model at 14, 20 and 50 runs (2,000 trials each; AR(1) 0.6 and 0.7 again
 * with 20,000) and the detection of planted drops (400 trials each), with the share of marks that name the drop's
 * first run exactly and within one run. Seeded: the same figures every time. Skipped otherwise (about a minute of
 * CPU); test/changePointAutocorrelated.test.ts asserts a subset in the suite.
 */
import { describe, expect, it } from 'vitest';
import { ar1, driftingHitRate, hitRate, normal, shifted, simulate, skewed } from './helpers/changePointSim.js';
import type { Model } from './helpers/changePointSim.js';

const measure = process.env.EVALVERDICT_MEASURE_CHANGE_POINT === '1';
const SIZES = [14, 20, 50];

const unchanged: Array<[string, Model]> = [
  ['independent, normal', ar1(0)],
  ['independent, exponential (skewed)', ar1(0, skewed)],
  ['hit@5 of 200 queries at 0.7 (ties)', hitRate(200, 0.7)],
  ['AR(1) 0.3', ar1(0.3)],
  ['AR(1) 0.6', ar1(0.6)],
  ['AR(1) 0.6, skewed innovations', ar1(0.6, skewed)],
  ['hit@5, hit rate drifting as AR(1) 0.6', driftingHitRate(0.6)],
  ['AR(1) 0.7', ar1(0.7)],
  ['AR(1) 0.8', ar1(0.8)],
];

describe.skipIf(!measure)('change point: the measured tables (docs/history.md)', () => {
  it('false alarms on an unchanged main, 2,000 trials per cell', () => {
    const rows = unchanged.map(([name, model], m) => {
      const cells = SIZES.map((n) => simulate(model, n, 2000, 100 * m + n).marked / 2000);
      return `| ${name} | ${cells.map((r) => r.toFixed(4)).join(' | ')} |`;
    });
    console.log(['| series (no change) | 14 runs | 20 runs | 50 runs |', ...rows].join('\n'));
    expect(rows).toHaveLength(unchanged.length);
  });

  it('planted shifts down: found, and the start named exactly / within one run, 400 trials per cell', () => {
    const rows: string[] = [];
    for (const size of [2, 3, 4])
      for (const [name, phi] of [
        ['independent', 0],
        ['AR(1) 0.6', 0.6],
      ] as const)
        for (const n of SIZES) {
          const cells = [n - 3, n - 6, Math.floor(n / 2)].map((start) => {
            const o = simulate(shifted(ar1(phi, normal), start, -size), n, 400, 7 * n + start + size, {
              start,
              direction: 'down',
            });
            const f = (x: number) => (o.found === 0 ? '–' : (x / o.found).toFixed(2));
            return `${(o.found / 400).toFixed(2)} (${f(o.exact)} / ${f(o.withinOne)})`;
          });
          rows.push(`| ${size} sd | ${name} | ${n} | ${cells.join(' | ')} |`);
        }
    console.log(
      ['| shift | noise | runs | in the last 3 runs | in the last 6 runs | in the last half |', ...rows].join('\n'),
    );
    expect(rows).toHaveLength(18);
  });

  it('AR(1) 0.6 and 0.7, 20,000 trials per cell (binomial SE about 0.0007 at 1%)', () => {
    const rows = [0.6, 0.7].map((phi) => {
      const cells = SIZES.map((n) => simulate(ar1(phi), n, 20_000, 1000 * phi + n).marked / 20_000);
      return `| AR(1) ${phi} | ${cells.map((r) => r.toFixed(4)).join(' | ')} |`;
    });
    console.log(['| series (no change) | 14 runs | 20 runs | 50 runs |', ...rows].join('\n'));
    expect(rows).toHaveLength(2);
  });
});
