/**
 * `/evalverdict accept` and `/evalverdict rerun` on an `issue_comment` event. Before anything is scored, the author's
 * permission is asked of the API (never read from the event). A command from a bot or from a user below write
 * permission gets a `-1` reaction, and one reply per pull request at most (so an outsider cannot make the action
 * post a comment per comment). A writer's command that is malformed, on a closed pull request, or an accept whose
 * report the writer never saw (the head moved since: src/acceptance/state.ts, shownAt) gets a reply and
 * changes nothing. A taken command gets a `+1` reaction, and the run goes on with the pull request read from the
 * API (the `issue_comment` payload does not name its head or base) in the payload's `pull_request`, its head the
 * commit under test.
 */
import { oneLine } from '../inputText.js';
import { ownLogin } from '../publish/stickyComment.js';
import { shownAt } from '../acceptance/state.js';
import { escapeMarkdownText } from '../render/escape.js';
import { COMMAND_USAGE, parseCommand } from './parseCommand.js';
import type { ParsedCommand } from './parseCommand.js';
import { permissionOf, priorComment } from './acceptanceStep.js';
import type { TakenCommand } from './acceptanceStep.js';
import type { PullRequestTarget, RunContext } from './context.js';
import { info, messageOf } from './runner.js';
import type { GitHubSession } from './session.js';

export type CommandOutcome =
  | { kind: 'none' }
  | { kind: 'done'; failures: string[] }
  | { kind: 'taken'; ctx: RunContext; taken: TakenCommand };

/** Where the sticky comment is (inputs `comment-id`, `comment-author`) and whether there is one (`comment`). */
export interface CommandSettings {
  commentId: string;
  commentAuthor: string | null;
  readState: boolean;
}

interface PullData {
  state?: unknown;
  head?: { sha?: unknown };
  labels?: Array<{ name?: unknown }>;
}

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;
/** The first line of our replies to commands that were not taken: how an earlier reply is recognised. */
export const REPLY_MARKER = '<!-- evalverdict:command-reply -->';

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

interface CommandFacts {
  number: number;
  commentId: number;
  /** The command comment's `created_at`, GitHub's clock. */
  createdAt: string;
  login: string;
  isBot: boolean;
  parsed: ParsedCommand;
}

/** The command of an `issue_comment` event, or `none` for any other event. */
export async function takeCommentCommand(
  ctx: RunContext,
  session: GitHubSession | null,
  settings: CommandSettings,
): Promise<CommandOutcome> {
  if (ctx.eventName !== 'issue_comment') return { kind: 'none' };
  const issue = record(ctx.payload.issue);
  const comment = record(ctx.payload.comment);
  const user = record(comment?.user);
  const parsed = parseCommand(comment?.body);
  if (ctx.payload.action !== 'created' || !record(issue?.pull_request) || parsed.kind === 'none') {
    info('issue_comment: not an /evalverdict command on a pull request: nothing to do');
    return { kind: 'done', failures: [] };
  }
  const number = issue?.number;
  const login = typeof user?.login === 'string' ? user.login : '';
  const createdAt = typeof comment?.created_at === 'string' ? comment.created_at : '';
  if (typeof number !== 'number' || typeof comment?.id !== 'number' || login === '')
    return {
      kind: 'done',
      failures: ['EvalVerdict: the issue_comment event does not name its pull request, comment or author'],
    };
  if (!session)
    return { kind: 'done', failures: ['EvalVerdict: input `github-token` is empty: comment commands need it'] };
  const isBot = user?.type === 'Bot' || login.endsWith('[bot]');
  const facts: CommandFacts = { number, commentId: comment.id, createdAt, login, isBot, parsed };
  try {
    return await takeOrRefuse(ctx, session, settings, facts);
  } catch (error) {
    return { kind: 'done', failures: [`EvalVerdict: could not take the /evalverdict command: ${messageOf(error)}`] };
  }
}

/** Answers to a command that was not taken: a writer's reply, and an outsider's reaction with one reply a PR. */
function answers(ctx: RunContext, session: GitHubSession, settings: CommandSettings, c: CommandFacts) {
  const where = { owner: ctx.owner, repo: ctx.repo, issue_number: c.number };
  const post = async (why: string) => {
    const body = `${REPLY_MARKER}\nEvalVerdict did not take the command of @${escapeMarkdownText(c.login, 40)}: ${why}`;
    await session.untilDeadline(session.octokit.rest.issues.createComment({ ...where, body }));
  };
  const reply = async (why: string): Promise<CommandOutcome> => {
    info(`/evalverdict command not taken: ${oneLine(why)}`);
    await post(why);
    return { kind: 'done', failures: [] };
  };
  const outsider = async (why: string): Promise<CommandOutcome> => {
    info(`/evalverdict command not taken: ${oneLine(why)}`);
    await session.untilDeadline(
      session.octokit.rest.reactions.createForIssueComment({
        owner: ctx.owner,
        repo: ctx.repo,
        comment_id: c.commentId,
        content: '-1',
      }),
    );
    if (await repliedBefore(session, settings, where))
      info('an earlier reply on this pull request says why: no new one');
    else await post(why);
    return { kind: 'done', failures: [] };
  };
  return { reply, outsider };
}

