/**
 * An empty list of cutoffs is refused where a user can give one, naming the flag or key (exit 2): `--k` on the
 * command line and `k:` in the gate config. The library's own `ks: []` is in compareEdges.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseGateConfig } from '../src/gate/config.js';
import { runCli } from './helpers/runDb.js';

const FIXTURES = ['fixtures/baseline.sqlite', 'fixtures/candidate.sqlite', '--golden', 'fixtures/golden.yaml'];

describe('no cutoffs given', () => {
  it('--k with no cutoff in it: exit 2, naming --k, nothing on stdout', async () => {
    for (const k of ['', ',', ' , ']) {
      const res = await runCli(['compare', ...FIXTURES, '--k', k, '--format', 'json']);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(
        `evalverdict: --k: ${JSON.stringify(k)} is not a whole number 1-1000 or a comma list of them\n`,
      );
    }
  });

  it('`k: []` in the gate config: refused with its file and line', () => {
    expect(() => parseGateConfig('k: []\n', 'gates.yml')).toThrow(
      /^gates\.yml:1: `k` must be a whole number 1-1000 or a list of them, e\.g\. \[1, 5, 10, 20\]$/,
    );
  });
});
