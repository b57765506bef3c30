/**
 * The GitHub Action end to end, as the runner calls it: `node dist/index.js` in a child process with the
 * runner's environment (INPUT_* with hyphens kept and action.yml's defaults filled in as the runner does,
 * GITHUB_EVENT_PATH holding a pull_request or push payload, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, ...) against
 * a stand-in for GitHub's REST API on 127.0.0.1 (test/helpers/fakeGitHub.ts). After every test, each recorded
 * request and response is checked against GitHub's published OpenAPI description.
 *
 * The bundle: run `npm run build` before `npm test` (the ci workflow does; check-dist keeps the committed
 * dist/ equal to a fresh build). The test does not build (a build takes ~25 s and rewrites all of dist/,
 * including the CLI bundle other tests run); it stops with that instruction when dist/index.js is missing or
 * older than the newest file under src/ (by more than the few seconds a fresh clone takes to write both).
 *
 * Expected reports are computed in this process with the same pipeline (src/pipeline/pipeline.ts runCompare), so the
 * assertions on the comment body, summary and report files are exact.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { EOL, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { stableJson } from '../src/render/json.js';
import { runAggregate, runCompare } from '../src/pipeline/pipeline.js';
import type { CompareOutputs } from '../src/pipeline/pipeline.js';
import { loadSqlJs } from '../src/load/sqlite.js';
import { renderErrorPanel } from '../src/render/errorPanel.js';
import { getInputs } from '../src/action/inputs.js';
import { commentDecision } from '../src/publish/policy.js';
import {
  FakeGitHub,
  GITHUB_ACTIONS_BOT,
  RECORDED_MIDDLE_PAGE_LINK,
  checkRequest,
  checkResponse,
  loadGitHubOpenApi,
} from './helpers/fakeGitHub.js';
import type { Account, OpenApiSpec, RecordedRequest } from './helpers/fakeGitHub.js';
import { repoRoot } from './shared.js';
import { answer, hit, RawResult, result, runNode, writeRunDb } from './helpers/runDb.js';

const BUNDLE = join(repoRoot, 'dist', 'index.js');
const TOKEN = 'ghs_0000000000000000000000000000000000001';
const OWNER = 'octocat';
const REPO = 'Hello-World';
const PR = 1347; // GitHub's published example pull request (octocat/Hello-World#1347)
const COMMENTS_PATH = `/repos/${OWNER}/${REPO}/issues/${PR}/comments`;
const MARKER = '<!-- evalgate:comment-id=default -->';
const HINT = 'the job summary of this workflow run and in `evalgate-report.md`';
const PASSING_GATES = 'gates:\n  - metric: hit@10\n    min: 0.5\n';
const FAILING_GATES = 'gates:\n  - metric: hit@5\n    min: 0.99\n';

let github: FakeGitHub;
let spec: OpenApiSpec;
let scratch: string;
const expected: Record<string, CompareOutputs> = {};

// ---------------------------------------------------------------------------------------------------------
// Build, environment, parsing

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The bundle under test must be current: build it first (`npm run build`), as CI does. */
function ensureBuilt(): void {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` before the action tests`);
  const newest = newestMtime(join(repoRoot, 'src'));
  if (newest > statSync(BUNDLE).mtimeMs + 10_000) {
    throw new Error(`${BUNDLE} is older than src/: run \`npm run build\` before the action tests`);
  }
}

function pullRequestPayload(options: { fork?: boolean } = {}): Record<string, unknown> {
  // GitHub's published example pull request, in the shape of a `pull_request` webhook event.
  const pr = structuredClone((spec.components.examples['pull-request'] as { value: Record<string, any> }).value);
  if (options.fork) {
    pr.head.repo = {
      ...pr.head.repo,
      full_name: `forker/${REPO}`,
      fork: true,
      owner: { ...pr.head.repo.owner, login: 'forker' },
    };
    pr.head.label = 'forker:new-topic';
  }
  return {
    action: 'synchronize',
    number: pr.number,
    before: '0'.repeat(40),
    after: pr.head.sha,
    pull_request: pr,
    repository: pr.base.repo,
    sender: pr.user,
  };
}

function pushPayload(): Record<string, unknown> {
  const pr = (spec.components.examples['pull-request'] as { value: Record<string, any> }).value;
  return {
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: pr.head.sha,
    created: false,
    deleted: false,
    forced: false,
    commits: [],
    head_commit: null,
    repository: pr.base.repo,
    pusher: { name: 'octocat', email: null },
    sender: pr.user,
  };
}

/** action.yml's input defaults, as the runner passes them (INPUT_NAME, hyphens kept; expressions filled). */
function actionDefaults(): Record<string, string> {
  const action = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  const out: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as action.yml writes it
    out[name] = String(input.default ?? '').replace('${{ github.token }}', TOKEN);
  }
  return out;
}

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  ms: number;
  requests: RecordedRequest[];
}

interface RunOptions {
  inputs?: Record<string, string>;
  /** GITHUB_EVENT_NAME; the default payload is a pull_request one unless this is `push`. */
  event?: string;
  /** Runner variables to set or override (e.g. GITHUB_SHA, GITHUB_ACTOR). */
  env?: Record<string, string>;
  payload?: Record<string, unknown>;
  /** Files to write into the workspace first (path relative to it -> content). */
  files?: Record<string, string>;
}

let runCounter = 0;

/** Runs dist/index.js as the runner would and returns what it left behind. */
async function runAction(options: RunOptions = {}): Promise<ActionRun> {
  const dir = join(scratch, `run-${++runCounter}`);
  const workspace = join(dir, 'workspace');
  const temp = join(dir, 'runner-temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp);
  symlinkSync(join(repoRoot, 'fixtures'), join(workspace, 'fixtures'));
  for (const [name, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(workspace, name, '..'), { recursive: true });
    writeFileSync(join(workspace, name), content);
  }
  const event = options.event ?? 'pull_request';
  const eventPath = join(temp, 'event.json');
  writeFileSync(
    eventPath,
    JSON.stringify(options.payload ?? (event === 'push' ? pushPayload() : pullRequestPayload())),
  );
  const outputFile = join(temp, 'output');
  const summaryFile = join(temp, 'step_summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const inputs = {
    ...actionDefaults(),
    // Commit statuses have tests of their own ('commit status'); elsewhere they would add two requests to every run.
    status: 'false',
    // The fixtures' baseline is weeks old: the staleness warning has a test of its own ('baseline-max-age').
    'baseline-max-age': '0',
    baseline: 'fixtures/baseline.sqlite',
    candidate: 'fixtures/candidate.sqlite',
    golden: 'fixtures/golden.yaml',
    ...options.inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: workspace,
    GITHUB_SHA: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
    GITHUB_RUN_ID: '1658821493',
    RUNNER_TEMP: temp,
    NO_PROXY: '127.0.0.1,localhost',
    ...options.env,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const before = github.requests.length;
  const started = performance.now();
  // EVALGATE_ACTION_NODE: the runner's Node (24) when .ci/run provides it; else the Node running the tests.
  const child = spawn(process.env.EVALGATE_ACTION_NODE || process.execPath, [BUNDLE], {
    cwd: workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  const ms = performance.now() - started;
  return {
    code,
    stdout,
    stderr,
    ms,
    workspace,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    requests: github.requests.slice(before),
  };
}

/** The runner's GITHUB_OUTPUT format: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
function parseOutputFile(text: string): Record<string, string> {
  const lines = text.split(EOL);
  const out: Record<string, string> = {};
  let i = 0;
  while (i < lines.length) {
    if (lines[i] === '' && i === lines.length - 1) break;
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (!m) throw new Error(`GITHUB_OUTPUT line ${i + 1} is not name<<delimiter: ${JSON.stringify(lines[i])}`);
    const [, name, delimiter] = m;
    if (name in out) throw new Error(`output ${name} set twice`);
    const value: string[] = [];
    i++;
    while (lines[i] !== delimiter) {
      if (i >= lines.length) throw new Error(`output ${name}: no closing delimiter`);
      value.push(lines[i++]);
    }
    out[name] = value.join(EOL);
    i++;
  }
  return out;
}

interface Annotation {
  level: string;
  properties: Record<string, string>;
  message: string;
}

/** Workflow commands (`::error title=...::message`) printed on stdout, unescaped as the runner does. */
function annotations(stdout: string): Annotation[] {
  const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const unescapeProperty = (s: string) => unescapeData(s).replace(/%3A/g, ':').replace(/%2C/g, ',');
  return stdout.split('\n').flatMap((line) => {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) return [];
    const properties = Object.fromEntries(
      (m[2] ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => {
          const eq = kv.indexOf('=');
          return [kv.slice(0, eq), unescapeProperty(kv.slice(eq + 1))];
        }),
    );
    return [{ level: m[1], properties, message: unescapeData(m[3]) }];
  });
}

const writes = (requests: RecordedRequest[]) => requests.filter((r) => r.method !== 'GET');
const summarise = (requests: RecordedRequest[]) =>
  requests.map(
    (r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ''} ${r.status}`,
  );

async function expectedFor(gates: string | null, extra: { candidate?: string } = {}): Promise<CompareOutputs> {
  const key = `${gates}|${extra.candidate ?? ''}`;
  expected[key] ??= await runCompare({
    baselinePath: join(repoRoot, 'fixtures', 'baseline.sqlite'),
    candidatePath: extra.candidate ?? join(repoRoot, 'fixtures', 'candidate.sqlite'),
    goldenPath: join(repoRoot, 'fixtures', 'golden.yaml'),
    configText: gates,
    fullReportHint: HINT,
    // what the action links: the stand-in's repository, the run (GITHUB_RUN_ID) and the commit under test
    reportContext: {
      repoUrl: `https://github.com/${OWNER}/${REPO}`,
      runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`,
      headSha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
    },
  });
  return expected[key];
}

function expectedOutputs(
  run: ActionRun,
  out: CompareOutputs,
  extra: { passed: boolean; commentUrl: string },
): Record<string, string> {
  return {
    verdict: out.report.verdict,
    passed: String(extra.passed),
    'failed-gates': JSON.stringify(JSON.parse(stableJson(out.report.gates.filter((g) => g.effect !== 'none')))),
    'report-path': join(run.workspace, 'evalgate-report.md'),
    'json-path': join(run.workspace, 'evalgate-report.json'),
    'comment-url': extra.commentUrl,
    summary: run.outputs.summary, // checked field by field below
  };
}

/** The `summary` output carries the verdict, runs, key metrics (rounded as in the JSON report) and tallies. */
function checkSummaryOutput(summary: string, out: CompareOutputs): void {
  const parsed = JSON.parse(summary) as Record<string, any>;
  const report = JSON.parse(out.json) as Record<string, any>;
  expect(parsed.verdict).toBe(out.report.verdict);
  expect(parsed.baseline_run).toBe('baseline-whole-doc');
  expect(parsed.candidate_run).toBe('candidate-passages');
  expect(parsed.counts).toEqual(report.counts);
  for (const id of [
    'hit@1',
    'hit@5',
    'hit@10',
    'mrr@10',
    'nDCG@10',
    'recall@10',
    ...out.report.gates.map((g) => g.metric).filter((m) => m in report.metrics),
  ]) {
    const m = report.metrics[id];
    expect(parsed.metrics[id], id).toEqual({
      baseline: m.baseline,
      candidate: m.candidate,
      delta: m.delta,
      rel_delta: m.rel_delta,
      p_value: m.p_value,
      significant: m.significant,
    });
  }
  expect(parsed.gates).toEqual({
    total: out.report.gates.length,
    failed: out.report.gates.filter((g) => g.effect === 'fail').length,
    warned: out.report.gates.filter((g) => g.effect === 'warn').length,
  });
}

function commentUrl(id: number): string {
  return `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-${id}`;
}

// ---------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  ensureBuilt();
  spec = loadGitHubOpenApi();
  github = await FakeGitHub.start();
  scratch = mkdtempSync(join(tmpdir(), 'evalgate-action-'));
}, 120_000);

afterAll(async () => {
  await github?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => github.reset());

afterEach(() => {
  // Every request the action made must be a real GitHub API call with a valid body, and every answer the
  // stand-in gave must be one GitHub's description allows.
  const problems = github.requests.flatMap((r) => [...checkRequest(spec, r), ...checkResponse(spec, r)]);
  expect(problems).toEqual([]);
  for (const r of github.requests) {
    expect(r.headers.authorization).toBe(`token ${TOKEN}`);
    expect(r.headers['user-agent']).toMatch(/^evalgate-action /);
  }
});

describe("the stand-in GitHub API is checked against GitHub's OpenAPI description", () => {
  it('flags unknown paths, wrong bodies and bad parameters', () => {
    expect(
      checkRequest(spec, { method: 'GET', path: COMMENTS_PATH, query: { per_page: '100' }, body: undefined }),
    ).toEqual([]);
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { body: 'x' } })).toEqual([]);
    expect(
      checkRequest(spec, {
        method: 'PATCH',
        path: `/repositories/1000/issues/comments/7`,
        query: {},
        body: { body: 'x' },
      }),
    ).toEqual([]);
    expect(
      checkRequest(spec, {
        method: 'POST',
        path: `/repos/${OWNER}/${REPO}/issues/${PR}/comment`,
        query: {},
        body: { body: 'x' },
      })[0],
    ).toMatch(/no such operation/);
    expect(checkRequest(spec, { method: 'PUT', path: COMMENTS_PATH, query: {}, body: { body: 'x' } })[0]).toMatch(
      /no such operation/,
    );
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { text: 'x' } })).toEqual([
      `POST ${COMMENTS_PATH} body: missing required property \`body\``,
    ]);
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { body: 42 } })).toEqual([
      `POST ${COMMENTS_PATH} body.body: integer where the schema wants string`,
    ]);
    expect(
      checkRequest(spec, { method: 'GET', path: COMMENTS_PATH, query: { perpage: '100' }, body: undefined })[0],
    ).toMatch(/query parameter `perpage` is not declared/);
    expect(
      checkRequest(spec, {
        method: 'GET',
        path: `/repos/${OWNER}/${REPO}/issues/undefined/comments`,
        query: {},
        body: undefined,
      })[0],
    ).toMatch(/is not an integer/);
    expect(
      checkRequest(spec, {
        method: 'DELETE',
        path: `/repos/${OWNER}/${REPO}/issues/comments/9`,
        query: {},
        body: { body: 'x' },
      })[0],
    ).toMatch(/takes no request body/);
  });

  it("answers in GitHub's shapes, with Link headers like the recorded ones", async () => {
    const user: Account = { login: 'octocat', id: 1, type: 'User' };
    for (let i = 0; i < 5; i++) github.addComment(OWNER, REPO, PR, `comment ${i}`, user);
    const response = await fetch(`${github.url}${COMMENTS_PATH}?per_page=2&page=2`, {
      headers: { authorization: `token ${TOKEN}`, 'user-agent': 'evalgate-action test' },
    });
    expect(response.status).toBe(200);
    const rels = (link: string) =>
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [
        new URL(m[1]).pathname.replace(/\/\d+\//, '/ID/').replace(/\/issues\/\d+/, '/issues/N'),
        m[2],
      ]);
    const ours = rels(response.headers.get('link')!);
    const recordedRels = rels(RECORDED_MIDDLE_PAGE_LINK);
    expect(ours.map(([, rel]) => rel)).toEqual(recordedRels.map(([, rel]) => rel));
    expect(ours[0][0]).toBe('/repositories/ID/issues/N/comments');
    expect(recordedRels[0][0]).toBe('/repositories/ID/issues');
    expect(((await response.json()) as Array<{ body: string }>).map((c) => c.body)).toEqual(['comment 2', 'comment 3']);
  });
});

