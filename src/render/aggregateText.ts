/** The readable table `evalverdict aggregate` prints without --json. */
import type { AggregateReport } from '../aggregate/aggregate.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { SideBySideReport } from '../aggregate/sideBySide.js';
import { formatValue } from '../numberFormat.js';
import { escapeMarkdownCell } from './escape.js';
import { metricCode } from './escape.js';
import { CAPS_TEXT } from '../aggregate/score.js';
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
  const capped = report.capped_query_ids?.length ?? 0;
  if (capped > 0)
    lines.push(
      `${capped} quer${capped === 1 ? 'y has' : 'ies have'} more than ${CAPS_TEXT}: only the first by rank (citations: in order) are scored`,
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

const BEST_NOTE =
  'best of the runs: the highest value of a higher-is-better metric, the lowest of a lower-is-better one (evalverdict metrics lists which); values equal to 4 decimals tie and are all marked; n/a is never best; counts without a direction are not marked.';

/** `aggregate --run a,b,c` as text: a column per run, `*` after each best value (see bestRuns). */
export function renderSideBySideText(report: SideBySideReport, defs: MetricDef[]): string {
  const ids = report.runs.map((r) => plainText(r.run_id, 30));
  const lines = [
    `runs ${ids.join(', ')} (suite ${[...new Set(report.runs.map((r) => plainText(r.suite)))].join(', ')})`,
    `golden ${report.golden.fingerprint.slice(0, 19)} · ${report.golden.queries} queries scored, ${report.golden.pending} pending`,
  ];
  let family = '';
  let rows: string[][] = [];
  const flush = () => {
    if (rows.length > 1) lines.push('', pad(rows));
  };
  for (const def of defs) {
    const m = report.metrics[def.id];
    if (def.family !== family) {
      flush();
      family = def.family;
      rows = [[family, ...ids.map((id) => `${id} `)]];
    }
    rows.push([
      `  ${plainText(def.id)}`,
      ...m.values.map((v, i) => `${formatValue(v, def.unit)}${m.best.includes(report.runs[i].run_id) ? '*' : ' '}`),
    ]);
  }
  flush();
  lines.push('', `* ${BEST_NOTE} n per run: --format json.`);
  return `${lines.join('\n')}\n`;
}

/** `aggregate --run a,b,c --format markdown`: one GFM table, a column per run, the best values in bold. */
export function renderSideBySideMarkdown(report: SideBySideReport, defs: MetricDef[]): string {
  const ids = report.runs.map((r) => escapeMarkdownCell(r.run_id, 40));
  const lines = [
    `**Runs** ${ids.join(', ')} · golden set \`${report.golden.fingerprint.slice(0, 19)}\`, ${report.golden.queries} queries scored, ${report.golden.pending} pending`,
    '',
    `| family | metric | ${ids.join(' | ')} |`,
    `| --- | --- | ${ids.map(() => '---:').join(' | ')} |`,
    ...defs.map((def) => {
      const m = report.metrics[def.id];
      const cells = m.values.map((v, i) => {
        const text = formatValue(v, def.unit);
        return m.best.includes(report.runs[i].run_id) ? `**${text}**` : text;
      });
      return `| ${def.family} | ${metricCode(def.id)} | ${cells.join(' | ')} |`;
    }),
    '',
    `**Bold**: ${BEST_NOTE}`,
  ];
  return `${lines.join('\n')}\n`;
}
