/**
 * The sticky pull-request comment (src/publish/stickyComment.ts), in process: a fake GitHub client implementing only
 * what the module calls (paginate, issues.listComments / createComment / updateComment / deleteComment,
 * users.getAuthenticated) records every call, so each test asserts exactly which requests were made.
 */
import { describe, expect, it } from 'vitest';
import type { GitHubClient } from '../src/publish/githubClient.js';
import { isPermissionError, MalformedAnswerError } from '../src/publish/githubClient.js';
import type { IssueComment } from '../src/publish/stickyComment.js';
import { keepStateLine, stickyBody, stickyMarker, upsertStickyComment } from '../src/publish/stickyComment.js';

type Issues = GitHubClient['rest']['issues'];
type ListParams = NonNullable<Parameters<Issues['listComments']>[0]>;
type CreateParams = NonNullable<Parameters<Issues['createComment']>[0]>;
type UpdateParams = NonNullable<Parameters<Issues['updateComment']>[0]>;
type DeleteParams = NonNullable<Parameters<Issues['deleteComment']>[0]>;

type Call =
  | ['getAuthenticated']
  | ['listComments', ListParams]
  | ['createComment', CreateParams]
  | ['updateComment', UpdateParams]
  | ['deleteComment', DeleteParams];

interface FakeGitHub {
  /** The pull request's comments, oldest first; listComments serves them `per_page` at a time. */
  comments: IssueComment[];
  /** What GET /user answers: a login, or the error it throws. Absent: the test expects no such call. */
  login?: string | Error;
  createError?: Error;
  /** deleteComment errors by comment id. */
  deleteErrors?: Record<number, Error>;
}

const url = (id: number) => `https://github.com/o/r/pull/7#issuecomment-${id}`;

function fakeClient(fake: FakeGitHub): { client: GitHubClient; calls: Call[] } {
  const calls: Call[] = [];
  const listComments = async (params: ListParams) => {
    calls.push(['listComments', params]);
    const perPage = params.per_page ?? 30;
    const page = params.page ?? 1;
    return { data: fake.comments.slice((page - 1) * perPage, page * perPage) };
  };
  const client = {
    // octokit follows the Link header's rel="next"; GitHub sends one exactly while a page is full
    // and hands each page to the map function, as octokit.paginate does
    async paginate(
      method: typeof listComments,
      params: ListParams,
      map: (response: { data: IssueComment[]; url: string }) => IssueComment[] = (r) => r.data,
    ): Promise<IssueComment[]> {
      const all: IssueComment[] = [];
      for (let page = 1; ; page++) {
        const { data } = await method({ ...params, page });
        all.push(...map({ data, url: `https://api.github.com/repositories/1/issues/7/comments?page=${page}` }));
        if (data.length < (params.per_page ?? 30)) return all;
      }
    },
    rest: {
      users: {
        async getAuthenticated() {
          calls.push(['getAuthenticated']);
          if (fake.login === undefined) throw new Error('unexpected GET /user');
          if (fake.login instanceof Error) throw fake.login;
          return { data: { login: fake.login } };
        },
      },
      issues: {
        listComments,
        async createComment(params: CreateParams) {
          calls.push(['createComment', params]);
          if (fake.createError) throw fake.createError;
          return { data: { id: 900, html_url: url(900) } };
        },
        async updateComment(params: UpdateParams) {
          calls.push(['updateComment', params]);
          return { data: { id: params.comment_id, html_url: url(params.comment_id) } };
        },
        async deleteComment(params: DeleteParams) {
          calls.push(['deleteComment', params]);
          const error = fake.deleteErrors?.[params.comment_id];
          if (error) throw error;
          return { status: 204, data: undefined };
        },
      },
    },
  };
  return { client: client as unknown as GitHubClient, calls };
}

/** An octokit RequestError's shape: status, response headers and GitHub's message. */
function httpError(status: number, message: string, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { status, response: { headers, data: { message } } });
}

const marker = stickyMarker('evalverdict');
const comment = (id: number, login: string, body: string): IssueComment => ({
  id,
  body,
  html_url: url(id),
  user: { login, type: 'Bot' },
});
const ours = (id: number, text = 'old report', login = 'github-actions[bot]') =>
  comment(id, login, stickyBody(marker, text));
