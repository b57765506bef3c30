/**
 * One sticky comment per pull request and comment id. Ours is recognised by a hidden marker at the very
 * start of the body AND by its author:
 *
 *   - the body starts with `<!-- evalgate:comment-id=ID -->` (ID = the `comment-id` input), and
 *   - the author is a bot (`user.type` is `Bot`: `github-actions[bot]` for GITHUB_TOKEN, `NAME[bot]` for a
 *     GitHub App token), or the author's login is the token's own login (a personal access token; asked of
 *     GET /user only when a marked comment by a non-bot exists: installation tokens get 403 there, and then
 *     only bot comments count).
 *
 * So a person who pastes the marker into a comment never has it overwritten or deleted. Every page of the
 * pull request's comments is read. The first (oldest) of ours is updated in place, only when its body
 * differs; any further ones (left by an old bug or a race) are deleted; a new one is created only when none
 * exists and the caller allows it. Pure of @actions/core: the client is a parameter, errors are thrown.
 */
import type { GitHubClient } from './client.js';
import { httpStatusOf } from './client.js';

export interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
  user: { login: string; type?: string } | null;
}

export interface StickyCommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** From stickyMarker(). */
  marker: string;
}

export interface UpsertRequest extends StickyCommentTarget {
  /** The whole comment body; must start with the marker. */
  body: string;
  /** Create a comment when none of ours exists (an existing one is always brought up to date). Default true. */
  createIfMissing?: boolean;
}

export interface UpsertResult {
  action: 'created' | 'updated' | 'unchanged' | 'skipped';
  /** The sticky comment after the call; null when skipped. */
  comment: { id: number; url: string } | null;
  /** Duplicate comments of ours that were deleted. */
  deleted: number[];
}

export function stickyMarker(commentId: string): string {
  if (/-->|\s/.test(commentId) || commentId === '') throw new Error(`comment id ${JSON.stringify(commentId)} cannot go into an HTML comment marker`);
  return `<!-- evalgate:comment-id=${commentId} -->`;
}

/** The comment body: the marker on the first line, then the report. */
export function stickyBody(marker: string, markdown: string): string {
  return `${marker}\n${markdown}`;
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
    if (status === 401 || status === 403 || status === 404) return null;
    throw error;
  }
}

/** Our comments on the pull request, oldest first (the order GitHub lists them in). */
export async function findStickyComments(octokit: GitHubClient, target: StickyCommentTarget): Promise<IssueComment[]> {
  const all = await octokit.paginate(octokit.rest.issues.listComments, {
    owner: target.owner, repo: target.repo, issue_number: target.issueNumber, per_page: 100,
  });
  const marked = (all as IssueComment[]).filter((c) => typeof c.body === 'string' && c.body.startsWith(target.marker));
  let login: string | null | undefined;
  const ours: IssueComment[] = [];
  for (const comment of marked) {
    if (comment.user?.type === 'Bot') {
      ours.push(comment);
      continue;
    }
    if (login === undefined) login = await authenticatedLogin(octokit);
    if (login !== null && comment.user?.login === login) ours.push(comment);
  }
  return ours;
}

export async function upsertStickyComment(octokit: GitHubClient, request: UpsertRequest): Promise<UpsertResult> {
  const { owner, repo, issueNumber, marker, body } = request;
  if (!body.startsWith(marker)) throw new Error('the sticky comment body must start with its marker');
  const ours = await findStickyComments(octokit, request);
  if (ours.length === 0) {
    if (request.createIfMissing === false) return { action: 'skipped', comment: null, deleted: [] };
    const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { action: 'created', comment: { id: data.id, url: data.html_url }, deleted: [] };
  }
  const [first, ...duplicates] = ours;
  let action: UpsertResult['action'] = 'unchanged';
  let url = first.html_url;
  if (normalise(first.body) !== normalise(body)) {
    const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: first.id, body });
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
