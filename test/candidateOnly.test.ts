/**
 * A candidate-only report (`compare --baseline none CAND.sqlite`): one run gated on fixed thresholds, as a
 * benchmark's `--fail-under` does. `min` and `max` gates apply to the candidate's values (the same values
 * `aggregate` reports); gates that compare with a baseline say "no baseline" and follow `on_no_data`.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareReport } from '../src/gate/types.js';
import { checkMarkdown } from './helpers/markdownChecks.js';
import { runCli, removeTempDirs, tempDir, writeGolden } from './helpers/runDb.js';

afterAll(removeTempDirs);

const CANDIDATE = ['compare', '--baseline', 'none', 'fixtures/candidate.sqlite', '--golden', 'fixtures/golden.yaml'];

async function gated(config: string, format = 'json') {
  const file = writeGolden(config, tempDir(), 'gates.yml');
  return runCli([...CANDIDATE, '--config', file, '--format', format]);
}

describe('compare --baseline none', async () => {
  const aggregate = JSON.parse(
    (await runCli(['aggregate', 'fixtures/candidate.sqlite', '--golden', 'fixtures/golden.yaml', '--json'])).stdout,
  ) as { metrics: Record<string, { value: number | null; n: number }> };

  it('min and max gates on the candidate alone: pass (exit 0) and fail (exit 1)', async () => {
    // the candidate's hit@1 is 78/225 = 0.3467 (aggregate says the same, below)
    const pass = await gated('gates:\n  - metric: hit@1\n    min: 0.34\n  - metric: error_rate\n    max: 0\n');
    expect(pass.status).toBe(0);
    const passed = JSON.parse(pass.stdout) as CompareReport;
    expect(passed.verdict).toBe('pass');
    expect(passed.gates.map((g) => [g.metric, g.result, g.candidate])).toEqual([
      ['hit@1', 'pass', 0.3467], // 78/225, rounded to 4 decimals in the JSON
      ['error_rate', 'pass', 0],
    ]);
    const fail = await gated('gates:\n  - metric: hit@1\n    min: 0.35\n');
    expect(fail.status).toBe(1);
    expect((JSON.parse(fail.stdout) as CompareReport).gates[0]).toMatchObject({ result: 'fail', effect: 'fail' });
  });

  it('the candidate values are exactly what aggregate reports for the run, with the same denominators', async () => {
    const report = JSON.parse((await gated('gates: []\n')).stdout) as CompareReport;
    expect(report.baseline).toBeNull();
    for (const id of ['hit@1', 'mrr@10', 'nDCG@10', 'recall@10', 'MAP', 'citation_coverage', 'latency_p95_ms']) {
      expect(report.metrics[id].candidate, id).toBe(aggregate.metrics[id].value);
      expect(report.metrics[id].n, id).toBe(aggregate.metrics[id].n);
      expect(report.metrics[id]).toMatchObject({ baseline: null, delta: null, p_value: null, ci: null });
    }
    expect(report.per_query).toEqual([]);
    expect(report.counts).toEqual({ win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 });
  });

  it('a gate that needs a baseline says so and follows on_no_data (fail by default, pass when told)', async () => {
    const res = await gated(
      'gates:\n  - metric: nDCG@10\n    max_drop: 0.01\n  - metric: regressions\n    max: 0\n    on_no_data: pass\n',
    );
    expect(res.status).toBe(1);
    const report = JSON.parse(res.stdout) as CompareReport;
    expect(report.gates.map((g) => [g.metric, g.result, g.effect])).toEqual([
      ['nDCG@10', 'no_data', 'fail'],
      ['regressions', 'no_data', 'none'],
    ]);
    expect(report.gates[0].note).toBe(
      'no baseline: a candidate-only report has nothing to compare with; on_no_data: fail',
    );
  });

  it('the Markdown says it is a candidate-only report, and has no per-query comparison', async () => {
    const res = await gated('gates:\n  - metric: hit@1\n    min: 0.34\n', 'markdown');
    expect(checkMarkdown(res.stdout).problems).toEqual([]);
    expect(res.stdout.split('\n').slice(0, 2)).toEqual(['> [!TIP]', '> **EvalVerdict: pass** — the gate passed']);
    expect(res.stdout).toContain('**without a baseline**: a candidate-only report, gated on `min` and `max`');
    expect(res.stdout).toContain('| metric | candidate | n |');
    expect(res.stdout).not.toContain('#### Regressions');
    expect(res.stdout).not.toContain('Regressions and losses');
  });

  it('usage: --baseline takes only `none`, and then one database', async () => {
    const other = await runCli(['compare', '--baseline', 'b.sqlite', 'c.sqlite', '--golden', 'g.yaml']);
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/^evalverdict: --baseline takes `none` \(a candidate-only report\)/);
    const two = await runCli([...CANDIDATE, 'fixtures/baseline.sqlite']);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/^evalverdict: with --baseline none, give one candidate database/);
  });

  it('the files are written as for a comparison', async () => {
    const dir = tempDir();
    const res = await runCli([...CANDIDATE, '--json', join(dir, 'r.json'), '--markdown', join(dir, 'r.md')]);
    expect(res.status).toBe(1); // the default config's relative gates have no data
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ baseline: null, verdict: 'fail' });
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toMatch(/^> \[!CAUTION\]/);
  });
});