describe('comment modes', () => {
  it('create a first comment only for the verdicts their mode names, and always keep an existing one current', () => {
    const table = (['always', 'on-change', 'on-failure', 'never'] as const).map((mode) => [
      mode,
      ...(['pass', 'warn', 'fail', 'error'] as const).map((v) => {
        const d = commentDecision(mode, v);
        return d.publish ? (d.createIfMissing ? 'create' : 'update') : '-';
      }),
    ]);
    expect(table).toEqual([
      ['always', 'create', 'create', 'create', 'create'],
      ['on-change', 'update', 'create', 'create', 'create'],
      ['on-failure', 'update', 'update', 'create', 'create'],
      ['never', '-', '-', '-', '-'],
    ]);
  });
});

describe('inputs', () => {
  const base = {
    INPUT_BASELINE: 'b.sqlite',
    INPUT_CANDIDATE: 'c.sqlite',
    INPUT_GOLDEN: 'g.yaml',
    GITHUB_WORKSPACE: '/ws',
  };
  const error = (env: Record<string, string>) => {
    try {
      getInputs({ ...base, ...env });
    } catch (e) {
      return (e as Error).message;
    }
    return null;
  };

  it("are read once into a typed object, with the runner's hyphenated names and action.yml's defaults", () => {
    const defaults = Object.fromEntries(
      Object.entries(actionDefaults()).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
    );
    expect(
      getInputs({
        ...defaults,
        ...base,
        'INPUT_COMMENT-ID': 'answers',
        'INPUT_FAIL-ON': 'warn',
        'INPUT_WRITE-AGGREGATE': 'True',
        'INPUT_BASELINE-RUN': 'r1',
      }),
    ).toEqual({
      baseline: '/ws/b.sqlite',
      baselineArtifact: null,
      candidate: '/ws/c.sqlite',
      candidateArtifact: null,
      golden: '/ws/g.yaml',
      baselineRun: 'r1',
      candidateRun: null,
      config: null,
      gates: null,
      githubToken: TOKEN,
      comment: 'always',
      commentId: 'answers',
      commentAuthor: null,
      failOn: 'warn',
      status: 'auto',
      strictChunkerVersion: false,
      writeAggregate: true,
      reportPath: '/ws/evalgate-report.md',
      jsonPath: '/ws/evalgate-report.json',
      prNumber: null,
      requestTimeoutS: 30,
      publishTimeoutS: 120,
      baselineMaxAgeDays: 7,
      workspace: '/ws',
    });
  });

  it('baseline: artifact:NAME with its inputs, and their mistakes', () => {
    const defaults = Object.fromEntries(
      Object.entries(actionDefaults()).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
    );
    const read = (extra: Record<string, string>) => getInputs({ ...defaults, ...base, ...extra });
    expect(read({ INPUT_BASELINE: 'artifact:evalgate-baseline' })).toMatchObject({
      baseline: null,
      baselineArtifact: { name: 'evalgate-baseline', workflow: null, maxCommits: 50, path: null, ifNoBaseline: 'warn' },
    });
    expect(
      read({
        INPUT_BASELINE: 'artifact:base',
        'INPUT_BASELINE-WORKFLOW': 'main.yaml',
        'INPUT_BASELINE-MAX-COMMITS': '7',
        'INPUT_BASELINE-PATH': 'runs/x.db',
        'INPUT_IF-NO-BASELINE': 'skip',
      }).baselineArtifact,
    ).toEqual({ name: 'base', workflow: 'main.yaml', maxCommits: 7, path: 'runs/x.db', ifNoBaseline: 'skip' });
    const error = (extra: Record<string, string>) => {
      try {
        read({ INPUT_BASELINE: 'artifact:base', ...extra });
      } catch (e) {
        return (e as Error).message;
      }
      return null;
    };
    expect(error({ INPUT_BASELINE: 'artifact:' })).toBe(
      'input `baseline`: "artifact:" is not artifact:NAME with an artifact name (no " : < > | * ? \\ / or line breaks)',
    );
    expect(error({ 'INPUT_BASELINE-MAX-COMMITS': '0' })).toBe(
      'input `baseline-max-commits`: "0" is not a number from 1 to 9999',
    );
    expect(error({ 'INPUT_BASELINE-WORKFLOW': '.github/workflows/x.yml' })).toBe(
      'input `baseline-workflow`: ".github/workflows/x.yml" is not a workflow file name (e.g. rag-eval.yml, without .github/workflows/) or id',
    );
    expect(error({ 'INPUT_IF-NO-BASELINE': 'ignore' })).toBe(
      'input `if-no-baseline`: "ignore" is not one of warn, fail, skip',
    );
  });

  it('name the input and quote the value in every error', () => {
    expect(error({ INPUT_BASELINE: '' })).toBe('input `baseline` is required (a path, relative to the workspace)');
    expect(error({ 'INPUT_FAIL-ON': 'errors' })).toBe('input `fail-on`: "errors" is not one of error, warn, never');
    expect(error({ 'INPUT_STRICT-CHUNKER-VERSION': 'yes' })).toBe(
      'input `strict-chunker-version`: "yes" is not a boolean (use true or false)',
    );
    expect(error({ 'INPUT_COMMENT-ID': 'two words' })).toBe(
      'input `comment-id`: "two words" must be 1 to 64 letters, digits or . _ - : / (it goes into a hidden HTML marker)',
    );
    expect(error({ 'INPUT_COMMENT-ID': 'x-->' })).toMatch(/^input `comment-id`: "x-->"/);
    expect(error({ 'INPUT_PR-NUMBER': '#12' })).toBe('input `pr-number`: "#12" is not a pull request number');
    expect(error({ 'INPUT_REPORT-PATH': 'reports/' })).toBe(
      'input `report-path`: "reports/" is a directory; give a file name such as evalgate-report.md',
    );
    for (const bad of ['0', '-1', 'soon', '1e3', '100000'])
      expect(error({ 'INPUT_REQUEST-TIMEOUT': bad })).toBe(
        `input \`request-timeout\`: "${bad}" is not a number of seconds (> 0, e.g. 30)`,
      );
    expect(error({ 'INPUT_PUBLISH-TIMEOUT': '2 min' })).toBe(
      'input `publish-timeout`: "2 min" is not a number of seconds (> 0, e.g. 30)',
    );
  });
});

/**
 * The action's JSON report with the fields of its clock (`baseline_source.age_days`, `stale`) as the library gives
 * them without one, after checking they were set: the rest must be the library's, byte for byte.
 */
function clockless(json: string): string {
  const report = JSON.parse(json);
  if (report.baseline_source) {
    expect(report.baseline_source.age_days).toBeGreaterThan(0);
    report.baseline_source.age_days = null;
    report.baseline_source.stale = null;
  }
  return stableJson(report);
}

