/**
 * The commit status branch protection can require: context `evalverdict/<comment-id>` on the commit under test,
 * `pending` while the runs are scored, then the verdict (`success` / `failure`), or `error` when the run could not
 * be evaluated. A status attaches to the commit itself, so it gates a fork's pull request as it gates any other
 * (a `workflow_run` job's check run attaches to the default branch instead).
 */
import type { GitHubClient } from './githubClient.js';

export type StatusState = 'pending' | 'success' | 'failure' | 'error';

export interface CommitStatus {
  owner: string;
  repo: string;
  sha: string;
  state: StatusState;
  context: string;
  description: string;
  targetUrl: string | null;
}

/** GitHub keeps the first 140 characters of a status description. */
export const STATUS_DESCRIPTION_LIMIT = 140;

export function statusContext(commentId: string): string {
  return `evalverdict/${commentId}`;
}

export function statusDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > STATUS_DESCRIPTION_LIMIT ? `${line.slice(0, STATUS_DESCRIPTION_LIMIT - 1)}…` : line;
}

export async function setCommitStatus(octokit: GitHubClient, status: CommitStatus): Promise<void> {
  await octokit.rest.repos.createCommitStatus({
    owner: status.owner,
    repo: status.repo,
    sha: status.sha,
    state: status.state,
    context: status.context,
    description: statusDescription(status.description),
    ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
  });
}
