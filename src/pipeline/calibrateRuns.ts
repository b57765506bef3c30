/**
 * load -> per-query values -> calibrate: `evalverdict calibrate`'s reading of repeated runs of one commit. Each run is
 * scored as compare scores a side (scoreToTable, the same metric table and per-query columns), so the noise it
 * measures is the noise a comparison's paired test sees.
 */
import {
  checkResultsMatchGolden,
  cappedResultsWarning,
  duplicateResultsWarning,
  metricTableFor,
  resultsMatched,
  unknownResultsWarning,
} from '../aggregate/aggregate.js';
import { PerQueryValues } from '../aggregate/perQueryValues.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { scoreToTable } from '../aggregate/table.js';
import { calibrate, MIN_CALIBRATION_RUNS } from '../compare/calibration.js';
import type { Calibration, CalibrateOptions, CalibrationRun } from '../compare/calibration.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { readGoldenFile } from '../load/golden.js';
import { openRunStream } from '../load/runDatabase.js';
import { suggest } from '../suggest.js';
import type { GoldenSet } from '../types.js';
import { notes } from '../warnings.js';
import type { Warning } from '../warnings.js';

/** One run to read: a database and the run in it (null: its newest). */
export interface RunRef {
  path: string;
  runId: string | null;
}

export interface CalibrateInputs extends CalibrateOptions {
  runs: RunRef[];
  goldenPath: string;
  options?: Partial<AggregateOptions>;
}

export async function runCalibrate(
  inputs: CalibrateInputs,
): Promise<{ calibration: Calibration; warnings: Warning[] }> {
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ...inputs.options };
  const golden = readGoldenFile(inputs.goldenPath);
  const runs: CalibrationRun[] = [];
  const empty: Array<{ path: string; runId: string }> = [];
  const warnings: Warning[] = [...golden.warnings];
  for (const ref of inputs.runs) {
    const { run, empty: none, warnings: found } = await readRun(ref, golden, options, inputs.metrics);
    if (none) empty.push({ path: ref.path, runId: run.runId });
    else runs.push(run);
    warnings.push(...found);
  }
  warnings.push(...notes([emptyRunsWarning(empty, runs.length)]));
  const calibration = calibrate(runs, inputs);
  if (calibration.commits.length > 1)
    warnings.push(
      ...notes([
        `the runs record different commits (${calibration.commits.map((c) => (c === null ? 'none' : oneLine(c.slice(0, 12)))).join(', ')}): calibrate measures one commit's noise, so a real change between them is counted as noise`,
      ]),
    );
  return { calibration, warnings };
}

/**
 * Runs without a result are failed runs, not noise (every query would read as a miss there and differ from the
 * other runs): left out, with a warning naming them. Fewer than MIN_CALIBRATION_RUNS runs with results is refused
 * (exit 2), naming the empty ones.
 */
function emptyRunsWarning(empty: ReadonlyArray<{ path: string; runId: string }>, kept: number): string | null {
  if (empty.length === 0) return null;
  const oneFile = empty.every((r) => r.path === empty[0].path);
  const runs = empty.map((r) => `\`${oneLine(r.runId)}\`${oneFile ? '' : ` (${r.path})`}`);
  const named =
    `${oneFile ? `${empty[0].path}: ` : ''}${empty.length === 1 ? 'run' : 'runs'} ${runs.join(', ')} ` +
    `${empty.length === 1 ? 'has' : 'have'} no results in \`eval_query_results\``;
  if (kept < MIN_CALIBRATION_RUNS)
    throw new InputError(
      `${named}: calibrate needs at least ${MIN_CALIBRATION_RUNS} runs of one commit with results to measure its noise, got ${kept}: run the suite again`,
    );
  return `${named}: left out (an empty run is a failed run, not noise); calibrated from the other ${kept} runs`;
}

/** One run scored into per-query columns of the metrics asked for, each checked to be a paired per-query metric. */
async function readRun(
  ref: RunRef,
  golden: GoldenSet,
  options: AggregateOptions,
  metrics: readonly string[],
): Promise<{ run: CalibrationRun; empty: boolean; warnings: Warning[] }> {
  const stream = await openRunStream(ref.path, ref.runId);
  try {
    const table = scoreToTable(stream, golden, options);
    checkResultsMatchGolden(table.run, resultsMatched(table), table.unknownResultIds);
    const defs = metricTableFor(table);
    for (const id of metrics) {
      const def = defs.find((d) => d.id === id);
      if (!def)
        throw new InputError(
          `--metrics: unknown metric \`${oneLine(id)}\`${suggest(
            id,
            defs.map((d) => d.id),
          )} (run \`evalverdict metrics\` for the list)`,
        );
      if (!def.paired || !def.perQuery)
        throw new InputError(
          `--metrics: \`${id}\` has no paired per-query test, so no gate can be calibrated on it (${defs
            .filter((d) => d.paired && d.perQuery)
            .map((d) => d.id)
            .join(', ')})`,
        );
    }
    const values = new PerQueryValues(defs, table.queries.length, table.columns);
    const runId = table.run.run.runId;
    return {
      run: {
        runId,
        commit: table.run.run.commitHash,
        createdAt: table.run.run.createdAt,
        values: new Map(metrics.map((id) => [id, values.column(id)])),
      },
      empty: resultsMatched(table) === 0,
      warnings: notes([
        unknownResultsWarning(ref.path, runId, table.unknownResultIds),
        duplicateResultsWarning(ref.path, runId, table.duplicateResultIds),
        cappedResultsWarning(ref.path, runId, table.cappedResultIds),
      ]),
    };
  } finally {
    stream.release?.();
  }
}
