/**
 * The GitHub Action: inputs -> runCompare (the same pipeline as `evalgate compare`) -> report files, job
 * summary, annotations, outputs, sticky PR comment. Helpers throw; this is the one place that talks to the
 * runner (@actions/core) and the one place that fails the step, once, with every reason.
 */
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import * as core from '@actions/core';
import { inertLines, isInputError, oneLine } from '../errors.js';
import { runAggregate, runCompare } from '../pipeline/pipeline.js';
import type { CompareOutputs } from '../pipeline/pipeline.js';
import { staleAge } from '../render/markdown.js';
import type { FullReportHint, ReportContext } from '../render/markdown.js';
import {
  createGitHubClient,
  httpStatusOf,
  isMalformedAnswer,
  isPermissionError,
  isRateLimitError,
  isTimeout,
} from '../publish/client.js';
import type { GitHubClient } from '../publish/client.js';
import { setCommitStatus, statusContext } from '../publish/commitStatus.js';
import type { StatusState } from '../publish/commitStatus.js';
import { statusHeadline } from '../render/reportParts.js';
import { renderErrorPanel } from '../render/errorPanel.js';
import { commentDecision } from '../publish/policy.js';
import type { Outcome } from '../publish/policy.js';
import { stickyBody, stickyMarker, upsertStickyComment } from '../publish/stickyComment.js';
import type { UpsertResult } from '../publish/stickyComment.js';
import { writeOutputFiles } from '../write/outputFiles.js';
import { stableJson } from '../render/json.js';
import { summariseWarnings } from '../render/warnings.js';
import { DEPENDABOT, pullRequestTarget, readRunContext, triggeringRun } from './context.js';
import type { PullRequestTarget, RunContext, TriggeringRun } from './context.js';
import { fetchCandidateArtifact, findRunPullRequest } from './workflowRun.js';
import type { RunPullRequest } from './workflowRun.js';
import { readInputs } from './inputs.js';
import { lookupClient, resolveArtifactBaseline } from './resolveBaseline.js';
import type { ActionInputs, Env, InputsRead } from './inputs.js';
import {
  errorSummaryJson,
  failedGatesJson,
  gateAnnotations,
  gateFailureMessage,
  gatesFailingAt,
  passedAt,
  summaryJson,
} from './outputs.js';

/**
 * A line for the log: core.info prints it as it is, and text from the inputs (ids, messages quoting them, URLs from
 * the API) must not be read by the runner as a workflow command (core's error, warning and debug escape theirs).
 */
function info(text: string): void {
  core.info(inertLines(text));
}

/** GitHub's limit for one step's job summary. */
const STEP_SUMMARY_LIMIT = 1024 * 1024;

type Evaluation = { ok: true; out: CompareOutputs } | { ok: false; message: string; inputError: boolean };

/** A path as the user wrote it, relative to the working directory (the workspace), for messages. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Set when the publish deadline passed: the API client may still hold a retry's wait or a rate-limit wait (timers
 * that would keep the process alive for up to a minute), so the entry ends the process once run() is done.
 */
let abandonedWork = false;

/**
 * Never rejects: every failure ends as core.setFailed. Resolves to true when work was abandoned at the publish
 * deadline, and the process should exit now rather than wait for its timers.
 */
