import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { mapPacked } from '../arrays.js';
import { InputError } from '../errors.js';
import type {
  Answer, AnswerCitation, ChunkRecord, DocumentRecord, FolderMode, Hit, JudgeScores, LineCitation,
  QueryResult, RunData, RunInfo, RunStream,
} from '../types.js';
import { FieldError, isObject, optBoolean, optNumber, optString, optStringArray, describe } from './json.js';
import type { JsonObject } from './json.js';
import { FileBackedBytes, loadSqlJs } from './sqlite.js';
import { scanResultJson } from './resultJson.js';
import { inRange } from '../aggregate/score.js';
import type { QueryIdRange } from '../aggregate/score.js';

// Output files are written by ./outputFiles.ts (PATH: cannot write (reason) as an InputError); re-exported here,
// where its callers (src/pipeline.ts's `--write`, scripts) have always found it.
export { writeFileAtomically } from './outputFiles.js';

/** The tables and columns we read; extra columns are allowed (kebab has more). */
export const REQUIRED_COLUMNS: Record<string, string[]> = {
  eval_runs: ['run_id', 'suite', 'config_snapshot_json', 'aggregate_json', 'commit_hash', 'created_at'],
  eval_query_results: ['run_id', 'query_id', 'result_json'],
};
const OPTIONAL_COLUMNS: Record<string, string[]> = {
  chunks: ['chunk_id', 'doc_id', 'text', 'heading_path_json', 'source_spans_json', 'token_estimate', 'chunker_version'],
  documents: ['doc_id', 'workspace_path'],
};

/** The DDL `evalgate init` writes: kebab's eval tables plus the two optional index tables. */
export const RUN_DATABASE_DDL = `
CREATE TABLE IF NOT EXISTS eval_runs (
  run_id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  config_snapshot_json TEXT NOT NULL,
  aggregate_json TEXT NOT NULL,
  commit_hash TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS eval_query_results (
  run_id TEXT NOT NULL REFERENCES eval_runs(run_id),
  query_id TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, query_id)
);
CREATE TABLE IF NOT EXISTS documents (
  doc_id TEXT PRIMARY KEY,
  workspace_path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  chunk_id TEXT PRIMARY KEY,
  doc_id TEXT NOT NULL,
  text TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  source_spans_json TEXT NOT NULL,
  token_estimate INTEGER NOT NULL,
  chunker_version TEXT NOT NULL
);
`;

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Opens a run database from disk, refusing anything that is not a readable SQLite file. */
export async function openRunDatabase(file: string): Promise<Database> {
  return openRunDatabaseWith(await loadSqlJs(), file);
}

