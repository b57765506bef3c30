/**
 * One sticky comment per pull request and comment id. Ours starts with the hidden marker
 * `<!-- evalverdict:comment-id=ID -->` AND is written by the login EvalVerdict writes as (see ownLogin), so a marker
 * pasted by a person or another bot is never overwritten or deleted. Every page of comments is read; the oldest of
 * ours is updated (only when its body differs), further ones (a race) are deleted, and one is created only when
 * none exists and the caller allows it. No @actions/core: the client is a parameter, errors are thrown.
 */
import { stateLineOf } from '../acceptance/state.js';
import type { GitHubClient } from './githubClient.js';
import { MalformedAnswerError, httpStatusOf, isRateLimitError } from './githubClient.js';

export interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
  user: { login: string; type?: string } | null;
  /** When the body was last written, by GitHub's clock. */
  updated_at?: string;
}

export interface StickyCommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** From stickyMarker(). */
  marker: string;
  /**
   * The login our comments are written by (e.g. `my-app[bot]` for a GitHub App token). Null or absent: the
   * token's own login from GET /user, or DEFAULT_COMMENT_AUTHOR when GitHub will not say.
   */
  commentAuthor?: string | null;
}

/** The author of comments made with a workflow's GITHUB_TOKEN. */
export const DEFAULT_COMMENT_AUTHOR = 'github-actions[bot]';

export interface UpsertRequest extends StickyCommentTarget {
  /** The whole comment body; must start with the marker. */
  body: string;
  /** Create a comment when none of ours exists (an existing one is always brought up to date). Default true. */
  createIfMissing?: boolean;
  /**
   * Our comments as findStickyComments is listing them for an earlier step of this run: awaited, not listed again
   * (a listing that failed fails here the same way, once).
   */
  listed?: Promise<IssueComment[]> | null;
}

/**
 * A new body without a state line keeps the one of the comment it replaces (an error panel written past the
 * publish deadline must not erase the pull request's acceptance history). Only final lines count, in both.
 */
export function keepStateLine(previous: string | null | undefined, body: string): string {
  if (stateLineOf(body)) return body;
  const line = stateLineOf(previous);
  return line ? `${body.replace(/\n*$/, '\n')}${line}\n` : body;
}

export interface UpsertResult {
  action: 'created' | 'updated' | 'unchanged' | 'skipped';
  /** The sticky comment after the call; null when skipped. */
  comment: { id: number; url: string } | null;
  /** Duplicate comments of ours that were deleted. */
  deleted: number[];
}

export function stickyMarker(commentId: string): string {
  if (/-->|\s/.test(commentId) || commentId === '')
    throw new Error(`comment id ${JSON.stringify(commentId)} cannot go into an HTML comment marker`);
  return `<!-- evalverdict:comment-id=${commentId} -->`;
}

/**
 * The comment body: the marker on the first line, then the report, then the state line (if any) as the final line.
 * The report cannot open an HTML comment: its every `<!--` is written `&lt;!--` (escaped text has none; this holds
 * for whatever a future renderer lets through), so only the marker and the state line are hidden lines.
 */
export function stickyBody(marker: string, markdown: string, stateLine = ''): string {
  const report = markdown.replace(/<!--/g, '&lt;!--');
  return stateLine ? `${marker}\n${report.replace(/\n*$/, '\n')}${stateLine}\n` : `${marker}\n${report}`;
}

/** GitHub may hand a body back with CRLF line ends or without the trailing newline. */
function normalise(body: string | null | undefined): string {
  return (body ?? '').replace(/\r\n/g, '\n').trimEnd();
}

/** The token's own login, or null when GitHub will not say (installation tokens: 403 on GET /user). */
async function authenticatedLogin(octokit: GitHubClient): Promise<string | null> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return typeof data.login === 'string' ? data.login : null;
  } catch (error) {
    const status = httpStatusOf(error);
    if ((status === 401 || status === 403 || status === 404) && !isRateLimitError(error)) return null;
    throw error;
  }
}