const request = { owner: 'o', repo: 'r', issueNumber: 7, marker, body: stickyBody(marker, 'new report') };
const page = (n: number): Call => ['listComments', { owner: 'o', repo: 'r', issue_number: 7, per_page: 100, page: n }];

describe('upsertStickyComment', () => {
  it('reads every page: ours, after 100 other comments (page 2), is updated, not duplicated', async () => {
    const others = Array.from({ length: 100 }, (_, i) => comment(i + 1, 'reviewer', 'lgtm'));
    const { client, calls } = fakeClient({ comments: [...others, ours(101)] });
    const result = await upsertStickyComment(client, { ...request, commentAuthor: 'github-actions[bot]' });
    // page 1 is full (100), so page 2 is read; it has 1 comment, so there is no page 3
    expect(calls).toEqual([
      page(1),
      page(2),
      ['updateComment', { owner: 'o', repo: 'r', comment_id: 101, body: request.body }],
    ]);
    expect(result).toEqual({ action: 'updated', comment: { id: 101, url: url(101) }, deleted: [] });
  });

  it('a marker comment by another login is not ours: left alone, and ours is created', async () => {
    // 5: the marker pasted by a person; 6: our login without the marker
    const { client, calls } = fakeClient({
      comments: [comment(5, 'someone', request.body), comment(6, 'my-app[bot]', 'hello')],
      login: 'my-app[bot]',
    });
    const result = await upsertStickyComment(client, request);
    // the login is asked for only because a marked comment exists
    expect(calls).toEqual([
      page(1),
      ['getAuthenticated'],
      ['createComment', { owner: 'o', repo: 'r', issue_number: 7, body: request.body }],
    ]);
    expect(result).toEqual({ action: 'created', comment: { id: 900, url: url(900) }, deleted: [] });
  });

  it('two of ours (a race): the oldest is updated, the newer deleted; logins match case-insensitively', async () => {
    // 10: another login's marker (untouched); 11 and 12: ours, 11 written as GitHub-Actions[bot]
    const { client, calls } = fakeClient({
      comments: [ours(10, 'old report', 'someone'), ours(11, 'old report', 'GitHub-Actions[bot]'), ours(12)],
    });
    const result = await upsertStickyComment(client, { ...request, commentAuthor: 'github-actions[bot]' });
    expect(calls).toEqual([
      page(1),
      ['updateComment', { owner: 'o', repo: 'r', comment_id: 11, body: request.body }],
      ['deleteComment', { owner: 'o', repo: 'r', comment_id: 12 }],
    ]);
    expect(result).toEqual({ action: 'updated', comment: { id: 11, url: url(11) }, deleted: [12] });
  });

  it('an unchanged body (GitHub hands it back with CRLF and a trailing newline) makes no update call', async () => {
    const { client, calls } = fakeClient({
      comments: [comment(11, 'github-actions[bot]', `${marker}\r\nnew report\r\n`)],
    });
    const result = await upsertStickyComment(client, { ...request, commentAuthor: 'github-actions[bot]' });
    // the same text modulo line ends: list only, no write
    expect(calls).toEqual([page(1)]);
    expect(result).toEqual({ action: 'unchanged', comment: { id: 11, url: url(11) }, deleted: [] });
  });
});

