import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { mapPacked } from '../arrays.js';
import { cannotRead, InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { suggest } from '../suggest.js';
import { noticeOf } from '../types.js';
import type { ChunkRecord, DocumentRecord, QueryResult, RowNotice, RunData, RunInfo, RunStream } from '../types.js';
import { splitHeadingPath } from './headingPath.js';
import { describe, isObject, JSON_SCAN_FROM_CHARS, JSON_VALUE_BOUNDS, jsonTextPast, parseJsonCell } from './json.js';
import { MAX_ID_BYTES, readResultRow } from './queryResult.js';
import { checkSideFiles } from './sideFiles.js';
import { FileBackedBytes, loadSqlJs } from './sqlite.js';
import { RUN_TIME_FORM, runTime } from '../time.js';

/** The tables and columns read; extra columns are allowed (kebab has more). chunks and documents are optional. */
const COLUMNS: Record<string, string[]> = {
  eval_runs: ['run_id', 'suite', 'config_snapshot_json', 'aggregate_json', 'commit_hash', 'created_at'],
  eval_query_results: ['run_id', 'query_id', 'result_json'],
  chunks: ['chunk_id', 'doc_id', 'text', 'heading_path_json', 'source_spans_json', 'token_estimate', 'chunker_version'],
  documents: ['doc_id', 'workspace_path'],
};

/** The DDL `evalverdict init` writes: kebab's eval tables plus the two optional index tables. */
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

/** The first 16 of the 100 bytes of a SQLite file's header. */
const SQLITE_HEADER = 'SQLite format 3\u0000';

/** Opens a run database from disk, refusing anything that is not a readable SQLite file. */
export async function openRunDatabase(file: string): Promise<Database> {
  return openRunDatabaseWith(await loadSqlJs(), file);
}

function checkHeader(file: string, head: Uint8Array, size: number): void {
  if (size === 0) throw new InputError(`${file}: the run database is empty (0 bytes), not a SQLite file`);
  if (size < 100 || Buffer.from(head.buffer, head.byteOffset, 16).toString('latin1') !== SQLITE_HEADER) {
    throw new InputError(`${file}: not a SQLite database (the file does not start with the SQLite header)`);
  }
}

/** The file opened for sql.js, after the checks that need no database (readable, SQLite header, side files). */
function openChecked(file: string): FileBackedBytes {
  let bytes: FileBackedBytes | null = null;
  try {
    bytes = new FileBackedBytes(file);
    checkHeader(file, bytes.head(100), bytes.length);
    checkSideFiles(file);
    return bytes;
  } catch (error) {
    bytes?.close();
    throw cannotRead(file, error, 'the run database');
  }
}

function openRunDatabaseWith(SQL: SqlJsStatic, file: string): Database {
  const bytes = openChecked(file);
  // sql.js reads the file's pages through `bytes` (see FileBackedBytes): closing the database closes the file.
  const db = new SQL.Database(bytes as unknown as Uint8Array);
  const closeDb = db.close.bind(db);
  db.close = () => {
    closeDb();
    bytes.close();
  };
  try {
    // SQLite's own memory (page cache, one row's values, an expression's result) is capped for any database read.
    db.exec(`PRAGMA hard_heap_limit = ${SQLITE_HEAP_LIMIT}`);
    // Touch the schema and check integrity cheaply: a truncated file fails here.
    db.exec('SELECT count(*) FROM sqlite_master');
    const pageCount = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
    const pageSize = Number(db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
    if (pageCount * pageSize > bytes.length) {
      throw new Error(`database disk image is truncated (${bytes.length} bytes, header says ${pageCount * pageSize})`);
    }
  } catch (error) {
    db.close();
    throw new InputError(`${file}: unreadable SQLite database (${oneLine((error as Error).message)})`);
  }
  return db;
}

/**
 * SQLite's complaints about the file met while a statement runs (a corrupt page, not a database, an I/O error),
 * known by message since sql.js gives no result code; and a failed read of the file itself (FileBackedBytes).
 */
const SQLITE_FILE_ERROR = new RegExp(
  [
    'malformed',
    'not a database',
    'disk I/O error',
    'unable to open database file',
    'unsupported file format',
    'shrank while it was read',
  ].join('|'),
  'i',
);

function isFileError(error: Error): boolean {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return SQLITE_FILE_ERROR.test(error.message) || (typeof code === 'string' && syscall === 'read');
}

/**
 * `error`, thrown by SQLite (or by reading the file for it) while reading `table` of `file`: always the user's
 * (exit 2), since every statement EvalVerdict runs is fixed and only the database can make one fail: a corrupt page,
 * a collation or module it names that this SQLite lacks, a value past SQLite's memory cap.
 */
function readError(file: string, table: string, error: unknown): unknown {
  if (error instanceof InputError) return error;
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (error instanceof Error && isFileError(error)) {
    return new InputError(`${file}: table \`${table}\`: unreadable SQLite database (${message})`);
  }
  const memory = /out of memory|too big|Invalid string length|Array buffer allocation/i.test(message)
    ? ` (a value or the work to read it is larger than the ${mib(SQLITE_HEAP_LIMIT)} SQLite may use)`
    : '';
  return new InputError(`${file}: table \`${table}\`: SQLite could not read it: ${message}${memory}`);
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1 << 20))} MiB`;
}

/** `read` (statements over `table`), with SQLite's errors as the user's (see readError). */
function reading<T>(file: string, table: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw readError(file, table, error);
  }
}

/** The statement's next row, null after the last; SQLite's errors on the way are the user's (see readError). */
function nextRow(stmt: Statement, file: string, table: string): SqlValue[] | null {
  try {
    return stmt.step() ? stmt.get() : null;
  } catch (error) {
    throw readError(file, table, error);
  }
}

/** The most bytes one value may hold: a longer one is refused by its length, before SQLite reads it. */
export const MAX_VALUE_BYTES = 64 << 20;
/** SQLite's own memory while a run database is read or written (page cache, a row, an expression's result). */
export const SQLITE_HEAP_LIMIT = 512 << 20;

/**
 * Runs `SELECT columns FROM table tail` and hands each row to `each`. Each value longer than MAX_VALUE_BYTES is
 * refused by its length (octet_length reads only the record's header), so no value, however large, is fetched;
 * `label` names the row in that message (its values, with a refused one null).
 */
function forEachRow(
  db: Database,
  file: string,
  table: string,
  columns: readonly string[],
  tail: string,
  params: SqlValue[] | null,
  label: (row: SqlValue[]) => string,
  each: (row: SqlValue[]) => void,
): void {
  const capped = columns.map((c) => `CASE WHEN octet_length(${c}) > ${MAX_VALUE_BYTES} THEN NULL ELSE ${c} END`);
  const lengths = columns.map((c) => `octet_length(${c})`);
  const sql = `SELECT ${[...capped, ...lengths].join(', ')} FROM ${table}${tail}`;
  const n = columns.length;
  const stmt = reading(file, table, () => db.prepare(sql));
  try {
    if (params !== null) stmt.bind(params);
    for (let row = nextRow(stmt, file, table); row !== null; row = nextRow(stmt, file, table)) {
      for (let i = 0; i < n; i++) {
        const length = row[n + i];
        if (typeof length === 'number' && length > MAX_VALUE_BYTES) {
          throw new InputError(
            `${file}: table \`${table}\`, ${label(row)}: column \`${columns[i]}\` holds ${mib(length)}, more than ` +
              `the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`,
          );
        }
      }
      each(row.length === n ? row : row.slice(0, n));
    }
  } finally {
    stmt.free();
  }
}