export async function run(env: Env = process.env): Promise<boolean> {
  try {
    await runAction(env);
  } catch (error) {
    core.setFailed(
      `EvalGate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  return abandonedWork;
}

async function evaluate(
  inputs: ActionInputs,
  fullReportHint: FullReportHint,
  reportContext: ReportContext,
): Promise<Evaluation> {
  try {
    const out = await runCompare({
      baselinePath: inputs.baseline === null ? null : shortPath(inputs.baseline),
      candidatePath: shortPath(inputs.candidate),
      goldenPath: shortPath(inputs.golden),
      baselineRun: inputs.baselineRun,
      candidateRun: inputs.candidateRun,
      configPath: inputs.config === null ? null : shortPath(inputs.config),
      configText: inputs.gates,
      strictChunkerVersion: inputs.strictChunkerVersion,
      fullReportHint,
      reportContext,
    });
    core.debug(`EvalGate: runs scored ${out.parallel ? 'in two threads' : 'in one thread'}`);
    return { ok: true, out };
  } catch (error) {
    if (isInputError(error)) return { ok: false, message: error.message, inputError: true };
    info(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, message: `internal error: ${messageOf(error)}`, inputError: false };
  }
}

/** Why the token may not comment, and what to do about it, for this event. */
function forbiddenAdvice(ctx: RunContext, target: PullRequestTarget): string {
  const permissions =
    "the job's `permissions:` must grant `pull-requests: write` (without a `permissions:` key the repository's or organisation's default workflow permissions apply, which may be read-only)";
  if (ctx.eventName === 'pull_request_target' || ctx.eventName === 'workflow_run') {
    return `A \`${ctx.eventName}\` workflow runs with the base repository's token, which can comment also on pull requests from forks: ${permissions}; a token passed as \`github-token\` needs write access to pull requests.`;
  }
  if (ctx.actor === DEPENDABOT || target.byDependabot) {
    return (
      'Workflows started by Dependabot get a read-only GITHUB_TOKEN by default (and Dependabot secrets instead of Actions secrets): ' +
      'grant `pull-requests: write` in the workflow\'s `permissions:`, pass a token stored as a Dependabot secret as `github-token`, or comment from a `workflow_run` workflow (docs/action.md, "Pull requests from forks").'
    );
  }
  if (target.fromFork) {
    return (
      'This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token. ' +
      'To comment on pull requests from forks, use the pull_request_target or workflow_run pattern (docs/action.md, "Pull requests from forks").'
    );
  }
  return `The token cannot write pull request comments: ${permissions}; a token passed as \`github-token\` needs write access to pull requests.`;
}

function forbiddenMessage(ctx: RunContext, target: PullRequestTarget, error: unknown): string {
  return (
    `EvalGate could not comment on pull request #${target.issueNumber} (HTTP 403: ${messageOf(error)}). ${forbiddenAdvice(ctx, target)} ` +
    "The report is in this run's job summary and the step outputs; the gate verdict still decides the step."
  );
}

function describeUpsert(result: UpsertResult, target: PullRequestTarget): string {
  const url = oneLine(result.comment?.url ?? '');
  const where = `pull request #${target.issueNumber}`;
  const deleted =
    result.deleted.length > 0
      ? `; deleted ${result.deleted.length} duplicate ${result.deleted.length === 1 ? 'comment' : 'comments'}`
      : '';
  switch (result.action) {
    case 'created':
      return `created the EvalGate comment on ${where}: ${url}${deleted}`;
    case 'updated':
      return `updated the EvalGate comment on ${where}: ${url}${deleted}`;
    case 'unchanged':
      return `the EvalGate comment on ${where} is already up to date: ${url}${deleted}`;
    case 'skipped':
      return `no EvalGate comment on ${where}: none exists yet and the comment mode does not create one for this verdict`;
  }
}

async function publishComment(
  inputs: ActionInputs,
  ctx: RunContext,
  target: PullRequestTarget,
  markdown: string,
  outcome: Outcome,
  failures: string[],
): Promise<string> {
  const decision = commentDecision(inputs.comment, outcome);
  if (!decision.publish) {
    info('comment: never — the report is in the job summary and the outputs only');
    return '';
  }
  if (!inputs.githubToken) {
    core.warning(
      'input `github-token` is empty: the report was not posted to the pull request (it is in the job summary)',
    );
    return '';
  }
  // The deadline aborts every request in flight; the race returns at once even while a retry or a rate-limit
  // wait is pending (the report is in the job summary and the files already).
  const deadline = new AbortController();
  const octokit = createGitHubClient(inputs.githubToken, {
    baseUrl: ctx.apiUrl,
    log: { debug: (m) => core.debug(m), warn: (m) => core.warning(m) },
    requestTimeoutMs: inputs.requestTimeoutS * 1000,
    signal: deadline.signal,
  });
  const marker = stickyMarker(inputs.commentId);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new PublishDeadlineError());
    }, inputs.publishTimeoutS * 1000);
  });
  try {
    const result = await Promise.race([
      upsertStickyComment(octokit, {
        owner: target.owner,
        repo: target.repo,
        issueNumber: target.issueNumber,
        marker,
        commentAuthor: inputs.commentAuthor,
        body: stickyBody(marker, markdown),
        createIfMissing: decision.createIfMissing,
      }),
      expired,
    ]);
    info(describeUpsert(result, target));
    return result.comment?.url ?? '';
  } catch (error) {
    // Only a genuine permission problem is a warning (a read-only token is expected on fork pull requests); a rate
    // limit the retries could not wait out fails the step, so a stale comment is never left up silently.
    const where = `EvalGate: could not publish the comment on pull request #${target.issueNumber}`;
    const after = 'the report is in the job summary and the report files';
    if (error instanceof PublishDeadlineError || deadline.signal.aborted) {
      abandonedWork = true;
      failures.push(
        `${where}: GitHub's API did not finish within ${inputs.publishTimeoutS} s (input \`publish-timeout\`); ${after}`,
      );
    } else if (isTimeout(error)) {
      failures.push(
        `${where}: ${messageOf(error)} (input \`request-timeout\`: ${inputs.requestTimeoutS} s, retried); ${after}`,
      );
    } else if (isPermissionError(error)) {
      core.warning(forbiddenMessage(ctx, target, error), { title: 'EvalGate could not comment on the pull request' });
    } else {
      const status = httpStatusOf(error);
      const what =
        status && !isMalformedAnswer(error) ? ` (HTTP ${status}${isRateLimitError(error) ? ', rate limit' : ''})` : '';
      failures.push(`${where}${what}: ${messageOf(error)}`);
    }
    return '';
  } finally {
    clearTimeout(timer);
    deadline.abort(); // nothing of the comment's calls outlives this step
  }
}

