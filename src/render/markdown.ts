/**
 * renderReportMarkdown: the compare report as one GitHub-flavoured Markdown document, deterministic byte
 * for byte. Every value that came from a run database or golden set goes through escape.ts. When the
 * document would pass `maxLength`, the longest cuttable sections lose rows first; the verdict, runs and
 * gate table are never cut.
 */
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { RunSummary } from '../aggregate/aggregate.js';
import type { MetricComparison, QueryOutcome } from '../compare/types.js';
import type { CompareReport, GateResult } from '../gate/types.js';
import { escapeMarkdownCell, escapeMarkdownText, metricCode } from './escape.js';
import { tradedGates } from '../gate/trades.js';
import { formatDelta, formatP, formatValue, plural } from '../numberFormat.js';
import { millisecondsBetween } from '../time.js';
import type { ReportWarning } from '../warnings.js';
import { trendMarkdownLines } from './trend.js';
import { reportWarnings } from './reportWarnings.js';
import { noiseFloorMarkdown } from './calibrationReport.js';
import type { ConfigOrigin, ReportContext } from './reportContext.js';
import {
  OPEN_GATE_ROWS,
  OPEN_QUERY_ROWS,
  adviceSentence,
  ageBetween,
  answerChanges,
  detectableText,
  verdictWord,
  whereText,
  type VerdictWord,
  unjudgedNote,
  changedDenominators,
  commitOf,
  commitSourceText,
  gateChangeText,
  gateDeltaShort,
  gateDeltaText,
  gateTally,
  gatesToName,
  intervalLevel,
  intervalText,
  keyMetrics,
  openGates,
  rankText,
  regressionOrder,
  winOrder,
  regressionsBySeverity,
  regressionsHeading,
  perQueryTally,
  unitOf,
  winsByGain,
  chunkMatchSummary,
  sliceVerdictText,
  tradedText,
  untradedClause,
  tradeVerdictText,
  wherePairs,
} from './reportParts.js';
import { flakyMarkdownLines, flakySetAsideText, repeatsMarkdownLines } from './repeatsText.js';
import { reportWarningText, verdictCaveatText } from './warningText.js';
import type { WarningStyle } from './warningText.js';

/** GitHub rejects comment bodies over 65,536 characters; keep a margin for the hidden marker the action adds. */
export const GITHUB_COMMENT_LIMIT = 65_536 - 1_536;

export interface RenderOptions {
  maxLength: number;
  /** Where the untruncated report is, named when rows are left out. */
  fullReportHint?: FullReportHint;
  context?: ReportContext;
}

/** The alert per verdict word: an inconclusive gate never gets the green TIP, even when accepted. */
const ALERT: Record<VerdictWord, string> = {
  pass: 'TIP',
  'pass, inconclusive accepted': 'NOTE',
  'pass with warnings': 'WARNING',
  inconclusive: 'WARNING',
  fail: 'CAUTION',
};
const RESULT_TEXT: Record<GateResult['result'], string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  inconclusive: '🟨 inconclusive',
  info: 'ℹ️ below min_n',
  no_data: '❔ no data',
  not_comparable: '➖ not comparable',
};

/** A gate's result cell: a pass a trade bought says so. */
const resultText = (g: GateResult) => (g.trade?.traded ? '✅ pass (traded)' : RESULT_TEXT[g.result]);

// Where the action imports them from.

interface Section {
  /** Lines that always stay (heading, table header). */
  head: string[];
  rows: string[];
  tail: string[];
  /** Where the cut rows can be found, for the note. */
  name: string;
  cut: number;
}

