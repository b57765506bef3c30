/**
 * A CLI run in a child process with its wall time and peak memory, for the bounds of the hostile corpus: the built
 * CLI (dist/cli/index.js), as users run it (and far cheaper to start than the source through tsx).
 */
import { spawn } from 'node:child_process';
import { repoRoot } from '../shared.js';
import { CLI_BUNDLE, ensureBuilt } from './actionRunner.js';

export interface Measured {
  status: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  maxRssMb: number;
  killed: boolean;
}

const RSS_LINE = /\nevalgate-test-maxrss-kib=(\d+)\n$/;

/**
 * `evalgate ARGS` in a child process, killed past `limitSeconds`, its peak memory reported. `nodeFlags` go to Node
 * before the CLI: none (Node's defaults, as users run it) unless the caller's bounds leave room for others.
 */
export function measuredCli(args: string[], limitSeconds: number, nodeFlags: string[] = []): Promise<Measured> {
  ensureBuilt();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [...nodeFlags, '--import', './test/helpers/maxRss.mjs', CLI_BUNDLE, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limitSeconds * 1000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      const rss = RSS_LINE.exec(stderr);
      resolve({
        status,
        stdout,
        stderr: rss ? stderr.slice(0, rss.index) : stderr,
        seconds: (performance.now() - started) / 1000,
        maxRssMb: rss ? Number(rss[1]) / 1024 : Number.NaN,
        killed,
      });
    });
  });
}