/** A value of a row for a message: an id as it reads on one line, or what it is when it is no text. */
function idText(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (value instanceof Uint8Array) return 'a BLOB';
  const text = String(value);
  return `\`${oneLine(text.length > 200 ? `${text.slice(0, 200)}…` : text)}\``;
}

/** Our tables as the database declares them: plain tables (no view, no virtual table), else an InputError. */
interface Declared {
  /** Table name (ours, lower case) -> the columns it has. */
  columns: Map<string, Map<string, { hidden: number }>>;
}

/** `CREATE TABLE`, as SQLite writes it for a table (never for a view, a virtual table or anything else). */
const PLAIN_TABLE = /^CREATE TABLE /;

/**
 * What the database declares under our table names, from `sqlite_schema` before anything is read from them: only a
 * plain table is read. A view (its SELECT could run for ever or fill the memory), a virtual table (an FTS5 table:
 * its module runs code) or anything else under one of our names is refused, as is a column we read that is
 * computed on read (a VIRTUAL generated column).
 */
function declaredTables(db: Database, file: string): Declared {
  const names = Object.keys(COLUMNS);
  const rows = reading(file, 'sqlite_schema', () =>
    db.exec(
      `SELECT lower(name), type, sql FROM sqlite_schema WHERE type <> 'trigger' AND lower(name) IN (${names
        .map((n) => `'${n}'`)
        .join(', ')})`,
    ),
  );
  const columns = new Map<string, Map<string, { hidden: number }>>();
  for (const [name, type, sql] of rows[0]?.values ?? []) {
    const table = String(name);
    const text = typeof sql === 'string' ? sql : '';
    if (type !== 'table' || !PLAIN_TABLE.test(text)) {
      const what = /^CREATE\s+VIRTUAL\s+TABLE\b/i.test(text)
        ? `a virtual table${/\bUSING\s+(\w+)/i.exec(text) ? ` (USING ${/\bUSING\s+(\w+)/i.exec(text)![1]})` : ''}`
        : type === 'view'
          ? 'a view'
          : `${oneLine(String(type))} ${idText(sql)}`.slice(0, 80);
      throw new InputError(
        `${file}: \`${table}\` is ${what}, not a table; EvalVerdict reads only plain tables and never runs SQL or ` +
          'modules stored in a run database (docs/run-database.md)',
      );
    }
    const info = reading(file, table, () => db.exec(`PRAGMA table_xinfo(${JSON.stringify(table)})`));
    const present = new Map<string, { hidden: number }>();
    for (const r of info[0]?.values ?? []) present.set(String(r[1]).toLowerCase(), { hidden: Number(r[6]) });
    columns.set(table, present);
  }
  return { columns };
}

