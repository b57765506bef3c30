/**
 * The compare report for a terminal: plain text, verdict first and last, then the gates, the key metrics and the
 * worst regressions. No Markdown, no HTML entities; text from inputs has its control characters shown escaped so
 * each value stays on its line. Colour only when asked (the CLI asks on a TTY without NO_COLOR).
 */
import { codePointEscape } from '../inputText.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { ComparedRun } from '../compare/types.js';
import type { CompareReport, GateResult } from '../gate/types.js';
import { tradedGates } from '../gate/trades.js';
import { formatDelta, formatP, formatValue, plural } from '../numberFormat.js';
import {
  OPEN_QUERY_ROWS,
  adviceSentence,
  ageBetween,
  changedDenominators,
  commitSourceText,
  detectableText,
  gateResultWords,
  unjudgedNote,
  verdictWord,
  whereText,
  gateChangeText,
  gateDeltaText,
  gateTally,
  gatesToName,
  intervalLevel,
  intervalText,
  keyMetrics,
  perQueryTally,
  rankText,
  regressionsBySeverity,
  regressionsHeading,
  unitOf,
  chunkMatchSummary,
  sliceVerdictText,
  tradedText,
  untradedClause,
  tradeVerdictText,
} from './reportParts.js';

import { configText } from './reportContext.js';
import { reportWarnings } from './reportWarnings.js';
import { noiseFloorLine } from './calibrationReport.js';
import type { ReportContext } from './reportContext.js';
import { reportWarningText, verdictCaveatText } from './warningText.js';
import { flakySetAsideText, flakyTextLines, repeatsTextLines } from './repeatsText.js';

// As oneLine's: controls, every default-ignorable code point (tag characters and Hangul fillers too), lone surrogates.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u180e\u2028\u2029\p{Default_Ignorable_Code_Point}\ud800-\udfff]/gu;

/** Untrusted text on one line: controls, zero-width and bidi characters as \u escapes, capped at `max`. */
export function plainText(text: string | null, max = 60): string {
  if (text === null) return '—';
  const s = String(text).replace(CONTROL, codePointEscape);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

const COLOURS = { red: 31, green: 32, yellow: 33, blue: 34, bold: 1, dim: 2 } as const;
type Colour = keyof typeof COLOURS;

function painter(enabled: boolean): (text: string, colour: Colour) => string {
  return (text, colour) => (enabled ? `\u001b[${COLOURS[colour]}m${text}\u001b[0m` : text);
}

/** Columns padded to their widest cell; numbers (columns in `right`) aligned right. */
function columns(rows: string[][], right: Set<number>): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  return rows.map((r) =>
    `  ${r
      .map((c, i) => {
        const pad = ' '.repeat(widths[i] - [...c].length);
        return right.has(i) ? pad + c : c + pad;
      })
      .join('  ')}`.trimEnd(),
  );
}

function verdictLine(report: CompareReport, context: ReportContext, byId: Map<string, MetricDef>): string {
  const tally = gateTally(report);
  const word = verdictWord(report).toUpperCase().replace('WITH WARNINGS', 'with warnings');
  const flaky = flakySetAsideText(report);
  const caveat = verdictCaveatText(context, { code: (x) => x, commit: (x) => x, input: (x) => plainText(x, 60) });
  const slice = sliceVerdictText(report, byId, (x) => plainText(x, 60));
  const traded = tradeVerdictText(report, byId, (x) => plainText(x, 60));
  return `EvalVerdict: ${word} — ${tally}${slice ? ` · ${slice}` : ''}${traded ? ` · ${traded}` : ''}${flaky ? ` · ${flaky}` : ''}${caveat ? ` · ${caveat}` : ''}`;
}

function gateLabel(g: GateResult): string {
  const where = whereText(g.where, (pairs) => plainText(pairs, 60));
  return `${plainText(g.metric, 60)}${where}${g.level === 'warn' ? ' (warn)' : ''}`;
}

type Paint = (text: string, colour: Colour) => string;

