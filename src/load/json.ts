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

/** A JSON column's text parsed, or an InputError naming `where` (a file, table, row and column). */
export function parseJsonCell(text: SqlValue, where: string): unknown {
  if (typeof text !== 'string') {
    throw new InputError(`${where}: expected JSON text, got ${text === null ? 'NULL' : typeof text}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: malformed JSON (${(error as Error).message})`);
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new InputError(`${where}: JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  return value;
}

/**
 * How deep a JSON value EvalGate reads may nest. JSON.parse reads any depth, but what walks the value afterwards
 * (String() of an array, JSON.stringify) recurses, and 100,000 levels overflow the stack.
 */
export const MAX_JSON_DEPTH = 100;

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
