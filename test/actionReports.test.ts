/**
 * The action end to end (see test/action.test.ts): rate limits and permissions, whose comment is ours, the commit
 * status, baselines (max age, none), write-aggregate, push events, a report past the summary's limit, ids holding
 * workflow commands, and the workflow examples of the docs.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadSqlJs } from '../src/load/sqlite.js';
import { GITHUB_ACTIONS_BOT } from './helpers/fakeGitHub.js';
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
  annotations,
  checkSummaryOutput,
  expectedFor,
  expectedOutputs,
  fixtures,
  github,
  pullRequestPayload,
  runAction,
  scratch,
  summarise,
  useActionSuite,
  writes,
  ownBody,
} from './helpers/actionSuite.js';
import { repoRoot } from './shared.js';
import { hit, RawResult, result, writeRunDb } from './helpers/runDb.js';

useActionSuite();

describe('rate limits and permissions', () => {
  const reset = () => String(Math.floor(Date.now() / 1000) + 1800);

  it('a primary rate limit (403, x-ratelimit-remaining: 0) that cannot be waited out fails the step; it is not a permission warning', async () => {
    github.addComment(OWNER, REPO, PR, `${MARKER}\nthe green report of an earlier commit`, GITHUB_ACTIONS_BOT);
    github.inject({
      method: 'PATCH',
      path: /\/issues\/comments\/\d+$/,
      status: 403,
      times: 5,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset() },
      body: {
        message: 'API rate limit exceeded for installation ID 1.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/1000 403`,
    ]);
    const found = annotations(run.stdout);
    expect(found.filter((a) => a.properties.title === 'EvalVerdict could not comment on the pull request')).toEqual([]);
    expect(found.filter((a) => a.level === 'error').map((a) => a.message)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^EvalVerdict: could not publish the comment on pull request #${PR} \\(HTTP 403, rate limit\\): API rate limit exceeded for installation ID 1\\.`,
        ),
      ),
    ]);
    expect(run.outputs.verdict).toBe('pass');
    expect(run.outputs['comment-url']).toBe('');
  });

  it('a secondary rate limit asking for more than 60 s fails the step too', async () => {
    github.inject({
      method: 'POST',
      path: /\/comments$/,
      status: 403,
      times: 5,
      headers: { 'retry-after': '120' },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url:
          'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(1);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 403`]);
    const found = annotations(run.stdout);
    expect(found.filter((a) => a.properties.title === 'EvalVerdict could not comment on the pull request')).toEqual([]);
    expect(found.filter((a) => a.level === 'error').map((a) => a.message)).toEqual([
      expect.stringContaining('(HTTP 403, rate limit): You have exceeded a secondary rate limit'),
    ]);
  });

  it('a 403 "Resource not accessible by integration" on a same-repository pull request: a warning naming `permissions:`', async () => {
    github.readOnly = true;
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    const [warning] = annotations(run.stdout);
    expect(warning.properties.title).toBe('EvalVerdict could not comment on the pull request');
    expect(warning.message).toContain('HTTP 403: Resource not accessible by integration');
    expect(warning.message).toContain('`pull-requests: write`');
    expect(warning.message).not.toContain('fork');
  });

  it('the 403 advice fits the event: pull_request_target from a fork, and Dependabot', async () => {
    github.readOnly = true;
    const target = await runAction({
      event: 'pull_request_target',
      inputs: { gates: PASSING_GATES },
      payload: pullRequestPayload({ fork: true }),
    });
    expect(target.code).toBe(0);
    const [t] = annotations(target.stdout);
    expect(t.message).toContain("A `pull_request_target` workflow runs with the base repository's token");
    expect(t.message).toContain('`permissions:` must grant `pull-requests: write`');
    expect(t.message).not.toContain('comes from a fork');
    expect(t.message).not.toContain('read-only token');

    const dependabot = await runAction({ inputs: { gates: PASSING_GATES }, env: { GITHUB_ACTOR: 'dependabot[bot]' } });
    expect(dependabot.code).toBe(0);
    const [d] = annotations(dependabot.stdout);
    expect(d.message).toContain('Workflows started by Dependabot get a read-only GITHUB_TOKEN by default');
    expect(d.message).toContain('Dependabot secret');
    expect(d.message).not.toContain('comes from a fork');
  });
});

describe('whose comment is ours', () => {
  it("another app's bot comment that starts with the marker is left alone", async () => {
    const other = github.addComment(OWNER, REPO, PR, `${MARKER}\nspoofed by another app`, {
      login: 'some-app[bot]',
      id: 9,
      type: 'Bot',
    });
    const run = await runAction({ inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      'GET /user 403',
      `POST ${COMMENTS_PATH} 201`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.user.login, c.body])).toEqual([
      [other.id, 'some-app[bot]', `${MARKER}\nspoofed by another app`],
      [other.id + 1, GITHUB_ACTIONS_BOT.login, ownBody((await expectedFor(PASSING_GATES)).markdown)],
    ]);
    // A duplicate is deleted only when it is ours.
    github.addComment(OWNER, REPO, PR, `${MARKER}\nanother spoof`, { login: 'some-app[bot]', id: 9, type: 'Bot' });
    const again = await runAction({ inputs: { gates: FAILING_GATES } });
    expect(summarise(writes(again.requests))).toEqual([
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${other.id + 1} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR)).toHaveLength(3);
  });

  it("comment-author names a GitHub App's bot: its comment is ours, github-actions[bot]'s is not, and GET /user is not asked", async () => {
    const app: Account = { login: 'my-app[bot]', id: 4242, type: 'Bot' };
    github.author = app;
    const actions = github.addComment(OWNER, REPO, PR, `${MARKER}\nposted with GITHUB_TOKEN`, GITHUB_ACTIONS_BOT);
    const mine = github.addComment(OWNER, REPO, PR, `${MARKER}\nmy app's old report`, app);
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'comment-author': 'my-app[bot]' } });
    expect(run.code).toBe(0);
    expect(summarise(run.requests)).toEqual([
      `GET ${COMMENTS_PATH}?per_page=100 200`,
      `PATCH /repos/${OWNER}/${REPO}/issues/comments/${mine.id} 200`,
    ]);
    expect(github.listComments(OWNER, REPO, PR).map((c) => [c.id, c.body])).toEqual([
      [actions.id, `${MARKER}\nposted with GITHUB_TOKEN`],
      [mine.id, ownBody((await expectedFor(PASSING_GATES)).markdown)],
    ]);
  });
});

describe("a report past the job summary's 1 MiB", () => {
  it('the summary gets the cut report, and its hint names the report file only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalverdict-big-'));
    try {
      // 9,000 queries, each a loss (relevant chunk at rank 1, then missing): a full report of about 1.2 MB.
      const ids = Array.from({ length: 9_000 }, (_, i) => `q${String(i).padStart(5, '0')}-${'y'.repeat(20)}`);
      writeFileSync(
        join(dir, 'golden.yaml'),
        ids
          .map(
            (id, i) =>
              `- id: ${id}\n  query: "question number ${i} about a rather long topic ${'x'.repeat(40)}"\n  expected_chunk_ids: ["${id}-rel"]\n`,
          )
          .join(''),
      );
      const runOf = (rank: number) =>
        ids.map((id) =>
          result(
            id,
            Array.from({ length: 5 }, (_, r) => hit(r + 1, r + 1 === rank ? `${id}-rel` : `${id}-f${r}`, `d-${id}`)),
          ),
        );
      const baseline = await writeRunDb({ runs: [{ runId: 'base', results: runOf(1) }] }, join(dir, 'b.sqlite'));
      const candidate = await writeRunDb({ runs: [{ runId: 'cand', results: runOf(6) }] }, join(dir, 'c.sqlite'));
      const run = await runAction({
        inputs: { gates: PASSING_GATES, baseline, candidate, golden: join(dir, 'golden.yaml'), 'fail-on': 'never' },
      });
      expect(run.code).toBe(0);
      const full = readFileSync(join(run.workspace, 'evalverdict-report.md'), 'utf8');
      expect(Buffer.byteLength(full)).toBeGreaterThan(1024 * 1024);
      const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
      expect(comment.length).toBeLessThanOrEqual(65_536);
      expect(comment).toBe(ownBody(run.summary));
      expect(run.summary).toContain('the full report is in `evalverdict-report.md` (too large for the job summary)');
      expect(run.summary).not.toContain('job summary of this workflow run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the workflow examples in README.md and docs/action.md', () => {
  /** Every ```yaml block that is a whole workflow (has `jobs:`), with the file it is in. */
  function workflows(): Array<{ file: string; workflow: Record<string, any> }> {
    return ['README.md', 'docs/action.md'].flatMap((file) =>
      [...readFileSync(join(repoRoot, file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((m) => {
        let parsed: unknown;
        try {
          parsed = parseYaml(m[1]);
        } catch {
          return [];
        }
        return parsed && typeof parsed === 'object' && 'jobs' in parsed
          ? [{ file, workflow: parsed as Record<string, any> }]
          : [];
      }),
    );
  }

  it('run the EvalVerdict step also after a failed step, keep one run per pull request, and report failed evals from workflow_run', () => {
    const found = workflows();
    expect(found.filter((w) => w.file === 'README.md')).toHaveLength(2);
    expect(found.filter((w) => w.file === 'docs/action.md')).toHaveLength(3);
    let evalverdictSteps = 0;
    for (const { file, workflow } of found) {
      expect(workflow.concurrency?.['cancel-in-progress'], `${file}: ${workflow.name}`).toBe(true);
      expect(String(workflow.concurrency?.group), `${file}: ${workflow.name}`).toMatch(
        /pull_request\.number|workflow_run\.head_branch/,
      );
      for (const job of Object.values(
        workflow.jobs as Record<string, { if?: string; steps: Array<Record<string, any>> }>,
      )) {
        for (const step of job.steps) {
          if (String(step.uses ?? '').startsWith('evalverdict/evalverdict@')) {
            evalverdictSteps++;
            // after a step that can fail (the eval runner), EvalVerdict must still run, to show the error panel
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflows write it
            if (job.steps.indexOf(step) > 1) expect(step.if, `${file}: ${workflow.name}`).toBe('${{ !cancelled() }}');
          }
          if (
            String(step.uses ?? '').startsWith('actions/upload-artifact@') &&
            step.with?.name !== 'evalverdict-baseline'
          ) {
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as the workflows write it
            expect(step.if, `${file}: ${workflow.name}: upload`).toBe('${{ !cancelled() }}');
          }
        }
        if (workflow.on?.workflow_run) {
          // a failed eval (no artifact) must still report: the error panel and an error status
          expect(job.if).toContain("github.event.workflow_run.conclusion != 'cancelled'");
          expect(job.if).toContain("github.event.workflow_run.event == 'pull_request'");
        }
      }
    }
    expect(evalverdictSteps).toBe(5);
  });

  it('show examples/rag-eval.yml as it is, and it records the baseline as docs/action.md says', () => {
    const example = readFileSync(join(repoRoot, 'examples', 'rag-eval.yml'), 'utf8');
    for (const file of ['README.md', 'docs/action.md'])
      expect(readFileSync(join(repoRoot, file), 'utf8'), file).toContain(`\`\`\`yaml\n${example}\`\`\``);
    for (const name of ['rag-eval.yml', 'rag-eval-baseline.yml']) {
      const workflow = parseYaml(readFileSync(join(repoRoot, 'examples', name), 'utf8')) as Record<string, any>;
      const steps = Object.values(workflow.jobs as Record<string, { steps: Array<Record<string, any>> }>).flatMap(
        (j) => j.steps,
      );
      const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'));
      expect(upload?.with, name).toMatchObject({ name: 'evalverdict-baseline', 'if-no-files-found': 'error' });
      expect(upload?.with['retention-days'], name).toBeGreaterThan(0);
      expect(Object.keys(workflow.on), name).toContain('push');
    }
  });

  it('document every input of action.yml in the inputs table', () => {
    const action = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const docs = readFileSync(join(repoRoot, 'docs', 'action.md'), 'utf8');
    for (const name of Object.keys(action.inputs)) expect(docs, name).toContain(`| \`${name}\` |`);
  });
});

describe('the action without a pull request', () => {
  it('on push writes the summary, files and outputs and makes no API call', async () => {
    const out = await expectedFor(PASSING_GATES);
    const run = await runAction({ event: 'push', inputs: { gates: PASSING_GATES } });
    expect(run.code).toBe(0);
    expect(run.requests).toEqual([]);
    expect(run.summary).toBe(out.markdownFull);
    expect(run.outputs).toEqual(expectedOutputs(run, out, { passed: true, commentUrl: '' }));
    checkSummaryOutput(run.outputs.summary, out);
    expect(run.stdout).toContain('no pull request for this push event');
  });
});

describe('commit status', () => {
  const HEAD = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
  const RUN_URL = `https://github.com/${OWNER}/${REPO}/actions/runs/1658821493`;
  const states = () => github.statuses(OWNER, REPO, HEAD).map((s) => [s.context, s.state, s.description]);

  it('pending, then success on the PR head, with the headline and the workflow run as target', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, status: 'auto' } });
    expect(run.code).toBe(0);
    expect(states()).toEqual([
      ['evalverdict/default', 'pending', 'EvalVerdict is scoring the runs'],
      ['evalverdict/default', 'success', expect.stringMatching(/^pass: \d+ gates? passed$/)],
    ]);
    expect(github.statuses(OWNER, REPO, HEAD).every((s) => s.target_url === RUN_URL)).toBe(true);
    expect(run.stdout).toContain(`commit status evalverdict/default on ${HEAD.slice(0, 7)}: success`);
  });

  it('failure names the failed gates; the context follows comment-id, one per id', async () => {
    const run = await runAction({ inputs: { gates: FAILING_GATES, status: 'auto', 'comment-id': 'retrieval' } });
    expect(run.code).toBe(1);
    const last = github.statuses(OWNER, REPO, HEAD).at(-1)!;
    expect(last).toMatchObject({ context: 'evalverdict/retrieval', state: 'failure' });
    expect(String(last.description)).toMatch(/^fail: \d+ failed of \d+ gates? \(/);
    expect(String(last.description).length).toBeLessThanOrEqual(140);
    expect(states().map((s) => s[0])).toEqual(['evalverdict/retrieval', 'evalverdict/retrieval']);
  });

  it('error when the run cannot be evaluated (a candidate that is not a database)', async () => {
    const run = await runAction({
      inputs: { gates: PASSING_GATES, status: 'auto', candidate: 'not-a-db.sqlite' },
      files: { 'not-a-db.sqlite': 'plain text' },
    });
    expect(run.code).toBe(1);
    expect(states().map((s) => s[1])).toEqual(['pending', 'error']);
    expect(String(states()[1][2])).toMatch(/^could not evaluate the run: /);
  });

  it('a token that may not write statuses: a warning under auto (the gates decide), a failure under true', async () => {
    github.readOnly = true;
    const auto = await runAction({ inputs: { gates: PASSING_GATES, status: 'auto', comment: 'never' } });
    expect(auto.code).toBe(0);
    expect(auto.stdout).toMatch(
      /::warning::EvalVerdict could not set the commit status evalverdict\/default on 6dcb09b: .*statuses: write/,
    );
    // one refusal: no second try at the end
    expect(auto.requests.filter((r) => r.path.includes('/statuses/'))).toHaveLength(1);
    const strict = await runAction({ inputs: { gates: PASSING_GATES, status: 'true', comment: 'never' } });
    expect(strict.code).toBe(1);
    expect(states()).toEqual([]);
  });

  it('status: false sets none', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, status: 'false' } });
    expect(run.code).toBe(0);
    expect(run.requests.filter((r) => r.path.includes('/statuses/'))).toEqual([]);
  });
});

