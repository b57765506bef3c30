/**
 * Main's history in the action (issue 33): the bundled action (dist/index.js, `npm run build` first) as a child
 * process against the GitHub stand-in, with `baseline: artifact:NAME` whose archive carries the history file beside
 * the run database. A push to the default branch appends and writes the history; a pull request's comment shows
 * the trend and the change-point mark; a hostile history is one warning and a comment without the trend.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { emptyHistory } from '../src/compare/historyTrend.js';
import type { History, HistoryRun } from '../src/load/historyFile.js';
import { readHistoryFile } from '../src/load/historyFile.js';
import { historyText } from '../src/write/historyWriter.js';
import { actionDefaults, ensureBuilt, OWNER, REPO, runActionBundle } from './helpers/actionRunner.js';
import { annotations } from './helpers/actionSuite.js';
import { checkRequest, checkResponse, FakeGitHub, loadGitHubOpenApi, STORAGE_PREFIX } from './helpers/fakeGitHub.js';
import type { OpenApiSpec } from './helpers/fakeGitHub.js';
import { writeZip } from './helpers/zipWriter.js';
import type { ZipWriterEntry } from './helpers/zipWriter.js';

const TOKEN = 'ghs_0000000000000000000000000000000000033';
const PR = 1347;
let github: FakeGitHub;
let spec: OpenApiSpec;
let scratch: string;
let counter = 0;

beforeAll(async () => {
  ensureBuilt();
  spec = loadGitHubOpenApi();
  github = await FakeGitHub.start();
  scratch = mkdtempSync(join(tmpdir(), 'evalverdict-history-action-'));
}, 120_000);

afterAll(async () => {
  await github?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => github.reset());

afterEach(() => {
  // Every API request and answer as GitHub describes them; the storage download carries no token.
  const api = github.requests.filter((r) => !r.path.startsWith(STORAGE_PREFIX));
  expect(api.flatMap((r) => [...checkRequest(spec, r), ...checkResponse(spec, r)])).toEqual([]);
  for (const r of github.requests.filter((r) => r.path.startsWith(STORAGE_PREFIX)))
    expect(r.headers.authorization).toBeUndefined();
});

const WORKFLOW = 'rag-eval.yml';
const ARTIFACT = 'evalverdict-baseline';
const HISTORY = 'evalverdict-history.json';
const GATES = 'gates:\n  - metric: hit@10\n    min: 0.5\n';
/** The smaller Cranfield copy (test/helpers/smallFixtures.ts), linked in as the workspace's fixtures/. */
const FIXTURES = inject('smallFixtures');
const BASELINE_DB = readFileSync(join(FIXTURES, 'baseline.sqlite'));
const PREVIOUS_MAIN = 'c'.repeat(40);

const example = () => (spec.components.examples['pull-request'] as { value: Record<string, any> }).value;

/** The baseline workflow's run of `sha`, its artifact holding the run database and `extra` entries. */
function recordBaseline(sha: string, extra: ZipWriterEntry[]): void {
  github.addWorkflow(WORKFLOW);
  const run = github.addWorkflowRun({
    workflow: WORKFLOW,
    headSha: sha,
    branch: 'master',
    createdAt: '2026-11-01T00:00:00Z',
  });
  github.addArtifact(run, ARTIFACT, writeZip([{ name: 'baseline.sqlite', data: BASELINE_DB }, ...extra]));
}

