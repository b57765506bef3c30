/**
 * load -> aggregate: `evalverdict aggregate` (one run, its per-query rows, several side by side) and the action's
 * `write-aggregate`, which stores the aggregate in the run's own `aggregate_json` through src/write.
 */
import {
  aggregateScored,
  aggregateTableOf,
  cappedResultsWarning,
  duplicateResultsWarning,
  ignoredStagesWarning,
  metricTableFor,
  summariseRun,
  unknownResultsWarning,
} from '../aggregate/aggregate.js';
import type { AggregateReport, AggregateTable } from '../aggregate/aggregate.js';
import { kebabAggregateJson } from '../aggregate/kebab.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import { perQueryRows } from '../aggregate/perQuery.js';
import type { PerQueryReport } from '../aggregate/perQuery.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { sideBySide } from '../aggregate/sideBySide.js';
import type { SideBySideReport } from '../aggregate/sideBySide.js';
import { scoreToTable } from '../aggregate/table.js';
import { InputError } from '../errors.js';
import { readGoldenFile } from '../load/golden.js';
import { openRunStream } from '../load/runDatabase.js';
import { checkReplaceable } from '../load/sideFiles.js';
import { stableJson } from '../stableJson.js';
import { noticeOf } from '../types.js';
import type { RowNotice, RunStream } from '../types.js';
import { formatFinding } from '../validate/findings.js';
import { aggregateGoldenView, runFormatFindings } from '../validate/pipelineChecks.js';
import { notes } from '../warnings.js';
import type { Warning } from '../warnings.js';
import { writeAggregateJson } from '../write/writeRunDatabase.js';
import { tracer } from './trace.js';
import type { Trace } from './trace.js';
import { aggregateInTwoThreads, workersAvailable, worthSplitting } from './twoThreads.js';

export interface AggregateInputs {
  runPath: string;
  goldenPath: string;
  runId?: string | null;
  options?: Partial<AggregateOptions>;
  /** Store the aggregate in the run's `eval_runs.aggregate_json` (kebab's keys filled), replacing the file atomically. */
  write?: boolean;
  /** Told each phase as it ends (EVALVERDICT_TRACE=1 in the entries). */
  trace?: Trace;
}

export interface AggregateOutputs {
  report: AggregateReport;
  defs: MetricDef[];
  runId: string;
  /** The golden set's warnings (unknown keys). */
  warnings: Warning[];
  /** Whether a worker thread scored half of the results (see src/pipeline/twoThreads.ts). */
  parallel: boolean;
}

/**
 * load -> aggregate (-> store): `evalverdict aggregate` and the action's `write-aggregate`. From a bundle, a large run
 * with a large JSON Lines golden set is scored by two threads, a golden half each (the same table as one pass).
 */
export async function runAggregate(inputs: AggregateInputs): Promise<AggregateOutputs> {
  const t = tracer(inputs.trace);
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  // Refused before scoring too, not only before writing: scoring a large run only to refuse its --write wastes it.
  if (inputs.write) checkReplaceable(inputs.runPath);
  const inTwo =
    workersAvailable() && worthSplitting(inputs.runPath, inputs.goldenPath)
      ? await aggregateInTwoThreads(
          { runPath: inputs.runPath, runId: inputs.runId ?? null, goldenPath: inputs.goldenPath, options },
          t.mark,
        )
      : null;
  if (inTwo !== null) await t.worker(Promise.resolve(inTwo.phases));
  const { table, warnings, notice } = inTwo ?? (await aggregateInOneThread(inputs, options, t.mark));
  const runId = table.run.run.runId;
  const defs = metricTableFor(table);
  const report = aggregateScored(table, defs);
  t.mark('aggregated');
  const findings = await runFormatFindings(
    [{ file: inputs.runPath, run: runId, noticed: notice }],
    aggregateGoldenView(inputs.goldenPath, report),
  );
  const resultWarnings = notes([
    unknownResultsWarning(inputs.runPath, runId, report.unknown_query_ids),
    duplicateResultsWarning(inputs.runPath, runId, report.duplicate_query_ids),
    cappedResultsWarning(inputs.runPath, runId, report.capped_query_ids ?? []),
    ignoredStagesWarning(inputs.runPath, runId, table.ignoredStageTimings),
    ...findings.map(formatFinding),
  ]);
  if (inputs.write) await storeAggregate(inputs.runPath, runId, report);
  return { report, defs, runId, warnings: [...warnings, ...resultWarnings], parallel: inTwo !== null };
}

