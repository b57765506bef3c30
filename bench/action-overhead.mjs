// The action's own overhead over `evalverdict compare`: wall time of `node dist/index.js` on a pull request event
// against the local stand-in for GitHub's API (test/helpers/fakeGitHub.ts; each run finds no comment, lists,
// creates one: the most API work of a normal run), minus `node dist/cli/index.js compare` on the same
// fixtures and gates. Median of 5 runs each, after one warm-up of each. Budget: overhead < 1 s.
//
//   npm run build && node --import tsx bench/action-overhead.mjs [--runs N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeGitHub, loadGitHubOpenApi } from '../test/helpers/fakeGitHub.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const GATES = 'gates:\n  - metric: hit@10\n    min: 0.5\n';
const fixture = (name) => join(root, 'fixtures', name);

function time(args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;

const scratch = mkdtempSync(join(tmpdir(), 'evalverdict-bench-'));
loadGitHubOpenApi(); // the stand-in reads GitHub's example comment from it: not on the timed path
const github = await FakeGitHub.start();
try {
  const pr = loadGitHubOpenApi().components.examples['pull-request'].value;
  const eventPath = join(scratch, 'event.json');
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number: pr.number,
      pull_request: pr,
      repository: pr.base.repo,
      sender: pr.user,
    }),
  );
  const configPath = join(scratch, 'gates.yml');
  writeFileSync(configPath, GATES);

  const actionRun = async (i) => {
    github.reset();
    const dir = join(scratch, `run-${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'output'), '');
    writeFileSync(join(dir, 'summary'), '');
    return time([join(root, 'dist', 'index.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        GITHUB_ACTIONS: 'true',
        INPUT_BASELINE: fixture('baseline.sqlite'),
        INPUT_CANDIDATE: fixture('candidate.sqlite'),
        INPUT_GOLDEN: fixture('golden.yaml'),
        INPUT_GATES: GATES,
        'INPUT_GITHUB-TOKEN': 'ghs_bench',
        INPUT_COMMENT: 'always',
        'INPUT_COMMENT-ID': 'default',
        'INPUT_FAIL-ON': 'error',
        'INPUT_REPORT-PATH': 'evalverdict-report.md',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'octocat/Hello-World',
        GITHUB_OUTPUT: join(dir, 'output'),
        GITHUB_STEP_SUMMARY: join(dir, 'summary'),
        GITHUB_API_URL: github.url,
        GITHUB_WORKSPACE: dir,
        RUNNER_TEMP: dir,
        NO_PROXY: '127.0.0.1',
      },
    });
  };
  const cliRun = () =>
    time(
      [
        join(root, 'dist', 'cli', 'index.js'),
        'compare',
        fixture('baseline.sqlite'),
        fixture('candidate.sqlite'),
        '--golden',
        fixture('golden.yaml'),
        '--config',
        configPath,
      ],
      { cwd: scratch, env: { PATH: process.env.PATH, HOME: scratch } },
    );

  await actionRun('warm');
  await cliRun();
  const action = [];
  const cli = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved so that machine noise hits both alike.
    action.push(await actionRun(i));
    if (github.requests.map((r) => r.method).join(',') !== 'GET,POST')
      throw new Error(`unexpected API calls: ${github.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    cli.push(await cliRun());
  }
  const overhead = median(action) - median(cli);
  console.log(
    `node dist/index.js (pull_request, list + create comment): ${action.map(fmt).join(', ')}; median ${fmt(median(action))}`,
  );
  console.log(
    `node dist/cli/index.js compare:                          ${cli.map(fmt).join(', ')}; median ${fmt(median(cli))}`,
  );
  console.log(
    `action overhead (median difference): ${fmt(overhead)} (budget 1000 ms) ${overhead < 1000 ? 'ok' : 'OVER BUDGET'}`,
  );
  process.exitCode = overhead < 1000 ? 0 : 1;
} finally {
  await github.close();
  rmSync(scratch, { recursive: true, force: true });
}
