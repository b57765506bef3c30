/**
 * A run database written from a JavaScript eval runner (the library's `RunWriter`): the same format and checks as
 * the Python writer in clients/python/, so a misspelt key or a hit that can match nothing fails where it is written,
 * not later as a quality regression. The results are kept in memory (sql.js) and the file is replaced atomically
 * on `close`.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { RUN_DATABASE_DDL } from '../load/runDatabase.js';
import { loadSqlJs } from '../load/sqlite.js';
import { checkAgainstSchema } from '../validate/schema.js';
import { writeFileAtomically } from './outputFiles.js';
import { nowIso } from '../time.js';

export interface RunWriterOptions {
  runId: string;
  suite: string;
  /** The run's settings (`config_snapshot_json`): chunker_version, embedding_model, index_version, ... */
  config?: Record<string, unknown>;
  commitHash?: string | null;
  /** RFC 3339; default: now. */
  createdAt?: string;
}

/** A hit as written: `rank` is numbered 1..n in list order when left out. Keys: schemas/result.schema.json. */
export type HitInput = { rank?: number; chunk_id?: string | null; doc_id?: string | null } & Record<string, unknown>;

/** One query's result: `hits` becomes `hits_top_k`; any other key of schemas/result.schema.json may be given. */
export type ResultInput = { hits?: HitInput[]; answer?: string | Record<string, unknown> | null } & Record<
  string,
  unknown
>;

export class RunWriter {
  private readonly ids = new Set<string>();

  private constructor(
    private readonly db: Database,
    readonly path: string,
    readonly runId: string,
  ) {}

  /** A writer of run `options.runId` into `path`: a new file, or one whose other runs are kept. */
  static async create(path: string, options: RunWriterOptions): Promise<RunWriter> {
    const SQL = await loadSqlJs();
    const db = existsSync(path) ? new SQL.Database(readFileSync(path)) : new SQL.Database();
    try {
      // The cap is for databases read from strangers (openRunDatabase); this one is the runner's own.
      db.exec('PRAGMA hard_heap_limit = 0');
      db.exec(RUN_DATABASE_DDL);
      const taken = db.exec('SELECT 1 FROM eval_runs WHERE run_id = ?', [options.runId]);
      if (taken.length > 0) throw new InputError(`${path}: already holds a run \`${oneLine(options.runId)}\``);
      db.exec('BEGIN');
      db.run(
        'INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at) ' +
          "VALUES (?, ?, ?, '{}', ?, ?)",
        [
          options.runId,
          options.suite,
          JSON.stringify(options.config ?? {}),
          options.commitHash ?? null,
          options.createdAt ?? nowIso(),
        ],
      );
    } catch (error) {
      db.close();
      throw error;
    }
    return new RunWriter(db, path, options.runId);
  }

  /** One query's result, checked against schemas/result.schema.json before it is written. */
  addResult(queryId: string, input: ResultInput): void {
    if (this.ids.has(queryId)) throw new InputError(`query \`${oneLine(queryId)}\` is written twice`);
    const { hits = [], answer = null, ...fields } = input;
    const result: Record<string, unknown> = {
      query_id: queryId,
      hits_top_k: hits.map((hit, i) => ({ rank: i + 1, ...hit })),
      answer: typeof answer === 'string' ? { answer } : answer,
      ...fields,
    };
    const where = `query \`${oneLine(queryId)}\``;
    const wrong = checkAgainstSchema(result, 'result.schema.json')[0];
    if (wrong !== undefined) throw new InputError(`${where}: \`${wrong.path}\`: ${wrong.detail}${wrong.suggestion}`);
    const hitsOut = result.hits_top_k as HitInput[];
    const blind = hitsOut.findIndex((h) => !['chunk_id', 'doc_id', 'doc_path', 'rel_path'].some((k) => present(h[k])));
    if (blind !== -1)
      throw new InputError(`${where}: hit ${blind} has no chunk_id, doc_id or doc_path: it could match nothing`);
    const ranks = hitsOut.map((h) => h.rank as number).sort((a, b) => a - b);
    if (ranks.some((rank, i) => rank !== i + 1))
      throw new InputError(`${where}: ranks ${ranks.join(', ')} are not 1..${ranks.length}`);
    this.db.run('INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)', [
      this.runId,
      queryId,
      JSON.stringify(result),
    ]);
    this.ids.add(queryId);
  }

  /** Commits and writes the file (atomically); a run without results is refused and nothing is written. */
  close(): void {
    try {
      if (this.ids.size === 0) {
        this.db.exec('ROLLBACK');
        throw new InputError(`run \`${oneLine(this.runId)}\` has no results: nothing was written`);
      }
      this.db.exec('COMMIT');
      writeFileAtomically(this.path, this.db.export());
    } finally {
      this.db.close();
    }
  }
}

function present(value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || typeof value === 'number';
}