function cannotRead(file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  return new InputError(`${file}: cannot read the run database (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
}

function checkHeader(file: string, head: Uint8Array, size: number): void {
  if (size === 0) throw new InputError(`${file}: the run database is empty (0 bytes), not a SQLite file`);
  if (size < 100 || Buffer.from(head.buffer, head.byteOffset, 16).toString('latin1') !== SQLITE_HEADER) {
    throw new InputError(`${file}: not a SQLite database (the file does not start with the SQLite header)`);
  }
}

/** The first `n` bytes of `file` (fewer when it is shorter), or null when there is no such file. */
function headOf(file: string, n: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const head = Buffer.alloc(n);
    return head.subarray(0, readSync(fd, head, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/**
 * Refuses a database whose newest state is not in its file alone: sql.js reads the file, not the files SQLite keeps
 * beside it. A write-ahead log (`-wal`) whose first frame belongs to its current header (its salts) may hold
 * committed changes not yet copied into the file, unless each of its committed pages is in the file already
 * (walAlreadyInFile); a hot rollback journal (`-journal` starting with the journal's
 * magic) means a write was interrupted, or is under way, and the file may be half-written. Read as it is, either
 * gives stale or torn data, and `--write` would leave a file that does not match the log beside it.
 */
function checkSideFiles(file: string): void {
  const real = sideFilesBase(file);
  if (hasCurrentWalFrames(real) && !walAlreadyInFile(real, `${real}-wal`)) {
    throw new InputError(`${file}: its write-ahead log ${real}-wal may hold changes that are not in the database file yet (a program has it open, or was not closed); close the program or checkpoint the log first: sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`);
  }
  const journal = headOf(`${real}-journal`, JOURNAL_MAGIC.length);
  if (journal !== null && journal.equals(JOURNAL_MAGIC)) {
    throw new InputError(`${file}: its rollback journal ${real}-journal is hot (a write was interrupted, or is under way), so the file may be half-written; let the writing program finish, or open the database once with sqlite3 to roll the write back`);
  }
}

/**
 * Whether every change a write-ahead log holds is in the database file already, read as SQLite reads a log: its
 * frames from the start while each carries the header's salts and continues the checksum, up to the last commit
 * frame; then each page's last committed version must equal the file's page, and the committed size the file's.
 * True for a log that was checkpointed and kept (a writer still has it open, or a persistent log), which the salts
 * of its first frame alone cannot tell from one that holds new changes. False on anything else, a log SQLite would
 * ignore included (a bad header checksum): then the caller refuses, as it did before it looked inside.
 */
export function walAlreadyInFile(dbFile: string, walFile: string): boolean {
  let wal: number | null = null;
  let db: number | null = null;
  try {
    wal = openSync(walFile, 'r');
    db = openSync(dbFile, 'r');
    const header = Buffer.alloc(32);
    if (readSync(wal, header, 0, 32, 0) !== 32) return false;
    const pageSize = header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return false;
    // The low bit of the magic number: the checksums read the data as big-endian words (1) or little-endian (0).
    const bigEndian = (header.readUInt32BE(0) & 1) === 1;
    let sum = walChecksum(header, 0, 24, 0, 0, bigEndian);
    if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return false;
    const frame = Buffer.alloc(24 + pageSize);
    const latest = new Map<number, number>(); // page number -> offset of its last frame, up to the last commit
    const pending = new Map<number, number>(); // ... of frames after the last commit so far
    let committedPages = -1;
    for (let at = 32; readSync(wal, frame, 0, frame.length, at) === frame.length; at += frame.length) {
      if (frame.readUInt32BE(8) !== header.readUInt32BE(16) || frame.readUInt32BE(12) !== header.readUInt32BE(20)) break;
      const page = frame.readUInt32BE(0);
      if (page === 0) break;
      sum = walChecksum(frame, 0, 8, sum[0], sum[1], bigEndian);
      sum = walChecksum(frame, 24, frame.length, sum[0], sum[1], bigEndian);
      if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) break;
      pending.set(page, at);
      const pagesAfterCommit = frame.readUInt32BE(4);
      if (pagesAfterCommit !== 0) {
        for (const [p, offset] of pending) latest.set(p, offset);
        pending.clear();
        committedPages = pagesAfterCommit;
      }
    }
    if (committedPages === -1) return true; // no committed frame: nothing of the log is current
    if (fstatSync(db).size !== committedPages * pageSize) return false;
    const inFile = Buffer.alloc(pageSize);
    for (const [page, offset] of latest) {
      if (page > committedPages) continue; // cut off by the commit's size
      if (readSync(wal, frame, 0, frame.length, offset) !== frame.length) return false;
      if (readSync(db, inFile, 0, pageSize, (page - 1) * pageSize) !== pageSize) return false;
      if (!inFile.equals(frame.subarray(24))) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (wal !== null) closeSync(wal);
    if (db !== null) closeSync(db);
  }
}

/** SQLite's log checksum of `data[from, to)` (a multiple of 8 bytes) continuing from (s1, s2). */
function walChecksum(data: Buffer, from: number, to: number, s1: number, s2: number, bigEndian: boolean): [number, number] {
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s1 = (s1 + x0 + s2) >>> 0;
    s2 = (s2 + x1 + s1) >>> 0;
  }
  return [s1, s2];
}

/** Where SQLite keeps a database's side files: beside the file a symbolic link points at. */
function sideFilesBase(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file; // the file itself was opened already: a path realpath cannot follow is looked for as given
  }
}

/** Whether `FILE-wal` exists and its first frame belongs to its current header (its salts): SQLite reads such a log. */
function hasCurrentWalFrames(real: string): boolean {
  const wal = headOf(`${real}-wal`, 32 + 24);
  return wal !== null && wal.length === 32 + 24 && (wal.readUInt32BE(0) & 0xfffffffe) === 0x377f0682
    && wal.readUInt32BE(32 + 8) === wal.readUInt32BE(16) && wal.readUInt32BE(32 + 12) === wal.readUInt32BE(20);
}

/**
 * Refuses to replace a database file (`--write`) that has a log whose first frame carries its header's salts (one
 * SQLite may read; its checksums are not checked here, erring on the side of refusing), even one whose pages are all
 * in the file already: the new file would sit beside the old log, and SQLite would lay the log's pages over it on the
 * next open (the new aggregate_json lost, or the file torn).
 */
export function checkReplaceable(file: string): void {
  const real = sideFilesBase(file);
  let walFrames: boolean;
  try {
    checkSideFiles(file); // a log with changes the file lacks, or a hot journal: the message reading gives
    walFrames = hasCurrentWalFrames(real);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${file}: cannot write into it: its write-ahead log ${real}-wal cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (walFrames) {
    throw new InputError(`${file}: cannot write into it while its write-ahead log ${real}-wal holds frames (SQLite would lay them over the new file); close the program that has it open, or checkpoint and empty the log first: sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`);
  }
}

/** Whether the database file is in WAL mode (its header's read and write versions are 2). */
export function isWalMode(file: string): boolean {
  const head = headOf(file, 20);
  return head !== null && head.length === 20 && head[18] === 2 && head[19] === 2;
}

/** The file opened for sql.js, after the checks that need only its first 100 bytes (readable, SQLite header). */
function openChecked(file: string): FileBackedBytes {
  let bytes: FileBackedBytes | null = null;
  try {
    bytes = new FileBackedBytes(file);
    checkHeader(file, bytes.head(100), bytes.length);
    checkSideFiles(file);
    return bytes;
  } catch (error) {
    bytes?.close();
    if (error instanceof InputError) throw error;
    throw cannotRead(file, error);
  }
}

/** openRunDatabase's checks that need no database: a wrong path fails before anything is scored. */
function checkSqliteHeader(file: string): void {
  openChecked(file).close();
}

function openRunDatabaseWith(SQL: SqlJsStatic, file: string): Database {
  const bytes = openChecked(file);
  // The file stays on disk: sql.js reads its pages through `bytes` (see FileBackedBytes), and closing the
  // database closes the file.
  const db = new SQL.Database(bytes as unknown as Uint8Array);
  const closeDb = db.close.bind(db);
  db.close = () => {
    closeDb();
    bytes.close();
  };
  try {
    // Touch the schema and check integrity cheaply: a truncated file fails here.
    db.exec('SELECT count(*) FROM sqlite_master');
    const pageCount = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
    const pageSize = Number(db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
    if (pageCount * pageSize > bytes.length) {
      throw new Error(`database disk image is truncated (${bytes.length} bytes, header says ${pageCount * pageSize})`);
    }
  } catch (error) {
    db.close();
    throw new InputError(`${file}: unreadable SQLite database (${(error as Error).message})`);
  }
  return db;
}

/**
 * SQLite's own complaints about the file, met while a statement runs (a corrupt page a table's rows lie on, a file
 * that is not a database, an I/O error), known by sql.js's message since it gives no result code; and a failed read
 * of the file itself (src/load/sqlite.ts FileBackedBytes reads pages on demand). Anything else a statement throws
 * is our bug and keeps its stack.
 */
const SQLITE_FILE_ERROR = /malformed|not a database|disk I\/O error|unable to open database file|unsupported file format|string or blob too big|no such collation sequence|shrank while it was read/i;

function isFileError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return SQLITE_FILE_ERROR.test(error.message) || (typeof code === 'string' && syscall === 'read');
}

/** `error`, met reading `table` of `file`: the user's InputError when it is about the file, else as it is. */
function readError(file: string, table: string, error: unknown): unknown {
  if (error instanceof InputError || !isFileError(error)) return error;
  return new InputError(`${file}: table \`${table}\`: unreadable SQLite database (${error.message})`);
}