/** The login our comments are written by: the caller's, the token's own, or GITHUB_TOKEN's bot. */
export async function ownLogin(octokit: GitHubClient, commentAuthor: string | null | undefined): Promise<string> {
  if (commentAuthor) return commentAuthor;
  return (await authenticatedLogin(octokit)) ?? DEFAULT_COMMENT_AUTHOR;
}

/** Pages of comments read at most (10,000 comments): past it the pull request's comments are refused. */
export const MAX_COMMENT_PAGES = 100;

/**
 * Our comments on the pull request, oldest first (the order GitHub lists them in). Only our marked comments are
 * kept page by page; a `rel="next"` that leads back to a page already read, or more than MAX_COMMENT_PAGES
 * pages, is an error rather than a loop.
 */
export async function findStickyComments(octokit: GitHubClient, target: StickyCommentTarget): Promise<IssueComment[]> {
  const seen = new Set<string>();
  const marked = (await octokit.paginate(
    octokit.rest.issues.listComments,
    { owner: target.owner, repo: target.repo, issue_number: target.issueNumber, per_page: 100 },
    (response) => {
      const page = String(response.url ?? '');
      if (page !== '' && seen.has(page))
        throw new MalformedAnswerError(
          `GitHub's comment pages loop: rel="next" leads back to ${page.replace(/\?.*$/, '')} (a page already read)`,
        );
      seen.add(page);
      if (seen.size > MAX_COMMENT_PAGES)
        throw new MalformedAnswerError(
          `pull request #${target.issueNumber} has more than ${MAX_COMMENT_PAGES} pages of comments: not read further`,
        );
      if (!Array.isArray(response.data))
        throw new MalformedAnswerError('GitHub listed the comments as something other than a list');
      return (response.data as unknown as IssueComment[]).filter(
        (c) => typeof c?.body === 'string' && c.body.startsWith(target.marker),
      );
    },
  )) as IssueComment[];
  for (const c of marked) checkComment(c);
  if (marked.length === 0) return [];
  // GitHub logins are case-insensitive.
  const login = (await ownLogin(octokit, target.commentAuthor)).toLowerCase();
  return marked.filter((c) => typeof c.user?.login === 'string' && c.user.login.toLowerCase() === login);
}

/** A comment we may update or delete must say which it is: a clear error naming the field, not a crash. */
function checkComment(c: IssueComment): void {
  if (typeof c.id !== 'number' || !Number.isSafeInteger(c.id))
    throw new MalformedAnswerError(
      `GitHub listed a comment whose \`id\` is ${JSON.stringify(c.id) ?? 'missing'}, not a number`,
    );
  if (typeof c.html_url !== 'string')
    throw new MalformedAnswerError(
      `GitHub listed comment ${c.id} whose \`html_url\` is ${JSON.stringify(c.html_url) ?? 'missing'}, not a URL`,
    );
}

export async function upsertStickyComment(octokit: GitHubClient, request: UpsertRequest): Promise<UpsertResult> {
  const { owner, repo, issueNumber, marker, body } = request;
  if (!body.startsWith(marker)) throw new Error('the sticky comment body must start with its marker');
  const ours = await (request.listed ?? findStickyComments(octokit, request));
  if (ours.length === 0) {
    if (request.createIfMissing === false) return { action: 'skipped', comment: null, deleted: [] };
    const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { action: 'created', comment: { id: data.id, url: data.html_url }, deleted: [] };
  }
  const [first, ...duplicates] = ours;
  let action: UpsertResult['action'] = 'unchanged';
  let url = first.html_url;
  const kept = keepStateLine(first.body, body);
  if (normalise(first.body) !== normalise(kept)) {
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: first.id, body: kept });
    action = 'updated';
    url = data.html_url;
  }
  const deleted: number[] = [];
  for (const duplicate of duplicates) {
    try {
      await octokit.rest.issues.deleteComment({ owner, repo, comment_id: duplicate.id });
    } catch (error) {
      if (httpStatusOf(error) !== 404) throw error; // already gone
    }
    deleted.push(duplicate.id);
  }
  return { action, comment: { id: first.id, url }, deleted };
}
