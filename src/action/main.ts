/**
 * The GitHub Action: inputs -> runCompare (the same pipeline as `evalverdict compare`) -> report files, job
 * summary, annotations, outputs, sticky PR comment, commit status. Each step returns what it produced and the
 * step's failure messages; this is the one place that adds them up and fails the step, once, with every reason.
 * One GitHub client, under one deadline (session.ts), serves every API call of the step.
 */
import { relative } from 'node:path';
import * as core from '@actions/core';
import { isInputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { redactTokens } from '../publish/githubClient.js';
import { staleAge } from '../render/reportWarnings.js';
import type { ReportContext } from '../render/reportContext.js';
import { statusHeadline } from '../render/reportParts.js';
import { markStale, publishComment } from './comment.js';
import { pullRequestTarget, readRunContext, triggeringRun } from './context.js';
import type { PullRequestTarget, RunContext, TriggeringRun } from './context.js';
import { readInputs } from './inputs.js';
import type { ActionInputs, Env, FailOn, InputsRead } from './inputs.js';
import type { CompareReport, GateResult } from '../gate/types.js';
import {
  errorSummaryJson,
  failedGatesJson,
  gateAnnotations,
  gateFailureMessage,
  gatesFailingAt,
  passedAt,
  summaryJson,
} from './outputs.js';
import { acceptanceFor, errorRun, withAcceptance } from './acceptanceStep.js';
import type { AcceptanceRun } from './acceptanceStep.js';
import type { AcceptanceDecision } from '../acceptance/decision.js';
import { acceptedGatePredicate, acceptedStatusDescription } from '../acceptance/decision.js';
import { takeCommentCommand } from './issueComment.js';
import type { TakenCommand } from './acceptanceStep.js';
import { afterEvaluation, evaluate, reportsOf, writeReports } from './reports.js';
import type { Evaluation, Reports } from './reports.js';
import { resolveArtifactBaseline } from './artifactBaseline/resolveBaseline.js';
import { historySettings, previousHistory, recordHistory } from './mainHistory.js';
import type { ArtifactHistory, HistorySettings } from './mainHistory.js';
import { boundedOutput, info, messageOf, runnerFileProblems, setOutputs } from './runner.js';
import { openSession } from './session.js';
import type { GitHubSession } from './session.js';
import { commitStatusSetter } from './status.js';
import { fetchCandidateArtifact, fetchHeadCandidate, findRunPullRequest } from './artifactBaseline/workflowRun.js';
import type { RunPullRequest } from './artifactBaseline/workflowRun.js';
import { nowIso } from '../time.js';

/** What the step settled on before scoring: the inputs with the downloaded databases, and what is wrong. */
interface Prepared {
  inputs: ActionInputs;
  errors: string[];
  target: PullRequestTarget | null;
  /** Input `history-file`, and the baseline artifact's history entry (undefined: no artifact baseline). */
  history: { settings: HistorySettings; fromArtifact: ArtifactHistory | null | undefined } | null;
}

/**
 * Never rejects: every failure ends as core.setFailed. Resolves to true when API work was abandoned at the publish
 * deadline: the client may still hold a retry's or a rate limit's timer, and the process should exit now.
 */
export async function run(env: Env = process.env): Promise<boolean> {
  const problems = runnerFileProblems(env);
  if (problems.length > 0) {
    core.setFailed(problems.join('\n'));
    return false;
  }
  let read: InputsRead;
  let ctx: RunContext;
  try {
    read = readInputs(env);
    ctx = readRunContext(env);
  } catch (error) {
    core.setFailed(
      isInputError(error) ? `EvalVerdict: ${error.message}` : `EvalVerdict: internal error: ${messageOf(error)}`,
    );
    return false;
  }
  const { inputs } = read;
  if (inputs.githubToken) core.setSecret(inputs.githubToken);
  if (read.publishErrors.length > 0) {
    // Without these the action cannot tell which comment is its own or where it goes: fail before publishing.
    core.setFailed([...read.publishErrors, ...read.errors].map((m) => `EvalVerdict: ${m}`).join('\n'));
    return false;
  }
  const session = inputs.githubToken ? openSession(inputs.githubToken, inputs, ctx) : null;
  try {
    const failures = await runAction(read, ctx, env, session);
    if (failures.length > 0) core.setFailed(failures.map((f) => redactTokens(f, inputs.githubToken)).join('\n'));
  } catch (error) {
    await failInternally(error, read, ctx, session);
  } finally {
    session?.close();
  }
  return session?.expired() ?? false;
}

/**
 * An internal error (a bug, or a case no check foresaw): the step fails, and the earlier comment (a green one,
 * perhaps) is replaced by the error panel, so the pull request never shows a verdict this run could not back.
 */
async function failInternally(error: unknown, read: InputsRead, ctx: RunContext, session: GitHubSession | null) {
  const message = redactTokens(`internal error: ${messageOf(error)}`, read.inputs.githubToken);
  info(redactTokens(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  const target = pullRequestTarget(ctx, read.inputs.prNumber);
  if (session && target && read.inputs.comment !== 'never') {
    const request = { inputs: read.inputs, ctx, target, markdown: '', outcome: 'error' as const };
    await markStale(request, session, `EvalVerdict could not evaluate this commit: ${message}`);
  }
  await commitStatusSetter(read.inputs, ctx, session)('error', message);
  core.setFailed(`EvalVerdict: ${message}`);
}

async function runAction(
  read: InputsRead,
  eventCtx: RunContext,
  env: Env,
  session: GitHubSession | null,
): Promise<string[]> {
  // `/evalverdict` comment commands: refused ones are answered here; a taken one names the head commit.
  const { commentId, commentAuthor } = read.inputs;
  const readState = read.inputs.comment !== 'never';
  const command = await takeCommentCommand(eventCtx, session, { commentId, commentAuthor, readState });
  if (command.kind === 'done') return command.failures;
  const ctx = command.kind === 'taken' ? command.ctx : eventCtx;
  const prepared = await prepare(read, ctx, env, session);
  if (prepared === 'skip') return [];
  if (typeof prepared === 'string') return [prepared];
  const { inputs, target } = prepared;
  const reportName = relative(inputs.workspace, inputs.reportPath) || inputs.reportPath;
  const setStatus = commitStatusSetter(inputs, ctx, session);
  // Not awaited: scoring never waits for GitHub; the final status waits for this one.
  const pending = setStatus('pending', 'EvalVerdict is scoring the runs');
  const reportContext = reportContextOf(ctx, inputs, nowIso());
  const history = prepared.history;
  const previous = history ? previousHistory(history.settings, history.fromArtifact) : null;
  session?.pause();
  const evaluation = await evaluate(inputs, prepared.errors, reportName, reportContext, previous);
  session?.resume();
  const failures = evaluation.ok
    ? await afterEvaluation(evaluation.out, inputs)
    : [
        evaluation.inputError && prepared.errors.length > 0
          ? prepared.errors.map((m) => `EvalVerdict: ${m}`).join('\n')
          : `EvalVerdict could not evaluate the run: ${evaluation.message}`,
      ];
  if (history)
    failures.push(...recordHistory(history.settings, previous, evaluation.ok ? evaluation.out.report : null));
  if (evaluation.ok) warnIfStale(evaluation, inputs, reportContext);
  // Accepting by label or command: decided after scoring, before anything is written or published.
  const taken = command.kind === 'taken' ? command.taken : null;
  const acceptanceRun = await decideAcceptance(evaluation, ctx, inputs, { session, target, taken });
  const acceptance = acceptanceRun.decision;
  const accepted = acceptedGatePredicate(acceptance);
  const reports = withAcceptance(reportsOf(evaluation, ctx), acceptanceRun, inputs.acceptLabel);
  // The report files and the job summary: always, whatever the event.
  failures.push(...(await writeReports(inputs, env, reports, read.reportFilesWritable)));
  if (evaluation.ok) failures.unshift(...annotateGates(evaluation, inputs, accepted));
  let commentUrl = '';
  if (target) {
    const request = { inputs, ctx, target, markdown: reports.comment, outcome: reports.outcome };
    const comment = await publishComment(
      { ...request, stateLine: reports.stateLine ?? '', listed: acceptanceRun.listed },
      session,
    );
    commentUrl = comment.url;
    failures.push(...comment.failures);
  } else {
    info(
      `no pull request for this ${ctx.eventName || 'run'} event: the report is in the job summary, ${reportName} and the outputs`,
    );
  }
  failures.push(...(await pending), ...(await setStatus(...finalStatus(evaluation, inputs, acceptance))));
  failures.push(...setOutputs(outputsOf(evaluation, inputs, reports, commentUrl, accepted)));
  info(`EvalVerdict verdict: ${reports.outcome}; report: ${reportName}`);
  return failures;
}

/** Whether (and which) failing gates are accepted, from the label, a taken command and the comment's state line. */
async function decideAcceptance(
  evaluation: Evaluation,
  ctx: RunContext,
  inputs: ActionInputs,
  on: { session: GitHubSession | null; target: PullRequestTarget | null; taken: TakenCommand | null },
): Promise<AcceptanceRun> {
  const { session, target } = on;
  const source =
    session && target
      ? {
          session,
          target,
          commentId: inputs.commentId,
          commentAuthor: inputs.commentAuthor,
          readState: inputs.comment !== 'never',
        }
      : null;
  if (!evaluation.ok) return errorRun(ctx, source);
  return acceptanceFor(evaluation.out.report, ctx, { label: inputs.acceptLabel, source, taken: on.taken });
}

/**
 * Before scoring: on workflow_run the triggering run's pull request and candidate artifact; for `artifact:NAME` the
 * baseline. Returns `skip` (if-no-baseline: skip), a message that fails the step before any comment (no pull request
 * to comment on), or what to score.
 */
async function prepare(
  read: InputsRead,
  ctx: RunContext,
  env: Env,
  session: GitHubSession | null,
): Promise<Prepared | 'skip' | string> {
  let inputs = read.inputs;
  const errors = [...read.errors];
  const historyAt = historySettingsOr(env, inputs, ctx, errors);
  const run = triggeringRun(ctx);
  if (inputs.candidateArtifact && !run && errors.length === 0) {
    // Any other event (a label, a comment command): the artifact of the pull request's head commit's run.
    const found = await headCandidate(inputs, ctx, env, session);
    if (found.error) errors.push(found.error);
    inputs = { ...inputs, candidate: found.path };
  }
  let workflowRun: { run: TriggeringRun; pr: RunPullRequest } | null = null;
  if (run) {
    const resolved = await resolveWorkflowRun(inputs, ctx, env, run, session, errors.length === 0);
    if (typeof resolved === 'string') return resolved;
    workflowRun = { run, pr: resolved.pr };
    if (resolved.error) errors.push(resolved.error);
    if (resolved.candidate) inputs = { ...inputs, candidate: resolved.candidate };
  }
  let fromArtifact: ArtifactHistory | null | undefined;
  if (errors.length === 0 && inputs.baselineArtifact) {
    const found = await resolveArtifactBaseline(
      inputs,
      ctx,
      env,
      workflowRun,
      session?.lookup ?? null,
      historyAt?.entryName ?? null,
    );
    fromArtifact = found.kind === 'continue' ? (found.history ?? null) : null;
    if (found.kind === 'skip') return 'skip';
    if (found.error) errors.push(found.error);
    inputs = {
      ...inputs,
      baseline: found.baseline,
      ...(found.baselineFrom ? { baselineFrom: found.baselineFrom } : {}),
    };
  }
  const target: PullRequestTarget | null = workflowRun
    ? {
        owner: ctx.owner,
        repo: ctx.repo,
        issueNumber: workflowRun.pr.number,
        fromFork: workflowRun.pr.fromFork,
        byDependabot: false,
      }
    : pullRequestTarget(ctx, inputs.prNumber);
  return { inputs, errors, target, history: historyAt ? { settings: historyAt, fromArtifact } : null };
}

/** Input `history-file`, or null (its mistake into `errors`). */
function historySettingsOr(env: Env, inputs: ActionInputs, ctx: RunContext, errors: string[]): HistorySettings | null {
  try {
    return historySettings(env, inputs, ctx);
  } catch (error) {
    if (!isInputError(error)) throw error;
    errors.push(error.message);
    return null;
  }
}

/**
 * On a workflow_run event: the triggering run's pull request (a message failing the step when there is none: no
 * comment and no status then) and, for `candidate: artifact:NAME`, its run database (a problem there is `error`:
 * the error panel on the pull request and an `error` status).
 */
async function resolveWorkflowRun(
  inputs: ActionInputs,
  ctx: RunContext,
  env: Env,
  run: TriggeringRun,
  session: GitHubSession | null,
  fetchCandidate: boolean,
): Promise<{ pr: RunPullRequest; candidate?: string; error?: string } | string> {
  if (!session)
    return 'EvalVerdict: input `github-token` is empty: on workflow_run the pull request and the candidate artifact are read with it';
  let pr: RunPullRequest;
  try {
    const found = await findRunPullRequest(session.lookup, ctx, run, inputs.prNumber);
    pr = found.pr;
    info(
      `workflow_run: run ${run.id} of ${run.headSha.slice(0, 7)} (${run.headRepository}:${run.headBranch}) is pull request #${pr.number}${pr.fromFork ? ' (from a fork)' : ''} (${found.apiCalls} GitHub API calls)`,
    );
  } catch (error) {
    if (!isInputError(error)) throw error;
    return `EvalVerdict: ${error.message}`;
  }
  if (!inputs.candidateArtifact || !fetchCandidate) return { pr };
  try {
    const fetched = await fetchCandidateArtifact(session.lookup, inputs, ctx, run, env);
    info(
      `candidate artifact:${inputs.candidateArtifact.name}: ${fetched.entry} of run ${run.id} (${fetched.apiCalls} GitHub API calls)`,
    );
    return { pr, candidate: fetched.path };
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { pr, error: error.message };
  }
}

/** `candidate: artifact:NAME` by the head commit: its path, or the message saying why there is none. */
async function headCandidate(
  inputs: ActionInputs,
  ctx: RunContext,
  env: Env,
  session: GitHubSession | null,
): Promise<{ path: string; error?: string }> {
  const name = `artifact:${inputs.candidateArtifact?.name}`;
  if (!session)
    return { path: '', error: `input \`candidate\`: ${name} is read with \`github-token\`, which is empty` };
  if (!ctx.sha)
    return {
      path: '',
      error: `input \`candidate\`: ${name}: this ${ctx.eventName || 'run'} event names no pull request head commit`,
    };
  try {
    const fetched = await fetchHeadCandidate(session.lookup, inputs, ctx, ctx.sha, env);
    info(
      `candidate ${name}: ${fetched.entry} of run ${fetched.runId}, the head ${ctx.sha.slice(0, 7)}'s (${fetched.apiCalls} GitHub API calls)`,
    );
    return { path: fetched.path };
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { path: '', error: error.message };
  }
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

function warnIfStale(evaluation: Evaluation & { ok: true }, inputs: ActionInputs, reportContext: ReportContext): void {
  const baseline = evaluation.out.report.baseline;
  const stale = baseline ? staleAge(baseline.created_at, reportContext) : null;
  if (baseline && stale)
    core.warning(
      `the baseline run is ${stale} old (created ${oneLine(baseline.created_at)}), past \`baseline-max-age\` (${inputs.baselineMaxAgeDays} days): record a newer one`,
      { title: 'EvalVerdict: stale baseline' },
    );
}

/** Whether a gate is accepted: a failed error-level one the acceptance names. */
type Accepted = (g: GateResult) => boolean;

/**
 * One annotation per failed gate (an accepted one is a warning); returns the failure naming the gates that fail at
 * the `fail-on` level and are not accepted, if any.
 */
function annotateGates(evaluation: Evaluation & { ok: true }, inputs: ActionInputs, accepted: Accepted): string[] {
  const { report } = evaluation.out;
  const configFile = inputs.config ? relative(inputs.workspace, inputs.config) : null;
  const annotated = report.gates.filter((g) => g.effect !== 'none');
  gateAnnotations(report, inputs.failOn, configFile).forEach((a, i) => {
    const properties = { title: a.title, ...(a.file ? { file: a.file, startLine: a.line } : {}) };
    if (accepted(annotated[i]))
      core.warning(a.message, { ...properties, title: a.title.replace('gate failed', 'gate failed, accepted') });
    else if (a.level === 'error') core.error(a.message, properties);
    else core.warning(a.message, properties);
  });
  const failing = gatesFailingAt(report, inputs.failOn).filter((g) => !accepted(g));
  return failing.length > 0 ? [gateFailureMessage(failing, inputs.failOn)] : [];
}

/** `passed`: no gate fails at the `fail-on` level (for `never`: the error level) but accepted ones. */
function passedWith(report: CompareReport, failOn: FailOn, accepted: Accepted): boolean {
  const failing = gatesFailingAt(report, failOn === 'never' ? 'error' : failOn);
  if (!failing.some(accepted)) return passedAt(report, failOn);
  return failing.every(accepted);
}

function finalStatus(
  evaluation: Evaluation,
  inputs: ActionInputs,
  acceptance: AcceptanceDecision,
): ['success' | 'failure' | 'error', string] {
  if (!evaluation.ok)
    return ['error', `could not evaluate the run: ${redactTokens(evaluation.message, inputs.githubToken)}`];
  const { report, defs } = evaluation.out;
  if (!passedWith(report, inputs.failOn, acceptedGatePredicate(acceptance)))
    return ['failure', statusHeadline(report, defs)];
  return [
    'success',
    acceptance.kind === 'accepted' ? acceptedStatusDescription(acceptance.acceptance) : statusHeadline(report, defs),
  ];
}

function outputsOf(
  evaluation: Evaluation,
  inputs: ActionInputs,
  reports: Reports,
  commentUrl: string,
  accepted: Accepted,
): Array<[string, string]> {
  const json = { jsonPath: inputs.jsonPath };
  const summary = evaluation.ok
    ? summaryJson(evaluation.out.report)
    : errorSummaryJson(redactTokens(evaluation.message, inputs.githubToken));
  return [
    ['verdict', reports.outcome],
    ['passed', evaluation.ok ? String(passedWith(evaluation.out.report, inputs.failOn, accepted)) : 'false'],
    ['failed-gates', boundedOutput(evaluation.ok ? failedGatesJson(evaluation.out.report) : '[]', json)],
    ['report-path', boundedOutput(inputs.reportPath, null)],
    ['json-path', boundedOutput(inputs.jsonPath, null)],
    ['comment-url', boundedOutput(commentUrl, null)],
    ['summary', boundedOutput(summary, json)],
  ];
}