describe('the action on a pull request', () => {
  it('creates the sticky comment on the first run, with the exact outputs, summary and report files', async () => {
    const out = await expectedFor(PASSING_GATES);
    expect(out.report.verdict).toBe('pass');
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.requests[1].body).toEqual({ body: `${MARKER}\n${out.markdown}` });
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body, c.user.login])).toEqual([
      [1000, `${MARKER}\n${out.markdown}`, GITHUB_ACTIONS_BOT.login],
    ]);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: true, commentUrl: commentUrl(1000) }));
    expect(run.outputs['failed-gates']).toBe('[]');
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.summary).toBe(out.markdownFull);
    expect(readFileSync(join(run.workspace, 'evalgate-report.md'), 'utf8')).toBe(out.markdownFull);
    expect(clockless(readFileSync(join(run.workspace, 'evalgate-report.json'), 'utf8'))).toBe(out.json);
    expect(annotations(run.stdout)).toEqual([]);
    expect(run.stdout).toContain(`created the EvalGate comment on pull request #${PR}: ${commentUrl(1000)}`);
    // The only place the token appears is the runner's mask command (the runner hides it from the log).
    expect(run.stdout.split('\n').filter((l) => l.includes(TOKEN))).toEqual([`::add-mask::${TOKEN}`]);
    expect(run.stderr).not.toContain(TOKEN);
  });

  it('updates the same comment on the second run', async () => {
    const first = github.addComment(OWNER, REPO, PR, `${MARKER}\nthe report of an earlier commit`, GITHUB_ACTIONS_BOT);
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${first.id} 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: `${MARKER}\n${out.markdown}` });
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [first.id, `${MARKER}\n${out.markdown}`],
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(first.id));
    expect(run.stdout).toContain(`updated the EvalGate comment on pull request #${PR}`);
  });

  it('makes no write when the report is unchanged', async () => {
    const out = await expectedFor(PASSING_GATES);
    const first = github.addComment(OWNER, REPO, PR, `${MARKER}\n${out.markdown}`, GITHUB_ACTIONS_BOT);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, 'GET /user 403']);
    expect(run.outputs['comment-url']).toBe(commentUrl(first.id));
    expect(run.stdout).toContain('is already up to date');
  });

  it('baseline and candidate swapped (the baseline is the newer run): a warning annotation, nothing in the comment', async () => {
    const run = await runAction({
      inputs: { baseline: 'fixtures/candidate.sqlite', candidate: 'fixtures/baseline.sqlite', gates: PASSING_GATES },
    });
    expect(run.stderr).toBe('');
    expect(annotations(run.stdout).filter((a) => a.level === 'warning')).toEqual([
      {
        level: 'warning',
        properties: {},
        message:
          'the baseline run `candidate-passages` (created 2026-11-02T12:00:00Z) is newer than the candidate run `baseline-whole-doc` (created 2026-11-01T12:00:00Z): the runs may be swapped (the baseline comes first)',
      },
    ]);
    const posted = writes(run.requests).map((r) => JSON.stringify(r.body));
    expect(posted).toHaveLength(1);
    expect(posted[0]).not.toContain('swapped');
    expect(run.summary).not.toContain('swapped');
  });

  it('fails the step on a failing gate, with one error annotation per failed gate and the outputs', async () => {
    const out = await expectedFor(FAILING_GATES);
    expect(out.report.verdict).toBe('fail');
    const run = await runAction({ inputs: { gates: FAILING_GATES } });
    expect(run.code).toBe(1);
    const hit5 = out.report.metrics['hit@5'];
    expect(annotations(run.stdout)).toEqual([
      {
        level: 'error',
        properties: { title: 'EvalGate gate failed: hit@5' },
        message: `hit@5: threshold ≥ 0.9900 not met (baseline ${hit5.baseline!.toFixed(4)}, candidate ${hit5.candidate!.toFixed(4)}, delta −${Math.abs(hit5.delta!).toFixed(4)})`,
      },
      { level: 'error', properties: {}, message: 'EvalGate: 1 gate failed (fail-on: error): hit@5 (≥ 0.9900)' },
    ]);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: false, commentUrl: commentUrl(1000) }));
    const r4 = (x: number | null) => (x === null ? null : Number(x.toFixed(4)));
    expect(JSON.parse(run.outputs['failed-gates'])).toEqual([
      {
        baseline: r4(hit5.baseline),
        candidate: r4(hit5.candidate),
        delta: r4(hit5.delta),
        p_value: r4(hit5.p_value),
        effect: 'fail',
        level: 'error',
        metric: 'hit@5',
        min: 0.99,
        note: '',
        result: 'fail',
        threshold: '≥ 0.9900',
        line: 2,
      },
    ]);
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.summary).toBe(out.markdownFull);
    expect(run.requests[1].body).toEqual({ body: `${MARKER}\n${out.markdown}` });
  });

  it('with fail-on: never, a failing gate from .github/evalgate.yml is a warning at its line; the step passes, passed says false', async () => {
    // No `config` or `gates` input: .github/evalgate.yml is the default config, as for `evalgate compare`.
    const run = await runAction({
      inputs: { 'fail-on': 'never' },
      files: { '.github/evalgate.yml': `# gates\n${FAILING_GATES}` },
    });
    expect(run.code).toBe(0);
    expect(annotations(run.stdout)).toEqual([
      expect.objectContaining({
        level: 'warning',
        properties: { title: 'EvalGate gate warning: hit@5', file: '.github/evalgate.yml', line: '3' },
      }),
    ]);
    expect(run.outputs.verdict).toBe('fail');
    expect(run.outputs.passed).toBe('false');
  });

  it('replaces the comment with an error panel when the database is bad, and exits 1', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`, GITHUB_ACTIONS_BOT);
    const run = await runAction({
      inputs: { gates: PASSING_GATES, candidate: 'runs/candidate.sqlite' },
      files: {
        'runs/candidate.sqlite':
          'this is not a SQLite database but a text file of more than one hundred bytes, so that the header check is what fails\n',
      },
    });
    expect(run.code).toBe(1);
    const { error: message } = JSON.parse(run.outputs.summary) as { error: string };
    expect(message).toMatch(/^runs\/candidate\.sqlite: not a SQLite database/); // named as the user wrote it
    const panel = renderErrorPanel({
      message,
      inputError: true,
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`,
    });
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: `${MARKER}\n${panel}` });
    expect(panel).toContain('EvalGate: error');
    expect(panel).toContain(message);
    expect(annotations(run.stdout)).toEqual([
      { level: 'error', properties: {}, message: `EvalGate could not evaluate the run: ${message}` },
    ]);
    expect(run.outputs).toEqual({
      verdict: 'error',
      passed: 'false',
      'failed-gates': '[]',
      'report-path': join(run.workspace, 'evalgate-report.md'),
      'json-path': join(run.workspace, 'evalgate-report.json'),
      'comment-url': commentUrl(1000),
      summary: JSON.stringify({ verdict: 'error', error: message }),
    });
    expect(run.summary).toBe(panel);
    expect(readFileSync(join(run.workspace, 'evalgate-report.md'), 'utf8')).toBe(panel);
    expect(clockless(readFileSync(join(run.workspace, 'evalgate-report.json'), 'utf8'))).toBe(
      stableJson({ verdict: 'error', error: message }),
    );
  });

  it('turns a 403 on a fork pull request into a warning; the verdict still decides the step', async () => {
    github.readOnly = true;
    const passing = await runAction({ inputs: { gates: PASSING_GATES }, payload: pullRequestPayload({ fork: true }) });
    expect(passing.code).toBe(0);
    expect(summarise(passing.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 403`]);
    const [warning] = annotations(passing.stdout);
    expect(warning.level).toBe('warning');
    expect(warning.properties.title).toBe('EvalGate could not comment on the pull request');
    expect(warning.message).toContain('HTTP 403: Resource not accessible by integration');
    expect(warning.message).toContain('comes from a fork');
    expect(warning.message).toContain('job summary');
    expect(warning.message).toContain('pull_request_target or workflow_run');
    expect(passing.outputs['comment-url']).toBe('');
    expect(passing.outputs.verdict).toBe('pass');
    expect(passing.summary).toBe((await expectedFor(PASSING_GATES)).markdownFull);

    const failing = await runAction({ inputs: { gates: FAILING_GATES }, payload: pullRequestPayload({ fork: true }) });
    expect(failing.code).toBe(1);
    expect(annotations(failing.stdout).map((a) => a.level)).toEqual(['error', 'warning', 'error']);
    expect(failing.outputs.verdict).toBe('fail');
  });

  it('retries a 500 and then succeeds', async () => {
    github.inject({ method: 'GET', path: /\/issues\/\d+\/comments$/, status: 500 });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 500`,
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(1000));
    expect(annotations(run.stdout)).toEqual([]);
  });

  it('waits out a secondary rate limit (a 403 that is not a permission problem)', async () => {
    github.inject({
      method: 'POST',
      path: /\/comments$/,
      status: 403,
      headers: { 'retry-after': '1' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 403`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      expect.stringMatching(/^GitHub secondary rate limit on POST .*: retrying in 1 s$/),
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(1);
  });

  it('keeps separate comments for two comment ids', async () => {
    const answers = github.addComment(
      OWNER,
      REPO,
      PR,
      '<!-- evalgate:comment-id=answers -->\nthe answers gate',
      GITHUB_ACTIONS_BOT,
    );
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'comment-id': 'retrieval' } });
    expect(run.code).toBe(0);
    expect(summarise(writes(run.requests))).toEqual([`POST ${COMMENTS_PATH} 201`]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [answers.id, '<!-- evalgate:comment-id=answers -->\nthe answers gate'],
      [answers.id + 1, `<!-- evalgate:comment-id=retrieval -->\n${(await expectedFor(PASSING_GATES)).markdown}`],
    ]);
    const again = await runAction({ inputs: { gates: FAILING_GATES, 'comment-id': 'answers' } });
    expect(again.code).toBe(1);
    expect(summarise(writes(again.requests))).toEqual([
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${answers.id} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- evalgate:comment-id=answers -->',
      '<!-- evalgate:comment-id=retrieval -->',
    ]);
  });

  it("walks every page, updates the first of its comments, deletes duplicates and leaves people's comments alone", async () => {
    const person: Account = { login: 'mallory', id: 77, type: 'User' };
    const oldBody = `${MARKER}\nold report`;
    github.addComment(OWNER, REPO, PR, oldBody, GITHUB_ACTIONS_BOT); // 1000
    for (let i = 0; i < 150; i++) github.addComment(OWNER, REPO, PR, `review comment ${i}`, person);
    github.addComment(OWNER, REPO, PR, `${MARKER}\npasted by a person`, person); // 1151
    for (let i = 0; i < 100; i++) github.addComment(OWNER, REPO, PR, `more ${i}`, person);
    github.addComment(OWNER, REPO, PR, `${MARKER}\nduplicate from an old bug`, GITHUB_ACTIONS_BOT); // 1252
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /repositories/1000/issues/1347/comments?per_page=100&page=2 200',
      'GET /repositories/1000/issues/1347/comments?per_page=100&page=3 200',
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`,
      `DELETE /repos/${OWNER}/${REPO}/issues/comments/1252 204`,
    ]);
    const remaining = github.listComments(OWNER, REPO, PR);
    expect(remaining).toHaveLength(252);
    expect(remaining.filter((c) => c.body.startsWith(MARKER)).map((c) => [c.id, c.body])).toEqual([
      [1000, `${MARKER}\n${out.markdown}`],
      [1151, `${MARKER}\npasted by a person`],
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(1000));
    expect(run.stdout).toContain('deleted 1 duplicate comment');
  });

  it('with a personal access token, recognises its own comments by login', async () => {
    const me: Account = { login: 'octocat', id: 1, type: 'User' };
    github.viewer = me;
    github.author = me;
    github.addComment(OWNER, REPO, PR, `${MARKER}\nsomeone else's copy`, { login: 'mallory', id: 77, type: 'User' });
    github.addComment(OWNER, REPO, PR, `${MARKER}\nmy old report`, me);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 200',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1001 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([
      `${MARKER}\nsomeone else's copy`,
      `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`,
    ]);
  });

  it('on-failure: no comment while green, one when red, and the red one is updated when green again', async () => {
    const green = await runAction({ inputs: { gates: PASSING_GATES, comment: 'on-failure' } });
    expect(green.code).toBe(0);
    expect(summarise(green.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`]);
    expect(green.outputs['comment-url']).toBe('');
    const red = await runAction({ inputs: { gates: FAILING_GATES, comment: 'on-failure' } });
    expect(summarise(writes(red.requests))).toEqual([`POST ${COMMENTS_PATH} 201`]);
    const greenAgain = await runAction({ inputs: { gates: PASSING_GATES, comment: 'on-failure' } });
    expect(summarise(writes(greenAgain.requests))).toEqual([`PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([
      `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`,
    ]);
  });

  it('comment: never makes no API call', async () => {
    const run = await runAction({ inputs: { gates: FAILING_GATES, comment: 'never' } });
    expect(run.code).toBe(1);
    expect(run.requests).toEqual([]);
    expect(run.outputs['comment-url']).toBe('');
    expect(run.summary).toBe((await expectedFor(FAILING_GATES)).markdownFull);
  });

  it('names the input and quotes the value it cannot use', async () => {
    const run = await runAction({ inputs: { comment: 'sometimes' } });
    expect(run.code).toBe(1);
    expect(annotations(run.stdout)).toEqual([
      {
        level: 'error',
        properties: {},
        message: 'EvalGate: input `comment`: "sometimes" is not one of always, on-change, on-failure, never',
      },
    ]);
    expect(run.requests).toEqual([]);
    const both = await runAction({ inputs: { config: 'gates.yml', gates: PASSING_GATES } });
    expect(annotations(both.stdout)[0].message).toBe(
      'EvalGate: inputs `config` ("gates.yml") and `gates` are exclusive: give a config file or inline gates, not both',
    );
  });
});

describe('input mistakes replace the comment with the error panel', () => {
  const panelOf = (message: string) =>
    renderErrorPanel({
      message,
      inputError: true,
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`,
    });

  it('an empty `candidate` (an unset step output): the old green comment becomes the error panel, the step fails', async () => {
    const green = github.addComment(
      OWNER,
      REPO,
      PR,
      `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`,
      GITHUB_ACTIONS_BOT,
    );
    const run = await runAction({ inputs: { gates: PASSING_GATES, candidate: '' } });
    expect(run.code).toBe(1);
    const message = 'input `candidate` is required (a path, relative to the workspace)';
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${green.id} 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: `${MARKER}\n${panelOf(message)}` });
    expect(annotations(run.stdout)).toEqual([{ level: 'error', properties: {}, message: `EvalGate: ${message}` }]);
    expect(run.outputs.verdict).toBe('error');
    expect(run.outputs.passed).toBe('false');
    expect(run.outputs['comment-url']).toBe(commentUrl(green.id));
    expect(run.outputs.summary).toBe(JSON.stringify({ verdict: 'error', error: message }));
    expect(run.summary).toBe(panelOf(message));
    expect(clockless(readFileSync(join(run.workspace, 'evalgate-report.json'), 'utf8'))).toBe(
      stableJson({ verdict: 'error', error: message }),
    );
  });

  it('`config` and `gates` both set, and a bad `fail-on`: every mistake on the panel (a first comment is created)', async () => {
    const run = await runAction({ inputs: { config: 'gates.yml', gates: PASSING_GATES, 'fail-on': 'sometimes' } });
    expect(run.code).toBe(1);
    const messages = [
      'inputs `config` ("gates.yml") and `gates` are exclusive: give a config file or inline gates, not both',
      'input `fail-on`: "sometimes" is not one of error, warn, never',
    ];
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.requests[1].body).toEqual({ body: `${MARKER}\n${panelOf(messages.join('\n'))}` });
    expect(annotations(run.stdout)).toEqual([
      { level: 'error', properties: {}, message: messages.map((m) => `EvalGate: ${m}`).join('\n') },
    ]);
  });

  it('a `report-path` that is an input: refused before anything is read or written, the input unchanged', async () => {
    const run = await runAction({
      inputs: { gates: PASSING_GATES, golden: 'evals/golden.md', 'report-path': 'evals/golden.md' },
      files: { 'evals/golden.md': '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n' },
    });
    expect(run.code).toBe(1);
    const golden = join(run.workspace, 'evals', 'golden.md');
    const message = `input \`report-path\` ${golden} is the input \`golden\` ${golden}: an output never replaces an input; name another file`;
    expect(annotations(run.stdout)).toEqual([{ level: 'error', properties: {}, message: `EvalGate: ${message}` }]);
    expect(readFileSync(golden, 'utf8')).toBe('- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n');
    expect(existsSync(join(run.workspace, 'evals', 'golden.json'))).toBe(false);
    expect(run.summary).toBe(panelOf(message));
    expect(run.outputs.verdict).toBe('error');
  });

  it('an unusable comment input still fails before any API call, naming every mistake', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\nold`, GITHUB_ACTIONS_BOT);
    for (const inputs of [
      { comment: 'sometimes' },
      { 'comment-id': 'two words' },
      { 'pr-number': '#12' },
      { 'comment-author': 'not a login' },
    ] as Array<Record<string, string>>) {
      const run = await runAction({ inputs: { ...inputs, candidate: '' } });
      expect(run.code).toBe(1);
      expect(run.requests).toEqual([]);
      const [failure] = annotations(run.stdout);
      expect(failure.message.split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^EvalGate: input \`${Object.keys(inputs)[0]}\`: `)),
        'EvalGate: input `candidate` is required (a path, relative to the workspace)',
      ]);
    }
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([`${MARKER}\nold`]);
  });
});

