/** One row's `result_json` read into a QueryResult, every field checked: the run database may come from anyone. */
import type { SqlValue } from 'sql.js';
import type { QueryResult, RowNotice } from '../types.js';
/**
 * One row's `result_json` as a QueryResult: through the fast reader (src/load/resultJson.ts) when the text has the
 * common shape, else through JSON.parse and parseQueryResult, which name the file, table, run, query and field of
 * any error.
 */
/** The most bytes of a run's id, suite, commit and time, and of a query id: longer ones are refused (docs/cli.md). */
export declare const MAX_ID_BYTES = 1024;
/**
 * One result row as a QueryResult (an InputError naming file, run, query and field), noting in `notice` its keys the
 * result schema does not know and whether a hit can match nothing: a look at every row, for the check of the first.
 */
export declare function readResultRow(file: string, runId: string, queryId: string, resultJson: SqlValue, notice?: RowNotice | null): QueryResult;
/** Turns one `result_json` into a QueryResult, or throws an InputError naming `where` and the field. */
export declare function parseQueryResult(value: unknown, queryId: string, where: string): QueryResult;
