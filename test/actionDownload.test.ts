import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baselineClientOf } from '../src/action/artifactBaseline/findArtifact.js';
import { OWNER, REPO, actionDefaults, ensureBuilt, runActionBundle } from './helpers/actionRunner.js';
import { FakeGitHub, STORAGE_PREFIX, checkRequest, checkResponse, loadGitHubOpenApi } from './helpers/fakeGitHub.js';
import type { Fault, OpenApiSpec, RecordedRequest } from './helpers/fakeGitHub.js';
import { writeZip } from './helpers/zipWriter.js';
import { repoRoot } from './shared.js';

const TOKEN = 'ghs_0000000000000000000000000000000000001';
const PR = 1347;
const WORKFLOW = 'rag-eval.yml';
const ARTIFACT = 'evalverdict-baseline';
/** The download cap of docs/action.md (DEFAULT_ZIP_LIMITS.maxTotalBytes): not an input. */
const CAP = 1 << 30;
/** A JSON object as the stand-in serves it. */
type JsonObject = NonNullable<Fault['body']>;
const STACK_LINE = /^\s+at .*\(.*:\d+:\d+\)$/m;
const RSS_LIMIT_MB = 400;
const ARTIFACTS_PATH = new RegExp(`^/repos/${OWNER}/${REPO}/actions/runs/\\d+/artifacts$`);
const ZIP_PATH = new RegExp(`^/repos/${OWNER}/${REPO}/actions/artifacts/\\d+/zip$`);

/** One request the storage host got: what it sent and whether the client hung up before the end. */
interface StorageVisit {
  url: string;
  authorization: string | undefined;
  bytesSent: number;
  /** The connection closed before the handler ended the response. */
  cutByClient: boolean;
  closed: Promise<void>;
}

