/**
 * Numbers as every stage prints them: rounded to 4 decimals on output only (as trec_eval prints), n/a for a null.
 * A leaf module: aggregate (kebab's JSON), gate (threshold text) and render all read it.
 */

export function round4(x: number): number {
  // toFixed rounds the exact binary value, as C's printf("%.4f") does in trec_eval.
  const r = Number(x.toFixed(4));
  return Object.is(r, -0) ? 0 : r;
}

/**
 * A p-value to 4 decimals as every output gives it: rounded, except where rounding would carry it across alpha
 * (0.04996 at alpha 0.05 is 0.0499, cut rather than rounded up to 0.0500), so a printed p never contradicts the mark
 * and the outcome beside it, which compare the exact p with alpha.
 */
export function shownP(p: number, alpha: number): number {
  let shown = round4(p);
  // One step of 0.0001 at a time, each rounded again: p * 1e4 itself can round up to the next whole number.
  while (p < alpha && shown >= alpha) shown = round4(shown - 1e-4);
  while (p >= alpha && shown < alpha) shown = round4(shown + 1e-4);
  return shown;
}

/** A p-value as the reports print it: `shownP`, and `< 0.0001` below that. */
export function formatP(p: number | null | undefined, alpha: number): string {
  if (p === null || p === undefined) return '—';
  return p < 0.0001 ? '< 0.0001' : shownP(p, alpha).toFixed(4);
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

/**
 * A delta as formatDelta prints it, but never `±0` for a value that is not 0: more decimals (up to 10) until its
 * sign shows. For an interval's end, whose side of 0 is the test's answer (a gate's interval leaves 0 exactly when
 * its test is significant), so the printed interval and the outcome cannot disagree by rounding.
 */
export function formatDeltaKeepingSign(value: number | null | undefined, unit?: string): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0 || round4(value) !== 0)
    return formatDelta(value, unit);
  let decimals = 5;
  while (decimals < 10 && Number(Math.abs(value).toFixed(decimals)) === 0) decimals++;
  return `${value > 0 ? '+' : '−'}${Math.abs(value).toFixed(decimals)}`;
}

/** "1 query", "1,024 queries": a count with its noun. */
export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