async function aggregateInOneThread(
  inputs: AggregateInputs,
  options: AggregateOptions,
  mark: (label: string) => void,
): Promise<{ table: AggregateTable; warnings: Warning[]; notice: RowNotice }> {
  // The run is opened before the golden set is read: the other way round, the golden set's garbage was still in
  // the heap when sql.js took its memory. With both files wrong, the golden file's error is the one reported.
  let whole: RunStream;
  try {
    whole = await openRunStream(inputs.runPath, inputs.runId);
  } catch (error) {
    if (error instanceof InputError) readGoldenFile(inputs.goldenPath); // throws the golden file's error, if it has one
    throw error;
  }
  try {
    const golden = readGoldenFile(inputs.goldenPath);
    mark('golden set read');
    const table = aggregateTableOf(scoreToTable(whole, golden, options));
    mark('run scored into its table');
    return { table, warnings: golden.warnings, notice: whole.notice ?? noticeOf() };
  } finally {
    whole.release?.();
  }
}

/** The aggregate in the run's `eval_runs.aggregate_json` (kebab's keys), the file replaced atomically. */
async function storeAggregate(runPath: string, runId: string, report: AggregateReport): Promise<void> {
  await writeAggregateJson(runPath, runId, stableJson(kebabAggregateJson(report)).trimEnd());
}

export interface PerQueryOutputs {
  report: PerQueryReport;
  /** The golden set's warnings, and those for unknown and duplicate result rows. */
  warnings: Warning[];
}

/** load -> per-query rows of one run (`evalverdict aggregate --per-query`): each golden query's row, in golden order. */
export async function runPerQuery(inputs: Omit<AggregateInputs, 'write'>): Promise<PerQueryOutputs> {
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  let run: RunStream;
  try {
    run = await openRunStream(inputs.runPath, inputs.runId);
  } catch (error) {
    if (error instanceof InputError) readGoldenFile(inputs.goldenPath); // the golden file's error first, as aggregate
    throw error;
  }
  try {
    const golden = readGoldenFile(inputs.goldenPath);
    const { rows, unknownQueryIds, duplicateQueryIds, cappedQueryIds } = perQueryRows(run, golden, options);
    const pending = rows.filter((r) => r.pending).length;
    const runId = run.run.runId;
    return {
      report: {
        run: summariseRun(run),
        golden: { fingerprint: golden.fingerprint, queries: rows.length - pending, pending },
        rows,
        unknown_query_ids: unknownQueryIds,
        duplicate_query_ids: duplicateQueryIds,
        ...(cappedQueryIds.length > 0 ? { capped_query_ids: cappedQueryIds } : {}),
      },
      warnings: [
        ...golden.warnings,
        ...notes([
          unknownResultsWarning(inputs.runPath, runId, unknownQueryIds),
          duplicateResultsWarning(inputs.runPath, runId, duplicateQueryIds),
          cappedResultsWarning(inputs.runPath, runId, cappedQueryIds),
        ]),
      ],
    };
  } finally {
    run.release?.();
  }
}

export interface SideBySideOutputs {
  report: SideBySideReport;
  /** The metric table in the report's order (direction, unit, family). */
  defs: MetricDef[];
  warnings: Warning[];
}

/** Every run of `runIds` aggregated as `aggregate` does, then side by side with the best values marked. */
export async function runAggregateSideBySide(
  inputs: Omit<AggregateInputs, 'write' | 'runId'> & { runIds: string[] },
): Promise<SideBySideOutputs> {
  const outputs: AggregateOutputs[] = [];
  for (const runId of inputs.runIds) outputs.push(await runAggregate({ ...inputs, runId, write: false }));
  const { report, defs } = sideBySide(outputs);
  // each run's reading gives the golden set's warnings again: once each
  const warnings = new Map(outputs.flatMap((o) => o.warnings).map((w) => [JSON.stringify(w), w]));
  return { report, defs, warnings: [...warnings.values()] };
}
