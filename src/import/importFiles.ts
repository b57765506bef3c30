/**
 * What every import format shares: the output flags, checked before any work, and the run database and golden set
 * written together, or not at all. An `--out` that exists gets the runs added beside its runs (a run of the same id
 * only with --force), or, for a format that replaces it (TREC), is replaced only with --force; a golden set with
 * other content is replaced only with --force, or when the format lets it grow and it only grew.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import { cannotRead, InputError, isInputError } from '../errors.js';
import { formatGolden, goldenFormatOf, readGoldenDocument } from '../load/golden.js';
import { openRunDatabase } from '../load/runDatabase.js';
import { isObject } from '../load/json.js';
import { forEachLineOfFile } from '../load/lines.js';
import { readRegularFile } from '../load/regularFile.js';
import { checkReplaceable, isWalMode } from '../load/sideFiles.js';
import { refuseExisting, refuseOutputOverInput, refuseSameOutput, writeOutputFiles } from '../write/outputFiles.js';
import { createRunDatabase, insertRun } from '../write/writeRunDatabase.js';
import { RUN_TIME_FORM, runTime } from '../time.js';
import { stableJson } from '../stableJson.js';
import { requiredFlag, stringFlag } from './importFormat.js';
import type { FlagValues, ImportedGolden, ImportedRun, ImportFormat, ImportOutputs } from './importFormat.js';

/** The output flags checked before anything is read: no output over an input or another output, --force rules. */
export function importOutputs(values: FlagValues, format: ImportFormat): ImportOutputs {
  const out = requiredFlag(values, 'out');
  const goldenOut = stringFlag(values, 'golden-out');
  if (goldenOut === '') throw new InputError(`--golden-out: the path is empty\n${format.usage}`);
  const runId = stringFlag(values, 'run-id') ?? format.defaultRunId(values);
  if (runId.trim() === '') throw new InputError('--run-id: the run id is empty');
  const createdAt = stringFlag(values, 'created-at');
  if (createdAt !== undefined && runTime(createdAt) === null)
    throw new InputError(`--created-at: ${JSON.stringify(createdAt)} is not an RFC 3339 time (${RUN_TIME_FORM})`);
  const outputs: Array<[string, string | undefined]> = [
    ['--out', out],
    ['--golden-out', goldenOut],
  ];
  refuseSameOutput(outputs);
  refuseOutputOverInput(
    outputs,
    format.inputs.map(([flag, what]) => [what, requiredFlag(values, flag)]),
  );
  const force = values.force === true;
  if (format.replacesOut) {
    // Like init, such an import creates files: an existing one is replaced only when asked (checked before any work).
    if (!force)
      refuseExisting(
        goldenOut === undefined ? [out] : [out, goldenOut],
        'import replaces existing files only with --force',
      );
    return { out, goldenOut, force, runId, createdAt, outExists: false };
  }
  // A database that exists is written into: refused before any work when SQLite keeps changes beside it.
  const outExists = existsSync(out);
  if (outExists) checkReplaceable(out);
  return { out, goldenOut, force, runId, createdAt, outExists };
}

/**
 * Writes the runs into --out (new, or added to the one there) and the golden set into --golden-out: all or
 * nothing.
 */
export async function writeImport(
  o: ImportOutputs,
  runs: ImportedRun[],
  golden: ImportedGolden,
  goldenGrows = false,
): Promise<void> {
  const files: Array<[string, Uint8Array | string]> = [[o.out, await runDatabaseBytes(o, runs)]];
  if (o.goldenOut !== undefined) {
    const text = goldenText(golden, o.goldenOut);
    const exists = existsSync(o.goldenOut);
    const same = exists && sameText(o.goldenOut, text);
    if (exists && !same && !o.force && !(goldenGrows && onlyGrew(o.goldenOut, golden)))
      throw new InputError(
        `${o.goldenOut}: already exists with other content (import replaces an existing golden set only with --force; the same content is left as it is)`,
      );
    if (!same) files.push([o.goldenOut, text]);
  }
  writeOutputFiles(files);
}

/** The golden set as --golden-out's name says (JSON Lines or YAML). */
function goldenText(golden: ImportedGolden, file: string): string {
  const format = goldenFormatOf(file);
  if (format === 'jsonl' || !golden.yamlComment) return formatGolden(golden, format);
  return `# ${String(golden.header.description)}\n${formatGolden({ header: null, items: golden.items }, format)}`;
}

/** The golden set in `file` has the same header and each of its queries is among the new ones, unchanged. */
function onlyGrew(file: string, golden: ImportedGolden): boolean {
  try {
    const old = readGoldenDocument(file);
    if (stableJson(old.header) !== stableJson(golden.header)) return false;
    const fresh = new Map(golden.items.map((item) => [(item as { id?: unknown }).id, stableJson(item)]));
    return old.items.every((item) => fresh.get((item as { id?: unknown }).id) === stableJson(item));
  } catch (error) {
    if (isInputError(error)) return false;
    throw error;
  }
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
      `${out}: not a run database to add a run to (${(error as Error).message}); name a new file, or create one with evalverdict init`,
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

/** Thrown to stop a line read at the first line that says what the file is. */
const SEEN = Symbol('seen');

/**
 * Detects which of a system's two result shapes `file` is: JSON Lines (one object per line), or one JSON document
 * (an object with `documentKey`: ckv's Result, PaperBot's report), told apart by the first non-blank line: a
 * document's is `{` alone (pretty printed) or the whole object holding `documentKey`. Reads that line only.
 */
export function resultsShape(file: string, documentKey: string): 'lines' | 'document' {
  let shape: 'lines' | 'document' = 'lines';
  try {
    forEachLineOfFile(file, (text) => {
      const line = text.trim();
      if (line === '') return;
      if (line === '{') shape = 'document';
      else {
        try {
          const value = JSON.parse(line);
          if (isObject(value) && documentKey in value) shape = 'document';
        } catch {
          // not one line of JSON: read as lines, which names the line
        }
      }
      throw SEEN;
    });
  } catch (error) {
    if (error !== SEEN) throw error;
  }
  return shape;
}

/** A JSON document read whole (ckv's Result, PaperBot's report): its value, or one message naming the file. */
export function readJsonDocument(file: string, what: string): unknown {
  const text = readText(file, what);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}