/** Whether `done` settles within `turns` turns of the event loop (each with its poll for I/O): a count, not a time. */
async function settlesWithin(done: Promise<unknown>, turns: number): Promise<boolean> {
  let settled = false;
  void done.then(() => {
    settled = true;
  });
  for (let i = 0; i < turns && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/** A storage host whose answer each test sets: `handle` writes to `res`, counting bytes with `send`. */
class StorageHost {
  readonly visits: StorageVisit[] = [];
  handle: (res: ServerResponse, send: (bytes: Buffer) => Promise<boolean>) => Promise<void> = async (res) => {
    res.writeHead(404).end();
  };
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<StorageHost> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = new StorageHost(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => void host.serve(req, res));
    return host;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let closed = () => {};
    const visit: StorageVisit = {
      url: req.url ?? '',
      authorization: req.headers.authorization,
      bytesSent: 0,
      cutByClient: false,
      closed: new Promise((resolve) => {
        closed = resolve;
      }),
    };
    this.visits.push(visit);
    // One request per connection: a test's client never reuses a socket an earlier test's answer left behind.
    res.setHeader('connection', 'close');
    res.on('close', () => {
      visit.cutByClient = !res.writableFinished;
      closed();
    });
    // Resolves false once the client is gone; waits for the socket to drain (so bytesSent is what left, not a queue).
    const send = (bytes: Buffer) =>
      new Promise<boolean>((resolve) => {
        if (res.destroyed) return resolve(false);
        visit.bytesSent += bytes.length;
        if (res.write(bytes)) return resolve(!res.destroyed);
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve(!res.destroyed);
        };
        res.on('drain', done).on('close', done);
      });
    await this.handle(res, send);
  }

  reset(): void {
    this.visits.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let github: FakeGitHub;
let storage: StorageHost;
let spec: OpenApiSpec;
let scratch: string;
let counter = 0;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** CPU time of the step's process (user + system, every thread), in seconds. */
  cpuSeconds: number;
  maxRssMb: number;
  outputs: Record<string, string>;
  requests: RecordedRequest[];
}

/** The hang guard: under the 120 s test timeout (vitest.config.ts), so that a hang fails with its own message. */
const HANG_SECONDS = 100;

function pullRequestPayload(): Record<string, unknown> {
  const pr = structuredClone((spec.components.examples['pull-request'] as { value: Record<string, any> }).value);
  return { action: 'synchronize', number: pr.number, pull_request: pr, repository: pr.base.repo, sender: pr.user };
}

/** The bundle as the runner starts it, with `baseline: artifact:NAME`; a hang (HANG_SECONDS) fails the test. */
async function runAction(inputs: Record<string, string> = {}): Promise<Run> {
  const before = github.requests.length;
  const run = await runActionBundle({
    dir: join(scratch, `run-${++counter}`),
    apiUrl: github.url,
    eventName: 'pull_request',
    payload: pullRequestPayload(),
    inputs: {
      ...actionDefaults(TOKEN),
      status: 'false',
      'baseline-max-age': '0',
      baseline: `artifact:${ARTIFACT}`,
      candidate: 'fixtures/candidate.sqlite',
      golden: 'fixtures/golden.yaml',
      ...inputs,
    },
    env: { GITHUB_WORKFLOW_REF: `${OWNER}/${REPO}/.github/workflows/${WORKFLOW}@refs/pull/${PR}/merge` },
    limitSeconds: HANG_SECONDS,
  });
  if (run.hung) throw new Error(`hung: the step was still running after ${HANG_SECONDS} s of wall time\n${run.stdout}`);
  return { ...run, requests: github.requests.slice(before) };
}

/** The `::error::` lines the step failed with, unescaped. */
function failure(run: Run): string {
  return run.stdout
    .split('\n')
    .filter((l) => l.startsWith('::error::'))
    .map((l) => l.slice('::error::'.length).replace(/%0A/g, '\n').replace(/%25/g, '%'))
    .join('\n');
}

/**
 * CPU time (seconds, not the wall time a busy machine stretches) and peak memory under their bounds, no stack trace.
 * A step here takes 0.3-0.4 s of CPU (Node 20, alone and beside two busy processes on two cores); the bound is 5 s.
 */
function expectBounded(run: Run, cpuSeconds = 5): void {
  if (process.env.EVALVERDICT_TEST_USAGE)
    console.log(`${expect.getState().currentTestName}: ${run.cpuSeconds.toFixed(2)} s of CPU`);
  expect(run.cpuSeconds, `CPU time ${run.cpuSeconds.toFixed(1)} s`).toBeLessThan(cpuSeconds);
  expect(run.maxRssMb, `peak memory ${run.maxRssMb.toFixed(0)} MB`).toBeLessThan(RSS_LIMIT_MB);
  expect(run.stdout + run.stderr).not.toMatch(STACK_LINE);
}

/** A baseline run of the base commit with its artifact; returns the artifact's id. */
function recordBaseline(): number {
  const pr = (spec.components.examples['pull-request'] as { value: Record<string, any> }).value;
  github.addWorkflow(WORKFLOW);
  const run = github.addWorkflowRun({
    workflow: WORKFLOW,
    headSha: pr.base.sha,
    branch: 'master',
    createdAt: '2026-11-01T00:00:00Z',
  });
  const zip = writeZip([
    { name: 'baseline.sqlite', data: readFileSync(join(repoRoot, 'fixtures', 'baseline.sqlite')) },
  ]);
  return github.addArtifact(run, ARTIFACT, zip);
}

/** GitHub's 302 for the artifact's zip points to this file's storage host instead of the stand-in's. */
function redirectToStorage(): void {
  github.inject({
    method: 'GET',
    path: ZIP_PATH,
    status: 302,
    rawBody: '',
    headers: { location: `${storage.url}/blob/artifact.zip?sig=signed` },
    times: 10,
  });
}

const storageRequests = (run: Run) => run.requests.filter((r) => r.path.startsWith(STORAGE_PREFIX));

beforeAll(async () => {
  spec = loadGitHubOpenApi();
  github = await FakeGitHub.start();
  storage = await StorageHost.start();
  scratch = mkdtempSync(join(tmpdir(), 'evalverdict-download-'));
}, 120_000);

afterAll(async () => {
  await github?.close();
  await storage?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  github.reset();
  storage.reset();
});

afterEach(() => {
  // Every API call a real one with an answer GitHub's description allows (but the injected 302, whose empty body
  // the stand-in records as ''); the storage host never gets the token.
  const api = github.requests.filter((r) => !r.path.startsWith(STORAGE_PREFIX));
  expect(api.flatMap((r) => checkRequest(spec, r))).toEqual([]);
  expect(api.filter((r) => !ZIP_PATH.test(r.path)).flatMap((r) => checkResponse(spec, r))).toEqual([]);
  for (const visit of storage.visits) expect(visit.authorization).toBeUndefined();
});

describe('the bundle: the artifact download is bounded by the size cap', () => {
  beforeAll(() => ensureBuilt());

  it('an artifact listed over the cap: refused by its listed size, nothing downloaded', async () => {
    const id = recordBaseline();
    const pr = (spec.components.examples['pull-request'] as { value: Record<string, any> }).value;
    const artifact = structuredClone((spec.components.examples.artifact as { value: JsonObject }).value);
    Object.assign(artifact, { id, name: ARTIFACT, size_in_bytes: CAP + 1, expired: false });
    Object.assign(artifact.workflow_run as JsonObject, { head_sha: pr.base.sha });
    github.inject({
      method: 'GET',
      path: ARTIFACTS_PATH,
      status: 200,
      body: { total_count: 1, artifacts: [artifact] },
      times: 10,
    });
    const run = await runAction();
    expect(run.code).toBe(1);
    expect(failure(run)).toBe(
      `EvalVerdict: baseline artifact:${ARTIFACT}: artifact ${id} is ${CAP + 1} bytes, over the ${CAP}-byte cap`,
    );
    // Refused from the listing: no download asked of GitHub, no byte from any storage host.
    expect(run.requests.filter((r) => ZIP_PATH.test(r.path))).toEqual([]);
    expect(storageRequests(run)).toEqual([]);
    expect(storage.visits).toEqual([]);
    expectBounded(run);
  });

  it('a storage host declaring a Content-Length over the cap: refused from the header, the connection dropped', async () => {
    const id = recordBaseline();
    redirectToStorage();
    const before = github.requests.length;
    let requestsAtClose: string[] = [];
    storage.handle = async (res, send) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(CAP + 1) });
      // A first few bytes, then nothing more: only the header can have refused it.
      await send(Buffer.alloc(1024));
      // What the step had asked of GitHub when it let go of the connection.
      await storage.visits[0].closed;
      requestsAtClose = github.requests.slice(before).map((r) => r.path);
    };
    const run = await runAction({ 'request-timeout': '30' });
    expect(run.code).toBe(1);
    expect(failure(run)).toBe(
      `EvalVerdict: baseline artifact:${ARTIFACT}: could not download artifact ${id} from its storage URL: ${CAP + 1} bytes, over the ${CAP}-byte cap`,
    );
    expect(storage.visits).toHaveLength(1);
    expect(storage.visits[0].url).toBe('/blob/artifact.zip?sig=signed');
    await storage.visits[0].closed;
    expect(storage.visits[0].cutByClient).toBe(true);
    // Dropped at once, before the step went on to its error comment: a body left unread to the garbage collector
    // kept the connection (and the step, 8 s here) alive past the comment, until a collection or the 30 s
    // request-timeout. An order of events, not a time.
    expect(requestsAtClose.length).toBeGreaterThan(0);
    expect(requestsAtClose.filter((path) => /\/comments$/.test(path))).toEqual([]);
    expect(run.requests.filter((r) => /\/comments$/.test(r.path)).length).toBeGreaterThan(0);
    expectBounded(run);
  });
});

