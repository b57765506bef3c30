/**
 * The GitHub Action: inputs -> runCompare (the same pipeline as `evalgate compare`) -> report files, job
 * summary, annotations, outputs, sticky PR comment. Helpers throw; this is the one place that talks to the
 * runner (@actions/core) and the one place that fails the step, once, with every reason.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import * as core from '@actions/core';
import { isInputError } from '../errors.js';
import { runAggregate, runCompare } from '../pipeline.js';
import type { CompareOutputs } from '../pipeline.js';
import { createGitHubClient, httpStatusOf } from '../publish/client.js';
import { renderErrorPanel } from '../publish/errorPanel.js';
import { commentDecision } from '../publish/policy.js';
import type { Outcome } from '../publish/policy.js';
import { stickyBody, stickyMarker, upsertStickyComment } from '../publish/stickyComment.js';
import type { UpsertResult } from '../publish/stickyComment.js';
import { stableJson } from '../render/json.js';
import { summariseWarnings } from '../render/warnings.js';
import { pullRequestTarget, readRunContext } from './context.js';
import type { PullRequestTarget, RunContext } from './context.js';
import { getInputs } from './inputs.js';
import type { ActionInputs, Env } from './inputs.js';
import {
  errorSummaryJson, failedGatesJson, gateAnnotations, gateFailureMessage, gatesFailingAt, passedAt, summaryJson,
} from './outputs.js';

/** GitHub's limit for one step's job summary. */
const STEP_SUMMARY_LIMIT = 1024 * 1024;

type Evaluation =
  | { ok: true; out: CompareOutputs }
  | { ok: false; message: string; inputError: boolean };