describe('rate limits and permissions', () => {
  const reset = () => String(Math.floor(Date.now() / 1000) + 1800);

  it('a primary rate limit (403, x-ratelimit-remaining: 0) that cannot be waited out fails the step; it is not a permission warning', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\nthe green report of an earlier commit`, GITHUB_ACTIONS_BOT);
    github.inject({
      method: 'PATCH',
      path: /\/issues\/comments\/\d+$/,
      status: 403,
      times: 5,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset() },
      body: {
        message: 'API rate limit exceeded for installation ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 403`,
    ]);
    const found = annotations(run.stdout);
    expect(found.filter((a) => a.properties.title === 'EvalGate could not comment on the pull request')).toEqual([]);
    expect(found.filter((a) => a.level === 'error').map((a) => a.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^EvalGate: could not publish the comment on pull request #${PR} \\(HTTP 403, rate limit\\): API rate limit exceeded for installation ID 1\\.`,
        ),
      ),
    ]);
    expect(run.outputs.verdict).toBe('pass');
    expect(run.outputs['comment-url']).toBe('');
  });

  it('a secondary rate limit asking for more than 60 s fails the step too', async () => {
    github.inject({
      method: 'POST',
      path: /\/comments$/,
      status: 403,
      times: 5,
      headers: { 'retry-after': '120' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 403`]);
    const found = annotations(run.stdout);
    expect(found.filter((a) => a.properties.title === 'EvalGate could not comment on the pull request')).toEqual([]);
    expect(found.filter((a) => a.level === 'error').map((a) => a.message)).toEqual([
      expect.stringContaining('(HTTP 403, rate limit): You have exceeded a secondary rate limit'),
    ]);
  });

  it('a 403 "Resource not accessible by integration" on a same-repository pull request: a warning naming `permissions:`', async () => {
    github.readOnly = true;
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    const [warning] = annotations(run.stdout);
    expect(warning.properties.title).toBe('EvalGate could not comment on the pull request');
    expect(warning.message).toContain('HTTP 403: Resource not accessible by integration');
    expect(warning.message).toContain('`pull-requests: write`');
    expect(warning.message).not.toContain('fork');
  });

  it('the 403 advice fits the event: pull_request_target from a fork, and Dependabot', async () => {
    github.readOnly = true;
    const target = await runAction({
      event: 'pull_request_target',
      inputs: { gates: PASSING_GATES },
      payload: pullRequestPayload({ fork: true }),
    });
    expect(target.code).toBe(0);
    const [t] = annotations(target.stdout);
    expect(t.message).toContain("A `pull_request_target` workflow runs with the base repository's token");
    expect(t.message).toContain('`permissions:` must grant `pull-requests: write`');
    expect(t.message).not.toContain('comes from a fork');
    expect(t.message).not.toContain('read-only token');

    const dependabot = await runAction({ inputs: { gates: PASSING_GATES }, env: { GITHUB_ACTOR: 'dependabot[bot]' } });
    expect(dependabot.code).toBe(0);
    const [d] = annotations(dependabot.stdout);
    expect(d.message).toContain('Workflows started by Dependabot get a read-only GITHUB_TOKEN by default');
    expect(d.message).toContain('Dependabot secret');
    expect(d.message).not.toContain('comes from a fork');
  });
});

describe('whose comment is ours', () => {
  it("another app's bot comment that starts with the marker is left alone", async () => {
    const other = github.addComment(OWNER, REPO, PR, `${MARKER}\nspoofed by another app`, {
      login: 'some-app[bot]',
      id: 9,
      type: 'Bot',
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.user.login, c.body])).toEqual([
      [other.id, 'some-app[bot]', `${MARKER}\nspoofed by another app`],
      [other.id + 1, GITHUB_ACTIONS_BOT.login, `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`],
    ]);
    // A duplicate is deleted only when it is ours.
    github.addComment(OWNER, REPO, PR, `${MARKER}\nanother spoof`, { login: 'some-app[bot]', id: 9, type: 'Bot' });
    const again = await runAction({ inputs: { gates: FAILING_GATES } });
    expect(summarise(writes(again.requests))).toEqual([
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${other.id + 1} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(3);
  });

  it("comment-author names a GitHub App's bot: its comment is ours, github-actions[bot]'s is not, and GET /user is not asked", async () => {
    const app: Account = { login: 'my-app[bot]', id: 4242, type: 'Bot' };
    github.author = app;
    const actions = github.addComment(OWNER, REPO, PR, `${MARKER}\nposted with GITHUB_TOKEN`, GITHUB_ACTIONS_BOT);
    const mine = github.addComment(OWNER, REPO, PR, `${MARKER}\nmy app's old report`, app);
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'comment-author': 'my-app[bot]' } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${mine.id} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [actions.id, `${MARKER}\nposted with GITHUB_TOKEN`],
      [mine.id, `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`],
    ]);
  });
});