/** `read` (statements over `table`), with SQLite's errors about the file as the user's (see readError). */
function reading<T>(file: string, table: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw readError(file, table, error);
  }
}

/** The statement's next row, null after the last; a corrupt page met on the way is the user's (see readError). */
function nextRow(stmt: Statement, file: string, table: string): SqlValue[] | null {
  try {
    return stmt.step() ? stmt.get() : null;
  } catch (error) {
    throw readError(file, table, error);
  }
}

function columnsOf(db: Database, file: string, table: string): Set<string> | null {
  const rows = reading(file, table, () => db.exec(`PRAGMA table_info(${JSON.stringify(table)})`));
  if (rows.length === 0) return null;
  return new Set(rows[0].values.map((r) => String(r[1])));
}

function checkSchema(db: Database, file: string): { hasChunks: boolean; hasDocuments: boolean } {
  for (const [table, cols] of Object.entries(REQUIRED_COLUMNS)) {
    const present = columnsOf(db, file, table);
    if (!present) throw new InputError(`${file}: missing table \`${table}\` (a run database needs eval_runs and eval_query_results; see docs/run-database.md)`);
    for (const col of cols) {
      if (!present.has(col)) throw new InputError(`${file}: table \`${table}\` has no column \`${col}\``);
    }
  }
  const optional = (table: string) => {
    const present = columnsOf(db, file, table);
    if (!present) return false;
    for (const col of OPTIONAL_COLUMNS[table]) {
      if (!present.has(col)) throw new InputError(`${file}: table \`${table}\` has no column \`${col}\``);
    }
    return true;
  };
  return { hasChunks: optional('chunks'), hasDocuments: optional('documents') };
}

function parseJsonCell(text: SqlValue, where: string): unknown {
  if (typeof text !== 'string') throw new InputError(`${where}: expected JSON text, got ${text === null ? 'NULL' : typeof text}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: malformed JSON (${(error as Error).message})`);
  }
}

export interface RunRow {
  runId: string;
  suite: string;
  createdAt: string;
  commitHash: string | null;
  /** The JSON columns as stored (checked by runInfoFrom for the run that is read). */
  configJson: SqlValue;
  aggregateJson: SqlValue;
}

export function listRuns(db: Database, file: string): RunRow[] {
  checkSchema(db, file);
  const out: RunRow[] = [];
  const stmt = reading(file, 'eval_runs', () => db.prepare('SELECT run_id, suite, created_at, commit_hash, config_snapshot_json, aggregate_json FROM eval_runs'));
  try {
    for (let row = nextRow(stmt, file, 'eval_runs'); row !== null; row = nextRow(stmt, file, 'eval_runs')) {
      const [runId, suite, createdAt, commitHash, configJson, aggregateJson] = row;
      out.push({
        runId: String(runId), suite: String(suite ?? ''), createdAt: String(createdAt ?? ''),
        commitHash: commitHash === null ? null : String(commitHash),
        configJson, aggregateJson,
      });
    }
  } finally {
    stmt.free();
  }
  return out;
}

