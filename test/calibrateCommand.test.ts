/**
 * `evalverdict calibrate` end to end (in process): three runs of one commit where 8 of 40 queries flip between a hit at
 * rank 1 and a miss, so hit@5's values per run and its spread are known by hand; the suggested YAML read back by
 * the gate config loader; fewer than two runs refused naming the database; runs with no results left out with a
 * warning, or refused (exit 2) naming them when fewer than two runs with results are left.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGateConfig } from '../src/gate/config.js';
import { hit, removeTempDirs, result, runCli, STACK_LINE, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';

afterAll(removeTempDirs);

const N = 40;
const golden = Array.from(
  { length: N },
  (_, i) => `- id: q${i}\n  query: query ${i}\n  expected_chunk_ids: [c${i}]\n`,
).join('');

/**
 * Run r: queries 0-7 flip (query i is found in run r when (i + r) is even), 8-35 always found at rank 1, 36-39
 * never. Run 0 finds 4 + 28 = 32, so hit@5 is 0.8 in every run; between two runs of different parity the 8 flipping
 * queries all differ, between runs 0 and 2 none: over the 3 pairs, 16 of 120 (query, pair) differences are +-1.
 */
function run(r: number, commit = 'abc1234') {
  return {
    runId: `nightly-${r}`,
    commitHash: commit,
    createdAt: `2026-11-2${r}T00:00:00Z`,
    results: Array.from({ length: N }, (_, i) => {
      const found = i < 8 ? (i + r) % 2 === 0 : i < 36;
      return result(`q${i}`, [hit(1, found ? `c${i}` : 'other')]);
    }),
  };
}

