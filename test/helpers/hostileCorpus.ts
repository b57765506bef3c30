/**
 * A corpus of hostile run databases and inputs (issue 25), generated into a directory by this script rather than
 * committed as binaries: SQL stored in the database (views, virtual tables, triggers, generated columns), values
 * and files made to exhaust time or memory, and text made to steer the Actions log. Each case says how the CLI is
 * run on it, the exit code and message it must give, generous bounds on CPU time and memory (for blow-ups, not
 * speed: each case takes 0.1-1.2 s of CPU; a wait without end is caught by the hang guard, test/helpers/measuredCli.ts),
 * and for `--write` what the database must hold afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../src/load/sqlite.js';
import { RUN_DATABASE_DDL } from '../../src/load/runDatabase.js';

export interface HostileCase {
  name: string;
  /** evalverdict's arguments. */
  args: string[];
  status: number;
  /** Each must occur in stderr. */
  stderr: Array<string | RegExp>;
  /** Text stdout must hold, and text it must not. */
  stdout?: { includes: string[]; excludes: string[] };
  /**
   * CPU time (user + system, every thread) and peak memory (resident set) the child may take at most. CPU time, not
   * wall time: the same work takes several times the wall time on a busy machine (issue 46), about the same CPU.
   */
  maxCpuSeconds: number;
  maxRssMb: number;
  /** For --write: SQL whose rows must read the same before and after the run. */
  unchanged?: { file: string; sql: string };
  /** The most bytes stderr may hold (no message or warning past its documented size). */
  maxStderrBytes?: number;
  /** For --write: checked after the run, given the database file. */
  after?: { file: string; sql: string; rows: unknown[][] };
}

export const HOSTILE_GOLDEN =
  '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n- id: q2\n  query: two\n  expected_chunk_ids: [c2]\n';

const RESULT = (id: string, chunk: string) =>
  JSON.stringify({
    query_id: id,
    query: `query ${id}`,
    mode: 'hybrid',
    hits_top_k: [{ rank: 1, chunk_id: chunk, doc_id: 'd1', doc_path: null, heading_path: [], snippet: null }],
    answer: null,
    elapsed_ms: null,
    error: null,
  });

/** A fresh in-memory database with no cap on SQLite's memory (the generator builds large values on purpose). */
async function emptyDb(): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  db.exec('PRAGMA hard_heap_limit = 0');
  return db;
}

