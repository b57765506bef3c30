/** Writing run databases: `evalgate init`, `import trec`, `aggregate --write`, fixtures and benchmarks. */
import type { Database } from 'sql.js';
import { writeFileAtomically } from './outputFiles.js';
import { RUN_DATABASE_DDL } from '../load/runDatabase.js';
import { loadSqlJs } from '../load/sqlite.js';

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
