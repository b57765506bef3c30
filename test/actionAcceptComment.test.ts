/**
 * Accepting a regression, the rest of issue 36, end to end: the bundled action against the stand-in API (every
 * request and answer validated against GitHub's OpenAPI description by useActionSuite). A new push carries an
 * acceptance over only when no accepted gate got worse, read from the hidden state line of EvalVerdict's own comment;
 * `/evalverdict accept` and `/evalverdict rerun` comment commands, refused with a reply when they may not act.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeState } from '../src/acceptance/state.js';
import type { AcceptanceState, ShownReport } from '../src/acceptance/state.js';
import { REPLY_MARKER } from '../src/action/issueComment.js';
import type { Account } from './helpers/fakeGitHub.js';
import { GITHUB_ACTIONS_BOT } from './helpers/fakeGitHub.js';
import { writeZip } from './helpers/zipWriter.js';
import { repoRoot } from './shared.js';
import {
  COMMENTS_PATH,
  FAILING_GATES,
  MARKER,
  OWNER,
  PR,
  REPO,
  annotations,
  expectedFor,
  github,
  pullRequestPayload,
  runAction,
  summarise,
  useActionSuite,
} from './helpers/actionSuite.js';

useActionSuite();

const HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const NEXT = 'aaaaaaa5b57875f334f61aebed695e2e4193db5f';
const LABEL = 'evalverdict: accept';
const WRITER: Account = { login: 'writer-1', id: 501, type: 'User' };
const MAINTAINER: Account = { login: 'maintainer-2', id: 502, type: 'User' };
const OUTSIDER: Account = { login: 'outsider-5', id: 505, type: 'User' };
const TWO_FAILING = 'gates:\n  - metric: hit@5\n    min: 0.99\n  - metric: nDCG@10\n    min: 0.99\n';
const PERMISSION_PATH = (login: string) => `/repos/${OWNER}/${REPO}/collaborators/${login}/permission`;

function labelPayload(action: string, sender: string, labels: string[], head = HEAD, label?: string) {
  const payload = pullRequestPayload() as Record<string, any>;
  payload.action = action;
  payload.sender = { ...payload.sender, login: sender };
  payload.pull_request.head.sha = head;
  payload.pull_request.labels = labels.map((name, i) => ({ ...payload.pull_request.labels[0], id: 90 + i, name }));
  if (label !== undefined) payload.label = { ...payload.pull_request.labels[0], name: label };
  return payload;
}

async function outcome(result: Awaited<ReturnType<typeof runAction>>, head = HEAD) {
  const sticky = github.listComments(OWNER, REPO, PR).find((c) => c.body.startsWith(MARKER));
  const json = JSON.parse(readFileSync(join(result.workspace, 'evalverdict-report.json'), 'utf8'));
  return { ...result, comment: sticky?.body ?? '', json, status: github.statuses(OWNER, REPO, head).at(-1) };
}

/** The candidate's hit@5 (the gate FAILING_GATES fails), as the library reports it for the same runs. */
async function candidateHit5(): Promise<number> {
  return (await expectedFor(FAILING_GATES)).report.metrics['hit@5'].candidate!;
}

/** Our comment as an earlier run left it: a report, and the acceptance of hit@5 at `candidate` on HEAD. */
function earlierAcceptance(candidate: number, author: Account = GITHUB_ACTIONS_BOT) {
  const gate = { metric: 'hit@5', threshold: '≥ 0.9900', judged: 'value' as const, worse: 'lower' as const };
  const standing = {
    by: WRITER.login,
    at: '2026-11-01T10:00:00Z',
    head_sha: HEAD,
    reason: null,
    via: 'label' as const,
    source: { kind: 'label' as const, label: LABEL },
  };
  // What the API confirms on each later run: the label event by its author, and the author's permission.
  github.setPermission(WRITER, 'write');
  github.addLabelEvent(OWNER, REPO, PR, LABEL, WRITER);
  const state: AcceptanceState = {
    current: { ...standing, covers: HEAD, gates: [{ ...gate, baseline: 0.8, candidate, delta: candidate - 0.8 }] },
    history: [{ event: 'accepted', ...standing, gates: ['hit@5'] }],
    shown: [{ sha: HEAD, kind: 'report', since: null }],
  };
  github.addComment(OWNER, REPO, PR, `${MARKER}\nthe earlier report\n${encodeState(state)}\n`, author);
}

