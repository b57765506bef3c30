/**
 * The action end to end (see test/action.test.ts) when something goes wrong: mistaken inputs, an API that never
 * answers, dawdles or garbles its JSON, a truncated event file, and the error panel's commit.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../src/stableJson.js';
import { renderErrorPanel } from '../src/render/errorPanel.js';
import { GITHUB_ACTIONS_BOT } from './helpers/fakeGitHub.js';
import {
  COMMENTS_PATH,
  MARKER,
  OWNER,
  PASSING_GATES,
  PR,
  REPO,
  annotations,
  clockless,
  commentUrl,
  expectedFor,
  github,
  pullRequestPayload,
  runAction,
  scratch,
  summarise,
  useActionSuite,
  ownBody,
} from './helpers/actionSuite.js';

useActionSuite();

describe('input mistakes replace the comment with the error panel', () => {
  const panelOf = (message: string) =>
    renderErrorPanel({
      message,
      inputError: true,
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`,
    });

  it('an empty `candidate` (an unset step output): the old green comment becomes the error panel, the step fails', async () => {
    const green = github.addComment(
      OWNER,
      REPO,
      PR,
      `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`,
      GITHUB_ACTIONS_BOT,
    );
    const run = await runAction({ inputs: { gates: PASSING_GATES, candidate: '' } });
    expect(run.code).toBe(1);
    const message = 'input `candidate` is required (a path, relative to the workspace)';
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${green.id} 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: ownBody(panelOf(message), 'error') });
    expect(annotations(run.stdout)).toEqual([{ level: 'error', properties: {}, message: `EvalVerdict: ${message}` }]);
    expect(run.outputs.verdict).toBe('error');
    expect(run.outputs.passed).toBe('false');
    expect(run.outputs['comment-url']).toBe(commentUrl(green.id));
    expect(run.outputs.summary).toBe(JSON.stringify({ verdict: 'error', error: message }));
    expect(run.summary).toBe(panelOf(message));
    expect(clockless(readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8'))).toBe(
      stableJson({ verdict: 'error', error: message }),
    );
  });

  it('`config` and `gates` both set, and a bad `fail-on`: every mistake on the panel (a first comment is created)', async () => {
    const run = await runAction({ inputs: { config: 'gates.yml', gates: PASSING_GATES, 'fail-on': 'sometimes' } });
    expect(run.code).toBe(1);
    const messages = [
      'inputs `config` ("gates.yml") and `gates` are exclusive: give a config file or inline gates, not both',
      'input `fail-on`: "sometimes" is not one of error, warn, never',
    ];
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.requests[1].body).toEqual({ body: ownBody(panelOf(messages.join('\n')), 'error') });
    expect(annotations(run.stdout)).toEqual([
      { level: 'error', properties: {}, message: messages.map((m) => `EvalVerdict: ${m}`).join('\n') },
    ]);
  });

  it('a `report-path` that is an input: refused before anything is read or written, the input unchanged', async () => {
    const run = await runAction({
      inputs: { gates: PASSING_GATES, golden: 'evals/golden.md', 'report-path': 'evals/golden.md' },
      files: { 'evals/golden.md': '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n' },
    });
    expect(run.code).toBe(1);
    const golden = join(run.workspace, 'evals', 'golden.md');
    const message = `input \`report-path\` ${golden} is the input \`golden\` ${golden}: an output never replaces an input; name another file`;
    expect(annotations(run.stdout)).toEqual([{ level: 'error', properties: {}, message: `EvalVerdict: ${message}` }]);
    expect(readFileSync(golden, 'utf8')).toBe('- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n');
    expect(existsSync(join(run.workspace, 'evals', 'golden.json'))).toBe(false);
    expect(run.summary).toBe(panelOf(message));
    expect(run.outputs.verdict).toBe('error');
  });

  it('an unusable comment input still fails before any API call, naming every mistake', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\nold`, GITHUB_ACTIONS_BOT);
    for (const inputs of [
      { comment: 'sometimes' },
      { 'comment-id': 'two words' },
      { 'pr-number': '#12' },
      { 'comment-author': 'not a login' },
    ] as Array<Record<string, string>>) {
      const run = await runAction({ inputs: { ...inputs, candidate: '' } });
      expect(run.code).toBe(1);
      expect(run.requests).toEqual([]);
      const [failure] = annotations(run.stdout);
      expect(failure.message.split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^EvalVerdict: input \`${Object.keys(inputs)[0]}\`: `)),
        'EvalVerdict: input `candidate` is required (a path, relative to the workspace)',
      ]);
    }
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([`${MARKER}\nold`]);
  });
});

describe("the error panel names the pull request's head commit", () => {
  it("on pull_request (GITHUB_SHA is the merge commit) and on workflow_run (GITHUB_SHA is the default branch's)", async () => {
    const head = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
    const payload = pullRequestPayload();
    (payload.pull_request as Record<string, any>).head.sha = head;
    const merge = 'e5bd3914e2e596debea16f433f57875b5b90bcd6';
    const run = await runAction({
      inputs: { gates: PASSING_GATES, candidate: 'missing.sqlite' },
      payload,
      env: { GITHUB_SHA: merge },
    });
    expect(run.code).toBe(1);
    const body = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(body).toContain(`commit ${head.slice(0, 12)}`);
    expect(body).not.toContain(merge.slice(0, 12));

    github.reset();
    const workflowRun = {
      action: 'completed',
      workflow_run: {
        id: 1,
        event: 'pull_request',
        head_sha: head,
        pull_requests: [{ number: PR, base: { repo: { url: `https://api.github.com/repos/${OWNER}/${REPO}` } } }],
      },
    };
    const wr = await runAction({
      event: 'workflow_run',
      inputs: { gates: PASSING_GATES, candidate: 'missing.sqlite' },
      payload: workflowRun,
      env: { GITHUB_SHA: merge },
    });
    expect(wr.code).toBe(1);
    const wrBody = (wr.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(wrBody).toContain(`commit ${head.slice(0, 12)}`);
    expect(wrBody).not.toContain(merge.slice(0, 12));
  });
});

describe('a GitHub API that never answers, dawdles, or garbles its JSON', () => {
  const LIST = new RegExp(`^${COMMENTS_PATH}$`);

  it('never answers: the publish deadline fails the step at once, and the report is in the summary and files', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: Number.POSITIVE_INFINITY, times: 100 });
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'request-timeout': '20', 'publish-timeout': '2' },
    });
    expect(run.code).toBe(1);
    // The 2 s deadline cut the one attempt, and the stale mark's one attempt within its grace (the shorter of 10 s and
    // the two timeouts: 2 s): not the 20 s request-timeout, nor retries with their 14 s of waits. A count and the
    // message naming the deadline, not the wall time (a busy machine stretches it); 0.45 s of CPU here.
    expect(run.requests.filter((r) => r.method === 'GET' && LIST.test(r.path))).toHaveLength(2);
    expect(run.cpuSeconds, `${run.cpuSeconds.toFixed(1)} s of CPU`).toBeLessThan(5);
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      `EvalVerdict: could not publish the comment on pull request #${PR}: GitHub's API did not finish within 2 s (input \`publish-timeout\`); the report is in the job summary and the report files`,
    ]);
    expect(run.summary).toBe(out.markdownFull);
    expect(readFileSync(join(run.workspace, 'evalverdict-report.md'), 'utf8')).toBe(out.markdownFull);
    expect(run.outputs['comment-url']).toBe('');
    github.clearRequests(); // the unanswered request has no answer to check against GitHub's description
  });

  it('never answers within the request timeout: each attempt is cut and retried; the retries run out', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: Number.POSITIVE_INFINITY, times: 100 });
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'request-timeout': '0.5', 'publish-timeout': '60' },
    });
    expect(run.code).toBe(1);
    const requests = run.requests.filter((r) => r.method === 'GET' && LIST.test(r.path));
    expect(requests).toHaveLength(4); // the first attempt and 3 retries
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      `EvalVerdict: could not publish the comment on pull request #${PR}: GET ${github.url}${COMMENTS_PATH}: no answer within 0.5 s (input \`request-timeout\`: 0.5 s, retried); the report is in the job summary and the report files`,
    ]);
    github.clearRequests();
  });

  it('answers slowly: the attempt past the request timeout is cut, the retry gets the comment made', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, delayMs: 3_000, body: {}, times: 1 });
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'request-timeout': '1' } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests).slice(-2)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(1);
    github.clearRequests();
  });

  it('answers malformed JSON: a message that says so, not "Cannot use \'in\' operator"', async () => {
    github.inject({ method: 'GET', path: LIST, status: 200, rawBody: '[{"id": 1, "body": ', times: 100 });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    const messages = annotations(run.stdout).map((a) => a.message);
    expect(messages).toEqual([
      `EvalVerdict: could not publish the comment on pull request #${PR}: GET ${github.url}${COMMENTS_PATH}: the answer (HTTP 200, 19 bytes) is not valid JSON`,
    ]);
    github.clearRequests();
  });
});

describe('a truncated event file', () => {
  it("gets EvalVerdict's own message, not a crash inside @actions/github", async () => {
    const eventPath = join(scratch, 'truncated-event.json');
    writeFileSync(eventPath, JSON.stringify(pullRequestPayload()).slice(0, 100));
    const run = await runAction({ inputs: { gates: PASSING_GATES }, env: { GITHUB_EVENT_PATH: eventPath } });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    const [failure] = annotations(run.stdout);
    expect(failure.message).toMatch(
      new RegExp(`^EvalVerdict: GITHUB_EVENT_PATH ${eventPath}: the event payload is not JSON \\(`),
    );
    expect(run.requests).toEqual([]);
  });
});
