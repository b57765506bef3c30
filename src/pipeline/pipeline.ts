/**
 * load -> aggregate -> compare -> gate -> render: the one code path behind `evalgate compare` and the action.
 * Reads the files it is given; writes nothing and publishes nothing (the entries do that).
 */
import { readFileSync, statSync } from 'node:fs';
import { compareExactlyScored, compareRuns, declaredVersionsDiffer, prepareBaseline } from './compare/compare.js';
import type { CompareOptions } from './compare/compare.js';
import type { CompareReport } from './compare/types.js';
import { InputError } from './errors.js';
import { parseGateConfig, defaultGateConfig } from './gate/config.js';
import type { GateConfig } from './gate/config.js';
import { readGoldenFile } from './load/golden.js';
import { checkReplaceable, deferRunStream, isWalMode, openRunDatabase, openRunStream, writeFileAtomically } from './load/runDatabase.js';
import { aggregateInTwoThreads, readGoldenShared, scoreRunInWorker, workerMode, workersAvailable } from './load/scoreWorker.js';
import type { WorkerPhase } from './load/scoreWorker.js';
import { aggregateScored, aggregateTableOf, duplicateResultsWarning, metricTableFor, unknownResultsWarning } from './aggregate/aggregate.js';
import type { AggregateReport, AggregateTable } from './aggregate/aggregate.js';
import { kebabAggregateJson } from './aggregate/kebab.js';
import type { MetricDef } from './aggregate/metrics.js';
import { DEFAULT_OPTIONS } from './aggregate/score.js';
import type { AggregateOptions } from './aggregate/score.js';
import { scoreToTable } from './aggregate/table.js';
import type { GoldenSet, RunStream } from './types.js';
import { stableJson } from './render/json.js';
import { renderReportMarkdowns, GITHUB_COMMENT_LIMIT } from './render/markdown.js';
import type { FullReportHint } from './render/markdown.js';

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
  fullReportHint?: FullReportHint;
  /** Told each phase as it ends, with the seconds since the start (EVALGATE_TRACE=1 in the entries). */
  trace?: Trace;
}

/** A phase's label, the seconds since the command started, and the process's minor page faults by then. */
export type Trace = (label: string, seconds: number, faults: number) => void;

/** Marks phases for `trace`, and the worker's phases, placed on the same clock. */
function tracer(trace: Trace | undefined): { mark: (label: string) => void; worker: (phases: Promise<WorkerPhase[]>) => Promise<void> } {
  const start = performance.timeOrigin + performance.now();
  const now = () => (performance.timeOrigin + performance.now() - start) / 1000;
  return {
    mark: (label) => trace?.(label, now(), process.resourceUsage().minorPageFault),
    worker: async (phases) => {
      if (!trace) return;
      for (const [label, epochMs, faults] of await phases) trace(`worker: ${label}`, (epochMs - start) / 1000, faults);
    },
  };
}

export interface CompareOutputs {
  report: CompareReport;
  /** The comment-ready report, always under GitHub's comment limit. */
  markdown: string;
  /** The untruncated report. */
  markdownFull: string;
  json: string;
  warnings: string[];
  /** Whether the candidate was scored in a worker thread beside the baseline (see src/load/scoreWorker.ts). */
  parallel: boolean;
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
  const t = tracer(inputs.trace);
  const config = loadGateConfig(inputs.configPath, inputs.configText);
  const options: Partial<CompareOptions> = { ...inputs.options, strictChunkerVersion: inputs.strictChunkerVersion ?? false };
  let read: GoldenSet | null = null;
  const golden = (shared?: GoldenSet) => (read ??= shared ?? readGoldenFile(inputs.goldenPath));
  const inParallel = workersAvailable() ? await compareInParallel(inputs, golden, config, options, t) : null;
  const { report, defs } = inParallel ?? await compareInSequence(inputs, golden(), config, options);
  t.mark('compared');
  const { full: markdownFull, cut: markdown } = renderReportMarkdowns(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: inputs.fullReportHint });
  const json = stableJson(report);
  t.mark('reports rendered');
  const warnings = [
    ...golden().warnings,
    unknownResultsWarning(inputs.baselinePath, report.baseline.run_id, report.golden.unknown_query_ids.baseline),
    unknownResultsWarning(inputs.candidatePath, report.candidate.run_id, report.golden.unknown_query_ids.candidate),
    duplicateResultsWarning(inputs.baselinePath, report.baseline.run_id, report.golden.duplicate_query_ids.baseline),
    duplicateResultsWarning(inputs.candidatePath, report.candidate.run_id, report.golden.duplicate_query_ids.candidate),
  ].filter((w): w is string => w !== null);
  return { report, markdown, markdownFull, json, warnings, parallel: inParallel !== null };
}

