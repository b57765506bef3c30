/**
 * `baseline: artifact:NAME`: find the artifact NAME of a successful run of the baseline workflow for the pull
 * request's base, download it and extract its run database (zipArchive.ts). Look-up order, each step only when the
 * one before found nothing: a run whose head SHA is the base SHA; a run of the merge base of base and head; the
 * nearest earlier commit on the base branch's first-parent history with a run, up to `maxCommits`. Every GitHub call
 * goes through a small injected client, and is counted (an exact hit takes 3: runs, artifacts, the download).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../../errors.js';
import { httpStatusOf } from '../../publish/githubClient.js';
import { oneLine } from '../../inputText.js';
import { DEFAULT_ZIP_LIMITS, extractRunDatabase } from './zipArchive.js';
import type { ZipLimits } from './zipArchive.js';
import { historyFromArchive } from '../mainHistory.js';
import type { ArtifactHistory } from '../mainHistory.js';

export interface ApiResponse<T> {
  status?: number;
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** What the look-up needs from GitHub: REST calls (octokit.request's signature) and a credential-free download. */
export interface BaselineClient {
  request<T>(route: string, params: Record<string, unknown>): Promise<ApiResponse<T>>;
  /** GET `url` (a storage host, not the API) without GitHub's token; at most `maxBytes` bytes, else it throws. */
  download(url: string, maxBytes: number): Promise<Buffer>;
}

export interface ArtifactLookup {
  owner: string;
  repo: string;
  /** The artifact's name (NAME in `artifact:NAME`). */
  artifact: string;
  /** The baseline workflow: its file name (e.g. `rag-eval.yml`) or numeric id. */
  workflow: string;
  /** The commit the baseline should be the run of (a pull request's base SHA, a push's `before`). */
  baseSha: string;
  /** The commit under test, for the merge base; null skips that step. */
  headSha: string | null;
  /** The branch whose runs and first-parent history are searched (`pull_request.base.ref`). */
  baseBranch: string | null;
  maxCommits: number;
  /** An entry of the archive to use instead of its one *.sqlite / *.db file (input `baseline-path`). */
  path: string | null;
  /** Where the database is written (RUNNER_TEMP). */
  tempDir: string;
  limits?: ZipLimits;
  /** How messages name the artifact; default `baseline artifact:NAME`. */
  label?: string;
  /** The input that names the archive entry (`path`); default `baseline-path`. */
  pathInput?: string;
  /** The file name of main's history (input `history-file`), taken from the same archive when it holds one. */
  historyEntry?: string | null;
}

const labelOf = (lookup: ArtifactLookup) => lookup.label ?? `baseline artifact:${lookup.artifact}`;

export interface BaselineProvenance {
  source: string;
  artifact_id: number;
  run_id: number;
  run_url: string;
  head_sha: string;
  created_at: string;
  /** How many commits the run's commit is behind the base SHA (0: the base commit's own run). */
  commits_behind: number;
  /** True when the run is the base commit's own (the exact hit). */
  base_commit_run: boolean;
  /** How the run was found. */
  found_by: 'base-sha' | 'merge-base' | 'history';
  /** Entry of the archive the database came from. */
  entry: string;
}

export type BaselineLookupResult =
  | {
      found: true;
      path: string;
      provenance: BaselineProvenance;
      apiCalls: number;
      notes: string[];
      /** With `historyEntry`: the archive's history entry (null: it has none). */
      history?: ArtifactHistory | null;
    }
  | { found: false; reason: string; apiCalls: number; notes: string[] };

interface WorkflowRun {
  id: number;
  head_sha: string;
  html_url: string;
  created_at: string;
  conclusion?: string | null;
  head_repository?: { full_name?: string } | null;
}

/**
 * Conclusions whose run may hold a baseline: a main run that failed a gate (after merging an accepted regression,
 * say) still recorded main's numbers, and its artifact is the newest baseline. A cancelled, timed-out or skipped
 * run is no measurement of main.
 */
const BASELINE_CONCLUSIONS = new Set(['success', 'failure']);

interface Artifact {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
  created_at: string | null;
}