/** The publish deadline (input `publish-timeout`) passed. */
class PublishDeadlineError extends Error {}

async function runAction(env: Env): Promise<void> {
  let read: InputsRead;
  let ctx: RunContext;
  try {
    read = readInputs(env);
    ctx = readRunContext(env);
  } catch (error) {
    core.setFailed(
      isInputError(error) ? `EvalGate: ${error.message}` : `EvalGate: internal error: ${messageOf(error)}`,
    );
    return;
  }
  const { inputs } = read;
  if (inputs.githubToken) core.setSecret(inputs.githubToken);
  if (read.publishErrors.length > 0) {
    // Without these the action cannot tell which comment is its own or where it goes: fail before publishing.
    core.setFailed([...read.publishErrors, ...read.errors].map((m) => `EvalGate: ${m}`).join('\n'));
    return;
  }
  // workflow_run (the fork-safe setup): the pull request of the triggering run, and its candidate artifact.
  const run = triggeringRun(ctx);
  if (inputs.candidateArtifact && !run)
    read.errors.push(
      `input \`candidate\`: artifact:${inputs.candidateArtifact.name} is read from the run that triggered a \`workflow_run\` event, and this is a ${ctx.eventName || 'run'} event: give the run database's path`,
    );
  let workflowRun: { run: TriggeringRun; pr: RunPullRequest } | null = null;
  if (run) {
    const pr = await resolveWorkflowRun(read, ctx, env, run);
    if (pr === null) return;
    workflowRun = { run, pr };
  }
  // `baseline: artifact:NAME`: find and download it first (if-no-baseline: skip ends the step here).
  if ((await resolveArtifactBaseline(read, ctx, env, workflowRun)) === 'skip') return;
  const target: PullRequestTarget | null = workflowRun
    ? {
        owner: ctx.owner,
        repo: ctx.repo,
        issueNumber: workflowRun.pr.number,
        fromFork: workflowRun.pr.fromFork,
        byDependabot: false,
      }
    : pullRequestTarget(ctx, inputs.prNumber);
  const reportName = relative(inputs.workspace, inputs.reportPath) || inputs.reportPath;
  const failures: string[] = [];
  const setStatus = commitStatusSetter(inputs, ctx, failures);
  await setStatus('pending', 'EvalGate is scoring the runs');
  const reportContext = reportContextOf(ctx, inputs, new Date().toISOString());
  const evaluation = await evaluateRead(read, reportName, reportContext, failures);
  if (evaluation.ok && evaluation.out.report.baseline) {
    const stale = staleAge(evaluation.out.report.baseline.created_at, reportContext);
    if (stale)
      core.warning(
        `the baseline run is ${stale} old (created ${oneLine(evaluation.out.report.baseline.created_at)}), past \`baseline-max-age\` (${inputs.baselineMaxAgeDays} days): record a newer one`,
        { title: 'EvalGate: stale baseline' },
      );
  }
  if (evaluation.ok) await afterEvaluation(evaluation.out, inputs, failures);
  const reports = reportsOf(evaluation, ctx);
  // The report files and the job summary: always, whatever the event.
  await writeReports(inputs, env, reports, failures, read.reportFilesWritable);
  if (evaluation.ok) annotateGates(evaluation.out, inputs, failures);

  // The sticky comment: pull requests only.
  let commentUrl = '';
  if (target) {
    commentUrl = await publishComment(inputs, ctx, target, reports.comment, reports.outcome, failures);
  } else {
    info(
      `no pull request for this ${ctx.eventName || 'run'} event: the report is in the job summary, ${reportName} and the outputs`,
    );
  }
  if (evaluation.ok) {
    const passed = passedAt(evaluation.out.report, inputs.failOn);
    await setStatus(passed ? 'success' : 'failure', statusHeadline(evaluation.out.report));
  } else {
    await setStatus('error', `could not evaluate the run: ${evaluation.message}`);
  }
  setOutputs(evaluation, inputs, reports.outcome, commentUrl);
  info(`EvalGate verdict: ${reports.outcome}; report: ${reportName}`);
  if (failures.length > 0) core.setFailed(failures.join('\n'));
}

