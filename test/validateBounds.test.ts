/**
 * Issue 46: `evalverdict validate` holds each `result_json` to compare's bounds on a JSON cell (src/load/json.ts), found
 * before JSON.parse builds what the text holds, and names a cell past them in compare's words.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { USAGE_PROBE, childUsage } from './helpers/childUsage.js';
import {
  editDb,
  hit,
  RawResult,
  removeTempDirs,
  result,
  runCli,
  runNode,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';

afterAll(removeTempDirs);

/** JSON text that nests `levels` lists: `[[...]]`. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const GOLDEN =
  '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n- id: q2\n  query: two\n  expected_chunk_ids: [c2]\n';

describe('validate and the bounds on a JSON cell', () => {
  it("names a result_json past compare's bounds in compare's words, long text or short", async () => {
    const cases: Array<[string, string, string]> = [
      // 1.2 Mi characters: scanned before parsing; a parse would build 600,000 nested lists
      ['deep', nested(600_000), 'column `result_json`: JSON nested more than 100 levels deep'],
      [
        'wide',
        `{"x": [${'[],'.repeat(500_001)}[]]}`,
        'column `result_json`: JSON holds more than 500,000 lists and objects, the most EvalVerdict reads in one value',
      ],
      // Short: not scanned, its depth checked on the value as compare checks it
      ['short', `{"x": ${nested(150)}}`, 'column `result_json`: JSON nested more than 100 levels deep'],
    ];
    const golden = writeGolden(GOLDEN);
    for (const [name, text, words] of cases) {
      const file = await writeRunDb({
        runs: [{ runId: name, results: [result('q1', [hit(1, 'c1')]), new RawResult('q2', text)] }],
      });
      const validated = await runCli(['validate', file, '--format', 'json']);
      expect(validated.status, name).toBe(1);
      const report = JSON.parse(validated.stdout) as { rows: number; findings: Array<Record<string, unknown>> };
      expect(report.rows, name).toBe(2);
      expect(report.findings, name).toEqual([
        expect.objectContaining({ check: 'invalid-json', query: 'q2', field: 'result_json', count: 1, text: words }),
      ]);
      // compare and aggregate refuse the same cell, naming the same column in the same words
      const aggregated = await runCli(['aggregate', file, '--golden', golden]);
      expect(aggregated.status, name).toBe(2);
      expect(aggregated.stderr, name).toContain(`query \`q2\`, ${words}`);
    }
  });

  it('checks a 16 MiB cell of nested lists in bounded memory and CPU time', async () => {
    const file = await writeRunDb({ runs: [{ runId: 'r1', results: [result('q1', [hit(1, 'c1')])] }] });
    const half = 8 << 20;
    await editDb(file, (db) =>
      db.run(
        `INSERT INTO eval_query_results VALUES ('r1', 'q2', printf('%.*c', ${half}, '[') || printf('%.*c', ${half}, ']'))`,
      ),
    );
    // validate from the source (tsx), in a child whose CPU time and peak memory the probe reports
    const script = `import { runMain } from './src/cli/main.ts';
      const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
      process.exitCode = await runMain(['validate', ${JSON.stringify(file)}], io);`;
    const out = await runNode(['--import', 'tsx', '--import', USAGE_PROBE, '--input-type=module', '-e', script]);
    const usage = childUsage(out.stderr);
    expect(usage.stderr).toBe('');
    // Bounds that a parse of the whole cell passes several times over (the figures: docs/run-database.md).
    expect(usage.maxRssMb).toBeLessThan(400);
    expect(usage.cpuSeconds).toBeLessThan(2.5);
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('query `q2`: column `result_json`: JSON nested more than 100 levels deep');
  });
});
