/**
 * The sticky comment's step: publish the report (or the error panel), and say what happened as a result the caller
 * adds up: the comment's URL and the step's failure messages. A permission refusal is a warning; past the publish
 * deadline the earlier comment is marked stale when GitHub can still be reached.
 */
import * as core from '@actions/core';
import { oneLine } from '../inputText.js';
import {
  httpStatusOf,
  isMalformedAnswer,
  isPermissionError,
  isRateLimitError,
  isTimeout,
} from '../publish/githubClient.js';
import { stickyBody, stickyMarker, upsertStickyComment } from '../publish/stickyComment.js';
import type { IssueComment, UpsertResult } from '../publish/stickyComment.js';
import { renderErrorPanel } from '../render/errorPanel.js';
import { commentDecision } from '../publish/commentPolicy.js';
import type { Outcome } from '../publish/commentPolicy.js';
import { DEPENDABOT } from './context.js';
import type { PullRequestTarget, RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { info, messageOf } from './runner.js';
import { graceMs, withinMs } from './session.js';
import type { GitHubSession } from './session.js';

export interface CommentResult {
  url: string;
  failures: string[];
}

/** Why the token may not comment, and what to do about it, for this event. */
function forbiddenAdvice(ctx: RunContext, target: PullRequestTarget): string {
  const permissions =
    "the job's `permissions:` must grant `pull-requests: write` (without a `permissions:` key the repository's or organisation's default workflow permissions apply, which may be read-only)";
  if (ctx.eventName === 'pull_request_target' || ctx.eventName === 'workflow_run') {
    return `A \`${ctx.eventName}\` workflow runs with the base repository's token, which can comment also on pull requests from forks: ${permissions}; a token passed as \`github-token\` needs write access to pull requests.`;
  }
  if (ctx.actor === DEPENDABOT || target.byDependabot) {
    return (
      'Workflows started by Dependabot get a read-only GITHUB_TOKEN by default (and Dependabot secrets instead of Actions secrets): ' +
      'grant `pull-requests: write` in the workflow\'s `permissions:`, pass a token stored as a Dependabot secret as `github-token`, or comment from a `workflow_run` workflow (docs/action.md, "Pull requests from forks").'
    );
  }
  if (target.fromFork) {
    return (
      'This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token. ' +
      'To comment on pull requests from forks, use the pull_request_target or workflow_run pattern (docs/action.md, "Pull requests from forks").'
    );
  }
  return `The token cannot write pull request comments: ${permissions}; a token passed as \`github-token\` needs write access to pull requests.`;
}

function describeUpsert(result: UpsertResult, target: PullRequestTarget): string {
  const url = oneLine(result.comment?.url ?? '');
  const where = `pull request #${target.issueNumber}`;
  const n = result.deleted.length;
  const deleted = n > 0 ? `; deleted ${n} duplicate ${n === 1 ? 'comment' : 'comments'}` : '';
  switch (result.action) {
    case 'created':
      return `created the EvalVerdict comment on ${where}: ${url}${deleted}`;
    case 'updated':
      return `updated the EvalVerdict comment on ${where}: ${url}${deleted}`;
    case 'unchanged':
      return `the EvalVerdict comment on ${where} is already up to date: ${url}${deleted}`;
    case 'skipped':
      return `no EvalVerdict comment on ${where}: none exists yet and the comment mode does not create one for this verdict`;
  }
}

export interface CommentRequest {
  inputs: ActionInputs;
  ctx: RunContext;
  target: PullRequestTarget;
  markdown: string;
  /** The hidden acceptance state line, written as the body's final line; absent: the earlier comment's is kept. */
  stateLine?: string;
  outcome: Outcome;
  /** Our comments, when the acceptance step listed them already (src/action/acceptanceStep.ts). */
  listed?: Promise<IssueComment[]> | null;
}

export async function publishComment(request: CommentRequest, session: GitHubSession | null): Promise<CommentResult> {
  const { inputs, target, outcome } = request;
  const decision = commentDecision(inputs.comment, outcome);
  if (!decision.publish) {
    info('comment: never — the report is in the job summary and the outputs only');
    return { url: '', failures: [] };
  }
  if (!session) {
    core.warning(
      'input `github-token` is empty: the report was not posted to the pull request (it is in the job summary)',
    );
    return { url: '', failures: [] };
  }
  const marker = stickyMarker(inputs.commentId);
  const upsert = { ...target, issueNumber: target.issueNumber, marker, commentAuthor: inputs.commentAuthor };
  try {
    if (session.expired()) throw new Error('the publish deadline has passed');
    const body = stickyBody(marker, request.markdown, request.stateLine ?? '');
    const result = await session.untilDeadline(
      upsertStickyComment(session.octokit, {
        ...upsert,
        body,
        createIfMissing: decision.createIfMissing,
        listed: request.listed,
      }),
    );
    info(describeUpsert(result, target));
    return { url: result.comment?.url ?? '', failures: [] };
  } catch (error) {
    const where = `EvalVerdict: could not publish the comment on pull request #${target.issueNumber}`;
    const after = 'the report is in the job summary and the report files';
    if (session.expired()) {
      await markStale(request, session);
      return {
        url: '',
        failures: [
          `${where}: GitHub's API did not finish within ${inputs.publishTimeoutS} s (input \`publish-timeout\`); ${after}`,
        ],
      };
    }
    return { url: '', failures: commentFailure(error, request, where, after) };
  }
}

/** Only a genuine permission problem is a warning; a rate limit the retries could not wait out fails the step. */
function commentFailure(error: unknown, request: CommentRequest, where: string, after: string): string[] {
  const { inputs, ctx, target } = request;
  if (isTimeout(error))
    return [
      `${where}: ${messageOf(error)} (input \`request-timeout\`: ${inputs.requestTimeoutS} s, retried); ${after}`,
    ];
  if (isPermissionError(error)) {
    core.warning(
      `EvalVerdict could not comment on pull request #${target.issueNumber} (HTTP 403: ${messageOf(error)}). ${forbiddenAdvice(ctx, target)} ` +
        "The report is in this run's job summary and the step outputs; the gate verdict still decides the step.",
      { title: 'EvalVerdict could not comment on the pull request' },
    );
    return [];
  }
  const status = httpStatusOf(error);
  const what =
    status && !isMalformedAnswer(error) ? ` (HTTP ${status}${isRateLimitError(error) ? ', rate limit' : ''})` : '';
  return [`${where}${what}: ${messageOf(error)}`];
}

/**
 * Past the deadline: the earlier comment (never a new one) becomes an error panel saying its report is stale, within
 * a short grace of its own; if GitHub cannot be reached then either, the failure message says so already.
 */
export async function markStale(request: CommentRequest, session: GitHubSession, why?: string): Promise<void> {
  const { inputs, ctx, target } = request;
  const marker = stickyMarker(inputs.commentId);
  const panel = renderErrorPanel({
    message:
      why ??
      `GitHub's API did not finish within ${inputs.publishTimeoutS} s (input \`publish-timeout\`): the report of this commit is in the workflow run's job summary; an earlier report shown here is stale`,
    inputError: false,
    sha: ctx.sha,
    runUrl: ctx.runUrl,
  });
  try {
    const upsert = upsertStickyComment(session.graceClient(), {
      ...target,
      marker,
      commentAuthor: inputs.commentAuthor,
      body: stickyBody(marker, panel),
      createIfMissing: false,
    });
    const result = await withinMs(upsert, graceMs(inputs), 'marking the earlier comment stale');
    info(`marked the earlier EvalVerdict comment stale: ${describeUpsert(result, target)}`);
  } catch (error) {
    info(`could not mark the earlier EvalVerdict comment stale: ${messageOf(error)}`);
  }
}