/** A well-formed run database with run r1 and results q1, q2, then `sql` run on it. */
async function runDb(file: string, sql = '', ddl = RUN_DATABASE_DDL): Promise<string> {
  const db = await emptyDb();
  try {
    db.exec(ddl);
    if (ddl === RUN_DATABASE_DDL) insertRun(db);
    if (sql) db.exec(sql);
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
  return file;
}

function insertRun(db: Database, runId = 'r1'): void {
  db.run(
    "INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at) VALUES (?, 'test', '{}', '{}', NULL, '2024-01-01T00:00:00Z')",
    [runId],
  );
  db.run('INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)', [
    runId,
    'q1',
    RESULT('q1', 'c1'),
  ]);
  db.run('INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)', [
    runId,
    'q2',
    RESULT('q2', 'c9'),
  ]);
}

/** The run tables' DDL with `table` replaced by `replacement` (a view, a virtual table...). */
function ddlWith(table: 'eval_runs' | 'eval_query_results', replacement: string): string {
  const statements = RUN_DATABASE_DDL.split(';').filter((s) => s.trim() !== '' && !s.includes(`EXISTS ${table} (`));
  return `${statements.join(';')};\n${replacement};`;
}

/**
 * A run database whose schema entry for `name` is rewritten to `sql` (what SQLite itself would not create here: a
 * module sql.js lacks, a collation it does not know), as `PRAGMA writable_schema` allows anyone to.
 */
async function forged(file: string, name: string, sql: string, rootpage: number | null = null): Promise<string> {
  const db = await emptyDb();
  try {
    db.exec(RUN_DATABASE_DDL);
    insertRun(db);
    db.exec('PRAGMA writable_schema = ON');
    db.run('UPDATE sqlite_schema SET sql = ?, rootpage = coalesce(?, rootpage) WHERE name = ?', [sql, rootpage, name]);
    if (rootpage === 0 || /^CREATE VIEW/.test(sql))
      db.run("DELETE FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?", [name]);
    db.exec('PRAGMA writable_schema = OFF');
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
  return file;
}

const RECURSIVE = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)';
const SQL_NEVER_RUNS = 'EvalVerdict reads only plain tables and never runs SQL or modules stored in a run database';

/** Writes the corpus into `dir` and returns its cases. */
export async function buildHostileCorpus(dir: string): Promise<HostileCase[]> {
  mkdirSync(dir, { recursive: true });
  const golden = join(dir, 'golden.yaml');
  writeFileSync(golden, HOSTILE_GOLDEN);
  const at = (name: string) => join(dir, name);
  const aggregate = (file: string, ...more: string[]) => ['aggregate', file, '--golden', golden, ...more];
  const cases: HostileCase[] = [];
  const refused = (name: string, file: string, ...stderr: Array<string | RegExp>) =>
    cases.push({ name, args: aggregate(file), status: 2, stderr: [file, ...stderr], maxCpuSeconds: 10, maxRssMb: 600 });

  // SQL stored in the database: never run.
  refused(
    'eval_query_results as an infinite recursive view',
    await runDb(
      at('view-recursive.sqlite'),
      '',
      ddlWith(
        'eval_query_results',
        `CREATE VIEW eval_query_results AS ${RECURSIVE} SELECT 'r1' AS run_id, n AS query_id, '{}' AS result_json FROM r`,
      ),
    ),
    '`eval_query_results` is a view, not a table',
    SQL_NEVER_RUNS,
  );
  refused(
    'eval_runs as an infinite recursive view',
    await runDb(
      at('runs-view.sqlite'),
      '',
      ddlWith(
        'eval_runs',
        `CREATE VIEW eval_runs AS ${RECURSIVE} SELECT 'r' || n AS run_id, 's' AS suite, '{}' AS config_snapshot_json, '{}' AS aggregate_json, NULL AS commit_hash, '2024-01-01' AS created_at FROM r`,
      ),
    ),
    '`eval_runs` is a view, not a table',
  );
  refused(
    'a view over a missing table',
    await runDb(
      at('view-missing.sqlite'),
      '',
      ddlWith('eval_query_results', 'CREATE VIEW eval_query_results AS SELECT * FROM no_such_table'),
    ),
    '`eval_query_results` is a view, not a table',
  );
  refused(
    'a view of a 800 MB value (hex(randomblob(4e8)))',
    await runDb(
      at('view-randomblob.sqlite'),
      '',
      ddlWith(
        'eval_query_results',
        "CREATE VIEW eval_query_results AS SELECT 'r1' AS run_id, 'q1' AS query_id, hex(randomblob(400000000)) AS result_json",
      ),
    ),
    '`eval_query_results` is a view, not a table',
  );
  refused(
    'an FTS5 virtual table (a module this SQLite lacks)',
    await forged(
      at('fts5.sqlite'),
      'eval_query_results',
      'CREATE VIRTUAL TABLE eval_query_results USING fts5(run_id, query_id, result_json)',
      0,
    ),
    '`eval_query_results` is a virtual table (USING fts5), not a table',
  );
  refused(
    'an FTS3 virtual table (a module this SQLite has)',
    await runDb(
      at('fts3.sqlite'),
      "INSERT INTO eval_query_results VALUES ('r1', 'q1', '{}')",
      ddlWith(
        'eval_query_results',
        'CREATE VIRTUAL TABLE eval_query_results USING fts3(run_id, query_id, result_json)',
      ),
    ),
    '`eval_query_results` is a virtual table (USING fts3), not a table',
  );
  // SQLite itself refuses an entry whose type and SQL disagree; EvalVerdict's check needs both to say "table".
  refused(
    'a forged schema entry: type table, SQL of a view',
    await forged(
      at('forged-view.sqlite'),
      'eval_query_results',
      `CREATE VIEW eval_query_results AS ${RECURSIVE} SELECT 'r1' AS run_id, n AS query_id, '{}' AS result_json FROM r`,
      0,
    ),
    'unreadable SQLite database (malformed database schema',
  );
  refused(
    'a VIRTUAL generated column computed on every read',
    await runDb(
      at('generated.sqlite'),
      '',
      ddlWith(
        'eval_query_results',
        "CREATE TABLE eval_query_results (run_id TEXT, query_id TEXT, result_json TEXT GENERATED ALWAYS AS (printf('%.*c', 900000000, 'x')) VIRTUAL)",
      ),
    ),
    'column `result_json` is a VIRTUAL generated column',
  );
  refused(
    'a missing table',
    await runDb(at('missing.sqlite'), '', ddlWith('eval_query_results', 'CREATE TABLE other (x)')),
    'missing table `eval_query_results`',
  );
  refused(
    'a collation this SQLite lacks',
    await forged(
      at('collation.sqlite'),
      'eval_query_results',
      'CREATE TABLE eval_query_results (run_id TEXT NOT NULL, query_id TEXT NOT NULL COLLATE no_such_collation, result_json TEXT NOT NULL, PRIMARY KEY (run_id, query_id))',
    ),
    'no such collation sequence',
  );

  // A value larger than the cap: refused by its length, never fetched.
  const big = await runDb(
    at('big-value.sqlite'),
    `UPDATE eval_query_results SET result_json = printf('%.*c', ${65 << 20}, 'x') WHERE query_id = 'q2'`,
  );
  refused(
    'a 65 MiB result_json',
    big,
    'table `eval_query_results`, run `r1`, query `q2`: column `result_json` holds 65 MiB, more than the 64 MiB',
  );
  // Refused by its length alone: fetched, the value would take twice its size in SQLite and as a string.
  cases[cases.length - 1].maxRssMb = 250;

  // --write: the database's triggers never fire; one row of eval_runs changes.
  const triggered = await runDb(
    at('trigger-delete.sqlite'),
    'CREATE TRIGGER wipe AFTER UPDATE ON eval_runs BEGIN DELETE FROM eval_query_results; END;',
  );
  cases.push({
    name: 'aggregate --write with a trigger that deletes every result',
    args: aggregate(triggered, '--write'),
    status: 2,
    stderr: [
      triggered,
      'table `eval_runs` has a trigger (`wipe`); --write refuses to run SQL stored in a run database',
    ],
    maxCpuSeconds: 10,
    maxRssMb: 600,
    unchanged: {
      file: triggered,
      sql: 'SELECT run_id, query_id, result_json FROM eval_query_results UNION ALL SELECT run_id, aggregate_json, NULL FROM eval_runs',
    },
  });
  const filler = await runDb(
    at('trigger-insert.sqlite'),
    "CREATE TABLE junk (x); CREATE TRIGGER fill BEFORE UPDATE ON eval_runs BEGIN INSERT INTO junk SELECT printf('%.*c', 1000000, 'x') FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 2000) SELECT n FROM r); END; CREATE TRIGGER stop AFTER UPDATE ON eval_runs BEGIN SELECT RAISE(ABORT, 'no'); END;",
  );
  cases.push({
    name: 'aggregate --write with a trigger that inserts 2 GB and one that RAISEs',
    args: aggregate(filler, '--write'),
    status: 2,
    stderr: [filler, 'table `eval_runs` has 2 triggers (`fill`, `stop`)'],
    maxCpuSeconds: 10,
    maxRssMb: 600,
    unchanged: { file: filler, sql: 'SELECT count(*) FROM junk UNION ALL SELECT aggregate_json FROM eval_runs' },
  });
  const checked = await runDb(
    at('check.sqlite'),
    '',
    ddlWith(
      'eval_runs',
      "CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT, config_snapshot_json TEXT, aggregate_json TEXT CHECK (aggregate_json = '{}'), commit_hash TEXT, created_at TEXT)",
    ),
  );
  cases.push({
    name: 'aggregate --write into a column whose CHECK refuses the aggregate',
    args: aggregate(await withRun(checked), '--write'),
    status: 2,
    stderr: [checked, 'table `eval_runs` has a CHECK constraint, which SQLite would evaluate on the write'],
    maxCpuSeconds: 10,
    maxRssMb: 600,
    unchanged: { file: checked, sql: 'SELECT run_id, aggregate_json FROM eval_runs' },
  });
  // Issue 35: what an UPDATE evaluates besides the row is refused before it runs. The CHECK scans a 4 MB value with
  // instr() once per character (past 2 minutes when it ran); refused, it costs nothing.
  const runsWith = (name: string, table: string, extra = '') =>
    runDb(at(name), extra, ddlWith('eval_runs', table)).then(withRun);
  const plainRuns =
    'run_id TEXT PRIMARY KEY, suite TEXT, config_snapshot_json TEXT, aggregate_json TEXT, commit_hash TEXT, created_at TEXT';
  const writeRefused = (name: string, file: string, what: string) =>
    cases.push({
      name,
      args: aggregate(file, '--write'),
      status: 2,
      stderr: [file, `table \`eval_runs\` has ${what}, which SQLite would evaluate on the write`],
      maxCpuSeconds: 10,
      maxRssMb: 300,
      unchanged: { file, sql: 'SELECT run_id, aggregate_json FROM eval_runs' },
    });
  writeRefused(
    'aggregate --write with a CHECK of instr() over a 4 MB value',
    await runsWith(
      'check-instr.sqlite',
      `CREATE TABLE eval_runs (${plainRuns}, pad TEXT DEFAULT (printf('%.*c', 4000000, 'x')), ` +
        "CHECK (instr(pad || aggregate_json, 'never') = 0 OR 1))",
    ),
    'a CHECK constraint',
  );
  writeRefused(
    'aggregate --write with a STORED generated column over aggregate_json',
    await runsWith(
      'generated-stored.sqlite',
      `CREATE TABLE eval_runs (${plainRuns}, big TEXT GENERATED ALWAYS AS (printf('%.*c', 1000000, aggregate_json)) STORED)`,
    ),
    'a generated column (`big`)',
  );
  writeRefused(
    'aggregate --write with an index on an expression of aggregate_json',
    await runsWith(
      'index-expression.sqlite',
      `CREATE TABLE eval_runs (${plainRuns})`,
      'CREATE INDEX "by ""len""" ON eval_runs (length(printf(\'%.*c\', 1000000, aggregate_json)))',
    ),
    'an index on an expression (`by "len"`)',
  );
  writeRefused(
    'aggregate --write with a partial index',
    await runsWith(
      'index-partial.sqlite',
      `CREATE TABLE eval_runs (${plainRuns})`,
      'CREATE INDEX p ON eval_runs (suite) WHERE length(aggregate_json) > 0',
    ),
    'a partial index (`p`, with a WHERE)',
  );
  const quotedCheck = await runsWith(
    'check-quoted.sqlite',
    `CREATE TABLE eval_runs ("check" TEXT DEFAULT 'CHECK (x)', ${plainRuns}) /* CHECK */`,
  );
  cases.push({
    name: 'aggregate --write where CHECK is only a column name, a string and a comment: written',
    args: aggregate(quotedCheck, '--write'),
    status: 0,
    stderr: [`wrote aggregate_json of run r1 into ${quotedCheck}`],
    maxCpuSeconds: 10,
    maxRssMb: 600,
    after: { file: quotedCheck, sql: "SELECT count(*) FROM eval_runs WHERE aggregate_json <> '{}'", rows: [[1]] },
  });
  const other = await runDb(
    at('other-trigger.sqlite'),
    'CREATE TABLE log (x); CREATE TRIGGER on_results AFTER UPDATE ON eval_query_results BEGIN INSERT INTO log VALUES (1); END;',
  );
  cases.push({
    name: 'aggregate --write beside a trigger on another table: one row of eval_runs changes',
    args: aggregate(other, '--write'),
    status: 0,
    stderr: [`wrote aggregate_json of run r1 into ${other}`],
    maxCpuSeconds: 10,
    maxRssMb: 600,
    unchanged: {
      file: other,
      sql: 'SELECT run_id, query_id, result_json FROM eval_query_results UNION ALL SELECT count(*), NULL, NULL FROM log UNION ALL SELECT run_id, suite, created_at FROM eval_runs',
    },
    after: { file: other, sql: "SELECT count(*) FROM eval_runs WHERE aggregate_json <> '{}'", rows: [[1]] },
  });
  // Special files: refused at once, never waited on or read without end.
  const fifo = (name: string) => {
    execFileSync('mkfifo', [at(name)]);
    return at(name);
  };
  const good = await runDb(at('good.sqlite'));
  const quick = { status: 2, maxCpuSeconds: 5, maxRssMb: 600 };
  cases.push({
    name: 'a FIFO as the run database',
    args: aggregate(fifo('db.fifo')),
    ...quick,
    stderr: [`${at('db.fifo')}: the run database is a FIFO (named pipe), not a regular file`],
  });
  cases.push({
    name: 'a FIFO as the golden set',
    args: ['aggregate', good, '--golden', fifo('golden.fifo')],
    ...quick,
    stderr: [`${at('golden.fifo')}: the golden set is a FIFO (named pipe), not a regular file`],
  });
  cases.push({
    name: '/dev/zero as the golden set',
    args: ['aggregate', good, '--golden', '/dev/zero'],
    ...quick,
    stderr: ['/dev/zero: the golden set is a character device, not a regular file'],
  });
  cases.push({
    name: 'a FIFO as the gate config',
    args: ['compare', good, good, '--golden', golden, '--config', fifo('config.fifo')],
    ...quick,
    stderr: [`${at('config.fifo')}: the gate config is a FIFO (named pipe), not a regular file`],
  });
  // The importers' inputs too: a TREC run or a trace log is read from a file, never waited on.
  writeFileSync(at('qrels.txt'), 'q1 0 d1 1\n');
  cases.push({
    name: 'a FIFO as the TREC run to import',
    args: ['import', 'trec', '--qrels', at('qrels.txt'), '--run', fifo('run.fifo'), '--out', at('trec-out.sqlite')],
    ...quick,
    stderr: [`${at('run.fifo')}: the run file is a FIFO (named pipe), not a regular file`],
  });
  writeFileSync(at('qaset.json'), '[{"qid": "q1", "q": "one", "answerable": true, "gold_ids": ["d1"]}]');
  cases.push({
    name: 'a FIFO as the WFGY traces to import',
    args: ['import', 'wfgy', '--qaset', at('qaset.json'), '--traces', fifo('traces.fifo'), '--out', at('w.sqlite')],
    ...quick,
    stderr: [`${at('traces.fifo')}: the file is a FIFO (named pipe), not a regular file`],
  });
  const walFifo = await runDb(at('wal-fifo.sqlite'));
  fifo('wal-fifo.sqlite-wal');
  cases.push({
    name: 'a FIFO as the -wal beside the database',
    args: aggregate(walFifo),
    ...quick,
    stderr: [`${walFifo}-wal: the write-ahead log is a FIFO (named pipe), not a regular file`],
  });
  const journalFifo = await runDb(at('journal-fifo.sqlite'));
  fifo('journal-fifo.sqlite-journal');
  cases.push({
    name: 'a FIFO as the -journal beside the database',
    args: aggregate(journalFifo),
    ...quick,
    stderr: [`${journalFifo}-journal: the rollback journal is a FIFO (named pipe), not a regular file`],
  });
  const walDir = await runDb(at('wal-dir.sqlite'));
  mkdirSync(`${walDir}-wal`);
  cases.push({
    name: 'a directory as the -wal',
    args: aggregate(walDir),
    ...quick,
    stderr: [`${walDir}-wal: the write-ahead log is a directory, not a regular file`],
  });

  // Values made to blow up what reads them.
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  cases.push({
    name: 'heading_path_json nested 100,000 levels deep',
    args: aggregate(
      await runDb(
        at('deep-heading.sqlite'),
        `INSERT INTO chunks VALUES ('c1', 'd1', 'text', '${deep}', '[]', 1, 'v1')`,
      ),
    ),
    ...quick,
    stderr: ['table `chunks`, chunk `c1`, column `heading_path_json`: JSON nested more than 100 levels deep'],
  });
  cases.push({
    name: 'config_snapshot_json nested 100,000 levels deep',
    args: aggregate(
      await runDb(at('deep-config.sqlite'), `UPDATE eval_runs SET config_snapshot_json = '{"a":${deep}}'`),
    ),
    ...quick,
    stderr: ['table `eval_runs`, run `r1`, column `config_snapshot_json`: JSON nested more than 100 levels deep'],
  });
  const manyStages = (id: string, prefix: string) =>
    JSON.stringify({
      ...JSON.parse(RESULT(id, 'c1')),
      timings_ms: Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`${prefix}${i}`, i])),
    });
  const stagesDb = await runDb(at('stages.sqlite'));
  await editRows(stagesDb, (db) => {
    db.run("UPDATE eval_query_results SET result_json = ? WHERE query_id = 'q1'", [manyStages('q1', 's')]);
    db.run("UPDATE eval_query_results SET result_json = ? WHERE query_id = 'q2'", [manyStages('q2', 't')]);
  });
  cases.push({
    // s0, s1, s10, s100, s1000, s10000, s100000 ... sort first; every t-stage sorts after them.
    name: 'timings_ms with 150,000 stage keys in each of two rows: the first 64 names are measured',
    args: aggregate(stagesDb, '--json'),
    status: 0,
    stderr: ['more than 64 distinct `timings_ms` stages', '299,936 timing(s) of the others are ignored'],
    stdout: {
      includes: ['"s0_latency_p50_ms"', '"s100000_latency_p50_ms"'],
      excludes: ['"s2_latency_p50_ms"', '"s99999_latency_p50_ms"', '"t0_latency_p50_ms"'],
    },
    maxCpuSeconds: 10,
    maxRssMb: 600,
  });
  // Gate configs: what a report cannot show, and YAML's .nan and .inf named as what they are.
  const gatesFile = (name: string, text: string) => {
    writeFileSync(at(name), text);
    return at(name);
  };
  const manyGates = gatesFile(
    'many-gates.yml',
    `gates:\n${Array.from({ length: 10_000 }, (_, i) => `  - metric: hit@1\n    min: ${i / 10_000}\n`).join('')}`,
  );
  cases.push({
    name: '10,000 gates',
    args: ['compare', good, good, '--golden', golden, '--config', manyGates],
    ...quick,
    stderr: [`${manyGates}:2: 10000 gates, more than the 200 a report can show in a pull request comment`],
  });
  const nanGate = gatesFile('nan-gate.yml', 'gates:\n  - metric: hit@1\n    min: .nan\n');
  cases.push({
    name: 'a gate threshold of .nan',
    args: ['compare', good, good, '--golden', golden, '--config', nanGate],
    ...quick,
    stderr: [`${nanGate}:3: \`min\` must be a number, got .nan (not a number)`],
  });
  const infAlpha = gatesFile('inf-alpha.yml', 'alpha: .inf\n');
  cases.push({
    name: 'alpha of .inf',
    args: ['compare', good, good, '--golden', golden, '--config', infAlpha],
    ...quick,
    stderr: ['`alpha` must be a number above 0 and at most 0.5, got .inf (infinite)'],
  });
  return cases;
}

/** Lets `change` edit a database file with SQL, and saves it. */
async function editRows(file: string, change: (db: Database) => void): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    db.exec('PRAGMA hard_heap_limit = 0');
    change(db);
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
}

/** Adds run r1 and its results to a database built from other DDL. */
async function withRun(file: string): Promise<string> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    db.exec('PRAGMA hard_heap_limit = 0');
    insertRun(db);
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
  return file;
}