describe("the error panel names the pull request's head commit", () => {
  it("on pull_request (GITHUB_SHA is the merge commit) and on workflow_run (GITHUB_SHA is the default branch's)", async () => {
    const head = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const payload = pullRequestPayload();
    (payload.pull_request as Record<string, any>).head.sha = head;
    const merge = 'e5bd3914e2e596debea16f433f57875b5b90bcd6';
    const run = await runAction({
      inputs: { gates: PASSING_GATES, candidate: 'missing.sqlite' },
      payload,
      env: { GITHUB_SHA: merge },
    });
    expect(run.code).toBe(1);
    const body = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(body).toContain(`commit ${head.slice(0, 12)}`);
    expect(body).not.toContain(merge.slice(0, 12));

    github.reset();
    const workflowRun = {
      action: 'completed',
      workflow_run: {
        id: 1,
        event: 'pull_request',
        head_sha: head,
        pull_requests: [{ number: PR, base: { repo: { url: `https://api.github.com/repos/${OWNER}/${REPO}` } } }],
      },
    };
    const wr = await runAction({
      event: 'workflow_run',
      inputs: { gates: PASSING_GATES, candidate: 'missing.sqlite' },
      payload: workflowRun,
      env: { GITHUB_SHA: merge },
    });
    expect(wr.code).toBe(1);
    const wrBody = (wr.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(wrBody).toContain(`commit ${head.slice(0, 12)}`);
    expect(wrBody).not.toContain(merge.slice(0, 12));
  });
});

describe("a report past the job summary's 1 MiB", () => {
  it('the summary gets the cut report, and its hint names the report file only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalgate-big-'));
    try {
      // 9,000 queries, each a loss (relevant chunk at rank 1, then missing): a full report of about 1.2 MB.
      const ids = Array.from({ length: 9_000 }, (_, i) => `q${String(i).padStart(5, '0')}-${'y'.repeat(20)}`);
      writeFileSync(
        join(dir, 'golden.yaml'),
        ids
          .map(
            (id, i) =>
              `- id: ${id}\n  query: "question number ${i} about a rather long topic ${'x'.repeat(40)}"\n  expected_chunk_ids: ["${id}-rel"]\n`,
          )
          .join(''),
      );
      const runOf = (rank: number) =>
        ids.map((id) =>
          result(
            id,
            Array.from({ length: 5 }, (_, r) => hit(r + 1, r + 1 === rank ? `${id}-rel` : `${id}-f${r}`, `d-${id}`)),
          ),
        );
      const baseline = await writeRunDb({ runs: [{ runId: 'base', results: runOf(1) }] }, join(dir, 'b.sqlite'));
      const candidate = await writeRunDb({ runs: [{ runId: 'cand', results: runOf(6) }] }, join(dir, 'c.sqlite'));
      const run = await runAction({
        inputs: { gates: PASSING_GATES, baseline, candidate, golden: join(dir, 'golden.yaml'), 'fail-on': 'never' },
      });
      expect(run.code).toBe(0);
      const full = readFileSync(join(run.workspace, 'evalgate-report.md'), 'utf8');
      expect(Buffer.byteLength(full)).toBeGreaterThan(1024 * 1024);
      const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
      expect(comment.length).toBeLessThanOrEqual(65_536);
      expect(run.summary).toBe(comment.slice(MARKER.length + 1));
      expect(run.summary).toContain('the full report is in `evalgate-report.md` (too large for the job summary)');
      expect(run.summary).not.toContain('job summary of this workflow run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the workflow examples in README.md and docs/action.md', () => {
  /** Every ```yaml block that is a whole workflow (has `jobs:`), with the file it is in. */
  function workflows(): Array<{ file: string; workflow: Record<string, any> }> {
    return ['README.md', 'docs/action.md'].flatMap((file) =>
      [...readFileSync(join(repoRoot, file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((m) => {
        let parsed: unknown;
        try {
          parsed = parseYaml(m[1]);
        } catch {
          return [];
        }
        return parsed && typeof parsed === 'object' && 'jobs' in parsed
          ? [{ file, workflow: parsed as Record<string, any> }]
          : [];
      }),
    );
  }

  it('run the EvalGate step also after a failed step, keep one run per pull request, and report failed evals from workflow_run', () => {
    const found = workflows();
    expect(found.filter((w) => w.file === 'README.md')).toHaveLength(2);
    expect(found.filter((w) => w.file === 'docs/action.md')).toHaveLength(3);
    let evalgateSteps = 0;
    for (const { file, workflow } of found) {
      expect(workflow.concurrency?.['cancel-in-progress'], `${file}: ${workflow.name}`).toBe(true);
      expect(String(workflow.concurrency?.group), `${file}: ${workflow.name}`).toMatch(
        /pull_request\.number|workflow_run\.head_branch/,
      );
      for (const job of Object.values(
        workflow.jobs as Record<string, { if?: string; steps: Array<Record<string, any>> }>,
      )) {
        for (const step of job.steps) {
          if (String(step.uses ?? '').startsWith('your-org/evalgate@')) {
            evalgateSteps++;
            // after a step that can fail (the eval runner), EvalGate must still run, to show the error panel
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflows write it
            if (job.steps.indexOf(step) > 1) expect(step.if, `${file}: ${workflow.name}`).toBe('${{ !cancelled() }}');
          }
          if (
            String(step.uses ?? '').startsWith('actions/upload-artifact@') &&
            step.with?.name !== 'evalgate-baseline'
          ) {
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflows write it
            expect(step.if, `${file}: ${workflow.name}: upload`).toBe('${{ !cancelled() }}');
          }
        }
        if (workflow.on?.workflow_run) {
          // a failed eval (no artifact) must still report: the error panel and an error status
          expect(job.if).toContain("github.event.workflow_run.conclusion != 'cancelled'");
          expect(job.if).toContain("github.event.workflow_run.event == 'pull_request'");
        }
      }
    }
    expect(evalgateSteps).toBe(5);
  });

  it('show examples/rag-eval.yml as it is, and it records the baseline as docs/action.md says', () => {
    const example = readFileSync(join(repoRoot, 'examples', 'rag-eval.yml'), 'utf8');
    for (const file of ['README.md', 'docs/action.md'])
      expect(readFileSync(join(repoRoot, file), 'utf8'), file).toContain(`\`\`\`yaml\n${example}\`\`\``);
    for (const name of ['rag-eval.yml', 'rag-eval-baseline.yml']) {
      const workflow = parseYaml(readFileSync(join(repoRoot, 'examples', name), 'utf8')) as Record<string, any>;
      const steps = Object.values(workflow.jobs as Record<string, { steps: Array<Record<string, any>> }>).flatMap(
        (j) => j.steps,
      );
      const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'));
      expect(upload?.with, name).toMatchObject({ name: 'evalgate-baseline', 'if-no-files-found': 'error' });
      expect(upload?.with['retention-days'], name).toBeGreaterThan(0);
      expect(Object.keys(workflow.on), name).toContain('push');
    }
  });

  it('document every input of action.yml in the inputs table', () => {
    const action = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const docs = readFileSync(join(repoRoot, 'docs', 'action.md'), 'utf8');
    for (const name of Object.keys(action.inputs)) expect(docs, name).toContain(`| \`${name}\` |`);
  });
});

describe('the action without a pull request', () => {
  it('on push writes the summary, files and outputs and makes no API call', async () => {
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ event: 'push', inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(run.requests).toEqual([]);
    expect(run.summary).toBe(out.markdownFull);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: true, commentUrl: '' }));
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.stdout).toContain('no pull request for this push event');
  });
});

describe('commit status', () => {
  const HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
  const RUN_URL = `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`;
  const states = () => github.statuses(OWNER, REPO, HEAD).map((s) => [s.context, s.state, s.description]);

  it('pending, then success on the PR head, with the headline and the workflow run as target', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, status: 'auto' } });
    expect(run.code).toBe(0);
    expect(states()).toEqual([
      ['evalgate/default', 'pending', 'EvalGate is scoring the runs'],
      ['evalgate/default', 'success', expect.stringMatching(/^pass: \d+ gates? passed$/)],
    ]);
    expect(github.statuses(OWNER, REPO, HEAD).every((s) => s.target_url === RUN_URL)).toBe(true);
    expect(run.stdout).toContain(`commit status evalgate/default on ${HEAD.slice(0, 7)}: success`);
  });

  it('failure names the failed gates; the context follows comment-id, one per id', async () => {
    const run = await runAction({ inputs: { gates: FAILING_GATES, status: 'auto', 'comment-id': 'retrieval' } });
    expect(run.code).toBe(1);
    const last = github.statuses(OWNER, REPO, HEAD).at(-1)!;
    expect(last).toMatchObject({ context: 'evalgate/retrieval', state: 'failure' });
    expect(String(last.description)).toMatch(/^fail: \d+ failed of \d+ gates? \(/);
    expect(String(last.description).length).toBeLessThanOrEqual(140);
    expect(states().map((s) => s[0])).toEqual(['evalgate/retrieval', 'evalgate/retrieval']);
  });

  it('error when the run cannot be evaluated (a candidate that is not a database)', async () => {
    const run = await runAction({
      inputs: { gates: PASSING_GATES, status: 'auto', candidate: 'not-a-db.sqlite' },
      files: { 'not-a-db.sqlite': 'plain text' },
    });
    expect(run.code).toBe(1);
    expect(states().map((s) => s[1])).toEqual(['pending', 'error']);
    expect(String(states()[1][2])).toMatch(/^could not evaluate the run: /);
  });

  it('a token that may not write statuses: a warning under auto (the gates decide), a failure under true', async () => {
    github.readOnly = true;
    const auto = await runAction({ inputs: { gates: PASSING_GATES, status: 'auto', comment: 'never' } });
    expect(auto.code).toBe(0);
    expect(auto.stdout).toMatch(
      /::warning::EvalGate could not set the commit status evalgate\/default on 6dcb09b: .*statuses: write/,
    );
    // one refusal: no second try at the end
    expect(auto.requests.filter((r) => r.path.includes('/statuses/'))).toHaveLength(1);
    const strict = await runAction({ inputs: { gates: PASSING_GATES, status: 'true', comment: 'never' } });
    expect(strict.code).toBe(1);
    expect(states()).toEqual([]);
  });

  it('status: false sets none', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, status: 'false' } });
    expect(run.code).toBe(0);
    expect(run.requests.filter((r) => r.path.includes('/statuses/'))).toEqual([]);
  });
});

describe('baseline-max-age', () => {
  it('a baseline older than it: a line in the report and a warning annotation', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'baseline-max-age': '7' } });
    expect(run.code).toBe(0);
    // the fixtures' baseline was created 2026-11-01T12:00:00Z: weeks before any run of this test
    const days = Math.round((Date.now() - Date.parse('2026-11-01T12:00:00Z')) / 86_400_000);
    const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).toContain(`- ⚠️ The baseline run is ${days} days old, past \`baseline-max-age\` (7 days).`);
    expect(annotations(run.stdout)).toContainEqual({
      level: 'warning',
      properties: { title: 'EvalGate: stale baseline' },
      message: expect.stringMatching(/^the baseline run is \d+ days old \(created 2026-11-01T12:00:00Z\)/),
    });
  });

  it('within it, or 0: nothing said', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'baseline-max-age': '3650' } });
    const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).not.toContain('baseline-max-age');
    expect(annotations(run.stdout).filter((a) => a.properties.title === 'EvalGate: stale baseline')).toEqual([]);
  });
});

