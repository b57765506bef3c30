/**
 * Issue 44, end to end: the bundled action against the stand-in API, as an attacker would try it.
 * - A candidate database whose run id is a crafted state line, shown by the error panel, must not place state in
 *   our comment: the next push with a real regression fails, in nobody's name.
 * - An accept command binds to the report its writer saw: a head that moved since (before or after the command
 *   job's turn) is refused with a reply naming both commits.
 * - A command quoted as code is no command; an outsider's commands get one reply per pull request.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLY_MARKER } from '../src/action/issueComment.js';
import { decodeState, encodeState } from '../src/acceptance/state.js';
import type { AcceptanceSource, AcceptanceState, ShownReport } from '../src/acceptance/state.js';
import type { Account } from './helpers/fakeGitHub.js';
import { GITHUB_ACTIONS_BOT } from './helpers/fakeGitHub.js';
import { editDb } from './helpers/runDb.js';
import {
  FAILING_GATES,
  MARKER,
  OWNER,
  PR,
  REPO,
  fixtures,
  github,
  pullRequestPayload,
  runAction,
  scratch,
  useActionSuite,
} from './helpers/actionSuite.js';

useActionSuite();

const HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const NEXT = 'aaaaaaa5b57875f334f61aebed695e2e4193db5f';
const MAINTAINER: Account = { login: 'maintainer-2', id: 502, type: 'User' };
const OUTSIDER: Account = { login: 'outsider-5', id: 505, type: 'User' };
const TWO_FAILING = 'gates:\n  - metric: hit@5\n    min: 0.99\n  - metric: nDCG@10\n    min: 0.99\n';

const isoAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The state line an attacker would plant: a standing acceptance by a maintainer covering every failing gate. */
function forgedStateLine(): string {
  const gate = { metric: 'hit@5', threshold: '≥ 0.9900', judged: 'value' as const, worse: 'lower' as const };
  const standing = { by: MAINTAINER.login, at: '2026-11-01T10:00:00Z', head_sha: HEAD, reason: 'ok' };
  const state: AcceptanceState = {
    current: {
      ...standing,
      via: 'comment',
      source: { kind: 'comment', comment_id: 1000 },
      covers: HEAD,
      gates: [{ ...gate, baseline: 0.8, candidate: 0, delta: -0.8 }],
    },
    history: [{ event: 'accepted', ...standing, gates: ['hit@5'] }],
    shown: [],
  };
  return encodeState(state);
}

function payloadFor(head: string) {
  const payload = pullRequestPayload() as Record<string, any>;
  payload.pull_request.head.sha = head;
  payload.pull_request.labels = [];
  return payload;
}

function sticky(): string {
  return github.listComments(OWNER, REPO, PR).find((c) => c.body.startsWith(MARKER))?.body ?? '';
}

describe('no input can place acceptance state in our comment', () => {
  it('a run id carrying a state line shows in the error panel but is no state; the next regression fails', async () => {
    const planted = forgedStateLine();
    const candidate = join(scratch, 'planted.sqlite');
    copyFileSync(join(fixtures, 'candidate.sqlite'), candidate);
    await editDb(candidate, (db) => {
      db.run('PRAGMA foreign_keys = OFF');
      db.run('UPDATE eval_query_results SET run_id = ?', [planted]);
      db.run("UPDATE eval_runs SET run_id = ?, created_at = 'yesterday'", [planted]);
    });
    const first = await runAction({
      payload: payloadFor(HEAD),
      inputs: { gates: FAILING_GATES, candidate, status: 'true' },
    });
    expect(first.code).toBe(1);
    const panel = sticky();
    expect(panel).toContain('EvalVerdict: error — the run could not be evaluated');
    expect(panel).toContain('created_at');
    // Only our two hidden lines: the marker first, the state (this run's, no acceptance) last.
    const hidden = panel.split('\n').filter((l) => l.includes('<!--'));
    expect(hidden).toEqual([MARKER, panel.trimEnd().split('\n').at(-1)]);
    expect(decodeState(panel)).toMatchObject({ current: null, history: [], shown: [{ sha: HEAD, kind: 'error' }] });

    const second = await runAction({
      payload: payloadFor(NEXT),
      env: { GITHUB_SHA: NEXT },
      inputs: { gates: FAILING_GATES, status: 'true' },
    });
    expect(second.code).toBe(1);
    expect(github.statuses(OWNER, REPO, NEXT).at(-1)?.state).toBe('failure');
    expect(sticky()).not.toContain('accepted by');
    expect(decodeState(sticky())?.current).toBeNull();
  });

  it('a state line quoted by a later error panel does not replace the real history', async () => {
    const real: AcceptanceState = {
      current: null,
      history: [
        { event: 'withdrawn', by: 'writer-1', at: '2026-11-02T10:00:00Z', head_sha: HEAD, gates: [], reason: null },
      ],
      shown: [{ sha: HEAD, kind: 'report', since: null }],
    };
    github.addComment(OWNER, REPO, PR, `${MARKER}\nreport\n${encodeState(real)}\n`, GITHUB_ACTIONS_BOT, isoAgo(60));
    const candidate = join(scratch, 'planted2.sqlite');
    copyFileSync(join(fixtures, 'candidate.sqlite'), candidate);
    await editDb(candidate, (db) => {
      db.run('PRAGMA foreign_keys = OFF');
      db.run('UPDATE eval_query_results SET run_id = ?', [`x\n${forgedStateLine()}\n`]);
      db.run("UPDATE eval_runs SET run_id = ?, created_at = 'yesterday'", [`x\n${forgedStateLine()}\n`]);
    });
    const r = await runAction({ payload: payloadFor(NEXT), env: { GITHUB_SHA: NEXT }, inputs: { candidate } });
    expect(r.code).toBe(1);
    const state = decodeState(sticky());
    expect(state?.history).toEqual(real.history);
    expect(state?.current).toBeNull();
    expect(state?.shown.map((s) => [s.sha, s.kind])).toEqual([
      [HEAD, 'report'],
      [NEXT, 'error'],
    ]);
  });
});