/** What runTime reads, for messages. */
export const RUN_TIME_FORM = 'such as 2026-11-22T10:00:00Z; without a zone, UTC';

const RUN_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * A run's `created_at` as milliseconds since the epoch (fractions kept below a millisecond), or null when it is not
 * an RFC 3339 time. Also read: a space for the `T` and a time without a zone, both as SQLite's CURRENT_TIMESTAMP
 * writes them, the zone-less time read as UTC (never as the machine's local time, which would make the newest run
 * depend on where EvalGate runs); an offset without its colon (`+0100`, as Python's `%z` writes it); seconds or the
 * whole time left out (00 for them; a zone needs a time).
 */
export function runTime(text: string): number | null {
  const m = RUN_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => (part === undefined ? undefined : Number(part)));
  if (month! < 1 || month! > 12 || day! < 1 || hour > 23 || minute > 59 || second > 60) return null;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute, Math.min(second, 59)); // a leap second reads as :59
  if (date.getUTCDate() !== day) return null; // 2026-02-30
  const utc = date.getTime();
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return utc - offsetMinutes * 60_000 + (m[7] === undefined ? 0 : Number(`0${m[7]}`) * 1000);
}

/** Newest `created_at` wins; equal instants fall back to run_id so the choice is deterministic. */
export function pickRun(rows: RunRow[], file: string, runId?: string | null): RunRow {
  if (rows.length === 0) throw new InputError(`${file}: table \`eval_runs\` has no runs`);
  if (runId !== undefined && runId !== null) {
    // An empty id names no run (`--run ""`, an unset variable): an error, not the newest run in silence.
    const row = rows.find((r) => r.runId === runId);
    if (!row) throw new InputError(`${file}: no run \`${runId}\` in \`eval_runs\` (runs: ${rows.map((r) => r.runId).slice(0, 10).join(', ')})`);
    return row;
  }
  let best: RunRow | null = null;
  let bestTime = -Infinity;
  for (const row of rows) {
    const t = runTime(row.createdAt);
    if (t === null) throw new InputError(`${file}: table \`eval_runs\`, run \`${row.runId}\`: created_at ${describe(row.createdAt)} is not an RFC 3339 time (${RUN_TIME_FORM})`);
    if (t > bestTime || (t === bestTime && best !== null && row.runId > best.runId)) {
      best = row;
      bestTime = t;
    }
  }
  return best!;
}

function runInfoFrom(row: RunRow, file: string): RunInfo {
  const config = parseJsonCell(row.configJson, `${file}: table \`eval_runs\`, run \`${row.runId}\`, column \`config_snapshot_json\``);
  // Not used (compare and aggregate compute everything afresh; `--write` replaces it), but a JSON column like the
  // others: malformed JSON there is refused too (docs/run-database.md).
  parseJsonCell(row.aggregateJson, `${file}: table \`eval_runs\`, run \`${row.runId}\`, column \`aggregate_json\``);
  if (!isObject(config)) throw new InputError(`${file}: table \`eval_runs\`, run \`${row.runId}\`, column \`config_snapshot_json\`: must be a JSON object`);
  const str = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : config[key] == null ? null : String(config[key]));
  return {
    runId: row.runId,
    suite: row.suite,
    commitHash: row.commitHash,
    createdAt: row.createdAt,
    config,
    chunkerVersion: str('chunker_version'),
    embeddingModel: str('embedding_model'),
    indexVersion: str('index_version'),
    judgeModel: str('judge_model'),
    judgePromptVersion: str('judge_prompt_version'),
  };
}

/** Reads one run (default: the newest) with its results and the optional index tables. */
export async function readRunDatabase(file: string, runId?: string | null): Promise<RunData> {
  const db = await openRunDatabase(file);
  try {
    return readRunFromDb(db, file, runId);
  } finally {
    db.close();
  }
}

/** One run of an open database with every result parsed into memory (see openRunStream for the streaming reader). */
export function readRunFromDb(db: Database, file: string, runId?: string | null): RunData {
  const stream = runStreamFromDb(db, file, runId);
  const results: QueryResult[] = [];
  stream.forEachResult((r) => results.push(r));
  return { source: stream.source, run: stream.run, chunks: stream.chunks, documents: stream.documents, results };
}

/**
 * Opens one run for streaming: the schema, the run row and the index tables are read and checked now; the result
 * rows are parsed one at a time by `forEachResult`, each handed over and then dropped. `release` closes the
 * database and a later `forEachResult` opens the file again, so compare holds one run database in memory at a time.
 */
export async function openRunStream(file: string, runId?: string | null, range: QueryIdRange = {}): Promise<RunStream> {
  return (await deferRunStream(file, runId, range))();
}

export type { QueryIdRange } from '../aggregate/score.js';

