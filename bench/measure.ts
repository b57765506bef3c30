/**
 * How the bench scripts (bench/run.ts, bench/sample.ts) measure: the built CLI run as a child process, exactly as
 * a user runs it, with its wall time, CPU time and peak RSS; and the machine's speed at the time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './generate.js';

const RSS_PRELOAD = join(BENCH_DIR, 'rss.mjs');

export interface Measured {
  wallS: number;
  rssMb: number | null;
  userS: number | null;
  systemS: number | null;
  exitCode: number | null;
  timedOut: boolean;
  /** 1-minute load average when the child started (other work on the machine shows here). */
  load1?: number;
  /** With --repeat N: the fastest and slowest of the N wall times (the median is wallS). */
  wallRange?: [number, number];
}

/** The lower median (the middle value, or the lower of the two middle ones). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Runs `node --import rss.mjs ARGS` (or any command when `plain`), stdout to `stdoutFile`; wall time from spawn to exit. */
export function measure(args: string[], stdoutFile: string, timeoutS: number, cwd: string): Promise<Measured> {
  const statsFile = `${stdoutFile}.stats.json`;
  rmSync(statsFile, { force: true });
  const out = openSync(stdoutFile, 'w');
  const errFile = `${stdoutFile}.stderr`;
  const err = openSync(errFile, 'w');
  const load1 = loadavg()[0];
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', RSS_PRELOAD, ...args], {
      cwd,
      stdio: ['ignore', out, err],
      env: { ...process.env, EVALVERDICT_BENCH_STATS: statsFile },
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
      clearTimeout(timer);
      closeSync(out);
      closeSync(err);
      let stats: { maxRssKb: number; userCpuUs: number; systemCpuUs: number } | null = null;
      try {
        stats = JSON.parse(readFileSync(statsFile, 'utf8'));
      } catch {
        /* killed before exit */
      }
      if (code !== 0 && code !== 1 && !timedOut) {
        log(`  child exited ${code}: ${readFileSync(errFile, 'utf8').slice(0, 2000)}`);
      }
      resolve({
        wallS,
        rssMb: stats ? (stats.maxRssKb * 1024) / 1e6 : null,
        userS: stats ? stats.userCpuUs / 1e6 : null,
        systemS: stats ? stats.systemCpuUs / 1e6 : null,
        exitCode: code,
        timedOut,
        load1,
      });
    });
  });
}

/**
 * The machine's speed now: bench/calibrate.mjs's milliseconds, the fastest of `runs` processes. A rough gauge (it
 * varies ~10% between runs itself), for telling a slow stretch of the VM from a slower build across bench runs.
 */
export function calibrate(runs = 3): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [join(BENCH_DIR, 'calibrate.mjs')], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`bench/calibrate.mjs failed (status ${r.status}): ${r.stderr}`);
    times.push(Number(r.stdout.trim()));
  }
  return Math.min(...times);
}