export function renderReportText(
  report: CompareReport,
  defs: MetricDef[],
  colour = false,
  context: ReportContext = {},
): string {
  const paint = painter(colour);
  const byId = new Map(defs.map((d) => [d.id, d]));
  const word = verdictWord(report);
  const verdictColour: Colour =
    report.verdict === 'fail'
      ? 'red'
      : word === 'pass'
        ? 'green'
        : word === 'pass, inconclusive accepted'
          ? 'blue'
          : 'yellow';
  const verdict = paint(paint(verdictLine(report, context, byId), 'bold'), verdictColour);
  const advice = adviceSentence(report);
  // The advice goes under the first verdict line only: the last line is the verdict alone.
  const lines = advice ? [verdict, `  ${advice}`] : [verdict];
  for (const g of gatesToName(report)) {
    const value = gateChangeText(g, report, byId);
    const mark =
      g.result === 'inconclusive'
        ? paint('?', 'yellow')
        : g.effect === 'fail'
          ? paint('✗', 'red')
          : paint('!', 'yellow');
    const why =
      g.result === 'no_data'
        ? ` — ${plainText(g.note.split(';')[0], 160)}`
        : g.result === 'inconclusive'
          ? ` — inconclusive, ${detectableText(g, unitOf(g.metric, byId))}`
          : '';
    lines.push(
      `  ${mark} ${gateLabel(g)} ${value}; allowed: ${g.threshold}${why}${untradedClause(g, report.alpha, unitOf(g.metric, byId))}`,
    );
    if (g.failing_queries?.length) {
      const ids = g.failing_queries.slice(0, 10).map((id) => plainText(id, 40));
      const count = g.failing_count ?? g.failing_queries.length;
      lines.push(
        `    failed by ${count} ${count === 1 ? 'query' : 'queries'}: ${ids.join(', ')}${count > ids.length ? ', …' : ''}`,
      );
    }
  }
  // A pass a trade bought: the larger drop and what bought it.
  for (const g of tradedGates(report.gates))
    lines.push(
      `  = ${gateLabel(g)} ${gateChangeText(g, report, byId)}; allowed: ${g.threshold} — ${tradedText(g, report.alpha)}`,
    );
  lines.push(
    ...runLines(report, context, paint),
    ...gateTableLines(report, byId, paint),
    ...keyMetricLines(report, byId),
    ...perQueryLines(report),
    ...flakyTextLines(report, plainText),
    '',
    'Everything else (wins, answer changes, all metrics, breakdowns): --markdown-full FILE or --json FILE.',
    '',
    verdict,
  );
  return `${lines.join('\n')}\n`;
}

/** Which runs, on which golden set and config; every warning of the report; settings that differ. */
function runLines(report: CompareReport, context: ReportContext, paint: Paint): string[] {
  const { baseline: b, candidate: c, golden } = report;
  const age = b === null ? null : ageBetween(b.created_at, c.created_at);
  // A commit the database does not record says where it came from (the workflow context).
  const from = (side: 'baseline' | 'candidate', run: ComparedRun) => {
    const text = commitSourceText(side, run.commit_source);
    return text ? `${text}; ` : '';
  };
  const lines = [
    '',
    `candidate ${plainText(c.run_id)} at ${plainText(c.commit_hash?.slice(0, 12) ?? null)} (${from('candidate', c)}${plainText(c.created_at, 30)})`,
    b === null
      ? 'no baseline: a candidate-only report, gated on min and max thresholds only'
      : `baseline  ${plainText(b.run_id)} at ${plainText(b.commit_hash?.slice(0, 12) ?? null)} (${from('baseline', b)}${plainText(b.created_at, 30)}${age && !age.negative && !age.text.startsWith('0 ') ? `, ${age.text} older` : ''})`,
    `golden set ${golden.fingerprint.slice(0, 19)}, ${plural(golden.queries, 'query', 'queries')}; chunk match ${report.chunker_version_match}${report.chunk_match_queries ? ` (${chunkMatchSummary(report)})` : ''}`,
  ];
  lines.push(...repeatsTextLines(report, plainText));
  if (context.config) lines.push(`config    ${plainText(configText(context.config), 200)}`);
  if (context.config?.noise)
    lines.push(
      noiseFloorLine(
        context.config.noise,
        (x) => plainText(x, 60),
        (x) => plainText(x, 40),
      ),
    );
  // The comment's warnings, every one (the run id a warning may quote kept on one line).
  for (const w of reportWarnings(report, context))
    lines.push(paint(`warning: ${plainText(reportWarningText(w), 400)}`, 'yellow'));
  if (report.differences.length)
    lines.push(`settings that differ: ${report.differences.map((d) => plainText(d, 40)).join(', ')}`);
  return lines;
}