/**
 * On a workflow_run event: the triggering run's pull request (null, with the step failed, when there is none: no
 * comment and no status then) and, for `candidate: artifact:NAME`, its run database (a problem there goes into
 * `read.errors`: the error panel on the pull request and an `error` status).
 */
async function resolveWorkflowRun(
  read: InputsRead,
  ctx: RunContext,
  env: Env,
  run: TriggeringRun,
): Promise<RunPullRequest | null> {
  const { inputs } = read;
  if (!inputs.githubToken) {
    core.setFailed(
      'EvalGate: input `github-token` is empty: on workflow_run the pull request and the candidate artifact are read with it',
    );
    return null;
  }
  const client = lookupClient(inputs.githubToken, inputs, ctx);
  let pr: RunPullRequest;
  try {
    const found = await findRunPullRequest(client, ctx, run, inputs.prNumber);
    pr = found.pr;
    info(
      `workflow_run: run ${run.id} of ${run.headSha.slice(0, 7)} (${run.headRepository}:${run.headBranch}) is pull request #${pr.number}${pr.fromFork ? ' (from a fork)' : ''} (${found.apiCalls} GitHub API calls)`,
    );
  } catch (error) {
    if (!isInputError(error)) throw error;
    core.setFailed(`EvalGate: ${error.message}`);
    return null;
  }
  if (inputs.candidateArtifact && read.errors.length === 0) {
    try {
      const fetched = await fetchCandidateArtifact(client, inputs, ctx, run, env);
      info(
        `candidate artifact:${inputs.candidateArtifact.name}: ${fetched.entry} of run ${run.id} (${fetched.apiCalls} GitHub API calls)`,
      );
    } catch (error) {
      if (!isInputError(error)) throw error;
      read.errors.push(error.message);
    }
  }
  return pr;
}

