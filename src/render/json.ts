/** Deterministic JSON: sorted keys, finite numbers only. Used for every JSON we print or hash. */

export function round4(x: number): number {
  // toFixed rounds the exact binary value, as C's printf("%.4f") does in trec_eval.
  const r = Number(x.toFixed(4));
  return Object.is(r, -0) ? 0 : r;
}

function sortKeys(value: unknown, round: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return round ? round4(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => sortKeys(v, round));
  if (value instanceof Map) return sortKeys(Object.fromEntries(value), round);
  if (typeof value === 'object') {
    // No prototype: a key such as `__proto__` (a category, a tag, a stage from the input) is a key like any other.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v, round);
    }
    return out;
  }
  return value;
}

/** Compact canonical JSON for hashing (no rounding). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, false));
}

/** The JSON we print: sorted keys, 4-decimal rounding, null for undefined or non-finite, 2-space indent. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value, true), null, 2)}\n`;
}
