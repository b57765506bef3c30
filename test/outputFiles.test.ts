/**
 * How output files are written (issue 25): standard streams and devices written through, never replaced; new files
 * 0600 from their first byte, existing ones keep their mode; temporary files of a killed run swept by the next
 * write, and removed when SIGTERM comes during a write.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOutputFiles } from '../src/write/outputFiles.js';
import { removeTempDirs, runCli, runNode, tempDir } from './helpers/runDb.js';
import { CLI_BUNDLE, ensureBuilt, FIXTURE_RUN_FLAGS } from './helpers/actionRunner.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

const FIXTURES = ['baseline.sqlite', 'candidate.sqlite'].map((f) => join(repoRoot, 'fixtures', f));
// fixtures/evalverdict.yml: the fixtures fail two gates (exit 1), the README's quick start.
const COMPARE = [
  'compare',
  ...FIXTURES,
  '--golden',
  join(repoRoot, 'fixtures', 'golden.yaml'),
  '--config',
  join(repoRoot, 'fixtures', 'evalverdict.yml'),
];

describe('standard streams and devices are written through', () => {
  beforeAll(ensureBuilt);

  it('--json /dev/stdout into a pipe read late (full while it is written): the JSON, then the report', async () => {
    const child = spawn(process.execPath, [...FIXTURE_RUN_FLAGS, CLI_BUNDLE, ...COMPARE, '--json', '/dev/stdout'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // Not read for a while: the pipe (64 KiB) fills long before the 400 KB of JSON are written.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stdout.resume();
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(1); // the fixtures' candidate fails the default gates
    expect(stdout.startsWith('{\n')).toBe(true);
    expect(stdout).toContain('"verdict": "fail"');
    expect(stdout.length).toBeGreaterThan(200_000);
  });

  it('--json /dev/stdout into a redirect: the file written to, not replaced', async () => {
    const out = join(tempDir(), 'redirect.txt');
    writeFileSync(out, 'before\n');
    const inode = statSync(out).ino;
    const fd = openSync(out, 'a');
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [...FIXTURE_RUN_FLAGS, CLI_BUNDLE, ...COMPARE, '--json', '/dev/stdout'], {
        cwd: repoRoot,
        stdio: ['ignore', fd, 'ignore'],
      });
      child.on('error', reject);
      child.on('close', resolve);
    });
    closeSync(fd);
    expect(status).toBe(1);
    expect(statSync(out).ino).toBe(inode);
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('before\n{\n')).toBe(true);
    expect(text).toContain('"verdict": "fail"');
  });

  it('--markdown /dev/null stays the device; /dev/full says no space left, and stays the device', async () => {
    const ok = await runCli([...COMPARE, '--markdown', '/dev/null']);
    expect(ok.status).toBe(1);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    if (!existsSync('/dev/full')) return;
    const full = await runCli([...COMPARE, '--markdown', '/dev/full']);
    expect(full.status).toBe(2);
    expect(full.stderr).toBe('evalverdict: /dev/full: cannot write (no space left on device)\n');
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});

describe('modes and temporary files', () => {
  it('a new file is 0600 from its first byte; an existing one keeps its mode', () => {
    const dir = tempDir();
    const fresh = join(dir, 'fresh.json');
    writeOutputFiles([[fresh, 'x']]);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const kept = join(dir, 'kept.json');
    writeFileSync(kept, 'old', { mode: 0o640 });
    writeOutputFiles([[kept, 'new']]);
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    expect(readFileSync(kept, 'utf8')).toBe('new');
  });

  it("the next write sweeps a killed run's temporary files (its pattern, older than this process, writer gone)", () => {
    const dir = tempDir();
    const stale = join(dir, '.evalverdict-999999999-1.tmp');
    const fresh = join(dir, '.evalverdict-999999999-2.tmp');
    const other = join(dir, '.other-999999999-1.tmp');
    for (const f of [stale, fresh, other]) writeFileSync(f, 'leftover');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(stale, old, old);
    utimesSync(other, old, old);
    writeOutputFiles([[join(dir, 'report.md'), 'report']]);
    expect(readdirSync(dir).sort()).toEqual(['.evalverdict-999999999-2.tmp', '.other-999999999-1.tmp', 'report.md']);
  });

  it("text written through to /dev/stdout is inert to the Actions runner, as the CLI's own stdout is", async () => {
    const text = '{\n::error title=x::forged\n  ##[warning]also\n}\n';
    const script = `import { writeOutputFiles } from './src/write/outputFiles.ts';
      writeOutputFiles([['/dev/stdout', ${JSON.stringify(text)}]]);`;
    const out = await runNode(['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe('{\n: :error title=x::forged\n  ## [warning]also\n}\n');
  });

  it('SIGTERM during a write: the process ends by the signal and leaves no temporary file', async () => {
    const dir = tempDir();
    const target = join(dir, 'big.bin');
    const script = `import { writeOutputFiles } from './src/write/outputFiles.ts';
      writeOutputFiles([[${JSON.stringify(target)}, new Uint8Array(300 << 20)]]);
      setTimeout(() => process.exit(0), 5000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: repoRoot,
      stdio: 'ignore',
    });
    let seen = false;
    const poll = setInterval(() => {
      if (!seen && readdirSync(dir).some((f) => f.endsWith('.tmp'))) {
        seen = true;
        child.kill('SIGTERM');
      }
    }, 2);
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, s) => resolve(s)));
    clearInterval(poll);
    expect(seen).toBe(true);
    expect(signal).toBe('SIGTERM');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