describe('403 and 404 from GitHub', () => {
  const forbidden = () => httpError(403, 'Resource not accessible by integration');

  it('GET /user refused with 403 (installation token): ours are the github-actions[bot] comments', async () => {
    // 20 is by the token's app, which GitHub will not name: not ours under the default login
    const { client, calls } = fakeClient({
      comments: [ours(20, 'old report', 'evalverdict-app[bot]'), ours(21)],
      login: forbidden(),
    });
    const result = await upsertStickyComment(client, request);
    expect(calls).toEqual([
      page(1),
      ['getAuthenticated'],
      ['updateComment', { owner: 'o', repo: 'r', comment_id: 21, body: request.body }],
    ]);
    expect(result).toEqual({ action: 'updated', comment: { id: 21, url: url(21) }, deleted: [] });
  });

  it('a rate-limited 403 on GET /user is thrown, not read as "GitHub will not say" (no write is made)', async () => {
    const limited = httpError(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' });
    const { client, calls } = fakeClient({ comments: [ours(21)], login: limited });
    await expect(upsertStickyComment(client, request)).rejects.toBe(limited);
    expect(calls).toEqual([page(1), ['getAuthenticated']]);
  });

  it('a 403 creating the comment surfaces unchanged, as the permission error the action warns about', async () => {
    const error = forbidden();
    const { client, calls } = fakeClient({ comments: [], createError: error });
    await expect(upsertStickyComment(client, request)).rejects.toBe(error);
    expect(isPermissionError(error)).toBe(true);
    expect(calls).toEqual([page(1), ['createComment', { owner: 'o', repo: 'r', issue_number: 7, body: request.body }]]);
  });

  it('deleting a duplicate: 404 (already gone) counts as deleted, 403 surfaces and stops', async () => {
    const three = [ours(11, 'new report'), ours(12), ours(13)];
    const gone = fakeClient({ comments: three, deleteErrors: { 12: httpError(404, 'Not Found') } });
    const result = await upsertStickyComment(gone.client, { ...request, commentAuthor: 'github-actions[bot]' });
    // 11 already has the new body: no update; 12 and 13 are both reported deleted
    expect(gone.calls).toEqual([
      page(1),
      ['deleteComment', { owner: 'o', repo: 'r', comment_id: 12 }],
      ['deleteComment', { owner: 'o', repo: 'r', comment_id: 13 }],
    ]);
    expect(result).toEqual({ action: 'unchanged', comment: { id: 11, url: url(11) }, deleted: [12, 13] });

    const error = forbidden();
    const denied = fakeClient({ comments: three, deleteErrors: { 12: error } });
    await expect(upsertStickyComment(denied.client, { ...request, commentAuthor: 'github-actions[bot]' })).rejects.toBe(
      error,
    );
    // 13 is not tried after the 403
    expect(denied.calls).toEqual([page(1), ['deleteComment', { owner: 'o', repo: 'r', comment_id: 12 }]]);
  });
});

describe('edge cases left by mutation testing', () => {
  const asOurs = { ...request, commentAuthor: 'github-actions[bot]' };

  it('GET /user login is used as-is (case-insensitively); a non-string login falls back to the default', async () => {
    const named = fakeClient({ comments: [ours(30, 'old report', 'my-app[bot]'), ours(31)], login: 'My-App[bot]' });
    expect(await upsertStickyComment(named.client, request)).toEqual({
      action: 'updated',
      comment: { id: 30, url: url(30) },
      deleted: [],
    });
    // 42: not a login; github-actions[bot] (31) is ours, my-app[bot] (30) is not
    const odd = fakeClient({
      comments: [ours(30, 'old report', 'my-app[bot]'), ours(31)],
      login: 42 as unknown as string,
    });
    expect(await upsertStickyComment(odd.client, request)).toEqual({
      action: 'updated',
      comment: { id: 31, url: url(31) },
      deleted: [],
    });
    expect(odd.calls).toEqual([
      page(1),
      ['getAuthenticated'],
      ['updateComment', { owner: 'o', repo: 'r', comment_id: 31, body: request.body }],
    ]);
  });

  it.each([401, 404])('GET /user %i: ours are the github-actions[bot] comments', async (status) => {
    const { client, calls } = fakeClient({ comments: [ours(31)], login: httpError(status, 'nope') });
    const result = await upsertStickyComment(client, request);
    expect(calls).toEqual([
      page(1),
      ['getAuthenticated'],
      ['updateComment', { owner: 'o', repo: 'r', comment_id: 31, body: request.body }],
    ]);
    expect(result).toEqual({ action: 'updated', comment: { id: 31, url: url(31) }, deleted: [] });
  });

  it('GET /user 500 is thrown, no write', async () => {
    const error = httpError(500, 'Server Error');
    const { client, calls } = fakeClient({ comments: [ours(31)], login: error });
    await expect(upsertStickyComment(client, request)).rejects.toBe(error);
    expect(calls).toEqual([page(1), ['getAuthenticated']]);
  });

  it('a null body, a deleted account (user null) and a marker not at the start are skipped, not ours', async () => {
    const { client, calls } = fakeClient({
      comments: [
        { id: 40, body: null, html_url: url(40), user: { login: 'github-actions[bot]' } },
        { id: 41, body: request.body, html_url: url(41), user: null },
        comment(42, 'github-actions[bot]', `quoted: ${request.body}`),
      ],
    });
    const result = await upsertStickyComment(client, asOurs);
    expect(calls).toEqual([page(1), ['createComment', { owner: 'o', repo: 'r', issue_number: 7, body: request.body }]]);
    expect(result).toEqual({ action: 'created', comment: { id: 900, url: url(900) }, deleted: [] });
  });

  it('a listed comment of ours without a usable id or html_url: an error naming the field, before any write', async () => {
    const bad = (fields: Partial<IssueComment>) => ({ ...ours(60), ...fields }) as IssueComment;
    for (const [fields, message] of [
      [{ id: '60' }, 'GitHub listed a comment whose `id` is "60", not a number'],
      [{ id: 2 ** 53 }, 'GitHub listed a comment whose `id` is 9007199254740992, not a number'],
      [{ id: undefined }, 'GitHub listed a comment whose `id` is missing, not a number'],
      [{ html_url: undefined }, 'GitHub listed comment 60 whose `html_url` is missing, not a URL'],
      [{ html_url: 7 }, 'GitHub listed comment 60 whose `html_url` is 7, not a URL'],
    ] as const) {
      const { client, calls } = fakeClient({ comments: [bad(fields as Partial<IssueComment>)] });
      await expect(upsertStickyComment(client, asOurs)).rejects.toThrow(new MalformedAnswerError(message));
      expect(calls).toEqual([page(1)]);
    }
  });

  it('a body that does not start with the marker is refused before any call', async () => {
    const { client, calls } = fakeClient({ comments: [] });
    await expect(upsertStickyComment(client, { ...request, body: `x${request.body}` })).rejects.toThrow(
      /^the sticky comment body must start with its marker$/,
    );
    expect(calls).toEqual([]);
  });

  it('createIfMissing false with none of ours: skipped, no create call', async () => {
    const { client, calls } = fakeClient({ comments: [comment(50, 'github-actions[bot]', 'hello')] });
    const result = await upsertStickyComment(client, { ...asOurs, createIfMissing: false });
    expect(calls).toEqual([page(1)]);
    expect(result).toEqual({ action: 'skipped', comment: null, deleted: [] });
  });

  it('stickyMarker refuses an id that cannot go into an HTML comment, naming it', () => {
    expect(() => stickyMarker('a b')).toThrow(/^comment id "a b" cannot go into an HTML comment marker$/);
    expect(() => stickyMarker('')).toThrow(/^comment id "" cannot go into an HTML comment marker$/);
    expect(() => stickyMarker('x-->')).toThrow(/^comment id "x-->" cannot go into an HTML comment marker$/);
  });

  it('stickyMarker takes any id without white space or `-->` (called in a test: the one above the suite runs at load)', () => {
    expect(stickyMarker('pr-report.v2')).toBe('<!-- evalverdict:comment-id=pr-report.v2 -->');
    expect(stickyMarker('a->b')).toBe('<!-- evalverdict:comment-id=a->b -->');
  });

  it('keepStateLine: a final line with a carriage return inside is no state line, and is not carried', () => {
    const line = '<!-- evalverdict:acceptance-state eyJ2IjoxfQ== -->';
    expect(keepStateLine(`M\nold\n${line.replace(' -->', '\r -->')}\n`, 'M\nnew\n')).toBe('M\nnew\n');
    expect(keepStateLine(`M\nold\n${line}\r\n`, 'M\nnew\n')).toBe(`M\nnew\n${line}\n`);
    // The new body's own final line is read the same way: a broken one is text, and the old state line follows it.
    expect(keepStateLine(`M\n${line}\n`, `M\n${line.replace('==', '=\r=')}`)).toBe(
      `M\n${line.replace('==', '=\r=')}\n${line}\n`,
    );
  });
});