/** The query_id that splits a run's results into halves (the first of the upper half); null below two results. */
export async function medianQueryId(file: string, runId: string): Promise<string | null> {
  const db = await openRunDatabase(file);
  try {
    const count = Number(reading(file, 'eval_query_results', () => db.exec('SELECT count(*) FROM eval_query_results WHERE run_id = ?', [runId]))[0]?.values[0]?.[0] ?? 0);
    if (count < 2) return null;
    const row = reading(file, 'eval_query_results', () => db.exec('SELECT query_id FROM eval_query_results WHERE run_id = ? ORDER BY query_id LIMIT 1 OFFSET ?', [runId, Math.floor(count / 2)]));
    return String(row[0].values[0][0]);
  } finally {
    db.close();
  }
}

/**
 * openRunStream in two steps: now, the checks that need no database (the file is readable and starts with the
 * SQLite header), so a wrong path fails at once; later, synchronously, the opening itself. compare opens the
 * candidate only once the baseline is scored and released.
 */
export async function deferRunStream(file: string, runId?: string | null, range: QueryIdRange = {}): Promise<() => RunStream> {
  const SQL = await loadSqlJs();
  checkSqliteHeader(file);
  return () => {
    let db: Database | null = openRunDatabaseWith(SQL, file);
    let meta: RunStream;
    try {
      meta = runStreamFromDb(db, file, runId);
    } catch (error) {
      db.close();
      throw error;
    }
    const chosen = meta.run.runId;
    return {
      source: meta.source,
      run: meta.run,
      chunks: meta.chunks,
      documents: meta.documents,
      forEachResult(each) {
        db ??= openRunDatabaseWith(SQL, file);
        forEachResultRow(db, file, chosen, each, range);
      },
      release() {
        db?.close();
        db = null;
      },
    };
  };
}

/** The schema checks, the run row, the orphan check and the index tables of `runId` (default: newest). */
export function runStreamFromDb(db: Database, file: string, runId?: string | null): RunStream {
  const { hasChunks, hasDocuments } = checkSchema(db, file);
  const row = pickRun(listRuns(db, file), file, runId);
  const run = runInfoFrom(row, file);

  const orphan = reading(file, 'eval_query_results', () => db.exec(
    'SELECT run_id, MIN(query_id), COUNT(*) FROM eval_query_results WHERE run_id NOT IN (SELECT run_id FROM eval_runs) GROUP BY run_id ORDER BY run_id LIMIT 6',
  ));
  if (orphan.length > 0 && orphan[0].values.length > 0) {
    const [orphanRun, firstQuery, count] = orphan[0].values[0];
    const others = orphan[0].values.slice(1).map((v) => `\`${String(v[0])}\``);
    throw new InputError(`${file}: table \`eval_query_results\`, run \`${String(orphanRun)}\`, query \`${String(firstQuery)}\`: `
      + `the run has no row in \`eval_runs\` (${Number(count)} result(s) for it${others.length > 0 ? `; other such runs: ${others.join(', ')}` : ''})`);
  }

  // `evalgate init` and `import trec` create the index tables empty: an empty table means "no index", else every
  // citation would count as broken and every snippet as hallucinated against a table that was never filled.
  const chunks = hasChunks ? readChunks(db, file) : null;
  const documents = hasDocuments ? readDocuments(db, file) : null;
  return {
    source: file,
    run,
    chunks: chunks && chunks.size > 0 ? chunks : null,
    documents: documents && documents.size > 0 ? documents : null,
    forEachResult: (each) => forEachResultRow(db, file, run.runId, each),
  };
}

const RANGE_OPERATORS: ReadonlyArray<[keyof QueryIdRange, string]> = [['from', '>='], ['after', '>'], ['to', '<'], ['through', '<=']];

/**
 * The result rows of `runId` in `range`, read from the file without the checks and index tables openRunStream reads
 * (for a part of a run that a stream of the same file has opened and checked); `close` when done.
 */
export async function openResultRange(file: string, runId: string, range: QueryIdRange): Promise<{ forEachResult(each: (result: QueryResult) => void): void; close(): void }> {
  const db = await openRunDatabase(file);
  return { forEachResult: (each) => forEachResultRow(db, file, runId, each, range), close: () => db.close() };
}

/** Steps the run's result rows in query_id order (the primary key's order: no sort), parsing each once. */
function forEachResultRow(db: Database, file: string, runId: string, each: (result: QueryResult) => void, range: QueryIdRange = {}): void {
  const table = 'eval_query_results';
  let where = '';
  const bounds: string[] = [];
  // A range's bounds are text (golden ids), and SQLite sorts every number below every text: in a run whose query_id
  // holds numbers (a column declared without TEXT affinity), two threads' ranges would put all of them in the first.
  // Such a run is read whole and its rows kept by the text EvalGate matches ids by (String(query_id): SQLite's own
  // text of a REAL differs from it), the range compared as SQLite compares text. Otherwise the index seeks the range.
  const hasRange = RANGE_OPERATORS.some(([key]) => range[key] !== undefined);
  const filter = hasRange && reading(file, table, () => hasNonTextQueryIds(db, runId));
  for (const [key, op] of filter ? [] : RANGE_OPERATORS) {
    const bound = range[key];
    if (bound === undefined) continue;
    where += ` AND query_id ${op} ?`;
    bounds.push(bound);
  }
  const stmt = reading(file, table, () => db.prepare(`SELECT query_id, result_json FROM eval_query_results WHERE run_id = ?${where} ORDER BY query_id`));
  try {
    stmt.bind([runId, ...bounds]);
    for (let row = nextRow(stmt, file, table); row !== null; row = nextRow(stmt, file, table)) {
      const [queryId, resultJson] = row;
      if (filter && !inRange(String(queryId), range)) continue;
      each(readResultRow(file, runId, String(queryId), resultJson));
    }
  } finally {
    stmt.free();
  }
}