describe('baseline-max-age', () => {
  it('a baseline older than it: a line in the report and a warning annotation', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'baseline-max-age': '7' } });
    expect(run.code).toBe(0);
    // the fixtures' baseline was created 2026-11-01T12:00:00Z: weeks before any run of this test
    const days = Math.round((Date.now() - Date.parse('2026-11-01T12:00:00Z')) / 86_400_000);
    const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).toContain(`- ⚠️ The baseline run is ${days} days old, past \`baseline-max-age\` (7 days).`);
    expect(annotations(run.stdout)).toContainEqual({
      level: 'warning',
      properties: { title: 'EvalVerdict: stale baseline' },
      message: expect.stringMatching(/^the baseline run is \d+ days old \(created 2026-11-01T12:00:00Z\)/),
    });
  });

  it('within it, or 0: nothing said', async () => {
    const run = await runAction({ inputs: { gates: PASSING_GATES, 'baseline-max-age': '3650' } });
    const comment = (run.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).not.toContain('baseline-max-age');
    expect(annotations(run.stdout).filter((a) => a.properties.title === 'EvalVerdict: stale baseline')).toEqual([]);
  });
});

describe('baseline: none (a candidate-only report)', () => {
  it('min and max gates decide: the comment says there is no baseline; a relative gate is no data', async () => {
    // just below and just above the candidate's hit@1 (its error_rate is 0)
    const hit1 = (await expectedFor(PASSING_GATES)).report.metrics['hit@1'].candidate!;
    expect(hit1).toBeGreaterThan(0.01);
    const passing = await runAction({
      inputs: {
        baseline: 'none',
        gates: `gates:\n  - metric: hit@1\n    min: ${(hit1 - 0.01).toFixed(2)}\n  - metric: error_rate\n    max: 0\n`,
      },
    });
    expect(passing.code).toBe(0);
    expect(passing.outputs.verdict).toBe('pass');
    const comment = (passing.requests.find((r) => r.method === 'POST')!.body as { body: string }).body;
    expect(comment).toContain('**without a baseline**: a candidate-only report');
    expect(JSON.parse(passing.outputs.summary)).toMatchObject({ baseline_run: null });

    const failing = await runAction({
      inputs: {
        baseline: 'none',
        gates: `gates:\n  - metric: hit@1\n    min: ${(hit1 + 0.01).toFixed(2)}\n  - metric: nDCG@10\n    max_drop: 0.01\n`,
      },
    });
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.outputs['failed-gates'])).toMatchObject([
      { metric: 'hit@1', result: 'fail' },
      { metric: 'nDCG@10', result: 'no_data', note: expect.stringMatching(/^no baseline/) },
    ]);
  });
});