describe('an acceptance on a new push', () => {
  it('label by a writer, then a push with an equal drop: carried over, with the history', async () => {
    github.setPermission(WRITER, 'write');
    github.addLabelEvent(OWNER, REPO, PR, LABEL, WRITER);
    const labeled = await outcome(
      await runAction({
        payload: labelPayload('labeled', WRITER.login, [LABEL], HEAD, LABEL),
        inputs: { gates: FAILING_GATES, status: 'true' },
      }),
    );
    expect(labeled.status?.state).toBe('success');
    expect(labeled.comment).toContain('**EvalVerdict: accepted by @writer-1**');
    expect(labeled.comment).toMatch(/<!-- evalverdict:acceptance-state [A-Za-z0-9+/=]+ -->\n$/);
    const pushed = await outcome(
      await runAction({
        payload: labelPayload('synchronize', WRITER.login, [LABEL], NEXT),
        inputs: { gates: FAILING_GATES, status: 'true' },
      }),
      NEXT,
    );
    expect(pushed.code).toBe(0);
    expect(pushed.status?.state).toBe('success');
    expect(pushed.status?.description).toBe(`accepted by @writer-1: hit@5 ${(await candidateHit5()).toFixed(4)}`);
    expect(pushed.comment).toContain(
      '> Carried over to `aaaaaaa`: no accepted gate is worse than when it was accepted.',
    );
    expect(pushed.comment).toMatch(
      /\| accepted \| @writer-1 \| `6dcb09b` \| hit@5 \| — \|\n\| [^|]+ \| carried over \| @writer-1 \| `aaaaaaa` \| hit@5 \| — \|/,
    );
    expect(pushed.json.acceptance).toMatchObject({
      by: WRITER.login,
      head_sha: HEAD,
      carried_over_to: NEXT,
      reason: null,
    });
    // On the push the API confirms the acceptance's source: the label event by its author, and their permission.
    expect(summarise(pushed.requests)).toEqual(
      expect.arrayContaining([
        `GET /repos/${OWNER}/${REPO}/issues/${PR}/events?per_page=100 200`,
        `GET ${PERMISSION_PATH(WRITER.login)} 200`,
      ]),
    );
  });

  it('a push with a worse drop: failing again, and the comment says the acceptance no longer covers it', async () => {
    earlierAcceptance(0.8);
    const r = await outcome(
      await runAction({
        payload: labelPayload('synchronize', WRITER.login, [LABEL], NEXT),
        inputs: { gates: FAILING_GATES, status: 'true' },
      }),
      NEXT,
    );
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.comment).toContain(
      `> **Not accepted:** the earlier acceptance by @&#8203;writer-1 (for 6dcb09b) no longer covers aaaaaaa: hit@5 is ${(await candidateHit5()).toFixed(4)}, worse than the accepted 0.8000.`,
    );
    expect(r.comment).toMatch(/\| lapsed \| @writer-1 \| `aaaaaaa` \| hit@5 \|/);
    expect(r.json.acceptance).toBeNull();
  });

  it('an equal drop from the same state carries over; the same state line in a comment someone else wrote is ignored', async () => {
    earlierAcceptance(await candidateHit5());
    const carried = await outcome(
      await runAction({
        payload: labelPayload('synchronize', WRITER.login, [LABEL], NEXT),
        inputs: { gates: FAILING_GATES },
      }),
    );
    expect(carried.code).toBe(0);
    expect(carried.json.acceptance.carried_over_to).toBe(NEXT);
    github.reset();
    earlierAcceptance(await candidateHit5(), WRITER);
    const forged = await runAction({
      payload: labelPayload('synchronize', WRITER.login, [LABEL], NEXT),
      inputs: { gates: FAILING_GATES },
    });
    expect(forged.code).toBe(1);
    const ours = github.listComments(OWNER, REPO, PR).filter((c) => c.user.login === GITHUB_ACTIONS_BOT.login);
    expect(ours[0].body).toContain('the earlier acceptance does not cover aaaaaaa');
  });

  it('removing the label withdraws it: failing, and the history says so', async () => {
    earlierAcceptance(await candidateHit5());
    const r = await outcome(
      await runAction({
        payload: labelPayload('unlabeled', WRITER.login, [], HEAD, LABEL),
        inputs: { gates: FAILING_GATES },
      }),
    );
    expect(r.code).toBe(1);
    expect(r.comment).toMatch(/\| withdrawn \| @writer-1 \| `6dcb09b` \| hit@5 \|/);
    expect(r.json.acceptance).toBeUndefined();
  });
});

/** An `issue_comment` event for a comment `author` wrote on the pull request (stored in the stand-in first). */
function commandEvent(body: string, author: Account, sender: Record<string, unknown> = {}) {
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
  return { action: 'created', issue, comment, repository: pr.repository, sender: { ...comment.user, ...sender } };
}

