/**
 * renderReportMarkdown: the compare report as one GitHub-flavoured Markdown document, deterministic byte
 * for byte. Every value that came from a run database or golden set goes through escape.ts. When the
 * document would pass `maxLength`, the longest cuttable sections lose rows first; the verdict, runs and
 * gate table are never cut.
 */
import type { MetricDef } from '../aggregate/metrics.js';
import type { RunSummary } from '../aggregate/aggregate.js';
import type { MetricComparison, QueryOutcome } from '../compare/types.js';
import { COUNT_METRICS } from '../gate/gates.js';
import type { CompareReport, GateResult } from '../gate/types.js';
import { escapeMarkdownCell, escapeMarkdownText } from './escape.js';
import { formatDelta, formatValue, round4 } from '../format.js';

/** GitHub rejects comment bodies over 65,536 characters; keep a margin for the hidden marker the action adds. */
export const GITHUB_COMMENT_LIMIT = 65_536 - 1_536;

export interface RenderOptions {
  maxLength: number;
  /** Where the untruncated report is, named when rows are left out. */
  fullReportHint?: string;
}

const HEADLINE = [
  'hit@1',
  'hit@5',
  'hit@10',
  'mrr@10',
  'nDCG@10',
  'recall@10',
  'MAP',
  'citation_coverage',
  'attribution_hit_rate',
  'groundedness',
  'answer_precision',
  'refusal_correctness',
  'over_refusal_rate',
  'judge_correctness_mean',
  'latency_p95_ms',
  'error_rate',
];
const CHART = ['hit@1', 'hit@5', 'hit@10', 'mrr@10', 'nDCG@10', 'recall@10', 'MAP'];

const VERDICT_LINE = {
  pass: '✅ **EvalGate: pass**',
  warn: '⚠️ **EvalGate: pass with warnings**',
  fail: '❌ **EvalGate: fail**',
} as const;
const RESULT_TEXT: Record<GateResult['result'], string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  info: 'ℹ️ info',
  no_data: '❔ no data',
  not_comparable: '➖ not comparable',
};

interface Section {
  /** Lines that always stay (heading, table header). */
  head: string[];
  rows: string[];
  tail: string[];
  /** Only sections with rows that may be cut. */
  cuttable: boolean;
  /** Where the cut rows can be found, for the note. */
  name: string;
  cut: number;
}

function table(header: string[], align: string[]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${align.join(' | ')} |`];
}

function mark(def: MetricDef | undefined, m: MetricComparison): string {
  if (!m.significant || m.delta === null || !def || def.direction === 'neutral' || round4(m.delta) === 0) return '';
  const better = def.direction === 'higher' ? m.delta > 0 : m.delta < 0;
  return better ? ' ▲' : ' ▼';
}

function runCell(r: RunSummary, key: keyof RunSummary): string {
  const v = r[key];
  if (Array.isArray(v)) return escapeMarkdownCell(v.join(', '), 80);
  if (key === 'commit_hash' && typeof v === 'string') return escapeMarkdownCell(v.slice(0, 12));
  return escapeMarkdownCell(v as string | null, 80);
}

/**
 * A metric id as a code span. Ids are ours, except the per-stage latency ids, which carry a `timings_ms` key from
 * the run database: one with anything but plain id characters is escaped like other untrusted text instead
 * (a `|` or a backtick inside a code span would still split the cell or end the span).
 */
function metricCode(id: string): string {
  return /^[\w@.-]+$/.test(id) ? `\`${id}\`` : escapeMarkdownText(id, 80);
}

