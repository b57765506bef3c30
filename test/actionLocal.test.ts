/**
 * docs/action.md, "Run it locally": the documented command, run as documented (from the checkout, through npm),
 * prints the comment, the commit statuses and the outputs the action gives for the fixtures, which fail two gates;
 * the network guard refuses what is not this machine; a mistake in the command is one line and exit 2. The
 * expected report comes from the library on the same inputs, not from this file.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/pipeline/runCompare.js';
import type { CompareOutputs } from '../src/pipeline/runCompare.js';
import { statusHeadline } from '../src/render/reportParts.js';
import { ensureBuilt } from './helpers/actionRunner.js';
import { loadGitHubOpenApi, validateSchema } from './helpers/fakeGitHub.js';
import { repoRoot } from './shared.js';

const EVENT = join(repoRoot, 'fixtures', 'events', 'pull_request.json');
const SCRIPT = join(repoRoot, 'scripts', 'action-local.ts');
const GUARD = join(repoRoot, 'scripts', 'action-local-network-guard.mjs');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let scratch: string;

function run(command: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    // TMPDIR: the run's directory (job summary, reports) goes into this file's scratch, removed afterwards.
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, TMPDIR: scratch, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The sh block of docs/action.md's "Run it locally", continuation lines joined, its `# exits N` read off. */
function documentedCommand(): { command: string; exit: number } {
  const doc = readFileSync(join(repoRoot, 'docs', 'action.md'), 'utf8');
  const section = /^## Run it locally\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
  const block = /^```sh\n([\s\S]*?)^```/m.exec(section)?.[1] ?? '';
  const line = block.replace(/\\\n\s*/g, '').trim();
  const stated = /\s+#\s*exits (\d+)$/.exec(line);
  return { command: stated ? line.slice(0, stated.index) : line, exit: stated ? Number(stated[1]) : 0 };
}

/** The printed requests: `--- N. METHOD PATH -> STATUS[: what]` and the lines up to the next blank-line-separated one. */
function printedRequests(stdout: string): Array<{ head: string; body: string }> {
  const start = stdout.indexOf('\n--- 1. ');
  const end = stdout.indexOf('\n--- outputs\n');
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  return stdout
    .slice(start + 1, end)
    .split(/\n(?=--- \d+\. )/)
    .map((part) => {
      const newline = part.indexOf('\n');
      return { head: part.slice(0, newline), body: part.slice(newline + 1).replace(/\n+$/, '') };
    });
}

