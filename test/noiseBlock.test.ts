/**
 * The gate config's `noise:` block (src/gate/noise.ts) at its edges: what it keeps, and each refusal with its words
 * and the line of the key at fault (the mutation run of issue 45). Every key sits on a line of its own.
 */
import { describe, expect, it } from 'vitest';
import { parseGateConfig } from '../src/gate/config.js';
import { noiseFloorModel } from '../src/gate/noise.js';
import { gateConfigError } from './helpers/compareFixtures.js';

const GATE = 'gates:\n  - metric: hit@5\n    min: 0\n';
const HIT5 = '    hit@5: { sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null }\n';
/** A noise block from line 2 (measured 3, runs 4, commit 5 when given, metrics after), then one gate. */
const config = ({ measured = '"2026-11-28T00:00:00Z"', runs = '3', commit = '', metrics = HIT5 } = {}) =>
  `alpha: 0.05\nnoise:\n  measured: ${measured}\n  runs: ${runs}\n${commit ? `  commit: ${commit}\n` : ''}  metrics:\n${metrics}${GATE}`;
const noiseOf = (yaml: string) => parseGateConfig(yaml, 'g.yml').noise;
const errorOf = (yaml: string) => gateConfigError(yaml, 'g.yml');

describe('a noise block read whole', () => {
  it('every key kept as written, detects a number or null, the commit when given', () => {
    const metrics = `${HIT5}    nDCG@10: { sd_diff: 0.12, sd_mean: 0, changed: 0, detects: 0.04 }\n`;
    expect(noiseOf(config({ metrics, commit: '"0123456789ab"', runs: '2' }))).toEqual({
      measured: '2026-11-28T00:00:00Z',
      runs: 2,
      commit: '0123456789ab',
      metrics: {
        'hit@5': { sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null },
        'nDCG@10': { sd_diff: 0.12, sd_mean: 0, changed: 0, detects: 0.04 },
      },
    });
  });

  it('a commit left out or null is null', () => {
    expect(noiseOf(config())?.commit).toBeNull();
    expect(noiseOf(config({ commit: 'null' }))?.commit).toBeNull();
  });

  it('a metric id that YAML reads as a number is its text', () => {
    const metrics = '    5: { sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null }\n';
    expect(Object.keys(noiseOf(config({ metrics }))?.metrics ?? {})).toEqual(['5']);
  });

  it('a key that is no scalar (a flow sequence) is named by its text', () => {
    expect(errorOf(config({ metrics: '    [hit@5, x]: 0.3\n' }))).toBe(
      'g.yml:6: `noise.metrics.["hit@5","x"]` must be a map of sd_diff, sd_mean, changed, detects',
    );
  });

  it('as many metrics as a config may have gates (200), not one more', () => {
    const line = (i: number) => `    m${i}: { sd_diff: 0.1, sd_mean: 0.01, changed: 0.2, detects: null }\n`;
    const metrics = (count: number) => Array.from({ length: count }, (_, i) => line(i)).join('');
    expect(Object.keys(noiseOf(config({ metrics: metrics(200) }))?.metrics ?? {})).toHaveLength(200);
    expect(errorOf(config({ metrics: metrics(201) }))).toBe('g.yml:6: `noise.metrics` names more than 200 metrics');
  });

  it("the model of a metric's floor: the share changed, at sd_diff / sqrt(changed), over the pairs compared", () => {
    expect(noiseFloorModel({ sd_diff: 0.3, sd_mean: 0.01, changed: 0.09, detects: null }, 40)).toEqual({
      n: 40,
      rho: 0.09,
      size: 0.3 / Math.sqrt(0.09),
    });
  });
});