/**
 * Whether any query_id of the run is stored as a number or a BLOB, by two seeks of the primary key's index: numbers
 * sort below the empty text, BLOBs above every text (NULL is neither).
 */
function hasNonTextQueryIds(db: Database, runId: string): boolean {
  const found = db.exec(
    "SELECT EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id < '') OR EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id >= x'')",
    [runId, runId],
  );
  return Number(found[0]?.values[0]?.[0] ?? 0) === 1;
}

function readChunks(db: Database, file: string): Map<string, ChunkRecord> {
  const chunks = new Map<string, ChunkRecord>();
  const stmt = reading(file, 'chunks', () => db.prepare('SELECT chunk_id, doc_id, text, heading_path_json, source_spans_json, token_estimate, chunker_version FROM chunks'));
  try {
    for (let row = nextRow(stmt, file, 'chunks'); row !== null; row = nextRow(stmt, file, 'chunks')) {
      const [chunkId, docId, text, headingJson, spansJson, tokens, chunkerVersion] = row;
      const where = `${file}: table \`chunks\`, chunk \`${String(chunkId)}\``;
      const heading = parseJsonCell(headingJson, `${where}, column \`heading_path_json\``);
      const spansRaw = parseJsonCell(spansJson, `${where}, column \`source_spans_json\``);
      // A count of tokens (chunk_tokens_* metrics): text such as 'many' is refused, not read as NaN.
      if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) {
        const got = tokens === null ? 'NULL' : tokens instanceof Uint8Array ? 'a BLOB' : describe(tokens);
        throw new InputError(`${where}, column \`token_estimate\`: must be a number >= 0, got ${got}`);
      }
      chunks.set(String(chunkId), {
        chunkId: String(chunkId),
        docId: String(docId),
        text: String(text ?? ''),
        headingPath: Array.isArray(heading) ? mapPacked(heading, String) : [],
        spans: parseSpans(spansRaw),
        tokenEstimate: tokens,
        chunkerVersion: String(chunkerVersion ?? ''),
      });
    }
  } finally {
    stmt.free();
  }
  return chunks;
}

/** Spans come as `[{start_line, end_line}]`, `[{start, end, path?}]` or `[[start, end]]`; unknown shapes give no span. */
function parseSpans(raw: unknown): ChunkRecord['spans'] {
  if (!Array.isArray(raw)) return [];
  const spans: ChunkRecord['spans'] = [];
  for (const s of raw) {
    if (Array.isArray(s) && typeof s[0] === 'number' && typeof s[1] === 'number') spans.push({ path: null, start: s[0], end: s[1] });
    else if (isObject(s)) {
      const start = typeof s.start_line === 'number' ? s.start_line : s.start;
      const end = typeof s.end_line === 'number' ? s.end_line : s.end;
      if (typeof start === 'number' && typeof end === 'number') {
        spans.push({ path: typeof s.path === 'string' ? s.path : null, start, end });
      }
    }
  }
  return spans;
}

function readDocuments(db: Database, file: string): Map<string, DocumentRecord> {
  const documents = new Map<string, DocumentRecord>();
  const stmt = reading(file, 'documents', () => db.prepare('SELECT doc_id, workspace_path FROM documents'));
  try {
    for (let row = nextRow(stmt, file, 'documents'); row !== null; row = nextRow(stmt, file, 'documents')) {
      const [docId, path] = row;
      documents.set(String(docId), { docId: String(docId), workspacePath: String(path ?? '') });
    }
  } finally {
    stmt.free();
  }
  return documents;
}

/**
 * One row's `result_json` as a QueryResult: through the fast reader (src/load/resultJson.ts) when the text has the
 * common shape, else through JSON.parse and parseQueryResult, which name the file, table, run, query and field of
 * any error.
 */
export function readResultRow(file: string, runId: string, queryId: string, resultJson: SqlValue): QueryResult {
  if (typeof resultJson === 'string') {
    const scanned = scanResultJson(resultJson);
    if (scanned !== null) {
      try {
        return parseQueryResultUnchecked(scanned.fields, queryId, scanned.hits);
      } catch {
        // The slow path below gives the message.
      }
    }
  }
  const where = `${file}: table \`eval_query_results\`, run \`${runId}\`, query \`${queryId}\``;
  return parseQueryResult(parseJsonCell(resultJson, `${where}, column \`result_json\``), queryId, where);
}

/** Turns one `result_json` into a QueryResult, or throws an InputError naming `where` and the field. */
export function parseQueryResult(value: unknown, queryId: string, where: string): QueryResult {
  try {
    return parseQueryResultUnchecked(value, queryId);
  } catch (error) {
    if (error instanceof FieldError) throw new InputError(`${where}: ${error.message}`);
    throw error;
  }
}

