/**
 * What the action needs from the workflow run: the repository, the event and, when there is one, the pull
 * request to comment on. Read from the runner's environment (GITHUB_*), as @actions/github's context does,
 * but without reading anything at import time.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.js';
import type { Env } from './inputs.js';

export interface RunContext {
  eventName: string;
  owner: string;
  repo: string;
  apiUrl: string;
  serverUrl: string;
  /** Link to this workflow run, when the runner says which it is. */
  runUrl: string | null;
  /**
   * The commit the report is about, for the error panel: the pull request's head (`pull_request.head.sha`; on
   * `pull_request` GITHUB_SHA is the merge commit, on `pull_request_target` the base branch), the head of a
   * `workflow_run`, else GITHUB_SHA. None on `issue_comment` (GITHUB_SHA is the default branch's there and the
   * payload does not say which commit the job checked out).
   */
  sha: string | null;
  /** Who started the run (GITHUB_ACTOR), e.g. `dependabot[bot]`. */
  actor: string;
  payload: Record<string, unknown>;
}

export interface PullRequestTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The head is in another repository: its GITHUB_TOKEN is read-only on pull_request events. */
  fromFork: boolean;
  /** Opened by Dependabot (`pull_request.user.login`): its runs get a read-only GITHUB_TOKEN by default. */
  byDependabot: boolean;
}