function metricRow(id: string, def: MetricDef | undefined, m: MetricComparison, withStats: boolean): string {
  const unit = def?.unit;
  const cells = [
    metricCode(id),
    formatValue(m.baseline, unit),
    formatValue(m.candidate, unit),
    `${formatDelta(m.delta, unit)}${mark(def, m)}`,
  ];
  if (withStats) {
    cells.push(m.ci95 ? `[${formatDelta(m.ci95[0], unit)}, ${formatDelta(m.ci95[1], unit)}]` : '—');
    cells.push(m.p_value === null ? '—' : formatValue(m.p_value));
  }
  const paired = withStats && m.n_paired !== null ? ` (${m.n_paired} paired)` : '';
  cells.push(`${m.n_baseline} / ${m.n}${paired}${m.comparable ? '' : ' (not comparable)'}`);
  return `| ${cells.join(' | ')} |`;
}

function gateRow(g: GateResult, unit: string | undefined): string {
  const where = g.where
    ? ` where ${escapeMarkdownText(
        Object.entries(g.where)
          .map(([k, v]) => `${k}=${v}`)
          .join(', '),
        80,
      )}`
    : '';
  const level = g.level === 'warn' ? ' (warn)' : '';
  const note = g.note ? `<br>${escapeMarkdownText(g.note, 200)}` : '';
  return `| ${metricCode(g.metric)}${where}${level} | ${formatValue(g.baseline, unit)} | ${formatValue(g.candidate, unit)} | ${formatDelta(g.delta, unit)} | ${escapeMarkdownText(g.threshold, 120)} | ${RESULT_TEXT[g.result]}${note} |`;
}

function outcomeRow(o: QueryOutcome): string {
  const rank = (r: number | null) => (r === null ? 'miss' : String(r));
  const notes = [o.note, ...o.answer_changes].filter((s) => s !== '').join('; ');
  return `| ${escapeMarkdownCell(o.query_id, 40)} | ${escapeMarkdownCell(o.query, 90)} | ${rank(o.baseline_rank)} | ${rank(o.candidate_rank)} | ${escapeMarkdownCell(notes, 160)} |`;
}

function chart(report: CompareReport): string[] {
  const ids = CHART.filter(
    (id) => report.metrics[id] && report.metrics[id].baseline !== null && report.metrics[id].candidate !== null,
  );
  if (ids.length === 0) return [];
  const values = (side: 'baseline' | 'candidate') => ids.map((id) => round4(report.metrics[id][side]!)).join(', ');
  return [
    '```mermaid',
    'xychart-beta',
    '    title "Baseline (bars) vs candidate (line)"',
    `    x-axis [${ids.map((id) => `"${id}"`).join(', ')}]`,
    '    y-axis "value" 0 --> 1',
    `    bar [${values('baseline')}]`,
    `    line [${values('candidate')}]`,
    '```',
  ];
}

const RUN_ROWS: Array<[string, keyof RunSummary]> = [
  ['run', 'run_id'],
  ['suite', 'suite'],
  ['commit', 'commit_hash'],
  ['created', 'created_at'],
  ['chunker', 'chunker_version'],
  ['embedding model', 'embedding_model'],
  ['index', 'index_version'],
];

/** Untrusted names in the never-cut part, capped so a run database cannot push it past the limit. */
function nameList(names: string[], max: number): string {
  return (
    names
      .slice(0, 20)
      .map((n) => escapeMarkdownText(n, max))
      .join(', ') + (names.length > 20 ? ` and ${names.length - 20} more` : '')
  );
}

