// `npm test`: the lint (`npm run lint`: tsc, then Biome) beside vitest instead of before it. The type check is
// ~10 s on one core, and vitest leaves a tenth of the cores idle while its action files wait on child processes and
// the stand-in API; run first, the lint added its whole time to the suite's (bench/README.md, "The test suite's own
// speed"). vitest's output streams as before; the lint's is held and printed after it, and the exit status is the
// first failure's. Arguments go to vitest (`npm test -- test/golden.test.ts`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command; resolves with its exit status and, when `held`, its output. */
function run(command, args, held) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (held)
      for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
    child.on('close', (status, signal) => resolve({ status: status ?? (signal ? 1 : 0), output }));
  });
}

const lint = run(npm, ['run', '--silent', 'lint'], true);
const tests = await run(process.execPath, [vitest, 'run', ...process.argv.slice(2)], false);
const linted = await lint;
process.stdout.write(`\nlint (npm run lint): ${linted.status === 0 ? 'passed' : `failed, exit ${linted.status}`}\n`);
if (linted.output.trim() !== '') process.stdout.write(linted.output.replace(/^\n+/, ''));
process.exitCode = tests.status !== 0 ? tests.status : linted.status;
