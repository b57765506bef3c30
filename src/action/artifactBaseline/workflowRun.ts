/**
 * The trusted side of the fork-safe setup (docs/action.md "Pull requests from forks"): on a
 * `workflow_run` event, the pull request the triggering run was for and, for `candidate: artifact:NAME`, the run
 * database that run uploaded. The artifact is data to score, never routing: the pull request comes from the event
 * or from GitHub's list of open pull requests by the run's head repository and branch, and its head SHA must be
 * the run's head SHA, so a run (or a `pr-number` read from its artifact) cannot point the comment elsewhere.
 */
import { tmpdir } from 'node:os';
import { InputError } from '../../errors.js';
import { oneLine } from '../../inputText.js';
import { fetchRunArtifact } from './findArtifact.js';
import type { BaselineClient } from './findArtifact.js';
import type { RunContext, TriggeringRun } from '../context.js';
import type { ActionInputs, Env } from '../inputs.js';

export interface RunPullRequest {
  number: number;
  headSha: string;
  baseSha: string | null;
  baseRef: string | null;
  /** The head is in another repository. */
  fromFork: boolean;
}

interface PullRequestData {
  number: number;
  state?: string;
  head: { sha: string; ref: string; repo: { full_name: string } | null };
  base: { sha: string; ref: string };
}

const short = (sha: string) => sha.slice(0, 7);

/** A pull request from GitHub's answer with the fields routing needs, or a clear error naming the one that is not. */
function checkedPull(p: PullRequestData): PullRequestData {
  const bad = (field: string, value: unknown) =>
    new InputError(
      `workflow_run: GitHub's pull request has \`${field}\` ${value === undefined ? 'missing' : oneLine(JSON.stringify(value) ?? '').slice(0, 80)}, not ${field.endsWith('number') ? 'a number' : 'a string'}`,
    );
  if (typeof p?.number !== 'number') throw bad('number', p?.number);
  for (const [field, value] of [
    ['head.sha', p.head?.sha],
    ['head.ref', p.head?.ref],
    ['base.sha', p.base?.sha],
    ['base.ref', p.base?.ref],
  ] as const)
    if (typeof value !== 'string') throw bad(field, value);
  return p;
}

function permissionHint(error: unknown, what: string): InputError {
  const status = (error as { status?: unknown } | null)?.status;
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  if (status === 403)
    return new InputError(
      `workflow_run: the token may not ${what} (HTTP 403: ${detail}); add \`pull-requests: read\` (or write) to the job's \`permissions:\``,
    );
  return new InputError(
    `workflow_run: could not ${what}${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${detail}`,
  );
}

/**
 * The pull request of the triggering run, in order: `pr-number` (a trusted input; checked against the run's head
 * SHA all the same), the event's `pull_requests` (same-repository branches), else the open pull requests whose head
 * is the run's repository and branch (forks: GitHub leaves `pull_requests` empty). Counts its API calls.
 */
export async function findRunPullRequest(
  client: BaselineClient,
  ctx: RunContext,
  run: TriggeringRun,
  prNumber: number | null,
): Promise<{ pr: RunPullRequest; apiCalls: number }> {
  const ours = `${ctx.owner}/${ctx.repo}`;
  const fromFork = run.headRepository.toLowerCase() !== ours.toLowerCase();
  const of = (p: PullRequestData): RunPullRequest => ({
    number: checkedPull(p).number,
    headSha: p.head.sha,
    baseSha: p.base.sha,
    baseRef: p.base.ref,
    fromFork,
  });
  if (prNumber !== null) {
    let data: PullRequestData;
    try {
      ({ data } = await client.request<PullRequestData>('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
        owner: ctx.owner,
        repo: ctx.repo,
        pull_number: prNumber,
      }));
    } catch (error) {
      throw permissionHint(error, `read pull request #${prNumber}`);
    }
    if (data.head?.sha !== run.headSha)
      throw new InputError(
        `input \`pr-number\`: pull request #${prNumber}'s head is ${short(String(data.head?.sha ?? 'unknown'))}, not ${short(run.headSha)}, the head of the run that triggered this workflow; leave \`pr-number\` empty on workflow_run (never take it from the run's artifact)`,
      );
    return { pr: of(data), apiCalls: 1 };
  }
  const listed = run.pullRequests.find((p) => p.headSha === run.headSha);
  if (listed) return { pr: { ...listed, headSha: run.headSha, fromFork: false }, apiCalls: 0 };

  const headOwner = run.headRepository.split('/')[0];
  let open: PullRequestData[];
  try {
    ({ data: open } = await client.request<PullRequestData[]>('GET /repos/{owner}/{repo}/pulls', {
      owner: ctx.owner,
      repo: ctx.repo,
      state: 'open',
      head: `${headOwner}:${run.headBranch}`,
      per_page: 100,
    }));
  } catch (error) {
    throw permissionHint(error, `list the open pull requests of ${headOwner}:${oneLine(run.headBranch)}`);
  }
  const matching = (Array.isArray(open) ? open : [])
    .filter(
      (p) => p.head?.sha === run.headSha && p.head.repo?.full_name?.toLowerCase() === run.headRepository.toLowerCase(),
    )
    .sort((a, b) => a.number - b.number);
  if (matching.length === 0)
    throw new InputError(
      `workflow_run: no open pull request of ${ours} has the head ${oneLine(run.headRepository)}:${oneLine(run.headBranch)} at ${short(run.headSha)}, the commit run ${run.id} evaluated (pushed again since, or closed?): nothing to comment on; the newer commit's run reports for it`,
    );
  return { pr: of(matching[0]), apiCalls: 1 };
}

