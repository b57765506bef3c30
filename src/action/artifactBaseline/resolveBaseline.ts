/**
 * The action's step for `baseline: artifact:NAME`: which commit the baseline is for (from the event), the look-up
 * (baselineArtifact.ts) with the action's GitHub client, and what `if-no-baseline` says when nothing is found. It
 * returns the downloaded database, or none for a candidate-only report.
 */
import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { inertLines } from '../../inputText.js';
import { isInputError } from '../../errors.js';
import { currentWorkflowFile, findBaselineArtifact } from './findArtifact.js';
import type { BaselineClient, BaselineProvenance } from './findArtifact.js';
import type { RunContext, TriggeringRun } from '../context.js';
import type { ArtifactHistory } from '../mainHistory.js';
import type { RunPullRequest } from './workflowRun.js';
import type { ActionInputs, BaselineArtifactInputs, Env } from '../inputs.js';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;
const ZERO_SHA = /^0+$/;

function objectAt(value: unknown, key: string): Record<string, unknown> | null {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : null;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const sha = (value: unknown): string | null =>
  typeof value === 'string' && SHA.test(value) && !ZERO_SHA.test(value) ? value : null;

/**
 * The commit the baseline is the run of: a pull request's base (on workflow_run, of the pull request found for the
 * triggering run), a push's previous tip (`before`).
 */
export function baseOfEvent(
  ctx: RunContext,
  runPullRequest: RunPullRequest | null = null,
): { baseSha: string; headSha: string | null; baseBranch: string | null } | null {
  if (runPullRequest) {
    const baseSha = sha(runPullRequest.baseSha);
    return baseSha ? { baseSha, headSha: runPullRequest.headSha, baseBranch: runPullRequest.baseRef } : null;
  }
  const pr = objectAt(ctx.payload, 'pull_request');
  if (pr) {
    const base = objectAt(pr, 'base');
    const baseSha = sha(base?.sha);
    if (!baseSha) return null;
    return {
      baseSha,
      headSha: sha(objectAt(pr, 'head')?.sha),
      baseBranch: typeof base?.ref === 'string' ? base.ref : null,
    };
  }
  if (ctx.eventName === 'push') {
    const before = sha(ctx.payload.before);
    if (!before) return null;
    const ref = typeof ctx.payload.ref === 'string' ? ctx.payload.ref : '';
    return {
      baseSha: before,
      headSha: sha(ctx.payload.after),
      baseBranch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null,
    };
  }
  return null;
}

/** What the baseline step found: a database (or none, for a candidate-only report), an error, or `skip`. */
export type BaselineResolution =
  | { kind: 'skip' }
  | {
      kind: 'continue';
      baseline: string | null;
      /** Where it was found; `headSha` (its run's head commit) is the baseline's commit when its database has none. */
      baselineFrom?: NonNullable<ActionInputs['baselineFrom']>;
      error: string | null;
      /** With a history entry name: the artifact's history (null: none in it); undefined: not read from an artifact. */
      history?: ArtifactHistory | null;
    };

/**
 * Resolves `artifact:NAME` into a downloaded database. A problem (no permission, no such workflow, a refused
 * archive) is the result's `error`, so the step fails with the error panel. `skip` when nothing was found and
 * `if-no-baseline: skip` says to stop quietly.
 */
export async function resolveArtifactBaseline(
  inputs: ActionInputs,
  ctx: RunContext,
  env: Env,
  workflowRun: { run: TriggeringRun; pr: RunPullRequest } | null,
  client: BaselineClient | null,
  historyEntry: string | null = null,
): Promise<BaselineResolution> {
  const spec = inputs.baselineArtifact;
  if (!spec) return { kind: 'continue', baseline: inputs.baseline, error: null };
  const label = `baseline artifact:${spec.name}`;
  const failed = (error: string): BaselineResolution => ({ kind: 'continue', baseline: null, error });
  // On workflow_run the running workflow is the trusted one; the triggering workflow is the one that records runs.
  const workflow = spec.workflow ?? workflowRun?.run.workflowFile ?? currentWorkflowFile(env.GITHUB_WORKFLOW_REF);
  if (!workflow)
    return failed(
      `${label}: cannot tell which workflow uploads it (GITHUB_WORKFLOW_REF is not set); set input \`baseline-workflow\``,
    );
  if (!client) return failed(`${label}: input \`github-token\` is empty; a token with \`actions: read\` is needed`);
  const base = baseOfEvent(ctx, workflowRun?.pr ?? null);
  if (!base)
    return noBaseline(spec, `${label}: a ${ctx.eventName || 'run'} event names no base commit to find the baseline of`);
  const started = Date.now();
  let result: Awaited<ReturnType<typeof findBaselineArtifact>>;
  try {
    result = await findBaselineArtifact(client, {
      owner: ctx.owner,
      repo: ctx.repo,
      artifact: spec.name,
      workflow,
      ...base,
      maxCommits: spec.maxCommits,
      path: spec.path,
      tempDir: env.RUNNER_TEMP || tmpdir(),
      historyEntry,
    });
  } catch (error) {
    if (!isInputError(error)) throw error;
    return failed(error.message);
  }
  for (const note of result.notes) core.info(inertLines(`${label}: ${note}`));
  core.info(`${label}: ${result.apiCalls} GitHub API calls, ${Date.now() - started} ms with the download`);
  if (!result.found) return noBaseline(spec, `${label}: ${result.reason}`);
  return found(label, base.baseSha, result.path, result.provenance, result.history);
}

function found(
  label: string,
  baseSha: string,
  path: string,
  p: BaselineProvenance,
  history: ArtifactHistory | null | undefined,
): BaselineResolution {
  core.setOutput('baseline', JSON.stringify(p));
  core.info(
    inertLines(
      `${label}: run ${p.run_id} of ${p.head_sha.slice(0, 7)} (${p.created_at}, ${p.commits_behind} commits behind the base, found by ${p.found_by}): ${p.run_url}`,
    ),
  );
  if (!p.base_commit_run)
    core.warning(
      inertLines(
        `${label}: the baseline is not the base commit's own run: run ${p.run_id} of ${p.head_sha.slice(0, 7)}, ${p.commits_behind} commits behind ${baseSha.slice(0, 7)} (found by ${p.found_by}); changes made in between count as the pull request's`,
      ),
      { title: 'EvalVerdict: stale baseline' },
    );
  return {
    kind: 'continue',
    baseline: path,
    baselineFrom: {
      source: p.source,
      runUrl: p.run_url,
      commitsBehind: p.commits_behind,
      baseCommitRun: p.base_commit_run,
      headSha: p.head_sha,
    },
    error: null,
    ...(history === undefined ? {} : { history }),
  };
}

/** Nothing found: what `if-no-baseline` says. */
function noBaseline(spec: BaselineArtifactInputs, reason: string): BaselineResolution {
  core.setOutput('baseline', JSON.stringify({ source: `artifact:${spec.name}`, found: false, reason }));
  switch (spec.ifNoBaseline) {
    case 'fail':
      return { kind: 'continue', baseline: null, error: `${reason} (if-no-baseline: fail)` };
    case 'skip':
      core.notice(inertLines(`${reason}; if-no-baseline: skip, so no report and no comment`));
      return { kind: 'skip' };
    case 'warn':
      core.warning(inertLines(`${reason}; reporting the candidate alone (if-no-baseline: warn)`), {
        title: 'EvalVerdict: no baseline',
      });
      return { kind: 'continue', baseline: null, error: null };
  }
}
