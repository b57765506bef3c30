/**
 * load -> aggregate -> compare -> gate -> render: the one code path behind `evalgate compare` and the action.
 * Reads the files it is given; writes nothing and publishes nothing (the entries do that).
 */
import { readFileSync } from 'node:fs';
import { compareRuns } from './compare/compare.js';
import type { CompareOptions } from './compare/compare.js';
import type { CompareReport } from './compare/types.js';
import { InputError } from './errors.js';
import { parseGateConfig, defaultGateConfig } from './gate/config.js';
import type { GateConfig } from './gate/config.js';
import { readGoldenFile } from './load/golden.js';
import { deferRunStream, openRunDatabase, openRunStream, runStreamFromDb, writeFileAtomically } from './load/runDatabase.js';
import { aggregateScored, metricTableFor } from './aggregate/aggregate.js';
import type { AggregateReport } from './aggregate/aggregate.js';
import { kebabAggregateJson } from './aggregate/kebab.js';
import type { MetricDef } from './aggregate/metrics.js';
import { DEFAULT_OPTIONS, scoreRun } from './aggregate/score.js';
import type { AggregateOptions } from './aggregate/score.js';
import type { GoldenSet, RunStream } from './types.js';
import { stableJson } from './render/json.js';
import { renderReportMarkdown, GITHUB_COMMENT_LIMIT } from './render/markdown.js';

export interface CompareInputs {
  baselinePath: string;
  candidatePath: string;
  goldenPath: string;
  baselineRun?: string | null;
  candidateRun?: string | null;
  /** A gate config file; when absent and `configText` is absent too, the built-in default applies. */
  configPath?: string | null;
  /** Inline gate config YAML (the action's `gates` input). */
  configText?: string | null;
  strictChunkerVersion?: boolean;
  options?: Partial<CompareOptions>;
  /** Where the untruncated report can be found, named in the comment when it has to be cut. */
  fullReportHint?: string;
}

export interface CompareOutputs {
  report: CompareReport;
  /** The comment-ready report, always under GitHub's comment limit. */
  markdown: string;
  /** The untruncated report. */
  markdownFull: string;
  json: string;
  warnings: string[];
}

export function loadGateConfig(configPath: string | null | undefined, configText: string | null | undefined): GateConfig {
  if (configText && configText.trim() !== '') return parseGateConfig(configText, 'gates input');
  if (!configPath) return defaultGateConfig();
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`${configPath}: cannot read the gate config (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
  }
  return parseGateConfig(text, configPath);
}

export async function runCompare(inputs: CompareInputs): Promise<CompareOutputs> {
  const config = loadGateConfig(inputs.configPath, inputs.configText);
  const golden = readGoldenFile(inputs.goldenPath);
  // One run database in memory at a time: the baseline is scored and released before the candidate is opened
  // (its path and header are checked now, so a wrong path fails before any scoring).
  const baseline = await openRunStream(inputs.baselinePath, inputs.baselineRun);
  const openCandidate = await deferRunStream(inputs.candidatePath, inputs.candidateRun);
  let candidate: RunStream | null = null;
  let compared: ReturnType<typeof compareRuns>;
  try {
    compared = compareRuns(baseline, () => (candidate = openCandidate()), golden, config, {
      ...inputs.options,
      strictChunkerVersion: inputs.strictChunkerVersion ?? false,
    });
  } finally {
    baseline.release?.();
    (candidate as RunStream | null)?.release?.();
  }
  const { report, defs } = compared;
  const markdownFull = renderReportMarkdown(report, defs, { maxLength: Infinity });
  const markdown = renderReportMarkdown(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: inputs.fullReportHint });
  return { report, markdown, markdownFull, json: stableJson(report), warnings: golden.warnings };
}

export interface AggregateInputs {
  runPath: string;
  golden: GoldenSet;
  runId?: string | null;
  options?: Partial<AggregateOptions>;
  /** Store the aggregate in the run's `eval_runs.aggregate_json` (kebab's keys filled), replacing the file atomically. */
  write?: boolean;
}

/** load -> aggregate (-> store): `evalgate aggregate` and the action's `write-aggregate`. */
export async function runAggregate(inputs: AggregateInputs): Promise<{ report: AggregateReport; defs: MetricDef[]; runId: string }> {
  const db = await openRunDatabase(inputs.runPath);
  try {
    const run = runStreamFromDb(db, inputs.runPath, inputs.runId);
    const scored = scoreRun(run, inputs.golden, { ...DEFAULT_OPTIONS, ...inputs.options });
    const defs = metricTableFor(scored);
    const report = aggregateScored(scored, defs);
    if (inputs.write) {
      db.exec('BEGIN');
      db.run('UPDATE eval_runs SET aggregate_json = ? WHERE run_id = ?', [stableJson(kebabAggregateJson(report)).trimEnd(), run.run.runId]);
      db.exec('COMMIT');
      writeFileAtomically(inputs.runPath, db.export());
    }
    return { report, defs, runId: run.run.runId };
  } finally {
    db.close();
  }
}