describe('baseline: none (a candidate-only report)', () => {
  it('min and max gates decide: the comment says there is no baseline; a relative gate is no data', async () => {
    // the candidate's hit@1 is 0.3467 and its error_rate 0
    const passing = await runAction({
      inputs: {
        baseline: 'none',
        gates: 'gates:\n  - metric: hit@1\n    min: 0.34\n  - metric: error_rate\n    max: 0\n',
      },
    });
    expect(passing.code).toBe(0);
    expect(passing.outputs.verdict).toBe('pass');
    const comment = (passing.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).toContain('**without a baseline**: a candidate-only report');
    expect(JSON.parse(passing.outputs.summary)).toMatchObject({ baseline_run: null });

    const failing = await runAction({
      inputs: {
        baseline: 'none',
        gates: 'gates:\n  - metric: hit@1\n    min: 0.35\n  - metric: nDCG@10\n    max_drop: 0.01\n',
      },
    });
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.outputs['failed-gates'])).toMatchObject([
      { metric: 'hit@1', result: 'fail' },
      { metric: 'nDCG@10', result: 'no_data', note: expect.stringMatching(/^no baseline/) },
    ]);
  });
});

describe('write-aggregate', () => {
  it('stores the same aggregate_json as `evalgate aggregate --write`', async () => {
    const mine = join(scratch, 'candidate-action.sqlite');
    const cli = join(scratch, 'candidate-cli.sqlite');
    copyFileSync(join(repoRoot, 'fixtures', 'candidate.sqlite'), mine);
    copyFileSync(join(repoRoot, 'fixtures', 'candidate.sqlite'), cli);
    const run = await runAction({
      event: 'push',
      inputs: { gates: PASSING_GATES, candidate: mine, 'write-aggregate': 'true' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote aggregate_json of run candidate-passages into ${mine}`);
    execFileSync(
      process.execPath,
      [
        join(repoRoot, 'dist', 'cli', 'index.js'),
        'aggregate',
        cli,
        '--golden',
        join(repoRoot, 'fixtures', 'golden.yaml'),
        '--write',
      ],
      { stdio: 'pipe' },
    );
    const SQL = await loadSqlJs();
    const aggregateOf = (file: string) => {
      const db = new SQL.Database(readFileSync(file));
      try {
        return String(
          db.exec("SELECT aggregate_json FROM eval_runs WHERE run_id = 'candidate-passages'")[0].values[0][0],
        );
      } finally {
        db.close();
      }
    };
    const written = aggregateOf(mine);
    expect(written).toBe(aggregateOf(cli));
    expect(written).not.toBe(aggregateOf(join(repoRoot, 'fixtures', 'candidate.sqlite')));
    expect(JSON.parse(written)).toHaveProperty('hit_at_k');
  });
});

describe('a GitHub API that never answers, dawdles, or garbles its JSON', () => {
  const LIST = new RegExp(`^${COMMENTS_PATH}$`);

  it('never answers: the publish deadline fails the step at once, and the report is in the summary and files', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: Number.POSITIVE_INFINITY, times: 100 });
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'request-timeout': '20', 'publish-timeout': '2' },
    });
    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(12_000); // the 2 s deadline (and Node's start), not 20 s nor the retries' 14 s of waits
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      `EvalGate: could not publish the comment on pull request #${PR}: GitHub's API did not finish within 2 s (input \`publish-timeout\`); the report is in the job summary and the report files`,
    ]);
    expect(run.summary).toBe(out.markdownFull);
    expect(readFileSync(join(run.workspace, 'evalgate-report.md'), 'utf8')).toBe(out.markdownFull);
    expect(run.outputs['comment-url']).toBe('');
    github.clearRequests(); // the unanswered request has no answer to check against GitHub's description
  });

  it('never answers within the request timeout: each attempt is cut and retried; the retries run out', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: Number.POSITIVE_INFINITY, times: 100 });
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'request-timeout': '0.5', 'publish-timeout': '60' },
    });
    expect(run.code).toBe(1);
    const requests = run.requests.filter((r) => r.method === 'GET' && LIST.test(r.path));
    expect(requests).toHaveLength(4); // the first attempt and 3 retries
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      `EvalGate: could not publish the comment on pull request #${PR}: GET ${github.url}${COMMENTS_PATH}: no answer within 0.5 s (input \`request-timeout\`: 0.5 s, retried); the report is in the job summary and the report files`,
    ]);
    github.clearRequests();
  });

  it('answers slowly: the attempt past the request timeout is cut, the retry gets the comment made', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: 3_000, body: {}, times: 1 });
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'request-timeout': '1' } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests).slice(-2)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(1);
    github.clearRequests();
  });

  it('answers malformed JSON: a message that says so, not "Cannot use \'in\' operator"', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, rawBody: '[{"id": 1, "body": ', times: 100 });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    const messages = annotations(run.stdout).map((a) => a.message);
    expect(messages).toEqual([
      `EvalGate: could not publish the comment on pull request #${PR}: GET ${github.url}${COMMENTS_PATH}: the answer (HTTP 200, 19 bytes) is not valid JSON`,
    ]);
    github.clearRequests();
  });
});

describe('a truncated event file', () => {
  it("gets EvalGate's own message, not a crash inside @actions/github", async () => {
    const eventPath = join(scratch, 'truncated-event.json');
    writeFileSync(eventPath, JSON.stringify(pullRequestPayload()).slice(0, 100));
    const run = await runAction({ inputs: { gates: PASSING_GATES }, env: { GITHUB_EVENT_PATH: eventPath } });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    const [failure] = annotations(run.stdout);
    expect(failure.message).toMatch(
      new RegExp(`^EvalGate: GITHUB_EVENT_PATH ${eventPath}: the event payload is not JSON \\(`),
    );
    expect(run.requests).toEqual([]);
  });
});

describe('a run database whose ids hold workflow commands', () => {
  const INJECTED = [
    '\n::error title=INJECTED::x',
    '\r::add-mask::INJECTED',
    '\n  ::stop-commands::INJECTED',
    '##[error]INJECTED',
  ];

  /** Lines the runner reads as workflow commands: each must be one of the action's own. */
  function foreignCommands(text: string): string[] {
    return text.split(/\r\n|\r|\n/).filter((line) => {
      const m = /^\s*::([^:]*)::(.*)$/.exec(line);
      // The older `##[command]` is read anywhere in a line that is not a `::` command.
      if (!/^\s*::/.test(line)) return line.includes('##[');
      if (!m || m[1].includes('INJECTED')) return true;
      const command = m[1].split(' ')[0];
      if (command === 'add-mask') return m[2] !== TOKEN;
      return !['error', 'warning', 'debug', 'notice'].includes(command) || line !== line.trimStart();
    });
  }

  it('are printed inert, by write-aggregate, warnings and errors, in the raw stdout and stderr of the bundle', async () => {
    const runId = `r1${INJECTED.join('')}`;
    const candidate = await writeRunDb(
      {
        runs: [
          {
            runId,
            results: [
              result('q001', [hit(1, 'cran-0012#p01', 'cran-0012')]),
              result(`x${INJECTED.join('')}`, [hit(1, 'c1', 'd1')]),
            ],
          },
        ],
      },
      join(scratch, 'injected.sqlite'),
    );
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'fail-on': 'never', candidate, 'write-aggregate': 'true' },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(foreignCommands(run.stdout)).toEqual([]);
    expect(foreignCommands(run.stderr)).toEqual([]);
    expect(run.stdout).toContain(
      'wrote aggregate_json of run r1\\n::error title=INJECTED::x\\r::add-mask::INJECTED\\n  ::stop-commands::INJECTED## [error]INJECTED',
    );
    // An error quoting the ids: the step's failure message, escaped by @actions/core.
    const bad = await writeRunDb(
      { runs: [{ runId, results: [new RawResult(`q001${INJECTED[0]}`, '{"hits_top_k": [')] }] },
      join(scratch, 'injected-bad.sqlite'),
    );
    const failed = await runAction({ inputs: { gates: PASSING_GATES, candidate: bad } });
    expect(failed.code).toBe(1);
    expect(foreignCommands(failed.stdout)).toEqual([]);
    expect(foreignCommands(failed.stderr)).toEqual([]);
    expect(annotations(failed.stdout)[0].message).toContain('query `q001\\n::error title=INJECTED::x`');
  });
});

// ---------------------------------------------------------------------------------------------------------
// The bundles score the candidate in a worker thread (src/pipeline/twoThreads.ts)

