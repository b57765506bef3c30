/**
 * `/evalgate accept` and `/evalgate rerun` on an `issue_comment` event. Before anything is scored: a
 * command from a bot, on a closed pull request, malformed, or from a user whose permission (asked of the API for
 * the comment's author, never read from the event) is below write gets a short reply and changes nothing. A taken
 * command gets a reaction, and the run goes on with the pull request read from the API (the `issue_comment`
 * payload does not name its head or base) in the payload's `pull_request`, its head the commit under test.
 */
import { oneLine } from '../errors.js';
import { escapeMarkdownText } from '../render/escape.js';
import { COMMAND_USAGE, parseCommand } from './acceptCommand.js';
import type { ParsedCommand } from './acceptCommand.js';
import { permissionOf } from './acceptance.js';
import type { TakenCommand } from './acceptance.js';
import type { RunContext } from './context.js';
import { info, messageOf } from './runner.js';
import type { GitHubSession } from './session.js';

export type CommandOutcome =
  | { kind: 'none' }
  | { kind: 'done'; failures: string[] }
  | { kind: 'taken'; ctx: RunContext; taken: TakenCommand };

interface PullData {
  state?: unknown;
  head?: { sha?: unknown };
  labels?: Array<{ name?: unknown }>;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The command of an `issue_comment` event, or `none` for any other event. */
export async function takeCommentCommand(ctx: RunContext, session: GitHubSession | null): Promise<CommandOutcome> {
  if (ctx.eventName !== 'issue_comment') return { kind: 'none' };
  const issue = record(ctx.payload.issue);
  const comment = record(ctx.payload.comment);
  const user = record(comment?.user);
  const parsed = parseCommand(comment?.body);
  if (ctx.payload.action !== 'created' || !record(issue?.pull_request) || parsed.kind === 'none') {
    info('issue_comment: not an /evalgate command on a pull request: nothing to do');
    return { kind: 'done', failures: [] };
  }
  const number = issue?.number;
  const login = typeof user?.login === 'string' ? user.login : '';
  if (typeof number !== 'number' || typeof comment?.id !== 'number' || login === '')
    return {
      kind: 'done',
      failures: ['EvalGate: the issue_comment event does not name its pull request, comment or author'],
    };
  if (!session)
    return { kind: 'done', failures: ['EvalGate: input `github-token` is empty: comment commands need it'] };
  const where = { owner: ctx.owner, repo: ctx.repo, issue_number: number };
  const reply = async (why: string) => {
    info(`/evalgate command not taken: ${oneLine(why)}`);
    const body = `EvalGate did not take the command of @${escapeMarkdownText(login, 40)}: ${why}`;
    await session.untilDeadline(session.octokit.rest.issues.createComment({ ...where, body }));
    return { kind: 'done' as const, failures: [] };
  };
  try {
    const isBot = user?.type === 'Bot' || login.endsWith('[bot]');
    return await takeOrRefuse(ctx, session, { number, commentId: comment.id, login, isBot, parsed }, reply);
  } catch (error) {
    return { kind: 'done', failures: [`EvalGate: could not take the /evalgate command: ${messageOf(error)}`] };
  }
}

/** The checks a command must pass (bot, form, open pull request, permission), then the command as taken. */
async function takeOrRefuse(
  ctx: RunContext,
  session: GitHubSession,
  c: { number: number; commentId: number; login: string; isBot: boolean; parsed: ParsedCommand },
  reply: (why: string) => Promise<CommandOutcome>,
): Promise<CommandOutcome> {
  const { number, login, parsed } = c;
  if (c.isBot) return await reply('commands from bots are not taken.');
  if (parsed.kind === 'malformed')
    return await reply(`${escapeMarkdownText(parsed.problem, 120)}.\n\n${COMMAND_USAGE}`);
  const { data: pull } = (await session.untilDeadline(
    session.octokit.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: number }),
  )) as { data: PullData };
  const headSha = pull.head?.sha;
  if (pull.state !== 'open') return await reply('the pull request is closed; nothing was changed.');
  if (typeof headSha !== 'string' || !SHA.test(headSha))
    return { kind: 'done', failures: [`EvalGate: GitHub did not name pull request #${number}'s head commit`] };
  const permission = await permissionOf(
    session,
    { owner: ctx.owner, repo: ctx.repo, issueNumber: number, fromFork: false, byDependabot: false },
    login,
  );
  info(`/evalgate command by @${login}: ${permission.permission} permission (${permission.roleName ?? 'no role'})`);
  if (permission.permission !== 'admin' && permission.permission !== 'write')
    return await reply(
      `it takes write, maintain or admin permission on the repository, and GitHub reports ${escapeMarkdownText(permission.permission, 40)}; nothing was changed.`,
    );
  await session.untilDeadline(
    session.octokit.rest.reactions.createForIssueComment({
      owner: ctx.owner,
      repo: ctx.repo,
      comment_id: c.commentId,
      content: '+1',
    }),
  );
  const labels = (Array.isArray(pull.labels) ? pull.labels : [])
    .map((l) => l?.name)
    .filter((n): n is string => typeof n === 'string');
  const accept =
    parsed.kind === 'accept' ? { by: login, gates: parsed.gates, reason: parsed.reason, permission } : null;
  // The API's pull request stands in for the payload's missing one: its base finds an artifact baseline.
  const payload = { ...ctx.payload, pull_request: pull as Record<string, unknown> };
  return { kind: 'taken', ctx: { ...ctx, sha: headSha, payload }, taken: { accept, labels } };
}
