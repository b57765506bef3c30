/**
 * What the importers of other systems' files share (`import wfgy`, `import ckv`): their output flags, checked before
 * any work, and the run database and golden set written together, or not at all. An `--out` that exists gets the
 * run added beside its runs; a run of the same id, or a golden set with other content, is replaced only with
 * --force.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import { cannotRead, InputError } from '../errors.js';
import { formatGolden, goldenFormatOf } from '../load/golden.js';
import { openRunDatabase } from '../load/runDatabase.js';
import { RUN_TIME_FORM, runTime } from '../time.js';
import { readRegularFile } from '../load/regularFile.js';
import { checkReplaceable, isWalMode } from '../load/sideFiles.js';
import { refuseSameOutput, writeOutputFiles } from '../write/outputFiles.js';
import { createRunDatabase, insertRun } from '../write/runDatabase.js';

export interface ImportOutputs {
  out: string;
  goldenOut: string | undefined;
  force: boolean;
  runId: string;
  /** --created-at, checked; undefined: the importer's default. */
  createdAt: string | undefined;
  /** Whether --out exists (the run is then added to it). */
  outExists: boolean;
}

/** The output flags (`out`, `golden-out`, `run-id`, `created-at`, `force`) checked before anything is read. */
export function importOutputs(values: Record<string, unknown>, usage: string, defaultRunId: string): ImportOutputs {
  const out = values.out as string;
  const goldenOut = values['golden-out'] as string | undefined;
  if (goldenOut === '') throw new InputError(`--golden-out: the path is empty\n${usage}`);
  const runId = (values['run-id'] as string | undefined) ?? defaultRunId;
  if (runId.trim() === '') throw new InputError('--run-id: the run id is empty');
  const createdAt = values['created-at'] as string | undefined;
  if (createdAt !== undefined && runTime(createdAt) === null)
    throw new InputError(`--created-at: ${JSON.stringify(createdAt)} is not an RFC 3339 time (${RUN_TIME_FORM})`);
  refuseSameOutput([
    ['--out', out],
    ['--golden-out', goldenOut],
  ]);
  // A database that exists is written into: refused before any work when SQLite keeps changes beside it.
  const outExists = existsSync(out);
  if (outExists) checkReplaceable(out);
  return { out, goldenOut, force: values.force === true, runId, createdAt, outExists };
}

/** Now, as an RFC 3339 time to the second: the default run time when the input carries none. */
export const nowRfc3339 = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** One run to write: its id, row fields and results. */
export interface ImportedRun {
  runId: string;
  suite: string;
  config: Record<string, unknown>;
  createdAt: string;
  results: Iterable<{ queryId: string; result: unknown }>;
}

/**
 * Writes the runs into --out (new, or added to the one there) and the golden set into --golden-out: all or
 * nothing.
 */
export async function writeImport(
  o: ImportOutputs,
  runs: ImportedRun[],
  golden: { header: Record<string, unknown>; items: unknown[] },
): Promise<void> {
  const files: Array<[string, Uint8Array | string]> = [[o.out, await runDatabaseBytes(o, runs)]];
  if (o.goldenOut !== undefined) {
    const text = formatGolden(golden, goldenFormatOf(o.goldenOut));
    const exists = existsSync(o.goldenOut);
    const same = exists && sameText(o.goldenOut, text);
    if (exists && !same && !o.force)
      throw new InputError(
        `${o.goldenOut}: already exists with other content (import replaces an existing golden set only with --force; the same content is left as it is)`,
      );
    if (!same) files.push([o.goldenOut, text]);
  }
  writeOutputFiles(files);
}

function sameText(file: string, text: string): boolean {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

/** The run database's new bytes: the existing one with the runs added (or replaced, with --force), or a new one. */
async function runDatabaseBytes(o: ImportOutputs, runs: ImportedRun[]): Promise<Uint8Array> {
  const db = o.outExists ? await openRunDatabase(o.out) : await createRunDatabase();
  try {
    for (const { results, ...run } of runs) {
      if (o.outExists) makeRoom(db, o.out, run.runId, o.force);
      insertRun(db, run, results);
    }
    const bytes = db.export();
    // As aggregate --write does: a WAL-mode database (no log beside it: checked) stays in WAL mode.
    if (o.outExists && isWalMode(o.out)) bytes[18] = bytes[19] = 2;
    return bytes;
  } finally {
    db.close();
  }
}

/** Checks an existing database can take the run: its tables are there, and the run id is new (or --force). */
function makeRoom(db: Database, out: string, runId: string, force: boolean): void {
  let taken: boolean;
  try {
    const stmt = db.prepare('SELECT 1 FROM eval_runs WHERE run_id = ?');
    try {
      stmt.bind([runId]);
      taken = stmt.step();
    } finally {
      stmt.free();
    }
    db.exec('SELECT run_id, query_id, result_json FROM eval_query_results LIMIT 0');
  } catch (error) {
    throw new InputError(
      `${out}: not a run database to add a run to (${(error as Error).message}); name a new file, or create one with evalgate init`,
    );
  }
  if (!taken) return;
  if (!force)
    throw new InputError(
      `${out}: already holds a run \`${runId}\` (choose another --run-id, or --force to replace that run; the other runs are kept)`,
    );
  db.run('DELETE FROM eval_query_results WHERE run_id = ?', [runId]);
  db.run('DELETE FROM eval_runs WHERE run_id = ?', [runId]);
}

/**
 * The most bytes of one imported text file read whole (a TREC run, a QA set, a fixture): V8's longest string is
 * 2^29 - 24 characters, so a larger file could not be decoded at all.
 */
export const MAX_IMPORT_TEXT_BYTES = 500 * 1024 * 1024;

/**
 * A text file read whole, or one message naming it: `PATH: cannot read (reason)`, or that it is no regular file
 * (a FIFO would block for ever) or is larger than MAX_IMPORT_TEXT_BYTES.
 */
export function readText(file: string, what = 'the file'): string {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, what, MAX_IMPORT_TEXT_BYTES);
  } catch (error) {
    throw cannotRead(file, error);
  }
  return bytes.toString('utf8');
}
