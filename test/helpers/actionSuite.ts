/**
 * What the end-to-end action test files (test/action*.test.ts) share: one stand-in GitHub API per file, started
 * once (useActionSuite), the runner's environment for a pull_request or push event, the report the library gives
 * for the same inputs (the assertions on comment, summary and report files are exact), and the parsers of the
 * bundle's outputs and annotations. After every test, each recorded request and response is checked against
 * GitHub's published OpenAPI description.
 *
 * The files are split so vitest runs them in parallel workers; `github`, `spec` and `scratch` are live bindings
 * set by useActionSuite's beforeAll in the worker running that file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { stickyBody } from '../../src/publish/stickyComment.js';
import { encodeState } from '../../src/acceptance/state.js';
import { stableJson } from '../../src/stableJson.js';
import { runCompare } from '../../src/pipeline/runCompare.js';
import type { CompareOutputs } from '../../src/pipeline/runCompare.js';
import { FakeGitHub, STORAGE_PREFIX, checkRequest, checkResponse, loadGitHubOpenApi } from './fakeGitHub.js';
import type { OpenApiSpec, RecordedRequest } from './fakeGitHub.js';
import { actionDefaults as actionDefaultsFor, ensureBuilt, OWNER, REPO, runActionBundle } from './actionRunner.js';
import type { BundleRun } from './actionRunner.js';

export { ensureBuilt, OWNER, REPO } from './actionRunner.js';

export const TOKEN = 'ghs_0000000000000000000000000000000000001';
export const PR = 1347; // GitHub's published example pull request (octocat/Hello-World#1347)
export const COMMENTS_PATH = `/repos/${OWNER}/${REPO}/issues/${PR}/comments`;
export const MARKER = '<!-- evalverdict:comment-id=default -->';
export const HINT = 'the job summary of this workflow run and in `evalverdict-report.md`';
export const PASSING_GATES = 'gates:\n  - metric: hit@10\n    min: 0.5\n';
export const FAILING_GATES = 'gates:\n  - metric: hit@5\n    min: 0.99\n';
/** The head commit of the default pull_request payload (GitHub's published example). */
export const HEAD_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

/**
 * Our comment's body as a run writes it when the comment held no state before: the report, then the state line
 * recording that the comment shows `sha`'s report (or error panel).
 */
export function ownBody(
  markdown: string,
  kind: 'report' | 'error' = 'report',
  sha = HEAD_SHA,
  commentId = 'default',
): string {
  const state = encodeState({ current: null, history: [], shown: [{ sha, kind, since: null }] });
  return stickyBody(`<!-- evalverdict:comment-id=${commentId} -->`, markdown, state);
}

export let github: FakeGitHub;
export let spec: OpenApiSpec;
export let scratch: string;
/**
 * The Cranfield fixtures the runs read as `fixtures/` (every 8th query, test/helpers/smallFixtures.ts): the tests
 * here are about the action, and a bundle run scores these in about half the CPU time of the full ones.
 */
export let fixtures: string;
const expected: Record<string, CompareOutputs> = {};

