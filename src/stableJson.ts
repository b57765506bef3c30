/** Deterministic JSON: sorted keys, finite numbers only. Used for every JSON we print or hash. */
import { round4 } from './numberFormat.js';

/**
 * A key a JavaScript object lists before all others, in numeric order (an array index: "0" to "4294967294" without
 * leading zeros). JSON.stringify writes an object's keys in that order, so an object holding one (a category "2024",
 * a tag "10") cannot be written sorted by JSON.stringify.
 */
function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39 || key.length > 10) return false;
  if (key === '0') return true;
  return c !== 0x30 && /^\d+$/.test(key) && Number(key) < 4294967295;
}

interface Normalized {
  round: boolean;
  /** Whether some object has an array-index key (then JSON.stringify would not keep the keys sorted). */
  indexKeys: boolean;
}

function normalize(value: unknown, n: Normalized): unknown {
  // As JSON.stringify: an object's toJSON (a Date) gives its value, and a boxed primitive is its primitive.
  if (typeof value === 'object' && value !== null) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
      value = (value as { toJSON: () => unknown }).toJSON();
    if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  }
  // What JSON has no value for (undefined, a function, a symbol) is null in a list and left out of an object.
  if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return n.round ? round4(value) : value;
  }
  // Array.from, not map: a hole in a sparse list is undefined, so null, as JSON.stringify writes it.
  if (Array.isArray(value)) return Array.from(value, (v) => normalize(v, n));
  if (value instanceof Map) return normalize(Object.fromEntries(value), n);
  if (typeof value === 'object') {
    // No prototype: a key such as `__proto__` (a category, a tag, a stage from the input) is a key like any other.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      if (!n.indexKeys && isArrayIndex(key)) n.indexKeys = true;
      out[key] = normalize(v, n);
    }
    return out;
  }
  return value;
}

/**
 * `value` (normalized) as JSON.stringify(value, null, indent ? 2 : 0) writes it, but every object's keys in text
 * order (UTF-16 code units, as Array#sort orders strings), array-index keys included. `at` is the line break and
 * indentation of the current depth ('' for compact output).
 */
function writeSorted(value: unknown, at: string, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value));
    return;
  }
  const inner = at === '' ? '' : `${at}  `;
  const colon = at === '' ? ':' : ': ';
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      out.push(i === 0 ? inner : `,${inner}`);
      writeSorted(value[i], inner, out);
    }
    out.push(`${at}]`);
    return;
  }
  const keys = Object.keys(value).sort();
  if (keys.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  for (let i = 0; i < keys.length; i++) {
    out.push(i === 0 ? inner : `,${inner}`, JSON.stringify(keys[i]), colon);
    writeSorted((value as Record<string, unknown>)[keys[i]], inner, out);
  }
  out.push(`${at}}`);
}

/**
 * The JSON text of `value` with sorted keys; `pretty`: indented by two spaces. JSON.stringify writes it when no
 * object has an array-index key (the usual case, and the fastest), writeSorted otherwise.
 */
function sortedJson(value: unknown, round: boolean, pretty: boolean): string {
  const n: Normalized = { round, indexKeys: false };
  const normalized = normalize(value, n);
  if (!n.indexKeys) return pretty ? JSON.stringify(normalized, null, 2) : JSON.stringify(normalized);
  const out: string[] = [];
  writeSorted(normalized, pretty ? '\n' : '', out);
  return out.join('');
}

/** Compact canonical JSON for hashing (no rounding). */
export function canonicalJson(value: unknown): string {
  return sortedJson(value, false, false);
}

/** The JSON we print: sorted keys, 4-decimal rounding, null for undefined or non-finite, 2-space indent. */
export function stableJson(value: unknown): string {
  return `${sortedJson(value, true, true)}\n`;
}

/** stableJson's JSON without the indentation and the final line break (one line, for outputs and logs). */
export function compactStableJson(value: unknown): string {
  return sortedJson(value, true, false);
}
