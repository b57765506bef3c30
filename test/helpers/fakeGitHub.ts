/**
 * A stand-in for GitHub's REST API on 127.0.0.1, for running the bundled action end to end: issue comments
 * (list with per_page/page and Link headers, create, update, delete) and GET /user, answering as GitHub
 * does, recording every request.
 *
 * It is kept honest in two ways:
 *   - Shapes come from GitHub's own records. @octokit/fixtures (responses recorded from api.github.com) gives
 *     the response headers, the user object, the error bodies and the Link header format, including GitHub's
 *     habit of linking later pages through /repositories/{id}/...; it has no recorded issue-comment scenario,
 *     so the comment object's fields are those of GitHub's published example in @octokit/openapi
 *     (components.examples["issue-comment"]), checked against the schema.
 *   - checkRequest() / checkResponse() validate every recorded request (method, path template, path and
 *     query parameters, JSON body against the operation's requestBody schema) and every response body
 *     against GitHub's published OpenAPI description (@octokit/openapi, api.github.com.json). A request to
 *     a path or method GitHub does not have is a problem, so a test fails when the action or this stand-in
 *     drifts from the real API.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------------
// GitHub's recorded responses (@octokit/fixtures) and published OpenAPI description (@octokit/openapi)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface RecordedFixture {
  method: string;
  path: string;
  status: number;
  response: Json;
  headers: Record<string, string | number>;
}

function recordedScenario(name: string): RecordedFixture[] {
  const file = require.resolve(`@octokit/fixtures/scenarios/api.github.com/${name}/normalized-fixture.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as RecordedFixture[];
}

const recorded = (() => {
  const issueCreate = recordedScenario('add-labels-to-issue').find(
    (f) => f.method === 'post' && f.path.endsWith('/issues'),
  );
  const paginate = recordedScenario('paginate-issues');
  const validation = recordedScenario('errors').find((f) => f.status === 422);
  if (!issueCreate || paginate.length < 3 || !validation)
    throw new Error('@octokit/fixtures: the recorded scenarios this stand-in copies are missing');
  const user = (issueCreate.response as JsonObject).user as JsonObject;
  // Response headers GitHub sends with every JSON answer (per-response ones are set per request).
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(issueCreate.headers)) {
    if (
      ![
        'content-length',
        'date',
        'connection',
        'location',
        'etag',
        'link',
        'x-ratelimit-reset',
        'x-ratelimit-remaining',
        'x-ratelimit-used',
      ].includes(k)
    )
      headers[k] = String(v);
  }
  return {
    user,
    headers,
    middlePageLink: String(paginate[1].headers.link),
    validationError: validation.response as JsonObject,
  };
})();

export interface OpenApiSpec {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

let specCache: OpenApiSpec | null = null;

/** GitHub's OpenAPI description of api.github.com (13 MB of JSON; read once). */
export function loadGitHubOpenApi(): OpenApiSpec {
  if (!specCache) {
    const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
    specCache = JSON.parse(readFileSync(file, 'utf8')) as OpenApiSpec;
  }
  return specCache;
}

function exampleIssueComment(): JsonObject {
  const spec = loadGitHubOpenApi();
  const example = (spec.components.examples['issue-comment'] as { value: JsonObject }).value;
  return structuredClone(example);
}

// ---------------------------------------------------------------------------------------------------------
// The server

export interface Account {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

/** The author of comments made with a workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_BOT: Account = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. /repos/o/r/issues/1/comments. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  status: number;
  response: unknown;
  responseHeaders: Record<string, string>;
}

export interface Fault {
  method: string;
  /** Matched against the request path. */
  path: RegExp;
  status: number;
  body?: JsonObject;
  headers?: Record<string, string>;
  /** How many matching requests get this answer (default 1). */
  times?: number;
  /** Answer only after this many milliseconds; Infinity: accept the request and never answer. */
  delayMs?: number;
  /** Send these bytes as the body instead of `body` as JSON (with a JSON content type: malformed JSON). */
  rawBody?: string;
}

interface Repository {
  id: number;
  owner: string;
  name: string;
}