/** Whether `table` exists; if it does, it must have the columns read, each stored (not computed on read). */
function hasTable(declared: Declared, file: string, table: string): boolean {
  const present = declared.columns.get(table);
  if (present === undefined) return false;
  for (const column of COLUMNS[table]) {
    const found = present.get(column);
    if (found === undefined) throw new InputError(`${file}: table \`${table}\` has no column \`${column}\``);
    // table_xinfo's `hidden`: 2 for a VIRTUAL generated column (an expression run on every read), 3 for a STORED one.
    if (found.hidden === 2) {
      throw new InputError(
        `${file}: table \`${table}\`, column \`${column}\` is a VIRTUAL generated column (computed by SQL stored ` +
          'in the database on every read); EvalVerdict reads only stored values',
      );
    }
  }
  return true;
}

function checkSchema(db: Database, file: string): { hasChunks: boolean; hasDocuments: boolean } {
  const declared = declaredTables(db, file);
  for (const table of ['eval_runs', 'eval_query_results']) {
    if (!hasTable(declared, file, table)) {
      throw new InputError(
        `${file}: missing table \`${table}\` (a run database needs eval_runs and eval_query_results; ` +
          'see docs/run-database.md)',
      );
    }
  }
  return { hasChunks: hasTable(declared, file, 'chunks'), hasDocuments: hasTable(declared, file, 'documents') };
}

/**
 * Before `aggregate --write` changes `eval_runs`: the table is checked as for reading, and no trigger may fire on
 * it (its SQL would run with the write: delete rows, insert gigabytes), so the write changes one row and nothing else.
 */
export function checkWritable(db: Database, file: string): void {
  checkSchema(db, file);
  const triggers = reading(file, 'sqlite_schema', () =>
    db.exec("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND lower(tbl_name) = 'eval_runs' ORDER BY name"),
  );
  const names = (triggers[0]?.values ?? []).map((r) => idText(r[0]));
  if (names.length > 0) {
    throw new InputError(
      `${file}: table \`eval_runs\` has ${names.length === 1 ? 'a trigger' : `${names.length} triggers`} ` +
        `(${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}); --write refuses to run SQL stored in a ` +
        'run database: drop the triggers first (sqlite3 FILE "DROP TRIGGER name"), or leave out --write',
    );
  }
}

interface RunRow {
  runId: string;
  suite: string;
  createdAt: string;
  commitHash: string | null;
  /** Why this run cannot be read if chosen (an id that names no results, a field too long), or null. */
  refusal: string | null;
}

const RUN_FIELDS = ['run_id', 'suite', 'created_at', 'commit_hash'];

/**
 * Every run's id, suite, time and commit, each read only up to MAX_ID_BYTES (a longer one is refused if its run is
 * chosen): no JSON column is read until one run is picked (runInfoFrom), so memory follows one run's values, not the
 * table's. A run id that is a BLOB, NULL or not valid UTF-8 (read with U+FFFD, it would match no result row) is
 * refused when chosen, its bytes shown in hex.
 */
