/** The readable table `evalgate aggregate` prints without --json. */
import type { AggregateReport } from '../aggregate/aggregate.js';
import type { MetricDef } from '../aggregate/metrics.js';
import { formatValue } from '../format.js';
import { escapeMarkdownCell } from './escape.js';
import { metricCode } from './markdown.js';
import { plainText } from './text.js';

function pad(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function renderAggregateText(report: AggregateReport, defs: MetricDef[]): string {
  const r = report.run;
  const lines = [
    `run ${plainText(r.run_id)} (suite ${plainText(r.suite)}, created ${plainText(r.created_at, 30)}${r.commit_hash ? `, commit ${plainText(r.commit_hash.slice(0, 12))}` : ''})`,
    `chunker ${plainText(r.chunker_version ?? 'n/a')} · embedding ${plainText(r.embedding_model ?? 'n/a')} · index ${plainText(r.index_version ?? 'n/a')}`,
    `golden ${report.golden.fingerprint.slice(0, 19)} · ${report.golden.queries} queries scored, ${report.golden.pending} pending`,
  ];
  if (report.unknown_query_ids.length > 0)
    lines.push(`${report.unknown_query_ids.length} result(s) for queries not in the golden set were ignored`);
  if (report.duplicate_query_ids.length > 0)
    lines.push(
      `${report.duplicate_query_ids.length} quer${report.duplicate_query_ids.length === 1 ? 'y has' : 'ies have'} more than one result row: only the last one read is scored`,
    );
  let family = '';
  let rows: string[][] = [];
  const flush = () => {
    if (rows.length > 1) lines.push('', pad(rows));
  };
  for (const def of defs) {
    if (def.family !== family) {
      flush();
      family = def.family;
      rows = [[family, 'value', 'n']];
    }
    const m = report.metrics[def.id];
    rows.push([`  ${plainText(def.id)}`, formatValue(m?.value, def.unit), String(m?.n ?? 0)]);
  }
  flush();
  lines.push(
    '',
    "Percentiles are nearest-rank. n is each metric's denominator; n/a means it was 0. Breakdowns: --json.",
  );
  return `${lines.join('\n')}\n`;
}

/** `aggregate --format markdown`: every metric of the run as one GFM table (ids from a run database escaped). */
export function renderAggregateMarkdown(report: AggregateReport, defs: MetricDef[]): string {
  const r = report.run;
  const lines = [
    `**Run** ${escapeMarkdownCell(r.run_id, 80)} (suite ${escapeMarkdownCell(r.suite, 60)}, created ${escapeMarkdownCell(r.created_at, 30)}) · golden set \`${report.golden.fingerprint.slice(0, 19)}\`, ${report.golden.queries} queries scored, ${report.golden.pending} pending`,
    '',
    '| family | metric | value | n |',
    '| --- | --- | ---: | ---: |',
    ...defs.map((def) => {
      const m = report.metrics[def.id];
      return `| ${def.family} | ${metricCode(def.id)} | ${formatValue(m?.value, def.unit)} | ${m?.n ?? 0} |`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