/** `parsedHits`: the hits already read and checked by the fast reader (then `value` has no hits_top_k). */
function parseQueryResultUnchecked(value: unknown, queryId: string, parsedHits?: Hit[]): QueryResult {
  if (!isObject(value)) throw new FieldError('result_json', `\`result_json\` must be a JSON object, got ${describe(value)}`);
  const hits = parsedHits ?? parseHits(value);

  const status = optString(value, 'status');
  const error = optString(value, 'error');
  if (status !== null && status !== 'ok' && status !== 'error' && status !== 'timeout') {
    throw new FieldError('status', `\`status\` must be "ok", "error" or "timeout", got ${describe(status)}`);
  }
  const scope = value.scope;
  let folderMode: FolderMode | null = null;
  let selectedFolders: string[] = [];
  if (isObject(scope)) {
    const mode = optString(scope, 'folder_mode', 'scope.folder_mode');
    if (mode !== null && mode !== 'off' && mode !== 'on' && mode !== 'on_with_fallback') {
      throw new FieldError('scope.folder_mode', `\`scope.folder_mode\` must be "off", "on" or "on_with_fallback", got ${describe(mode)}`);
    }
    folderMode = mode as FolderMode | null;
    selectedFolders = optStringArray(scope, 'selected_folders', 'scope.selected_folders') ?? [];
  }
  const timingsMs: Record<string, number> = Object.create(null) as Record<string, number>; // stage names are the input's
  if (isObject(value.timings_ms)) {
    for (const key of Object.keys(value.timings_ms)) {
      const ms = measure(value.timings_ms, key, `timings_ms.${key}`);
      if (ms !== null) timingsMs[key] = ms;
    }
  } else if (value.timings_ms !== undefined && value.timings_ms !== null) {
    throw new FieldError('timings_ms', `\`timings_ms\` must be an object of stage: milliseconds, got ${describe(value.timings_ms)}`);
  }
  return {
    queryId,
    query: optString(value, 'query') ?? '',
    mode: optString(value, 'mode'),
    hits,
    answer: parseAnswer(value.answer),
    elapsedMs: measure(value, 'elapsed_ms', 'elapsed_ms'),
    error,
    status: (status as QueryResult['status'] | null) ?? (error !== null ? 'error' : 'ok'),
    abstained: optBoolean(value, 'abstained'),
    timingsMs,
    costUsd: measure(value, 'cost_usd', 'cost_usd'),
    folderMode,
    selectedFolders,
    judge: parseJudge(value.judge),
  };
}

function parseHits(value: JsonObject): Hit[] {
  const rawHits = value.hits_top_k ?? [];
  if (!Array.isArray(rawHits)) throw new FieldError('hits_top_k', `\`hits_top_k\` must be a list, got ${describe(rawHits)}`);
  const hits: Hit[] = new Array(rawHits.length);
  const seenRanks = new Set<number>();
  let sorted = true;
  for (let i = 0; i < rawHits.length; i++) {
    const h = rawHits[i];
    // Paths for messages are built only on the error path: this loop runs once per hit (millions of times).
    if (!isObject(h)) throw new FieldError(`hits_top_k[${i}]`, `\`hits_top_k[${i}]\` must be an object, got ${describe(h)}`);
    const rank = h.rank;
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || seenRanks.has(rank)) throw rankError(rank, i);
    seenRanks.add(rank);
    if (i > 0 && rank < hits[i - 1].rank) sorted = false;
    const score = h.score;
    hits[i] = {
      rank,
      chunkId: hitString(h, 'chunk_id', i),
      docId: hitString(h, 'doc_id', i),
      docPath: hitString(h, 'doc_path', i),
      headingPath: hitHeading(h, i),
      snippet: hitString(h, 'snippet', i),
      score: typeof score === 'number' && Number.isFinite(score) ? score : optNumber(h, 'score', `hits_top_k[${i}].score`),
      citation: h.citation === undefined || h.citation === null ? null : parseLineCitation(h.citation, `hits_top_k[${i}].citation`),
      chunkerVersion: hitString(h, 'chunker_version', i),
    };
  }
  if (!sorted) hits.sort((a, b) => a.rank - b.rank);
  return hits;
}

function rankError(rank: unknown, i: number): FieldError {
  const path = `hits_top_k[${i}].rank`;
  if (rank === undefined || rank === null) return new FieldError(path, `\`${path}\` is missing`);
  if (typeof rank !== 'number' || !Number.isInteger(rank)) return new FieldError(path, `\`${path}\` must be an integer, got ${describe(rank)}`);
  if (rank < 1) return new FieldError(path, `\`${path}\` must be >= 1, got ${rank}`);
  return new FieldError(path, `\`${path}\` repeats rank ${rank} within the query`);
}

/** A string field of a hit: the common cases inline, the rest (numbers, wrong types) through optString. */
function hitString(h: JsonObject, key: string, i: number): string | null {
  const v = h[key];
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return null;
  return optString(h, key, `hits_top_k[${i}].${key}`);
}