describe('the bundle: the artifact download is bounded in time, `request-timeout` covering the body', () => {
  beforeAll(() => ensureBuilt());

  it('a storage host trickling one byte every 200 ms: cut at request-timeout 2 with its message', async () => {
    const id = recordBaseline();
    redirectToStorage();
    storage.handle = async (res, send) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      // For far longer than the timeout (a minute), unless the client hangs up first.
      for (let i = 0; i < 300; i++) {
        if (!(await send(Buffer.from('P')))) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      res.end();
    };
    const run = await runAction({ 'request-timeout': '2' });
    expect(run.code).toBe(1);
    expect(failure(run)).toBe(
      `EvalVerdict: baseline artifact:${ARTIFACT}: could not download artifact ${id} from its storage URL: not downloaded within 2 s (input \`request-timeout\`)`,
    );
    const [visit] = storage.visits;
    await visit.closed;
    expect(visit.cutByClient).toBe(true);
    // The headers and several bytes came before the cut: the timeout bounded the body, not only the answer.
    expect(visit.bytesSent).toBeGreaterThanOrEqual(3);
    expect(visit.bytesSent).toBeLessThan(300);
    expectBounded(run);
  });
});

describe('the client (src): a refused body is dropped, a streamed one cut at the cap (a small cap)', () => {
  it('chunked bytes past the cap: refused, and the storage host sees the connection closed before it sent all', async () => {
    const cap = 64 * 1024;
    const total = 64 * 1024 * 1024;
    storage.handle = async (res, send) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      const chunk = Buffer.alloc(16 * 1024, 1);
      for (let sent = 0; sent < total; sent += chunk.length) if (!(await send(chunk))) return;
      res.end();
    };
    const client = baselineClientOf({ request: async () => ({}) }, fetch, { timeoutMs: 30_000 });
    await expect(client.download(`${storage.url}/blob/artifact.zip`, cap)).rejects.toThrow(
      `more than the ${cap}-byte cap`,
    );
    const [visit] = storage.visits;
    await visit.closed;
    expect(visit.cutByClient).toBe(true);
    // Past the cap by what sockets buffer (a few MB at most), far short of the 64 MiB the host would send.
    expect(visit.bytesSent).toBeGreaterThan(cap);
    expect(visit.bytesSent).toBeLessThan(total / 4);
  });

  it('a Content-Length over the cap: refused from the header, and the connection dropped at once', async () => {
    const cap = 64 * 1024;
    storage.handle = async (res, send) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(cap + 1) });
      await send(Buffer.alloc(1024));
    };
    const client = baselineClientOf({ request: async () => ({}) }, fetch, { timeoutMs: 30_000 });
    await expect(client.download(`${storage.url}/blob/artifact.zip`, cap)).rejects.toThrow(
      `${cap + 1} bytes, over the ${cap}-byte cap`,
    );
    // An unread body left to the garbage collector keeps its socket (and the step's process) alive until then.
    // "At once" as a count of this process's event-loop turns (each polls for I/O), not a time: the close reaches
    // the host within a few turns here, client and host sharing the loop.
    const [visit] = storage.visits;
    expect(await settlesWithin(visit.closed, 1000)).toBe(true);
    expect(visit.cutByClient).toBe(true);
  });

  it('the same host within the cap: the whole body, chunk by chunk', async () => {
    const body = Buffer.from('PK'.repeat(3000));
    storage.handle = async (res, send) => {
      res.writeHead(200, { 'content-type': 'application/zip' });
      for (let at = 0; at < body.length; at += 1000) await send(body.subarray(at, at + 1000));
      res.end();
    };
    const client = baselineClientOf({ request: async () => ({}) }, fetch, { timeoutMs: 30_000 });
    expect((await client.download(`${storage.url}/blob/artifact.zip`, body.length)).equals(body)).toBe(true);
  });
});