function listRuns(db: Database, file: string): RunRow[] {
  const runs: RunRow[] = [];
  const capped = (c: string) => `CASE WHEN octet_length(${c}) > ${MAX_ID_BYTES} THEN NULL ELSE ${c} END`;
  const sql =
    // A run_id past the cap is read cut, to name it in the message that refuses it.
    `SELECT CASE WHEN octet_length(run_id) > ${MAX_ID_BYTES} THEN substr(run_id, 1, 200) ELSE run_id END, ` +
    `${RUN_FIELDS.slice(1).map(capped).join(', ')}, ${RUN_FIELDS.map((c) => `octet_length(${c})`).join(', ')}, ` +
    `typeof(run_id), hex(substr(CAST(run_id AS BLOB), 1, ${MAX_ID_BYTES})) FROM eval_runs`;
  const stmt = reading(file, 'eval_runs', () => db.prepare(sql));
  try {
    for (let row = nextRow(stmt, file, 'eval_runs'); row !== null; row = nextRow(stmt, file, 'eval_runs')) {
      const [runId, suite, createdAt, commitHash] = row;
      const lengths = row.slice(4, 8).map((n) => Number(n ?? 0));
      const type = String(row[8]);
      const bytes = String(row[9]);
      const hex = `x'${bytes.slice(0, 96).toLowerCase()}'${lengths[0] > 48 ? `… (${lengths[0]} bytes)` : ''}`;
      const id =
        typeof runId === 'string'
          ? `${runId}${lengths[0] > MAX_ID_BYTES ? `… (${lengths[0]} bytes)` : ''}`
          : runId instanceof Uint8Array || runId === null
            ? hex
            : String(runId);
      const long = lengths.findIndex((n) => n > MAX_ID_BYTES);
      runs.push({
        runId: id,
        suite: String(suite ?? ''),
        createdAt: String(createdAt ?? ''),
        commitHash: commitHash === null ? null : String(commitHash),
        refusal:
          long !== -1
            ? `column \`${RUN_FIELDS[long]}\` holds ${lengths[long]} bytes, more than the ${MAX_ID_BYTES} EvalVerdict ` +
              'reads in an id, suite, commit or time'
            : type === 'blob' || type === 'null'
              ? `run_id is ${type === 'blob' ? 'a BLOB' : 'NULL'} (${hex}), not text that result rows can name`
              : typeof runId === 'string' && /[^\x00-\x7f]/.test(runId) && !validUtf8(bytes)
                ? `run_id is not valid UTF-8 (${hex}): result rows cannot be matched to it; store it as UTF-8 text`
                : null,
      });
    }
  } finally {
    stmt.free();
  }
  return runs;
}

/** Whether the bytes in `hex` are valid UTF-8 (sql.js reads invalid bytes as U+FFFD or as other characters). */
function validUtf8(hex: string): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(hex, 'hex'));
    return true;
  } catch {
    return false;
  }
}

/** Newest `created_at` wins; equal instants fall back to run_id so the choice is deterministic. */
function pickRun(rows: RunRow[], file: string, runId?: string | null): RunRow {
  if (rows.length === 0) throw new InputError(`${file}: table \`eval_runs\` has no runs`);
  if (runId !== undefined && runId !== null) {
    // An empty id names no run (`--run ""`, an unset variable): an error, not the newest run in silence.
    const row = rows.find((r) => r.runId === runId);
    if (!row) {
      const runs = rows
        .slice(0, 10)
        .map((r) => oneLine(r.runId))
        .join(', ');
      const close = suggest(
        oneLine(runId),
        rows.slice(0, 1000).map((r) => oneLine(r.runId)),
      );
      throw new InputError(`${file}: no run \`${oneLine(runId)}\` in \`eval_runs\`${close} (runs: ${runs})`);
    }
    return readable(row, file);
  }
  let best: RunRow | null = null;
  let bestTime = -Infinity;
  for (const row of rows) {
    const t = runTime(row.createdAt);
    if (t === null) {
      if (row.refusal !== null) readable(row, file);
      throw new InputError(
        `${file}: table \`eval_runs\`, run \`${oneLine(row.runId)}\`: created_at ${describe(row.createdAt)} is not an ` +
          `RFC 3339 time (${RUN_TIME_FORM})`,
      );
    }
    if (t > bestTime || (t === bestTime && best !== null && row.runId > best.runId)) {
      best = row;
      bestTime = t;
    }
  }
  return readable(best!, file);
}