describe('the CLI bundle: the candidate scored in a worker thread', () => {
  const CLI = join(repoRoot, 'dist', 'cli', 'index.js');
  const node = process.env.EVALGATE_ACTION_NODE || process.execPath;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runNode([CLI, ...args], { EVALGATE_TRACE: '1', ...env }, node);
  // 60 queries; the relevant chunk of query i sits at rank (i % 7) + 1 in the baseline and (i % 5) + 1 in the
  // candidate, ranks 6 and 7 being misses; answers and latencies vary so every metric family has data.
  const ids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}`);
  const golden = ids
    .map(
      (id, i) =>
        `- id: ${id}\n  query: "question ${i}"\n  expected_chunk_ids: ["${id}-rel"]\n  category: ${['a', 'b', 'c'][i % 3]}\n  must_contain: ["x"]\n`,
    )
    .join('');
  // The same queries as JSON Lines: aggregate reads only a JSON Lines golden set in two threads.
  const goldenLines = ids
    .map(
      (id, i) =>
        `${JSON.stringify({ id, query: `question ${i}`, expected_chunk_ids: [`${id}-rel`], category: ['a', 'b', 'c'][i % 3], must_contain: ['x'] })}\n`,
    )
    .join('');
  /** Extra queries x0000.. as JSON Lines, each `words` repeated to make the file large enough to cut. */
  const extraLines = (n: number, fields: (i: number) => Record<string, unknown>) =>
    Array.from(
      { length: n },
      (_, i) => `${JSON.stringify({ id: `x${String(i).padStart(4, '0')}`, ...fields(i) })}\n`,
    ).join('');
  const runResults = (mod: number, version: string) =>
    ids.map((id, i) => {
      const rank = (i % mod) + 1;
      const hits = Array.from({ length: 5 }, (_, r) =>
        hit(r + 1, r + 1 === rank ? `${id}-rel` : `${id}-f${r}`, `d${i}`, { chunker_version: version }),
      );
      return result(id, hits, {
        elapsed_ms: 100 + ((i * mod) % 37),
        answer: answer(i % 4 === 0 ? 'no x here' : 'x marks it', [{ chunk_id: `${id}-rel` }]),
      });
    });
  let dir: string;
  let files: { golden: string; baseline: string; candidate: string; candidateV2: string; broken: string };

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evalgate-parallel-'));
    files = {
      golden: join(dir, 'golden.yaml'),
      baseline: await writeRunDb(
        { runs: [{ runId: 'base', config: { chunker_version: 'v1' }, results: runResults(7, 'v1') }] },
        join(dir, 'b.sqlite'),
      ),
      candidate: await writeRunDb(
        { runs: [{ runId: 'cand', config: { chunker_version: 'v1' }, results: runResults(5, 'v1') }] },
        join(dir, 'c.sqlite'),
      ),
      // no chunker_version declared: only its hits say v2
      candidateV2: await writeRunDb(
        { runs: [{ runId: 'cand2', results: runResults(5, 'v2') }] },
        join(dir, 'c2.sqlite'),
      ),
      broken: await writeRunDb(
        {
          runs: [
            {
              runId: 'bad',
              config: { chunker_version: 'v1' },
              results: [...runResults(5, 'v1').slice(1), new RawResult('q00', '{"hits_top_k": [')],
            },
          ],
        },
        join(dir, 'bad.sqlite'),
      ),
    };
    writeFileSync(files.golden, golden);
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function threeWays(candidate: string) {
    const args = (out: string) => [
      'compare',
      files.baseline,
      candidate,
      '--golden',
      files.golden,
      '--json',
      join(dir, out),
    ];
    const two = await cli(args('two.json'));
    const one = await cli(args('one.json'), { EVALGATE_WORKERS: '0' });
    const inProcess = await runCompare({
      baselinePath: files.baseline,
      candidatePath: candidate,
      goldenPath: files.golden,
    });
    return {
      two,
      one,
      inProcess,
      twoJson: readFileSync(join(dir, 'two.json'), 'utf8'),
      oneJson: readFileSync(join(dir, 'one.json'), 'utf8'),
    };
  }

  it('one chunker: two threads, and the same bytes as one thread and as the library', async () => {
    const r = await threeWays(files.candidate);
    expect(r.two.stderr).toContain('evalgate: scored in two threads');
    expect(r.one.stderr).toContain('evalgate: scored in one thread');
    expect(r.twoJson).toBe(r.oneJson);
    expect(r.twoJson).toBe(r.inProcess.json);
    expect(r.two.stdout).toBe(r.one.stdout);
    const report = JSON.parse(r.twoJson) as CompareOutputs['report'];
    expect(report.chunker_version_match).toBe('exact');
    expect(report.counts.win + report.counts.loss + report.counts.draw + report.counts.regression).toBe(60);
    expect(report.counts.loss).toBeGreaterThan(0);
  });

  it('versions only the hits reveal to differ: the two-thread pass gives way to the fallback in one thread', async () => {
    const r = await threeWays(files.candidateV2);
    expect(r.two.stderr).toContain('evalgate: scored in one thread');
    expect(r.twoJson).toBe(r.inProcess.json);
    expect((JSON.parse(r.twoJson) as CompareOutputs['report']).chunker_version_match).toBe('fallback_doc');
  });

  it('aggregate in two threads (query_id halves): the same bytes as one thread and the library', async () => {
    // EVALGATE_WORKERS=2: two threads whatever the size (by default only runs with a golden file of 16 MB or more).
    const big = await writeRunDb(
      {
        runs: [
          {
            runId: 'big',
            results: runResults(7, 'v1').map((r) => ({
              ...r,
              hits_top_k: (r.hits_top_k as Array<Record<string, unknown>>).map((h) => ({
                ...h,
                snippet: 's'.repeat(2000),
              })),
            })),
          },
        ],
      },
      join(dir, 'big.sqlite'),
    );
    const goldenJsonl = join(dir, 'golden.jsonl');
    writeFileSync(goldenJsonl, goldenLines);
    const args = ['aggregate', big, '--golden', goldenJsonl, '--json'];
    const two = await cli(args, { EVALGATE_WORKERS: '2' });
    const one = await cli(args, { EVALGATE_WORKERS: '0' });
    expect((await cli(args)).stderr).toContain('evalgate: scored in one thread'); // by default: too small to split
    expect(two.stderr).toContain('evalgate: scored in two threads');
    expect(one.stderr).toContain('evalgate: scored in one thread');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const library = await runAggregate({ runPath: big, goldenPath: goldenJsonl });
    expect(two.stdout).toBe(stableJson(library.report));
    // a YAML golden set: one thread
    expect(
      (await cli(['aggregate', big, '--golden', files.golden, '--json'], { EVALGATE_WORKERS: '2' })).stderr,
    ).toContain('evalgate: scored in one thread');
    expect((JSON.parse(two.stdout) as { metrics: Record<string, { n: number }> }).metrics['hit@5'].n).toBe(60);
    // a small run: one thread
    const small = await cli(['aggregate', files.baseline, '--golden', files.golden, '--json']);
    expect(small.stderr).toContain('evalgate: scored in one thread');
  });

  it('a golden file over 1 MB: compare reads it in each thread, aggregate in halves, one per thread; the same bytes as one thread and the library', async () => {
    // 6,000 golden queries (the 60 of the runs and 5,940 the runs lack), an unknown key in each half.
    const extra = Array.from(
      { length: 5_940 },
      (_, i) =>
        `- id: x${String(i).padStart(4, '0')}\n  query: "an extra question ${i} ${'words '.repeat(i % 30)}"\n  expected_doc_ids: ["d${i}"]\n  category: ${['a', 'b', 'c'][i % 3]}\n${i % 2_000 === 7 ? '  x_note: 1\n' : ''}`,
    ).join('');
    const bigGolden = join(dir, 'big-golden.yaml');
    writeFileSync(bigGolden, golden + extra);
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20);
    const args = ['compare', files.baseline, files.candidate, '--golden', bigGolden, '--json', join(dir, 'big.json')];
    const two = await cli(args);
    const twoJson = readFileSync(join(dir, 'big.json'), 'utf8');
    const one = await cli(args, { EVALGATE_WORKERS: '0' });
    const library = await runCompare({
      baselinePath: files.baseline,
      candidatePath: files.candidate,
      goldenPath: bigGolden,
    });
    expect(two.stderr).toMatch(/ faults {2}golden set read$/m);
    expect(two.stderr).toMatch(/ faults {2}worker: golden set read$/m);
    // Each phase with its time and the process's page faults so far, the worker's on the same counts.
    const faultsAt = (label: string) =>
      Number(new RegExp(`^evalgate: \\d+\\.\\d\\d s +(\\d+\\.\\d)k faults  ${label}`, 'm').exec(two.stderr)?.[1]);
    expect(faultsAt('worker: golden set read')).toBeGreaterThan(0);
    expect(faultsAt('reports rendered')).toBeGreaterThanOrEqual(faultsAt('worker started'));
    expect(two.stderr).toContain('evalgate: scored in two threads');
    expect(twoJson).toBe(library.json);
    expect(readFileSync(join(dir, 'big.json'), 'utf8')).toBe(library.json);
    expect(two.stdout).toBe(one.stdout);
    // the warnings of both halves, with their lines, as one thread gives them: one for the key in 3 queries
    const warnings = (r: { stderr: string }) => r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    const xNote = /^warning: .*:\d+: unknown key `x_note` in 3 queries \(ignored\); did you mean `note`\?$/;
    expect(warnings(two)).toEqual(warnings(one));
    expect(warnings(two)).toEqual([expect.stringMatching(xNote)]);
    const report = JSON.parse(twoJson) as CompareOutputs['report'];
    expect(report.golden.queries).toBe(6_000);
    expect(report.golden.removed).toEqual([]);
    // aggregate in two threads, each scoring the query_id range of its own half of the same queries as JSON Lines
    // (in id order: q.. then x0000..x5939): the same bytes and warnings as one thread.
    const extraJsonl = extraLines(5_940, (i) => ({
      query: `an extra question ${i} ${'words '.repeat(i % 30)}`,
      expected_doc_ids: [`d${i}`],
      category: ['a', 'b', 'c'][i % 3],
      ...(i % 2_000 === 7 ? { x_note: 1 } : {}),
    }));
    const bigJsonl = join(dir, 'big-golden.jsonl');
    writeFileSync(bigJsonl, goldenLines + extraJsonl);
    expect(statSync(bigJsonl).size).toBeGreaterThan(1 << 20);
    const aggregateBothWays = async (goldenFile: string) => {
      const aggArgs = ['aggregate', files.baseline, '--golden', goldenFile, '--json'];
      const agg2 = await cli(aggArgs, { EVALGATE_WORKERS: '2', EVALGATE_TRACE: '1' });
      const agg1 = await cli(aggArgs, { EVALGATE_WORKERS: '0' });
      expect(agg2.status).toBe(0);
      expect(agg2.stdout).toBe(agg1.stdout);
      expect(warnings(agg2)).toEqual(warnings(agg1));
      expect(warnings(agg2)).toEqual([expect.stringMatching(xNote)]);
      expect((JSON.parse(agg2.stdout) as { golden: { queries: number } }).golden.queries).toBe(6_000);
      return agg2.stderr;
    };
    expect(await aggregateBothWays(bigJsonl)).toContain('evalgate: scored in two threads');
    // Not in id order (the extra queries first, so the first half's ids sort after the second's): one thread.
    const unordered = join(dir, 'unordered-golden.jsonl');
    writeFileSync(unordered, extraJsonl + goldenLines);
    expect(await aggregateBothWays(unordered)).toContain('evalgate: scored in one thread');
  });

  it("the action bundle scores in two threads too: its report file is the library's, byte for byte", async () => {
    const run = await runAction({
      inputs: { baseline: files.baseline, candidate: files.candidate, golden: files.golden },
    });
    const library = await runCompare({
      baselinePath: files.baseline,
      candidatePath: files.candidate,
      goldenPath: files.golden,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(library.report.verdict === 'fail' ? 1 : 0);
    expect(clockless(readFileSync(join(run.workspace, 'evalgate-report.json'), 'utf8'))).toBe(library.json);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.stdout).toContain('::debug::EvalGate: runs scored in two threads');
    // the Cranfield fixtures differ in chunker version: one thread
    expect((await runAction()).stdout).toContain('::debug::EvalGate: runs scored in one thread');
  });

  it('the action reads a JSON Lines golden set: the same report as the YAML one but for the fingerprint', async () => {
    const jsonl = join(dir, 'golden-for-action.jsonl');
    writeFileSync(jsonl, goldenLines);
    const [fromYaml, fromJsonl] = [
      await runAction({ inputs: { baseline: files.baseline, candidate: files.candidate, golden: files.golden } }),
      await runAction({ inputs: { baseline: files.baseline, candidate: files.candidate, golden: jsonl } }),
    ];
    const report = (run: { workspace: string }) =>
      readFileSync(join(run.workspace, 'evalgate-report.json'), 'utf8').replace(/sha256:[0-9a-f]{64}/, 'sha256:');
    expect(fromJsonl.stderr).toBe('');
    expect(fromJsonl.code).toBe(fromYaml.code);
    expect(report(fromJsonl)).toBe(report(fromYaml));
    expect(JSON.parse(readFileSync(join(fromJsonl.workspace, 'evalgate-report.json'), 'utf8')).golden.fingerprint).toBe(
      `sha256:${createHash('sha256').update(goldenLines).digest('hex')}`,
    );
  });

  it("a bad row in the worker's run: exit 2 naming file, table, run and query, no stack", async () => {
    const r = await cli(['compare', files.baseline, files.broken, '--golden', files.golden]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `${files.broken}: table \`eval_query_results\`, run \`bad\`, query \`q00\`, column \`result_json\`: malformed JSON`,
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('aggregate in two threads: results between the two ranges (ids in neither half) are read too, as one thread reads them', async () => {
    // Unknown ids beside every extra golden id (`x0007z` sorts between x0007 and x0008): one of them lies between the
    // main thread's last id and the worker's first, which neither thread's own range holds.
    const bigGolden = join(dir, 'big-golden-for-gaps.jsonl');
    writeFileSync(
      bigGolden,
      goldenLines +
        extraLines(5_940, (i) => ({
          query: `an extra question ${i} ${'words '.repeat((i % 30) + 10)}`,
          category: ['a', 'b', 'c'][i % 3],
        })),
    );
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const unknown = Array.from({ length: 5_940 }, (_, i) =>
      result(`x${String(i).padStart(4, '0')}z`, [hit(1, `u${i}`, `du${i}`, { chunker_version: 'v1' })]),
    );
    const db = await writeRunDb(
      { runs: [{ runId: 'gaps', results: [...runResults(5, 'v1'), ...unknown] }] },
      join(dir, 'gaps.sqlite'),
    );
    const args = ['aggregate', db, '--golden', bigGolden, '--json'];
    const two = await cli(args, { EVALGATE_WORKERS: '2', EVALGATE_TRACE: '1' });
    const one = await cli(args, { EVALGATE_WORKERS: '0' });
    expect(two.stderr).toContain('the two halves joined');
    // The worker's young generation is Node 20's on every Node (Node 24 would give it 192 MB): the check that
    // fails without the limit is .ci/run's second pass, under Node 24.
    expect(two.stderr).toContain('worker: worker running (young generation 48 MB)');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect((JSON.parse(one.stdout) as { unknown_query_ids: string[] }).unknown_query_ids).toHaveLength(5_940);
  });

  it('aggregate in two threads, query_ids stored as numbers (a column without TEXT affinity): each thread gets its half, the same bytes as one thread', async () => {
    // SQLite sorts every number below every text: compared with the golden halves' text bounds as they are, all the
    // numbers would fall in the main thread's range and the worker's half would read as missing.
    const n = 12_000;
    const ids = Array.from({ length: n }, (_, i) => String(100_000 + i));
    const numericGolden = join(dir, 'numeric-ids.jsonl');
    writeFileSync(
      numericGolden,
      ids
        .map(
          (id) =>
            `${JSON.stringify({ id, query: `question ${id} ${'words '.repeat(10)}`, expected_chunk_ids: [`c${id}`] })}\n`,
        )
        .join(''),
    );
    expect(statSync(numericGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const db = join(dir, 'numeric-ids.sqlite');
    const SQL = await loadSqlJs();
    const made = new SQL.Database();
    made.run(`CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, config_snapshot_json TEXT NOT NULL, aggregate_json TEXT NOT NULL, commit_hash TEXT, created_at TEXT NOT NULL);
      CREATE TABLE eval_query_results (run_id TEXT NOT NULL, query_id NOT NULL, result_json TEXT NOT NULL, PRIMARY KEY (run_id, query_id));
      INSERT INTO eval_runs VALUES ('numbers', 'bench', '{}', '{}', NULL, '2026-11-24T00:00:00Z');`);
    const insert = made.prepare('INSERT INTO eval_query_results VALUES (?, ?, ?)');
    // every tenth id stored as a REAL (SQLite's text of it is "100010.0"; EvalGate matches String(100010) = "100010"),
    // and those around the halves' boundary, where SQLite's text would put a row between the two ranges
    const insertReal = made.prepare('INSERT INTO eval_query_results VALUES (?, CAST(? AS REAL), ?)');
    // every other query finds its chunk at rank 1
    ids.forEach((id, i) => {
      (i % 10 === 0 || Math.abs(i - n / 2) <= 2 ? insertReal : insert).run([
        'numbers',
        Number(id),
        JSON.stringify(result(id, [hit(1, i % 2 === 0 ? `c${id}` : 'other')])),
      ]);
    });
    insert.free();
    insertReal.free();
    expect(made.exec("SELECT count(*) FROM eval_query_results WHERE typeof(query_id) = 'real'")[0].values[0][0]).toBe(
      n / 10 + 4,
    );
    writeFileSync(db, made.export());
    made.close();
    const args = ['aggregate', db, '--golden', numericGolden, '--json'];
    const two = await cli(args, { EVALGATE_WORKERS: '2', EVALGATE_TRACE: '1' });
    const one = await cli(args, { EVALGATE_WORKERS: '0' });
    expect(two.stderr).toContain('the two halves joined');
    expect(two.status).toBe(0);
    const metrics = (JSON.parse(two.stdout) as { metrics: Record<string, { value: number | null; n: number }> })
      .metrics;
    expect(metrics['hit@1']).toEqual({ value: 0.5, n: n });
    expect(metrics.missing_queries.value).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    // the same ids as JSON numbers: read as their text, the same bytes, no warning
    writeFileSync(numericGolden, readFileSync(numericGolden, 'utf8').replace(/^\{"id":"(\d+)"/gm, '{"id":$1'));
    const [twoUnquoted, oneUnquoted] = [
      await cli(args, { EVALGATE_WORKERS: '2', EVALGATE_TRACE: '1' }),
      await cli(args, { EVALGATE_WORKERS: '0' }),
    ];
    expect(twoUnquoted.stderr).toContain('the two halves joined');
    expect(oneUnquoted.stderr).not.toContain('warning:');
    expect(twoUnquoted.stdout).toBe(oneUnquoted.stdout);
    expect(JSON.parse(oneUnquoted.stdout).metrics).toEqual(JSON.parse(one.stdout).metrics); // another file: another fingerprint
  });

  it('query ids with two result rows (a table without the primary key): listed and warned of, alike in two threads and one, and by compare', async () => {
    const n = 12_000;
    const ids = Array.from({ length: n }, (_, i) => `r${String(i).padStart(5, '0')}`);
    const dupGolden = join(dir, 'dup-golden.jsonl');
    writeFileSync(
      dupGolden,
      ids
        .map(
          (id) =>
            `${JSON.stringify({ id, query: `question ${id} ${'words '.repeat(10)}`, expected_chunk_ids: [`c${id}`] })}\n`,
        )
        .join(''),
    );
    expect(statSync(dupGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const db = join(dir, 'dup.sqlite');
    const SQL = await loadSqlJs();
    const made = new SQL.Database();
    made.run(`CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, config_snapshot_json TEXT NOT NULL, aggregate_json TEXT NOT NULL, commit_hash TEXT, created_at TEXT NOT NULL);
      CREATE TABLE eval_query_results (run_id TEXT NOT NULL, query_id TEXT NOT NULL, result_json TEXT NOT NULL);
      INSERT INTO eval_runs VALUES ('dup', 'bench', '{}', '{}', NULL, '2026-11-24T00:00:00Z');`);
    const insert = made.prepare('INSERT INTO eval_query_results VALUES (?, ?, ?)');
    for (const id of ids) insert.run(['dup', id, JSON.stringify(result(id, [hit(1, `c${id}`)]))]);
    // a second row for one query early in the main thread's half, one just inside the worker's and its last
    const repeated = [ids[n - 1], ids[3], ids[n / 2 + 1]];
    for (const id of repeated) insert.run(['dup', id, JSON.stringify(result(id, [hit(1, `c${id}`)]))]);
    insert.free();
    writeFileSync(db, made.export());
    made.close();
    const args = ['aggregate', db, '--golden', dupGolden, '--json'];
    const two = await cli(args, { EVALGATE_WORKERS: '2', EVALGATE_TRACE: '1' });
    const one = await cli(args, { EVALGATE_WORKERS: '0' });
    expect(two.stderr).toContain('the two halves joined');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const report = JSON.parse(one.stdout) as {
      duplicate_query_ids: string[];
      metrics: Record<string, { value: number | null; n: number }>;
    };
    expect(report.duplicate_query_ids).toEqual([...repeated].sort());
    expect(report.metrics['hit@1']).toEqual({ value: 1, n });
    const warned = (r: { stderr: string }) => r.stderr.split('\n').filter((line) => line.includes('more than one row'));
    expect(warned(one)).toEqual([
      `warning: ${db}: run \`dup\`: 3 query id(s) have more than one row in eval_query_results, and only the last one read is scored (e.g. "${ids[3]}", "${ids[n / 2 + 1]}", "${ids[n - 1]}"); the table should have PRIMARY KEY (run_id, query_id)`,
    ]);
    expect(warned(two)).toEqual(warned(one));
    expect((await cli(['aggregate', db, '--golden', dupGolden], { EVALGATE_WORKERS: '0' })).stdout).toContain(
      '\n3 queries have more than one result row: only the last one read is scored\n',
    );
    const compared = await cli(['compare', db, db, '--golden', dupGolden, '--json', join(dir, 'dup-compare.json')]);
    expect(warned(compared)).toHaveLength(2); // the baseline's and the candidate's
    expect(
      (JSON.parse(readFileSync(join(dir, 'dup-compare.json'), 'utf8')) as { golden: { duplicate_query_ids: unknown } })
        .golden.duplicate_query_ids,
    ).toEqual({ baseline: [...repeated].sort(), candidate: [...repeated].sort() });
    expect(compared.stdout).toContain(
      '- ⚠️ The candidate has more than one result for 3 queries (the last one read is scored).',
    );
    expect(compared.stdout).toContain(`Queries with more than one result in the candidate: ${ids[3]}`);
  });

  it("aggregate with a wrong golden file and a wrong run: the golden file's error, in one thread and in two", async () => {
    const badGolden = join(dir, 'bad-late-golden.jsonl');
    // A bad value near the end: in the worker's half when two threads cut the file.
    writeFileSync(
      badGolden,
      goldenLines +
        extraLines(5_940, (i) => ({
          query: `an extra question ${i} ${'words '.repeat((i % 30) + 10)}`,
          ...(i === 5_900 ? { answerable: 'maybe' } : {}),
        })),
    );
    expect(statSync(badGolden).size).toBeGreaterThan(1 << 20);
    const db = await writeRunDb(
      { runs: [{ runId: 'only', results: runResults(5, 'v1') }] },
      join(dir, 'one-run.sqlite'),
    );
    for (const runArgs of [['--run', 'nope'], []]) {
      const [one, two] = [
        await cli(['aggregate', db, '--golden', badGolden, ...runArgs], { EVALGATE_WORKERS: '0' }),
        await cli(['aggregate', db, '--golden', badGolden, ...runArgs], { EVALGATE_WORKERS: '2' }),
      ];
      for (const r of [one, two]) {
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/bad-late-golden\.jsonl:5961: query `x5900`: `answerable` must be true or false/);
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }
    }
  });

  it('aggregate in two threads: a bad row in either half exits 2 naming file, table, run and query, no stack', async () => {
    // A golden file over 1 MB in id order (so the threads split by golden halves): q00..q59, then x0000..; the bad
    // row is q00 (the main thread's half) in one run and x5939 (the worker's) in the other.
    const bigGolden = join(dir, 'big-golden-for-errors.jsonl');
    writeFileSync(
      bigGolden,
      goldenLines +
        extraLines(5_940, (i) => ({
          query: `an extra question ${i} ${'words '.repeat(i % 30)}`,
          expected_doc_ids: [`d${i}`],
          category: ['a', 'b', 'c'][i % 3],
        })),
    );
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const good = runResults(5, 'v1');
    for (const [at, id] of [
      ['main', 'q00'],
      ['worker', 'x5939'],
    ] as const) {
      const results = [...good.filter((r) => r.query_id !== id), new RawResult(id, '{"hits_top_k": [')];
      const db = await writeRunDb({ runs: [{ runId: `bad-${at}`, results }] }, join(dir, `bad-${at}.sqlite`));
      const r = await cli(['aggregate', db, '--golden', bigGolden], { EVALGATE_WORKERS: '2' });
      // Each thread scores its half's range as soon as it has read the half; the main thread's bad row ends it there.
      expect(r.stderr, at).toContain('golden half read (the first here)');
      expect(r.status, at).toBe(2);
      expect(r.stderr, at).toContain(
        `${db}: table \`eval_query_results\`, run \`bad-${at}\`, query \`${id}\`, column \`result_json\`: malformed JSON`,
      );
      expect(r.stderr, at).not.toMatch(/^\s+at /m);
    }
  });
});
