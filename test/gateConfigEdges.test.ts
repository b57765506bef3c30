/**
 * The gate config's testing keys, notices and scoring cutoffs at their edges (src/gate/config.ts): the cases the
 * 2026-11-28 mutation run found untested (docs/mutation.md). Each error names the line of its own key, so every
 * key below sits on a line of its own, after the first.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { settingsOf, candidateOnlyDefaultConfig, defaultGateConfig, parseGateConfig } from '../src/gate/config.js';
import { gateConfigError } from './helpers/compareFixtures.js';

const GATE = 'gates:\n  - metric: hit@5\n    min: 0\n';
const parse = (yaml: string) => parseGateConfig(yaml, 'g.yml');
const errorOf = (yaml: string) => gateConfigError(yaml, 'g.yml');

describe('testing keys: accepted at their edges, refused past them, each error at its own line', () => {
  it('margin', () => {
    expect(parse(`alpha: 0.05\nmargin: 1e-9\n${GATE}`).margin).toBe(1e-9);
    // 0: no drop is allowed, so a gate passes only on a gain shown (docs/gates.md).
    expect(parse(`alpha: 0.05\nmargin: 0\n${GATE}`).margin).toBe(0);
    for (const bad of ['-0.1', '-1e-12', '.inf', '"0.1"'])
      expect(errorOf(`alpha: 0.05\nmargin: ${bad}\n${GATE}`)).toMatch(
        /^g\.yml:2: `margin` must be a number, 0 or more, got /,
      );
  });

  it('on_inconclusive and correction', () => {
    expect(errorOf(`alpha: 0.05\non_inconclusive: maybe\n${GATE}`)).toBe(
      'g.yml:2: `on_inconclusive` must be fail, warn or pass, got "maybe"',
    );
    expect(parse(`alpha: 0.05\ncorrection: none\n${GATE}`).correction).toBe('none');
    expect(errorOf(`alpha: 0.05\ncorrection: bonferroni\n${GATE}`)).toBe(
      'g.yml:2: `correction` must be none, holm or bh, got "bonferroni"',
    );
  });

  it('primary: a metric id (not empty, not a number) that some gate names', () => {
    expect(errorOf(`alpha: 0.05\nprimary: ""\n${GATE}`)).toBe('g.yml:2: `primary` must be a metric id, got ""');
    expect(errorOf(`alpha: 0.05\nprimary: 5\n${GATE}`)).toBe('g.yml:2: `primary` must be a metric id, got 5');
    expect(errorOf(`alpha: 0.05\nprimary: hit@10\n${GATE}`)).toMatch(
      /^g\.yml:2: `primary` "hit@10" is the metric of no gate/,
    );
  });

  it('k: a whole number 1-1000 or a non-empty list of them, sorted and each once', () => {
    expect(parse(`alpha: 0.05\nk: 20\n${GATE}`).ks).toEqual([20]);
    expect(parse(`alpha: 0.05\nk: [1000, 1, 5, 1]\n${GATE}`).ks).toEqual([1, 5, 1000]);
    expect('ks' in parse(GATE)).toBe(false);
    for (const bad of ['[]', '[5, 0]', '[0, 5]', '[1001]', '[2.5]', '["5"]'])
      expect(errorOf(`alpha: 0.05\nk: ${bad}\n${GATE}`)).toBe(
        'g.yml:2: `k` must be a whole number 1-1000 or a list of them, e.g. [1, 5, 10, 20]',
      );
  });

  it('mrr_cutoff: a whole number 1-1000', () => {
    expect(parse(`alpha: 0.05\nmrr_cutoff: 1\n${GATE}`).mrrCutoff).toBe(1);
    expect(parse(`alpha: 0.05\nmrr_cutoff: 1000\n${GATE}`).mrrCutoff).toBe(1000);
    expect('mrrCutoff' in parse(GATE)).toBe(false);
    for (const bad of ['0', '1001', '2.5', '"10"'])
      expect(errorOf(`alpha: 0.05\nmrr_cutoff: ${bad}\n${GATE}`)).toBe(
        'g.yml:2: `mrr_cutoff` must be a whole number 1-1000',
      );
  });

  it("a gate's own margin and on_inconclusive: a margin alone is a threshold; absent ones are absent", () => {
    const [own] = parse('gates:\n  - metric: hit@5\n    margin: 0.05\n    on_inconclusive: pass\n').gates;
    expect(own).toMatchObject({ margin: 0.05, onInconclusive: 'pass', thresholds: {} });
    const [plain] = parse(GATE).gates;
    expect('margin' in plain || 'onInconclusive' in plain).toBe(false);
    expect(parse('gates:\n  - metric: hit@5\n    margin: 0\n').gates[0].margin).toBe(0);
    for (const bad of ['-1', '.inf'])
      expect(errorOf(`gates:\n  - metric: hit@5\n    min: 0\n    margin: ${bad}\n`)).toMatch(
        /^g\.yml:4: `margin` must be a number, 0 or more, got /,
      );
    expect(errorOf('gates:\n  - metric: hit@5\n    min: 0\n    on_inconclusive: maybe\n')).toBe(
      'g.yml:4: `on_inconclusive` must be fail, warn or pass, got "maybe"',
    );
  });

  it('an empty file has no gates and no notices', () => {
    expect(parse('').gates).toEqual([]);
    expect(parse('').notices).toEqual([]);
  });
});

describe('the notice for a significant_only line of the file', () => {
  const line =
    'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n  - metric: mrr@10\n    min: 0\n';

  it('one per significant_only line, saying what its margin is; none for other gates or the preset', () => {
    expect(parse(line).notices).toEqual([
      'g.yml:2: `significant_only` now reads the gate\'s max_drop (or other threshold) as its margin: it passes when its interval rules out a drop of it, fails when the drop is shown beyond it, and can be inconclusive (docs/gates.md, "What changed")',
    ]);
    expect(parse(`gates:\n  - metric: hit@5\n    significant_only: true\n    margin: 0.05\n`).notices).toEqual([
      'g.yml:2: `significant_only` now reads the gate\'s margin: it passes when its interval rules out a drop of it, fails when the drop is shown beyond it, and can be inconclusive (docs/gates.md, "What changed")',
    ]);
    // the preset's gates are significant_only too, but no line of the file asked for it
    expect(parse('preset: retrieval\n').notices).toEqual([]);
  });

  it('none in a config with a noise block (calibrate wrote it for the one-sided question)', () => {
    const noise =
      'noise:\n  measured: "2026-11-28T00:00:00Z"\n  runs: 3\n  metrics:\n    hit@5: { sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null }\n';
    const config = parse(`${noise}${line}`);
    expect(config.noise?.runs).toBe(3);
    expect(config.notices).toEqual([]);
    // read from its node, so an error names its line, a plain value's too
    expect(errorOf(`alpha: 0.05\nnoise: 5\n${line}`)).toBe(
      'g.yml:2: `noise` must be a map with measured, runs and metrics',
    );
    expect(errorOf(`${noise.replace('runs: 3', 'runs: 1')}${line}`)).toBe(
      'g.yml:3: `noise.runs` must be a whole number >= 2, got 1',
    );
  });
});

describe('settingsOf: the gates and options scoring uses', () => {
  const config = () =>
    parse(
      'preset: retrieval\nk: [20]\nprimary: mrr@10\ngates:\n  - metric: nDCG@3\n    min: 0\n  - metric: mrr@10\n    min: 0\n  - metric: hit@2000\n    min: 0\n  - metric: hit@0\n    min: 0\n  - metric: hit@1\n    min: 0\n  - metric: P@1000\n    min: 0\n  - metric: hit@7x\n    min: 0\n',
    );

  it("the config's k with every k a gate names (not mrr@'s, none past 1000 or below 1), sorted; the MRR cutoff's default", () => {
    const { options, config: at } = settingsOf(config(), {});
    expect(options).toEqual({ ks: [1, 3, 5, 10, 20, 1000], mrrCutoff: DEFAULT_OPTIONS.mrrCutoff, alpha: 0.05 });
    expect(at.gates.map((g) => g.metric)).toEqual(config().gates.map((g) => g.metric));
    expect(at.primary).toBe('mrr@10');
  });

  it("the command line's k and mrr_cutoff win; the preset's MRR gate and the primary follow the cutoff, the file's own do not", () => {
    const { options, config: at } = settingsOf(config(), { ks: [7], mrrCutoff: 20, minGrade: 2 });
    expect(options).toEqual({ ks: [1, 3, 5, 7, 10, 1000], mrrCutoff: 20, minGrade: 2, alpha: 0.05 });
    expect(at.gates.map((g) => [g.metric, g.origin])).toEqual([
      ['hit@5', 'preset retrieval'],
      ['mrr@20', 'preset retrieval'],
      ['nDCG@10', 'preset retrieval'],
      ['recall@10', 'preset retrieval'],
      ['nDCG@3', 'g.yml:5'],
      ['mrr@10', 'g.yml:7'],
      ['hit@2000', 'g.yml:9'],
      ['hit@0', 'g.yml:11'],
      ['hit@1', 'g.yml:13'],
      ['P@1000', 'g.yml:15'],
      ['hit@7x', 'g.yml:17'],
    ]);
    expect(at.primary).toBe('mrr@20');
    // the file's mrr_cutoff when the command line has none; no primary stays none
    const fromFile = settingsOf(parse('preset: retrieval\nmrr_cutoff: 5\n'), {});
    expect(fromFile.options.mrrCutoff).toBe(5);
    expect(fromFile.config.gates[1].metric).toBe('mrr@5');
    expect(fromFile.config.primary).toBeNull();
    expect(fromFile.options.ks).toEqual([...new Set([...DEFAULT_OPTIONS.ks, 5, 10])].sort((a, b) => a - b));
  });
});

describe('candidateOnlyDefaultConfig', () => {
  it("is the built-in default with every gate's on_no_data warn", () => {
    const alone = candidateOnlyDefaultConfig();
    const usual = defaultGateConfig();
    expect(alone.gates.map((g) => g.onNoData)).toEqual(usual.gates.map(() => 'warn'));
    expect({ ...alone, gates: alone.gates.map((g) => ({ ...g, onNoData: 'fail' })) }).toEqual(usual);
  });
});
