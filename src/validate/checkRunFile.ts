/**
 * A run database's results checked against the documented format: the reading around RunChecker (findings.ts).
 * The file is opened and its run chosen by the reader compare and aggregate use, so a file they refuse is refused
 * here with the same message (exit 2); what they would read without a word becomes a finding.
 */
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { MAX_VALUE_BYTES, openRunDatabase, openRunStream } from '../load/runDatabase.js';
import { RunChecker } from './findings.js';
import type { GoldenView, RunFinding, RunnerMistake } from './findings.js';

/**
 * How much of a run to check: every row (validate), or the first `rows` and on until a usable hit (compare), and
 * every row once one shows a runner mistake (RunnerMistake), so that the report's count is the whole run's.
 */
export interface CheckExtent {
  rows: number;
}

export interface RunCheck {
  /** The run checked (the one named, else the newest, as every command picks it). */
  run: string;
  /** Rows read. */
  rows: number;
  /** Whether rows were left unread (`extent`): the findings are those of the rows read. */
  partial: boolean;
  findings: RunFinding[];
  /** The findings that change what is scored (misspelt keys, hits that can match nothing), each counted over every row. */
  mistakes: RunnerMistake[];
}

/**
 * Checks the result rows of one run of `file` (default: the newest), against `golden` when given: every row, or the
 * first `extent.rows` and then on only until a hit that can match is seen (a runner's mistake repeats in every row;
 * a run with no usable hit is read to its end before compare stops on it), and to the end once a row shows a runner
 * mistake: a clean run costs `extent.rows` rows, and a mistake the report names is counted as validate counts it.
 */
export async function checkRunFile(
  file: string,
  runId: string | null,
  golden: GoldenView | null,
  extent: CheckExtent | null = null,
): Promise<RunCheck> {
  // compare and aggregate (an extent) pass the run they have read, checks and all; validate lets the reader pick
  // and check it, so a file it refuses is refused here in the same words.
  let run = runId;
  if (extent === null || run === null) {
    const stream = await openRunStream(file, runId);
    run = stream.run.runId;
    stream.release?.();
  }
  const checker = new RunChecker(file, run);
  let partial = false;
  const db = await openRunDatabase(file);
  try {
    // The length beside the value: a value past the cap is never fetched, and is named by its size as compare names it.
    const stmt = db.prepare(
      `SELECT query_id, CASE WHEN octet_length(result_json) > ${MAX_VALUE_BYTES} THEN NULL ELSE result_json END, ` +
        'octet_length(result_json) FROM eval_query_results WHERE run_id = ? ORDER BY query_id',
    );
    try {
      stmt.bind([run]);
      while (stmt.step()) {
        if (
          extent !== null &&
          checker.rowCount >= extent.rows &&
          checker.hasUsableHit(golden) &&
          !checker.hasRunnerMistake()
        ) {
          partial = true;
          break;
        }
        const [queryId, resultJson, bytes] = stmt.get();
        if (typeof bytes === 'number' && bytes > MAX_VALUE_BYTES)
          checker.addOversizedRow(String(queryId), tooLarge(bytes));
        else checker.addRow(String(queryId), resultJson);
      }
    } finally {
      stmt.free();
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      `${file}: table \`eval_query_results\`: SQLite could not read it: ${oneLine((error as Error).message)}`,
    );
  } finally {
    db.close();
  }
  const findings = checker.finish(golden, !partial);
  return { run, rows: checker.rowCount, partial, findings, mistakes: checker.runnerMistakes() };
}

/**
 * What compare and aggregate say of a `result_json` past MAX_VALUE_BYTES (src/load/runDatabase.ts, forEachRow), in
 * their words ("column `result_json` holds 65 MiB, more than the 64 MiB EvalVerdict reads in one value").
 */
function tooLarge(bytes: number): string {
  const mib = (n: number) => `${Math.round(n / (1 << 20))} MiB`;
  return `column \`result_json\` holds ${mib(bytes)}, more than the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`;
}
