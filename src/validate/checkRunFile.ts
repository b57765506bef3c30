/**
 * A run database's results checked against the documented format: the reading around RunChecker (findings.ts).
 * The file is opened and its run chosen by the reader compare and aggregate use, so a file they refuse is refused
 * here with the same message (exit 2); what they would read without a word becomes a finding.
 */
import { InputError, oneLine } from '../errors.js';
import { MAX_VALUE_BYTES, openRunDatabase, openRunStream } from '../load/runDatabase.js';
import { RunChecker } from './findings.js';
import type { GoldenView, RunFinding } from './findings.js';

/** How much of a run to check: every row (validate), or the first `rows` and on until a usable hit (compare). */
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
}

/**
 * Checks the result rows of one run of `file` (default: the newest), against `golden` when given: every row, or the
 * first `extent.rows` and then on only until a hit that can match is seen (a runner's mistake repeats in every row;
 * a run with no usable hit is read to its end before compare stops on it).
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
    const stmt = db.prepare(
      `SELECT query_id, CASE WHEN octet_length(result_json) > ${MAX_VALUE_BYTES} THEN NULL ELSE result_json END ` +
        'FROM eval_query_results WHERE run_id = ? ORDER BY query_id',
    );
    try {
      stmt.bind([run]);
      while (stmt.step()) {
        if (extent !== null && checker.rowCount >= extent.rows && checker.hasUsableHit(golden)) {
          partial = true;
          break;
        }
        const [queryId, resultJson] = stmt.get();
        checker.addRow(String(queryId), resultJson);
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
  return { run, rows: checker.rowCount, partial, findings: checker.finish(golden, !partial) };
}
