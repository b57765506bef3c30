/** The gate config's gates at the cutoffs scoring uses: the retrieval preset holds under any `k` and `mrr_cutoff`. */
import { describe, expect, it } from 'vitest';
import { atScoringCutoffs, parseGateConfig } from '../src/gate/config.js';
import { runCompare } from '../src/pipeline/pipeline.js';
import { join } from 'node:path';
import { repoRoot } from './shared.js';

const fixturePath = (name: string) => join(repoRoot, 'fixtures', name);

describe('atScoringCutoffs', () => {
  const preset = () => parseGateConfig('preset: retrieval\nprimary: mrr@10\n', 'g.yml');

  it('adds the k of every gate to the k list, and moves the preset MRR gate to the MRR cutoff', () => {
    const { config, options } = atScoringCutoffs(preset(), { ks: [20], mrrCutoff: 5 });
    expect(options.ks).toEqual([5, 10, 20]);
    expect(options.mrrCutoff).toBe(5);
    expect(config.gates.map((g) => g.metric)).toEqual(['hit@5', 'mrr@5', 'nDCG@10', 'recall@10']);
    expect(config.primary).toBe('mrr@5');
  });

  it("takes the config's k and mrr_cutoff, and the command line's over them", () => {
    const config = parseGateConfig('preset: retrieval\nk: [3]\nmrr_cutoff: 20\n', 'g.yml');
    expect(atScoringCutoffs(config, {}).options).toEqual({ ks: [3, 5, 10], mrrCutoff: 20 });
    expect(atScoringCutoffs(config, { ks: [7], mrrCutoff: 4 }).options).toEqual({ ks: [5, 7, 10], mrrCutoff: 4 });
  });

  it("leaves a config's own MRR gate, and a k over 1000, to be refused by name", () => {
    const config = parseGateConfig(
      'gates:\n  - metric: mrr@10\n    min: 0.5\n  - metric: hit@5000\n    min: 0.5\n',
      'g.yml',
    );
    const { config: at, options } = atScoringCutoffs(config, { mrrCutoff: 5 });
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