function table(header: string[], align: string[]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${align.join(' | ')} |`];
}

function mark(def: MetricDef | undefined, m: MetricComparison): string {
  // Every significant change is marked, one that rounds to ±0.0000 too: the mark follows the test, not the print.
  // The test is of the paired change, whose interval excludes 0 when significant; the means' delta can point the
  // other way where the two sides count different queries (--mean-over trec).
  const change = m.ci ? (m.ci[0] > 0 ? 1 : m.ci[1] < 0 ? -1 : 0) : (m.delta ?? 0);
  if (!m.significant || !def || def.direction === 'neutral' || change === 0) return '';
  const better = def.direction === 'higher' ? change > 0 : change < 0;
  return better ? ' ▲' : ' ▼';
}

function gateName(g: GateResult): string {
  const where = whereText(g.where, (pairs) => escapeMarkdownText(pairs, 60));
  return `${metricCode(g.metric)}${where}${g.level === 'warn' ? ' (warn)' : ''}`;
}

/** One line of the alert per gate that failed or warned: its value or delta with the test, and what was allowed. */
function alertGateLine(g: GateResult, report: CompareReport, byId: Map<string, MetricDef>): string {
  const value = gateChangeText(g, report, byId);
  if (g.trade?.traded)
    return `> - ⚖️ ${gateName(g).replace(/ \(warn\)$/, '')} ${value}; allowed: ${escapeMarkdownText(g.threshold, 120)} — ${escapeMarkdownText(tradedText(g, report.alpha), 240)}`;
  const icon = g.result === 'inconclusive' ? '🟨' : g.effect === 'fail' ? '❌' : '⚠️';
  // A gate that failed for want of data says why (no baseline, a zero denominator, an empty group); an
  // inconclusive one what it can detect; one with a trade what the trade lacked.
  const unit = unitOf(g.metric, byId);
  const result =
    g.result === 'fail' || g.result === 'warn'
      ? ''
      : g.result === 'inconclusive'
        ? ` — inconclusive, ${escapeMarkdownText(detectableText(g, unit), 80)}`
        : ` — ${escapeMarkdownText(g.note.split(';')[0], 160)}`;
  const untraded = escapeMarkdownText(untradedClause(g, report.alpha, unit), 240);
  return `> - ${icon} ${gateName(g).replace(/ \(warn\)$/, '')} ${value}; allowed: ${escapeMarkdownText(g.threshold, 120)}${result}${untraded}`;
}

function alertLines(report: CompareReport, byId: Map<string, MetricDef>, context: ReportContext): string[] {
  // The gates to look at: those that failed, warned or were inconclusive, then those a trade passed.
  const named = [...gatesToName(report), ...tradedGates(report.gates)];
  const tally = gateTally(report);
  const shown = named.slice(0, 5);
  const word = verdictWord(report);
  const advice = adviceSentence(report);
  const flaky = flakySetAsideText(report);
  const caveat = verdictCaveatText(context, markdownStyle(context));
  const slice = sliceVerdictText(report, byId, (x) => escapeMarkdownText(x, 60));
  const traded = tradeVerdictText(report, byId, (x) => escapeMarkdownText(x, 60));
  return [
    `> [!${ALERT[word]}]`,
    `> **EvalVerdict: ${word}** — ${tally}${slice ? ` · ${slice}` : ''}${traded ? ` · ${traded}` : ''}${flaky ? ` · ${flaky}` : ''}${caveat ? ` · ⚠️ ${caveat}` : ''}${advice ? `. ${escapeMarkdownText(advice, 300)}` : ''}`,
    ...(shown.length ? ['>', ...shown.map((g) => alertGateLine(g, report, byId))] : []),
    ...(named.length > shown.length ? [`> - and ${named.length - shown.length} more in the gate table`] : []),
  ];
}

function commitText(hash: string | null, context: ReportContext): string {
  const sha = commitOf(hash);
  if (sha === null) return hash === null ? 'no commit' : escapeMarkdownText(hash, 20);
  return context.repoUrl ? `[\`${sha.slice(0, 7)}\`](${context.repoUrl}/commit/${sha})` : `\`${sha.slice(0, 7)}\``;
}

/** Where the baseline came from, for the JSON report (`baseline_source`); null in a candidate-only report. */
export interface BaselineSource {
  /** `artifact:NAME`, or `path` for a file given by path (the path itself is left out: it is the machine's). */
  source: string;
  /** The workflow run that uploaded the artifact; null for a path. */
  run_url: string | null;
  /** Commits between the baseline's commit and the pull request's base (0: the base commit's own run). */
  commits_behind: number | null;
  base_commit_run: boolean | null;
  /** Days from the baseline's created_at to the action's clock (1 decimal); null without a clock (the CLI). */
  age_days: number | null;
  /** Older than `baseline-max-age`; null when no limit applies. */
  stale: boolean | null;
}

export function baselineSource(
  report: CompareReport,
  baselinePath: string | null,
  context: ReportContext = {},
): BaselineSource | null {
  if (report.baseline === null || baselinePath === null) return null;
  const from = context.baselineFrom;
  const limit = context.staleAfter;
  const ageMs = limit ? millisecondsBetween(report.baseline.created_at, limit.now) : null;
  return {
    source: from?.source ?? 'path',
    run_url: from?.runUrl ?? null,
    commits_behind: from?.commitsBehind ?? null,
    base_commit_run: from?.baseCommitRun ?? null,
    age_days: ageMs === null ? null : Math.round(ageMs / 8_640_000) / 10,
    stale: limit && limit.maxAgeDays > 0 && ageMs !== null ? ageMs > limit.maxAgeDays * 86_400_000 : null,
  };
}

/** ", from [`artifact:NAME`](run)": where the action found the baseline; empty for a path. */
function fromText(context: ReportContext): string {
  const from = context.baselineFrom;
  if (!from) return '';
  const run = /^https?:\/\/[^\s()<>]+$/.test(from.runUrl) ? from.runUrl : null;
  const source = `\`${from.source.replace(/`/g, "'")}\``;
  return `, from ${run ? `[${source}](${run})` : source}`;
}