/** The verdict, the two runs side by side, the golden set's coverage, and what differs between the runs. */
function headLines(report: CompareReport): string[] {
  const failed = report.gates.filter((g) => g.effect !== 'none');
  const failedText =
    failed.length === 0
      ? `all ${report.gates.length} gates passed`
      : `${failed.filter((g) => g.effect === 'fail').length} failed, ${failed.filter((g) => g.effect === 'warn').length} warned: ${failed.map((g) => metricCode(g.metric)).join(', ')}`;
  const { golden } = report;
  const lines: string[] = [
    `## ${VERDICT_LINE[report.verdict]} — ${failedText}`,
    '',
    ...table(['', 'baseline', 'candidate'], ['---', '---', '---']),
    ...RUN_ROWS.map(
      ([label, key]) => `| ${label} | ${runCell(report.baseline, key)} | ${runCell(report.candidate, key)} |`,
    ),
    '',
    `Golden set \`${golden.fingerprint.slice(0, 19)}\`: ${golden.queries} queries (${golden.shared} in both runs${golden.added.length ? `, ${golden.added.length} only in the candidate` : ''}${golden.removed.length ? `, ${golden.removed.length} only in the baseline` : ''}${golden.pending ? `, ${golden.pending} pending, not gated` : ''}). Chunk match: **${report.chunker_version_match}**${report.chunker_version_match === 'exact' ? '' : ' (chunker versions differ: expected chunks match by document and span)'}.`,
  ];
  if (report.differences.length > 0) lines.push('', `Settings that differ: ${nameList(report.differences, 60)}.`);
  if (!report.judge_comparable)
    lines.push('', 'Judge model or prompt differs: judge scores are shown but not comparable and not gated.');
  if (golden.added.length) lines.push('', `Queries only in the candidate run: ${nameList(golden.added, 40)}.`);
  if (golden.removed.length)
    lines.push(
      '',
      `Queries only in the baseline run (missing from the candidate, counted as misses): ${nameList(golden.removed, 40)}.`,
    );
  for (const side of ['baseline', 'candidate'] as const) {
    const unknown = golden.unknown_query_ids[side];
    if (unknown.length)
      lines.push(
        '',
        `Results of the ${side} whose query_id is not in the golden set (not scored): ${nameList(unknown, 40)}.`,
      );
    const repeated = golden.duplicate_query_ids[side];
    if (repeated.length)
      lines.push(
        '',
        `Queries with more than one result row in the ${side} (only the last one read is scored): ${nameList(repeated, 40)}.`,
      );
  }
  return lines;
}

function gateLines(report: CompareReport, byId: Map<string, MetricDef>): string[] {
  const lines = ['', '### Gates', ''];
  if (report.gates.length === 0) return [...lines, 'No gates configured.'];
  const unit = (g: GateResult) => byId.get(g.metric)?.unit ?? (g.metric in COUNT_METRICS ? 'count' : undefined);
  return [
    ...lines,
    ...table(
      ['gate', 'baseline', 'candidate', 'delta', 'threshold', 'result'],
      ['---', '---:', '---:', '---:', '---', '---'],
    ),
    ...report.gates.map((g) => gateRow(g, unit(g))),
  ];
}

function keyMetricLines(report: CompareReport, byId: Map<string, MetricDef>, key: string[]): string[] {
  return [
    '',
    '### Key metrics',
    '',
    ...table(
      ['metric', 'baseline', 'candidate', 'delta', '95% CI of delta', 'p', 'n (base / cand)'],
      ['---', '---:', '---:', '---:', '---:', '---:', '---:'],
    ),
    ...key.map((id) => metricRow(id, byId.get(id), report.metrics[id], true)),
    '',
    `▲ / ▼: significant improvement / worsening (paired randomization test, α ${report.alpha}). n is each side's denominator.`,
    '',
    ...chart(report),
    '',
    `**Per query:** ${report.counts.win} wins · ${report.counts.loss} losses · ${report.counts.regression} regressions · ${report.counts.draw} draws` +
      (report.counts.answer_regression ? ` · ${report.counts.answer_regression} answer regressions` : ''),
  ];
}

