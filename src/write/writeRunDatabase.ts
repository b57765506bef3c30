/** Writing run databases: `evalverdict init`, `import trec`, `aggregate --write`, fixtures and benchmarks. */
import type { Database } from 'sql.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
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
  // A database EvalVerdict builds itself may be large; the cap is for databases it reads (openRunDatabase).
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
 * atomically. The one UPDATE changes one value and runs none of the database's SQL: a table with triggers
 * (checkWritable), CHECK constraints, generated columns, or indexes on expressions or with a WHERE is refused
 * (checkNoCodeRunsOnUpdate; a CHECK can take minutes over one large value: bench/README.md, "What was kept"), and
 * the changes SQLite counts and the table's row count are checked before anything is written.
 */
export async function writeAggregateJson(file: string, runId: string, json: string): Promise<void> {
  checkReplaceable(file); // again: a writer may have opened the database while it was scored
  const wal = isWalMode(file);
  const db = await openRunDatabase(file);
  try {
    checkWritable(db, file);
    checkNoCodeRunsOnUpdate(db, file);
    let changed: number;
    try {
      // Foreign keys off: an ON UPDATE action would change other tables (sql.js's default; said, not assumed).
      db.exec('PRAGMA foreign_keys = OFF');
      db.exec('BEGIN');
      const rowsBefore = countRuns(db);
      db.run('UPDATE eval_runs SET aggregate_json = ? WHERE run_id = ?', [json, runId]);
      changed = Number(db.exec('SELECT total_changes()')[0]?.values[0]?.[0] ?? -1);
      // A REPLACE conflict clause deletes the rows it clashes with, which total_changes does not count.
      if (changed === 1 && countRuns(db) !== rowsBefore) changed = -1;
      if (changed === 1) db.exec('COMMIT');
      else db.exec('ROLLBACK');
    } catch (error) {
      throw new InputError(
        `${file}: table \`eval_runs\`: SQLite could not write the aggregate: ${oneLine((error as Error).message)}`,
      );
    }
    if (changed !== 1) {
      throw new InputError(
        `${file}: table \`eval_runs\`: writing the aggregate of run \`${oneLine(cut(runId))}\` would change ` +
          `${changed === -1 ? 'other rows too' : `${changed} rows`}, not one; nothing was written`,
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

function countRuns(db: Database): number {
  return Number(db.exec('SELECT count(*) FROM eval_runs')[0]?.values[0]?.[0] ?? -1);
}

/** `text` cut to 200 characters with an ellipsis and its full length, for a message. */
function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${Buffer.byteLength(text)} bytes)` : text;
}

/** A table's CREATE statement without its string literals, quoted names and comments: only keywords are left. */
const LITERALS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;

/**
 * Refuses what SQLite would evaluate besides the row itself when `eval_runs` is updated: a CHECK constraint (found
 * as a keyword of the table's SQL: a false match only refuses more), a generated column (table_xinfo's hidden 2 or
 * 3), an index on an expression (index_xinfo's cid -2) or a partial index (index_list's partial). Plain indexes and
 * constraints compare stored values with SQLite's built-in collations (an unknown one fails opening the table).
 * Cost: the schema's size, never a row's.
 */
function checkNoCodeRunsOnUpdate(db: Database, file: string): void {
  const refuse = (what: string) => {
    throw new InputError(
      `${file}: table \`eval_runs\` has ${what}, which SQLite would evaluate on the write; --write refuses to run SQL ` +
        'stored in a run database: recreate the table without it (evalverdict init writes the plain schema), or leave ' +
        'out --write',
    );
  };
  const rows = db.exec("SELECT sql FROM sqlite_schema WHERE type = 'table' AND lower(name) = 'eval_runs'");
  const sql = String(rows[0]?.values[0]?.[0] ?? '').replace(LITERALS, ' ');
  if (/\bCHECK\b/i.test(sql)) refuse('a CHECK constraint');
  for (const column of db.exec("PRAGMA table_xinfo('eval_runs')")[0]?.values ?? []) {
    if (Number(column[6]) === 2 || Number(column[6]) === 3)
      refuse(`a generated column (\`${oneLine(cut(String(column[1])))}\`)`);
  }
  for (const index of db.exec("PRAGMA index_list('eval_runs')")[0]?.values ?? []) {
    const name = String(index[1]);
    if (Number(index[4]) === 1) refuse(`a partial index (\`${oneLine(cut(name))}\`, with a WHERE)`);
    const parts = db.exec(`PRAGMA index_xinfo("${name.replace(/"/g, '""')}")`)[0]?.values ?? [];
    if (parts.some((p) => Number(p[1]) === -2)) refuse(`an index on an expression (\`${oneLine(cut(name))}\`)`);
  }
}