interface Commit {
  sha: string;
  parents: Array<{ sha: string }>;
  commit: { committer: { date?: string } | null };
}

const PER_PAGE = 100;
/** Pages of the base branch's runs read at most when walking the history (1,000 runs). */
const MAX_RUN_PAGES = 10;
/** Pages of one run's artifacts read at most (1,000 artifacts). */
const MAX_ARTIFACT_PAGES = 10;
/** Pages of the base branch's commits read at most (10,000 commits). */
const MAX_COMMIT_PAGES = 100;

const SHA_TEXT = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;

/** A field of GitHub's answer that is not what the API documents: a clear error naming it, not a crash later. */
function badField(what: string, field: string, value: unknown, expected: string): InputError {
  const shown = value === undefined ? 'missing' : oneLine(JSON.stringify(value) ?? String(value)).slice(0, 80);
  return new InputError(`GitHub's answer to ${what}: \`${field}\` is ${shown}, not ${expected}`);
}

function checkRun(run: WorkflowRun, at: string, what: string): WorkflowRun {
  if (!run || typeof run !== 'object') throw badField(what, at, run, 'a workflow run');
  if (typeof run.id !== 'number') throw badField(what, `${at}.id`, run.id, 'a number');
  if (typeof run.head_sha !== 'string' || !SHA_TEXT.test(run.head_sha))
    throw badField(what, `${at}.head_sha`, run.head_sha, 'a commit SHA');
  if (typeof run.html_url !== 'string') throw badField(what, `${at}.html_url`, run.html_url, 'a URL');
  if (typeof run.created_at !== 'string') throw badField(what, `${at}.created_at`, run.created_at, 'a time');
  return run;
}

function checkArtifact(a: Artifact, at: string, what: string): Artifact {
  if (!a || typeof a !== 'object') throw badField(what, at, a, 'an artifact');
  if (typeof a.id !== 'number') throw badField(what, `${at}.id`, a.id, 'a number');
  if (typeof a.name !== 'string') throw badField(what, `${at}.name`, a.name, 'a name');
  if (typeof a.size_in_bytes !== 'number') throw badField(what, `${at}.size_in_bytes`, a.size_in_bytes, 'a number');
  return a;
}

function checkCommit(c: Commit, at: string, what: string): Commit {
  if (!c || typeof c !== 'object') throw badField(what, at, c, 'a commit');
  if (typeof c.sha !== 'string' || !SHA_TEXT.test(c.sha)) throw badField(what, `${at}.sha`, c.sha, 'a commit SHA');
  if (!Array.isArray(c.parents) || c.parents.some((p) => typeof p?.sha !== 'string'))
    throw badField(what, `${at}.parents`, c.parents, 'a list of commits');
  return c;
}

/** A list GitHub's answer must hold (`key` of an object, or the answer itself when key is null). */
function listIn(data: unknown, key: string | null, what: string): unknown[] {
  const list = key === null ? data : (data as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) throw badField(what, key ?? '(the answer)', list, 'a list');
  return list;
}

/** The file name of the workflow running now, from GITHUB_WORKFLOW_REF (`owner/repo/.github/workflows/F.yml@ref`). */
export function currentWorkflowFile(workflowRef: string | undefined): string | null {
  const m = /\/\.github\/workflows\/([^/@]+)@/.exec(workflowRef ?? '');
  return m ? m[1] : null;
}

/** A GitHub error as one message that says what to change. */
function apiFailure(error: unknown, what: string, lookup: ArtifactLookup): InputError {
  const status = httpStatusOf(error);
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  if (status === 403 && !/rate limit/i.test(detail))
    return new InputError(
      `${labelOf(lookup)}: the token may not ${what} (HTTP 403: ${detail}); add \`actions: read\` to the job's \`permissions:\``,
    );
  if (status === 404 && what.startsWith('list the runs'))
    return new InputError(
      `${labelOf(lookup)}: workflow ${JSON.stringify(lookup.workflow)} not found in ${lookup.owner}/${lookup.repo} (HTTP 404); set input \`baseline-workflow\` to the file name of the workflow that uploads the artifact, e.g. rag-eval.yml`,
    );
  return new InputError(`${labelOf(lookup)}: could not ${what}${status ? ` (HTTP ${status})` : ''}: ${detail}`);
}

