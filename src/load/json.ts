/** Small readers for untrusted JSON values: each returns a typed value or throws with a path for the message. */
import type { SqlValue } from 'sql.js';
import { InputError } from '../errors.js';

export type JsonObject = Record<string, unknown>;

export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optString(obj: JsonObject, key: string, path = key): string | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new FieldError(path, `\`${path}\` must be a string, got ${describe(v)}`);
}

export function optNumber(obj: JsonObject, key: string, path = key): number | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new FieldError(path, `\`${path}\` must be a finite number, got ${describe(v)}`);
}

export function optBoolean(obj: JsonObject, key: string, path = key): boolean | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v;
  throw new FieldError(path, `\`${path}\` must be true or false, got ${describe(v)}`);
}

export function optStringArray(obj: JsonObject, key: string, path = key): string[] | null {
  const v = obj[key];
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) throw new FieldError(path, `\`${path}\` must be a list of strings, got ${describe(v)}`);
  return v.map((item, i) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number') return String(item);
    throw new FieldError(`${path}[${i}]`, `\`${path}[${i}]\` must be a string, got ${describe(item)}`);
  });
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/**
 * A JSON column's text parsed, or an InputError naming `where` (a file, table, row and column). A text of
 * JSON_SCAN_FROM_CHARS or more is checked against JSON_VALUE_BOUNDS before it is parsed (`boundsChecked`: the caller
 * has done so already); a shorter one's depth on the value, after.
 */
export function parseJsonCell(text: SqlValue, where: string, boundsChecked = false): unknown {
  if (typeof text !== 'string') {
    throw new InputError(`${where}: expected JSON text, got ${text === null ? 'NULL' : typeof text}`);
  }
  if (!boundsChecked) refuseJsonPastBounds(text, JSON_VALUE_BOUNDS, where, 'in one value');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: malformed JSON (${(error as Error).message})`);
  }
  refuseTooDeepValue(text, value, where);
  return value;
}

/**
 * After JSON.parse of `text`: its value refused when it nests deeper than MAX_JSON_DEPTH. A long text's depth was
 * checked on its characters before it was parsed (refuseJsonPastBounds), which for JSON is the value's.
 */
export function refuseTooDeepValue(text: string, value: unknown, where: string): void {
  if (text.length < JSON_SCAN_FROM_CHARS && nestedDeeperThan(value, MAX_JSON_DEPTH))
    throw new InputError(`${where}: JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
}

/**
 * How deep a JSON value EvalVerdict reads may nest. JSON.parse reads any depth, but what walks the value afterwards
 * (String() of an array, JSON.stringify) recurses, and 100,000 levels overflow the stack.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * What one JSON value EvalVerdict reads may hold: a run database's JSON cell (result_json, config_snapshot_json,
 * aggregate_json, the chunks' JSON columns) and a golden set's JSON Lines line (depth aside). JSON.parse builds all a
 * text holds before anything can be checked, and lists, objects and keys are what it builds dearly; the largest
 * results EvalVerdict scores stay under half of each bound (the figures: docs/run-database.md).
 */
export const JSON_VALUE_BOUNDS: JsonTextBounds = {
  depth: MAX_JSON_DEPTH,
  containers: 500_000,
  keys: 500_000,
  commas: 1_000_000,
};

/**
 * Texts shorter than this (in UTF-16 units) are not scanned for JSON_VALUE_BOUNDS: the scan costs more than the fast
 * result reader, and parsing a shorter text costs little whatever it holds (docs/run-database.md).
 */
export const JSON_SCAN_FROM_CHARS = 1 << 20;

/**
 * An InputError naming `where` when `text` (of JSON_SCAN_FROM_CHARS or more) passes one of `bounds`, found before it
 * is parsed; `scope` ends the message (`in one value`). Depth in the words of parseJsonCell's check.
 */
export function refuseJsonPastBounds(text: string, bounds: JsonTextBounds, where: string, scope: string): void {
  if (text.length < JSON_SCAN_FROM_CHARS) return;
  const past = jsonTextPast(text, bounds);
  if (past === null) return;
  const most = bounds[past].toLocaleString('en-US');
  if (past === 'depth') throw new InputError(`${where}: JSON nested more than ${most} levels deep`);
  const what = past === 'containers' ? 'lists and objects' : past === 'keys' ? 'object keys' : 'values';
  throw new InputError(`${where}: JSON holds more than ${most} ${what}, the most EvalVerdict reads ${scope}`);
}

/** Bounds on JSON text that jsonTextPast checks before the text is parsed. */
export interface JsonTextBounds {
  /** Levels of arrays and objects, the outermost 1 (nestedDeeperThan's depth). */
  depth: number;
  /** Arrays and objects in all. */
  containers: number;
  /** Members of objects in all (their colons). */
  keys: number;
  /** Commas between values and members in all: about the values in all. */
  commas: number;
}

/** The index of the quote that ends the string opened at `open` (the first not escaped by a backslash), or -1. */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let slashes = 0;
    while (end - slashes - 1 > open && text.charCodeAt(end - slashes - 1) === 0x5c /* \\ */) slashes++;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The first of `bounds` that JSON text passes, read from its characters before it is parsed; null when it passes
 * none. JSON.parse builds everything the text holds before the value can be checked: 32 MiB of `[` is 16 million
 * nested arrays. This scan counts brackets, braces, colons and commas outside strings and stops at the first bound
 * passed. For JSON text its depth is nestedDeeperThan's of the parsed value. Text that is not JSON may be refused
 * here for a bound rather than by JSON.parse; and JSON.parse never builds more than the scan counted, since it
 * stops at its first syntax error and reads strings as the scan does up to there.
 */
export function jsonTextPast(text: string, bounds: JsonTextBounds): keyof JsonTextBounds | null {
  let depth = 0;
  let containers = 0;
  let keys = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
      if (i === -1) return null; // a string without its end: JSON.parse says so
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > bounds.depth) return 'depth';
      if (++containers > bounds.containers) return 'containers';
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
    else if (c === 0x3a /* : */ && ++keys > bounds.keys) return 'keys';
    else if (c === 0x2c /* , */ && ++commas > bounds.commas) return 'commas';
  }
  return null;
}

/** Whether `value` nests arrays or objects more than `limit` levels deep, without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
