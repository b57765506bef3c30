/**
 * The Python run-database writer's own unittest suite (clients/python/tests), run here so `npm test` covers it.
 * It needs python3 (3.8 or newer); without one the suite skips and says so, and CI (which has python3) runs it.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './shared.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython && process.env.CI) throw new Error('python3 is missing: CI must run the Python writer tests');
if (!hasPython) console.warn('skipping: python3 not found (clients/python tests need it)');

describe.skipIf(!hasPython)('clients/python: the run-database writer', () => {
  it('passes its unittest suite', () => {
    const run = spawnSync('python3', ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-v'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    // unittest prints "Ran N tests" and "OK": a suite that found no test would print "Ran 0 tests".
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
    expect(run.stderr).toMatch(/\nOK\n/);
  });
});