class Finder {
  calls = 0;
  readonly notes: string[] = [];
  private readonly tried = new Set<number>();
  constructor(
    private readonly client: BaselineClient,
    private readonly lookup: ArtifactLookup,
  ) {}

  private async get<T>(what: string, route: string, params: Record<string, unknown>): Promise<ApiResponse<T>> {
    this.calls++;
    try {
      return await this.client.request<T>(route, { owner: this.lookup.owner, repo: this.lookup.repo, ...params });
    } catch (error) {
      throw apiFailure(error, what, this.lookup);
    }
  }

  private async runsPage(params: Record<string, unknown>, page: number): Promise<WorkflowRun[]> {
    const what = `GET the runs of workflow ${this.lookup.workflow}`;
    const { data } = await this.get<{ workflow_runs: WorkflowRun[] }>(
      `list the runs of workflow ${this.lookup.workflow}`,
      'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
      { workflow_id: this.lookup.workflow, status: 'completed', per_page: PER_PAGE, page, ...params },
    );
    const runs = listIn(data, 'workflow_runs', what).map((r, i) =>
      checkRun(r as WorkflowRun, `workflow_runs[${i}]`, what),
    );
    // A run of a fork's pull request ran the fork's code: its artifact is never a baseline.
    const ours = `${this.lookup.owner}/${this.lookup.repo}`.toLowerCase();
    return runs.filter((run) => {
      const from = run.head_repository?.full_name;
      if (typeof run.conclusion === 'string' && !BASELINE_CONCLUSIONS.has(run.conclusion)) {
        this.notes.push(`run ${run.id} (${run.head_sha.slice(0, 7)}) ended ${oneLine(run.conclusion)}, skipped`);
        return false;
      }
      if (typeof from !== 'string' || from.toLowerCase() === ours) return true;
      this.notes.push(`run ${run.id} (${run.head_sha.slice(0, 7)}) ran code from ${oneLine(from)}, skipped`);
      return false;
    });
  }

  /** The completed runs of the workflow for one commit that may hold a baseline, newest first (one page). */
  runsOf(sha: string): Promise<WorkflowRun[]> {
    return this.runsPage({ head_sha: sha }, 1);
  }

  /** The newest unexpired artifact NAME of a run, every page read. */
  async artifactOf(run: WorkflowRun): Promise<Artifact | null> {
    this.tried.add(run.id);
    const what = `GET the artifacts of run ${run.id}`;
    for (let page = 1; page <= MAX_ARTIFACT_PAGES; page++) {
      const { data } = await this.get<{ total_count: number; artifacts: Artifact[] }>(
        `list the artifacts of run ${run.id}`,
        'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
        { run_id: run.id, name: this.lookup.artifact, per_page: PER_PAGE, page },
      );
      const artifacts = listIn(data, 'artifacts', what).map((a, i) =>
        checkArtifact(a as Artifact, `artifacts[${i}]`, what),
      );
      for (const a of artifacts) {
        if (a.name !== this.lookup.artifact) continue;
        if (a.expired) {
          this.notes.push(`run ${run.id} (${run.head_sha.slice(0, 7)}): artifact ${a.id} has expired, skipped`);
          continue;
        }
        return a;
      }
      if (artifacts.length < PER_PAGE || page * PER_PAGE >= data.total_count) return null;
    }
    this.notes.push(`run ${run.id}: more than ${MAX_ARTIFACT_PAGES} pages of artifacts, not read further`);
    return null;
  }

  /** The first of `runs` (newest first) with a live artifact. */
  async firstWithArtifact(runs: WorkflowRun[]): Promise<{ run: WorkflowRun; artifact: Artifact } | null> {
    for (const run of runs) {
      if (this.tried.has(run.id)) continue;
      const artifact = await this.artifactOf(run);
      if (artifact) return { run, artifact };
    }
    return null;
  }