/** Whether our login has replied to a command on this pull request before (its reply starts with REPLY_MARKER). */
async function repliedBefore(
  session: GitHubSession,
  settings: CommandSettings,
  where: { owner: string; repo: string; issue_number: number },
): Promise<boolean> {
  const octokit = session.octokit;
  const login = (await session.untilDeadline(ownLogin(octokit, settings.commentAuthor))).toLowerCase();
  const mine = (c: { body?: string | null; user?: { login?: string } | null }) =>
    typeof c.body === 'string' && c.body.startsWith(REPLY_MARKER) && c.user?.login?.toLowerCase() === login;
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, { ...where, per_page: 100 });
  let read = 0;
  for await (const page of pages) {
    if ((page.data as Array<{ body?: string | null }>).some(mine)) return true;
    // Bounded as the sticky comment's listing (MAX_COMMENT_PAGES): past it, reply again rather than read on.
    if (++read >= 100) return false;
  }
  return false;
}

/** The checks a command must pass (bot, permission, form, open pull request, the report seen), then the command. */
async function takeOrRefuse(
  ctx: RunContext,
  session: GitHubSession,
  settings: CommandSettings,
  c: CommandFacts,
): Promise<CommandOutcome> {
  const { number, login, parsed } = c;
  const { reply, outsider } = answers(ctx, session, settings, c);
  if (c.isBot) return await outsider('commands from bots are not taken.');
  const target: PullRequestTarget = {
    owner: ctx.owner,
    repo: ctx.repo,
    issueNumber: number,
    fromFork: false,
    byDependabot: false,
  };
  const permission = await permissionOf(session, target, login);
  info(`/evalverdict command by @${login}: ${permission.permission} permission (${permission.roleName ?? 'no role'})`);
  if (permission.permission !== 'admin' && permission.permission !== 'write')
    return await outsider(
      `it takes write, maintain or admin permission on the repository, and GitHub reports ${escapeMarkdownText(permission.permission, 40)}; nothing was changed.`,
    );
  if (parsed.kind === 'malformed')
    return await reply(`${escapeMarkdownText(parsed.problem, 120)}.\n\n${COMMAND_USAGE}`);
  const { data: pull } = (await session.untilDeadline(
    session.octokit.rest.pulls.get({ owner: ctx.owner, repo: ctx.repo, pull_number: number }),
  )) as { data: PullData };
  const headSha = pull.head?.sha;
  if (pull.state !== 'open') return await reply('the pull request is closed; nothing was changed.');
  if (typeof headSha !== 'string' || !SHA.test(headSha))
    return { kind: 'done', failures: [`EvalVerdict: GitHub did not name pull request #${number}'s head commit`] };
  if (parsed.kind === 'accept') {
    const unseen = await unseenHead(session, settings, target, c.createdAt, headSha);
    if (unseen) return await reply(unseen);
  }
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
    parsed.kind === 'accept'
      ? { by: login, commentId: c.commentId, gates: parsed.gates, reason: parsed.reason, permission }
      : null;
  // The API's pull request stands in for the payload's missing one: its base finds an artifact baseline.
  const payload = { ...ctx.payload, pull_request: pull as Record<string, unknown> };
  return { kind: 'taken', ctx: { ...ctx, sha: headSha, payload }, taken: { accept, labels } };
}

const short = (sha: string) => `\`${sha.slice(0, 7)}\``;

/**
 * Why an accept command may not accept the head commit: the report in our comment when the command was written was
 * not the head's (or there was none, or it was the error panel). Null: it was the head's report.
 */
async function unseenHead(
  session: GitHubSession,
  settings: CommandSettings,
  target: PullRequestTarget,
  createdAt: string,
  headSha: string,
): Promise<string | null> {
  const again = `Wait for the report of ${short(headSha)} in the EvalVerdict comment, read it, and comment again to accept it.`;
  if (!settings.readState)
    return 'accepting by comment needs the EvalVerdict comment (input `comment` is `never`); add the accept label instead.';
  const prior = await priorComment({ session, target, ...settings });
  const seen = prior.state && prior.updatedAt ? shownAt(prior.state, prior.updatedAt, createdAt) : null;
  if (!seen)
    return `no EvalVerdict report was on the pull request when the command was written; nothing was accepted. ${again}`;
  if (seen.kind === 'error')
    return `when the command was written, the EvalVerdict comment showed an error for ${short(seen.sha)}, not a report; nothing was accepted. ${again}`;
  if (seen.sha.toLowerCase() !== headSha.toLowerCase())
    return `the command was written under the report for ${short(seen.sha)}, but the head is now ${short(headSha)}; nothing was accepted. ${again}`;
  return null;
}