/** An issue comment as the stand-in stores and serves it (GitHub's full shape; the fields tests read typed). */
export type StoredComment = JsonObject & {
  id: number;
  body: string;
  html_url: string;
  user: JsonObject & { login: string; type: string };
};

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  /** The account behind the token: GITHUB_TOKEN comments as github-actions[bot]. */
  author: Account = GITHUB_ACTIONS_BOT;
  /** What GET /user returns; null = 403 as for an installation token (GITHUB_TOKEN, GitHub App). */
  viewer: Account | null = null;
  /** Writes answer 403 "Resource not accessible by integration", as with a fork pull request's token. */
  readOnly = false;
  private readonly comments = new Map<string, JsonObject[]>();
  /** Commit statuses by `owner/repo@sha`, oldest first, as POST /repos/{o}/{r}/statuses/{sha} made them. */
  private readonly commitStatuses = new Map<string, JsonObject[]>();
  private nextStatusId = 1;
  private readonly repositories = new Map<string, Repository>();
  /** Repository permissions by login (lower case), as GET .../collaborators/{username}/permission answers. */
  private readonly permissions = new Map<string, { account: Account; permission: string; roleName: string }>();
  private faults: Fault[] = [];
  private nextCommentId = 1000;
  private readonly commentReactions = new Map<number, string[]>();
  /** Issue events (GET .../issues/{n}/events) by `owner/repo#n`, oldest first. */
  private readonly issueEvents = new Map<string, JsonObject[]>();
  private nextEventId = 5000;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGitHub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGitHub(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      void fake.handle(req, res);
    });
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Forget comments, requests, faults and settings. */
  reset(): void {
    this.requests.length = 0;
    this.comments.clear();
    this.commitStatuses.clear();
    this.permissions.clear();
    this.commentReactions.clear();
    this.issueEvents.clear();
    this.nextEventId = 5000;
    this.nextStatusId = 1;
    this.faults = [];
    this.author = GITHUB_ACTIONS_BOT;
    this.viewer = null;
    this.readOnly = false;
    this.nextCommentId = 1000;
    this.resetActions();
  }

  /** The statuses set on a commit, oldest first. */
  statuses(owner: string, repo: string, sha: string): JsonObject[] {
    return this.commitStatuses.get(`${owner}/${repo}@${sha}`) ?? [];
  }

  /**
   * A user's permission on the repositories (`admin`, `write`, `read`, `none`; role `maintain` has `write`), as
   * GET /repos/{o}/{r}/collaborators/{username}/permission answers; an unknown login answers 404.
   */
  setPermission(account: Account, permission: string, roleName = permission): void {
    this.permissions.set(account.login.toLowerCase(), { account, permission, roleName });
  }

  /** A `labeled` (or `unlabeled`) event on an issue or pull request, as GET .../issues/{n}/events lists it. */
  addLabelEvent(
    owner: string,
    repo: string,
    issueNumber: number,
    label: string,
    actor: Account,
    event: 'labeled' | 'unlabeled' = 'labeled',
  ): void {
    const id = this.nextEventId++;
    const key = `${owner}/${repo}#${issueNumber}`;
    const entry: JsonObject = {
      id,
      node_id: Buffer.from(`012:LabeledEvent${id}`).toString('base64'),
      url: `${this.url}/repos/${owner}/${repo}/issues/events/${id}`,
      actor: this.userObject(actor),
      event,
      commit_id: null,
      commit_url: null,
      created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      performed_via_github_app: null,
      label: { name: label, color: 'ededed' },
    };
    this.issueEvents.set(key, [...(this.issueEvents.get(key) ?? []), entry]);
  }

  /** Forget the recorded requests only. */
  clearRequests(): void {
    this.requests.length = 0;
  }

  inject(fault: Fault): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** The comments of an issue or pull request as GitHub would list them (oldest first). */
  listComments(owner: string, repo: string, issueNumber: number): StoredComment[] {
    return structuredClone(this.comments.get(`${owner}/${repo}#${issueNumber}`) ?? []) as StoredComment[];
  }

  /** Adds a comment as if `author` had written it earlier. */
  /** `at`: its created_at and updated_at (default: now). */
  addComment(
    owner: string,
    repo: string,
    issueNumber: number,
    body: string,
    author: Account,
    at?: string,
  ): StoredComment {
    const comment = this.insertComment(owner, repo, issueNumber, body, author);
    if (at !== undefined) Object.assign(comment, { created_at: at, updated_at: at });
    return structuredClone(comment) as StoredComment;
  }

  private repository(owner: string, name: string): Repository {
    const key = `${owner}/${name}`.toLowerCase();
    let repo = this.repositories.get(key);
    if (!repo) {
      repo = { id: 1000 + this.repositories.size, owner, name };
      this.repositories.set(key, repo);
    }
    return repo;
  }

  private userObject(account: Account): JsonObject {
    const user = structuredClone(recorded.user);
    const old = String(user.login);
    for (const [k, v] of Object.entries(user))
      if (typeof v === 'string') user[k] = v.split(old).join(encodeURIComponent(account.login));
    user.login = account.login;
    user.id = account.id;
    user.type = account.type;
    user.avatar_url = `https://avatars.githubusercontent.com/u/${account.id}?v=4`;
    if (account.type === 'Bot') user.html_url = `https://github.com/apps/${account.login.replace(/\[bot\]$/, '')}`;
    return user;
  }

  private insertComment(owner: string, repo: string, issueNumber: number, body: string, author: Account): JsonObject {
    const id = this.nextCommentId++;
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const comment = exampleIssueComment();
    Object.assign(comment, {
      id,
      node_id: Buffer.from(`012:IssueComment${id}`).toString('base64'),
      url: `${this.url}/repos/${owner}/${repo}/issues/comments/${id}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${issueNumber}#issuecomment-${id}`,
      body,
      user: this.userObject(author),
      created_at: now,
      updated_at: now,
      issue_url: `${this.url}/repos/${owner}/${repo}/issues/${issueNumber}`,
      author_association: author.type === 'Bot' ? 'NONE' : 'MEMBER',
    });
    const key = `${owner}/${repo}#${issueNumber}`;
    this.comments.set(key, [...(this.comments.get(key) ?? []), comment]);
    return comment;
  }

  private findComment(owner: string, repo: string, id: number): { list: JsonObject[]; index: number } | null {
    const prefix = `${owner}/${repo}#`;
    for (const [key, list] of this.comments) {
      if (!key.startsWith(prefix)) continue;
      const index = list.findIndex((c) => c.id === id);
      if (index >= 0) return { list, index };
    }
    return null;
  }

  /** The reactions made on a comment (content only), oldest first. */
  reactions(commentId: number): string[] {
    return this.commentReactions.get(commentId) ?? [];
  }

  /** POST .../issues/comments/{id}/reactions: GitHub's published example reaction, by the token's account. */
  private addReaction(owner: string, repo: string, commentId: number, input: unknown): Answer {
    if (!this.findComment(owner, repo, commentId))
      return this.error(404, 'Not Found', 'reactions/reactions#create-reaction-for-an-issue-comment');
    if (this.readOnly)
      return this.error(
        403,
        'Resource not accessible by integration',
        'reactions/reactions#create-reaction-for-an-issue-comment',
      );
    const content = (input as { content?: unknown } | undefined)?.content;
    const allowed = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
    if (typeof content !== 'string' || !allowed.includes(content))
      return { status: 422, body: { ...recorded.validationError, message: 'Validation Failed' } };
    this.commentReactions.set(commentId, [...this.reactions(commentId), content]);
    const value = structuredClone((loadGitHubOpenApi().components.examples.reaction as { value: JsonObject }).value);
    return { status: 201, body: { ...value, id: 7000 + commentId, content, user: this.userObject(this.author) } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: undefined,
      status: 0,
      response: null,
      responseHeaders: {},
    };
    this.requests.push(record);
    let answer: Answer;
    try {
      record.body = raw === '' ? undefined : JSON.parse(raw);
      answer = this.route(record, url);
    } catch (error) {
      answer = {
        status: 400,
        body: {
          message: `Problems parsing JSON (${(error as Error).message})`,
          documentation_url: 'https://docs.github.com/rest',
          status: '400',
        },
      };
    }
    const delayMs = answer.fault?.delayMs ?? 0;
    if (delayMs === Number.POSITIVE_INFINITY) return; // accepted, never answered (close() drops the connection)
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    record.status = answer.status;
    record.response = answer.fault?.rawBody ?? answer.body ?? null;
    if (answer.raw) {
      // Bytes from the artifact storage host: no API headers.
      record.responseHeaders = { 'content-type': 'application/zip', 'content-length': String(answer.raw.length) };
      res.writeHead(answer.status, record.responseHeaders);
      res.end(answer.raw);
      return;
    }
    const text = answer.fault?.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    const reset = Math.floor(Date.now() / 1000) + 3600;
    record.responseHeaders = {
      ...recorded.headers,
      'x-ratelimit-remaining': '4990',
      'x-ratelimit-used': '10',
      'x-ratelimit-reset': String(reset),
      'x-github-request-id': `0000:${this.requests.length}`,
      ...(text || answer.fault?.rawBody !== undefined
        ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) }
        : { 'content-length': '0' }),
      ...answer.headers,
    };
    res.writeHead(answer.status, record.responseHeaders);
    res.end(text);
  }

  private error(status: number, message: string, docs: string): { status: number; body: JsonObject } {
    return {
      status,
      body: { message, documentation_url: `https://docs.github.com/rest/${docs}`, status: String(status) },
    };
  }

  private route(record: RecordedRequest, url: URL): Answer {
    const { method, path } = record;
    const fault = this.faults.find((f) => f.method === method && f.path.test(path) && (f.times ?? 1) > 0);
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      return { status: fault.status, body: fault.body ?? { message: 'Server Error' }, headers: fault.headers, fault };
    }
    if (path.startsWith(STORAGE_PREFIX)) return this.storageAnswer(record);
    if (!record.headers.authorization)
      return this.error(401, 'Requires authentication', 'overview/resources-in-the-rest-api#authentication');

    if (method === 'GET' && path === '/user') {
      if (!this.viewer)
        return this.error(403, 'Resource not accessible by integration', 'users/users#get-the-authenticated-user');
      return {
        status: 200,
        body: {
          ...this.userObject(this.viewer),
          user_view_type: 'public',
          name: null,
          company: null,
          blog: '',
          location: null,
          email: null,
          hireable: null,
          bio: null,
          twitter_username: null,
          public_repos: 0,
          public_gists: 0,
          followers: 0,
          following: 0,
          created_at: '2017-10-10T16:00:00Z',
          updated_at: '2017-10-10T16:00:00Z',
        },
      };
    }

    // GitHub answers /repositories/{id}/... like /repos/{owner}/{repo}/... (and uses it in Link headers).
    let m = /^\/repositories\/(\d+)(\/.*)$/.exec(path);
    let owner: string;
    let repo: string;
    let rest: string;
    if (m) {
      const found = [...this.repositories.values()].find((r) => r.id === Number(m![1]));
      if (!found) return this.error(404, 'Not Found', 'repos/repos#get-a-repository');
      ({ owner, name: repo } = found);
      rest = m[2];
    } else {
      m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)$/.exec(path);
      if (!m) return this.error(404, 'Not Found', 'rest');
      [, owner, repo, rest] = m;
    }
    const repository = this.repository(owner, repo);

    m = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (m) {
      const issueNumber = Number(m[1]);
      if (method === 'GET') {
        const all = this.comments.get(`${owner}/${repo}#${issueNumber}`) ?? [];
        const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
        const last = Math.max(1, Math.ceil(all.length / perPage));
        const link = (p: number) =>
          `<${this.url}/repositories/${repository.id}/issues/${issueNumber}/comments?per_page=${perPage}&page=${p}>`;
        // Same relations, order and form as GitHub's recorded Link header (paginate-issues fixture).
        const rels: string[] = [];
        if (page > 1) rels.push(`${link(page - 1)}; rel="prev"`);
        if (page < last) rels.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
        if (page > 1) rels.push(`${link(1)}; rel="first"`);
        return {
          status: 200,
          body: all.slice((page - 1) * perPage, page * perPage),
          headers: rels.length ? { link: rels.join(', ') } : {},
        };
      }
      if (method === 'POST') {
        if (this.readOnly)
          return this.error(403, 'Resource not accessible by integration', 'issues/comments#create-an-issue-comment');
        const body = (record.body as { body?: unknown } | undefined)?.body;
        if (typeof body !== 'string')
          return {
            status: 422,
            body: { ...recorded.validationError, message: 'Invalid request.\n\n"body" wasn\'t supplied.' },
          };
        if (body.length > 65536)
          return {
            status: 422,
            body: {
              ...recorded.validationError,
              message: 'Validation Failed',
              errors: [
                {
                  resource: 'IssueComment',
                  code: 'custom',
                  field: 'body',
                  message: 'body is too long (maximum is 65536 characters)',
                },
              ],
            },
          };
        const comment = this.insertComment(owner, repo, issueNumber, body, this.author);
        return { status: 201, body: comment, headers: { location: String(comment.url) } };
      }
      return this.error(404, 'Not Found', 'issues/comments');
    }

    m = /^\/issues\/(\d+)\/events$/.exec(rest);
    if (m && method === 'GET') {
      const all = this.issueEvents.get(`${owner}/${repo}#${Number(m[1])}`) ?? [];
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link = (p: number) =>
        `<${this.url}/repositories/${repository.id}/issues/${m![1]}/events?per_page=${perPage}&page=${p}>`;
      const rels = page < last ? [`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`] : [];
      return {
        status: 200,
        body: all.slice((page - 1) * perPage, page * perPage),
        headers: rels.length ? { link: rels.join(', ') } : {},
      };
    }

    m = /^\/collaborators\/([^/]+)\/permission$/.exec(rest);
    if (m && method === 'GET') {
      const known = this.permissions.get(decodeURIComponent(m[1]).toLowerCase());
      if (!known)
        return this.error(404, 'Not Found', 'collaborators/collaborators#get-repository-permissions-for-a-user');
      // GitHub's published example, with the user and the permission set.
      const spec = loadGitHubOpenApi();
      const example = 'repository-collaborator-permission-response-if-user-has-admin-permissions';
      const value = structuredClone((spec.components.examples[example] as { value: JsonObject }).value);
      const user = { ...(value.user as JsonObject), ...this.userObject(known.account), role_name: known.roleName };
      return { status: 200, body: { ...value, permission: known.permission, role_name: known.roleName, user } };
    }

    m = /^\/statuses\/([0-9a-f]{40})$/.exec(rest);
    if (m && method === 'POST') {
      if (this.readOnly) return this.error(403, 'Resource not accessible by integration', 'commits/statuses');
      const input = record.body as { state?: unknown; description?: unknown; target_url?: unknown; context?: unknown };
      if (!['error', 'failure', 'pending', 'success'].includes(String(input?.state)))
        return { status: 422, body: { ...recorded.validationError, message: 'Validation Failed' } };
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const id = this.nextStatusId++;
      const status: JsonObject = {
        url: `${this.url}/repos/${owner}/${repo}/statuses/${m[1]}`,
        avatar_url: null,
        id,
        node_id: `SC_${id}`,
        state: String(input.state),
        description: typeof input.description === 'string' ? input.description : null,
        target_url: typeof input.target_url === 'string' ? input.target_url : null,
        context: typeof input.context === 'string' ? input.context : 'default',
        created_at: now,
        updated_at: now,
        creator: this.userObject(this.author),
      };
      const key = `${owner}/${repo}@${m[1]}`;
      this.commitStatuses.set(key, [...this.statuses(owner, repo, m[1]), status]);
      return { status: 201, body: status, headers: { location: String(status.url) } };
    }

    m = /^\/issues\/comments\/(\d+)\/reactions$/.exec(rest);
    if (m && method === 'POST') return this.addReaction(owner, repo, Number(m[1]), record.body);

    m = /^\/issues\/comments\/(\d+)$/.exec(rest);
    if (m) {
      const found = this.findComment(owner, repo, Number(m[1]));
      if (!found) return this.error(404, 'Not Found', 'issues/comments');
      if (method === 'GET') return { status: 200, body: found.list[found.index] };
      if (this.readOnly) return this.error(403, 'Resource not accessible by integration', 'issues/comments');
      if (method === 'PATCH') {
        const body = (record.body as { body?: unknown } | undefined)?.body;
        if (typeof body !== 'string')
          return {
            status: 422,
            body: { ...recorded.validationError, message: 'Invalid request.\n\n"body" wasn\'t supplied.' },
          };
        const comment = found.list[found.index];
        comment.body = body;
        comment.updated_at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
        return { status: 200, body: comment };
      }
      if (method === 'DELETE') {
        found.list.splice(found.index, 1);
        return { status: 204 };
      }
    }
    const actions = method === 'GET' ? this.routeActions(url, owner, repo, rest, repository) : null;
    if (actions) return actions;
    return this.error(404, 'Not Found', 'rest');
  }

  // -------------------------------------------------------------------------------------------------------
  // Actions: workflow runs, their artifacts (zips behind a 302 to a storage path), commits and compare, for
  // `baseline: artifact:NAME` (issue 23). Shapes are GitHub's published examples with the fields that matter set.

  private actionsState = newActionsState();

  /** A commit of the repository's history (parents first-parent first); `date` is the committer date. */
  addCommit(sha: string, parents: string[], date: string): void {
    this.actionsState.commits.set(sha, { sha, parents, date, order: this.actionsState.commits.size });
  }

  /** A workflow file (e.g. rag-eval.yml) GitHub knows, with or without runs; unknown ones answer 404. */
  addWorkflow(file: string): void {
    this.workflowId(file);
  }

  /** A completed run of `workflow` (a file name such as rag-eval.yml); returns its id. */
  addWorkflowRun(run: {
    workflow: string;
    headSha: string;
    branch: string;
    createdAt: string;
    conclusion?: 'success' | 'failure' | 'cancelled';
    /** owner/name of the repository whose code ran (a fork's, for its pull request); default this one. */
    headRepository?: string;
  }): number {
    const id = this.actionsState.nextId++;
    this.workflowId(run.workflow);
    this.actionsState.runs.push({ id, conclusion: 'success', ...run });
    return id;
  }

  /** An artifact of a run; `zip` is what the storage URL serves. Returns its id. */
  addArtifact(runId: number, name: string, zip: Buffer, options: { expired?: boolean } = {}): number {
    const id = this.actionsState.nextId++;
    this.actionsState.artifacts.push({ id, runId, name, zip, expired: options.expired ?? false });
    return id;
  }

  /**
   * A pull request of this repository: `headRepository` (owner/name) is a fork's for a fork's pull request.
   * GET /repos/{o}/{r}/pulls (state, head=OWNER:BRANCH) and /pulls/{n} serve it.
   */
  addPullRequest(pr: {
    number: number;
    headSha: string;
    headRef: string;
    headRepository: string;
    baseSha: string;
    baseRef: string;
    state?: 'open' | 'closed';
    /** Label names (GitHub's example label with the name set); default none. */
    labels?: string[];
  }): void {
    this.actionsState.pulls.push({ state: 'open', ...pr });
  }

  private pullObject(pr: FakePull, owner: string, repo: string, simple: boolean): JsonObject {
    const spec = loadGitHubOpenApi();
    const value = structuredClone(
      simple
        ? (spec.components.examples['pull-request-simple-items'] as { value: JsonObject[] }).value[0]
        : (spec.components.examples['pull-request'] as { value: JsonObject }).value,
    );
    const [headOwner, headName] = pr.headRepository.split('/');
    const head = value.head as JsonObject;
    const base = value.base as JsonObject;
    Object.assign(value, {
      number: pr.number,
      state: pr.state,
      // GitHub's example team lacks the `type` its own schema requires; no team is asked to review here.
      requested_teams: [],
      labels: (pr.labels ?? []).map((name, i) => ({ ...((value.labels as JsonObject[])[0] ?? {}), id: 300 + i, name })),
      url: `${this.url}/repos/${owner}/${repo}/pulls/${pr.number}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${pr.number}`,
    });
    Object.assign(head, {
      label: `${headOwner}:${pr.headRef}`,
      ref: pr.headRef,
      sha: pr.headSha,
      repo: { ...(head.repo as JsonObject), full_name: pr.headRepository, name: headName },
    });
    Object.assign(base, {
      label: `${owner}:${pr.baseRef}`,
      ref: pr.baseRef,
      sha: pr.baseSha,
      repo: { ...(base.repo as JsonObject), full_name: `${owner}/${repo}`, name: repo },
    });
    return value;
  }

  private resetActions(): void {
    this.actionsState = newActionsState();
  }

  private workflowId(name: string): number {
    const { workflows } = this.actionsState;
    if (!workflows.has(name)) workflows.set(name, 161335 + workflows.size);
    return workflows.get(name) as number;
  }

  private runObject(run: FakeRun, owner: string, repo: string, repository: Repository): JsonObject {
    const spec = loadGitHubOpenApi();
    const value = structuredClone((spec.components.examples['workflow-run'] as { value: JsonObject }).value);
    const api = `${this.url}/repos/${owner}/${repo}/actions/runs/${run.id}`;
    Object.assign(value, {
      id: run.id,
      name: run.workflow.replace(/\.ya?ml$/, ''),
      head_branch: run.branch,
      head_sha: run.headSha,
      path: `.github/workflows/${run.workflow}`,
      status: 'completed',
      conclusion: run.conclusion,
      workflow_id: this.workflowId(run.workflow),
      url: api,
      html_url: `https://github.com/${owner}/${repo}/actions/runs/${run.id}`,
      artifacts_url: `${api}/artifacts`,
      created_at: run.createdAt,
      updated_at: run.createdAt,
      run_started_at: run.createdAt,
      pull_requests: [],
    });
    (value.repository as JsonObject).id = repository.id;
    (value.repository as JsonObject).full_name = `${owner}/${repo}`;
    value.head_repository = {
      ...(value.head_repository as JsonObject),
      full_name: run.headRepository ?? `${owner}/${repo}`,
    };
    return value;
  }

  private artifactObject(artifact: FakeArtifact, owner: string, repo: string): JsonObject {
    const spec = loadGitHubOpenApi();
    const value = structuredClone((spec.components.examples.artifact as { value: JsonObject }).value);
    const run = this.actionsState.runs.find((r) => r.id === artifact.runId) as FakeRun;
    const api = `${this.url}/repos/${owner}/${repo}/actions/artifacts/${artifact.id}`;
    Object.assign(value, {
      id: artifact.id,
      name: artifact.name,
      size_in_bytes: artifact.zip.length,
      url: api,
      archive_download_url: `${api}/zip`,
      expired: artifact.expired,
      created_at: run.createdAt,
      updated_at: run.createdAt,
      workflow_run: {
        ...(value.workflow_run as JsonObject),
        id: run.id,
        head_branch: run.branch,
        head_sha: run.headSha,
      },
    });
    return value;
  }

  private commitObject(commit: FakeCommit, owner: string, repo: string): JsonObject {
    const spec = loadGitHubOpenApi();
    const value = structuredClone((spec.components.examples['commit-items'] as { value: JsonObject[] }).value[0]);
    const api = (sha: string) => `${this.url}/repos/${owner}/${repo}/commits/${sha}`;
    value.sha = commit.sha;
    value.url = api(commit.sha);
    value.html_url = `https://github.com/${owner}/${repo}/commit/${commit.sha}`;
    value.parents = commit.parents.map((sha) => ({ sha, url: api(sha) }));
    const inner = value.commit as JsonObject;
    inner.committer = { ...(inner.committer as JsonObject), date: commit.date };
    return value;
  }

  /** `sha` and everything reachable from it, newest committer date first (GitHub's default order). */
  private history(sha: string): FakeCommit[] {
    const seen = new Map<string, FakeCommit>();
    const todo = [sha];
    while (todo.length > 0) {
      const c = this.actionsState.commits.get(todo.pop() as string);
      if (!c || seen.has(c.sha)) continue;
      seen.set(c.sha, c);
      todo.push(...c.parents);
    }
    return [...seen.values()].sort((a, b) => b.date.localeCompare(a.date) || b.order - a.order);
  }

  private page<T>(items: T[], url: URL): T[] {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    return items.slice((page - 1) * perPage, page * perPage);
  }

  private routeActions(url: URL, owner: string, repo: string, rest: string, repository: Repository): Answer | null {
    const q = url.searchParams;
    let m = /^\/actions\/workflows\/([^/]+)\/runs$/.exec(rest);
    if (m) {
      const id = decodeURIComponent(m[1]);
      const known = [...this.actionsState.workflows.keys()];
      const workflow = /^\d+$/.test(id) ? known.find((w) => String(this.workflowId(w)) === id) : id;
      if (!workflow || !known.includes(workflow))
        return this.error(404, 'Not Found', 'actions/workflow-runs#list-workflow-runs-for-a-workflow');
      const runs = this.actionsState.runs
        .filter(
          (r) =>
            r.workflow === workflow &&
            (!q.has('head_sha') || r.headSha === q.get('head_sha')) &&
            (!q.has('branch') || r.branch === q.get('branch')) &&
            (!q.has('status') || q.get('status') === 'completed' || r.conclusion === q.get('status')),
        )
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
      return {
        status: 200,
        body: {
          total_count: runs.length,
          workflow_runs: this.page(runs, url).map((r) => this.runObject(r, owner, repo, repository)),
        },
      };
    }
    if (rest === '/actions/runs') {
      // The repository's runs of every workflow: by head_sha and status (`completed`: all of ours, else the conclusion).
      const status = q.get('status');
      const runs = this.actionsState.runs
        .filter(
          (r) =>
            (!q.has('head_sha') || r.headSha === q.get('head_sha')) &&
            (status === null || status === 'completed' || r.conclusion === status),
        )
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
      return {
        status: 200,
        body: {
          total_count: runs.length,
          workflow_runs: this.page(runs, url).map((r) => this.runObject(r, owner, repo, repository)),
        },
      };
    }
    m = /^\/actions\/runs\/(\d+)\/artifacts$/.exec(rest);
    if (m) {
      const runId = Number(m[1]);
      const artifacts = this.actionsState.artifacts
        .filter((a) => a.runId === runId && (!q.has('name') || a.name === q.get('name')))
        .sort((a, b) => b.id - a.id);
      return {
        status: 200,
        body: {
          total_count: artifacts.length,
          artifacts: this.page(artifacts, url).map((a) => this.artifactObject(a, owner, repo)),
        },
      };
    }
    m = /^\/actions\/artifacts\/(\d+)\/zip$/.exec(rest);
    if (m) {
      const artifact = this.actionsState.artifacts.find((a) => a.id === Number(m?.[1]));
      if (!artifact) return this.error(404, 'Not Found', 'actions/artifacts#download-an-artifact');
      if (artifact.expired) return this.error(410, 'Artifact has expired', 'actions/artifacts#download-an-artifact');
      // As GitHub: a short-lived signed URL on another host (here another path of the stand-in).
      return { status: 302, headers: { location: `${this.url}${STORAGE_PREFIX}${artifact.id}.zip?sig=signed` } };
    }
    if (rest === '/pulls') {
      const state = q.get('state') ?? 'open';
      const head = q.get('head');
      const pulls = this.actionsState.pulls
        .filter(
          (p) =>
            (state === 'all' || p.state === state) &&
            (head === null || `${p.headRepository.split('/')[0]}:${p.headRef}`.toLowerCase() === head.toLowerCase()),
        )
        .sort((a, b) => b.number - a.number);
      return { status: 200, body: this.page(pulls, url).map((p) => this.pullObject(p, owner, repo, true)) };
    }
    m = /^\/pulls\/(\d+)$/.exec(rest);
    if (m) {
      const pr = this.actionsState.pulls.find((p) => p.number === Number(m?.[1]));
      if (!pr) return this.error(404, 'Not Found', 'pulls/pulls#get-a-pull-request');
      return { status: 200, body: this.pullObject(pr, owner, repo, false) };
    }
    if (rest === '/commits') {
      const start = q.get('sha');
      const all = start ? this.history(start) : [];
      return { status: 200, body: this.page(all, url).map((c) => this.commitObject(c, owner, repo)) };
    }
    m = /^\/compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(rest);
    if (m) {
      const base = this.history(m[1]);
      const head = this.history(m[2]);
      if (base.length === 0 || head.length === 0)
        return this.error(404, 'Not Found', 'commits/commits#compare-two-commits');
      const inHead = new Set(head.map((c) => c.sha));
      const inBase = new Set(base.map((c) => c.sha));
      const mergeBase = base.find((c) => inHead.has(c.sha));
      const spec = loadGitHubOpenApi();
      const value = structuredClone((spec.components.examples['commit-comparison'] as { value: JsonObject }).value);
      const behind = base.filter((c) => !inHead.has(c.sha)).length;
      const ahead = head.filter((c) => !inBase.has(c.sha)).length;
      Object.assign(value, {
        base_commit: { ...(value.base_commit as JsonObject), sha: base[0].sha },
        merge_base_commit: { ...(value.merge_base_commit as JsonObject), sha: mergeBase?.sha ?? '' },
        status: behind === 0 ? (ahead === 0 ? 'identical' : 'ahead') : ahead === 0 ? 'behind' : 'diverged',
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        commits: [],
        files: [],
      });
      return { status: 200, body: value };
    }
    return null;
  }

  private storageAnswer(record: RecordedRequest): Answer {
    const m = /^\/_storage\/artifacts\/(\d+)\.zip$/.exec(record.path);
    const artifact = m ? this.actionsState.artifacts.find((a) => a.id === Number(m[1])) : undefined;
    if (!artifact) return { status: 404, raw: Buffer.from('BlobNotFound') };
    return { status: 200, raw: artifact.zip };
  }
}

