/** Writing run databases: `evalgate init`, `import trec`, `aggregate --write`, fixtures and benchmarks. */
import type { Database } from 'sql.js';
import { InputError, oneLine } from '../errors.js';
import { checkWritable, openRunDatabase, RUN_DATABASE_DDL } from '../load/runDatabase.js';
import { checkReplaceable, isWalMode } from '../load/sideFiles.js';
import { loadSqlJs } from '../load/sqlite.js';
import { writeFileAtomically } from './outputFiles.js';

export interface RunRowInput {
  runId: string;
  suite: string;
  config: Record<string, unknown>;
  aggregateJson?: string;
  commitHash?: string | null;
  createdAt: string;
}

export interface ChunkRowInput {
  chunkId: string;
  docId: string;
  text: string;
  headingPath: string[];
  spans: Array<{ path?: string; start_line: number; end_line: number }>;
  tokenEstimate: number;
  chunkerVersion: string;
}

/** An empty run database with every table, in memory. */
export async function createRunDatabase(): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  // A database EvalGate builds itself may be large; the cap is for databases it reads (openRunDatabase).
  db.exec('PRAGMA hard_heap_limit = 0');
  db.exec(RUN_DATABASE_DDL);
  return db;
}

export function insertRun(
  db: Database,
  run: RunRowInput,
  results: Iterable<{ queryId: string; result: unknown }>,
): void {
  db.exec('BEGIN');
  try {
    db.run(
      'INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [
        run.runId,
        run.suite,
        JSON.stringify(run.config),
        run.aggregateJson ?? '{}',
        run.commitHash ?? null,
        run.createdAt,
      ],
    );
    const stmt = db.prepare('INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)');
    try {
      for (const { queryId, result } of results)
        stmt.run([run.runId, queryId, typeof result === 'string' ? result : JSON.stringify(result)]);
    } finally {
      stmt.free();
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

export function insertChunks(
  db: Database,
  chunks: Iterable<ChunkRowInput>,
  documents: Iterable<{ docId: string; workspacePath: string }> = [],
): void {
  db.exec('BEGIN');
  const docStmt = db.prepare('INSERT OR REPLACE INTO documents (doc_id, workspace_path) VALUES (?, ?)');
  const chunkStmt = db.prepare(
    'INSERT INTO chunks (chunk_id, doc_id, text, heading_path_json, source_spans_json, token_estimate, chunker_version) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  try {
    for (const d of documents) docStmt.run([d.docId, d.workspacePath]);
    for (const c of chunks) {
      chunkStmt.run([
        c.chunkId,
        c.docId,
        c.text,
        JSON.stringify(c.headingPath),
        JSON.stringify(c.spans),
        c.tokenEstimate,
        c.chunkerVersion,
      ]);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  } finally {
    docStmt.free();
    chunkStmt.free();
  }
}

/** Exports and writes through a temporary file and a rename: never half-written. */
export function saveDatabase(db: Database, file: string): void {
  writeFileAtomically(file, db.export());
}

/**
 * `aggregate --write`: `json` as the `aggregate_json` of run `runId` in the run database `file`, the file replaced
 * atomically. The one UPDATE changes one row and nothing else: a table with triggers is refused (checkWritable),
 * and the changes SQLite counts are checked before anything is written. The table's own CHECK constraints and
 * index expressions do run (they cannot hold a query, so they cannot loop), under SQLite's memory cap.
 */
export async function writeAggregateJson(file: string, runId: string, json: string): Promise<void> {
  checkReplaceable(file); // again: a writer may have opened the database while it was scored
  const wal = isWalMode(file);
  const db = await openRunDatabase(file);
  try {
    checkWritable(db, file);
    let changed: number;
    try {
      db.exec('BEGIN');
      db.run('UPDATE eval_runs SET aggregate_json = ? WHERE run_id = ?', [json, runId]);
      changed = Number(db.exec('SELECT total_changes()')[0]?.values[0]?.[0] ?? -1);
      if (changed === 1) db.exec('COMMIT');
      else db.exec('ROLLBACK');
    } catch (error) {
      throw new InputError(
        `${file}: table \`eval_runs\`: SQLite could not write the aggregate: ${oneLine((error as Error).message)}`,
      );
    }
    if (changed !== 1) {
      throw new InputError(
        `${file}: table \`eval_runs\`: writing the aggregate of run \`${oneLine(runId)}\` would change ${changed} ` +
          'rows, not one; nothing was written',
      );
    }
    const bytes = db.export();
    // sql.js writes a rollback-journal database; a WAL-mode one (no log SQLite would read beside it:
    // checkReplaceable refuses that) stays in WAL mode, as the header's read and write versions say.
    if (wal) bytes[18] = bytes[19] = 2;
    writeFileAtomically(file, bytes);
  } finally {
    db.close();
  }
}
