/**
 * The second hostile corpus (test/helpers/hostileCorpus35.ts, issue 35): each case through the CLI as a child
 * process (the built CLI), with its exit code, message, and a bound on CPU time, peak memory and the size of stderr.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostileCase } from './helpers/hostileCorpus.js';
import { buildHostileCorpus35, emptyDb, finish } from './helpers/hostileCorpus35.js';
import { hangSeconds, measuredCli } from './helpers/measuredCli.js';
import { removeTempDirs, STACK_LINE, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

let cases: HostileCase[] = [];
const dir = join(tempDir(), 'corpus35');

beforeAll(async () => {
  cases = await buildHostileCorpus35(dir);
}, 300_000);

describe('work, memory and messages bounded by the largest value, not by products or tables', () => {
  it('every case', async () => {
    expect(cases.length).toBe(9);
    const failures: string[] = [];
    // One at a time: the memory bounds are for the case alone.
    for (const c of cases) {
      const res = await measuredCli(c.args, hangSeconds(c.maxCpuSeconds));
      const problems: string[] = [];
      if (res.killed) problems.push(`hung: still running after ${hangSeconds(c.maxCpuSeconds)} s of wall time`);
      if (res.status !== c.status) problems.push(`exit ${res.status}, expected ${c.status}`);
      if (!(res.cpuSeconds <= c.maxCpuSeconds))
        problems.push(`took ${res.cpuSeconds.toFixed(1)} s of CPU (bound ${c.maxCpuSeconds} s)`);
      if (!(res.maxRssMb <= c.maxRssMb))
        problems.push(`peak memory ${res.maxRssMb.toFixed(0)} MB (bound ${c.maxRssMb})`);
      if (STACK_LINE.test(res.stderr) || res.stderr.includes('internal error')) problems.push('a stack trace');
      const stderrBytes = Buffer.byteLength(res.stderr);
      if (c.maxStderrBytes !== undefined && stderrBytes > c.maxStderrBytes)
        problems.push(`stderr of ${stderrBytes} bytes (bound ${c.maxStderrBytes})`);
      for (const part of c.stderr) {
        const found = typeof part === 'string' ? res.stderr.includes(part) : part.test(res.stderr);
        if (!found) problems.push(`stderr lacks ${String(part)}`);
      }
      for (const part of c.stdout?.includes ?? [])
        if (!res.stdout.includes(part)) problems.push(`stdout lacks ${part}`);
      if (c.status === 2 && res.stderr.trimEnd().split('\n').length !== 1) problems.push('a message of several lines');
      // Measured figures, for the report: name, CPU seconds (the bound), wall seconds (this machine, now), MB.
      console.log(
        `${c.name}: ${res.cpuSeconds.toFixed(1)} s CPU, ${res.seconds.toFixed(1)} s wall, ${res.maxRssMb.toFixed(0)} MB, exit ${res.status}`,
      );
      if (problems.length > 0)
        failures.push(`${c.name}: ${problems.join('; ')}\n  stderr: ${res.stderr.slice(0, 500)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('the corpus builder', () => {
  it('a database built in a pre-grown file has the bytes of one built in a file of its own size', async () => {
    const build = async (room: number) => {
      const db = await emptyDb(room);
      db.run("INSERT INTO documents VALUES ('d1', 'doc.md')");
      const chunk = db.prepare("INSERT INTO chunks VALUES (?, 'd1', ?, '[]', '[]', 1, 'v1')");
      for (let i = 0; i < 2_000; i++) chunk.run([`k${i}`, `text ${i} `.repeat(300)]);
      chunk.free();
      db.run("INSERT INTO chunks VALUES ('big', 'd1', printf('%.*c', 3000000, 'x'), '[]', '[]', 1, 'v1')");
      return finish(db);
    };
    const exact = await build(0);
    const roomy = await build(64 << 20);
    expect(exact.length).toBeGreaterThan(8 << 20);
    expect(roomy.length).toBe(exact.length);
    expect(createHash('sha256').update(roomy).digest('hex')).toBe(createHash('sha256').update(exact).digest('hex'));
  });
});