/** A path as the user wrote it, relative to the working directory (the workspace), for messages. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Never rejects: every failure ends as core.setFailed. */
export async function run(env: Env = process.env): Promise<void> {
  try {
    await runAction(env);
  } catch (error) {
    core.setFailed(`EvalGate: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  }
}

async function evaluate(inputs: ActionInputs, fullReportHint: string): Promise<Evaluation> {
  try {
    const out = await runCompare({
      baselinePath: shortPath(inputs.baseline),
      candidatePath: shortPath(inputs.candidate),
      goldenPath: shortPath(inputs.golden),
      baselineRun: inputs.baselineRun,
      candidateRun: inputs.candidateRun,
      configPath: inputs.config === null ? null : shortPath(inputs.config),
      configText: inputs.gates,
      strictChunkerVersion: inputs.strictChunkerVersion,
      fullReportHint,
    });
    core.debug(`EvalGate: runs scored ${out.parallel ? 'in two threads' : 'in one thread'}`);
    return { ok: true, out };
  } catch (error) {
    if (isInputError(error)) return { ok: false, message: error.message, inputError: true };
    core.info(`internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return { ok: false, message: `internal error: ${messageOf(error)}`, inputError: false };
  }
}

function forbiddenMessage(target: PullRequestTarget, error: unknown): string {
  const why = target.fromFork
    ? 'This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token.'
    : 'The token cannot write pull request comments (the job needs `permissions: pull-requests: write`).';
  return `EvalGate could not comment on pull request #${target.issueNumber} (HTTP 403: ${messageOf(error)}). ${why} `
    + 'The report is in this run\'s job summary and the step outputs; the gate verdict still decides the step. '
    + 'To comment on pull requests from forks, use the pull_request_target or workflow_run pattern (docs/action.md, "Pull requests from forks").';
}

function describeUpsert(result: UpsertResult, target: PullRequestTarget): string {
  const where = `pull request #${target.issueNumber}`;
  const deleted = result.deleted.length > 0 ? `; deleted ${result.deleted.length} duplicate ${result.deleted.length === 1 ? 'comment' : 'comments'}` : '';
  switch (result.action) {
    case 'created': return `created the EvalGate comment on ${where}: ${result.comment?.url}${deleted}`;
    case 'updated': return `updated the EvalGate comment on ${where}: ${result.comment?.url}${deleted}`;
    case 'unchanged': return `the EvalGate comment on ${where} is already up to date: ${result.comment?.url}${deleted}`;
    case 'skipped': return `no EvalGate comment on ${where}: none exists yet and the comment mode does not create one for this verdict`;
  }
}

async function publishComment(inputs: ActionInputs, ctx: RunContext, target: PullRequestTarget, markdown: string, outcome: Outcome, failures: string[]): Promise<string> {
  const decision = commentDecision(inputs.comment, outcome);
  if (!decision.publish) {
    core.info('comment: never — the report is in the job summary and the outputs only');
    return '';
  }
  if (!inputs.githubToken) {
    core.warning('input `github-token` is empty: the report was not posted to the pull request (it is in the job summary)');
    return '';
  }
  const octokit = createGitHubClient(inputs.githubToken, {
    baseUrl: ctx.apiUrl,
    log: { debug: (m) => core.debug(m), warn: (m) => core.warning(m) },
  });
  const marker = stickyMarker(inputs.commentId);
  try {
    const result = await upsertStickyComment(octokit, {
      owner: target.owner, repo: target.repo, issueNumber: target.issueNumber, marker,
      body: stickyBody(marker, markdown), createIfMissing: decision.createIfMissing,
    });
    core.info(describeUpsert(result, target));
    return result.comment?.url ?? '';
  } catch (error) {
    if (httpStatusOf(error) === 403) {
      core.warning(forbiddenMessage(target, error), { title: 'EvalGate could not comment on the pull request' });
    } else {
      const status = httpStatusOf(error);
      failures.push(`EvalGate: could not publish the comment on pull request #${target.issueNumber}${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}`);
    }
    return '';
  }
}

async function runAction(env: Env): Promise<void> {
  let inputs: ActionInputs;
  let ctx: RunContext;
  try {
    inputs = getInputs(env);
    ctx = readRunContext(env);
  } catch (error) {
    core.setFailed(isInputError(error) ? `EvalGate: ${error.message}` : `EvalGate: internal error: ${messageOf(error)}`);
    return;
  }
  if (inputs.githubToken) core.setSecret(inputs.githubToken);
  const target = pullRequestTarget(ctx, inputs.prNumber);
  const reportName = relative(inputs.workspace, inputs.reportPath) || inputs.reportPath;
  const failures: string[] = [];

  const evaluation = await evaluate(inputs, `the job summary of this workflow run and in \`${reportName}\``);
  let outcome: Outcome;
  let commentMarkdown: string;
  let fullMarkdown: string;
  let json: string;
  if (evaluation.ok) {
    const { out } = evaluation;
    outcome = out.report.verdict;
    commentMarkdown = out.markdown;
    fullMarkdown = out.markdownFull;
    json = out.json;
    for (const warning of summariseWarnings(out.warnings)) core.warning(warning);
    if (inputs.writeAggregate) {
      try {
        // The same code path as `evalgate aggregate CANDIDATE --golden GOLDEN [--run ID] --write`.
        const { runId } = await runAggregate({ runPath: shortPath(inputs.candidate), goldenPath: shortPath(inputs.golden), runId: inputs.candidateRun, write: true });
        core.info(`wrote aggregate_json of run ${runId} into ${shortPath(inputs.candidate)}`);
      } catch (error) {
        failures.push(`EvalGate: write-aggregate: ${messageOf(error)}`);
      }
    }
  } else {
    outcome = 'error';
    failures.push(`EvalGate could not evaluate the run: ${evaluation.message}`);
    commentMarkdown = renderErrorPanel({ message: evaluation.message, inputError: evaluation.inputError, sha: ctx.sha, runUrl: ctx.runUrl });
    fullMarkdown = commentMarkdown;
    json = stableJson({ verdict: 'error', error: evaluation.message });
  }

  // The report files and the job summary: always, whatever the event.
  try {
    mkdirSync(dirname(inputs.reportPath), { recursive: true });
    writeFileSync(inputs.reportPath, fullMarkdown);
    mkdirSync(dirname(inputs.jsonPath), { recursive: true });
    writeFileSync(inputs.jsonPath, json);
  } catch (error) {
    failures.push(`EvalGate: input \`report-path\`: cannot write the report (${messageOf(error)})`);
  }
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      const text = Buffer.byteLength(fullMarkdown) < STEP_SUMMARY_LIMIT ? fullMarkdown : commentMarkdown;
      await core.summary.addRaw(text).write();
    } catch (error) {
      core.warning(`EvalGate: could not write the job summary: ${messageOf(error)}`);
    }
  }

  // Annotations: one per failed gate.
  if (evaluation.ok) {
    const configFile = inputs.config ? relative(inputs.workspace, inputs.config) : null;
    for (const a of gateAnnotations(evaluation.out.report, inputs.failOn, configFile)) {
      const properties = { title: a.title, ...(a.file ? { file: a.file, startLine: a.line } : {}) };
      if (a.level === 'error') core.error(a.message, properties);
      else core.warning(a.message, properties);
    }
    const failing = gatesFailingAt(evaluation.out.report, inputs.failOn);
    if (failing.length > 0) failures.unshift(gateFailureMessage(failing, inputs.failOn));
  }

  // The sticky comment: pull requests only.
  let commentUrl = '';
  if (target) {
    commentUrl = await publishComment(inputs, ctx, target, commentMarkdown, outcome, failures);
  } else {
    core.info(`no pull request for this ${ctx.eventName || 'run'} event: the report is in the job summary, ${reportName} and the outputs`);
  }

  core.setOutput('verdict', outcome);
  core.setOutput('passed', evaluation.ok ? String(passedAt(evaluation.out.report, inputs.failOn)) : 'false');
  core.setOutput('failed-gates', evaluation.ok ? failedGatesJson(evaluation.out.report) : '[]');
  core.setOutput('report-path', inputs.reportPath);
  core.setOutput('json-path', inputs.jsonPath);
  core.setOutput('comment-url', commentUrl);
  core.setOutput('summary', evaluation.ok ? summaryJson(evaluation.out.report) : errorSummaryJson(evaluation.message));

  core.info(`EvalGate verdict: ${outcome}; report: ${reportName}`);
  if (failures.length > 0) core.setFailed(failures.join('\n'));
}