/** Which runs were compared, how far apart, on which golden set; where the rest of the report is. */
function provenanceLines(report: CompareReport, context: ReportContext, hint: string | undefined): string[] {
  const { baseline: b, candidate: c, golden } = report;
  const age = b === null ? null : ageBetween(b.created_at, c.created_at);
  const ageText =
    age === null || age.text.startsWith('0 ')
      ? ''
      : age.negative
        ? `, created ${age.text} after the candidate`
        : `, ${age.text} older`;
  // A commit the database does not record says where it came from (the workflow context).
  const candidateFrom = commitSourceText('candidate', c.commit_source);
  const baselineFrom = commitSourceText('baseline', b?.commit_source);
  const links = [
    context.runUrl ? `[workflow run and job summary](${context.runUrl})` : '',
    // The CLI names its full report only where rows were cut; the action always links where it is.
    context.runUrl && hint ? `full report: ${hint}` : '',
  ].filter((x) => x !== '');
  const lines = [
    `**Candidate** ${escapeMarkdownText(c.run_id, 60)} at ${commitText(c.commit_hash, context)} (${candidateFrom ? `${candidateFrom}; ` : ''}${escapeMarkdownText(c.created_at, 30)}) ${b === null ? '**without a baseline**: a candidate-only report, gated on `min` and `max` thresholds only' : `**vs baseline** ${escapeMarkdownText(b.run_id, 60)} at ${commitText(b.commit_hash, context)}${baselineFrom ? ` (${baselineFrom})` : ''}${ageText}${fromText(context)}`} · golden set \`${golden.fingerprint.slice(0, 19)}\`, ${plural(golden.queries, 'query', 'queries')}${links.length ? ` · ${links.join(' · ')}` : ''}`,
  ];
  lines.push(...repeatsMarkdownLines(report));
  if (context.config) lines.push('', configLine(context.config));
  if (context.config?.noise) lines.push('', noiseFloorMarkdown(context.config.noise));
  const warnings = reportWarnings(report, context).map((w) => markdownWarning(w, context));
  return [...lines, ...(warnings.length ? ['', ...warnings.map((w) => `- ⚠️ ${w}`)] : [])];
}

/** The gate config that produced the verdict. */
function configLine(config: ConfigOrigin): string {
  if (config.source === null) return 'Gate config: built-in default';
  return `Gate config: ${escapeMarkdownText(config.source, 80)} (sha256 \`${config.sha256}\`)`;
}

/** How the comment shows a warning's parts: settings as code, commits linked, text from the inputs escaped. */
function markdownStyle(context: ReportContext): WarningStyle {
  return {
    code: (text) => `\`${text}\``,
    commit: (sha) => commitText(sha, context),
    input: (text) => escapeMarkdownText(text, 60),
  };
}

