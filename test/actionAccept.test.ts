/**
 * Accept by label (issue 36), end to end: the bundled action on `labeled`, `unlabeled` and `synchronize` events
 * against the stand-in API, which answers the permission look-up as GitHub does (validated against its OpenAPI
 * description like every other call).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Account } from './helpers/fakeGitHub.js';
import {
  FAILING_GATES,
  MARKER,
  OWNER,
  PASSING_GATES,
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
const LABEL = 'evalverdict: accept';
const WRITER: Account = { login: 'writer-1', id: 501, type: 'User' };
const MAINTAINER: Account = { login: 'maintainer-2', id: 502, type: 'User' };
const READER: Account = { login: 'reader-3', id: 503, type: 'User' };
const PERMISSION_PATH = (login: string) => `/repos/${OWNER}/${REPO}/collaborators/${login}/permission`;

/** A `pull_request` event payload: `action` by `sender`, the pull request carrying `labels`. */
function labelPayload(action: string, sender: Record<string, unknown>, labels: string[], label?: string) {
  const payload = pullRequestPayload() as Record<string, any>;
  payload.action = action;
  payload.sender = { ...payload.sender, ...sender };
  payload.pull_request.labels = labels.map((name, i) => ({ ...payload.pull_request.labels[0], id: 90 + i, name }));
  if (label !== undefined) payload.label = { ...payload.pull_request.labels[0], name: label };
  return payload;
}

/** The candidate's hit@5 (the gate FAILING_GATES fails), as the library reports it for the same runs. */
async function candidateHit5(): Promise<number> {
  return (await expectedFor(FAILING_GATES)).report.metrics['hit@5'].candidate!;
}

async function run(payload: Record<string, unknown>, gates = FAILING_GATES) {
  const result = await runAction({ payload, inputs: { gates, status: 'true' } });
  const comment = github.listComments(OWNER, REPO, PR)[0]?.body ?? '';
  const json = JSON.parse(readFileSync(join(result.workspace, 'evalverdict-report.json'), 'utf8'));
  const status = github.statuses(OWNER, REPO, HEAD).at(-1);
  return { ...result, comment, json, status };
}

