/**
 * Numbers as every stage prints them: rounded to 4 decimals on output only (as trec_eval prints), n/a for a null.
 * A leaf module: aggregate (kebab's JSON), gate (threshold text) and render all read it.
 */

export function round4(x: number): number {
  // toFixed rounds the exact binary value, as C's printf("%.4f") does in trec_eval.
  const r = Number(x.toFixed(4));
  return Object.is(r, -0) ? 0 : r;
}

export function formatValue(value: number | null | undefined, unit?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  if (unit === 'count' || unit === 'tokens') return Number.isInteger(value) ? String(value) : round4(value).toFixed(4);
  if (unit === 'ms') return Number.isInteger(value) ? String(value) : round4(value).toFixed(1);
  return round4(value).toFixed(4);
}

export function formatDelta(value: number | null | undefined, unit?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = formatValue(Math.abs(value), unit);
  if (round4(value) === 0) return `±${formatValue(0, unit)}`;
  return `${value > 0 ? '+' : '−'}${text}`;
}