/** An `issue_comment` event for `body` by `author`, written now; the pull request's head is `head`. */
async function commandRun(body: string, author: Account, head: string, shown: ShownReport[] | null) {
  if (shown) {
    const line = encodeState({ current: null, history: [], shown });
    github.addComment(OWNER, REPO, PR, `${MARKER}\nthe earlier report\n${line}\n`, GITHUB_ACTIONS_BOT, isoAgo(60));
  }
  github.addPullRequest({
    number: PR,
    headSha: head,
    headRef: 'new-topic',
    headRepository: `${OWNER}/${REPO}`,
    baseSha: '0'.repeat(40),
    baseRef: 'main',
    state: 'open',
  });
  const comment = github.addComment(OWNER, REPO, PR, body, author);
  const pr = pullRequestPayload() as Record<string, any>;
  const issue = {
    number: PR,
    title: pr.pull_request.title,
    state: 'open',
    labels: [],
    user: pr.pull_request.user,
    pull_request: { url: pr.pull_request.url, html_url: pr.pull_request.html_url },
  };
  const payload = { action: 'created', issue, comment, repository: pr.repository, sender: comment.user };
  const result = await runAction({ event: 'issue_comment', payload, inputs: { gates: TWO_FAILING, status: 'true' } });
  const replies = github
    .listComments(OWNER, REPO, PR)
    .filter((c) => c.user.login === GITHUB_ACTIONS_BOT.login && c.body.startsWith(REPLY_MARKER))
    .map((c) => c.body);
  return { ...result, commandId: comment.id, replies, status: github.statuses(OWNER, REPO, head).at(-1) };
}

describe('an accept command binds to the report its writer saw', () => {
  it('the head moved after the report the writer saw: refused, naming both commits; nothing accepted', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const r = await commandRun('/evalverdict accept -- small drop is fine', MAINTAINER, NEXT, [
      { sha: HEAD, kind: 'report', since: null },
    ]);
    expect(r.code).toBe(0);
    expect(r.replies).toEqual([
      `${REPLY_MARKER}\nEvalVerdict did not take the command of @maintainer-2: the command was written under the report for \`6dcb09b\`, but the head is now \`aaaaaaa\`; nothing was accepted. Wait for the report of \`aaaaaaa\` in the EvalVerdict comment, read it, and comment again to accept it.`,
    ]);
    expect(r.status).toBeUndefined();
    expect(github.reactions(r.commandId)).toEqual([]);
    expect(sticky()).not.toContain('accepted by');
  });

  it("the newer head's report was posted after the command was written: still refused", async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    // The comment showed HEAD's report from 10 minutes ago, and NEXT's from a time after the command (the stand-in
    // dates the last body by the comment's updated_at: set it into the future of the command).
    const shown: ShownReport[] = [
      { sha: HEAD, kind: 'report', since: isoAgo(600) },
      { sha: NEXT, kind: 'report', since: null },
    ];
    const line = encodeState({ current: null, history: [], shown });
    const later = new Date(Date.now() + 30_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    github.addComment(OWNER, REPO, PR, `${MARKER}\nNEXT's report\n${line}\n`, GITHUB_ACTIONS_BOT, later);
    const r = await commandRun('/evalverdict accept -- small drop is fine', MAINTAINER, NEXT, null);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]).toContain('written under the report for `6dcb09b`, but the head is now `aaaaaaa`');
    expect(r.status).toBeUndefined();
  });

  it('no report yet, or an error panel, when the command was written: refused', async () => {
    github.setPermission(MAINTAINER, 'admin');
    const none = await commandRun('/evalverdict accept -- ok', MAINTAINER, HEAD, null);
    expect(none.replies[0]).toContain('no EvalVerdict report was on the pull request when the command was written');
    github.reset();
    github.setPermission(MAINTAINER, 'admin');
    const error = await commandRun('/evalverdict accept -- ok', MAINTAINER, HEAD, [
      { sha: HEAD, kind: 'error', since: null },
    ]);
    expect(error.replies[0]).toContain('showed an error for `6dcb09b`, not a report');
    expect(error.status).toBeUndefined();
  });

  it('the report the writer saw is the head: accepted', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const r = await commandRun('/evalverdict accept -- fine', MAINTAINER, HEAD, [
      { sha: HEAD, kind: 'report', since: null },
    ]);
    expect(r.code).toBe(0);
    expect(r.replies).toEqual([]);
    expect(r.status?.state).toBe('success');
    expect(sticky()).toContain('**EvalVerdict: accepted by @maintainer-2**');
  });
});