/**
 * One run database in memory at a time: the baseline is scored and released before the candidate is opened (its
 * path and header are checked first, so a wrong path fails before any scoring).
 */
async function compareInSequence(inputs: CompareInputs, golden: GoldenSet, config: GateConfig, options: Partial<CompareOptions>): Promise<ReturnType<typeof compareRuns>> {
  const baseline = await openRunStream(inputs.baselinePath, inputs.baselineRun);
  const openCandidate = await deferRunStream(inputs.candidatePath, inputs.candidateRun);
  let candidate: RunStream | null = null;
  try {
    return compareRuns(baseline, () => (candidate = openCandidate()), golden, config, options);
  } finally {
    baseline.release?.();
    (candidate as RunStream | null)?.release?.();
  }
}

/**
 * Two cores: the two threads read the golden set in halves and exchange them, then a worker thread scores the
 * candidate while this thread scores the baseline. Null when the chunker versions differ (declared or seen in the
 * hits): that case needs both runs' chunks and is scored in sequence.
 */
async function compareInParallel(inputs: CompareInputs, golden: (shared?: GoldenSet) => GoldenSet, config: GateConfig, options: Partial<CompareOptions>, t: ReturnType<typeof tracer>): Promise<ReturnType<typeof compareRuns> | null> {
  const strict = options.strictChunkerVersion ?? false;
  const scoring = { ...DEFAULT_OPTIONS, ...inputs.options, chunkMatch: 'exact' as const };
  const { referenceChunks: _unused, ...workerOptions } = scoring;
  // The worker starts first (it has the most to do: start-up, its half of the golden set, the candidate); the run
  // tables are checked here after this thread's half, and a mismatch of declared chunker versions stops it.
  let candidateMeta: RunStream | null = null;
  t.mark('worker started');
  const candidate = scoreRunInWorker(
    { runPath: inputs.candidatePath, runId: inputs.candidateRun ?? null, goldenPath: inputs.goldenPath, options: workerOptions },
    () => candidateMeta!,
    () => golden(),
  );
  const workerTrace = t.worker(candidate.phases);
  // This thread reads the first half of the golden file now, while the worker reads the second.
  const goldenShared = readGoldenShared(inputs.goldenPath, 0, candidate.exchange);
  goldenShared.catch(() => undefined); // awaited below, unless the runs cannot be compared in parallel
  t.mark('golden set: this half read');
  let baseline: RunStream | null = null;
  try {
    baseline = await openRunStream(inputs.baselinePath, inputs.baselineRun);
    candidateMeta = await openRunStream(inputs.candidatePath, inputs.candidateRun);
    candidateMeta.release?.();
    t.mark('run tables read');
    if (declaredVersionsDiffer(baseline, candidateMeta, strict)) {
      candidate.cancel();
      return null;
    }
    const shared = await goldenShared;
    const goldenSet = golden(shared.golden);
    t.mark(shared.halves ? 'golden set read in halves (the first here)' : 'golden set read whole');
    const bs = scoreToTable(baseline, goldenSet, { ...scoring, referenceChunks: null });
    baseline.release?.();
    t.mark('baseline scored into its table');
    // While the worker finishes: the baseline's side of the comparison (reused when the candidate has the same stages).
    prepareBaseline(bs, scoring);
    t.mark('baseline measured');
    const cs = await candidate.table;
    t.mark('candidate table received');
    await workerTrace;
    return compareExactlyScored(bs, cs, config, options);
  } catch (error) {
    candidate.cancel();
    throw error;
  } finally {
    baseline?.release?.();
  }
}

export interface AggregateInputs {
  runPath: string;
  goldenPath: string;
  runId?: string | null;
  options?: Partial<AggregateOptions>;
  /** Store the aggregate in the run's `eval_runs.aggregate_json` (kebab's keys filled), replacing the file atomically. */
  write?: boolean;
  /** Told each phase as it ends (EVALGATE_TRACE=1 in the entries). */
  trace?: Trace;
}

export interface AggregateOutputs {
  report: AggregateReport;
  defs: MetricDef[];
  runId: string;
  /** The golden set's warnings (unknown keys). */
  warnings: string[];
  /** Whether a worker thread scored half of the results (see src/load/scoreWorker.ts). */
  parallel: boolean;
}

