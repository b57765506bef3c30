/** `evalverdict aggregate --per-query`: one run's per-query rows as text, Markdown, CSV (the JSON is stableJson's). */
import { PER_QUERY_COLUMNS } from '../aggregate/perQuery.js';
import type { PerQueryReport, PerQueryRow } from '../aggregate/perQuery.js';
import { formatValue, round4 } from '../numberFormat.js';
import { escapeMarkdownCell } from './escape.js';
import { plainText } from './text.js';

type Column = (typeof PER_QUERY_COLUMNS)[number];

/** Columns whose text comes from the inputs (escaped, and in CSV guarded against formulas). */
const INPUT_TEXT = new Set<Column>(['query_id', 'query', 'top_hit']);

/** A cell for the text and Markdown tables, before escaping: n/a for null, yes/no for booleans. */
function shown(row: PerQueryRow, column: Column): string {
  const v = row[column];
  if (v === null) return 'n/a';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number')
    return column === 'reciprocal_rank' || column === 'top_hit_score' ? formatValue(v) : String(v);
  return v;
}

function summaryLine(report: PerQueryReport): string {
  const { golden } = report;
  return `${golden.queries + golden.pending} queries (${golden.pending} pending), golden set ${golden.fingerprint.slice(0, 19)}`;
}

/** Right-aligned: the numeric columns. */
const NUMERIC = new Set<Column>([
  'first_relevant_rank',
  'hits_returned',
  'top_hit_score',
  'reciprocal_rank',
  'hallucination_count',
]);

export function renderPerQueryText(report: PerQueryReport): string {
  const rows = [
    [...PER_QUERY_COLUMNS],
    ...report.rows.map((row) =>
      PER_QUERY_COLUMNS.map((c) => {
        const text = shown(row, c);
        return INPUT_TEXT.has(c) ? plainText(text, c === 'query' ? 40 : 60) : text;
      }),
    ),
  ];
  const widths = PER_QUERY_COLUMNS.map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => {
        const pad = ' '.repeat(widths[i] - [...cell].length);
        return NUMERIC.has(PER_QUERY_COLUMNS[i]) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
  return `run ${plainText(report.run.run_id)}: ${summaryLine(report)}\n\n${lines.join('\n')}\n`;
}

export function renderPerQueryMarkdown(report: PerQueryReport): string {
  const header = `| ${PER_QUERY_COLUMNS.join(' | ')} |`;
  const align = `| ${PER_QUERY_COLUMNS.map((c) => (NUMERIC.has(c) ? '---:' : '---')).join(' | ')} |`;
  const body = report.rows.map(
    (row) =>
      `| ${PER_QUERY_COLUMNS.map((c) => {
        const text = shown(row, c);
        return INPUT_TEXT.has(c) ? escapeMarkdownCell(text, c === 'query' ? 80 : 160) : text;
      }).join(' | ')} |`,
  );
  return `**Run** ${escapeMarkdownCell(report.run.run_id, 80)}: ${summaryLine(report)}\n\n${[header, align, ...body].join('\n')}\n`;
}

/**
 * A cell of input text as a spreadsheet must not read it: one starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return would be a formula in Excel, LibreOffice or Google Sheets, so it gets a leading `'` (OWASP's advice), which
 * those show as text.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, a double quote, CR or LF is quoted, its double quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV with a header row and CRLF line ends; null is an empty field, booleans true/false, numbers as in the
 * JSON (4 decimals at most). Input text (query_id, query, top_hit) is guarded against formulas (neutraliseFormula).
 */
export function renderPerQueryCsv(report: PerQueryReport): string {
  const cell = (row: PerQueryRow, c: Column): string => {
    const v = row[c];
    if (v === null) return '';
    if (typeof v === 'number') return String(round4(v));
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    return csvField(INPUT_TEXT.has(c) ? neutraliseFormula(v) : v);
  };
  const lines = [
    PER_QUERY_COLUMNS.join(','),
    ...report.rows.map((row) => PER_QUERY_COLUMNS.map((c) => cell(row, c)).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