describe('write-aggregate', () => {
  it('stores the same aggregate_json as `evalverdict aggregate --write`', async () => {
    const mine = join(scratch, 'candidate-action.sqlite');
    const cli = join(scratch, 'candidate-cli.sqlite');
    copyFileSync(join(fixtures, 'candidate.sqlite'), mine);
    copyFileSync(join(fixtures, 'candidate.sqlite'), cli);
    const run = await runAction({
      event: 'push',
      inputs: { gates: PASSING_GATES, candidate: mine, 'write-aggregate': 'true' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote aggregate_json of run candidate-passages into ${mine}`);
    execFileSync(
      process.execPath,
      [
        join(repoRoot, 'dist', 'cli', 'index.js'),
        'aggregate',
        cli,
        '--golden',
        join(fixtures, 'golden.yaml'),
        '--write',
      ],
      { stdio: 'pipe' },
    );
    const SQL = await loadSqlJs();
    const aggregateOf = (file: string) => {
      const db = new SQL.Database(readFileSync(file));
      try {
        return String(
          db.exec("SELECT aggregate_json FROM eval_runs WHERE run_id = 'candidate-passages'")[0].values[0][0],
        );
      } finally {
        db.close();
      }
    };
    const written = aggregateOf(mine);
    expect(written).toBe(aggregateOf(cli));
    expect(written).not.toBe(aggregateOf(join(fixtures, 'candidate.sqlite')));
    expect(JSON.parse(written)).toHaveProperty('hit_at_k');
  });
});

describe('a run database whose ids hold workflow commands', () => {
  const INJECTED = [
    '\n::error title=INJECTED::x',
    '\r::add-mask::INJECTED',
    '\n  ::stop-commands::INJECTED',
    '##[error]INJECTED',
  ];

  /** Lines the runner reads as workflow commands: each must be one of the action's own. */
  function foreignCommands(text: string): string[] {
    return text.split(/\r\n|\r|\n/).filter((line) => {
      const m = /^\s*::([^:]*)::(.*)$/.exec(line);
      // The older `##[command]` is read anywhere in a line that is not a `::` command.
      if (!/^\s*::/.test(line)) return line.includes('##[');
      if (!m || m[1].includes('INJECTED')) return true;
      const command = m[1].split(' ')[0];
      if (command === 'add-mask') return m[2] !== TOKEN;
      return !['error', 'warning', 'debug', 'notice'].includes(command) || line !== line.trimStart();
    });
  }

  it('are printed inert, by write-aggregate, warnings and errors, in the raw stdout and stderr of the bundle', async () => {
    const runId = `r1${INJECTED.join('')}`;
    const candidate = await writeRunDb(
      {
        runs: [
          {
            runId,
            results: [
              result('q004', [hit(1, 'cran-0166#p01', 'cran-0166')]),
              result(`x${INJECTED.join('')}`, [hit(1, 'c1', 'd1')]),
            ],
          },
        ],
      },
      join(scratch, 'injected.sqlite'),
    );
    const run = await runAction({
      inputs: { gates: PASSING_GATES, 'fail-on': 'never', candidate, 'write-aggregate': 'true' },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(foreignCommands(run.stdout)).toEqual([]);
    expect(foreignCommands(run.stderr)).toEqual([]);
    expect(run.stdout).toContain(
      'wrote aggregate_json of run r1\\n::error title=INJECTED::x\\r::add-mask::INJECTED\\n  ::stop-commands::INJECTED## [error]INJECTED',
    );
    // An error quoting the ids: the step's failure message, escaped by @actions/core.
    const bad = await writeRunDb(
      { runs: [{ runId, results: [new RawResult(`q004${INJECTED[0]}`, '{"hits_top_k": [')] }] },
      join(scratch, 'injected-bad.sqlite'),
    );
    const failed = await runAction({ inputs: { gates: PASSING_GATES, candidate: bad } });
    expect(failed.code).toBe(1);
    expect(foreignCommands(failed.stdout)).toEqual([]);
    expect(foreignCommands(failed.stderr)).toEqual([]);
    expect(annotations(failed.stdout)[0].message).toContain('query `q004\\n::error title=INJECTED::x`');
  });
});
