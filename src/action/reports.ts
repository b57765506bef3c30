/**
 * The scoring step and what it leaves: the comparison (or why there is none), the reports it renders (or the error
 * panel), the report files and the job summary. Each step returns its failure messages; nothing is shared.
 */
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import * as core from '@actions/core';
import { isInputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { candidateOnlyDefaultConfig } from '../gate/config.js';
import { runAggregate } from '../pipeline/runAggregate.js';
import { runCompare } from '../pipeline/runCompare.js';
import type { CompareOutputs } from '../pipeline/runCompare.js';
import { withHistory } from '../pipeline/withHistory.js';
import type { History } from '../load/historyFile.js';
import { renderErrorPanel } from '../render/errorPanel.js';
import { writeOutputFiles } from '../write/outputFiles.js';
import type { Outcome } from '../publish/commentPolicy.js';
import type { ReportContext } from '../render/reportContext.js';
import { stableJson } from '../stableJson.js';
import { summariseWarnings } from '../render/warningText.js';
import type { RunContext } from './context.js';
import type { ActionInputs, Env } from './inputs.js';
import { codeOf, info, messageOf } from './runner.js';

/** GitHub's limit for one step's job summary. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

export type Evaluation = { ok: true; out: CompareOutputs } | { ok: false; message: string; inputError: boolean };

/** A path as the user wrote it, relative to the working directory (the workspace), for messages. */
export function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The comparison, or why there is none: the inputs' mistakes, an input error while scoring, an internal error. */
export async function evaluate(
  inputs: ActionInputs,
  errors: string[],
  reportName: string,
  reportContext: ReportContext,
  history: History | null = null,
): Promise<Evaluation> {
  if (errors.length > 0) return { ok: false, message: errors.join('\n'), inputError: true };
  // Where the cut comment says the full report is. Past the job summary's limit the summary gets the cut report
  // too, so then both name the report file alone.
  const summaryHint = `the job summary of this workflow run and in \`${reportName}\``;
  const fileHint = `\`${reportName}\` (too large for the job summary)`;
  const candidateOnlyDefault = inputs.baseline === null && inputs.config === null && inputs.gates === null;
  try {
    const out = await runCompare({
      baselinePath: inputs.baseline === null ? null : shortPath(inputs.baseline),
      candidatePath: shortPath(inputs.candidate),
      goldenPath: shortPath(inputs.golden),
      baselineRun: inputs.baselineRun,
      candidateRun: inputs.candidateRun,
      runOptionNames: {
        baseline: 'input `baseline-run`',
        candidate: 'input `candidate-run`',
        noBaseline: '`baseline: none`',
      },
      configPath: inputs.config === null ? null : shortPath(inputs.config),
      configText: inputs.gates,
      // With no baseline and no config, the default's gates warn: `baseline: none` gives the candidate-only report.
      ...(candidateOnlyDefault ? { builtInConfig: candidateOnlyDefaultConfig() } : {}),
      strictChunkerVersion: inputs.strictChunkerVersion,
      options: inputs.metricOptions,
      fullReportHint: (full) => (Buffer.byteLength(full) < STEP_SUMMARY_LIMIT ? summaryHint : fileHint),
      // Main's history: its trend in the report, its flaky queries set aside.
      ...withHistory({ reportContext }, history),
    });
    core.debug(`EvalVerdict: runs scored ${out.parallel ? 'in two threads' : 'in one thread'}`);
    return { ok: true, out };
  } catch (error) {
    if (isInputError(error)) return { ok: false, message: error.message, inputError: true };
    info(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { ok: false, message: `internal error: ${messageOf(error)}`, inputError: false };
  }
}

/** The golden set's warnings, and with `write-aggregate` the candidate's aggregate stored in its database. */
export async function afterEvaluation(out: CompareOutputs, inputs: ActionInputs): Promise<string[]> {
  for (const warning of summariseWarnings(out.warnings)) core.warning(warning);
  if (!inputs.writeAggregate) return [];
  try {
    // The same code path as `evalverdict aggregate CANDIDATE --golden GOLDEN [--run ID] --write`.
    const { runId } = await runAggregate({
      runPath: shortPath(inputs.candidate),
      goldenPath: shortPath(inputs.golden),
      runId: inputs.candidateRun,
      options: inputs.metricOptions,
      write: true,
    });
    info(`wrote aggregate_json of run ${oneLine(runId)} into ${shortPath(inputs.candidate)}`);
    return [];
  } catch (error) {
    return [`EvalVerdict: write-aggregate: ${messageOf(error)}`];
  }
}

export interface Reports {
  outcome: Outcome;
  /** The comment-ready Markdown (cut to GitHub's limit). */
  comment: string;
  full: string;
  json: string;
  /** The acceptance state line the comment ends with (src/action/acceptanceStep.ts); empty or absent: none. */
  stateLine?: string;
}

/** The reports of the comparison, or the error panel and an error JSON when the run could not be evaluated. */
export function reportsOf(evaluation: Evaluation, ctx: RunContext): Reports {
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

/** The report files (both or neither) and the job summary; returns the failure messages. */
export async function writeReports(
  inputs: ActionInputs,
  env: Env,
  reports: Reports,
  filesWritable: boolean,
): Promise<string[]> {
  const failures: string[] = [];
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
    failures.push(`EvalVerdict: cannot write the report files (${messageOf(error)})`);
  }
  if (!env.GITHUB_STEP_SUMMARY) return failures;
  try {
    await core.summary
      .addRaw(Buffer.byteLength(reports.full) < STEP_SUMMARY_LIMIT ? reports.full : reports.comment)
      .write();
  } catch (error) {
    core.warning(`EvalVerdict: could not write the job summary to GITHUB_STEP_SUMMARY (${codeOf(error)})`);
  }
  return failures;
}