  async mergeBase(): Promise<{ sha: string; behindBy: number } | null> {
    const { baseSha, headSha } = this.lookup;
    if (!headSha || headSha === baseSha) return null;
    let data: { merge_base_commit?: { sha?: string }; behind_by?: number };
    try {
      ({ data } = await this.get<typeof data>(
        `compare ${baseSha.slice(0, 7)}...${headSha.slice(0, 7)}`,
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        { basehead: `${baseSha}...${headSha}`, per_page: 1 },
      ));
    } catch (error) {
      // A head GitHub cannot compare (e.g. a deleted fork's): go on with the base branch's history.
      if (/\(HTTP 404\)/.test((error as Error).message)) {
        this.notes.push(
          `no merge base: GitHub cannot compare ${baseSha.slice(0, 7)}...${headSha.slice(0, 7)} (HTTP 404)`,
        );
        return null;
      }
      throw error;
    }
    const sha = data.merge_base_commit?.sha;
    return typeof sha === 'string' && sha !== baseSha ? { sha, behindBy: data.behind_by ?? 0 } : null;
  }

  /** The base's first-parent history, base first, up to maxCommits commits (pages of the commits list). */
  async firstParentHistory(): Promise<Commit[]> {
    const { baseSha, maxCommits } = this.lookup;
    const bySha = new Map<string, Commit>();
    const chain: Commit[] = [];
    let next: string | undefined = baseSha;
    let page = 1;
    let more = true;
    while (next !== undefined && chain.length < maxCommits) {
      let commit = bySha.get(next);
      if (!commit) {
        if (!more || page > MAX_COMMIT_PAGES) break;
        const perPage = Math.min(PER_PAGE, Math.max(maxCommits, 2));
        const { data } = await this.get<Commit[]>(
          `list the commits of ${baseSha.slice(0, 7)}`,
          'GET /repos/{owner}/{repo}/commits',
          { sha: baseSha, per_page: perPage, page },
        );
        const what = `GET the commits of ${baseSha.slice(0, 7)}`;
        const commits = listIn(data, null, what).map((c, i) => checkCommit(c as Commit, `[${i}]`, what));
        for (const c of commits) bySha.set(c.sha, c);
        more = commits.length === perPage;
        page++;
        commit = bySha.get(next);
        if (!commit) continue;
      }
      chain.push(commit);
      next = commit.parents[0]?.sha;
    }
    return chain;
  }

  /** The nearest commit of `chain` with a live artifact, from the base branch's runs (paginated, read once). */
  async nearestInHistory(chain: Commit[]): Promise<{ run: WorkflowRun; artifact: Artifact; index: number } | null> {
    const index = new Map(chain.map((c, i) => [c.sha, i]));
    const candidates: Array<{ run: WorkflowRun; index: number }> = [];
    const branch = this.lookup.baseBranch;
    for (let page = 1; page <= MAX_RUN_PAGES; page++) {
      const runs = await this.runsPage(branch ? { branch } : {}, page);
      for (const run of runs) {
        const i = index.get(run.head_sha);
        if (i !== undefined && !this.tried.has(run.id)) candidates.push({ run, index: i });
      }
      if (runs.length < PER_PAGE) break;
      // A run is created after its commit: once a page reaches back before the best candidate's commit (or the
      // oldest commit of the chain), later pages hold no run of a nearer commit.
      const best = candidates.reduce((b, c) => Math.min(b, c.index), chain.length - 1);
      const since = Date.parse(chain[best]?.commit.committer?.date ?? '');
      const oldest = Date.parse(runs[runs.length - 1].created_at);
      if (best === 0 || (Number.isFinite(since) && oldest < since)) break;
    }
    // Nearest commit first; for one commit, its newest run first (the order GitHub listed them in).
    candidates.sort((a, b) => a.index - b.index);
    for (const { run, index: i } of candidates) {
      if (this.tried.has(run.id)) continue;
      const artifact = await this.artifactOf(run);
      if (artifact) return { run, artifact, index: i };
    }
    return null;
  }

