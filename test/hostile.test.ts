/**
 * The hostile corpus (test/helpers/hostileCorpus.ts, issue 25): each database run through the CLI as a child
 * process from source, with its exit code, its one-line message naming the file, no stack trace, a bound on wall
 * time and peak memory, and for `--write` the rows of the database checked after.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHostileCorpus } from './helpers/hostileCorpus.js';
import type { HostileCase } from './helpers/hostileCorpus.js';
import { measuredCli } from './helpers/measuredCli.js';
import { queryDb, removeTempDirs, STACK_LINE, tempDir } from './helpers/runDb.js';

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
      const res = await measuredCli(c.args, c.maxSeconds * 2);
      const problems: string[] = [];
      if (res.killed) problems.push(`still running after ${c.maxSeconds * 2} s`);
      if (res.status !== c.status) problems.push(`exit ${res.status}, expected ${c.status}`);
      if (res.seconds > c.maxSeconds) problems.push(`took ${res.seconds.toFixed(1)} s (bound ${c.maxSeconds} s)`);
      if (!(res.maxRssMb <= c.maxRssMb))
        problems.push(`peak memory ${res.maxRssMb.toFixed(0)} MB (bound ${c.maxRssMb})`);
      if (STACK_LINE.test(res.stderr) || res.stderr.includes('internal error')) problems.push('a stack trace');
      for (const part of c.stderr) {
        const found = typeof part === 'string' ? res.stderr.includes(part) : part.test(res.stderr);
        if (!found) problems.push(`stderr lacks ${String(part)}`);
      }
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