function gateTableLines(report: CompareReport, byId: Map<string, MetricDef>, paint: Paint): string[] {
  if (report.gates.length === 0) return [];
  const rows = [['gate', 'baseline', 'candidate', 'delta', 'allowed', 'result', 'detectable']];
  for (const g of report.gates) {
    const unit = unitOf(g.metric, byId);
    rows.push([
      gateLabel(g),
      formatValue(g.baseline, unit),
      formatValue(g.candidate, unit),
      gateDeltaText(g, unit, report.alpha),
      g.threshold,
      gateResultWords(g),
      detectableText(g, unit),
    ]);
  }
  const table = columns(rows, new Set([1, 2, 3]));
  const lines = ['', 'Gates', table[0], ...table.slice(1).map((l, i) => paintResult(l, report.gates[i], paint))];
  const unjudged = unjudgedNote(report);
  if (unjudged) lines.push(`warning: ${unjudged}`);
  return lines;
}

function keyMetricLines(report: CompareReport, byId: Map<string, MetricDef>): string[] {
  const ids = keyMetrics(report);
  if (ids.length === 0) return [];
  const b = report.baseline;
  const level = intervalLevel(report.alpha);
  const rows = [['metric', 'baseline', 'candidate', 'delta', `${level} CI`, 'p']];
  if (b === null) rows[0] = ['metric', 'candidate', 'n'];
  for (const id of ids) {
    if (b === null) {
      const m = report.metrics[id];
      rows.push([plainText(id), formatValue(m.candidate, byId.get(id)?.unit), String(m.n)]);
      continue;
    }
    const m = report.metrics[id];
    const unit = byId.get(id)?.unit;
    rows.push([
      plainText(id),
      formatValue(m.baseline, unit),
      formatValue(m.candidate, unit),
      `${formatDelta(m.delta, unit)}${m.significant ? ' *' : ''}`,
      intervalText(m.ci, unit),
      formatP(m.p_value, report.alpha),
    ]);
  }
  const denominators =
    b === null ? [] : changedDenominators(report, ids).map(([id, m]) => `${id} ${m.n_baseline} → ${m.n}`);
  const lines = [
    '',
    'Key metrics',
    ...columns(rows, new Set([1, 2, 3, 4, 5])),
    ...(b === null
      ? []
      : [
          `  * significant at α ${report.alpha} (two-sided paired sign-flip test, the interval read off it; the gates' bounds are their own)`,
        ]),
  ];
  if (denominators.length) lines.push(`  denominators differ: ${denominators.join(', ')}`);
  return lines;
}

/** The per-query tally and the worst regressions. */
function perQueryLines(report: CompareReport): string[] {
  const { golden } = report;
  const worst = regressionsBySeverity(report.per_query);
  const shown = worst.slice(0, OPEN_QUERY_ROWS);
  const lines: string[] = [];
  if (report.baseline !== null) lines.push('', `Per query: ${perQueryTally(report)}`);
  if (shown.length === 0) return lines;
  const missingIn = { baseline: new Set(golden.added), candidate: new Set(golden.removed) };
  const rows = [['query', 'rank', `Δ ${report.per_query_metric}`, 'text']];
  for (const o of shown) {
    rows.push([
      plainText(o.query_id, 30),
      `${rankText(o.baseline_rank, missingIn.baseline.has(o.query_id))} → ${rankText(o.candidate_rank, missingIn.candidate.has(o.query_id))}`,
      formatDelta(o.metric_delta),
      plainText(o.query, 50) + (o.answer_changes.length ? ` [${plainText(o.answer_changes.join('; '), 60)}]` : ''),
    ]);
  }
  lines.push(
    '',
    regressionsHeading(shown.length, worst.length, report.per_query_metric),
    ...columns(rows, new Set([2])),
  );
  return lines;
}

function paintResult(line: string, g: GateResult, paint: Paint): string {
  if (g.result === 'fail') return paint(line, 'red');
  if (g.result === 'warn' || g.result === 'inconclusive') return paint(line, 'yellow');
  return line;
}
