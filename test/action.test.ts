/**
 * The GitHub Action end to end, as the runner calls it: `node dist/index.js` in a child process against a stand-in
 * for GitHub's REST API (test/helpers/actionSuite.ts, actionRunner.ts, fakeGitHub.ts). This file: the stand-in
 * itself, the inputs, and the sticky comment on a pull request. The other action files (split so vitest runs them
 * in parallel): actionFailures (input mistakes, an API that fails), actionReports (status, baselines, push,
 * write-aggregate, the workflow examples), actionThreads (the bundles' worker threads).
 *
 * Run `npm run build` first; expected reports come from the same pipeline in this process, so the assertions on
 * the comment body, summary and report files are exact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stableJson } from '../src/stableJson.js';
import { renderErrorPanel } from '../src/render/errorPanel.js';
import { getInputs } from '../src/action/inputs.js';
import { commentDecision } from '../src/publish/commentPolicy.js';
import { GITHUB_ACTIONS_BOT, RECORDED_MIDDLE_PAGE_LINK, checkRequest } from './helpers/fakeGitHub.js';
import type { Account } from './helpers/fakeGitHub.js';
import {
  COMMENTS_PATH,
  FAILING_GATES,
  MARKER,
  OWNER,
  PASSING_GATES,
  PR,
  REPO,
  TOKEN,
  actionDefaults,
  annotations,
  checkSummaryOutput,
  clockless,
  commentUrl,
  expectedFor,
  expectedOutputs,
  github,
  pullRequestPayload,
  runAction,
  spec,
  summarise,
  useActionSuite,
  writes,
  ownBody,
  HEAD_SHA,
} from './helpers/actionSuite.js';

useActionSuite();

describe("the stand-in GitHub API is checked against GitHub's OpenAPI description", () => {
  it('flags unknown paths, wrong bodies and bad parameters', () => {
    expect(
      checkRequest(spec, { method: 'GET', path: COMMENTS_PATH, query: { per_page: '100' }, body: undefined }),
    ).toEqual([]);
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { body: 'x' } })).toEqual([]);
    expect(
      checkRequest(spec, {
        method: 'PATCH',
        path: `/repositories/1000/issues/comments/7`,
        query: {},
        body: { body: 'x' },
      }),
    ).toEqual([]);
    expect(
      checkRequest(spec, {
        method: 'POST',
        path: `/repos/${OWNER}/${REPO}/issues/${PR}/comment`,
        query: {},
        body: { body: 'x' },
      })[0],
    ).toMatch(/no such operation/);
    expect(checkRequest(spec, { method: 'PUT', path: COMMENTS_PATH, query: {}, body: { body: 'x' } })[0]).toMatch(
      /no such operation/,
    );
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { text: 'x' } })).toEqual([
      `POST ${COMMENTS_PATH} body: missing required property \`body\``,
    ]);
    expect(checkRequest(spec, { method: 'POST', path: COMMENTS_PATH, query: {}, body: { body: 42 } })).toEqual([
      `POST ${COMMENTS_PATH} body.body: integer where the schema wants string`,
    ]);
    expect(
      checkRequest(spec, { method: 'GET', path: COMMENTS_PATH, query: { perpage: '100' }, body: undefined })[0],
    ).toMatch(/query parameter `perpage` is not declared/);
    expect(
      checkRequest(spec, {
        method: 'GET',
        path: `/repos/${OWNER}/${REPO}/issues/undefined/comments`,
        query: {},
        body: undefined,
      })[0],
    ).toMatch(/is not an integer/);
    expect(
      checkRequest(spec, {
        method: 'DELETE',
        path: `/repos/${OWNER}/${REPO}/issues/comments/9`,
        query: {},
        body: { body: 'x' },
      })[0],
    ).toMatch(/takes no request body/);
  });

  it("answers in GitHub's shapes, with Link headers like the recorded ones", async () => {
    const user: Account = { login: 'octocat', id: 1, type: 'User' };
    for (let i = 0; i < 5; i++) github.addComment(OWNER, REPO, PR, `comment ${i}`, user);
    const response = await fetch(`${github.url}${COMMENTS_PATH}?per_page=2&page=2`, {
      headers: { authorization: `token ${TOKEN}`, 'user-agent': 'evalverdict-action test' },
    });
    expect(response.status).toBe(200);
    const rels = (link: string) =>
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [
        new URL(m[1]).pathname.replace(/\/\d+\//, '/ID/').replace(/\/issues\/\d+/, '/issues/N'),
        m[2],
      ]);
    const ours = rels(response.headers.get('link')!);
    const recordedRels = rels(RECORDED_MIDDLE_PAGE_LINK);
    expect(ours.map(([, rel]) => rel)).toEqual(recordedRels.map(([, rel]) => rel));
    expect(ours[0][0]).toBe('/repositories/ID/issues/N/comments');
    expect(recordedRels[0][0]).toBe('/repositories/ID/issues');
    expect(((await response.json()) as Array<{ body: string }>).map((c) => c.body)).toEqual(['comment 2', 'comment 3']);
  });
});

describe('comment modes', () => {
  it('create a first comment only for the verdicts their mode names, and always keep an existing one current', () => {
    const table = (['always', 'on-change', 'on-failure', 'never'] as const).map((mode) => [
      mode,
      ...(['pass', 'warn', 'fail', 'error'] as const).map((v) => {
        const d = commentDecision(mode, v);
        return d.publish ? (d.createIfMissing ? 'create' : 'update') : '-';
      }),
    ]);
    expect(table).toEqual([
      ['always', 'create', 'create', 'create', 'create'],
      ['on-change', 'update', 'create', 'create', 'create'],
      ['on-failure', 'update', 'update', 'create', 'create'],
      ['never', '-', '-', '-', '-'],
    ]);
  });
});

describe('inputs', () => {
  const base = {
    INPUT_BASELINE: 'b.sqlite',
    INPUT_CANDIDATE: 'c.sqlite',
    INPUT_GOLDEN: 'g.yaml',
    GITHUB_WORKSPACE: '/ws',
  };
  const error = (env: Record<string, string>) => {
    try {
      getInputs({ ...base, ...env });
    } catch (e) {
      return (e as Error).message;
    }
    return null;
  };

  it("are read once into a typed object, with the runner's hyphenated names and action.yml's defaults", () => {
    const defaults = Object.fromEntries(
      Object.entries(actionDefaults()).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
    );
    expect(
      getInputs({
        ...defaults,
        ...base,
        'INPUT_COMMENT-ID': 'answers',
        'INPUT_FAIL-ON': 'warn',
        'INPUT_WRITE-AGGREGATE': 'True',
        'INPUT_BASELINE-RUN': 'r1',
      }),
    ).toEqual({
      baseline: '/ws/b.sqlite',
      baselineArtifact: null,
      candidate: '/ws/c.sqlite',
      candidateArtifact: null,
      golden: '/ws/g.yaml',
      baselineRun: 'r1',
      candidateRun: null,
      config: null,
      gates: null,
      githubToken: TOKEN,
      comment: 'always',
      commentId: 'answers',
      commentAuthor: null,
      failOn: 'warn',
      status: 'auto',
      strictChunkerVersion: false,
      writeAggregate: true,
      reportPath: '/ws/evalverdict-report.md',
      jsonPath: '/ws/evalverdict-report.json',
      prNumber: null,
      requestTimeoutS: 30,
      publishTimeoutS: 120,
      baselineMaxAgeDays: 7,
      metricOptions: {},
      acceptLabel: 'evalverdict: accept',
      workspace: '/ws',
    });
  });

  it('baseline: artifact:NAME with its inputs, and their mistakes', () => {
    const defaults = Object.fromEntries(
      Object.entries(actionDefaults()).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
    );
    const read = (extra: Record<string, string>) => getInputs({ ...defaults, ...base, ...extra });
    expect(read({ INPUT_BASELINE: 'artifact:evalverdict-baseline' })).toMatchObject({
      baseline: null,
      baselineArtifact: {
        name: 'evalverdict-baseline',
        workflow: null,
        maxCommits: 50,
        path: null,
        ifNoBaseline: 'warn',
      },
    });
    expect(
      read({
        INPUT_BASELINE: 'artifact:base',
        'INPUT_BASELINE-WORKFLOW': 'main.yaml',
        'INPUT_BASELINE-MAX-COMMITS': '7',
        'INPUT_BASELINE-PATH': 'runs/x.db',
        'INPUT_IF-NO-BASELINE': 'skip',
      }).baselineArtifact,
    ).toEqual({ name: 'base', workflow: 'main.yaml', maxCommits: 7, path: 'runs/x.db', ifNoBaseline: 'skip' });
    const error = (extra: Record<string, string>) => {
      try {
        read({ INPUT_BASELINE: 'artifact:base', ...extra });
      } catch (e) {
        return (e as Error).message;
      }
      return null;
    };
    expect(error({ INPUT_BASELINE: 'artifact:' })).toBe(
      'input `baseline`: "artifact:" is not artifact:NAME with an artifact name (no " : < > | * ? \\ / or line breaks)',
    );
    expect(error({ 'INPUT_BASELINE-MAX-COMMITS': '0' })).toBe(
      'input `baseline-max-commits`: "0" is not a number from 1 to 9999',
    );
    expect(error({ 'INPUT_BASELINE-WORKFLOW': '.github/workflows/x.yml' })).toBe(
      'input `baseline-workflow`: ".github/workflows/x.yml" is not a workflow file name (e.g. rag-eval.yml, without .github/workflows/) or id',
    );
    expect(error({ 'INPUT_IF-NO-BASELINE': 'ignore' })).toBe(
      'input `if-no-baseline`: "ignore" is not one of warn, fail, skip',
    );
  });

  it('name the input and quote the value in every error', () => {
    expect(error({ INPUT_BASELINE: '' })).toBe('input `baseline` is required (a path, relative to the workspace)');
    expect(error({ 'INPUT_FAIL-ON': 'errors' })).toBe('input `fail-on`: "errors" is not one of error, warn, never');
    expect(error({ 'INPUT_STRICT-CHUNKER-VERSION': 'yes' })).toBe(
      'input `strict-chunker-version`: "yes" is not a boolean (use true or false)',
    );
    expect(error({ 'INPUT_COMMENT-ID': 'two words' })).toBe(
      'input `comment-id`: "two words" must be 1 to 64 letters, digits or . _ - : / (it goes into a hidden HTML marker)',
    );
    expect(error({ 'INPUT_COMMENT-ID': 'x-->' })).toMatch(/^input `comment-id`: "x-->"/);
    expect(error({ 'INPUT_PR-NUMBER': '#12' })).toBe('input `pr-number`: "#12" is not a pull request number');
    expect(error({ 'INPUT_REPORT-PATH': 'reports/' })).toBe(
      'input `report-path`: "reports/" is a directory; give a file name such as evalverdict-report.md',
    );
    for (const bad of ['0', '-1', 'soon', '1e3', '100000'])
      expect(error({ 'INPUT_REQUEST-TIMEOUT': bad })).toBe(
        `input \`request-timeout\`: "${bad}" is not a number of seconds (> 0, e.g. 30)`,
      );
    expect(error({ 'INPUT_PUBLISH-TIMEOUT': '2 min' })).toBe(
      'input `publish-timeout`: "2 min" is not a number of seconds (> 0, e.g. 30)',
    );
  });
});

describe('the action on a pull request', () => {
  it('creates the sticky comment on the first run, with the exact outputs, summary and report files', async () => {
    const out = await expectedFor(PASSING_GATES);
    expect(out.report.verdict).toBe('pass');
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.requests[1].body).toEqual({ body: ownBody(out.markdown) });
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body, c.user.login])).toEqual([
      [1000, ownBody(out.markdown), GITHUB_ACTIONS_BOT.login],
    ]);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: true, commentUrl: commentUrl(1000) }));
    expect(run.outputs['failed-gates']).toBe('[]');
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.summary).toBe(out.markdownFull);
    expect(readFileSync(join(run.workspace, 'evalverdict-report.md'), 'utf8')).toBe(out.markdownFull);
    expect(clockless(readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8'))).toBe(out.json);
    expect(annotations(run.stdout)).toEqual([]);
    expect(run.stdout).toContain(`created the EvalVerdict comment on pull request #${PR}: ${commentUrl(1000)}`);
    // The only place the token appears is the runner's mask command (the runner hides it from the log).
    expect(run.stdout.split('\n').filter((l) => l.includes(TOKEN))).toEqual([`::add-mask::${TOKEN}`]);
    expect(run.stderr).not.toContain(TOKEN);
  });

  it('updates the same comment on the second run', async () => {
    const first = github.addComment(OWNER, REPO, PR, `${MARKER}\nthe report of an earlier commit`, GITHUB_ACTIONS_BOT);
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${first.id} 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: ownBody(out.markdown) });
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [first.id, ownBody(out.markdown)],
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(first.id));
    expect(run.stdout).toContain(`updated the EvalVerdict comment on pull request #${PR}`);
  });

  it('makes no write when the report is unchanged', async () => {
    const out = await expectedFor(PASSING_GATES);
    const first = github.addComment(OWNER, REPO, PR, ownBody(out.markdown), GITHUB_ACTIONS_BOT);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, 'GET /user 403']);
    expect(run.outputs['comment-url']).toBe(commentUrl(first.id));
    expect(run.stdout).toContain('is already up to date');
  });

  it('baseline and candidate swapped (the baseline is the newer run): a warning annotation, nothing in the comment', async () => {
    const run = await runAction({
      inputs: { baseline: 'fixtures/candidate.sqlite', candidate: 'fixtures/baseline.sqlite', gates: PASSING_GATES },
    });
    expect(run.stderr).toBe('');
    expect(annotations(run.stdout).filter((a) => a.level === 'warning')).toEqual([
      {
        level: 'warning',
        properties: {},
        message:
          'the baseline run `candidate-passages` (created 2026-11-02T12:00:00Z) is newer than the candidate run `baseline-whole-doc` (created 2026-11-01T12:00:00Z): the runs may be swapped (the baseline comes first)',
      },
    ]);
    const posted = writes(run.requests).map((r) => JSON.stringify(r.body));
    expect(posted).toHaveLength(1);
    expect(posted[0]).not.toContain('swapped');
    expect(run.summary).not.toContain('swapped');
  });

  it('fails the step on a failing gate, with one error annotation per failed gate and the outputs', async () => {
    const out = await expectedFor(FAILING_GATES);
    expect(out.report.verdict).toBe('fail');
    const run = await runAction({ inputs: { gates: FAILING_GATES } });
    expect(run.code).toBe(1);
    const hit5 = out.report.metrics['hit@5'];
    expect(annotations(run.stdout)).toEqual([
      {
        level: 'error',
        properties: { title: 'EvalVerdict gate failed: hit@5' },
        message: `hit@5: threshold ≥ 0.9900 not met (baseline ${hit5.baseline!.toFixed(4)}, candidate ${hit5.candidate!.toFixed(4)}, delta −${Math.abs(hit5.delta!).toFixed(4)})`,
      },
      { level: 'error', properties: {}, message: 'EvalVerdict: 1 gate failed (fail-on: error): hit@5 (≥ 0.9900)' },
    ]);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: false, commentUrl: commentUrl(1000) }));
    const r4 = (x: number | null) => (x === null ? null : Number(x.toFixed(4)));
    expect(JSON.parse(run.outputs['failed-gates'])).toEqual([
      {
        baseline: r4(hit5.baseline),
        candidate: r4(hit5.candidate),
        delta: r4(hit5.delta),
        // A `min` gate runs no test: it carries no p (issue 34).
        effect: 'fail',
        level: 'error',
        metric: 'hit@5',
        min: 0.99,
        note: '',
        result: 'fail',
        threshold: '≥ 0.9900',
        line: 2,
      },
    ]);
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.summary).toBe(out.markdownFull);
    expect(run.requests[1].body).toEqual({ body: ownBody(out.markdown) });
  });

  it('with fail-on: never, a failing gate from .github/evalverdict.yml is a warning at its line; the step passes, passed says false', async () => {
    // No `config` or `gates` input: .github/evalverdict.yml is the default config, as for `evalverdict compare`.
    const run = await runAction({
      inputs: { 'fail-on': 'never' },
      files: { '.github/evalverdict.yml': `# gates\n${FAILING_GATES}` },
    });
    expect(run.code).toBe(0);
    expect(annotations(run.stdout)).toEqual([
      expect.objectContaining({
        level: 'warning',
        properties: { title: 'EvalVerdict gate warning: hit@5', file: '.github/evalverdict.yml', line: '3' },
      }),
    ]);
    expect(run.outputs.verdict).toBe('fail');
    expect(run.outputs.passed).toBe('false');
  });

  it('replaces the comment with an error panel when the database is bad, and exits 1', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\n${(await expectedFor(PASSING_GATES)).markdown}`, GITHUB_ACTIONS_BOT);
    const run = await runAction({
      inputs: { gates: PASSING_GATES, candidate: 'runs/candidate.sqlite' },
      files: {
        'runs/candidate.sqlite':
          'this is not a SQLite database but a text file of more than one hundred bytes, so that the header check is what fails\n',
      },
    });
    expect(run.code).toBe(1);
    const { error: message } = JSON.parse(run.outputs.summary) as { error: string };
    expect(message).toMatch(/^runs\/candidate\.sqlite: not a SQLite database/); // named as the user wrote it
    const panel = renderErrorPanel({
      message,
      inputError: true,
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
      runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`,
    });
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`,
    ]);
    expect(run.requests[2].body).toEqual({ body: ownBody(panel, 'error') });
    expect(panel).toContain('EvalVerdict: error');
    expect(panel).toContain(message);
    expect(annotations(run.stdout)).toEqual([
      { level: 'error', properties: {}, message: `EvalVerdict could not evaluate the run: ${message}` },
    ]);
    expect(run.outputs).toEqual({
      verdict: 'error',
      passed: 'false',
      'failed-gates': '[]',
      'report-path': join(run.workspace, 'evalverdict-report.md'),
      'json-path': join(run.workspace, 'evalverdict-report.json'),
      'comment-url': commentUrl(1000),
      summary: JSON.stringify({ verdict: 'error', error: message }),
    });
    expect(run.summary).toBe(panel);
    expect(readFileSync(join(run.workspace, 'evalverdict-report.md'), 'utf8')).toBe(panel);
    expect(clockless(readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8'))).toBe(
      stableJson({ verdict: 'error', error: message }),
    );
  });

  it('turns a 403 on a fork pull request into a warning; the verdict still decides the step', async () => {
    github.readOnly = true;
    const passing = await runAction({ inputs: { gates: PASSING_GATES }, payload: pullRequestPayload({ fork: true }) });
    expect(passing.code).toBe(0);
    expect(summarise(passing.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 403`]);
    const [warning] = annotations(passing.stdout);
    expect(warning.level).toBe('warning');
    expect(warning.properties.title).toBe('EvalVerdict could not comment on the pull request');
    expect(warning.message).toContain('HTTP 403: Resource not accessible by integration');
    expect(warning.message).toContain('comes from a fork');
    expect(warning.message).toContain('job summary');
    expect(warning.message).toContain('pull_request_target or workflow_run');
    expect(passing.outputs['comment-url']).toBe('');
    expect(passing.outputs.verdict).toBe('pass');
    expect(passing.summary).toBe((await expectedFor(PASSING_GATES)).markdownFull);

    const failing = await runAction({ inputs: { gates: FAILING_GATES }, payload: pullRequestPayload({ fork: true }) });
    expect(failing.code).toBe(1);
    expect(annotations(failing.stdout).map((a) => a.level)).toEqual(['error', 'warning', 'error']);
    expect(failing.outputs.verdict).toBe('fail');
  });

  it('retries a 500 and then succeeds', async () => {
    github.inject({ method: 'GET', path: /\/issues\/\d+\/comments$/, status: 500 });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 500`,
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(1000));
    expect(annotations(run.stdout)).toEqual([]);
  });

  it('waits out a secondary rate limit (a 403 that is not a permission problem)', async () => {
    github.inject({
      method: 'POST',
      path: /\/comments$/,
      status: 403,
      headers: { 'retry-after': '1' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `POST ${COMMENTS_PATH} 403`,
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(annotations(run.stdout).map((a) => a.message)).toEqual([
      expect.stringMatching(/^GitHub secondary rate limit on POST .*: retrying in 1 s$/),
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(1);
  });

  it('keeps separate comments for two comment ids', async () => {
    const answers = github.addComment(
      OWNER,
      REPO,
      PR,
      '<!-- evalverdict:comment-id=answers -->\nthe answers gate',
      GITHUB_ACTIONS_BOT,
    );
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'comment-id': 'retrieval' } });
    expect(run.code).toBe(0);
    expect(summarise(writes(run.requests))).toEqual([`POST ${COMMENTS_PATH} 201`]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [answers.id, '<!-- evalverdict:comment-id=answers -->\nthe answers gate'],
      [answers.id + 1, ownBody((await expectedFor(PASSING_GATES)).markdown, 'report', HEAD_SHA, 'retrieval')],
    ]);
    const again = await runAction({ inputs: { gates: FAILING_GATES, 'comment-id': 'answers' } });
    expect(again.code).toBe(1);
    expect(summarise(writes(again.requests))).toEqual([
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${answers.id} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- evalverdict:comment-id=answers -->',
      '<!-- evalverdict:comment-id=retrieval -->',
    ]);
  });

  it("walks every page, updates the first of its comments, deletes duplicates and leaves people's comments alone", async () => {
    const person: Account = { login: 'mallory', id: 77, type: 'User' };
    const oldBody = `${MARKER}\nold report`;
    github.addComment(OWNER, REPO, PR, oldBody, GITHUB_ACTIONS_BOT); // 1000
    for (let i = 0; i < 150; i++) github.addComment(OWNER, REPO, PR, `review comment ${i}`, person);
    github.addComment(OWNER, REPO, PR, `${MARKER}\npasted by a person`, person); // 1151
    for (let i = 0; i < 100; i++) github.addComment(OWNER, REPO, PR, `more ${i}`, person);
    github.addComment(OWNER, REPO, PR, `${MARKER}\nduplicate from an old bug`, GITHUB_ACTIONS_BOT); // 1252
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /repositories/1000/issues/1347/comments?per_page=100&page=2 200',
      'GET /repositories/1000/issues/1347/comments?per_page=100&page=3 200',
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`,
      `DELETE /repos/${OWNER}/${REPO}/issues/comments/1252 204`,
    ]);
    const remaining = github.listComments(OWNER, REPO, PR);
    expect(remaining).toHaveLength(252);
    expect(remaining.filter((c) => c.body.startsWith(MARKER)).map((c) => [c.id, c.body])).toEqual([
      [1000, ownBody(out.markdown)],
      [1151, `${MARKER}\npasted by a person`],
    ]);
    expect(run.outputs['comment-url']).toBe(commentUrl(1000));
    expect(run.stdout).toContain('deleted 1 duplicate comment');
  });

  it('with a personal access token, recognises its own comments by login', async () => {
    const me: Account = { login: 'octocat', id: 1, type: 'User' };
    github.viewer = me;
    github.author = me;
    github.addComment(OWNER, REPO, PR, `${MARKER}\nsomeone else's copy`, { login: 'mallory', id: 77, type: 'User' });
    github.addComment(OWNER, REPO, PR, `${MARKER}\nmy old report`, me);
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 200',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1001 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([
      `${MARKER}\nsomeone else's copy`,
      ownBody((await expectedFor(PASSING_GATES)).markdown),
    ]);
  });

  it('on-failure: no comment while green, one when red, and the red one is updated when green again', async () => {
    const green = await runAction({ inputs: { gates: PASSING_GATES, comment: 'on-failure' } });
    expect(green.code).toBe(0);
    expect(summarise(green.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`]);
    expect(green.outputs['comment-url']).toBe('');
    const red = await runAction({ inputs: { gates: FAILING_GATES, comment: 'on-failure' } });
    expect(summarise(writes(red.requests))).toEqual([`POST ${COMMENTS_PATH} 201`]);
    const greenAgain = await runAction({ inputs: { gates: PASSING_GATES, comment: 'on-failure' } });
    expect(summarise(writes(greenAgain.requests))).toEqual([`PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 200`]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => c.body)).toEqual([
      ownBody((await expectedFor(PASSING_GATES)).markdown),
    ]);
  });

  it('comment: never makes no API call', async () => {
    const run = await runAction({ inputs: { gates: FAILING_GATES, comment: 'never' } });
    expect(run.code).toBe(1);
    expect(run.requests).toEqual([]);
    expect(run.outputs['comment-url']).toBe('');
    expect(run.summary).toBe((await expectedFor(FAILING_GATES)).markdownFull);
  });

  it('names the input and quotes the value it cannot use', async () => {
    const run = await runAction({ inputs: { comment: 'sometimes' } });
    expect(run.code).toBe(1);
    expect(annotations(run.stdout)).toEqual([
      {
        level: 'error',
        properties: {},
        message: 'EvalVerdict: input `comment`: "sometimes" is not one of always, on-change, on-failure, never',
      },
    ]);
    expect(run.requests).toEqual([]);
    const both = await runAction({ inputs: { config: 'gates.yml', gates: PASSING_GATES } });
    expect(annotations(both.stdout)[0].message).toBe(
      'EvalVerdict: inputs `config` ("gates.yml") and `gates` are exclusive: give a config file or inline gates, not both',
    );
  });
});