function outcomeSections(report: CompareReport): Section[] {
  const sections: Section[] = [];
  const header = table(
    ['query', 'text', 'baseline rank', 'candidate rank', 'note'],
    ['---', '---', '---:', '---:', '---'],
  );
  for (const [kind, title] of [
    ['regression', 'Regressions'],
    ['loss', 'Losses'],
    ['win', 'Wins'],
  ] as const) {
    const rows = report.per_query.filter((o) => o.kind === kind);
    if (rows.length === 0) continue;
    sections.push({
      head: ['', `### ${title} (${rows.length})`, '', ...header],
      rows: rows.map(outcomeRow),
      tail: [],
      cuttable: true,
      name: title.toLowerCase(),
      cut: 0,
    });
  }
  const answerRows = report.per_query.filter((o) => o.answer_changes.length > 0);
  if (answerRows.length > 0) {
    sections.push({
      head: [
        '',
        `### Answer changes (${answerRows.length}; ${report.counts.answer_regression} for the worse)`,
        '',
        ...header,
      ],
      rows: answerRows.map(outcomeRow),
      tail: [],
      cuttable: true,
      name: 'answer changes',
      cut: 0,
    });
  }
  return sections;
}

function allMetricsSection(report: CompareReport, defs: MetricDef[]): Section {
  const rows: string[] = [];
  for (const family of new Set(defs.map((d) => d.family))) {
    for (const def of defs.filter((d) => d.family === family)) {
      const m = report.metrics[def.id];
      if (m) rows.push(metricRow(def.id, def, m, true).replace(/^\| /, `| ${family} | `));
    }
  }
  return {
    head: [
      '',
      '<details><summary>All metrics</summary>',
      '',
      ...table(
        ['family', 'metric', 'baseline', 'candidate', 'delta', '95% CI of delta', 'p', 'n (base / cand)'],
        ['---', '---', '---:', '---:', '---:', '---:', '---:', '---:'],
      ),
    ],
    rows,
    tail: ['', '</details>'],
    cuttable: true,
    name: 'all metrics',
    cut: 0,
  };
}

/** The key metrics of every breakdown group that has a value; null when no group has one. */
function breakdownSection(report: CompareReport, byId: Map<string, MetricDef>, key: string[]): Section | null {
  const rows: string[] = [];
  for (const [kind, groups] of Object.entries(report.breakdowns)) {
    for (const name of Object.keys(groups).sort()) {
      for (const id of key) {
        const m = groups[name][id];
        if (!m || (m.baseline === null && m.candidate === null)) continue;
        rows.push(
          metricRow(id, byId.get(id), m, false).replace(/^\| /, `| ${kind} | ${escapeMarkdownCell(name, 60)} | `),
        );
      }
    }
  }
  if (rows.length === 0) return null;
  return {
    head: [
      '',
      '<details><summary>Breakdowns</summary>',
      '',
      ...table(
        ['by', 'group', 'metric', 'baseline', 'candidate', 'delta', 'n (base / cand)'],
        ['---', '---', '---', '---:', '---:', '---:', '---:'],
      ),
    ],
    rows,
    tail: ['', '</details>'],
    cuttable: true,
    name: 'breakdowns',
    cut: 0,
  };
}

/** The never-cut part (`fixed`) and the sections whose rows may be cut to fit. */
function buildSections(report: CompareReport, defs: MetricDef[]): { fixed: string[]; sections: Section[] } {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const key = HEADLINE.filter(
    (id) => report.metrics[id] && (report.metrics[id].baseline !== null || report.metrics[id].candidate !== null),
  );
  const fixed = [...headLines(report), ...gateLines(report, byId), ...keyMetricLines(report, byId, key)];
  const breakdowns = breakdownSection(report, byId, key);
  const sections = [...outcomeSections(report), allMetricsSection(report, defs), ...(breakdowns ? [breakdowns] : [])];
  return { fixed, sections };
}

/** The note that says how many rows of a section were cut (none when none were). */
function noteLines(s: Section, hint: string | undefined): string[] {
  return s.cut > 0
    ? [
        '',
        `_${s.cut} more ${s.cut === 1 ? 'row' : 'rows'} of ${s.name} left out to fit GitHub's comment limit${hint ? `; the full report is in ${hint}` : ''}._`,
      ]
    : [];
}

