/**
 * The settings scoring and testing share (k, mrr_cutoff, alpha): bounded once, by the gate-config schema's bounds,
 * at every door (the config, the CLI's flags, the action's inputs); resolved once (settingsOf) and passed down, the
 * gates testing at the comparison's level. And the config's gates at the cutoffs scoring uses: the retrieval preset
 * holds under any `k` and `mrr_cutoff`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getInputs } from '../src/action/inputs.js';
import { metricOptions } from '../src/cli/args.js';
import { compareRuns } from '../src/compare/compare.js';
import { parseGateConfig, settingsOf } from '../src/gate/config.js';
import { applyGates } from '../src/gate/gates.js';
import { ALPHA_ABOVE, ALPHA_MAX, CUTOFF_MAX, CUTOFF_MIN } from '../src/gate/settings.js';
import { readGoldenFile } from '../src/load/golden.js';
import { deferRunStream, openRunStream } from '../src/load/runDatabase.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import { runCli } from './helpers/runDb.js';
import { repoRoot } from './shared.js';

const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/gate-config.schema.json'), 'utf8'));

describe('the shared settings are bounded once, by the schema', () => {
  it("the bounds are the schema's: k (one or a list) and mrr_cutoff alike, alpha's", () => {
    const k = schema.properties.k.anyOf;
    expect([k[0].minimum, k[0].maximum]).toEqual([CUTOFF_MIN, CUTOFF_MAX]);
    expect([k[1].items.minimum, k[1].items.maximum]).toEqual([CUTOFF_MIN, CUTOFF_MAX]);
    const cutoff = schema.properties.mrr_cutoff;
    expect([cutoff.minimum, cutoff.maximum]).toEqual([CUTOFF_MIN, CUTOFF_MAX]);
    expect([schema.properties.alpha.exclusiveMinimum, schema.properties.alpha.maximum]).toEqual([
      ALPHA_ABOVE,
      ALPHA_MAX,
    ]);
    expect([CUTOFF_MIN, CUTOFF_MAX]).toEqual([1, 1000]);
  });

  const gate = 'gates:\n  - metric: hit@1\n    min: 0\n';
  const env = (k: string, cutoff: string) => ({
    INPUT_BASELINE: 'b.sqlite',
    INPUT_CANDIDATE: 'c.sqlite',
    INPUT_GOLDEN: 'g.yaml',
    INPUT_K: k,
    'INPUT_MRR-CUTOFF': cutoff,
    GITHUB_WORKSPACE: repoRoot,
  });

  it('the top bound is taken at every door: the config, a flag, an input', () => {
    const max = String(CUTOFF_MAX);
    expect(parseGateConfig(`k: [1, ${max}]\nmrr_cutoff: ${max}\n${gate}`, 'g.yml')).toMatchObject({
      ks: [1, CUTOFF_MAX],
      mrrCutoff: CUTOFF_MAX,
    });
    expect(metricOptions({ k: `1,${max}`, 'mrr-cutoff': max })).toMatchObject({
      ks: [1, CUTOFF_MAX],
      mrrCutoff: CUTOFF_MAX,
    });
    expect(getInputs(env(`1,${max}`, max)).metricOptions).toEqual({ ks: [1, CUTOFF_MAX], mrrCutoff: CUTOFF_MAX });
  });

  it('one past it is refused at every door, each naming itself and the same bounds', () => {
    const over = String(CUTOFF_MAX + 1);
    expect(() => parseGateConfig(`k: ${over}\n${gate}`, 'g.yml')).toThrow(
      'g.yml:1: `k` must be a whole number 1-1000 or a list of them',
    );
    expect(() => parseGateConfig(`mrr_cutoff: ${over}\n${gate}`, 'g.yml')).toThrow(
      'g.yml:1: `mrr_cutoff` must be a whole number 1-1000',
    );
    expect(() => metricOptions({ k: `5,${over}` })).toThrow(
      '--k: "5,1001" is not a whole number 1-1000 or a comma list of them',
    );
    expect(() => metricOptions({ 'mrr-cutoff': over })).toThrow('--mrr-cutoff: "1001" is not a whole number 1-1000');
    expect(() => getInputs(env(over, ''))).toThrow(
      'input `k`: "1001" is not a whole number 1-1000 or a comma list of them',
    );
    expect(() => getInputs(env('', over))).toThrow('input `mrr-cutoff`: "1001" is not a whole number 1-1000');
    expect(() => metricOptions({ k: '0' })).toThrow('--k: "0" is not a whole number 1-1000');
    expect(() => metricOptions({ 'mrr-cutoff': '0x10' })).toThrow('--mrr-cutoff: "0x10" is not a whole number 1-1000');
  });

  it('the command line refuses a k past the bound with exit 2, before reading anything', async () => {
    const res = await runCli([
      'compare',
      'nowhere.sqlite',
      'nowhere.sqlite',
      '--golden',
      'nowhere.yaml',
      '--k',
      '5000',
    ]);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe('evalverdict: --k: "5000" is not a whole number 1-1000 or a comma list of them\n');
  });
});

describe("alpha is resolved once and passed down: the gates test at the comparison's level", () => {
  it("settingsOf gives the comparison the config's alpha, and the gates' words and bounds follow it", async () => {
    const config = parseGateConfig(`alpha: 0.1\ngates:\n  - metric: hit@5\n    margin: 0.2\n`, 'g.yml');
    const { config: atCutoffs, options } = settingsOf(config, {});
    expect(options.alpha).toBe(0.1);
    const golden = readGoldenFile(fixturePath('golden.yaml'));
    const compared = compareRuns(
      await openRunStream(fixturePath('baseline.sqlite')),
      await deferRunStream(fixturePath('candidate.sqlite')),
      golden,
      options,
    );
    const { report } = applyGates(compared, atCutoffs);
    expect(report.alpha).toBe(0.1);
    expect(report.gates[0].threshold).toBe('drop < 0.2000 (margin) (bounds at α 0.1)');
    expect(report.gates[0].ci_level).toBeCloseTo(0.8, 12);
  });
});

const fixturePath = (name: string) => join(repoRoot, 'fixtures', name);

describe('settingsOf', () => {
  const preset = () => parseGateConfig('preset: retrieval\nprimary: mrr@10\n', 'g.yml');

  it('adds the k of every gate to the k list, and moves the preset MRR gate to the MRR cutoff', () => {
    const { config, options } = settingsOf(preset(), { ks: [20], mrrCutoff: 5 });
    expect(options.ks).toEqual([5, 10, 20]);
    expect(options.mrrCutoff).toBe(5);
    expect(config.gates.map((g) => g.metric)).toEqual(['hit@5', 'mrr@5', 'nDCG@10', 'recall@10']);
    expect(config.primary).toBe('mrr@5');
  });

  it("takes the config's k and mrr_cutoff, and the command line's over them", () => {
    const config = parseGateConfig('preset: retrieval\nk: [3]\nmrr_cutoff: 20\n', 'g.yml');
    expect(settingsOf(config, {}).options).toEqual({ ks: [3, 5, 10], mrrCutoff: 20, alpha: 0.05 });
    expect(settingsOf(config, { ks: [7], mrrCutoff: 4 }).options).toEqual({
      ks: [5, 7, 10],
      mrrCutoff: 4,
      alpha: 0.05,
    });
  });

  it("leaves a config's own MRR gate, and a k over 1000, to be refused by name", () => {
    const config = parseGateConfig(
      'gates:\n  - metric: mrr@10\n    min: 0.5\n  - metric: hit@5000\n    min: 0.5\n',
      'g.yml',
    );
    const { config: at, options } = settingsOf(config, { mrrCutoff: 5 });
    expect(at.gates.map((g) => g.metric)).toEqual(['mrr@10', 'hit@5000']);
    expect(options.ks).toEqual([1, 3, 5, 10]);
  });

  it('compare with --k 20 and the built-in default gates the preset metrics (it stopped on "unknown metric hit@5")', async () => {
    const out = await runCompare({
      baselinePath: fixturePath('baseline.sqlite'),
      candidatePath: fixturePath('candidate.sqlite'),
      goldenPath: fixturePath('golden.yaml'),
      options: { ks: [20], mrrCutoff: 5 },
    });
    expect(out.report.gates.map((g) => g.metric)).toEqual(['hit@5', 'mrr@5', 'nDCG@10', 'recall@10']);
    expect(out.report.options.ks).toEqual([5, 10, 20]);
  });
});
