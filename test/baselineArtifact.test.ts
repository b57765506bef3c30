/**
 * `baseline: artifact:NAME` end to end: the bundled action (dist/index.js, `npm run build` first) as a child process
 * (test/helpers/actionRunner.ts, shared with the other action test files) against the GitHub stand-in
 * (test/helpers/fakeGitHub.ts) holding a commit history, workflow runs and artifact zips behind a 302 to a storage
 * path. Every API request and answer is checked against GitHub's OpenAPI description; the storage download must
 * carry no token. Each case also pins the exact sequence of API calls (the docs quote them).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadSqlJs } from '../src/load/sqlite.js';
import { FakeGitHub, STORAGE_PREFIX, checkRequest, checkResponse, loadGitHubOpenApi } from './helpers/fakeGitHub.js';
import type { OpenApiSpec, RecordedRequest } from './helpers/fakeGitHub.js';
import { writeZip } from './helpers/zipWriter.js';
import { actionDefaults, ensureBuilt, OWNER, REPO, runActionBundle } from './helpers/actionRunner.js';

const TOKEN = 'ghs_0000000000000000000000000000000000002';
const WORKFLOW = 'rag-eval.yml';
const ARTIFACT = 'evalverdict-baseline';
const R = `/repos/${OWNER}/${REPO}`;
const GATES = 'gates:\n  - metric: hit@10\n    min: 0.5\n';
/** The smaller Cranfield copy (test/helpers/smallFixtures.ts), linked in as the workspace's fixtures/. */
const FIXTURES = inject('smallFixtures');
const BASELINE_DB = readFileSync(join(FIXTURES, 'baseline.sqlite'));

let github: FakeGitHub;
let spec: OpenApiSpec;
let scratch: string;