/** Where the stand-in serves artifact zips: GitHub's 302 points to a storage host that must not get the token. */
export const STORAGE_PREFIX = '/_storage/artifacts/';

interface Answer {
  status: number;
  body?: Json;
  headers?: Record<string, string>;
  /** Bytes served as they are (the artifact storage host), not JSON. */
  raw?: Buffer;
  /** The fault that made this answer, when one did (its raw body is sent as it is). */
  fault?: Fault;
}

interface FakeRun {
  id: number;
  headRepository?: string;
  workflow: string;
  headSha: string;
  branch: string;
  createdAt: string;
  conclusion: 'success' | 'failure' | 'cancelled';
}

interface FakePull {
  number: number;
  headSha: string;
  headRef: string;
  headRepository: string;
  baseSha: string;
  baseRef: string;
  state: 'open' | 'closed';
  labels?: string[];
}

interface FakeArtifact {
  id: number;
  runId: number;
  name: string;
  zip: Buffer;
  expired: boolean;
}

interface FakeCommit {
  sha: string;
  parents: string[];
  date: string;
  order: number;
}

function newActionsState() {
  return {
    runs: [] as FakeRun[],
    artifacts: [] as FakeArtifact[],
    pulls: [] as FakePull[],
    commits: new Map<string, FakeCommit>(),
    workflows: new Map<string, number>(),
    nextId: 30433642,
  };
}