/**
 * Sets the commit status `evalgate/<comment-id>` on the commit under test, when `status` is not false and there is
 * a token and a commit. A refusal (no `statuses: write`) is a warning under `auto` and a failure under `true`; after
 * one refusal no more are tried.
 */
function commitStatusSetter(
  inputs: ActionInputs,
  ctx: RunContext,
  failures: string[],
): (state: StatusState, description: string) => Promise<void> {
  const context = statusContext(inputs.commentId);
  const sha = ctx.sha;
  let refused = inputs.status === 'false' || !inputs.githubToken || !sha || !ctx.owner || !ctx.repo;
  return async (state, description) => {
    if (refused || !sha) return;
    // Each status call is bounded like the comment's: per request, and by the publish deadline as a whole.
    const octokit: GitHubClient = createGitHubClient(inputs.githubToken, {
      baseUrl: ctx.apiUrl,
      log: { debug: (m) => core.debug(m), warn: (m) => core.warning(m) },
      requestTimeoutMs: inputs.requestTimeoutS * 1000,
      signal: AbortSignal.timeout(inputs.publishTimeoutS * 1000),
    });
    try {
      await setCommitStatus(octokit, {
        owner: ctx.owner,
        repo: ctx.repo,
        sha,
        state,
        context,
        description,
        targetUrl: ctx.runUrl,
      });
      info(`commit status ${context} on ${sha.slice(0, 7)}: ${state}`);
    } catch (error) {
      refused = true;
      const advice = isPermissionError(error)
        ? ' (the job needs `permissions: statuses: write`, or set `status: false`)'
        : '';
      const message = `EvalGate could not set the commit status ${context} on ${sha.slice(0, 7)}: ${messageOf(error)}${advice}`;
      if (inputs.status === 'true') failures.push(message);
      else core.warning(message);
    }
  };
}

/** What the report links: the repository's commits, this workflow run, the commit it evaluated. */
function reportContextOf(ctx: RunContext, inputs: ActionInputs, now: string): ReportContext {
  return {
    // The clock always (the JSON report's age_days); maxAgeDays 0 means no limit.
    staleAfter: { now, maxAgeDays: inputs.baselineMaxAgeDays },
    ...(inputs.baselineFrom ? { baselineFrom: inputs.baselineFrom } : {}),
    ...(ctx.owner && ctx.repo ? { repoUrl: `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}` } : {}),
    ...(ctx.runUrl ? { runUrl: ctx.runUrl } : {}),
    ...(ctx.sha ? { headSha: ctx.sha } : {}),
  };
}

/** The comparison, or why there is none (an input mistake or an error while evaluating), added to `failures`. */
async function evaluateRead(
  read: InputsRead,
  reportName: string,
  reportContext: ReportContext,
  failures: string[],
): Promise<Evaluation> {
  if (read.errors.length > 0) {
    // Nothing to evaluate, but the error panel still replaces the comment.
    failures.push(...read.errors.map((m) => `EvalGate: ${m}`));
    return { ok: false, message: read.errors.join('\n'), inputError: true };
  }
  // Where the cut comment says the full report is. Past the job summary's limit the summary gets the cut report
  // too, so then both name the report file alone.
  const summaryHint = `the job summary of this workflow run and in \`${reportName}\``;
  const fileHint = `\`${reportName}\` (too large for the job summary)`;
  const evaluation = await evaluate(
    read.inputs,
    (full) => (Buffer.byteLength(full) < STEP_SUMMARY_LIMIT ? summaryHint : fileHint),
    reportContext,
  );
  if (!evaluation.ok) failures.push(`EvalGate could not evaluate the run: ${evaluation.message}`);
  return evaluation;
}