  async download(artifact: Artifact, maxBytes: number): Promise<Buffer> {
    if (artifact.size_in_bytes > maxBytes)
      throw new InputError(
        `${labelOf(this.lookup)}: artifact ${artifact.id} is ${artifact.size_in_bytes} bytes, over the ${maxBytes}-byte cap`,
      );
    const response = await this.get<ArrayBuffer | string>(
      `download artifact ${artifact.id}`,
      'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
      { artifact_id: artifact.id, archive_format: 'zip', request: { redirect: 'manual' } },
    );
    // GitHub answers 302 to a storage URL: fetched without the token, which must not leave GitHub's API.
    const location = response.headers.location;
    if (typeof location === 'string' && location !== '') {
      try {
        return await this.client.download(location, maxBytes);
      } catch (error) {
        throw new InputError(
          `${labelOf(this.lookup)}: could not download artifact ${artifact.id} from its storage URL: ${oneLine(error instanceof Error ? error.message : String(error))}`,
        );
      }
    }
    if (response.data instanceof ArrayBuffer) return Buffer.from(response.data);
    throw new InputError(
      `${labelOf(this.lookup)}: GitHub answered the download of artifact ${artifact.id} with neither a redirect nor a zip`,
    );
  }
}

/** Finds, downloads and extracts the baseline; `found: false` with the reason when no run has the artifact. */
export async function findBaselineArtifact(
  client: BaselineClient,
  lookup: ArtifactLookup,
): Promise<BaselineLookupResult> {
  const finder = new Finder(client, lookup);
  const short = (sha: string) => sha.slice(0, 7);
  let hit: { run: WorkflowRun; artifact: Artifact; behind: number; foundBy: BaselineProvenance['found_by'] } | null =
    null;

  const exact = await finder.firstWithArtifact(await finder.runsOf(lookup.baseSha));
  if (exact) hit = { ...exact, behind: 0, foundBy: 'base-sha' };
  if (!hit) {
    const mergeBase = await finder.mergeBase();
    if (mergeBase) {
      const found = await finder.firstWithArtifact(await finder.runsOf(mergeBase.sha));
      if (found) hit = { ...found, behind: mergeBase.behindBy, foundBy: 'merge-base' };
    }
  }
  if (!hit && lookup.maxCommits > 1) {
    const chain = await finder.firstParentHistory();
    const found = chain.length > 1 ? await finder.nearestInHistory(chain) : null;
    if (found) hit = { run: found.run, artifact: found.artifact, behind: found.index, foundBy: 'history' };
  }
  if (!hit) {
    return {
      found: false,
      reason: `no successful run of workflow ${lookup.workflow} with an unexpired artifact ${JSON.stringify(lookup.artifact)} for ${short(lookup.baseSha)} (the base), its merge base or the ${lookup.maxCommits} commits before it on ${lookup.baseBranch ?? 'the base branch'} (input \`baseline-max-commits\`)`,
      apiCalls: finder.calls,
      notes: finder.notes,
    };
  }

  const saved = await saveRunDatabase(finder, lookup, hit.run, hit.artifact);
  return {
    found: true,
    path: saved.path,
    ...(lookup.historyEntry ? { history: saved.history } : {}),
    apiCalls: finder.calls,
    notes: finder.notes,
    provenance: {
      source: `artifact:${lookup.artifact}`,
      artifact_id: hit.artifact.id,
      run_id: hit.run.id,
      run_url: hit.run.html_url,
      head_sha: hit.run.head_sha,
      created_at: hit.run.created_at,
      commits_behind: hit.behind,
      base_commit_run: hit.foundBy === 'base-sha',
      found_by: hit.foundBy,
      entry: saved.entry,
    },
  };
}

