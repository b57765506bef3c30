/**
 * A CLI run in a child process with its CPU time and peak memory, for the bounds of the hostile corpus: the built
 * CLI (dist/cli/index.js), as users run it (and far cheaper to start than the source through tsx).
 */
import { spawn } from 'node:child_process';
import { repoRoot } from '../shared.js';
import { CLI_BUNDLE, ensureBuilt } from './actionRunner.js';
import { childUsage, USAGE_PROBE } from './childUsage.js';

export interface Measured {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The child's CPU time (user + system, every thread), in seconds: the bound on its work. */
  cpuSeconds: number;
  /** Wall time, for the log only: never asserted (it grows on a busy machine). */
  seconds: number;
  maxRssMb: number;
  /** Killed by the hang guard (`hangSeconds` of wall time). */
  killed: boolean;
}

/**
 * The hang guard for a run bounded by `cpuBound` seconds of CPU: wall time far past it, as a machine running four
 * other busy processes on two cores stretches the wall clock some three times (issue 46). Only a hang trips it.
 */
export function hangSeconds(cpuBound: number): number {
  return Math.max(120, 8 * cpuBound);
}

/**
 * `evalverdict ARGS` in a child process, its CPU time and peak memory reported; killed past `hangSeconds` of wall time,
 * a guard against hangs only (make it generous: a busy machine stretches the wall clock). `nodeFlags` go to Node
 * before the CLI: none (Node's defaults, as users run it) unless the caller's bounds leave room for others.
 */
export function measuredCli(args: string[], hangSeconds: number, nodeFlags: string[] = []): Promise<Measured> {
  ensureBuilt();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeFlags, '--import', USAGE_PROBE, CLI_BUNDLE, ...args], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, hangSeconds * 1000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      const usage = childUsage(stderr);
      resolve({
        status,
        stdout,
        stderr: usage.stderr,
        cpuSeconds: usage.cpuSeconds,
        seconds: (performance.now() - started) / 1000,
        maxRssMb: usage.maxRssMb,
        killed,
      });
    });
  });
}