function hitHeading(h: JsonObject, i: number): string[] {
  const v = h.heading_path;
  if (v === undefined || v === null) return [];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return optStringArray(h, 'heading_path', `hits_top_k[${i}].heading_path`) ?? [];
}

function parseLineCitation(c: unknown, path: string): LineCitation | null {
  if (c === undefined || c === null) return null;
  if (!isObject(c)) throw new FieldError(path, `\`${path}\` must be an object, got ${describe(c)}`);
  const file = optString(c, 'path', `${path}.path`);
  const start = optNumber(c, 'start', `${path}.start`);
  const end = optNumber(c, 'end', `${path}.end`);
  if (file === null || start === null) return null;
  return { kind: 'line', path: file, start, end: end ?? start };
}

/** A citation without its inner `citation` object reads as one with no fields. */
const NO_CITATION: JsonObject = Object.freeze({});

// optString and optNumber of citation `i`'s field, its path for a message built only when there is one to give:
// a run's answers carry citations by the hundred thousand, each with five fields.
function citationString(obj: JsonObject, key: string, i: number, field: string): string | null {
  const v = obj[key];
  return v === undefined || v === null ? null : typeof v === 'string' ? v : optString(obj, key, `answer.citations[${i}]${field}`);
}

function citationNumber(obj: JsonObject, key: string, i: number, field: string): number | null {
  const v = obj[key];
  return v === undefined || v === null ? null : typeof v === 'number' && Number.isFinite(v) ? v : optNumber(obj, key, `answer.citations[${i}]${field}`);
}

function parseAnswer(a: unknown): Answer | null {
  if (a === undefined || a === null) return null;
  if (!isObject(a)) throw new FieldError('answer', `\`answer\` must be an object or null, got ${describe(a)}`);
  const rawCitations = a.citations ?? [];
  if (!Array.isArray(rawCitations)) throw new FieldError('answer.citations', '`answer.citations` must be a list');
  const citations: AnswerCitation[] = mapPacked(rawCitations, (c, i) => {
    if (!isObject(c)) throw new FieldError(`answer.citations[${i}]`, `\`answer.citations[${i}]\` must be an object, got ${describe(c)}`);
    const inner: JsonObject = isObject(c.citation) ? c.citation : NO_CITATION;
    return {
      marker: citationString(c, 'marker', i, '.marker'),
      chunkId: citationString(c, 'chunk_id', i, '.chunk_id') ?? citationString(inner, 'chunk_id', i, '.citation.chunk_id'),
      path: citationString(inner, 'path', i, '.citation.path'),
      start: citationNumber(inner, 'start', i, '.citation.start'),
      end: citationNumber(inner, 'end', i, '.citation.end'),
    };
  });
  const usage = isObject(a.usage) ? a.usage : {};
  const grounded = optBoolean(a, 'grounded', 'answer.grounded');
  return {
    text: optString(a, 'answer', 'answer.answer') ?? '',
    citations,
    // Refusal is `grounded: false` (or `abstained`); an answer that does not say is an answer, not a refusal.
    grounded: grounded ?? true,
    refusalReason: optString(a, 'refusal_reason', 'answer.refusal_reason'),
    promptTokens: measure(usage, 'prompt_tokens', 'answer.usage.prompt_tokens'),
    completionTokens: measure(usage, 'completion_tokens', 'answer.usage.completion_tokens'),
    latencyMs: measure(usage, 'latency_ms', 'answer.usage.latency_ms'),
  };
}

function parseJudge(j: unknown): JudgeScores | null {
  if (j === undefined || j === null) return null;
  if (!isObject(j)) throw new FieldError('judge', `\`judge\` must be an object, got ${describe(j)}`);
  const spot = isObject(j.spot_check) ? j.spot_check : {};
  const claims = j.unsupported_claims;
  return {
    groundedness: judgeScore(j, 'groundedness', 'judge.groundedness'),
    correctness: judgeScore(j, 'correctness', 'judge.correctness'),
    unsupportedClaims: Array.isArray(claims) ? claims.length : null,
    spotCheckGroundedness: judgeScore(spot, 'groundedness', 'judge.spot_check.groundedness'),
    spotCheckCorrectness: judgeScore(spot, 'correctness', 'judge.spot_check.correctness'),
  };
}

/**
 * A time, a cost or a count of tokens: a number >= 0. A negative one (a clock that went backwards, a sign slip)
 * would pull the means and totals down without a sign, so it is refused, naming the field.
 */
function measure(obj: JsonObject, key: string, path: string): number | null {
  const v = optNumber(obj, key, path);
  if (v !== null && v < 0) throw new FieldError(path, `\`${path}\` must be a number >= 0, got ${v}`);
  return v;
}

/**
 * A stored judge score: a number from 0 to 5, the contract's scale. A score on another scale (1-10, 0-100) would
 * move the 0-5 means and the share of scores >= 4 without a sign, so it is refused, naming the field.
 */
function judgeScore(obj: JsonObject, key: string, path: string): number | null {
  const v = optNumber(obj, key, path);
  if (v !== null && (v < 0 || v > 5)) throw new FieldError(path, `\`${path}\` must be a score from 0 to 5, got ${v}`);
  return v;
}