/** The golden set's warnings, and with `write-aggregate` the candidate's aggregate stored in its database. */
async function afterEvaluation(out: CompareOutputs, inputs: ActionInputs, failures: string[]): Promise<void> {
  for (const warning of summariseWarnings(out.warnings)) core.warning(warning);
  if (!inputs.writeAggregate) return;
  try {
    // The same code path as `evalgate aggregate CANDIDATE --golden GOLDEN [--run ID] --write`.
    const { runId } = await runAggregate({
      runPath: shortPath(inputs.candidate),
      goldenPath: shortPath(inputs.golden),
      runId: inputs.candidateRun,
      write: true,
    });
    info(`wrote aggregate_json of run ${oneLine(runId)} into ${shortPath(inputs.candidate)}`);
  } catch (error) {
    failures.push(`EvalGate: write-aggregate: ${messageOf(error)}`);
  }
}

interface Reports {
  outcome: Outcome;
  /** The comment-ready Markdown (cut to GitHub's limit). */
  comment: string;
  full: string;
  json: string;
}

/** The reports of the comparison, or the error panel and an error JSON when the run could not be evaluated. */
function reportsOf(evaluation: Evaluation, ctx: RunContext): Reports {
  if (evaluation.ok) {
    const { out } = evaluation;
    return { outcome: out.report.verdict, comment: out.markdown, full: out.markdownFull, json: out.json };
  }
  const panel = renderErrorPanel({
    message: evaluation.message,
    inputError: evaluation.inputError,
    sha: ctx.sha,
    runUrl: ctx.runUrl,
  });
  return {
    outcome: 'error',
    comment: panel,
    full: panel,
    json: stableJson({ verdict: 'error', error: evaluation.message }),
  };
}

async function writeReports(
  inputs: ActionInputs,
  env: Env,
  reports: Reports,
  failures: string[],
  filesWritable: boolean,
): Promise<void> {
  try {
    if (filesWritable) {
      mkdirSync(dirname(inputs.reportPath), { recursive: true });
      mkdirSync(dirname(inputs.jsonPath), { recursive: true });
      // Both or neither, never half-written: an earlier run's report is not left beside this run's JSON.
      writeOutputFiles([
        [inputs.reportPath, reports.full],
        [inputs.jsonPath, reports.json],
      ]);
    }
  } catch (error) {
    failures.push(`EvalGate: cannot write the report files (${messageOf(error)})`);
  }
  if (!env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary
      .addRaw(Buffer.byteLength(reports.full) < STEP_SUMMARY_LIMIT ? reports.full : reports.comment)
      .write();
  } catch (error) {
    core.warning(`EvalGate: could not write the job summary: ${messageOf(error)}`);
  }
}

/** One annotation per failed gate; the gates that fail at the `fail-on` level fail the step, named first. */
function annotateGates(out: CompareOutputs, inputs: ActionInputs, failures: string[]): void {
  const configFile = inputs.config ? relative(inputs.workspace, inputs.config) : null;
  for (const a of gateAnnotations(out.report, inputs.failOn, configFile)) {
    const properties = { title: a.title, ...(a.file ? { file: a.file, startLine: a.line } : {}) };
    if (a.level === 'error') core.error(a.message, properties);
    else core.warning(a.message, properties);
  }
  const failing = gatesFailingAt(out.report, inputs.failOn);
  if (failing.length > 0) failures.unshift(gateFailureMessage(failing, inputs.failOn));
}

function setOutputs(evaluation: Evaluation, inputs: ActionInputs, outcome: Outcome, commentUrl: string): void {
  core.setOutput('verdict', outcome);
  core.setOutput('passed', evaluation.ok ? String(passedAt(evaluation.out.report, inputs.failOn)) : 'false');
  core.setOutput('failed-gates', evaluation.ok ? failedGatesJson(evaluation.out.report) : '[]');
  core.setOutput('report-path', inputs.reportPath);
  core.setOutput('json-path', inputs.jsonPath);
  core.setOutput('comment-url', commentUrl);
  core.setOutput('summary', evaluation.ok ? summaryJson(evaluation.out.report) : errorSummaryJson(evaluation.message));
}
