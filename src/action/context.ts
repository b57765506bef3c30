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