describe('accept by label', () => {
  it('a writer labels: status success, "accepted by @user" with the gate, the JSON records it, the step passes', async () => {
    github.setPermission(WRITER, 'write');
    const r = await run(labelPayload('labeled', { login: WRITER.login }, ['bug', LABEL], LABEL));
    expect(r.code).toBe(0);
    expect(r.status?.state).toBe('success');
    const hit5 = await candidateHit5();
    expect(r.status?.description).toBe(`accepted by @writer-1: hit@5 ${hit5.toFixed(4)}`);
    expect(r.comment.startsWith(`${MARKER}\n> [!IMPORTANT]\n> **EvalVerdict: accepted by @writer-1** on `)).toBe(true);
    expect(r.comment).toContain(
      `for \`6dcb09b\` (label evalverdict: accept): 1 failed gate accepted\n> - \`hit@5\` ${hit5.toFixed(4)}; allowed: ≥ 0.9900\n`,
    );
    // The report itself still says what failed, below the acceptance.
    expect(r.comment).toContain('> [!CAUTION]');
    expect(r.json.verdict).toBe('fail');
    expect(r.json.acceptance).toEqual({
      by: WRITER.login,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      head_sha: HEAD,
      gates: [
        expect.objectContaining({
          metric: 'hit@5',
          judged: 'value',
          threshold: '≥ 0.9900',
          candidate: Number(hit5.toFixed(4)),
        }),
      ],
      reason: null,
    });
    expect(r.outputs.passed).toBe('true');
    expect(r.outputs.verdict).toBe('fail');
    // The accepted gate is a warning annotation, not an error.
    expect(annotations(r.stdout).filter((a) => a.level === 'error')).toEqual([]);
    expect(annotations(r.stdout).map((a) => a.properties.title)).toContain('EvalVerdict gate failed, accepted: hit@5');
    expect(summarise(r.requests)).toContain(`GET ${PERMISSION_PATH(WRITER.login)} 200`);
  });

  it('a maintainer (role maintain, permission write) accepts too', async () => {
    github.setPermission(MAINTAINER, 'write', 'maintain');
    const r = await run(labelPayload('labeled', { login: MAINTAINER.login }, [LABEL], LABEL));
    expect(r.code).toBe(0);
    expect(r.json.acceptance.by).toBe(MAINTAINER.login);
  });

  it('a reader labels: still failing, and the comment says why', async () => {
    github.setPermission(READER, 'read');
    const r = await run(labelPayload('labeled', { login: READER.login }, [LABEL], LABEL));
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.comment).toContain(
      '> **Not accepted:** @&#8203;reader-3 added the label evalverdict: accept but has read permission on the repository; accepting takes write, maintain or admin.',
    );
    expect(r.json.acceptance).toBeNull();
    expect(r.json.acceptance_refused).toContain('has read permission');
    expect(r.outputs.passed).toBe('false');
  });

  it('a permission forged in the event is ignored: the API decides', async () => {
    github.setPermission(READER, 'triage');
    const forged = { login: READER.login, permission: 'admin', role_name: 'admin', site_admin: true };
    const payload = labelPayload('labeled', forged, [LABEL], LABEL);
    payload.pull_request.author_association = 'OWNER';
    const r = await run(payload);
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.comment).toContain('has triage permission');
    expect(summarise(r.requests)).toContain(`GET ${PERMISSION_PATH(READER.login)} 200`);
  });

  it('a user GitHub does not know as a collaborator (404) cannot accept', async () => {
    const r = await run(labelPayload('labeled', { login: 'stranger-4' }, [LABEL], LABEL));
    expect(r.code).toBe(1);
    expect(r.comment).toContain('has none permission');
    expect(summarise(r.requests)).toContain(`GET ${PERMISSION_PATH('stranger-4')} 404`);
  });

  it('a new push with the label still on fails again: the earlier acceptance does not cover it', async () => {
    github.setPermission(WRITER, 'write');
    const r = await run(labelPayload('synchronize', { login: WRITER.login }, [LABEL]));
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.comment).toContain('the earlier acceptance does not cover 6dcb09b. Remove the label and add it again');
    // No permission is asked for: nothing could be accepted.
    expect(r.requests.some((q) => q.path.includes('/collaborators/'))).toBe(false);
  });

  it('removing the label withdraws it: the plain failing report, no API call for it', async () => {
    github.setPermission(WRITER, 'write');
    const r = await run(labelPayload('unlabeled', { login: WRITER.login }, ['bug'], LABEL));
    expect(r.code).toBe(1);
    expect(r.status?.state).toBe('failure');
    expect(r.comment).not.toContain('accepted by');
    expect(r.comment).not.toContain('Not accepted');
    expect(r.json.acceptance).toBeUndefined();
    expect(r.requests.some((q) => q.path.includes('/collaborators/'))).toBe(false);
  });

  it('nothing to accept when the gates pass: no look-up, no acceptance', async () => {
    github.setPermission(WRITER, 'write');
    const r = await run(labelPayload('labeled', { login: WRITER.login }, [LABEL], LABEL), PASSING_GATES);
    expect(r.code).toBe(0);
    expect(r.json.acceptance).toBeUndefined();
    expect(r.requests.some((q) => q.path.includes('/collaborators/'))).toBe(false);
  });

  it('input `accept-label` names the label; another label accepts nothing', async () => {
    github.setPermission(WRITER, 'write');
    const payload = labelPayload('labeled', { login: WRITER.login }, ['ship it'], 'ship it');
    const other = await run(payload);
    expect(other.code).toBe(1);
    const named = await runAction({ payload, inputs: { gates: FAILING_GATES, 'accept-label': 'Ship It' } });
    expect(named.code).toBe(0);
  });
});