/** A report warning as the comment says it: the one wording (warnings.ts), a sentence, its parts in Markdown. */
export function markdownWarning(w: ReportWarning, context: ReportContext): string {
  const text = reportWarningText(w, markdownStyle(context));
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('?') ? '' : '.'}`;
}

function gateTableLines(report: CompareReport, byId: Map<string, MetricDef>): string[] {
  if (report.gates.length === 0) return [];
  const open = openGates(report);
  const hidden = report.gates.length - open.length;
  return [
    '',
    ...table(['gate', 'candidate', 'delta', 'allowed', 'result'], ['---', '---:', '---:', '---', '---']),
    ...open.map((g) => {
      const unit = unitOf(g.metric, byId);
      // Short cells, so the table fits the comment's column unwrapped: the test's interval, p and detectable drop
      // are in the verdict's bullets and in *All gates* below.
      return `| ${gateName(g)} | ${formatValue(g.candidate, unit)} | ${escapeMarkdownText(gateDeltaShort(g, unit), 60)} | ${escapeMarkdownText(g.threshold, 120)} | ${resultText(g)} |`;
    }),
    ...(hidden ? ['', `${plural(hidden, 'more gate', 'more gates')} passed (see *All gates* below).`] : []),
    ...unjudgedLines(report),
  ];
}

/** The unjudged-documents sentence beside the retrieval gates, when it applies. */
function unjudgedLines(report: CompareReport): string[] {
  const note = unjudgedNote(report);
  // Our own words and numbers only: the metric id goes in a code span, not through the mention escaping.
  return note ? ['', `⚠️ ${note.replace('judged@10', '`judged@10`')}`] : [];
}

function metricCells(id: string, def: MetricDef | undefined, m: MetricComparison): string[] {
  const unit = def?.unit;
  return [
    metricCode(id),
    formatValue(m.baseline, unit),
    formatValue(m.candidate, unit),
    `${formatDelta(m.delta, unit)}${mark(def, m)}`,
  ];
}

function keyMetricLines(report: CompareReport, byId: Map<string, MetricDef>): string[] {
  const ids = keyMetrics(report);
  if (ids.length === 0) return [];
  if (report.baseline === null)
    return [
      '',
      ...table(['metric', 'candidate', 'n'], ['---', '---:', '---:']),
      ...ids.map((id) => {
        const m = report.metrics[id];
        return `| ${metricCode(id)} | ${formatValue(m.candidate, byId.get(id)?.unit)} | ${m.n.toLocaleString('en-US')} |`;
      }),
    ];
  const level = intervalLevel(report.alpha);
  const denominators = changedDenominators(report, ids).map(
    ([id, m]) => `${metricCode(id)} ${m.n_baseline.toLocaleString('en-US')} → ${m.n.toLocaleString('en-US')}`,
  );
  return [
    '',
    ...table(
      ['metric', 'baseline', 'candidate', 'delta', `${level} CI`, 'p'],
      ['---', '---:', '---:', '---:', '---:', '---:'],
    ),
    ...ids.map((id) => {
      const m = report.metrics[id];
      const unit = byId.get(id)?.unit;
      const cells = metricCells(id, byId.get(id), m);
      if (!m.comparable) cells[0] += ' (not comparable)';
      return `| ${[...cells, intervalText(m.ci, unit), formatP(m.p_value, report.alpha)].join(' | ')} |`;
    }),
    '',
    `▲ ▼ significant at α ${report.alpha} (two-sided paired sign-flip test, the interval read off it; the gates' bounds are their own).${denominators.length ? ` Denominators differ: ${denominators.join(', ')}.` : ''}`,
  ];
}