/** The Link header of GitHub's recorded second page, for a test that our format matches it. */
export const RECORDED_MIDDLE_PAGE_LINK = recorded.middlePageLink;

// ---------------------------------------------------------------------------------------------------------
// Checking requests and responses against the OpenAPI description

type Schema = Record<string, unknown>;

function resolveRef<T>(spec: OpenApiSpec, node: T): T {
  let current: unknown = node;
  for (let i = 0; i < 20 && current && typeof current === 'object' && '$ref' in (current as object); i++) {
    const ref = String((current as { $ref: string }).$ref);
    if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, key) => (o as Record<string, unknown>)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return current as T;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** JSON Schema (OpenAPI 3.0 flavour) check of type, nullable, enum, required, properties and items. */
export function validateSchema(
  spec: OpenApiSpec,
  schemaIn: unknown,
  value: unknown,
  where: string,
  depth = 0,
): string[] {
  const schema = resolveRef(spec, schemaIn) as Schema | undefined;
  if (!schema || depth > 40) return [];
  const problems: string[] = [];
  if (Array.isArray(schema.allOf))
    for (const s of schema.allOf) problems.push(...validateSchema(spec, s, value, where, depth + 1));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const variants = schema[key];
    if (
      Array.isArray(variants) &&
      !variants.some((s) => validateSchema(spec, s, value, where, depth + 1).length === 0)
    ) {
      problems.push(`${where}: matches none of the ${key} variants`);
    }
  }
  if (value === null) {
    if (
      schema.nullable === true ||
      schema.type === undefined ||
      (Array.isArray(schema.type) && schema.type.includes('null'))
    )
      return problems;
    return [...problems, `${where}: null where the schema wants ${String(schema.type)}`];
  }
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const actual = typeOf(value);
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    return [...problems, `${where}: ${actual} where the schema wants ${types.join(' or ')}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (actual === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? [])
      if (!(key in obj)) problems.push(`${where}: missing required property \`${key}\``);
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    for (const [key, sub] of Object.entries(properties)) {
      if (key in obj && obj[key] !== undefined)
        problems.push(...validateSchema(spec, sub, obj[key], `${where}.${key}`, depth + 1));
    }
    if (schema.additionalProperties === false) {
      for (const key of Object.keys(obj))
        if (!(key in properties)) problems.push(`${where}: property \`${key}\` is not in the schema`);
    }
  }
  if (actual === 'array' && schema.items) {
    (value as unknown[]).forEach((item, i) => {
      problems.push(...validateSchema(spec, schema.items, item, `${where}[${i}]`, depth + 1));
    });
  }
  return problems;
}