/** `row`, unless it cannot be read (RunRow.refusal): then an InputError naming it. */
function readable(row: RunRow, file: string): RunRow {
  if (row.refusal === null) return row;
  throw new InputError(`${file}: table \`eval_runs\`, run \`${oneLine(row.runId)}\`: ${row.refusal}`);
}

/** The JSON columns of the chosen run (the first row of its id), read only now (see listRuns). */
function runJson(db: Database, file: string, runId: string): { configJson: SqlValue; aggregateJson: SqlValue } {
  let found: SqlValue[] = [null, null];
  const label = () => `run ${idText(runId)}`;
  const columns = ['config_snapshot_json', 'aggregate_json'];
  // A number as run_id (a column without TEXT affinity) was listed as its text.
  const tail = " WHERE run_id = ? OR (typeof(run_id) IN ('integer', 'real') AND CAST(run_id AS TEXT) = ?) LIMIT 1";
  forEachRow(db, file, 'eval_runs', columns, tail, [runId, runId], label, (row) => {
    found = row;
  });
  return { configJson: found[0], aggregateJson: found[1] };
}

function runInfoFrom(db: Database, row: RunRow, file: string): RunInfo {
  const where = `${file}: table \`eval_runs\`, run \`${oneLine(row.runId)}\``;
  const { configJson, aggregateJson } = runJson(db, file, row.runId);
  const config = parseJsonCell(configJson, `${where}, column \`config_snapshot_json\``);
  // Scores are computed afresh (`--write` replaces it); only the golden set it was computed against is read, and
  // malformed JSON is refused as in every column. One past the value bounds (EvalVerdict's own, written for a golden
  // set of thousands of breakdown groups, can be) is not read at all: no recorded golden set, never a refusal.
  const tooLarge =
    typeof aggregateJson === 'string' &&
    aggregateJson.length >= JSON_SCAN_FROM_CHARS &&
    jsonTextPast(aggregateJson, JSON_VALUE_BOUNDS) !== null;
  const aggregate = tooLarge ? null : parseJsonCell(aggregateJson, `${where}, column \`aggregate_json\``, true);
  const recorded = isObject(aggregate) && isObject(aggregate.evalverdict) ? aggregate.evalverdict.golden : null;
  if (!isObject(config)) throw new InputError(`${where}, column \`config_snapshot_json\`: must be a JSON object`);
  // A setting as a top-level key (`embedding_model`), else nested at its first underscore, as kebab writes
  // `{"embedding": {"model": ...}}`; the top-level key wins when both are there.
  const str = (key: string) => {
    let value = config[key];
    if (value === undefined || value === null) {
      const cut = key.indexOf('_');
      const outer = config[key.slice(0, cut)];
      if (isObject(outer)) value = outer[key.slice(cut + 1)];
    }
    return typeof value === 'string' ? value : value == null || typeof value === 'object' ? null : String(value);
  };
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
    chunkIndexing: chunkIndexingOf(config.index_stats, `${where}, column \`config_snapshot_json\`, \`index_stats\``),
    // Only EvalVerdict's own form is kept: anything else is no fingerprint of ours.
    recordedGoldenFingerprint:
      isObject(recorded) &&
      typeof recorded.fingerprint === 'string' &&
      /^sha256:[0-9a-f]{64}$/.test(recorded.fingerprint)
        ? recorded.fingerprint
        : null,
  };
}

/**
 * The indexer's chunk counts (the 001 spec's "chunks attempted / embedded / skipped"), from `index_stats` in the
 * run's config snapshot: `chunks_skipped` and `chunks_attempted` (else embedded + skipped). Null when it has none.
 */