describe('evalverdict calibrate', () => {
  it('prints the spread, the detectable drop and a config the loader reads back', async () => {
    const dir = tempDir();
    const db = await writeRunDb({ runs: [run(0), run(1), run(2)] }, join(dir, 'runs.sqlite'));
    const g = writeGolden(golden, dir);
    const res = await runCli(['calibrate', db, '--golden', g, '--metrics', 'hit@5', '--json', join(dir, 'cal.json')]);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^3 runs of commit abc1234, the newest created 2026-11-22T00:00:00Z$/m);
    // sd(diff) = sqrt(16 / 120) = 0.3651; sd(mean) 0 (every run 0.8); changed 16 / 120 = 0.1333.
    expect(res.stdout).toMatch(
      /^hit@5\s+40 {2}0\.8000 {2}0\.0000 ±0\.0000\s+0\.3651 ±0\.\d{4}\s+0\.1333\s+0\.\d{4}\s+0\.\d\d$/m,
    );
    const json = JSON.parse(readFileSync(join(dir, 'cal.json'), 'utf8'));
    expect(json.metrics['hit@5']).toMatchObject({ n: 40, means: [0.8, 0.8, 0.8], sd_diff: 0.3651, changed: 0.1333 });
    const yaml = res.stdout.slice(res.stdout.indexOf('# Suggested by evalverdict calibrate'));
    expect(yaml).toBe(json.config);
    const config = parseGateConfig(yaml, 'pasted.yml');
    expect(config.gates).toHaveLength(1);
    expect(config.gates[0]).toMatchObject({ metric: 'hit@5', significantOnly: true, thresholds: { max_drop: 0 } });
    expect(config.gates[0].margin).toBe(json.metrics['hit@5'].margin);
    expect(config.alpha).toBe(0.05);
    expect(config.noise).toEqual({
      measured: '2026-11-22T00:00:00Z',
      runs: 3,
      commit: 'abc1234',
      metrics: { 'hit@5': { sd_diff: 0.3651, sd_mean: 0, changed: 0.1333, detects: json.metrics['hit@5'].detects } },
    });
  });

  it('prints the YAML alone with --format yaml, and warns when the runs record different commits', async () => {
    const dir = tempDir();
    const db = await writeRunDb({ runs: [run(0), run(1, 'def5678')] }, join(dir, 'runs.sqlite'));
    const res = await runCli(['calibrate', db, '--golden', writeGolden(golden, dir), '--format', 'yaml']);
    expect(res.status).toBe(0);
    expect(res.stderr).toMatch(/^warning: the runs record different commits \(abc1234, def5678\)/);
    const config = parseGateConfig(res.stdout, 'pasted.yml');
    expect(config.gates.map((gate) => gate.metric)).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10']);
    expect(config.noise?.commit).toBeNull();
  });

  it('puts the cutoffs it scored with into the config, and shows a hostile commit escaped', async () => {
    const dir = tempDir();
    const odd = 'abc\u001b[31m\nfake';
    const db = await writeRunDb({ runs: [run(0, odd), run(1, odd)] }, join(dir, 'runs.sqlite'));
    const g = writeGolden(golden, dir);
    const yaml = await runCli([
      'calibrate',
      db,
      '--golden',
      g,
      '--k',
      '5,20',
      '--metrics',
      'recall@20',
      '--format',
      'yaml',
    ]);
    expect(yaml.status).toBe(0);
    const config = parseGateConfig(yaml.stdout, 'pasted.yml');
    expect(config.ks).toEqual([5, 20]);
    expect(config.gates[0].metric).toBe('recall@20');
    expect(config.noise?.commit).toBe(odd);
    const text = await runCli(['calibrate', db, '--golden', g, '--metrics', 'hit@5']);
    expect(text.stdout.split('\n')[0]).toBe(
      '2 runs of commit abc\\u001b[31m\\nfak, the newest created 2026-11-21T00:00:00Z',
    );
  });

  it('reads the newest run of each of several databases', async () => {
    const dir = tempDir();
    const a = await writeRunDb({ runs: [run(0)] }, join(dir, 'a.sqlite'));
    const b = await writeRunDb({ runs: [run(1)] }, join(dir, 'b.sqlite'));
    const res = await runCli(['calibrate', a, b, '--golden', writeGolden(golden, dir), '--format', 'json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).runs).toEqual(['nightly-0', 'nightly-1']);
  });

  it("names the calibrated config's noise floor in the compare reports, without the significant_only notice", async () => {
    const dir = tempDir();
    const db = await writeRunDb({ runs: [run(0), run(1), run(2)] }, join(dir, 'runs.sqlite'));
    const g = writeGolden(golden, dir);
    const yaml = await runCli(['calibrate', db, '--golden', g, '--metrics', 'hit@5', '--format', 'yaml']);
    const config = join(dir, 'evalverdict.yml');
    writeFileSync(config, yaml.stdout);
    const pair = ['compare', db, db, '--golden', g, '--config', config, '--baseline-run', 'nightly-0'];
    const floor =
      'Noise floor (evalverdict calibrate, 3 runs of abc1234, 2026-11-22T00:00:00Z): hit@5 sd(diff) 0.3651, detects 0.2501';
    const markdown = await runCli([...pair, '--candidate-run', 'nightly-1', '--format', 'markdown']);
    expect(markdown.status).toBe(0);
    expect(markdown.stdout).toContain(`\n\n${floor.replace('hit@5', '`hit@5`')}\n`);
    expect(markdown.stderr).not.toMatch(/significant_only/);
    const text = await runCli([...pair, '--candidate-run', 'nightly-2', '--format', 'text']);
    expect(text.stdout).toContain(`\n${floor}\n`);
  });

  it('refuses fewer than two runs with exit 2, naming the database', async () => {
    const dir = tempDir();
    const db = await writeRunDb({ runs: [run(0)] }, join(dir, 'one.sqlite'));
    const res = await runCli(['calibrate', db, '--golden', writeGolden(golden, dir)]);
    expect(res.status).toBe(2);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stderr).toBe(
      `evalverdict: ${db}: calibrate needs at least 2 runs of one commit to measure its noise, got 1 (\`nightly-0\`): run the suite again on the same commit, or name several databases\n`,
    );
  });

  it('refuses runs with no results (exit 2), naming them, rather than print margins from them', async () => {
    const dir = tempDir();
    const g = writeGolden(golden, dir);
    const empty = (r: number) => ({ ...run(r), results: [] });
    const both = await writeRunDb({ runs: [empty(0), empty(1)] }, join(dir, 'empty.sqlite'));
    const res = await runCli(['calibrate', both, '--golden', g]);
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      `evalverdict: ${both}: runs \`nightly-0\`, \`nightly-1\` have no results in \`eval_query_results\`: calibrate needs at least 2 runs of one commit with results to measure its noise, got 0: run the suite again\n`,
    );
    // One run with results and one without: one run left, no noise to measure.
    const one = await writeRunDb({ runs: [run(0), empty(1)] }, join(dir, 'one-left.sqlite'));
    const left = await runCli(['calibrate', one, '--golden', g, '--format', 'yaml']);
    expect(left.status).toBe(2);
    expect(left.stderr).toMatch(
      /^evalverdict: .*one-left\.sqlite: run `nightly-1` has no results in `eval_query_results`: .*got 1: /,
    );
    // Several databases, their newest runs empty: each named with its file.
    const a = await writeRunDb({ runs: [empty(0)] }, join(dir, 'a.sqlite'));
    const b = await writeRunDb({ runs: [empty(1)] }, join(dir, 'b.sqlite'));
    const two = await runCli(['calibrate', a, b, '--golden', g]);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(
      /^evalverdict: runs `nightly-0` \(.*a\.sqlite\), `nightly-1` \(.*b\.sqlite\) have no results/,
    );
    expect(two.stderr).not.toMatch(STACK_LINE);
  });

  it('warns when one run of several has no results, and measures the others', async () => {
    const dir = tempDir();
    const g = writeGolden(golden, dir);
    const db = await writeRunDb({ runs: [run(0), { ...run(1), results: [] }, run(2)] }, join(dir, 'runs.sqlite'));
    const res = await runCli(['calibrate', db, '--golden', g, '--metrics', 'hit@5', '--format', 'json']);
    expect(res.status).toBe(0);
    expect(res.stderr).toBe(
      `warning: ${db}: run \`nightly-1\` has no results in \`eval_query_results\`: left out (an empty run is a failed run, not noise); calibrated from the other 2 runs\n`,
    );
    // Runs 0 and 2 agree on every query: no noise, as if the empty run had never been written.
    const json = JSON.parse(res.stdout);
    expect(json.runs).toEqual(['nightly-0', 'nightly-2']);
    expect(json.metrics['hit@5']).toMatchObject({ n: 40, means: [0.8, 0.8], sd_diff: 0, changed: 0 });
  });

  it('refuses a metric without a paired test, and a bad --power, with exit 2', async () => {
    const dir = tempDir();
    const db = await writeRunDb({ runs: [run(0), run(1)] }, join(dir, 'runs.sqlite'));
    const g = writeGolden(golden, dir);
    const unpaired = await runCli(['calibrate', db, '--golden', g, '--metrics', 'total_queries']);
    expect(unpaired.status).toBe(2);
    expect(unpaired.stderr).toMatch(/^evalverdict: --metrics: `total_queries` has no paired per-query test/);
    const typo = await runCli(['calibrate', db, '--golden', g, '--metrics', 'hit@55']);
    expect(typo.stderr).toMatch(/unknown metric `hit@55`; did you mean `hit@5`\?/);
    const power = await runCli(['calibrate', db, '--golden', g, '--power', '1.5']);
    expect(power.status).toBe(2);
    expect(power.stderr).toMatch(/^evalverdict: --power: "1\.5" is not a number between 0 and 1/);
  });
});