export function readRunContext(env: Env): RunContext {
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner = '', repo = ''] = repository.split('/');
  let payload: Record<string, unknown> = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath) {
    let text: string;
    try {
      text = readFileSync(eventPath, 'utf8');
    } catch (error) {
      throw new InputError(
        `GITHUB_EVENT_PATH ${eventPath}: cannot read the event payload (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
    } catch (error) {
      throw new InputError(
        `GITHUB_EVENT_PATH ${eventPath}: the event payload is not JSON (${(error as Error).message})`,
      );
    }
  }
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const runUrl =
    env.GITHUB_RUN_ID && repository ? `${serverUrl}/${repository}/actions/runs/${env.GITHUB_RUN_ID}` : null;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    owner,
    repo,
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl,
    runUrl,
    sha: evaluatedSha(env, payload),
    actor: env.GITHUB_ACTOR ?? '',
    payload,
  };
}

const SHA_PATTERN = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;

function evaluatedSha(env: Env, payload: Record<string, unknown>): string | null {
  const head = objectAt(objectAt(payload, 'pull_request'), 'head')?.sha;
  if (typeof head === 'string' && SHA_PATTERN.test(head)) return head;
  const runHead = objectAt(payload, 'workflow_run')?.head_sha;
  if (typeof runHead === 'string' && SHA_PATTERN.test(runHead)) return runHead;
  if (env.GITHUB_EVENT_NAME === 'issue_comment') return null;
  return env.GITHUB_SHA || null;
}

export const DEPENDABOT = 'dependabot[bot]';

function objectAt(value: unknown, key: string): Record<string, unknown> | null {
  if (!value || typeof value !== 'object') return null;
  const v = (value as Record<string, unknown>)[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function fullName(repoObject: Record<string, unknown> | null): string | null {
  const name = repoObject?.full_name;
  return typeof name === 'string' ? name : null;
}

/**
 * The pull request to comment on, or null (push, workflow_dispatch, schedule...: summary and outputs only).
 * In order: the `pr-number` input; `pull_request` in the payload (pull_request, pull_request_target,
 * pull_request_review...); an issue_comment on a pull request; a workflow_run triggered by a pull request
 * of the same repository (GitHub leaves `pull_requests` empty for forks: pass `pr-number` there).
 */
export function pullRequestTarget(ctx: RunContext, prNumberInput: number | null): PullRequestTarget | null {
  if (!ctx.owner || !ctx.repo) return null;
  const base = `${ctx.owner}/${ctx.repo}`;
  const pr = objectAt(ctx.payload, 'pull_request');
  const headRepo = fullName(objectAt(objectAt(pr, 'head'), 'repo'));
  const fromFork = headRepo !== null && headRepo.toLowerCase() !== base.toLowerCase();
  const byDependabot = objectAt(pr, 'user')?.login === DEPENDABOT;
  if (prNumberInput !== null)
    return { owner: ctx.owner, repo: ctx.repo, issueNumber: prNumberInput, fromFork, byDependabot };
  if (pr && typeof pr.number === 'number')
    return { owner: ctx.owner, repo: ctx.repo, issueNumber: pr.number, fromFork, byDependabot };
  const issue = objectAt(ctx.payload, 'issue');
  if (issue && objectAt(issue, 'pull_request') && typeof issue.number === 'number') {
    return { owner: ctx.owner, repo: ctx.repo, issueNumber: issue.number, fromFork: false, byDependabot: false };
  }
  const workflowRun = objectAt(ctx.payload, 'workflow_run');
  const prs = workflowRun?.pull_requests;
  if (Array.isArray(prs)) {
    // GitHub lists pull requests of other repositories whose head is this branch too: keep ours.
    const ours = prs.find((p: unknown) => {
      const url = objectAt(objectAt(p, 'base'), 'repo')?.url;
      return (
        typeof (p as Record<string, unknown>)?.number === 'number' &&
        typeof url === 'string' &&
        url.toLowerCase().endsWith(`/repos/${base.toLowerCase()}`)
      );
    }) as Record<string, unknown> | undefined;
    if (ours)
      return {
        owner: ctx.owner,
        repo: ctx.repo,
        issueNumber: ours.number as number,
        fromFork: false,
        byDependabot: false,
      };
  }
  return null;
}

/** The run that triggered a `workflow_run` event, as its payload describes it (data to route by, checked). */
export interface TriggeringRun {
  id: number;
  headSha: string;
  headBranch: string;
  /** owner/name of the repository whose code ran: a fork's for a fork's pull request. */
  headRepository: string;
  /** The triggering workflow's file name (e.g. rag-eval.yml), from `workflow_run.path`. */
  workflowFile: string | null;
  conclusion: string | null;
  /** `workflow_run.pull_requests`: this repository's pull requests whose head is the run's branch (none for forks). */
  pullRequests: Array<{ number: number; headSha: string | null; baseSha: string | null; baseRef: string | null }>;
}

/** The triggering run of a `workflow_run` event, or null for other events (or a payload without one). */
export function triggeringRun(ctx: RunContext): TriggeringRun | null {
  if (ctx.eventName !== 'workflow_run') return null;
  const run = objectAt(ctx.payload, 'workflow_run');
  const headSha = run?.head_sha;
  const headBranch = run?.head_branch;
  const headRepository = fullName(objectAt(run, 'head_repository'));
  if (
    !run ||
    typeof run.id !== 'number' ||
    typeof headSha !== 'string' ||
    !SHA_PATTERN.test(headSha) ||
    typeof headBranch !== 'string' ||
    headRepository === null
  )
    return null;
  const base = `${ctx.owner}/${ctx.repo}`.toLowerCase();
  const pullRequests: TriggeringRun['pullRequests'] = [];
  for (const p of Array.isArray(run.pull_requests) ? run.pull_requests : []) {
    const baseRepoUrl = objectAt(objectAt(p, 'base'), 'repo')?.url;
    const number = (p as Record<string, unknown>)?.number;
    // GitHub lists pull requests of other repositories whose head is this branch too: keep ours.
    if (typeof number !== 'number' || typeof baseRepoUrl !== 'string') continue;
    if (!baseRepoUrl.toLowerCase().endsWith(`/repos/${base}`)) continue;
    const text = (o: Record<string, unknown> | null, key: string) =>
      typeof o?.[key] === 'string' ? (o[key] as string) : null;
    pullRequests.push({
      number,
      headSha: text(objectAt(p, 'head'), 'sha'),
      baseSha: text(objectAt(p, 'base'), 'sha'),
      baseRef: text(objectAt(p, 'base'), 'ref'),
    });
  }
  const path = typeof run.path === 'string' ? run.path : '';
  const file = /^\.github\/workflows\/([^/@]+\.ya?ml)(@.*)?$/.exec(path)?.[1] ?? null;
  return {
    id: run.id,
    headSha,
    headBranch,
    headRepository,
    workflowFile: file,
    conclusion: typeof run.conclusion === 'string' ? run.conclusion : null,
    pullRequests,
  };
}
