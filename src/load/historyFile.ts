/**
 * Reading a history file (docs/history.md) as untrusted input, like a run database: it comes from an artifact any
 * earlier main run wrote. Size capped before it is read, nesting and the count of values checked on its text before
 * it is parsed, every field's type and size checked, the schema version required; nothing in it is run. A problem is
 * one InputError naming the file and the field.
 */
import { cannotRead, InputError, isInputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { describe, isObject, jsonTextPast } from './json.js';
import type { JsonObject, JsonTextBounds } from './json.js';
import { readRegularFile, sizeText } from './regularFile.js';

export const HISTORY_SCHEMA_VERSION = 1;
/** Runs kept when the file does not say (`max_runs`). */
export const DEFAULT_HISTORY_RUNS = 20;
/** The most runs a history may keep: the change-point test enumerates C(n, 3) splits, 19,600 at 50. */
export const MAX_HISTORY_RUNS = 50;

/** One query's outcome in one run: `h` a relevant hit was retrieved, `m` none was, `-` not known for that run. */
export type QueryMark = 'h' | 'm' | '-';

export interface HistoryRun {
  run_id: string;
  commit: string | null;
  /** The run's `created_at`. */
  time: string;
  /** The golden set's fingerprint: outcomes and values compare only within one golden set. */
  golden: string;
  /** The whole-set gated metrics' values (null: no value in that run). */
  metrics: Record<string, number | null>;
  /** One QueryMark per entry of the history's `queries`, in the same order. */
  outcomes: string;
}

export interface History {
  schema_version: typeof HISTORY_SCHEMA_VERSION;
  max_runs: number;
  /** The query ids the outcomes are of: the newest run's golden queries. */
  queries: string[];
  /** Oldest first. */
  runs: HistoryRun[];
}

/** The most bytes of a history file: 50 runs of 100,000 queries' outcomes and ids fit in about 8 MiB. */
export const MAX_HISTORY_BYTES = 32 << 20;
/** A history nests 4 levels (file, runs, run, metrics): anything deeper is not one. */
const MAX_HISTORY_DEPTH = 4;
const MAX_QUERIES = 1_000_000;
const MAX_METRICS = 200;
const MAX_TEXT = 1_000;
/**
 * The text's bounds, checked before it is parsed (jsonTextPast), since JSON.parse builds whatever 32 MiB hold. A
 * history EvalVerdict writes has 3 + 2 x runs lists and objects (103 at most), 4 + runs x (6 + metrics) keys (10,304 at
 * most), and fewer commas than its queries and keys; the bounds leave room to spare.
 */
const HISTORY_TEXT_BOUNDS: JsonTextBounds = {
  depth: MAX_HISTORY_DEPTH,
  containers: 1_000,
  keys: 20_000,
  commas: MAX_QUERIES + 100_000,
};

class HistoryShapeError extends Error {}

function fail(field: string, expected: string, value: unknown): never {
  throw new HistoryShapeError(`\`${field}\` must be ${expected}, got ${describe(value)}`);
}

function text(obj: JsonObject, key: string, at: string, nullable = false): string | null {
  const v = obj[key];
  if (nullable && (v === null || v === undefined)) return null;
  if (typeof v !== 'string' || v.length > MAX_TEXT)
    fail(`${at}${key}`, `a string of at most ${MAX_TEXT} characters`, v);
  return v;
}

function metricsOf(value: unknown, at: string): Record<string, number | null> {
  if (!isObject(value)) fail(at, 'an object of metric values', value);
  const entries = Object.entries(value);
  if (entries.length > MAX_METRICS) fail(at, `at most ${MAX_METRICS} metrics`, `${entries.length} of them`);
  for (const [id, v] of entries) {
    if (id.length > MAX_TEXT) fail(`${at} key`, `at most ${MAX_TEXT} characters`, id);
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v)))
      fail(`${at}.${oneLine(id).slice(0, 80)}`, 'a finite number or null', v);
  }
  return Object.fromEntries(entries) as Record<string, number | null>;
}

function runOf(value: unknown, i: number, queries: number): HistoryRun {
  const at = `runs[${i}]`;
  if (!isObject(value)) fail(at, 'an object', value);
  const outcomes = value.outcomes;
  if (typeof outcomes !== 'string' || outcomes.length !== queries || !/^[hm-]*$/.test(outcomes))
    fail(`${at}.outcomes`, `a string of ${queries} characters h, m or - (one per query)`, outcomes);
  return {
    run_id: text(value, 'run_id', `${at}.`)!,
    commit: text(value, 'commit', `${at}.`, true),
    time: text(value, 'time', `${at}.`)!,
    golden: text(value, 'golden', `${at}.`)!,
    metrics: metricsOf(value.metrics, `${at}.metrics`),
    outcomes,
  };
}