function chunkIndexingOf(stats: unknown, where: string): RunInfo['chunkIndexing'] {
  if (stats === undefined || stats === null) return null;
  if (!isObject(stats)) throw new InputError(`${where}: must be an object of chunk counts, got ${describe(stats)}`);
  const count = (key: string): number | null => {
    const v = stats[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new InputError(`${where}: \`${key}\` must be a count (a whole number >= 0), got ${describe(v)}`);
    return v;
  };
  const skipped = count('chunks_skipped');
  const embedded = count('chunks_embedded');
  const attempted = count('chunks_attempted') ?? (embedded !== null && skipped !== null ? embedded + skipped : null);
  if (skipped === null || attempted === null) return null;
  if (skipped > attempted)
    throw new InputError(`${where}: \`chunks_skipped\` (${skipped}) is more than \`chunks_attempted\` (${attempted})`);
  return { attempted, skipped };
}

/** Reads one run (default: the newest) with every result parsed into memory, and the optional index tables. */
export async function readRunDatabase(file: string, runId?: string | null): Promise<RunData> {
  const db = await openRunDatabase(file);
  try {
    const stream = runStreamFromDb(db, file, runId);
    const results: QueryResult[] = [];
    stream.forEachResult((r) => results.push(r));
    return { source: stream.source, run: stream.run, chunks: stream.chunks, documents: stream.documents, results };
  } finally {
    db.close();
  }
}

/**
 * Opens one run for streaming: the schema, the run row and the index tables are read and checked now; the result
 * rows are parsed one at a time by `forEachResult`, each handed over and then dropped. `release` closes the
 * database and a later `forEachResult` opens the file again, so compare holds one run database in memory at a time.
 */
export async function openRunStream(file: string, runId?: string | null, range: QueryIdRange = {}): Promise<RunStream> {
  return (await deferRunStream(file, runId, range))();
}

/**
 * Every run of a database in the order they were written (rowid; by run_id for a table without one) with its suite:
 * what a run option naming several runs (`all`, `all:SUITE`, `a,b,c`) chooses from. The file is read first as
 * openRunStream reads it (its newest run), so a wrong file fails with the reader's message.
 */
export async function listRunsIn(file: string): Promise<Array<{ id: string; suite: string }>> {
  const SQL = await loadSqlJs();
  openChecked(file).close();
  const db = openRunDatabaseWith(SQL, file);
  try {
    runStreamFromDb(db, file);
    let rows: ReturnType<typeof db.exec>;
    try {
      rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY rowid');
    } catch {
      rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY run_id');
    }
    return (rows[0]?.values ?? []).map((v) => ({ id: String(v[0]), suite: String(v[1] ?? '') }));
  } finally {
    db.close();
  }
}

/**
 * openRunStream in two steps: now, the checks that need no database, so a wrong path fails at once; later,
 * synchronously, the opening itself. compare opens the candidate only once the baseline is scored and released.
 */
export async function deferRunStream(
  file: string,
  runId?: string | null,
  range: QueryIdRange = {},
): Promise<() => RunStream> {
  const SQL = await loadSqlJs();
  openChecked(file).close();
  return () => {
    let db: Database | null = openRunDatabaseWith(SQL, file);
    let meta: RunStream;
    // A long chunk text is read when scoring asks for it, from the database open then (opened again if released).
    const currentDb = () => (db ??= openRunDatabaseWith(SQL, file));
    try {
      meta = runStreamFromDb(db, file, runId, currentDb);
    } catch (error) {
      db.close();
      throw error;
    }
    const chosen = meta.run.runId;
    const notice = noticeOf();
    return {
      ...meta,
      notice,
      forEachResult(each) {
        db ??= openRunDatabaseWith(SQL, file);
        forEachResultRow(db, file, chosen, each, range, notice);
      },
      release() {
        db?.close();
        db = null;
      },
    };
  };
}

/** The schema checks, the run row, the orphan check and the index tables of `runId` (default: newest). */
function runStreamFromDb(
  db: Database,
  file: string,
  runId?: string | null,
  currentDb: (() => Database) | null = null,
): RunStream {
  const { hasChunks, hasDocuments } = checkSchema(db, file);
  const run = runInfoFrom(db, pickRun(listRuns(db, file), file, runId), file);
  checkNoOrphanResults(db, file);
  // `evalverdict init` and `import trec` create the index tables empty: an empty table means "no index", else every
  // citation would count as broken and every snippet as hallucinated against a table that was never filled.
  const chunks = hasChunks ? readChunks(db, file, currentDb) : null;
  const documents = hasDocuments ? readDocuments(db, file) : null;
  const notice = noticeOf();
  return {
    source: file,
    run,
    chunks: chunks && chunks.size > 0 ? chunks : null,
    documents: documents && documents.size > 0 ? documents : null,
    notice,
    forEachResult: (each) => forEachResultRow(db, file, run.runId, each, {}, notice),
  };
}

/** Refuses results of a run that has no row in eval_runs. */
function checkNoOrphanResults(db: Database, file: string): void {
  const orphan = reading(file, 'eval_query_results', () =>
    db.exec(
      'SELECT substr(run_id, 1, 200), substr(MIN(query_id), 1, 200), COUNT(*) FROM eval_query_results ' +
        'WHERE run_id NOT IN (SELECT run_id FROM eval_runs) GROUP BY run_id ORDER BY run_id LIMIT 6',
    ),
  );
  if (orphan.length === 0 || orphan[0].values.length === 0) return;
  const [orphanRun, firstQuery, count] = orphan[0].values[0];
  const others = orphan[0].values.slice(1).map((v) => idText(v[0]));
  const where = `${file}: table \`eval_query_results\`, run ${idText(orphanRun)}, query ${idText(firstQuery)}`;
  throw new InputError(
    `${where}: the run has no row in \`eval_runs\` (${Number(count)} result(s) for it` +
      `${others.length > 0 ? `; other such runs: ${others.join(', ')}` : ''})`,
  );
}

const RANGE_OPERATORS: ReadonlyArray<[keyof QueryIdRange, string]> = [
  ['from', '>='],
  ['after', '>'],
  ['to', '<'],
  ['through', '<='],
];

/** Steps the run's result rows in query_id order (the primary key's order: no sort), parsing each once. */
function forEachResultRow(
  db: Database,
  file: string,
  runId: string,
  each: (result: QueryResult) => void,
  range: QueryIdRange = {},
  notice: RowNotice | null = null,
): void {
  const table = 'eval_query_results';
  // SQLite sorts every number below every text, so a range of text bounds would put all numeric query_ids (a
  // column without TEXT affinity) in the first part. Such a run is read whole and its rows kept by String(query_id),
  // the id EvalVerdict matches, compared as SQLite compares text. Otherwise the index seeks the range.
  const hasRange = RANGE_OPERATORS.some(([key]) => range[key] !== undefined);
  const filter = hasRange && reading(file, table, () => hasNonTextQueryIds(db, runId));
  let where = '';
  const params: SqlValue[] = [runId];
  for (const [key, op] of filter ? [] : RANGE_OPERATORS) {
    const bound = range[key];
    if (bound === undefined) continue;
    where += ` AND query_id ${op} ?`;
    params.push(bound);
  }
  const tail = ` WHERE run_id = ?${where} ORDER BY query_id`;
  const label = (row: SqlValue[]) => `run ${idText(runId)}, query ${idText(row[0])}`;
  forEachRow(db, file, table, ['query_id', 'result_json'], tail, params, label, ([queryId, resultJson]) => {
    if (filter && !inRange(String(queryId), range)) return;
    each(readResultRow(file, runId, String(queryId), resultJson, notice));
  });
}

/**
 * Whether any query_id of the run is a number or a BLOB, by two seeks of the primary key's index: numbers sort
 * below the empty text, BLOBs above every text (NULL is neither).
 */
function hasNonTextQueryIds(db: Database, runId: string): boolean {
  const found = db.exec(
    "SELECT EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id < '') " +
      "OR EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id >= x'')",
    [runId, runId],
  );
  return Number(found[0]?.values[0]?.[0] ?? 0) === 1;
}

/** Chunk texts longer than this (in bytes) are read when asked for, not kept (see readChunks). */
export const KEPT_TEXT_BYTES = 64 << 10;

/**
 * The chunks table. A text of KEPT_TEXT_BYTES or less is kept; a longer one (up to MAX_VALUE_BYTES) is read from the
 * database each time `text` is read, by rowid and chunk_id, when `currentDb` gives the database then (a stream),
 * so memory follows the largest text, not the table (bench/README.md, "What was kept"). Without it (the
 * database is closed after reading), or for a table without rowid, every text is kept.
 */
function readChunks(db: Database, file: string, currentDb: (() => Database) | null): Map<string, ChunkRecord> {
  const chunks = new Map<string, ChunkRecord>();
  const lazy = currentDb !== null && hasRowid(db);
  const shortText = `CASE WHEN octet_length(text) > ${KEPT_TEXT_BYTES} THEN NULL ELSE text END`;
  const columns = lazy
    ? [...COLUMNS.chunks.map((c) => (c === 'text' ? shortText : c)), 'octet_length(text)', 'rowid']
    : COLUMNS.chunks;
  const label = (row: SqlValue[]) => `chunk ${idText(row[0])}`;
  forEachRow(db, file, 'chunks', columns, '', null, label, (row) => {
    const [chunkId, docId, text, headingJson, spansJson, tokens, version, textBytes, rowid] = row;
    const where = `${file}: table \`chunks\`, chunk ${idText(chunkId)}`;
    if (typeof textBytes === 'number' && textBytes > MAX_VALUE_BYTES) {
      throw new InputError(
        `${where}: column \`text\` holds ${mib(textBytes)}, more than the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`,
      );
    }
    const heading = parseJsonCell(headingJson, `${where}, column \`heading_path_json\``);
    const spans = parseJsonCell(spansJson, `${where}, column \`source_spans_json\``);
    // A count of tokens (chunk_tokens_* metrics): text such as 'many' is refused, not read as NaN.
    if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) {
      const got = tokens === null ? 'NULL' : tokens instanceof Uint8Array ? 'a BLOB' : describe(tokens);
      throw new InputError(`${where}, column \`token_estimate\`: must be a number >= 0, got ${got}`);
    }
    const record: ChunkRecord = {
      chunkId: String(chunkId),
      docId: String(docId),
      text: String(text ?? ''),
      headingPath: Array.isArray(heading)
        ? mapPacked(heading, String)
        : typeof heading === 'string'
          ? splitHeadingPath(heading)
          : [],
      spans: parseSpans(spans),
      tokenEstimate: tokens,
      chunkerVersion: String(version ?? ''),
    };
    if (lazy && text === null && typeof textBytes === 'number') {
      const id = String(chunkId);
      Object.defineProperty(record, 'text', {
        get: () => readChunkText(currentDb!(), file, rowid as number, id),
        enumerable: true,
      });
    }
    chunks.set(record.chunkId, record);
  });
  return chunks;
}