function printedOutputs(stdout: string): Record<string, string> {
  const block = stdout.slice(stdout.indexOf('\n--- outputs\n') + 13, stdout.indexOf('\n\n--- the step exited'));
  return Object.fromEntries(
    block.split('\n').map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
  );
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'evalverdict-action-local-test-'));
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('docs/action.md "Run it locally"', () => {
  let documented: { command: string; exit: number };
  let result: Run;
  let library: CompareOutputs;

  beforeAll(async () => {
    ensureBuilt();
    documented = documentedCommand();
    // npm sets INIT_CWD to where the command is typed: here the checkout's root, as the doc has it.
    result = await run('sh', ['-c', documented.command], { INIT_CWD: undefined });
    const event = JSON.parse(readFileSync(EVENT, 'utf8'));
    library = await runCompare({
      baselinePath: join(repoRoot, 'fixtures', 'baseline.sqlite'),
      candidatePath: join(repoRoot, 'fixtures', 'candidate.sqlite'),
      goldenPath: join(repoRoot, 'fixtures', 'golden.yaml'),
      configPath: join(repoRoot, 'fixtures', 'evalverdict.yml'),
      reportContext: {
        repoUrl: event.repository.html_url,
        runUrl: `${event.repository.html_url}/actions/runs/1`,
        headSha: event.pull_request.head.sha,
      },
    });
  }, 180_000);

  it('is the npm script on the shipped event and fixtures, and exits as the doc says', () => {
    expect(documented.command).toMatch(/^npm run action:local -- --event fixtures\/events\/pull_request\.json /);
    expect(documented.command).toContain('--input config=fixtures/evalverdict.yml');
    expect(result.status, result.stderr.slice(-3000)).toBe(documented.exit);
    expect(documented.exit).toBe(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('prints a pending status, the comment with the failed gates, then the failure status', () => {
    const failed = library.report.gates.filter((g) => g.effect === 'fail');
    // The doc's claim: the fixtures under fixtures/evalverdict.yml fail two gates.
    expect(failed.map((g) => g.metric)).toHaveLength(2);
    const requests = printedRequests(result.stdout);
    const status = (r: { body: string }) =>
      Object.fromEntries(r.body.split('\n').map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
    const statuses = requests.filter((r) => / -> 201: commit status$/.test(r.head));
    expect(statuses.map((r) => status(r).state)).toEqual(['pending', 'failure']);
    expect(statuses[1].head).toContain(`/statuses/${JSON.parse(readFileSync(EVENT, 'utf8')).pull_request.head.sha}`);
    expect(status(statuses[1])).toMatchObject({
      context: 'evalverdict/default',
      description: statusHeadline(library.report, library.defs),
    });

    const comments = requests.filter((r) =>
      /^--- \d+\. POST \S+\/issues\/1347\/comments -> 201: the comment's body$/.test(r.head),
    );
    expect(comments).toHaveLength(1);
    const body = comments[0].body;
    expect(body.startsWith('<!-- evalverdict:comment-id=default -->\n')).toBe(true);
    expect(body).toContain(`**EvalVerdict: ${library.report.verdict}**`);
    for (const gate of failed) expect(body).toMatch(new RegExp(`^> - ❌ \`${gate.metric}\``, 'm'));
    // The report's own tables, as the library renders them for the same runs and config.
    const gateTable = library.markdown.split('\n').filter((l) => l.startsWith('| `'));
    expect(gateTable.length).toBeGreaterThan(0);
    for (const row of gateTable) expect(body).toContain(row);
    // Comment before the final status, the pending one first: the order the action made them in.
    expect(requests.indexOf(comments[0])).toBeGreaterThan(requests.indexOf(statuses[0]));
    expect(requests.indexOf(comments[0])).toBeLessThan(requests.indexOf(statuses[1]));
  });

  it('prints the outputs, with the report files outside the checkout, and says nothing left the machine', () => {
    const outputs = printedOutputs(result.stdout);
    expect(outputs.verdict).toBe(library.report.verdict);
    expect(outputs.passed).toBe('false');
    const failedGates = JSON.parse(outputs['failed-gates']) as Array<{ metric: string; effect: string }>;
    expect(failedGates.filter((g) => g.effect === 'fail').map((g) => g.metric)).toEqual(
      library.report.gates.filter((g) => g.effect === 'fail').map((g) => g.metric),
    );
    expect(outputs['comment-url']).toMatch(/\/pull\/1347#issuecomment-\d+$/);
    expect(outputs['report-path'].startsWith(scratch)).toBe(true);
    expect(existsSync(outputs['report-path'])).toBe(true);
    expect(existsSync(join(repoRoot, 'evalverdict-report.md'))).toBe(false);
    expect(result.stdout).toMatch(/^--- the step exited 1 \(the job fails\)$/m);
    expect(result.stdout).toMatch(/^network: every request went to the stand-in \(\d+\)$/m);
  });
});

describe('the network guard of a local run', () => {
  it('refuses a connection to another host before it is made, and lets one to this machine through', async () => {
    const server = createServer((_req, res) => res.end('local'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // 192.0.2.1 is TEST-NET-1 (RFC 5737): never routed, so even an unguarded attempt reaches no one; the timeout
      // only ends such an attempt (its error is then not the guard's).
      const probe = `
        const local = await (await fetch('http://127.0.0.1:${port}/')).text();
        const remote = await fetch('http://192.0.2.1/', { signal: AbortSignal.timeout(20000) }).then(
          () => 'connected',
          (e) => e.cause?.code ?? String(e),
        );
        console.log(JSON.stringify({ local, remote }));`;
      const probed = await run(process.execPath, ['--import', GUARD, '--input-type=module', '-e', probe]);
      expect(probed.status, probed.stderr).toBe(0);
      expect(JSON.parse(probed.stdout)).toEqual({ local: 'local', remote: 'ECONNREFUSED' });
      expect(probed.stderr).toContain('action:local: refused a connection to 192.0.2.1:80');
    } finally {
      server.close();
    }
  });
});

describe('a mistake in the command', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'a missing required input',
      ['--input', 'baseline=fixtures/baseline.sqlite'],
      /missing required input\(s\): --input candidate=\.\.\. --input golden=\.\.\./,
    ],
    ['an input action.yml does not have', ['--input', 'basline=x'], /--input basline: action\.yml has no such input/],
    [
      'an artifact baseline',
      ['--input', 'baseline=artifact:evalverdict-baseline', '--input', 'candidate=c', '--input', 'golden=g'],
      /--input baseline=artifact:evalverdict-baseline: a local run has no workflow artifacts/,
    ],
    [
      'the API address',
      ['--env', 'GITHUB_API_URL=https://api.github.com'],
      /--env GITHUB_API_URL: only runner variables/,
    ],
  ];
  it.each(cases)('%s: one line naming it, exit 2, no run started', async (_name, args, message) => {
    const runDirs = () => readdirSync(scratch).filter((name) => name.startsWith('evalverdict-action-local-'));
    const before = runDirs().length;
    const r = await run(process.execPath, ['--import', 'tsx', SCRIPT, '--event', EVENT, ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(runDirs()).toHaveLength(before);
  });
});

describe('fixtures/events/pull_request.json', () => {
  it('is a pull_request synchronize event as GitHub describes its webhook payload', () => {
    const spec = loadGitHubOpenApi();
    const payload = JSON.parse(readFileSync(EVENT, 'utf8'));
    const schema = { $ref: '#/components/schemas/webhook-pull-request-synchronize' };
    expect(validateSchema(spec, schema, payload, 'event')).toEqual([]);
    expect(payload.pull_request.number).toBe(payload.number);
  });
});