const sha = (label: string) => createHash('sha1').update(label).digest('hex');
/** The base branch `master`: c0 .. c5, c4 merging a side branch (s1, off c1). BASE = c5. */
const C = [0, 1, 2, 3, 4, 5].map((i) => sha(`c${i}`));
const S1 = sha('s1');
const BASE = C[5];
const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T12:00:00Z`;

function addHistory(): void {
  github.addCommit(C[0], [], day(1));
  github.addCommit(C[1], [C[0]], day(2));
  github.addCommit(C[2], [C[1]], day(3));
  github.addCommit(S1, [C[1]], day(4)); // newer than c2 and c3 by date, but not first-parent
  github.addCommit(C[3], [C[2]], day(4));
  github.addCommit(C[4], [C[3], S1], day(5));
  github.addCommit(C[5], [C[4]], day(6));
}

/** A successful run of the baseline workflow on master for `commit`, with the artifact (unless `artifact: false`). */
function addRun(commit: string, createdAt: string, options: { expired?: boolean; zip?: Buffer } = {}): number {
  const run = github.addWorkflowRun({ workflow: WORKFLOW, headSha: commit, branch: 'master', createdAt });
  github.addArtifact(run, ARTIFACT, options.zip ?? writeZip([{ name: 'baseline.sqlite', data: BASELINE_DB }]), {
    expired: options.expired,
  });
  return run;
}

/** A pull request event whose base is BASE and whose head branched off `from`. */
function pullRequest(from: string): Record<string, unknown> {
  const head = sha(`head-of-${from}`);
  github.addCommit(head, [from], day(7));
  const pr = structuredClone((spec.components.examples['pull-request'] as { value: Record<string, any> }).value);
  pr.base.sha = BASE;
  pr.head.sha = head;
  return { action: 'synchronize', number: pr.number, pull_request: pr, repository: pr.base.repo, sender: pr.user };
}

interface ActionRun {
  code: number | null;
  /** stdout and stderr together, as the job log shows them. */
  stdout: string;
  outputs: Record<string, string>;
  requests: RecordedRequest[];
  /** The API calls, as `GET /path?query STATUS`, storage downloads left out. */
  calls: string[];
  ms: number;
  /** The JSON report the action wrote (report-path's .json sibling). */
  json: () => Record<string, unknown>;
}

let counter = 0;

async function runAction(
  payload: Record<string, unknown>,
  inputs: Record<string, string> = {},
  envOverrides: Record<string, string> = {},
): Promise<ActionRun> {
  const before = github.requests.length;
  const run = await runActionBundle({
    dir: join(scratch, `run-${++counter}`),
    apiUrl: github.url,
    eventName: 'pull_request',
    payload,
    inputs: {
      ...actionDefaults(TOKEN),
      // The commit status has tests of its own (actionReports.test.ts); here it would add two calls to each pinned list.
      status: 'false',
      // The fixtures' baseline is weeks old; staleness has its own test (actionReports.test.ts).
      'baseline-max-age': '0',
      baseline: `artifact:${ARTIFACT}`,
      candidate: 'fixtures/candidate.sqlite',
      golden: 'fixtures/golden.yaml',
      gates: GATES,
      ...inputs,
    },
    env: {
      GITHUB_SHA: sha('merge'),
      GITHUB_WORKFLOW_REF: `${OWNER}/${REPO}/.github/workflows/${WORKFLOW}@refs/pull/1347/merge`,
      ...envOverrides,
    },
    fixtures: FIXTURES,
  });
  const requests = github.requests.slice(before);
  const calls = requests
    .filter((r) => !r.path.startsWith(STORAGE_PREFIX))
    .map(
      (r) =>
        `${r.method} ${r.path.replace(R, '')}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ''} ${r.status}`,
    );
  const json = () => JSON.parse(readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8'));
  return { code: run.code, stdout: run.stdout + run.stderr, outputs: run.outputs, requests, calls, ms: run.ms, json };
}

const runsOf = (commit: string, page = 1) =>
  `GET /actions/workflows/${WORKFLOW}/runs?status=completed&per_page=100&page=${page}&head_sha=${commit} 200`;
const compare = (head: string) => `GET /compare/${BASE}...${head}?per_page=1 200`;
const artifactsOf = (run: number) => `GET /actions/runs/${run}/artifacts?name=${ARTIFACT}&per_page=100&page=1 200`;

function commentBody(run: ActionRun): string {
  const post = run.requests.find((r) => (r.method === 'POST' || r.method === 'PATCH') && r.path.includes('/issues/'));
  return (post?.body as { body?: string } | undefined)?.body ?? '';
}

function warnings(run: ActionRun): string[] {
  return run.stdout
    .split('\n')
    .filter((l) => l.startsWith('::warning'))
    .map((l) => l.replace(/%0A/g, '\n').replace(/%25/g, '%'));
}

beforeAll(async () => {
  ensureBuilt();
  spec = loadGitHubOpenApi();
  github = await FakeGitHub.start();
  scratch = mkdtempSync(join(tmpdir(), 'evalverdict-artifact-'));
}, 120_000);

afterAll(async () => {
  await github?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  github.reset();
  github.addWorkflow(WORKFLOW);
  addHistory();
});

afterEach(() => {
  const api = github.requests.filter((r) => !r.path.startsWith(STORAGE_PREFIX));
  expect(api.flatMap((r) => [...checkRequest(spec, r), ...checkResponse(spec, r)])).toEqual([]);
  for (const r of api) expect(r.headers.authorization).toBe(`token ${TOKEN}`);
  // The signed storage URL is another host on GitHub: the token must never go there.
  for (const r of github.requests.filter((q) => q.path.startsWith(STORAGE_PREFIX)))
    expect(r.headers.authorization).toBeUndefined();
});

describe('baseline: artifact:NAME finds the run for the base', () => {
  it("exact hit: the base commit's own run, in 3 API calls and one credential-free download", async () => {
    const run = addRun(BASE, day(6));
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.filter((c) => !/ \/(issues|user)\b/.test(c))).toEqual([
      runsOf(BASE),
      artifactsOf(run),
      `GET /actions/artifacts/${run + 1}/zip 302`,
    ]);
    expect(action.calls.slice(3).every((c) => / \/(issues|user)\b/.test(c))).toBe(true);
    expect(action.requests.filter((r) => r.path.startsWith(STORAGE_PREFIX)).map((r) => r.status)).toEqual([200]);
    expect(JSON.parse(action.outputs.summary)).toMatchObject({ baseline_run: 'baseline-whole-doc', verdict: 'pass' });
    expect(JSON.parse(action.outputs.baseline)).toEqual({
      source: `artifact:${ARTIFACT}`,
      artifact_id: run + 1,
      run_id: run,
      run_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${run}`,
      head_sha: BASE,
      created_at: day(6),
      commits_behind: 0,
      base_commit_run: true,
      found_by: 'base-sha',
      entry: 'baseline.sqlite',
    });
    expect(warnings(action)).toEqual([]);
    expect(action.stdout).toContain('3 GitHub API calls');
    // the comment says where the baseline came from, linked to its run
    expect(commentBody(action)).toContain(
      `, from [\`artifact:${ARTIFACT}\`](https://github.com/${OWNER}/${REPO}/actions/runs/${run})`,
    );
    expect(commentBody(action)).not.toContain("not the base commit's own run");
    // the JSON report says the same (the age from the action's clock, which the provenance line also uses)
    expect(action.json().baseline_source).toEqual({
      source: `artifact:${ARTIFACT}`,
      run_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${run}`,
      commits_behind: 0,
      base_commit_run: true,
      age_days: expect.any(Number),
      stale: null,
    });
  });

  it('an expired artifact is skipped: the older run of the same commit serves', async () => {
    const older = addRun(BASE, day(6));
    const newer = addRun(BASE, day(7), { expired: true });
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 4)).toEqual([
      runsOf(BASE),
      artifactsOf(newer),
      artifactsOf(older),
      `GET /actions/artifacts/${older + 1}/zip 302`,
    ]);
    expect(action.stdout).toContain(`run ${newer} (${BASE.slice(0, 7)}): artifact ${newer + 1} has expired, skipped`);
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({ run_id: older, base_commit_run: true });
  });

  it('a main run that failed a gate still holds the baseline; a cancelled one is skipped', async () => {
    // After merging an accepted regression, main's own run fails its gate: its artifact is main's newest numbers.
    const older = addRun(BASE, day(5));
    const failed = github.addWorkflowRun({
      workflow: WORKFLOW,
      headSha: BASE,
      branch: 'master',
      createdAt: day(6),
      conclusion: 'failure',
    });
    github.addArtifact(failed, ARTIFACT, writeZip([{ name: 'baseline.sqlite', data: BASELINE_DB }]));
    const cancelled = github.addWorkflowRun({
      workflow: WORKFLOW,
      headSha: BASE,
      branch: 'master',
      createdAt: day(7),
      conclusion: 'cancelled',
    });
    github.addArtifact(cancelled, ARTIFACT, writeZip([{ name: 'baseline.sqlite', data: BASELINE_DB }]));
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 3)).toEqual([
      runsOf(BASE),
      artifactsOf(failed),
      `GET /actions/artifacts/${failed + 1}/zip 302`,
    ]);
    expect(action.stdout).toContain(`run ${cancelled} (${BASE.slice(0, 7)}) ended cancelled, skipped`);
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({ run_id: failed, base_commit_run: true });
    expect(older).toBeLessThan(failed);
  });

  it("pagination of a run's artifacts: the live one is on page 2, after 100 expired ones", async () => {
    const run = github.addWorkflowRun({ workflow: WORKFLOW, headSha: BASE, branch: 'master', createdAt: day(6) });
    const live = github.addArtifact(run, ARTIFACT, writeZip([{ name: 'baseline.sqlite', data: BASELINE_DB }]));
    for (let i = 0; i < 100; i++) github.addArtifact(run, ARTIFACT, Buffer.alloc(0), { expired: true });
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 4)).toEqual([
      runsOf(BASE),
      artifactsOf(run),
      `GET /actions/runs/${run}/artifacts?name=${ARTIFACT}&per_page=100&page=2 200`,
      `GET /actions/artifacts/${live}/zip 302`,
    ]);
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({ artifact_id: live, base_commit_run: true });
  });

  it("a fork's pull request run for the base SHA is never the baseline: its artifact is skipped unread", async () => {
    const ours = addRun(BASE, day(6));
    const fork = github.addWorkflowRun({
      workflow: WORKFLOW,
      headSha: BASE,
      branch: 'master',
      createdAt: day(7),
      headRepository: `forker/${REPO}`,
    });
    github.addArtifact(fork, ARTIFACT, writeZip([{ name: 'baseline.sqlite', data: 'poisoned' }]));
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 3)).toEqual([
      runsOf(BASE),
      artifactsOf(ours),
      `GET /actions/artifacts/${ours + 1}/zip 302`,
    ]);
    expect(action.stdout).toContain(`run ${fork} (${BASE.slice(0, 7)}) ran code from forker/${REPO}, skipped`);
  });

  it('merge-base hit: the run of the commit the pull request branched from, with the stale warning', async () => {
    const run = addRun(C[3], day(4));
    const payload = pullRequest(C[3]);
    const head = sha(`head-of-${C[3]}`);
    const action = await runAction(payload);
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 5)).toEqual([
      runsOf(BASE),
      compare(head),
      runsOf(C[3]),
      artifactsOf(run),
      `GET /actions/artifacts/${run + 1}/zip 302`,
    ]);
    // c4 and c5 are on the base and not in the head, and so is s1 (merged by c4)
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({
      head_sha: C[3],
      commits_behind: 3,
      base_commit_run: false,
      found_by: 'merge-base',
    });
    expect(warnings(action).join('\n')).toMatch(/stale baseline::.*not the base commit's own run: run \d+ of/);
    expect(commentBody(action)).toContain(
      "- ⚠️ The baseline is not the base commit's own run but one 3 commits behind it: changes made in between count as this pull request's.",
    );
  });

  it("fallback: the nearest earlier first-parent commit with a run, one page of commits and of the branch's runs", async () => {
    addRun(C[1], day(2));
    const nearest = addRun(C[2], day(3));
    github.addWorkflowRun({ workflow: WORKFLOW, headSha: S1, branch: 'master', createdAt: day(4) }); // not first-parent
    const action = await runAction(pullRequest(BASE)); // head branched off BASE: the merge base is BASE itself
    expect(action.code).toBe(0);
    const head = sha(`head-of-${BASE}`);
    expect(action.calls.slice(0, 6)).toEqual([
      runsOf(BASE),
      compare(head),
      `GET /commits?sha=${BASE}&per_page=50&page=1 200`,
      `GET /actions/workflows/${WORKFLOW}/runs?status=completed&per_page=100&page=1&branch=master 200`,
      artifactsOf(nearest),
      `GET /actions/artifacts/${nearest + 1}/zip 302`,
    ]);
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({
      head_sha: C[2],
      commits_behind: 3, // c5 -> c4 -> c3 -> c2
      found_by: 'history',
      base_commit_run: false,
    });
    expect(warnings(action).join('\n')).toContain('3 commits behind');
  });

  it('pagination: the matching run is on the second page of the branch runs', async () => {
    // master moved on after the pull request's base: 120 newer commits, each with a run, fill page 1
    let parent = BASE;
    for (let i = 0; i < 120; i++) {
      const next = sha(`after-${i}`);
      github.addCommit(
        next,
        [parent],
        `2026-11-08T${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`,
      );
      github.addWorkflowRun({
        workflow: WORKFLOW,
        headSha: next,
        branch: 'master',
        createdAt: `2026-11-08T${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:30Z`,
      });
      parent = next;
    }
    const run = addRun(C[4], day(5));
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(action.calls.slice(2, 5)).toEqual([
      `GET /commits?sha=${BASE}&per_page=50&page=1 200`,
      `GET /actions/workflows/${WORKFLOW}/runs?status=completed&per_page=100&page=1&branch=master 200`,
      `GET /actions/workflows/${WORKFLOW}/runs?status=completed&per_page=100&page=2&branch=master 200`,
    ]);
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({ run_id: run, commits_behind: 1 });
  });
});

describe('no baseline found', () => {
  it('the look-up cap: a run 3 commits back is not searched with baseline-max-commits: 3; warn reports the candidate alone', async () => {
    addRun(C[2], day(3));
    const action = await runAction(pullRequest(BASE), { 'baseline-max-commits': '3' });
    expect(action.code).toBe(0);
    expect(action.calls.slice(0, 4)).toEqual([
      runsOf(BASE),
      compare(sha(`head-of-${BASE}`)),
      `GET /commits?sha=${BASE}&per_page=3&page=1 200`,
      `GET /actions/workflows/${WORKFLOW}/runs?status=completed&per_page=100&page=1&branch=master 200`,
    ]);
    expect(action.outputs.verdict).toBe('pass');
    expect(JSON.parse(action.outputs.summary)).toMatchObject({ baseline_run: null });
    expect(commentBody(action)).toContain('**without a baseline**');
    expect(warnings(action).join('\n')).toMatch(
      /no baseline::.*no successful run of workflow rag-eval.yml with an unexpired artifact "evalverdict-baseline" for [0-9a-f]{7} \(the base\), its merge base or the 3 commits before it on master .*reporting the candidate alone \(if-no-baseline: warn\)/,
    );
    expect(JSON.parse(action.outputs.baseline)).toMatchObject({ found: false });
  });

  it('if-no-baseline: fail: the step fails and the comment is the error panel', async () => {
    const action = await runAction(pullRequest(BASE), { 'if-no-baseline': 'fail' });
    expect(action.code).toBe(1);
    expect(action.outputs.verdict).toBe('error');
    expect(commentBody(action)).toContain('no successful run of workflow rag-eval.yml');
    expect(action.stdout).toContain('(if-no-baseline: fail)');
  });

  it('if-no-baseline: skip: a notice, no comment, exit 0', async () => {
    const action = await runAction(pullRequest(BASE), { 'if-no-baseline': 'skip' });
    expect(action.code).toBe(0);
    expect(action.requests.filter((r) => r.path.includes('/issues/'))).toEqual([]);
    expect(action.stdout).toMatch(/::notice::.*if-no-baseline: skip, so no report and no comment/);
  });
});

describe('refusals', () => {
  it('a malicious archive: refused with the entry named, the error panel, exit 1', async () => {
    const zip = writeZip([
      { name: 'baseline.sqlite', data: BASELINE_DB },
      { name: '../../escape.sqlite', data: 'x' },
    ]);
    const run = addRun(BASE, day(6), { zip });
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(1);
    const message = `baseline artifact:${ARTIFACT} (artifact ${run + 1} of run ${run}): entry "../../escape.sqlite" climbs out of the archive with \`..\``;
    expect(action.stdout).toContain(message);
    expect(commentBody(action)).toContain('climbs out of the archive');
    expect(action.outputs.verdict).toBe('error');
  });

  it('an artifact whose one database is no SQLite file: the error panel names the file, exit 1', async () => {
    addRun(BASE, day(6), { zip: writeZip([{ name: 'baseline.sqlite', data: 'a CSV export, not a database\n' }]) });
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(1);
    expect(action.outputs.verdict).toBe('error');
    expect(commentBody(action)).toMatch(/baseline\.sqlite: .*not a (SQLite|run) database/i);
  });

  it('two databases in the artifact: named, with the input that chooses; baseline-path picks one', async () => {
    const zip = writeZip([
      { name: 'main.sqlite', data: BASELINE_DB },
      { name: 'old/main.db', data: 'x' },
    ]);
    addRun(BASE, day(6), { zip });
    const refused = await runAction(pullRequest(BASE));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      '2 run databases ("main.sqlite", "old/main.db"); name the one to use with input `baseline-path`',
    );
    const chosen = await runAction(pullRequest(BASE), { 'baseline-path': 'main.sqlite' });
    expect(chosen.code).toBe(0);
    expect(JSON.parse(chosen.outputs.baseline)).toMatchObject({ entry: 'main.sqlite' });
  });

  it('a workflow that does not exist: named, with the input to set, the error panel, exit 1', async () => {
    addRun(BASE, day(6));
    const action = await runAction(pullRequest(BASE), { 'baseline-workflow': 'rag-evals.yml' });
    expect(action.code).toBe(1);
    const message =
      'baseline artifact:evalverdict-baseline: workflow "rag-evals.yml" not found in octocat/Hello-World (HTTP 404); set input `baseline-workflow` to the file name of the workflow that uploads the artifact';
    expect(action.stdout).toContain(message);
    expect(commentBody(action)).toContain('not found in octocat/Hello-World (HTTP 404)');
    expect(action.outputs.verdict).toBe('error');
    // GitHub answers an unknown workflow with 404, which its OpenAPI description of this operation does not list:
    // that one answer is checked here instead of by afterEach.
    const unknown = github.requests.findIndex((r) => r.path.endsWith('/actions/workflows/rag-evals.yml/runs'));
    expect(github.requests[unknown].status).toBe(404);
    github.requests.splice(unknown, 1);
  });

  it('a token without actions: read: the permission line to add', async () => {
    github.inject({
      method: 'GET',
      path: /\/actions\/workflows\//,
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-workflow',
        status: '403',
      },
    });
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(1);
    expect(action.stdout).toContain(
      'the token may not list the runs of workflow rag-eval.yml (HTTP 403: Resource not accessible by integration',
    );
    expect(action.stdout).toContain("add `actions: read` to the job's `permissions:`");
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The fork-safe setup: a trusted workflow_run workflow scores the artifact of the pull request's untrusted run.

const CANDIDATE_DB = readFileSync(join(FIXTURES, 'candidate.sqlite'));
const CANDIDATE_ARTIFACT = 'evalverdict-candidate';
const FORK = 'forker/Hello-World';
const HEAD = sha('fork-head');
const PR = 1347;

/** The fork's pull request #1347 (head forker:feature at HEAD, off c5), its run of rag-eval.yml with the artifact. */
function forkPullRequest(options: { artifact?: boolean; files?: Array<{ name: string; data: Buffer | string }> } = {}) {
  github.addCommit(HEAD, [BASE], day(7));
  github.addPullRequest({
    number: PR,
    headSha: HEAD,
    headRef: 'feature',
    headRepository: FORK,
    baseSha: BASE,
    baseRef: 'master',
  });
  const run = github.addWorkflowRun({
    workflow: WORKFLOW,
    headSha: HEAD,
    branch: 'feature',
    createdAt: day(7),
    headRepository: FORK,
  });
  if (options.artifact !== false)
    github.addArtifact(
      run,
      CANDIDATE_ARTIFACT,
      writeZip(options.files ?? [{ name: 'candidate.sqlite', data: CANDIDATE_DB }]),
    );
  return run;
}

/** A workflow_run event as GitHub sends it for run `runId` (GitHub's example with the fields that matter set). */
function workflowRunEvent(
  runId: number,
  options: { headSha?: string; headRepository?: string; pullRequests?: unknown[]; conclusion?: string } = {},
): Record<string, unknown> {
  const run = structuredClone((spec.components.examples['workflow-run'] as { value: Record<string, any> }).value);
  Object.assign(run, {
    id: runId,
    head_sha: options.headSha ?? HEAD,
    head_branch: 'feature',
    path: `.github/workflows/${WORKFLOW}`,
    event: 'pull_request',
    status: 'completed',
    conclusion: options.conclusion ?? 'success',
    pull_requests: options.pullRequests ?? [],
  });
  run.head_repository = { ...run.head_repository, full_name: options.headRepository ?? FORK };
  return { action: 'completed', workflow_run: run, repository: run.repository, sender: run.actor };
}

const WORKFLOW_RUN_ENV = {
  GITHUB_EVENT_NAME: 'workflow_run',
  GITHUB_SHA: C[5],
  GITHUB_WORKFLOW_REF: `${OWNER}/${REPO}/.github/workflows/evalverdict.yml@refs/heads/master`,
};

const FORK_INPUTS = { candidate: `artifact:${CANDIDATE_ARTIFACT}`, status: 'true' };

describe('workflow_run: the fork-safe setup', () => {
  it("a fork's pull request: found by head repository, branch and SHA; its artifact scored; comment and status there", async () => {
    const baselineRun = addRun(BASE, day(6));
    // Another open pull request from the same fork: the candidate's artifact names it, and nothing follows that.
    github.addPullRequest({
      number: 7,
      headSha: sha('other'),
      headRef: 'other',
      headRepository: FORK,
      baseSha: BASE,
      baseRef: 'master',
    });
    const run = forkPullRequest({
      files: [
        { name: 'candidate.sqlite', data: CANDIDATE_DB },
        { name: 'pr_number', data: '7\n' },
      ],
    });
    const action = await runAction(workflowRunEvent(run), FORK_INPUTS, WORKFLOW_RUN_ENV);
    expect(action.code).toBe(0);
    expect(action.calls.filter((c) => !/ \/(issues|user|statuses)\b/.test(c))).toEqual([
      'GET /pulls?state=open&head=forker%3Afeature&per_page=100 200',
      `GET /actions/runs/${run}/artifacts?name=${CANDIDATE_ARTIFACT}&per_page=100&page=1 200`,
      `GET /actions/artifacts/${run + 1}/zip 302`,
      runsOf(BASE),
      artifactsOf(baselineRun),
      `GET /actions/artifacts/${baselineRun + 1}/zip 302`,
    ]);
    // The comment on #1347 only; the status on the head commit: pending, then the verdict.
    const posted = action.requests.filter((r) => r.method === 'POST' && r.path.includes('/issues/'));
    expect(posted.map((r) => r.path)).toEqual([`${R}/issues/${PR}/comments`]);
    expect(github.listComments(OWNER, REPO, 7)).toEqual([]);
    expect(github.statuses(OWNER, REPO, HEAD).map((st) => [st.context, st.state])).toEqual([
      ['evalverdict/default', 'pending'],
      ['evalverdict/default', 'success'],
    ]);
    expect(github.statuses(OWNER, REPO, C[5])).toEqual([]);
    expect(JSON.parse(action.outputs.summary)).toMatchObject({
      baseline_run: 'baseline-whole-doc',
      verdict: 'pass',
    });
    expect(action.stdout).toContain(`is pull request #${PR} (from a fork)`);
  });

  it('a same-repository pull request: taken from the event, no look-up call', async () => {
    addRun(BASE, day(6));
    const run = forkPullRequest();
    const event = workflowRunEvent(run, {
      headRepository: `${OWNER}/${REPO}`,
      pullRequests: [
        {
          id: 1,
          number: 88,
          url: `${github.url}${R}/pulls/88`,
          head: { ref: 'feature', sha: HEAD, repo: { id: 1, name: REPO, url: `${github.url}${R}` } },
          base: { ref: 'master', sha: BASE, repo: { id: 1, name: REPO, url: `${github.url}${R}` } },
        },
      ],
    });
    const action = await runAction(event, FORK_INPUTS, WORKFLOW_RUN_ENV);
    expect(action.code).toBe(0);
    expect(action.calls.some((c) => c.startsWith('GET /pulls'))).toBe(false);
    expect(
      action.requests.filter((r) => r.method === 'POST' && r.path.includes('/issues/')).map((r) => r.path),
    ).toEqual([`${R}/issues/88/comments`]);
    expect(action.stdout).toContain('is pull request #88 (0 GitHub API calls)');
  });

  it('a head SHA that no open pull request has: a clear error, no comment, no status', async () => {
    addRun(BASE, day(6));
    const run = forkPullRequest();
    const action = await runAction(
      workflowRunEvent(run, { headSha: sha('pushed-since') }),
      FORK_INPUTS,
      WORKFLOW_RUN_ENV,
    );
    expect(action.code).toBe(1);
    expect(action.stdout).toContain(
      `no open pull request of ${OWNER}/${REPO} has the head ${FORK}:feature at ${sha('pushed-since').slice(0, 7)}`,
    );
    expect(action.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("pr-number naming another pull request than the run's head: refused, nothing posted", async () => {
    github.addPullRequest({
      number: 7,
      headSha: sha('other'),
      headRef: 'other',
      headRepository: FORK,
      baseSha: BASE,
      baseRef: 'master',
    });
    const run = forkPullRequest();
    const action = await runAction(workflowRunEvent(run), { ...FORK_INPUTS, 'pr-number': '7' }, WORKFLOW_RUN_ENV);
    expect(action.code).toBe(1);
    expect(action.stdout).toContain(
      `input \`pr-number\`: pull request #7's head is ${sha('other').slice(0, 7)}, not ${HEAD.slice(0, 7)}`,
    );
    expect(action.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a triggering run without the candidate artifact: the error panel on its pull request, an error status', async () => {
    addRun(BASE, day(6));
    const run = forkPullRequest({ artifact: false });
    const action = await runAction(workflowRunEvent(run, { conclusion: 'failure' }), FORK_INPUTS, WORKFLOW_RUN_ENV);
    expect(action.code).toBe(1);
    const message = `candidate artifact:${CANDIDATE_ARTIFACT}: run ${run}, which triggered this workflow, has no unexpired artifact "${CANDIDATE_ARTIFACT}" (the run ended: failure)`;
    expect(action.stdout).toContain(message);
    expect(commentBody(action)).toContain('has no unexpired artifact');
    expect(action.outputs.verdict).toBe('error');
    expect(github.statuses(OWNER, REPO, HEAD).map((st) => st.state)).toEqual(['pending', 'error']);
  });

  it("candidate: artifact:NAME outside workflow_run: read from the head commit's run; none: the error panel", async () => {
    addRun(BASE, day(6));
    const action = await runAction(pullRequest(BASE), { candidate: `artifact:${CANDIDATE_ARTIFACT}` });
    expect(action.code).toBe(1);
    expect(commentBody(action)).toContain('no completed run of the pull request');
  });
});

/** A copy of a fixture run database whose eval_runs rows record no commit (commit_hash NULL), as bytes. */
async function withoutCommit(fixture: string): Promise<Buffer> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(join(FIXTURES, fixture)));
  try {
    db.run('UPDATE eval_runs SET commit_hash = NULL');
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}

describe("a run database that records no commit takes the workflow context's", () => {
  it("the baseline names its artifact run's head SHA, the candidate the pull request's head, each saying so", async () => {
    const run = addRun(BASE, day(6), {
      zip: writeZip([{ name: 'baseline.sqlite', data: await withoutCommit('baseline.sqlite') }]),
    });
    const candidate = join(scratch, `candidate-no-commit-${++counter}.sqlite`);
    writeFileSync(candidate, await withoutCommit('candidate.sqlite'));
    const payload = pullRequest(BASE);
    const head = sha(`head-of-${BASE}`);
    const action = await runAction(payload, { candidate });
    expect(action.code).toBe(0);
    const commitLink = (commit: string) =>
      `[\`${commit.slice(0, 7)}\`](https://github.com/${OWNER}/${REPO}/commit/${commit})`;
    const body = commentBody(action);
    expect(body).toContain(`at ${commitLink(head)} (from the workflow run; `);
    expect(body).toContain(
      `at ${commitLink(BASE)} (from the artifact's workflow run), 1 day older, from [\`artifact:${ARTIFACT}\`](https://github.com/${OWNER}/${REPO}/actions/runs/${run})`,
    );
    expect(body).not.toContain('no commit');
    // The filled commit is the head: no "made at another commit" warning.
    expect(body).not.toContain('The candidate run was made at');
    expect(action.json()).toMatchObject({
      baseline: { commit_hash: BASE, commit_source: 'workflow_run' },
      candidate: { commit_hash: head, commit_source: 'workflow_run' },
    });
  });

  it("on workflow_run: a candidate artifact without a commit names the triggering run's head", async () => {
    addRun(BASE, day(6));
    const run = forkPullRequest({
      files: [{ name: 'candidate.sqlite', data: await withoutCommit('candidate.sqlite') }],
    });
    const action = await runAction(workflowRunEvent(run), FORK_INPUTS, WORKFLOW_RUN_ENV);
    expect(action.code).toBe(0);
    expect(commentBody(action)).toContain(
      `at [\`${HEAD.slice(0, 7)}\`](https://github.com/${OWNER}/${REPO}/commit/${HEAD}) (from the workflow run; `,
    );
    expect(action.json()).toMatchObject({
      // The baseline's database records its commit: that one wins.
      baseline: { commit_hash: '1'.repeat(40), commit_source: 'database' },
      candidate: { commit_hash: HEAD, commit_source: 'workflow_run' },
    });
  });

  it('a commit the database records wins over the context (the fixtures record theirs)', async () => {
    addRun(BASE, day(6));
    const action = await runAction(pullRequest(BASE));
    expect(action.code).toBe(0);
    expect(commentBody(action)).not.toContain('from the workflow run');
    expect(action.json()).toMatchObject({
      baseline: { commit_hash: '1'.repeat(40), commit_source: 'database' },
      candidate: { commit_hash: '2'.repeat(40), commit_source: 'database' },
    });
    // and the candidate, made at another commit than the pull request's head, is still named
    expect(commentBody(action)).toContain('The candidate run was made at');
  });
});