/** Downloads `artifact`, extracts its run database (zipArchive.ts) and writes it into a new private directory. */
async function saveRunDatabase(
  finder: Finder,
  lookup: ArtifactLookup,
  run: WorkflowRun,
  artifact: Artifact,
): Promise<{ path: string; entry: string; history: ArtifactHistory | null }> {
  const limits = lookup.limits ?? DEFAULT_ZIP_LIMITS;
  const zip = await finder.download(artifact, limits.maxTotalBytes);
  const where = `${labelOf(lookup)} (artifact ${artifact.id} of run ${run.id})`;
  const database = extractRunDatabase(zip, where, { path: lookup.path, limits, pathInput: lookup.pathInput });
  const dir = mkdtempSync(join(lookup.tempDir, 'evalverdict-artifact-'));
  // The entry's own name only where the file system takes it (a 300-byte name would end in ENAMETOOLONG).
  const name = basename(database.name);
  const path = join(dir, Buffer.byteLength(name) <= 200 && /^[\w.@+-]+$/.test(name) ? name : 'run-database.sqlite');
  writeFileSync(path, database.data, { flag: 'wx' });
  // Main's history rides in the same archive: no second download.
  const history = lookup.historyEntry ? historyFromArchive(zip, where, lookup.historyEntry, limits) : null;
  return { path, entry: database.name, history };
}

/**
 * The run database in the artifact NAME of one given run (`candidate: artifact:NAME`, the run that triggered a
 * workflow_run event): 2 API calls (its artifacts, the download) and the credential-free download.
 */
export async function fetchRunArtifact(
  client: BaselineClient,
  lookup: Omit<ArtifactLookup, 'baseSha' | 'headSha' | 'baseBranch' | 'maxCommits'> & { runId: number; runSha: string },
): Promise<
  | { found: true; path: string; entry: string; artifactId: number; apiCalls: number }
  | { found: false; apiCalls: number; notes: string[] }
> {
  const full: ArtifactLookup = { ...lookup, baseSha: lookup.runSha, headSha: null, baseBranch: null, maxCommits: 1 };
  const finder = new Finder(client, full);
  const run: WorkflowRun = { id: lookup.runId, head_sha: lookup.runSha, html_url: '', created_at: '' };
  const artifact = await finder.artifactOf(run);
  if (!artifact) return { found: false, apiCalls: finder.calls, notes: finder.notes };
  const { history: _history, ...saved } = await saveRunDatabase(finder, full, run, artifact);
  return { found: true, ...saved, artifactId: artifact.id, apiCalls: finder.calls };
}

/** How long the storage host's download may take (the whole transfer), and the caller's overall deadline. */
export interface DownloadBounds {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The client over octokit (GitHub's REST API) and fetch (the storage host, without credentials). The download is
 * cut after `bounds.timeoutMs` (default 30 s) for the whole transfer, or when `bounds.signal` aborts: a storage
 * host that never answers, or trickles, cannot hold the step.
 */
export function baselineClientOf(
  octokit: { request: (route: string, params: Record<string, unknown>) => Promise<unknown> },
  fetchImpl: typeof fetch = fetch,
  bounds: DownloadBounds = { timeoutMs: 30_000 },
): BaselineClient {
  return {
    request: <T>(route: string, params: Record<string, unknown>) =>
      octokit.request(route, params) as Promise<ApiResponse<T>>,
    async download(url: string, maxBytes: number): Promise<Buffer> {
      const timeout = AbortSignal.timeout(bounds.timeoutMs);
      const signal = bounds.signal ? AbortSignal.any([timeout, bounds.signal]) : timeout;
      try {
        return await boundedDownload(fetchImpl, url, maxBytes, signal);
      } catch (error) {
        if (bounds.signal?.aborted) throw new Error('cut off by the publish deadline');
        if (timeout.aborted)
          throw new Error(`not downloaded within ${bounds.timeoutMs / 1000} s (input \`request-timeout\`)`);
        throw error;
      }
    },
  };
}

async function boundedDownload(
  fetchImpl: typeof fetch,
  url: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const response = await fetchImpl(url, { redirect: 'follow', signal });
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!response.ok || declared > maxBytes) {
    // A body left unread holds its socket, and so the step, until the garbage collector finds it.
    void response.body?.cancel().catch(() => {});
    throw new Error(response.ok ? `${declared} bytes, over the ${maxBytes}-byte cap` : `HTTP ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      if (total > maxBytes) throw new Error(`more than the ${maxBytes}-byte cap`);
      chunks.push(Buffer.from(chunk));
    }
  }
  return Buffer.concat(chunks);
}