/** Registers the file's hooks: one stand-in API and scratch directory, reset and checked around every test. */
export function useActionSuite(): void {
  beforeAll(async () => {
    ensureBuilt();
    spec = loadGitHubOpenApi();
    github = await FakeGitHub.start();
    scratch = mkdtempSync(join(tmpdir(), 'evalverdict-action-'));
    fixtures = inject('smallFixtures');
  }, 120_000);

  afterAll(async () => {
    await github?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  beforeEach(() => github.reset());

  afterEach(() => {
    // Every request the action made must be a real GitHub API call with a valid body, and every answer the
    // stand-in gave must be one GitHub's description allows.
    // An artifact's bytes come from the storage host GitHub redirects to: no API call, and never given the token.
    const storage = github.requests.filter((r) => r.path.startsWith(STORAGE_PREFIX));
    for (const r of storage) expect(r.headers.authorization).toBeUndefined();
    const api = github.requests.filter((r) => !r.path.startsWith(STORAGE_PREFIX));
    const problems = api.flatMap((r) => [...checkRequest(spec, r), ...checkResponse(spec, r)]);
    expect(problems).toEqual([]);
    for (const r of api) {
      expect(r.headers.authorization).toBe(`token ${TOKEN}`);
      expect(r.headers['user-agent']).toMatch(/^evalverdict-action /);
    }
  });
}

/** action.yml's input defaults, as the runner passes them (INPUT_NAME, hyphens kept; expressions filled). */
export function actionDefaults(): Record<string, string> {
  return actionDefaultsFor(TOKEN);
}

export function pullRequestPayload(options: { fork?: boolean } = {}): Record<string, unknown> {
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

export function pushPayload(): Record<string, unknown> {
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

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  /** Wall time, for logs only: no test asserts it (it grows on a busy machine). */
  ms: number;
  /** CPU time of the step's process (user + system, every thread), in seconds: the bound on its work. */
  cpuSeconds: number;
  requests: RecordedRequest[];
}

export interface RunOptions {
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

/** Runs dist/index.js as the runner would and returns what it left behind, with the API requests it made. */
export async function runAction(options: RunOptions = {}): Promise<ActionRun> {
  const event = options.event ?? 'pull_request';
  const before = github.requests.length;
  const run: BundleRun = await runActionBundle({
    dir: join(scratch, `run-${++runCounter}`),
    apiUrl: github.url,
    eventName: event,
    payload: options.payload ?? (event === 'push' ? pushPayload() : pullRequestPayload()),
    inputs: {
      ...actionDefaults(),
      // Commit statuses have tests of their own ('commit status'); elsewhere they would add two requests to every run.
      status: 'false',
      // The fixtures' baseline is weeks old: the staleness warning has a test of its own ('baseline-max-age').
      'baseline-max-age': '0',
      baseline: 'fixtures/baseline.sqlite',
      candidate: 'fixtures/candidate.sqlite',
      golden: 'fixtures/golden.yaml',
      ...options.inputs,
    },
    env: options.env,
    files: options.files,
    fixtures,
  });
  return { ...run, requests: github.requests.slice(before) };
}

export interface Annotation {
  level: string;
  properties: Record<string, string>;
  message: string;
}

/** Workflow commands (`::error title=...::message`) printed on stdout, unescaped as the runner does. */
export function annotations(stdout: string): Annotation[] {
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

export const writes = (requests: RecordedRequest[]) => requests.filter((r) => r.method !== 'GET');
export const summarise = (requests: RecordedRequest[]) =>
  requests.map(
    (r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ''} ${r.status}`,
  );

export async function expectedFor(gates: string | null, extra: { candidate?: string } = {}): Promise<CompareOutputs> {
  const key = `${gates}|${extra.candidate ?? ''}`;
  expected[key] ??= await runCompare({
    baselinePath: join(fixtures, 'baseline.sqlite'),
    candidatePath: extra.candidate ?? join(fixtures, 'candidate.sqlite'),
    goldenPath: join(fixtures, 'golden.yaml'),
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

export function expectedOutputs(
  run: ActionRun,
  out: CompareOutputs,
  extra: { passed: boolean; commentUrl: string },
): Record<string, string> {
  return {
    verdict: out.report.verdict,
    passed: String(extra.passed),
    'failed-gates': JSON.stringify(JSON.parse(stableJson(out.report.gates.filter((g) => g.effect !== 'none')))),
    'report-path': join(run.workspace, 'evalverdict-report.md'),
    'json-path': join(run.workspace, 'evalverdict-report.json'),
    'comment-url': extra.commentUrl,
    summary: run.outputs.summary, // checked field by field below
  };
}

/** The `summary` output carries the verdict, runs, key metrics (rounded as in the JSON report) and tallies. */
export function checkSummaryOutput(summary: string, out: CompareOutputs): void {
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
    warned: out.report.gates.filter((g) => g.effect === 'warn' && g.result !== 'inconclusive').length,
    inconclusive: out.report.gates.filter((g) => g.result === 'inconclusive').length,
  });
}

export function commentUrl(id: number): string {
  return `https://github.com/${OWNER}/${REPO}/pull/${PR}#issuecomment-${id}`;
}

/**
 * The action's JSON report with the fields of its clock (`baseline_source.age_days`, `stale`) as the library gives
 * them without one, after checking they were set: the rest must be the library's, byte for byte.
 */
export function clockless(json: string): string {
  const report = JSON.parse(json);
  if (report.baseline_source) {
    expect(report.baseline_source.age_days).toBeGreaterThan(0);
    report.baseline_source.age_days = null;
    report.baseline_source.stale = null;
  }
  return stableJson(report);
}