interface CommandOptions {
  state?: 'open' | 'closed';
  sender?: Record<string, unknown>;
  inputs?: Record<string, string>;
  /** The pull request's head when the command job runs (default HEAD). */
  head?: string;
  /** The report our comment showed before the command was written (default: HEAD's, a minute earlier); null: none. */
  shown?: ShownReport[] | null;
}

const A_MINUTE_AGO = () => new Date(Date.now() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Our sticky comment as a run for `shown`'s last commit left it, written a minute before the command. */
function earlierReport(shown: ShownReport[]) {
  const line = encodeState({ current: null, history: [], shown });
  github.addComment(OWNER, REPO, PR, `${MARKER}\nthe earlier report\n${line}\n`, GITHUB_ACTIONS_BOT, A_MINUTE_AGO());
}

async function command(body: string, author: Account, options: CommandOptions = {}) {
  const shown = options.shown === undefined ? [{ sha: HEAD, kind: 'report' as const, since: null }] : options.shown;
  if (shown) earlierReport(shown);
  github.addPullRequest({
    number: PR,
    headSha: options.head ?? HEAD,
    headRef: 'new-topic',
    headRepository: `${OWNER}/${REPO}`,
    baseSha: '0'.repeat(40),
    baseRef: 'main',
    state: options.state ?? 'open',
  });
  const payload = commandEvent(body, author, options.sender);
  const inputs = { gates: TWO_FAILING, status: 'true', ...options.inputs };
  const result = await runAction({ event: 'issue_comment', payload, inputs });
  const comments = github.listComments(OWNER, REPO, PR);
  const replies = comments.filter((c) => c.user.login === GITHUB_ACTIONS_BOT.login && !c.body.startsWith(MARKER));
  return {
    ...result,
    commandId: (payload.comment as { id: number }).id,
    sticky: comments.find((c) => c.body.startsWith(MARKER))?.body ?? '',
    replies: replies.map((c) => c.body),
    status: github.statuses(OWNER, REPO, options.head ?? HEAD).at(-1),
  };
}

describe('/evalverdict comment commands', () => {
  it('a maintainer accepts only nDCG@10, with the reason; hit@5 still fails', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const r = await command('/evalverdict accept nDCG@10 -- cheaper reranker', MAINTAINER);
    expect(r.code).toBe(1);
    expect(github.reactions(r.commandId)).toEqual(['+1']);
    expect(r.replies).toEqual([]);
    expect(r.sticky).toContain('**EvalVerdict: accepted by @maintainer-2**');
    expect(r.sticky).toContain('(comment): 1 failed gate accepted\n> - `nDCG@10`');
    expect(r.sticky).toContain('> Reason: cheaper reranker\n');
    const json = JSON.parse(readFileSync(join(r.workspace, 'evalverdict-report.json'), 'utf8'));
    expect(json.acceptance).toMatchObject({ by: MAINTAINER.login, head_sha: HEAD, reason: 'cheaper reranker' });
    expect(json.acceptance.gates.map((g: { metric: string }) => g.metric)).toEqual(['nDCG@10']);
    expect(r.status?.state).toBe('failure');
    const titled = annotations(r.stdout).filter((a) => a.properties.title?.startsWith('EvalVerdict gate'));
    expect(titled.map((a) => [a.level, a.properties.title])).toEqual([
      ['error', 'EvalVerdict gate failed: hit@5'],
      ['warning', 'EvalVerdict gate failed, accepted: nDCG@10'],
    ]);
    expect(summarise(r.requests)).toContain(`GET ${PERMISSION_PATH(MAINTAINER.login)} 200`);
  });

  it('the same from an outside contributor is refused with a reply, and nothing changes', async () => {
    const r = await command('/evalverdict accept nDCG@10 -- cheaper reranker', OUTSIDER);
    expect(r.code).toBe(0);
    expect(r.replies).toEqual([
      `${REPLY_MARKER}\nEvalVerdict did not take the command of @outsider-5: it takes write, maintain or admin permission on the repository, and GitHub reports none; nothing was changed.`,
    ]);
    expect(r.sticky).toBe(
      `${MARKER}\nthe earlier report\n${encodeState({ current: null, history: [], shown: [{ sha: HEAD, kind: 'report', since: null }] })}\n`,
    );
    expect(r.status).toBeUndefined();
    expect(github.reactions(r.commandId)).toEqual(['-1']);
    expect(summarise(r.requests.filter((q) => q.method !== 'GET'))).toEqual([
      `POST /repos/${OWNER}/${REPO}/issues/comments/${r.commandId}/reactions 201`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
  });

  it('a permission forged in the event (sender, author_association) is ignored: the API decides', async () => {
    github.setPermission(OUTSIDER, 'read');
    const forged = { permission: 'admin', role_name: 'admin', site_admin: true };
    const r = await command('/evalverdict accept -- ship it', OUTSIDER, { sender: forged });
    expect(r.replies[0]).toContain('GitHub reports read; nothing was changed.');
    expect(r.sticky).toContain('the earlier report\n');
    expect(r.sticky).not.toContain('accepted by');
  });

  it('a malformed command gets the usage; a bot and a closed pull request get a short reply', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const malformed = await command('/evalverdict accept nDCG@10 cheaper reranker', MAINTAINER);
    expect(malformed.replies).toHaveLength(1);
    expect(malformed.replies[0]).toContain('no \\`-- REASON\\`');
    expect(malformed.replies[0]).toContain('Usage: `/evalverdict accept [GATE ...] -- REASON`');
    // The author's permission is asked first: only a writer's malformed command gets a reply every time.
    expect(malformed.requests.some((q) => q.path.includes('/collaborators/'))).toBe(true);
    github.reset();
    const bot = await command('/evalverdict accept -- ok', { login: 'renovate[bot]', id: 29139614, type: 'Bot' });
    expect(bot.replies).toEqual([
      `${REPLY_MARKER}\nEvalVerdict did not take the command of @renovate\\[bot\\]: commands from bots are not taken.`,
    ]);
    expect(github.reactions(bot.commandId)).toEqual(['-1']);
    github.reset();
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const closed = await command('/evalverdict accept -- ok', MAINTAINER, { state: 'closed' });
    expect(closed.replies).toEqual([
      `${REPLY_MARKER}\nEvalVerdict did not take the command of @maintainer-2: the pull request is closed; nothing was changed.`,
    ]);
    expect(closed.status).toBeUndefined();
  });

  it('command text is escaped in the comment and never printed as a workflow command', async () => {
    github.setPermission(MAINTAINER, 'admin');
    const hostile = '<img src=x> @everyone #1 ::error::forged [x](https://evil.example)';
    const r = await command(`/evalverdict accept -- ${hostile}`, MAINTAINER);
    expect(r.sticky).toContain(
      '> Reason: &lt;img src=x&gt; @&#8203;everyone #&#8203;1 ::error::forged \\[x\\](https:/&#8203;/evil.example)\n',
    );
    expect(r.sticky).not.toContain('<img');
    expect(r.stdout.split('\n').some((l) => l.startsWith('::error::forged'))).toBe(false);
    expect(annotations(r.stdout).some((a) => a.message.includes('forged'))).toBe(false);
    const json = JSON.parse(readFileSync(join(r.workspace, 'evalverdict-report.json'), 'utf8'));
    expect(json.acceptance.reason).toBe(hostile);
    // All failing gates were accepted: the step passes.
    expect(r.code).toBe(0);
    expect(r.status?.state).toBe('success');
  });

  it('/evalverdict rerun by a writer re-evaluates the head commit', async () => {
    github.setPermission(WRITER, 'write');
    const r = await command('/evalverdict rerun', WRITER);
    expect(github.reactions(r.commandId)).toEqual(['+1']);
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.sticky).toContain('hit@5');
  });

  it("fork setup: candidate artifact:NAME is the artifact of the head commit's run, not a new eval", async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const zip = writeZip([{ name: 'run.sqlite', data: readFileSync(join(repoRoot, 'fixtures', 'candidate.sqlite')) }]);
    const older = github.addWorkflowRun({
      workflow: 'rag-eval.yml',
      headSha: '1'.repeat(40),
      branch: 'new-topic',
      createdAt: '2026-11-02T00:00:00Z',
    });
    github.addArtifact(older, 'evalverdict-candidate', zip);
    const run = github.addWorkflowRun({
      workflow: 'rag-eval.yml',
      headSha: HEAD,
      branch: 'new-topic',
      createdAt: '2026-11-03T00:00:00Z',
      conclusion: 'failure',
    });
    const artifact = github.addArtifact(run, 'evalverdict-candidate', zip);
    const r = await command('/evalverdict accept -- smaller index', MAINTAINER, {
      inputs: { candidate: 'artifact:evalverdict-candidate' },
    });
    expect(r.code).toBe(0);
    expect(r.status?.state).toBe('success');
    expect(r.sticky).toContain('**EvalVerdict: accepted by @maintainer-2**');
    expect(summarise(r.requests)).toEqual(
      expect.arrayContaining([
        `GET /repos/${OWNER}/${REPO}/actions/runs?head_sha=${HEAD}&status=completed&per_page=10 200`,
        `GET /repos/${OWNER}/${REPO}/actions/artifacts/${artifact}/zip 302`,
      ]),
    );
    expect(r.stdout).toContain(
      `candidate artifact:evalverdict-candidate: run.sqlite of run ${run}, the head 6dcb09b's`,
    );
  });
});
