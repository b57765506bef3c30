/**
 * The commit status `evalverdict/<comment-id>` on the commit under test, when `status` is not false and there is a
 * token and a commit. A refusal (no `statuses: write`) is a warning under `auto` and a failure under `true`; after one
 * refusal no more are tried. Each call resolves to the step's failure messages (none, or one).
 */
import * as core from '@actions/core';
import { isPermissionError } from '../publish/githubClient.js';
import { setCommitStatus, statusContext } from '../publish/commitStatus.js';
import type { StatusState } from '../publish/commitStatus.js';
import type { RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { info, messageOf } from './runner.js';
import type { GitHubSession } from './session.js';

export type StatusSetter = (state: StatusState, description: string) => Promise<string[]>;

export function commitStatusSetter(inputs: ActionInputs, ctx: RunContext, session: GitHubSession | null): StatusSetter {
  const context = statusContext(inputs.commentId);
  const sha = ctx.sha;
  let refused = inputs.status === 'false' || !session || !sha || !ctx.owner || !ctx.repo;
  return async (state, description) => {
    if (refused || !sha || !session) return [];
    try {
      await session.untilDeadline(
        setCommitStatus(session.octokit, {
          owner: ctx.owner,
          repo: ctx.repo,
          sha,
          state,
          context,
          description,
          targetUrl: ctx.runUrl,
        }),
      );
      info(`commit status ${context} on ${sha.slice(0, 7)}: ${state}`);
      return [];
    } catch (error) {
      refused = true;
      const advice = isPermissionError(error)
        ? ' (the job needs `permissions: statuses: write`, or set `status: false`)'
        : session.expired()
          ? ` (input \`publish-timeout\`: ${inputs.publishTimeoutS} s)`
          : '';
      const message = `EvalVerdict could not set the commit status ${context} on ${sha.slice(0, 7)}: ${messageOf(error)}${advice}`;
      if (inputs.status === 'true' || session.expired()) return [message];
      core.warning(message);
      return [];
    }
  };
}
