/** Number formatting shared by the text and Markdown renderers: 4 decimals on output only, n/a for null. */
import { round4 } from './json.js';

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
