export declare const HISTORY_SCHEMA_VERSION = 1;
/** Runs kept when the file does not say (`max_runs`). */
export declare const DEFAULT_HISTORY_RUNS = 20;
/** The most runs a history may keep: the change-point test enumerates C(n, 3) splits, 19,600 at 50. */
export declare const MAX_HISTORY_RUNS = 50;
/** One query's outcome in one run: `h` a relevant hit was retrieved, `m` none was, `-` not known for that run. */
export type QueryMark = 'h' | 'm' | '-';
export interface HistoryRun {
    run_id: string;
    commit: string | null;
    /** The run's `created_at`. */
    time: string;
    /** The golden set's fingerprint: outcomes and values compare only within one golden set. */
    golden: string;
    /** The whole-set gated metrics' values (null: no value in that run). */
    metrics: Record<string, number | null>;
    /** One QueryMark per entry of the history's `queries`, in the same order. */
    outcomes: string;
}
export interface History {
    schema_version: typeof HISTORY_SCHEMA_VERSION;
    max_runs: number;
    /** The query ids the outcomes are of: the newest run's golden queries. */
    queries: string[];
    /** Oldest first. */
    runs: HistoryRun[];
}
/** The most bytes of a history file: 50 runs of 100,000 queries' outcomes and ids fit in about 8 MiB. */
export declare const MAX_HISTORY_BYTES: number;
declare const MAX_QUERIES = 1000000;
declare const MAX_METRICS = 200;
declare const MAX_TEXT = 1000;
/** A history from its text; `where` (the file, or the artifact entry) starts every message. */
export declare function parseHistory(bytes: Buffer | string, where: string): History;
/** The history file at `path`, read as a regular file of at most MAX_HISTORY_BYTES, then parseHistory. */
export declare function readHistoryFile(path: string): History;
/**
 * The limits schemas/history.schema.json states (`maxItems`, `maxProperties`, `maxLength`): the schema takes its
 * numbers from these (test/schemaAgreement.test.ts). A text's length is JavaScript's, in UTF-16 code units.
 */
export { MAX_METRICS as MAX_HISTORY_METRICS, MAX_QUERIES as MAX_HISTORY_QUERIES, MAX_TEXT as MAX_HISTORY_TEXT };
