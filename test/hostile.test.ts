/**
 * The hostile corpus (test/helpers/hostileCorpus.ts, issue 25): each database run through the CLI as a child
 * process (the built CLI), with its exit code, its one-line message naming the file, no stack trace, a bound on CPU
 * time and peak memory, and for `--write` the rows of the database checked after.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostileCorpus } from './helpers/hostileCorpus.js';
import type { HostileCase } from './helpers/hostileCorpus.js';
import { FIXTURE_RUN_FLAGS } from './helpers/actionRunner.js';
import { hangSeconds, measuredCli } from './helpers/measuredCli.js';
import {
  hit,
  queryDb,
  RawResult,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';

afterAll(removeTempDirs);

let cases: HostileCase[] = [];
const dir = join(tempDir(), 'corpus');

beforeAll(async () => {
  cases = await buildHostileCorpus(dir);
}, 120_000);

describe('the hostile corpus: exit code, message, time and memory bounds', () => {
  it('every case', async () => {
    expect(cases.length).toBeGreaterThan(10);
    const failures: string[] = [];
    // Two at a time: each child is one core's worth of work at most.
    const queue = [...cases];
    const runOne = async (c: HostileCase) => {
      const before = c.unchanged ? await queryDb(c.unchanged.file, c.unchanged.sql) : null;
      // FIXTURE_RUN_FLAGS: these small cases use a fraction of their bounds (bench/README.md), and Liftoff alone runs
      // SQLite slower, so the time bounds only get stricter. hostileLargeValues' cases keep Node's defaults: their bounds
      // are close.
      const res = await measuredCli(c.args, hangSeconds(c.maxCpuSeconds), FIXTURE_RUN_FLAGS);
      const problems: string[] = [];
      if (res.killed) problems.push(`hung: still running after ${hangSeconds(c.maxCpuSeconds)} s of wall time`);
      if (res.status !== c.status) problems.push(`exit ${res.status}, expected ${c.status}`);
      if (!(res.cpuSeconds <= c.maxCpuSeconds))
        problems.push(`took ${res.cpuSeconds.toFixed(1)} s of CPU (bound ${c.maxCpuSeconds} s)`);
      if (!(res.maxRssMb <= c.maxRssMb))
        problems.push(`peak memory ${res.maxRssMb.toFixed(0)} MB (bound ${c.maxRssMb})`);
      if (STACK_LINE.test(res.stderr) || res.stderr.includes('internal error')) problems.push('a stack trace');
      for (const part of c.stderr) {
        const found = typeof part === 'string' ? res.stderr.includes(part) : part.test(res.stderr);
        if (!found) problems.push(`stderr lacks ${String(part)}`);
      }
      for (const part of c.stdout?.includes ?? [])
        if (!res.stdout.includes(part)) problems.push(`stdout lacks ${part}`);
      for (const part of c.stdout?.excludes ?? []) if (res.stdout.includes(part)) problems.push(`stdout holds ${part}`);
      if (c.status === 2 && res.stderr.trimEnd().split('\n').length !== 1) problems.push('a message of several lines');
      if (c.unchanged) {
        const after = await queryDb(c.unchanged.file, c.unchanged.sql);
        if (JSON.stringify(after) !== JSON.stringify(before)) problems.push(`rows changed: ${c.unchanged.sql}`);
      }
      if (c.after) {
        const rows = await queryDb(c.after.file, c.after.sql);
        if (JSON.stringify(rows) !== JSON.stringify(c.after.rows))
          problems.push(`${c.after.sql} gave ${JSON.stringify(rows)}`);
      }
      if (process.env.EVALVERDICT_TEST_USAGE)
        console.log(`${c.name}: ${res.cpuSeconds.toFixed(1)} s CPU, ${res.seconds.toFixed(1)} s wall`);
      if (problems.length > 0)
        failures.push(`${c.name}: ${problems.join('; ')}\n  stderr: ${res.stderr.slice(0, 500)}`);
    };
    const worker = async () => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) await runOne(c);
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
  }, 600_000);
});

/** Text made to steer the Actions log: each would start a workflow command on a line of its own. */
const INJECTIONS = [
  '\n::error title=INJECTED::x',
  '\r::add-mask::INJECTED',
  '\n  ::stop-commands::INJECTED',
  '##[error]INJECTED',
  '\u001b[31m',
];

/** Lines of `text` the Actions runner would read as a workflow command (a line ends at \n or \r). */
function commandLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => /^\s*::/.test(line) || line.includes('##['));
}

describe('logs that cannot be steered: ids with workflow commands stay inert and on one line', () => {
  const runId = `r1${INJECTIONS.join('')}`;
  const queryId = `q1${INJECTIONS.join('')}`;

  it('aggregate --write, an unknown --run, a bad row and unknown query ids', async () => {
    const golden = writeGolden('- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n');
    const file = await writeRunDb({
      runs: [
        {
          runId,
          results: [result('q1', [hit(1, 'c1', 'd1')]), result(queryId, [hit(1, 'c1', 'd1')])],
        },
      ],
    });
    const written = await runCli(['aggregate', file, '--golden', golden, '--write']);
    expect(written.status).toBe(0);
    const unknown = await runCli(['aggregate', file, '--golden', golden, '--run', `nope${INJECTIONS[0]}`]);
    expect(unknown.status).toBe(2);
    const bad = await writeRunDb({ runs: [{ runId, results: [new RawResult(queryId, '{"hits_top_k": [')] }] });
    const malformed = await runCli(['aggregate', bad, '--golden', golden]);
    expect(malformed.status).toBe(2);
    for (const res of [written, unknown, malformed]) {
      expect(commandLines(res.stdout + res.stderr)).toEqual([]);
      expect(res.stderr).not.toContain('\u001b');
    }
    // The written line and the errors: one line each, the ids' control characters escaped.
    const escapedRun =
      'r1\\n::error title=INJECTED::x\\r::add-mask::INJECTED\\n  ::stop-commands::INJECTED## [error]INJECTED\\u001b[31m';
    expect(written.stderr).toContain(`wrote aggregate_json of run ${escapedRun} into ${file}`);
    expect(written.stderr).toContain('results of 1 query id(s) the golden set does not have');
    expect(unknown.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain(
      `no run \`nope\\n::error title=INJECTED::x\` in \`eval_runs\` (runs: ${escapedRun})`,
    );
    expect(malformed.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(malformed.stderr).toContain(`query \`q1\\n::error title=INJECTED::x`);
    for (const res of [written, unknown, malformed]) {
      for (const line of res.stderr.trimEnd().split('\n')) expect(line).not.toMatch(/[\r\u0000-\u0008\u001b]/);
    }
  });

  it('the bin, as a child process: its raw stdout and stderr', async () => {
    const golden = writeGolden('- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n');
    const none = await writeRunDb({ runs: [{ runId, results: [result(queryId, [hit(1, 'c1', 'd1')])] }] });
    const refused = await spawnCli(['aggregate', none, '--golden', golden]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    const file = await writeRunDb({
      runs: [{ runId, results: [result('q1', [hit(1, 'c1', 'd1')]), result(queryId, [hit(1, 'c1', 'd1')])] }],
    });
    const written = await spawnCli(['aggregate', file, '--golden', golden, '--write']);
    expect(written.status, written.stderr).toBe(0);
    for (const res of [refused, written]) expect(commandLines(res.stdout + res.stderr)).toEqual([]);
  });
});
