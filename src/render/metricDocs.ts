/** The metric reference table (docs/metrics.md and `evalverdict metrics`), generated from the metric table. */
import type { MetricDef } from '../aggregate/metrics/types.js';

export function renderMetricTableMarkdown(defs: MetricDef[]): string {
  const rows = ['| id | family | better | unit | definition | denominator |', '| --- | --- | --- | --- | --- | --- |'];
  for (const d of defs) {
    const better = d.direction === 'higher' ? 'higher' : d.direction === 'lower' ? 'lower' : '—';
    rows.push(
      `| \`${d.id}\` | ${d.family} | ${better} | ${d.unit} | ${trustedCell(d.definition)} | ${trustedCell(d.denominator)} |`,
    );
  }
  return `${rows.join('\n')}\n`;
}

/** Our own prose (not user data): only what would break the table or read as HTML. */
function trustedCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

/** `evalverdict metrics` on a terminal: one block per metric, the definition and its denominator in plain words. */
export function renderMetricTableText(defs: MetricDef[]): string {
  const width = Math.max(...defs.map((d) => d.id.length));
  const lines: string[] = [];
  for (const d of defs) {
    const better = d.direction === 'neutral' ? 'neutral' : `${d.direction} is better`;
    lines.push(`${d.id.padEnd(width)}  ${d.family}, ${d.unit}, ${better}`);
    lines.push(`${' '.repeat(width)}  ${d.definition}`);
    lines.push(`${' '.repeat(width)}  n: ${d.denominator}`);
  }
  return `${lines.join('\n')}\n`;
}