function historyOf(value: unknown): History {
  if (!isObject(value)) fail('(the file)', 'a JSON object', value);
  if (value.schema_version !== HISTORY_SCHEMA_VERSION)
    throw new HistoryShapeError(
      `schema_version ${describe(value.schema_version)} is not ${HISTORY_SCHEMA_VERSION}, the version this EvalVerdict reads`,
    );
  const maxRuns = value.max_runs;
  if (typeof maxRuns !== 'number' || !Number.isInteger(maxRuns) || maxRuns < 1 || maxRuns > MAX_HISTORY_RUNS)
    fail('max_runs', `a whole number from 1 to ${MAX_HISTORY_RUNS}`, maxRuns);
  const queries = value.queries;
  if (!Array.isArray(queries) || queries.length > MAX_QUERIES)
    fail('queries', `a list of at most ${MAX_QUERIES} query ids`, queries);
  queries.forEach((q, i) => {
    if (typeof q !== 'string' || q.length > MAX_TEXT) fail(`queries[${i}]`, 'a query id', q);
  });
  const runs = value.runs;
  if (!Array.isArray(runs) || runs.length > maxRuns) fail('runs', `a list of at most max_runs (${maxRuns}) runs`, runs);
  return {
    schema_version: HISTORY_SCHEMA_VERSION,
    max_runs: maxRuns,
    queries: queries as string[],
    runs: runs.map((r, i) => runOf(r, i, queries.length)),
  };
}

/** An InputError when the text passes a bound of HISTORY_TEXT_BOUNDS: at its first bracket too deep, at once. */
function refuseOverBounds(text: string, where: string): void {
  const past = jsonTextPast(text, HISTORY_TEXT_BOUNDS);
  if (past === 'depth')
    throw new InputError(
      `${where}: the history nests deeper than ${MAX_HISTORY_DEPTH} levels, which no history file does`,
    );
  if (past === 'containers')
    throw new InputError(
      `${where}: the history holds more than ${HISTORY_TEXT_BOUNDS.containers} lists and objects, which no history file does`,
    );
  if (past === 'keys')
    throw new InputError(
      `${where}: the history's objects hold more than ${HISTORY_TEXT_BOUNDS.keys} keys, which no history file does`,
    );
  if (past === 'commas')
    throw new InputError(
      `${where}: the history holds more than ${HISTORY_TEXT_BOUNDS.commas} values, which no history file does`,
    );
}

/** A history from its text; `where` (the file, or the artifact entry) starts every message. */
export function parseHistory(bytes: Buffer | string, where: string): History {
  const size = Buffer.isBuffer(bytes) ? bytes.length : Buffer.byteLength(bytes);
  if (size > MAX_HISTORY_BYTES)
    throw new InputError(
      `${where}: the history is ${sizeText(size)}, more than the ${sizeText(MAX_HISTORY_BYTES)} EvalVerdict reads`,
    );
  const text = Buffer.isBuffer(bytes) ? bytes.toString('utf8') : bytes;
  refuseOverBounds(text, where);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: the history is not JSON (${oneLine((error as Error).message).slice(0, 200)})`);
  }
  try {
    return historyOf(value);
  } catch (error) {
    if (error instanceof HistoryShapeError)
      throw new InputError(`${where}: not an EvalVerdict history: ${error.message}`);
    throw error;
  }
}

/** The history file at `path`, read as a regular file of at most MAX_HISTORY_BYTES, then parseHistory. */
export function readHistoryFile(path: string): History {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, 'the history file', MAX_HISTORY_BYTES);
  } catch (error) {
    if (isInputError(error)) throw error;
    throw cannotRead(path, error, 'the history file');
  }
  return parseHistory(bytes, path);
}

/**
 * The limits schemas/history.schema.json states (`maxItems`, `maxProperties`, `maxLength`): the schema takes its
 * numbers from these (test/schemaAgreement.test.ts). A text's length is JavaScript's, in UTF-16 code units.
 */
export { MAX_METRICS as MAX_HISTORY_METRICS, MAX_QUERIES as MAX_HISTORY_QUERIES, MAX_TEXT as MAX_HISTORY_TEXT };
