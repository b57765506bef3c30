/**
 * The action's step for `baseline: artifact:NAME`: which commit the baseline is for (from the event), the look-up
 * (baselineArtifact.ts) with the action's GitHub client, and what `if-no-baseline` says when nothing is found. It
 * sets `inputs.baseline` to the downloaded database, or leaves it null for a candidate-only report.
 */
import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { inertLines, isInputError } from '../errors.js';
import { createGitHubClient } from '../publish/client.js';
import { baselineClientOf, currentWorkflowFile, findBaselineArtifact } from './baselineArtifact.js';
import type { BaselineClient } from './baselineArtifact.js';
import type { RunContext, TriggeringRun } from './context.js';
import type { RunPullRequest } from './workflowRun.js';
import type { ActionInputs, Env, InputsRead } from './inputs.js';

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

/**
 * The client of the artifact and pull-request look-ups, bounded like the comment's calls: per request, and by the
 * publish deadline for the look-up as a whole.
 */
export function lookupClient(token: string, inputs: ActionInputs, ctx: RunContext): BaselineClient {
  return baselineClientOf(
    createGitHubClient(token, {
      baseUrl: ctx.apiUrl,
      log: { debug: (m) => core.debug(m), warn: (m) => core.warning(m) },
      requestTimeoutMs: inputs.requestTimeoutS * 1000,
      signal: AbortSignal.timeout(inputs.publishTimeoutS * 1000),
    }),
  );
}

/**
 * Resolves `artifact:NAME` into `read.inputs.baseline`. A problem (no permission, no such workflow, a refused
 * archive) goes into `read.errors`, so the step fails with the error panel. Returns `skip` when nothing was found and
 * `if-no-baseline: skip` says to stop quietly.
 */
export async function resolveArtifactBaseline(
  read: InputsRead,
  ctx: RunContext,
  env: Env,
  workflowRun: { run: TriggeringRun; pr: RunPullRequest } | null,
  clientFor: (token: string) => BaselineClient = (token) => lookupClient(token, read.inputs, ctx),
): Promise<'continue' | 'skip'> {
  const { inputs } = read;
  const spec = inputs.baselineArtifact;
  if (!spec || read.errors.length > 0) return 'continue';
  const label = `baseline artifact:${spec.name}`;
  // On workflow_run the running workflow is the trusted one; the triggering workflow is the one that records runs.
  const workflow = spec.workflow ?? workflowRun?.run.workflowFile ?? currentWorkflowFile(env.GITHUB_WORKFLOW_REF);
  if (!workflow) {
    read.errors.push(
      `${label}: cannot tell which workflow uploads it (GITHUB_WORKFLOW_REF is not set); set input \`baseline-workflow\``,
    );
    return 'continue';
  }
  if (!inputs.githubToken) {
    read.errors.push(`${label}: input \`github-token\` is empty; a token with \`actions: read\` is needed`);
    return 'continue';
  }
  const base = baseOfEvent(ctx, workflowRun?.pr ?? null);
  let reason: string;
  if (!base) {
    reason = `${label}: a ${ctx.eventName || 'run'} event names no base commit to find the baseline of`;
  } else {
    try {
      const started = Date.now();
      const result = await findBaselineArtifact(clientFor(inputs.githubToken), {
        owner: ctx.owner,
        repo: ctx.repo,
        artifact: spec.name,
        workflow,
        ...base,
        maxCommits: spec.maxCommits,
        path: spec.path,
        tempDir: env.RUNNER_TEMP || tmpdir(),
      });
      for (const note of result.notes) core.info(inertLines(`${label}: ${note}`));
      core.info(`${label}: ${result.apiCalls} GitHub API calls, ${Date.now() - started} ms with the download`);
      if (result.found) {
        const p = result.provenance;
        inputs.baseline = result.path;
        inputs.baselineFrom = {
          source: p.source,
          runUrl: p.run_url,
          commitsBehind: p.commits_behind,
          baseCommitRun: p.base_commit_run,
        };
        core.setOutput('baseline', JSON.stringify(p));
        core.info(
          inertLines(
            `${label}: run ${p.run_id} of ${p.head_sha.slice(0, 7)} (${p.created_at}, ${p.commits_behind} commits behind the base, found by ${p.found_by}): ${p.run_url}`,
          ),
        );
        if (!p.base_commit_run)
          core.warning(
            inertLines(
              `${label}: the baseline is not the base commit's own run: run ${p.run_id} of ${p.head_sha.slice(0, 7)}, ${p.commits_behind} commits behind ${base.baseSha.slice(0, 7)} (found by ${p.found_by}); changes made in between count as the pull request's`,
            ),
            { title: 'EvalGate: stale baseline' },
          );
        return 'continue';
      }
      reason = `${label}: ${result.reason}`;
    } catch (error) {
      if (!isInputError(error)) throw error;
      read.errors.push(error.message);
      return 'continue';
    }
  }
  core.setOutput('baseline', JSON.stringify({ source: `artifact:${spec.name}`, found: false, reason }));
  switch (spec.ifNoBaseline) {
    case 'fail':
      read.errors.push(`${reason} (if-no-baseline: fail)`);
      return 'continue';
    case 'skip':
      core.notice(inertLines(`${reason}; if-no-baseline: skip, so no report and no comment`));
      return 'skip';
    case 'warn':
      core.warning(inertLines(`${reason}; reporting the candidate alone (if-no-baseline: warn)`), {
        title: 'EvalGate: no baseline',
      });
      return 'continue';
  }
}