function sectionText(s: Section, hint: string | undefined): string {
  return [...s.head, ...s.rows, ...noteLines(s, hint), ...s.tail].join('\n');
}

export function renderReportMarkdown(
  report: CompareReport,
  defs: MetricDef[],
  options: RenderOptions = { maxLength: GITHUB_COMMENT_LIMIT },
): string {
  const { fixed, sections } = buildSections(report, defs);
  return layOut(report, fixed, sections, options);
}

/** Where the untruncated report is, or how to name it once its size is known (a store may not take it whole). */
export type FullReportHint = string | ((full: string) => string);

/**
 * The untruncated report and the one cut to `options.maxLength`, from one pass over the report (the same two
 * documents as two renderReportMarkdown calls; the per-query rows of a large run are escaped once, not twice).
 */
export function renderReportMarkdowns(
  report: CompareReport,
  defs: MetricDef[],
  options: Omit<RenderOptions, 'fullReportHint'> & { fullReportHint?: FullReportHint },
): { full: string; cut: string } {
  const { fixed, sections } = buildSections(report, defs);
  const full = layOut(
    report,
    fixed,
    sections.map((s) => ({ ...s, rows: [...s.rows] })),
    { maxLength: Infinity },
  );
  const hint = typeof options.fullReportHint === 'function' ? options.fullReportHint(full) : options.fullReportHint;
  return { full, cut: layOut(report, fixed, sections, { ...options, fullReportHint: hint }) };
}

/** The document from its parts, rows cut from `sections` (which it changes) until it fits `options.maxLength`. */
function layOut(report: CompareReport, fixed: string[], sections: Section[], options: RenderOptions): string {
  const footer = [
    '',
    `<sub>EvalGate · ${report.options.permutations} sign flips, seed ${report.options.seed} · mean over ${report.options.mean_over}, min grade ${report.options.min_grade}</sub>`,
  ];
  const fixedText = fixed.join('\n');
  const footerText = footer.join('\n');
  // Lengths are counted, not measured on joined text (a 100,000-query report has megabytes of rows): a section's
  // text is its lines joined by "\n", so its length is each line's length plus one, less one.
  const linesLength = (lines: string[]) => lines.reduce((n, line) => n + line.length + 1, 0);
  const rowChars = new Map(sections.map((s) => [s, linesLength(s.rows)]));
  const rowLength = (s: Section) => rowChars.get(s)!;
  const sectionLength = (s: Section) =>
    linesLength(s.head) + rowLength(s) + linesLength(noteLines(s, options.fullReportHint)) + linesLength(s.tail) - 1;
  // The exact length of the document below: fixed, "\n" + each section, "\n" + footer, final "\n".
  const total = () =>
    fixedText.length + sections.reduce((n, s) => n + 1 + sectionLength(s), 0) + 1 + footerText.length + 1;
  // Cut rows from the end of whichever section is longest, with a reserve for the "left out" notes; then measure
  // again with the notes in place (they grow with the hint and the number of cut sections) until it fits.
  while (total() > options.maxLength && sections.some((s) => s.cuttable && s.rows.length > 0)) {
    let excess = total() - options.maxLength + 400;
    while (excess > 0) {
      const longest = sections
        .filter((s) => s.cuttable && s.rows.length > 0)
        .sort((a, b) => rowLength(b) - rowLength(a))[0];
      if (!longest) break;
      const next = sections.filter((s) => s !== longest && s.cuttable).reduce((m, s) => Math.max(m, rowLength(s)), 0);
      let len = rowLength(longest);
      while (longest.rows.length > 0 && excess > 0 && len >= next) {
        const removed = longest.rows.pop()!;
        len -= removed.length + 1;
        excess -= removed.length + 1;
        longest.cut++;
      }
      rowChars.set(longest, len);
    }
  }
  return `${[fixedText, ...sections.map((s) => sectionText(s, options.fullReportHint)), footerText].join('\n')}\n`;
}