/** `n` main runs of one golden set, hit@10 at `value(i)`; query q004 flips hit/miss every run. */
function plantedHistory(n: number, value: (i: number) => number): History {
  const runs: HistoryRun[] = Array.from({ length: n }, (_, i) => ({
    run_id: `main-${i}`,
    commit: `${String(i % 10).repeat(7)}${'a'.repeat(33)}`,
    time: `2026-11-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    golden: 'golden-1',
    metrics: { 'hit@10': value(i) },
    outcomes: `${i % 2 === 0 ? 'h' : 'm'}h`,
  }));
  return { ...emptyHistory(), queries: ['q004', 'q012'], runs };
}

function pullRequestPayload(): Record<string, unknown> {
  const pr = structuredClone(example());
  return { action: 'synchronize', number: pr.number, pull_request: pr, repository: pr.base.repo, sender: pr.user };
}

/** A push of the default branch whose previous tip is PREVIOUS_MAIN. */
function pushPayload(): Record<string, unknown> {
  const pr = example();
  const ref = `refs/heads/${pr.base.repo.default_branch}`;
  return { ref, before: PREVIOUS_MAIN, after: pr.head.sha, repository: pr.base.repo, sender: pr.user };
}

async function run(options: { event?: string; payload?: Record<string, unknown> }) {
  const before = github.requests.length;
  const event = options.event ?? 'pull_request';
  const result = await runActionBundle({
    dir: join(scratch, `run-${++counter}`),
    apiUrl: github.url,
    eventName: event,
    payload: options.payload ?? (event === 'push' ? pushPayload() : pullRequestPayload()),
    inputs: {
      ...actionDefaults(TOKEN),
      status: 'false',
      'baseline-max-age': '0',
      baseline: `artifact:${ARTIFACT}`,
      candidate: 'fixtures/candidate.sqlite',
      golden: 'fixtures/golden.yaml',
      gates: GATES,
      'history-file': HISTORY,
    },
    env: { GITHUB_WORKFLOW_REF: `${OWNER}/${REPO}/.github/workflows/${WORKFLOW}@refs/heads/master` },
    fixtures: FIXTURES,
  });
  return { ...result, requests: github.requests.slice(before) };
}

const comment = () => github.listComments(OWNER, REPO, PR).at(-1)?.body ?? '';
const apiCalls = (requests: Array<{ path: string }>) => requests.filter((r) => !r.path.startsWith('/_storage/')).length;

describe("main's history in the action", () => {
  it("a push to the default branch appends this run to the artifact's history, at no extra API call", async () => {
    recordBaseline(PREVIOUS_MAIN, [
      { name: HISTORY, data: historyText(plantedHistory(20, () => 0.9)), method: 'deflate' },
    ]);
    const pushed = await run({ event: 'push' });
    expect(pushed.code).toBe(0);
    const history = readHistoryFile(join(pushed.workspace, HISTORY));
    expect(history.runs).toHaveLength(20); // the oldest dropped: max_runs 20
    expect(history.runs[0].run_id).toBe('main-1');
    const newest = history.runs.at(-1)!;
    expect(newest.commit).toMatch(/^[0-9a-f]{40}$/); // the candidate run's commit
    expect(Object.keys(newest.metrics)).toEqual(['hit@10']);
    // The query list is the fixture golden set's now; older runs' outcomes carried over by query id.
    const goldenIds = [...readFileSync(join(FIXTURES, 'golden.yaml'), 'utf8').matchAll(/^- id: (\S+)$/gm)].map(
      (m) => m[1],
    );
    // Every golden query that states an expectation is in the history (counted from the golden file itself), and
    // the history's list is the report's per-query list, in its order.
    const blocks = readFileSync(join(FIXTURES, 'golden.yaml'), 'utf8').split(/^(?=- id: )/m);
    const withExpectations = blocks.filter((b) => /^\s+expected_/m.test(b)).map((b) => /^- id: (\S+)$/m.exec(b)![1]);
    expect(withExpectations.length).toBeGreaterThan(2);
    expect(history.queries).toEqual(expect.arrayContaining(withExpectations));
    expect(goldenIds).toEqual(expect.arrayContaining(history.queries));
    const report = JSON.parse(readFileSync(join(pushed.workspace, 'evalverdict-report.json'), 'utf8')) as {
      per_query: Array<{ query_id: string }>;
    };
    expect(history.queries).toEqual(report.per_query.map((q) => q.query_id));
    expect(newest.outcomes).toMatch(new RegExp(`^[hm]{${history.queries.length}}$`));
    const q004 = history.queries.indexOf('q004');
    expect(history.runs.map((r) => r.outcomes[q004]).slice(0, 3)).toEqual(['m', 'h', 'm']);
    expect(history.runs[0].outcomes.replace(/-/g, '')).toHaveLength(2);
    expect(pushed.stdout).toContain('history-file: 20 earlier main runs read');
    // The history came with the baseline: the exact hit's 3 API calls (runs, artifacts, download), no more.
    expect(apiCalls(pushed.requests)).toBe(3);
  });

  it('the first push with history-file starts the history', async () => {
    recordBaseline(PREVIOUS_MAIN, []);
    const first = await run({ event: 'push' });
    expect(first.stdout).toContain(`history-file: the baseline artifact holds no ${HISTORY}`);
    expect(readHistoryFile(join(first.workspace, HISTORY)).runs).toHaveLength(1);
  });

  it("a pull request's comment shows main's last runs and the change point of a planted shift", async () => {
    const shifted = plantedHistory(15, (i) => (i < 12 ? 0.9 + (i % 3) * 0.005 : 0.7));
    recordBaseline(example().base.sha, [{ name: `eval/${HISTORY}`, data: historyText(shifted) }]);
    const pr = await run({ payload: pullRequestPayload() });
    expect(pr.code).toBe(0);
    const body = comment();
    expect(body).toContain(
      "<details><summary>Main's history: the last 15 runs on the default branch · ⚠️ main shifted down: `hit@10` at run 13 of 15 · 1 query flaky by history</summary>",
    );
    // The shift starts at the 13th of 15 runs (the prewhitened permutation test of docs/history.md).
    expect(body).toContain(
      '| `hit@10` | `████████████▁▁▁` | 0.9000 | 0.7000 | ⚠️ main shifted down at run 13 of 15 (`2222222`; p = 0.0070) |',
    );
    expect(body).toContain(
      '_Flaky by history: 1 query went between hit and miss on main, each in at least a quarter of the runs, and is set aside: q004._',
    );
    expect(pr.requests.some((r) => r.method === 'POST' && r.path.endsWith(`/issues/${PR}/comments`))).toBe(true);
    // A pull request reads the history and writes none (a push to the default branch does).
    expect(() => readFileSync(join(pr.workspace, HISTORY))).toThrow(/ENOENT/);
  });

  const hostile: Array<[string, ZipWriterEntry]> = [
    ['huge (an entry of 40 MiB)', { name: HISTORY, data: Buffer.alloc(40 << 20, 0x20), method: 'deflate' }],
    ['deep (100,000 levels)', { name: HISTORY, data: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
    ['of another schema', { name: HISTORY, data: JSON.stringify({ schema_version: 7, runs: [] }) }],
  ];
  it.each(hostile)('a history file %s: one clear warning, the comment without the trend', async (_what, entry) => {
    recordBaseline(example().base.sha, [entry]);
    const pr = await run({ payload: pullRequestPayload() });
    expect(pr.code).toBe(0);
    const warnings = annotations(pr.stdout).filter((a) => a.properties.title === 'EvalVerdict: unreadable history');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatch(
      /^history-file: (baseline artifact:evalverdict-baseline \(artifact \d+ of run \d+\): entry "evalverdict-history\.json" is 40 MiB, more than the 32 MiB a history may be|the baseline artifact's evalverdict-history\.json: (the history nests deeper than 4 levels, which no history file does|not an EvalVerdict history: schema_version number 7 is not 1, the version this EvalVerdict reads)); the report has no trend$/,
    );
    expect(comment()).toContain('EvalVerdict');
    expect(comment()).not.toContain("Main's history");
    // Refused without reading it whole: the step's CPU time (not its wall time, which a busy machine stretches);
    // 0.6-0.7 s here.
    if (process.env.EVALVERDICT_TEST_USAGE) console.log(`history ${_what}: ${pr.cpuSeconds.toFixed(2)} s of CPU`);
    expect(pr.cpuSeconds, `${pr.cpuSeconds.toFixed(1)} s of CPU`).toBeLessThan(5);
  });
});