describe('the block refused, naming the line of its key', () => {
  it('not a map', () => {
    for (const bad of ['5', '[1, 2]', '"text"'])
      expect(errorOf(`alpha: 0.05\nnoise: ${bad}\n${GATE}`)).toBe(
        'g.yml:2: `noise` must be a map with measured, runs and metrics',
      );
  });

  it('an unknown key, with a suggestion when one is near', () => {
    expect(errorOf(config().replace('  runs:', '  run:'))).toBe(
      'g.yml:4: unknown `noise` key `run`; did you mean `runs`?',
    );
    expect(errorOf(config().replace('  runs: 3\n', '  runs: 3\n  zzzzzzzzz: 1\n'))).toBe(
      'g.yml:5: unknown `noise` key `zzzzzzzzz`',
    );
  });

  it('measured: a string that is an RFC 3339 time', () => {
    expect(errorOf(config({ measured: 'yesterday' }))).toBe(
      'g.yml:3: `noise.measured` must be an RFC 3339 time, got "yesterday"',
    );
    expect(errorOf(config({ measured: '20261128' }))).toBe(
      'g.yml:3: `noise.measured` must be an RFC 3339 time, got 20261128',
    );
    // a list whose one item reads as a time is no time
    expect(errorOf(config({ measured: '["2026-11-28T00:00:00Z"]' }))).toBe(
      'g.yml:3: `noise.measured` must be an RFC 3339 time, got ["2026-11-28T00:00:00Z"]',
    );
    // its own line, wherever it stands in the block
    expect(errorOf(`alpha: 0.05\nnoise:\n  runs: 3\n  measured: 5\n  metrics:\n${HIT5}${GATE}`)).toBe(
      'g.yml:4: `noise.measured` must be an RFC 3339 time, got 5',
    );
    // no measured key: the line of the block's map
    expect(errorOf(config().replace('  measured: "2026-11-28T00:00:00Z"\n', ''))).toBe(
      'g.yml:3: `noise.measured` must be an RFC 3339 time, got nothing',
    );
  });

  it('runs: a whole number of at least 2', () => {
    for (const [runs, got] of [
      ['1', '1'],
      ['2.5', '2.5'],
      ['"3"', '"3"'],
      ['-4', '-4'],
    ])
      expect(errorOf(config({ runs }))).toBe(`g.yml:4: \`noise.runs\` must be a whole number >= 2, got ${got}`);
  });

  it('commit: a string or null', () => {
    expect(errorOf(config({ commit: '12345' }))).toBe('g.yml:5: `noise.commit` must be a string, got 12345');
    expect(errorOf(config({ commit: 'true' }))).toBe('g.yml:5: `noise.commit` must be a string, got true');
  });

  it('metrics: a map of at least one metric', () => {
    const want = 'g.yml:6: `noise.metrics` must map metric ids to their noise';
    expect(errorOf(config({ metrics: '    {}\n' }))).toBe(want);
    expect(errorOf(config({ metrics: '    - hit@5\n' }))).toBe(want);
    expect(errorOf(config({ metrics: '    5\n' }))).toBe(want);
    // no metrics key: the line of the block's map
    expect(errorOf(`alpha: 0.05\nnoise:\n  measured: "2026-11-28T00:00:00Z"\n  runs: 3\n${GATE}`)).toBe(
      'g.yml:3: `noise.metrics` must map metric ids to their noise',
    );
  });
});

describe("a metric's noise refused, naming its line", () => {
  it('not a map: the line of its value, or of its id when it has none', () => {
    expect(errorOf(config({ metrics: '    hit@5: 0.3\n' }))).toBe(
      'g.yml:6: `noise.metrics.hit@5` must be a map of sd_diff, sd_mean, changed, detects',
    );
    expect(
      errorOf(config({ metrics: '    mrr@10: { sd_diff: 0.1, sd_mean: 0, changed: 0, detects: null }\n    hit@5:\n' })),
    ).toBe('g.yml:7: `noise.metrics.hit@5` must be a map of sd_diff, sd_mean, changed, detects');
  });

  it("a metric's map written as a block: the line of its value's first key", () => {
    const block = '    hit@5:\n      sd_diff: 0.3\n      sd_mean: -1\n      changed: 0.1\n      detects: null\n';
    expect(errorOf(config({ metrics: block }))).toBe(
      'g.yml:7: `noise.metrics.hit@5.sd_mean` must be a number >= 0, got -1',
    );
  });

  it('an unknown key, with a suggestion when one is near', () => {
    expect(errorOf(config({ metrics: HIT5.replace('sd_diff', 'sd_dif') }))).toBe(
      'g.yml:6: unknown key `sd_dif` in `noise.metrics.hit@5`; did you mean `sd_diff`?',
    );
    expect(errorOf(config({ metrics: HIT5.replace('detects: null', 'detects: null, qqqqqqqqq: 1') }))).toBe(
      'g.yml:6: unknown key `qqqqqqqqq` in `noise.metrics.hit@5`',
    );
  });

  it('each value a finite number of at least 0; detects may be null, the others not; none may be missing', () => {
    const at = (key: string, value: string) =>
      errorOf(config({ metrics: HIT5.replace(new RegExp(`${key}: [^,}]+`), `${key}: ${value}`) }));
    for (const key of ['sd_diff', 'sd_mean', 'changed', 'detects'])
      for (const [value, got] of [
        ['-0.01', '-0.01'],
        ['.inf', '.inf (infinite)'],
        ['.nan', '.nan (not a number)'],
        ['"0.1"', '"0.1"'],
      ])
        expect(at(key, value), `${key} ${value}`).toBe(
          `g.yml:6: \`noise.metrics.hit@5.${key}\` must be a number >= 0, got ${got}`,
        );
    for (const key of ['sd_diff', 'sd_mean', 'changed'])
      expect(at(key, 'null')).toBe(`g.yml:6: \`noise.metrics.hit@5.${key}\` must be a number >= 0, got null`);
    expect(errorOf(config({ metrics: HIT5.replace(', detects: null', '') }))).toBe(
      'g.yml:6: `noise.metrics.hit@5.detects` must be a number >= 0, got nothing',
    );
  });
});