/**
 * `candidate: artifact:NAME`: downloads the triggering run's artifact into RUNNER_TEMP and returns its run
 * database's path. Throws an InputError naming what is missing.
 */
export async function fetchCandidateArtifact(
  client: BaselineClient,
  inputs: ActionInputs,
  ctx: RunContext,
  run: TriggeringRun,
  env: Env,
): Promise<{ path: string; entry: string; apiCalls: number }> {
  const spec = inputs.candidateArtifact;
  if (!spec) throw new Error('fetchCandidateArtifact: no candidate artifact asked for');
  const label = `candidate artifact:${spec.name}`;
  const result = await fetchRunArtifact(client, {
    owner: ctx.owner,
    repo: ctx.repo,
    artifact: spec.name,
    workflow: run.workflowFile ?? String(run.id),
    runId: run.id,
    runSha: run.headSha,
    path: spec.path,
    tempDir: env.RUNNER_TEMP || tmpdir(),
    label,
    pathInput: 'candidate-path',
  });
  if (!result.found) {
    const ended = run.conclusion && run.conclusion !== 'success' ? ` (the run ended: ${oneLine(run.conclusion)})` : '';
    throw new InputError(
      `${label}: run ${run.id}, which triggered this workflow, has no unexpired artifact ${JSON.stringify(spec.name)}${ended}; its workflow must upload the run database with actions/upload-artifact under that name`,
    );
  }
  return { path: result.path, entry: result.entry, apiCalls: result.apiCalls };
}

interface HeadRunData {
  id?: unknown;
  head_sha?: unknown;
  path?: unknown;
  status?: unknown;
}

/** Runs of the head commit read at most for the artifact (newest first): a commit rarely has more workflows. */
const HEAD_RUNS_READ = 10;

/**
 * `candidate: artifact:NAME` on an event other than `workflow_run` (a label, a comment command): the artifact of
 * the newest completed run of the pull request's head commit (`headSha`, from the event's pull request or the
 * API, never from an artifact) that has one, this run excepted. The eval is never run again: the run database it
 * uploaded is scored as data. Throws an InputError naming what is missing.
 */
export async function fetchHeadCandidate(
  client: BaselineClient,
  inputs: ActionInputs,
  ctx: RunContext,
  headSha: string,
  env: Env,
): Promise<{ path: string; entry: string; apiCalls: number; runId: number }> {
  const spec = inputs.candidateArtifact;
  if (!spec) throw new Error('fetchHeadCandidate: no candidate artifact asked for');
  const label = `candidate artifact:${spec.name}`;
  let runs: HeadRunData[];
  try {
    const { data } = await client.request<{ workflow_runs?: HeadRunData[] }>('GET /repos/{owner}/{repo}/actions/runs', {
      owner: ctx.owner,
      repo: ctx.repo,
      head_sha: headSha,
      status: 'completed',
      per_page: HEAD_RUNS_READ,
    });
    runs = Array.isArray(data?.workflow_runs) ? data.workflow_runs : [];
  } catch (error) {
    const status = (error as { status?: unknown } | null)?.status;
    throw new InputError(
      `${label}: could not list the runs of ${short(headSha)}${typeof status === 'number' ? ` (HTTP ${status})` : ''}: ${oneLine(error instanceof Error ? error.message : String(error))}; the job needs \`actions: read\``,
    );
  }
  let apiCalls = 1;
  for (const run of runs) {
    if (typeof run.id !== 'number' || run.head_sha !== headSha || String(run.id) === env.GITHUB_RUN_ID) continue;
    const path = typeof run.path === 'string' ? run.path : '';
    const result = await fetchRunArtifact(client, {
      owner: ctx.owner,
      repo: ctx.repo,
      artifact: spec.name,
      workflow: /^\.github\/workflows\/([^/@]+\.ya?ml)/.exec(path)?.[1] ?? String(run.id),
      runId: run.id,
      runSha: headSha,
      path: spec.path,
      tempDir: env.RUNNER_TEMP || tmpdir(),
      label,
      pathInput: 'candidate-path',
    });
    apiCalls += result.apiCalls;
    if (result.found) return { path: result.path, entry: result.entry, apiCalls, runId: run.id };
  }
  throw new InputError(
    `${label}: no completed run of the pull request's head ${short(headSha)} has an unexpired artifact ${JSON.stringify(spec.name)} (${runs.length} runs read); the eval workflow must run on that commit and upload the run database under that name first`,
  );
}
