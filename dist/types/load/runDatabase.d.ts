import type { Database } from 'sql.js';
import type { RunData, RunStream } from '../types.js';
/** The DDL `evalverdict init` writes: kebab's eval tables plus the two optional index tables. */
export declare const RUN_DATABASE_DDL = "\nCREATE TABLE IF NOT EXISTS eval_runs (\n  run_id TEXT PRIMARY KEY,\n  suite TEXT NOT NULL,\n  config_snapshot_json TEXT NOT NULL,\n  aggregate_json TEXT NOT NULL,\n  commit_hash TEXT,\n  created_at TEXT NOT NULL\n);\nCREATE TABLE IF NOT EXISTS eval_query_results (\n  run_id TEXT NOT NULL REFERENCES eval_runs(run_id),\n  query_id TEXT NOT NULL,\n  result_json TEXT NOT NULL,\n  PRIMARY KEY (run_id, query_id)\n);\nCREATE TABLE IF NOT EXISTS documents (\n  doc_id TEXT PRIMARY KEY,\n  workspace_path TEXT NOT NULL\n);\nCREATE TABLE IF NOT EXISTS chunks (\n  chunk_id TEXT PRIMARY KEY,\n  doc_id TEXT NOT NULL,\n  text TEXT NOT NULL,\n  heading_path_json TEXT NOT NULL,\n  source_spans_json TEXT NOT NULL,\n  token_estimate INTEGER NOT NULL,\n  chunker_version TEXT NOT NULL\n);\n";
/** Opens a run database from disk, refusing anything that is not a readable SQLite file. */
export declare function openRunDatabase(file: string): Promise<Database>;
/** The most bytes one value may hold: a longer one is refused by its length, before SQLite reads it. */
export declare const MAX_VALUE_BYTES: number;
/** SQLite's own memory while a run database is read or written (page cache, a row, an expression's result). */
export declare const SQLITE_HEAP_LIMIT: number;
/**
 * Before `aggregate --write` changes `eval_runs`: the table is checked as for reading, and no trigger may fire on
 * it (its SQL would run with the write: delete rows, insert gigabytes), so the write changes one row and nothing else.
 */
export declare function checkWritable(db: Database, file: string): void;
/** Reads one run (default: the newest) with every result parsed into memory, and the optional index tables. */
export declare function readRunDatabase(file: string, runId?: string | null): Promise<RunData>;
/**
 * Opens one run for streaming: the schema, the run row and the index tables are read and checked now; the result
 * rows are parsed one at a time by `forEachResult`, each handed over and then dropped. `release` closes the
 * database and a later `forEachResult` opens the file again, so compare holds one run database in memory at a time.
 */
export declare function openRunStream(file: string, runId?: string | null, range?: QueryIdRange): Promise<RunStream>;
/**
 * Every run of a database in the order they were written (rowid; by run_id for a table without one) with its suite:
 * what a run option naming several runs (`all`, `all:SUITE`, `a,b,c`) chooses from. The file is read first as
 * openRunStream reads it (its newest run), so a wrong file fails with the reader's message.
 */
export declare function listRunsIn(file: string): Promise<Array<{
    id: string;
    suite: string;
}>>;
/**
 * openRunStream in two steps: now, the checks that need no database, so a wrong path fails at once; later,
 * synchronously, the opening itself. compare opens the candidate only once the baseline is scored and released.
 */
export declare function deferRunStream(file: string, runId?: string | null, range?: QueryIdRange): Promise<() => RunStream>;
/** Chunk texts longer than this (in bytes) are read when asked for, not kept (see readChunks). */
export declare const KEPT_TEXT_BYTES: number;
/** A part of a run by query_id, in SQLite's order of TEXT: ids >= from, > after, < to, <= through. */
export interface QueryIdRange {
    from?: string;
    after?: string;
    to?: string;
    through?: string;
}
/** a - b in SQLite's order of TEXT (BINARY: UTF-8 bytes), which UTF-16 order matches for ASCII. */
export declare function compareUtf8(a: string, b: string): number;
export declare function inRange(id: string, range: QueryIdRange | undefined): boolean;