/** Whether the chunks table has a rowid (not WITHOUT ROWID) under that name. */
function hasRowid(db: Database): boolean {
  try {
    db.prepare('SELECT rowid FROM chunks LIMIT 0').free();
    return true;
  } catch {
    return false;
  }
}

/** One chunk's text by rowid, checked against its chunk_id (a column named rowid could shadow it): '' if gone. */
function readChunkText(db: Database, file: string, rowid: number, chunkId: string): string {
  let text = '';
  const sql = `CASE WHEN octet_length(text) > ${MAX_VALUE_BYTES} THEN NULL ELSE text END`;
  reading(file, 'chunks', () => {
    const stmt = db.prepare(
      `SELECT ${sql} FROM chunks WHERE rowid = ? AND (chunk_id = ? OR CAST(chunk_id AS TEXT) = ?)`,
    );
    try {
      stmt.bind([rowid, chunkId, chunkId]);
      if (stmt.step()) text = String(stmt.get()[0] ?? '');
    } finally {
      stmt.free();
    }
  });
  return text;
}

/** Spans come as `[{start_line, end_line}]`, `[{start, end, path?}]` or `[[start, end]]`; other shapes give none. */
function parseSpans(raw: unknown): ChunkRecord['spans'] {
  if (!Array.isArray(raw)) return [];
  const spans: ChunkRecord['spans'] = [];
  for (const s of raw) {
    if (Array.isArray(s) && typeof s[0] === 'number' && typeof s[1] === 'number') {
      spans.push({ path: null, start: s[0], end: s[1] });
    } else if (isObject(s)) {
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
  const label = (row: SqlValue[]) => `document ${idText(row[0])}`;
  forEachRow(db, file, 'documents', COLUMNS.documents, '', null, label, ([docId, path]) => {
    documents.set(String(docId), { docId: String(docId), workspacePath: String(path ?? '') });
  });
  return documents;
}

/** A part of a run by query_id, in SQLite's order of TEXT: ids >= from, > after, < to, <= through. */
export interface QueryIdRange {
  from?: string;
  after?: string;
  to?: string;
  through?: string;
}

/** a - b in SQLite's order of TEXT (BINARY: UTF-8 bytes), which UTF-16 order matches for ASCII. */
export function compareUtf8(a: string, b: string): number {
  if (/^[\x00-\x7f]*$/.test(a) && /^[\x00-\x7f]*$/.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function inRange(id: string, range: QueryIdRange | undefined): boolean {
  if (range === undefined) return true;
  return (
    (range.from === undefined || compareUtf8(id, range.from) >= 0) &&
    (range.after === undefined || compareUtf8(id, range.after) > 0) &&
    (range.to === undefined || compareUtf8(id, range.to) < 0) &&
    (range.through === undefined || compareUtf8(id, range.through) <= 0)
  );
}