/** Per-query rows share one table shape; `answers` adds the answer-change column. */
function queryTable(rows: QueryOutcome[], report: CompareReport, answers: boolean): { head: string[]; rows: string[] } {
  const missing = {
    baseline: new Set(report.golden.added),
    candidate: new Set(report.golden.removed),
  };
  const metric = report.per_query_metric;
  const header = ['query', 'text', 'first relevant rank', `Δ ${metric}`, ...(answers ? ['answer'] : [])];
  const align = ['---', '---', '---:', '---:', ...(answers ? ['---'] : [])];
  return {
    head: table(header, align),
    rows: rows.map((o) => {
      const ranks = `${rankText(o.baseline_rank, missing.baseline.has(o.query_id))} → ${rankText(o.candidate_rank, missing.candidate.has(o.query_id))}`;
      const cells = [
        escapeMarkdownCell(o.query_id, 40),
        escapeMarkdownCell(o.query, 60),
        ranks,
        formatDelta(o.metric_delta),
        ...(answers ? [escapeMarkdownCell(o.answer_changes.join('; '), 80)] : []),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
  };
}

/** What is true of every per-query row, said once: the settings that differ and how chunks were matched. */
function commonCause(report: CompareReport): string {
  const parts: string[] = [];
  if (report.differences.length) parts.push(`The runs differ in ${nameList(report.differences, 40)}.`);
  if (report.chunker_version_match !== 'exact' || report.chunk_match_queries)
    parts.push(
      `Chunker versions differ: expected chunks of another chunker match by document (${chunkMatchSummary(report) ?? `\`${report.chunker_version_match}\``}).`,
    );
  return parts.join(' ');
}

function worstLines(report: CompareReport, worst: QueryOutcome[]): string[] {
  if (report.baseline === null) return [];
  if (worst.length === 0) return ['', `No query lost or slipped its first relevant hit; ${perQueryTally(report)}.`];
  const shown = worst.slice(0, OPEN_QUERY_ROWS);
  const withAnswers = shown.some((o) => o.answer_changes.length > 0);
  const { head, rows } = queryTable(shown, report, withAnswers);
  const cause = commonCause(report);
  return [
    '',
    `#### ${regressionsHeading(shown.length, worst.length, report.per_query_metric)}`,
    '',
    `${perQueryTally(report)}.${cause ? ` ${cause}` : ''}`,
    '',
    ...head,
    ...rows,
  ];
}

/** Untrusted names, capped so a run database cannot push the never-cut part past the limit. */
function nameList(names: string[], max: number): string {
  return (
    names
      .slice(0, 20)
      .map((n) => escapeMarkdownText(n, max))
      .join(', ') + (names.length > 20 ? ` and ${names.length - 20} more` : '')
  );
}

/** Each failed answer gate's failing queries, collapsed: the ids, escaped, at most MAX_FAILING_QUERIES. */
function failingQueriesLines(report: CompareReport): string[] {
  return report.gates
    .filter((g) => g.failing_queries && g.failing_queries.length > 0)
    .flatMap((g) => {
      const count = g.failing_count ?? g.failing_queries!.length;
      const more = count > g.failing_queries!.length ? ` (the first ${g.failing_queries!.length})` : '';
      return details(`Queries that failed ${gateName(g)} (${count.toLocaleString('en-US')})${more}`, [
        g.failing_queries!.map((id) => escapeMarkdownText(id, 80)).join(', '),
      ]);
    });
}

function details(summary: string, body: string[]): string[] {
  return ['', `<details><summary>${summary}</summary>`, '', ...body, '', '</details>'];
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

function runCell(r: RunSummary, key: keyof RunSummary): string {
  const v = r[key];
  if (Array.isArray(v)) return escapeMarkdownCell(v.join(', '), 80);
  // 12 characters name a commit and fit the column (a whole SHA cannot wrap).
  if (key === 'commit_hash' && typeof v === 'string') return escapeMarkdownCell(v.slice(0, 12));
  return escapeMarkdownCell(v as string | null, 80);
}

/** The runs side by side and every list the open part only counts. Never cut: each list is capped. */
function runDetailLines(report: CompareReport): string[] {
  const { golden, baseline } = report;
  const lines = [
    ...(baseline === null
      ? [
          ...table(['', 'candidate'], ['---', '---']),
          ...RUN_ROWS.map(([label, key]) => `| ${label} | ${runCell(report.candidate, key)} |`),
          '',
          `Golden set \`${golden.fingerprint}\`: ${plural(golden.queries, 'query', 'queries')}.`,
        ]
      : [
          ...table(['', 'baseline', 'candidate'], ['---', '---', '---']),
          ...RUN_ROWS.map(
            ([label, key]) => `| ${label} | ${runCell(baseline, key)} | ${runCell(report.candidate, key)} |`,
          ),
          '',
          `Golden set \`${golden.fingerprint}\`: ${plural(golden.queries, 'query', 'queries')}, ${golden.shared.toLocaleString('en-US')} in both runs. Chunk match: \`${report.chunker_version_match}\`${report.chunk_match_queries ? ` (${chunkMatchSummary(report)})` : ''}.`,
        ]),
  ];
  const list = (text: string, ids: string[]) => (ids.length ? ['', `${text}: ${nameList(ids, 40)}.`] : []);
  lines.push(...list('Settings that differ', report.differences));
  lines.push(...list('Queries only in the candidate run', golden.added));
  const missing =
    report.options.mean_over === 'trec' ? "left out of the candidate's means" : 'counted as misses in the candidate';
  lines.push(...list(`Queries only in the baseline run (${missing})`, golden.removed));
  for (const side of ['baseline', 'candidate'] as const) {
    lines.push(...list(`Result query ids of the ${side} not in the golden set`, golden.unknown_query_ids[side]));
    lines.push(...list(`Queries with more than one result in the ${side}`, golden.duplicate_query_ids[side]));
  }
  return details('Runs compared', lines);
}

function allGatesLines(report: CompareReport, byId: Map<string, MetricDef>): string[] {
  const withNotes = report.gates.filter((g) => g.note !== '');
  const tested = report.gates.some((g) => g.ci !== undefined || g.margin !== undefined);
  if (report.gates.length <= OPEN_GATE_ROWS && withNotes.length === 0 && !tested) return [];
  const rows = report.gates.map((g) => {
    const unit = unitOf(g.metric, byId);
    const result = [resultText(g), detectableText(g, unit)].filter(Boolean).join(', ');
    return `| ${gateName(g)} | ${formatValue(g.baseline, unit)} | ${formatValue(g.candidate, unit)} | ${escapeMarkdownText(gateDeltaText(g, unit, report.alpha), 200)} | ${escapeMarkdownText(g.threshold, 80)} | ${escapeMarkdownText(result, 80)} | ${escapeMarkdownCell(g.note, 200)} |`;
  });
  return details(`All gates (${report.gates.length}) with their tests and notes`, [
    ...table(
      ['gate', 'baseline', 'candidate', 'delta and test', 'allowed', 'result', 'note'],
      ['---', '---:', '---:', '---:', '---', '---', '---'],
    ),
    ...rows,
  ]);
}

function querySection(
  summary: string,
  name: string,
  rows: QueryOutcome[],
  report: CompareReport,
  answers: boolean,
): Section | null {
  if (rows.length === 0) return null;
  const t = queryTable(rows, report, answers);
  return {
    head: ['', `<details><summary>${summary} (${rows.length.toLocaleString('en-US')})</summary>`, '', ...t.head],
    rows: t.rows,
    tail: ['', '</details>'],
    name,
    cut: 0,
  };
}

/** "225", or "211 → 216" when the denominators differ; the paired count when it is neither. */
function denominatorText(m: MetricComparison): string {
  const n = m.n_baseline === m.n ? m.n.toLocaleString('en-US') : `${m.n_baseline} → ${m.n}`;
  const paired = m.n_paired !== null && (m.n_paired !== m.n || m.n_paired !== m.n_baseline);
  return `${n}${paired ? ` (${m.n_paired!.toLocaleString('en-US')} paired)` : ''}`;
}

/** Every metric, family by family (a row names its family when it starts one), with the test where there is one. */
function allMetricsSection(report: CompareReport, defs: MetricDef[]): Section {
  if (report.baseline === null) return candidateMetricsSection(report, defs);
  const rows: string[] = [];
  let family = '';
  for (const def of defs) {
    const m = report.metrics[def.id];
    if (!m) continue;
    const cells = metricCells(def.id, def, m);
    if (def.family !== family) cells[0] = `**${def.family}** ${cells[0]}`;
    family = def.family;
    if (!m.comparable) cells[0] += ' (not comparable)';
    rows.push(
      `| ${[...cells, intervalText(m.ci, def.unit), formatP(m.p_value, report.alpha), denominatorText(m)].join(' | ')} |`,
    );
  }
  return {
    head: [
      '',
      '<details><summary>All metrics</summary>',
      '',
      ...table(
        ['metric', 'baseline', 'candidate', 'delta', `${intervalLevel(report.alpha)} CI`, 'p', 'n'],
        ['---', '---:', '---:', '---:', '---:', '---:', '---:'],
      ),
    ],
    rows,
    tail: ['', '</details>'],
    name: 'all metrics',
    cut: 0,
  };
}

/** All metrics of a candidate-only report: the value and its denominator. */
function candidateMetricsSection(report: CompareReport, defs: MetricDef[]): Section {
  const rows: string[] = [];
  let family = '';
  for (const def of defs) {
    const m = report.metrics[def.id];
    if (!m) continue;
    const id = def.family !== family ? `**${def.family}** ${metricCode(def.id)}` : metricCode(def.id);
    family = def.family;
    rows.push(`| ${id} | ${formatValue(m.candidate, def.unit)} | ${m.n.toLocaleString('en-US')} |`);
  }
  return {
    head: [
      '',
      '<details><summary>All metrics</summary>',
      '',
      ...table(['metric', 'candidate', 'n'], ['---', '---:', '---:']),
    ],
    rows,
    tail: ['', '</details>'],
    name: 'all metrics',
    cut: 0,
  };
}

/** The key metrics of every breakdown group that has a value; null when no group has one. */
function breakdownSection(report: CompareReport, byId: Map<string, MetricDef>): Section | null {
  const key = keyMetrics(report);
  const rows: string[] = [];
  for (const [kind, groups] of Object.entries(report.breakdowns)) {
    for (const name of Object.keys(groups).sort()) {
      for (const id of key) {
        const m = groups[name][id];
        if (!m || (m.baseline === null && m.candidate === null)) continue;
        const cells =
          report.baseline === null
            ? [metricCode(id), formatValue(m.candidate, byId.get(id)?.unit), String(m.n)]
            : [...metricCells(id, byId.get(id), m), `${m.n_baseline} / ${m.n}`];
        rows.push(`| ${[kind, escapeMarkdownCell(name, 60), ...cells].join(' | ')} |`);
      }
    }
  }
  if (rows.length === 0) return null;
  return {
    head: [
      '',
      '<details><summary>Breakdowns</summary>',
      '',
      ...(report.baseline === null
        ? table(['by', 'group', 'metric', 'candidate', 'n'], ['---', '---', '---', '---:', '---:'])
        : table(
            ['by', 'group', 'metric', 'baseline', 'candidate', 'delta', 'n (base / cand)'],
            ['---', '---', '---', '---:', '---:', '---:', '---:'],
          )),
    ],
    rows,
    tail: ['', '</details>'],
    name: 'breakdowns',
    cut: 0,
  };
}

/** Never cut: the open part, then the gates in full and the run details (each list in them capped). */
function fixedLines(
  report: CompareReport,
  byId: Map<string, MetricDef>,
  context: ReportContext,
  hint: string | undefined,
): string[] {
  return [
    ...alertLines(report, byId, context),
    '',
    ...provenanceLines(report, context, hint),
    ...gateTableLines(report, byId),
    ...keyMetricLines(report, byId),
    ...trendMarkdownLines(context.trend, byId),
    ...worstLines(report, regressionsBySeverity(report.per_query)),
    ...flakyMarkdownLines(report),
    ...allGatesLines(report, byId),
    ...failingQueriesLines(report),
    ...runDetailLines(report),
  ];
}

interface Sections {
  /** In the order they print. */
  sections: Section[];
  /** The same sections in the order rows are cut from them: the least severe first. */
  cutOrder: Section[];
}

const PER_QUERY_HINT =
  "_A query's full row in the candidate (hits returned, top hit, reciprocal rank, citation checks, WFGY label): " +
  '`evalverdict aggregate CANDIDATE.sqlite --golden GOLDEN --per-query`; the JSON report has it as `candidate_row`._';

function buildSections(report: CompareReport, defs: MetricDef[], byId: Map<string, MetricDef>): Sections {
  const worst = regressionsBySeverity(report.per_query);
  const losses = querySection(
    `Regressions and losses: ${regressionOrder(report.per_query_metric)}`,
    'regressions and losses',
    worst,
    report,
    true,
  );
  // Where each row's details are (docs/compare.md): the open part's budget is not touched, this is collapsed.
  losses?.tail.unshift('', PER_QUERY_HINT);
  const wins = querySection(
    `Wins: ${winOrder(report.per_query_metric)}`,
    'wins',
    winsByGain(report.per_query),
    report,
    false,
  );
  const answers = querySection('Answer changes', 'answer changes', answerChanges(report.per_query), report, true);
  const metrics = allMetricsSection(report, defs);
  const breakdowns = breakdownSection(report, byId);
  const slices = sliceSection(report, byId);
  const present = (list: Array<Section | null>) => list.filter((s): s is Section => s !== null);
  return {
    sections: present([losses, wins, answers, slices, metrics, breakdowns]),
    cutOrder: present([breakdowns, wins, answers, losses, metrics, slices]),
  };
}

/** Every slice of the per_slice gates, collapsed: its numbers, its test and its result, the small slices too. */
function sliceSection(report: CompareReport, byId: Map<string, MetricDef>): Section | null {
  const slices = report.gates.filter((g) => g.slice);
  if (slices.length === 0) return null;
  const rows = slices.map((g) => {
    const unit = unitOf(g.metric, byId);
    const cells = [
      escapeMarkdownText(wherePairs(g.where ?? {}), 60),
      metricCode(g.metric),
      (g.slice_queries ?? 0).toLocaleString('en-US'),
      formatValue(g.baseline, unit),
      formatValue(g.candidate, unit),
      escapeMarkdownText(gateDeltaText(g, unit, report.alpha), 200),
      resultText(g),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return {
    head: [
      '',
      `<details><summary>Slices (${slices.length}): the per_slice gates in every slice</summary>`,
      '',
      ...table(
        ['slice', 'metric', 'queries', 'baseline', 'candidate', 'delta and test', 'result'],
        ['---', '---', '---:', '---:', '---:', '---:', '---'],
      ),
    ],
    rows,
    tail: ['', '</details>'],
    name: 'slices',
    cut: 0,
  };
}

/** The note that says how many rows of a section were cut (none when none were). */
function noteLines(s: Section, hint: string | undefined): string[] {
  return s.cut > 0
    ? [
        '',
        `_${s.cut.toLocaleString('en-US')} more ${s.cut === 1 ? 'row' : 'rows'} of ${s.name} left out to fit GitHub's comment limit (the least severe)${hint ? `; the full report is in ${hint}` : ''}._`,
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
  return renderReportMarkdowns(report, defs, options).cut;
}

/** Where the untruncated report is, or how to name it once its size is known (a store may not take it whole). */
export type FullReportHint = string | ((full: string) => string);

/**
 * The untruncated report and the one cut to `options.maxLength` (the same two documents as two
 * renderReportMarkdown calls). The full report names where it is only through the cut one.
 */
export function renderReportMarkdowns(
  report: CompareReport,
  defs: MetricDef[],
  options: RenderOptions,
): { full: string; cut: string } {
  const context = options.context ?? {};
  const byId = new Map(defs.map((d) => [d.id, d]));
  // The sections are built once (a large run's rows are escaped once): the full layout cuts nothing, then the
  // cut one removes rows from the same arrays.
  const sections = buildSections(report, defs, byId);
  const full = layOut(report, fixedLines(report, byId, context, undefined), sections, Infinity, undefined);
  const hint = typeof options.fullReportHint === 'function' ? options.fullReportHint(full) : options.fullReportHint;
  const fixed = fixedLines(report, byId, context, hint);
  return { full, cut: layOut(report, fixed, sections, options.maxLength, hint) };
}

/**
 * The document from its parts, rows cut from `sections` (which it changes) until it fits `maxLength`: from the end
 * of each section (its least severe rows), sections in `cutOrder`; a cut section names `hint`.
 */
function layOut(
  report: CompareReport,
  fixed: string[],
  parts: Sections,
  maxLength: number,
  hint: string | undefined,
): string {
  const { sections, cutOrder } = parts;
  const footer = [
    '',
    `<sub>EvalVerdict · paired sign-flip test, ${report.options.permutations.toLocaleString('en-US')} flips, seed ${report.options.seed}; metric intervals at ${intervalLevel(report.alpha)} from the same test; gate intervals at ${intervalLevel(2 * report.alpha)}, Student's t, simultaneous over the gates' tests · mean over ${report.options.mean_over}, min grade ${report.options.min_grade}</sub>`,
  ];
  const fixedText = fixed.join('\n');
  const footerText = footer.join('\n');
  // Lengths are counted, not measured on joined text (a 100,000-query report has megabytes of rows): a section's
  // text is its lines joined by "\n", so its length is each line's length plus one, less one.
  const linesLength = (lines: string[]) => lines.reduce((n, line) => n + line.length + 1, 0);
  const rowChars = new Map(sections.map((s) => [s, linesLength(s.rows)]));
  const sectionLength = (s: Section) =>
    linesLength(s.head) + rowChars.get(s)! + linesLength(noteLines(s, hint)) + linesLength(s.tail) - 1;
  // The exact length of the document below: fixed, "\n" + each section, "\n" + footer, final "\n".
  const total = () =>
    fixedText.length + sections.reduce((n, s) => n + 1 + sectionLength(s), 0) + 1 + footerText.length + 1;
  // The notes grow as rows go (the count's digits), so cut a little past the limit and measure again.
  while (total() > maxLength) {
    const section = cutOrder.find((s) => s.rows.length > 0);
    if (!section) break;
    let excess = total() - maxLength + 200;
    let length = rowChars.get(section)!;
    while (section.rows.length > 0 && excess > 0) {
      const removed = section.rows.pop()!;
      length -= removed.length + 1;
      excess -= removed.length + 1;
      section.cut++;
    }
    rowChars.set(section, length);
  }
  return `${[fixedText, ...sections.map((s) => sectionText(s, hint)), footerText].join('\n')}\n`;
}