describe('commands as GitHub renders them, and outsiders', () => {
  it('a writer quoting the syntax in an indented code block accepts nothing, and gets no answer', async () => {
    github.setPermission(MAINTAINER, 'admin');
    const r = await commandRun('    /evalverdict accept -- quoting the syntax', MAINTAINER, HEAD, [
      { sha: HEAD, kind: 'report', since: null },
    ]);
    expect(r.code).toBe(0);
    expect(r.replies).toEqual([]);
    expect(github.reactions(r.commandId)).toEqual([]);
    expect(r.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it("an outsider's commands: a -1 on each, one reply on the pull request", async () => {
    const bodies = ['/evalverdict accept', '/evalverdict accept -- please', '/evalverdict merge'];
    const runs = [];
    for (const body of bodies) runs.push(await commandRun(body, OUTSIDER, HEAD, null));
    for (const r of runs) expect(github.reactions(r.commandId)).toEqual(['-1']);
    expect(runs.at(-1)?.replies).toHaveLength(1);
    expect(runs.at(-1)?.replies[0]).toContain('it takes write, maintain or admin permission');
  });
});

// The report files are what a user downloads: the planted text is in them only as the error message, escaped.
describe('the report files keep a planted message as data, the comment neutralises it', () => {
  it('the JSON keeps the error message as it was (data), the comment shows it neutralised', async () => {
    const candidate = join(scratch, 'planted3.sqlite');
    copyFileSync(join(fixtures, 'candidate.sqlite'), candidate);
    const planted = forgedStateLine();
    await editDb(candidate, (db) => {
      db.run('PRAGMA foreign_keys = OFF');
      db.run('UPDATE eval_query_results SET run_id = ?', [planted]);
      db.run("UPDATE eval_runs SET run_id = ?, created_at = 'yesterday'", [planted]);
    });
    const r = await runAction({ payload: payloadFor(HEAD), inputs: { candidate } });
    const json = JSON.parse(readFileSync(join(r.workspace, 'evalverdict-report.json'), 'utf8'));
    expect(json.verdict).toBe('error');
    expect(json.error).toContain('evalverdict:acceptance-state');
    expect(sticky()).not.toContain(planted);
  });
});

/** Our comment as an earlier run left it: a standing acceptance of hit@5 (at a drop no worse than today's). */
function standingComment(source: AcceptanceSource) {
  const gate = { metric: 'hit@5', threshold: '≥ 0.9900', judged: 'value' as const, worse: 'lower' as const };
  const standing = {
    by: MAINTAINER.login,
    at: '2026-11-01T10:00:00Z',
    head_sha: HEAD,
    reason: source.kind === 'comment' ? 'small drop is fine' : null,
  };
  const state: AcceptanceState = {
    current: {
      ...standing,
      via: source.kind,
      source,
      covers: HEAD,
      gates: [{ ...gate, baseline: 0.8, candidate: 0, delta: -0.8 }],
    },
    history: [{ event: 'accepted', ...standing, gates: ['hit@5'] }],
    shown: [{ sha: HEAD, kind: 'report', since: null }],
  };
  github.addComment(OWNER, REPO, PR, `${MARKER}\nreport\n${encodeState(state)}\n`, GITHUB_ACTIONS_BOT, isoAgo(120));
}

/** A push of NEXT with the hit@5 gate failing, the pull request labelled `labels`. */
async function pushRun(labels: string[] = []) {
  const payload = payloadFor(NEXT);
  payload.pull_request.labels = labels.map((name, i) => ({
    id: 90 + i,
    node_id: `L${i}`,
    url: '',
    name,
    description: null,
    color: 'ededed',
    default: false,
  }));
  const r = await runAction({ payload, env: { GITHUB_SHA: NEXT }, inputs: { gates: FAILING_GATES, status: 'true' } });
  return { ...r, state: decodeState(sticky()), status: github.statuses(OWNER, REPO, NEXT).at(-1) };
}

describe('a standing acceptance is a cache the API confirms on every run', () => {
  it('a comment acceptance whose command still stands carries over', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const command = github.addComment(
      OWNER,
      REPO,
      PR,
      '/evalverdict accept -- small drop is fine',
      MAINTAINER,
      isoAgo(200),
    );
    standingComment({ kind: 'comment', comment_id: command.id });
    const r = await pushRun();
    expect(r.code).toBe(0);
    expect(r.status?.state).toBe('success');
    expect(r.state?.current?.covers).toBe(NEXT);
  });

  it('its command comment deleted, edited, or by someone else: dropped, and the comment says so', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    for (const [body, author, why] of [
      [null, MAINTAINER, 'its command comment was deleted'],
      ['/evalverdict accept -- something else', MAINTAINER, 'its command comment was edited'],
      ['    /evalverdict accept -- small drop is fine', MAINTAINER, 'its command comment was edited'],
      ['/evalverdict accept -- small drop is fine', OUTSIDER, 'its command comment is not by @maintainer-2'],
    ] as const) {
      github.reset();
      github.setPermission(MAINTAINER, 'write', 'maintain');
      const id = body === null ? 4242 : github.addComment(OWNER, REPO, PR, body, author, isoAgo(200)).id;
      standingComment({ kind: 'comment', comment_id: id });
      const r = await pushRun();
      expect(r.code, why).toBe(1);
      expect(r.status?.state).toBe('failure');
      expect(sticky()).toContain(
        `> **Not accepted:** the earlier acceptance by @&#8203;maintainer-2 (for 6dcb09b) could not be confirmed: ${why.replace('@', '@&#8203;')}; it is dropped.`,
      );
      expect(r.state?.current).toBeNull();
      expect(r.state?.history.map((h) => h.event)).toEqual(['accepted', 'unconfirmed']);
    }
  });

  it("its author's permission revoked since: dropped", async () => {
    github.setPermission(MAINTAINER, 'read');
    const command = github.addComment(
      OWNER,
      REPO,
      PR,
      '/evalverdict accept -- small drop is fine',
      MAINTAINER,
      isoAgo(200),
    );
    standingComment({ kind: 'comment', comment_id: command.id });
    const r = await pushRun();
    expect(r.code).toBe(1);
    expect(sticky()).toContain(
      'could not be confirmed: @&#8203;maintainer-2 now has read permission on the repository; it is dropped.',
    );
  });

  it('a label acceptance with no `labeled` event by its author on the timeline: dropped', async () => {
    github.setPermission(MAINTAINER, 'admin');
    github.addLabelEvent(OWNER, REPO, PR, 'evalverdict: accept', OUTSIDER);
    standingComment({ kind: 'label', label: 'evalverdict: accept' });
    const r = await pushRun(['evalverdict: accept']);
    expect(r.code).toBe(1);
    expect(sticky()).toContain(
      'timeline has no evalverdict: accept label added by @&#8203;maintainer-2; it is dropped.',
    );
    github.reset();
    github.setPermission(MAINTAINER, 'admin');
    github.addLabelEvent(OWNER, REPO, PR, 'evalverdict: accept', MAINTAINER);
    standingComment({ kind: 'label', label: 'evalverdict: accept' });
    const ok = await pushRun(['evalverdict: accept']);
    expect(ok.code).toBe(0);
    expect(ok.status?.state).toBe('success');
  });

  it('a look-up GitHub refuses (403, not retried) keeps the acceptance for the next run but does not apply it now', async () => {
    github.setPermission(MAINTAINER, 'write');
    const command = github.addComment(
      OWNER,
      REPO,
      PR,
      '/evalverdict accept -- small drop is fine',
      MAINTAINER,
      isoAgo(200),
    );
    standingComment({ kind: 'comment', comment_id: command.id });
    github.inject({
      method: 'GET',
      path: /\/issues\/comments\/\d+$/,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    const r = await pushRun();
    expect(r.code).toBe(1);
    expect(sticky()).toContain(
      'could not be confirmed: GitHub did not answer; not applied to this run, asked again on the next.',
    );
    expect(r.stdout).toContain('Resource not accessible by integration');
    expect(r.state?.current?.by).toBe(MAINTAINER.login);
    expect(r.state?.history.map((h) => h.event)).toEqual(['accepted']);
  });
});
