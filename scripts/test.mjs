// `npm test`: vitest, and beside it the lint (`npm run lint`) at the lowest CPU priority, so it runs in the gaps vitest
// leaves while its action files wait on child processes (bench/README.md, "The test suite's own speed"). The lint's
// output is held and printed after vitest's; the exit status is the first failure's. Arguments go to vitest. A lint
// still running when vitest ends starts again at normal priority.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
// npm through the Node running this (npm sets npm_execpath for its scripts): no shell needed for npm.cmd on Windows.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
// `nice` before exec, so every thread of tsc (its collector's too) starts at the low priority. Windows has none.
const plainLint = [...npm, 'run', '--silent', 'lint'];
const lintCommand = [...(process.platform === 'win32' ? [] : ['nice', '-n', '19']), ...plainLint];

/**
 * Runs a command; resolves with its exit status, its seconds and, when `held`, its output. A held command runs in its
 * own process group, which `stop()` ends whole (npm, its shell and tsc).
 */
function run([command, ...args], held) {
  const started = performance.now();
  let child;
  const finished = new Promise((resolve) => {
    child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached: held });
    let output = '';
    if (held)
      for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (d) => (output += d));
    const done = (status) => resolve({ status, output, seconds: (performance.now() - started) / 1000 });
    child.on('error', (error) => {
      output += `${error.message}\n`;
      done(1);
    });
    child.on('close', (status, signal) => done(status ?? (signal ? 1 : 0)));
  });
  let settled = false;
  finished.then(() => (settled = true));
  const stop = () => {
    if (settled || process.platform === 'win32') return false;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      return false; // the group is gone: the lint ended, and `finished` is about to say how
    }
    return true;
  };
  return { finished, stop };
}

const lint = run(lintCommand, true);
const tests = await run([process.execPath, vitest, 'run', ...process.argv.slice(2)], false).finished;
// Beside other busy processes the niced lint can starve (bench/README.md, "The test suite's own speed").
const restarted = lint.stop();
const linted = await (restarted ? run(plainLint, true) : lint).finished;
const outcome = linted.status === 0 ? 'passed' : `failed, exit ${linted.status}`;
const how = restarted ? 'after vitest, restarted at normal priority' : 'beside vitest';
process.stdout.write(`\nlint (npm run lint, ${how}): ${outcome} in ${linted.seconds.toFixed(0)} s\n`);
if (linted.output.trim() !== '') process.stdout.write(linted.output.replace(/^\n+/, ''));
process.exitCode = tests.status !== 0 ? tests.status : linted.status;