/**
 * When a second thread pays off for aggregate. The two threads split the per-query work (each reads half of the
 * golden set and scores its queries); the per-hit work (reading and parsing result_json) gains less on these
 * machines, where two threads slow each other down (each also compiles the code again), and the second heap costs
 * memory. Measured (bench/README.md; alternating runs, 2026-11-23): 100,000 x 10 (34 MB golden file) one thread
 * 3.9-4.4 s / 320-340 MB, two 3.1-3.6 s / 455 MB; 20,000 x 100 (6.8 MB golden file, 752 MB run) one thread
 * 2.3-3.1 s / 163-171 MB, two 2.0-2.4 s / 214-226 MB, faster but over trec_eval's 180 MB, which the issue asks
 * this size to stay under; 10,000 x 10 and 1,000 x 100 faster in one thread (fourth session). So: a golden file
 * of 16 MB or more (about 50,000 queries) and a run database of 64 MB or more.
 */
const SPLIT_MIN_GOLDEN_BYTES = 16 << 20;
const SPLIT_MIN_RUN_BYTES = 64 << 20;

function worthSplitting(runPath: string, goldenPath: string): boolean {
  if (workerMode() === 'always') return true;
  try {
    return statSync(goldenPath).size >= SPLIT_MIN_GOLDEN_BYTES && statSync(runPath).size >= SPLIT_MIN_RUN_BYTES;
  } catch {
    return false; // the readers below name the missing file
  }
}

/**
 * load -> aggregate (-> store): `evalgate aggregate` and the action's `write-aggregate`. From a bundle, and when the
 * run is much bigger than the golden set, the results are scored in two halves by query_id, the upper half in a
 * worker thread, and merged (the same records as one pass).
 */
export async function runAggregate(inputs: AggregateInputs): Promise<AggregateOutputs> {
  const t = tracer(inputs.trace);
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  let scored: AggregateTable;
  let warnings: string[];
  let parallel = false;
  // Refused before scoring too, not only before writing: scoring a large run only to refuse its --write wastes it.
  if (inputs.write) checkReplaceable(inputs.runPath);
  if (workersAvailable() && worthSplitting(inputs.runPath, inputs.goldenPath)) {
    t.mark('worker started');
    ({ table: scored, warnings } = await aggregateInTwoThreads({ runPath: inputs.runPath, runId: inputs.runId ?? null, goldenPath: inputs.goldenPath, options }, t.mark, t.worker));
    parallel = true;
  } else {
    // The run is opened before the golden set is read: the other way round, the golden set's garbage was still in
    // the heap when sql.js took its memory (peak RSS +6 MB at 20,000 x 100, +18 MB on its TREC twin). With both
    // files wrong, the golden file's error is still the one reported, as in two threads.
    let whole: RunStream;
    try {
      whole = await openRunStream(inputs.runPath, inputs.runId);
    } catch (error) {
      if (error instanceof InputError) readGoldenFile(inputs.goldenPath); // throws the golden file's error, if it has one
      throw error;
    }
    try {
      const golden = readGoldenFile(inputs.goldenPath);
      t.mark('golden set read');
      scored = aggregateTableOf(scoreToTable(whole, golden, options));
      warnings = golden.warnings;
      t.mark('run scored into its table');
    } finally {
      whole.release?.();
    }
  }
  const runId = scored.run.run.runId;
  const defs = metricTableFor(scored);
  const report = aggregateScored(scored, defs);
  t.mark('aggregated');
  const unknown = unknownResultsWarning(inputs.runPath, runId, report.unknown_query_ids);
  if (unknown !== null) warnings = [...warnings, unknown];
  const duplicates = duplicateResultsWarning(inputs.runPath, runId, report.duplicate_query_ids);
  if (duplicates !== null) warnings = [...warnings, duplicates];
  if (inputs.write) {
    checkReplaceable(inputs.runPath); // again: a writer may have opened the database while it was scored
    const wal = isWalMode(inputs.runPath);
    const db = await openRunDatabase(inputs.runPath);
    try {
      db.exec('BEGIN');
      db.run('UPDATE eval_runs SET aggregate_json = ? WHERE run_id = ?', [stableJson(kebabAggregateJson(report)).trimEnd(), runId]);
      db.exec('COMMIT');
      const bytes = db.export();
      // sql.js writes a rollback-journal database; a WAL-mode one (no log SQLite would read beside it:
      // checkReplaceable refuses that) stays in WAL mode, as the header's read and write versions say.
      if (wal) bytes[18] = bytes[19] = 2;
      writeFileAtomically(inputs.runPath, bytes);
    } finally {
      db.close();
    }
  }
  return { report, defs, runId, warnings, parallel };
}