interface Operation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface TemplateSegments {
  template: string;
  item: Record<string, unknown>;
  parts: Array<{ param: string | null; literal: string }>;
}

const templateCache = new WeakMap<OpenApiSpec, TemplateSegments[]>();

/** The description's path templates cut into segments once (a few thousand templates, looked up for every request). */
function templatesOf(spec: OpenApiSpec): TemplateSegments[] {
  let templates = templateCache.get(spec);
  if (!templates) {
    templates = Object.entries(spec.paths).map(([template, item]) => ({
      template,
      item,
      parts: template.split('/').map((literal) => ({ param: /^\{(.+)\}$/.exec(literal)?.[1] ?? null, literal })),
    }));
    templateCache.set(spec, templates);
  }
  return templates;
}

/** The operation for a method and concrete path: the template with the most literal segments that matches. */
export function findOperation(
  spec: OpenApiSpec,
  method: string,
  path: string,
): { template: string; operation: Operation; params: Record<string, string>; shared: unknown[] } | null {
  // GitHub's /repositories/{id}/ alias of /repos/{owner}/{repo}/ (in its Link headers) is the same operation.
  const concrete = path.replace(/^\/repositories\/\d+\//, '/repos/{owner}/{repo}/').split('/');
  let best: {
    template: string;
    operation: Operation;
    params: Record<string, string>;
    shared: unknown[];
    literals: number;
  } | null = null;
  for (const { template, item, parts } of templatesOf(spec)) {
    if (parts.length !== concrete.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const part = parts[i];
      if (part.param !== null) params[part.param] = decodeURIComponent(concrete[i]);
      else if (part.literal === concrete[i]) literals++;
      else ok = false;
    }
    const operation = item[method.toLowerCase()] as Operation | undefined;
    if (ok && operation && (!best || literals > best.literals)) {
      best = { template, operation, params, shared: (item.parameters as unknown[] | undefined) ?? [], literals };
    }
  }
  return best && { template: best.template, operation: best.operation, params: best.params, shared: best.shared };
}

/** Problems with one recorded request against the OpenAPI description; empty when it is a valid call. */
export function checkRequest(
  spec: OpenApiSpec,
  request: Pick<RecordedRequest, 'method' | 'path' | 'query' | 'body'>,
): string[] {
  const label = `${request.method} ${request.path}`;
  const found = findOperation(spec, request.method, request.path);
  if (!found) return [`${label}: no such operation in GitHub's REST API`];
  const problems: string[] = [];
  const parameters = [...found.shared, ...(found.operation.parameters ?? [])].map(
    (p) => resolveRef(spec, p) as Parameter,
  );
  for (const [name, value] of Object.entries(found.params)) {
    if (value.startsWith('{')) continue; // filled from the /repositories/{id} alias
    const param = parameters.find((p) => p.in === 'path' && p.name === name);
    if (!param) {
      problems.push(`${label}: path parameter \`${name}\` is not declared`);
      continue;
    }
    problems.push(...checkParameterValue(spec, param, value, `${label}: path parameter \`${name}\``));
  }
  for (const [name, value] of Object.entries(request.query)) {
    const param = parameters.find((p) => p.in === 'query' && p.name === name);
    if (!param) {
      problems.push(`${label}: query parameter \`${name}\` is not declared`);
      continue;
    }
    problems.push(...checkParameterValue(spec, param, value, `${label}: query parameter \`${name}\``));
  }
  for (const param of parameters) {
    if (param.required && param.in === 'query' && !(param.name in request.query))
      problems.push(`${label}: required query parameter \`${param.name}\` is missing`);
  }
  const requestBody = resolveRef(spec, found.operation.requestBody) as
    | { required?: boolean; content?: Record<string, { schema?: unknown }> }
    | undefined;
  if (!requestBody) {
    if (request.body !== undefined) problems.push(`${label}: ${found.operation.operationId} takes no request body`);
  } else if (request.body === undefined) {
    if (requestBody.required) problems.push(`${label}: ${found.operation.operationId} needs a request body`);
  } else {
    const schema = requestBody.content?.['application/json']?.schema;
    if (!schema) problems.push(`${label}: ${found.operation.operationId} takes no JSON body`);
    else problems.push(...validateSchema(spec, schema, request.body, `${label} body`));
  }
  return problems;
}

function checkParameterValue(spec: OpenApiSpec, param: Parameter, value: string, where: string): string[] {
  const schema = resolveRef(spec, param.schema) as Schema | undefined;
  if (schema?.type === 'integer' && !/^-?\d+$/.test(value))
    return [`${where}: ${JSON.stringify(value)} is not an integer`];
  if (Array.isArray(schema?.enum) && !schema.enum.includes(value))
    return [`${where}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  return [];
}

/** Problems with the stand-in's answer to a request: a status or body GitHub's description does not have. */
export function checkResponse(spec: OpenApiSpec, request: RecordedRequest): string[] {
  const label = `${request.method} ${request.path} -> ${request.status}`;
  const found = findOperation(spec, request.method, request.path);
  if (!found) return [];
  const responses = found.operation.responses ?? {};
  const response = resolveRef(spec, responses[String(request.status)] ?? responses.default) as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  if (!response) {
    // GitHub documents only some error statuses per operation; 5xx and auth errors can come from anywhere.
    return request.status >= 500 || request.status === 401 || request.status === 403
      ? []
      : [`${label}: status not in GitHub's description of ${found.operation.operationId}`];
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return request.response === null ? [] : [`${label}: GitHub sends no body here`];
  return validateSchema(spec, schema, request.response, `${label} body`);
}
