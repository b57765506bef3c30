/**
 * What the Markdown comment and the terminal report both say, as plain values: which gates to name, which
 * metrics are key, the order of per-query rows by severity, the runs' ages. No escaping and no layout here.
 */
import type { QueryChunkMatch } from '../aggregate/matching.js';
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { ComparedRun, CommitSource, MetricComparison, QueryOutcome } from '../compare/types.js';
import type { CompareReport, GateResult } from '../gate/types.js';
import { COUNT_METRICS } from '../gate/gates.js';
import { gatePSentence } from '../gate/gateWords.js';
import { gainText, gainWords, tradedGates, untradedText } from '../gate/trades.js';
import { formatDelta, formatDeltaKeepingSign, formatValue, round4, shownP, plural } from '../numberFormat.js';
import { millisecondsBetween } from '../time.js';

/** Rows shown before the first `<details>` (docs/compare.md names this budget). */
export const OPEN_GATE_ROWS = 8;
export const OPEN_METRIC_ROWS = 8;
export const OPEN_QUERY_ROWS = 10;

/** Metrics worth a reviewer's glance, in this order, when the runs have them (the action's `summary` too). */
export const KEY_METRICS = [
  'hit@1',
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

/** "95%" for alpha 0.05: a level as the report prints it (the metric tables at 1 - alpha, a gate at its own). */
export function intervalLevel(alpha: number): string {
  return `${Number(((1 - alpha) * 100).toFixed(2))}%`;
}

export function unitOf(metric: string, byId: Map<string, MetricDef>): string | undefined {
  return byId.get(metric)?.unit ?? (metric in COUNT_METRICS ? 'count' : undefined);
}

/**
 * The report with every p-value and interval as the reports print them (`shownP`, `shownEnd`): the JSON report and
 * the action's outputs then agree with the marks and outcomes too, which were decided on the exact values before this.
 */
export function withShownPValues(report: CompareReport): CompareReport {
  // Below 0.0001 the exact p stays: the reports print `< 0.0001` from it, and 4 decimals would make it 0.0001.
  const shown = (p: number) => (p < 0.0001 ? p : shownP(p, report.alpha));
  const metric = (m: MetricComparison) => ({
    ...m,
    ...(m.p_value !== null ? { p_value: shown(m.p_value) } : {}),
    ...(m.ci ? { ci: shownInterval(m.ci) } : {}),
  });
  const table = (ms: Record<string, MetricComparison>) =>
    Object.fromEntries(Object.entries(ms).map(([id, m]) => [id, metric(m)]));
  const byGroup = (groups: Record<string, Record<string, MetricComparison>>) =>
    Object.fromEntries(Object.entries(groups).map(([group, ms]) => [group, table(ms)]));
  return {
    ...report,
    metrics: table(report.metrics),
    breakdowns: Object.fromEntries(Object.entries(report.breakdowns).map(([key, gs]) => [key, byGroup(gs)])),
    gates: report.gates.map((g) => ({
      ...g,
      ...(typeof g.p_value === 'number' ? { p_value: shown(g.p_value) } : {}),
      ...(g.p_adjusted !== undefined ? { p_adjusted: shown(g.p_adjusted) } : {}),
      ...(g.ci ? { ci: shownInterval(g.ci) } : {}),
    })),
  };
}

/**
 * An interval end as every output prints it: an end within 0.00005 of 0 but not 0 is ±0.0001, on its own side.
 * Which side of 0 an end is on is the test's answer, and 4 decimals (the JSON report's) would make it 0.
 */
export function shownEnd(x: number): number {
  return x !== 0 && round4(x) === 0 ? Math.sign(x) * 0.0001 : x;
}

const shownInterval = (ci: [number, number]): [number, number] => [shownEnd(ci[0]), shownEnd(ci[1])];

/** A `where` group as its pairs, `category=what` (`k=v, k=v` for more keys), the values as they are. */
export function wherePairs(where: Record<string, string | boolean>): string {
  return Object.entries(where)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/**
 * " where category=what" after a gate's metric, '' for a gate without a group: how every output names a group.
 * `shown` is the output's own escaping of the pairs (the comment's Markdown escape, the terminal's plain text).
 */
export function whereText(
  where: Record<string, string | boolean> | undefined,
  shown: (pairs: string) => string = (pairs) => pairs,
): string {
  return where ? ` where ${shown(wherePairs(where))}` : '';
}

/** A gate's value as the reports name it: its delta, or its candidate value for a `min`/`max` gate. */
export function gateValueText(g: GateResult, unit: string | undefined): string {
  return showsDelta(g) ? `${formatDelta(g.delta, unit)}${pairedShort(g, unit)}` : formatValue(g.candidate, unit);
}

/** " (paired −0.4000)" where the gate's test is of a paired change that is not the means' delta; else nothing. */
export function pairedShort(g: GateResult, unit: string | undefined): string {
  return g.paired_delta === undefined ? '' : ` (paired ${formatDelta(g.paired_delta, unit)})`;
}

const showsDelta = (g: GateResult) => g.delta !== null && g.min === undefined && g.max === undefined;

/**
 * The same, with what the gate itself used: a tested gate's interval (at its own level) and its one-sided p and
 * adjusted p; a relative threshold's relative change. A gate without a test shows no p.
 */
export function gateChangeText(g: GateResult, report: CompareReport, byId: Map<string, MetricDef>): string {
  const unit = unitOf(g.metric, byId);
  return showsDelta(g) ? gateDeltaText(g, unit, report.alpha) : gateValueText(g, unit);
}

/** The delta and its relative change where the threshold is relative (`+187 (+22%)`), without the test. */
export function gateDeltaShort(g: GateResult, unit: string | undefined): string {
  const delta = formatDelta(g.delta, unit);
  return g.delta === null ? delta : `${delta}${relativeChange(g)}${pairedShort(g, unit)}`;
}

/** The gate table's delta cell: the delta, its relative change where the threshold is relative, the gate's test. */
export function gateDeltaText(g: GateResult, unit: string | undefined, alpha: number): string {
  const delta = formatDelta(g.delta, unit);
  if (g.delta === null) return delta;
  // Where the means count different queries, the interval and p are of the paired change: print it beside them.
  const paired =
    g.paired_delta !== undefined && g.n_paired !== undefined
      ? `paired change ${formatDelta(g.paired_delta, unit)} over ${plural(g.n_paired, 'query', 'queries')}, `
      : '';
  const test =
    g.ci && g.ci_level !== undefined
      ? ` (${paired}${intervalLevel(1 - g.ci_level)} CI ${intervalText(g.ci, unit)}, ${gatePText(g, alpha)})`
      : '';
  return `${delta}${relativeChange(g)}${test}`;
}

/** An interval as every table prints it; each end keeps its sign when it rounds to 0 (— for none). */
export function intervalText(ci: [number, number] | null, unit: string | undefined): string {
  return ci ? `[${formatDeltaKeepingSign(ci[0], unit)}, ${formatDeltaKeepingSign(ci[1], unit)}]` : '—';
}

/** " (+22%)" for a gate with a relative threshold; else nothing. */
function relativeChange(g: GateResult): string {
  if (g.max_drop_pct === undefined && g.max_increase_pct === undefined) return '';
  if (g.baseline === null || g.delta === null || g.baseline === 0) return '';
  const pct = (g.delta / Math.abs(g.baseline)) * 100;
  return ` (${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(Math.abs(pct) < 10 ? 1 : 0)}%)`;
}

/** The p of the gate's bounds, as gates.ts words it; '' for a gate without a test. */
export function gatePText(g: GateResult, alpha: number): string {
  if (g.p_value === undefined || g.p_value === null || g.correction === undefined) return '';
  return gatePSentence(g.p_value, g.p_adjusted, g.correction, alpha, g.simultaneous_over);
}

/** The row's result as words: a `where` group below min_n says so, an inconclusive gate says why. */
export function gateResultWords(g: GateResult): string {
  if (g.result === 'info') return 'below min_n, not enforced';
  if (g.trade?.traded) return 'pass (traded)';
  if (g.result === 'inconclusive')
    return `inconclusive${g.effect === 'fail' ? ' (fails)' : g.effect === 'warn' ? ' (warns)' : ''}`;
  return g.result.replace('_', ' ');
}

/**
 * Advice for an inconclusive tested gate: "finds 0.72 (80%)", with "> margin 0.1" when the margin is out of its
 * reach. Power decides nothing: a gate that passed or failed gets none.
 */
export function detectableText(g: GateResult, unit: string | undefined): string {
  if (g.margin === undefined || g.result !== 'inconclusive') return '';
  if (g.min_detectable_drop === null || g.min_detectable_drop === undefined) return 'finds no drop (80%)';
  const over = g.min_detectable_drop > g.margin + 1e-12;
  return `finds ${formatValue(g.min_detectable_drop, unit)} (80%)${over ? ` > margin ${formatValue(g.margin, unit)}` : ''}`;
}

/**
 * One sentence for the verdict line when a tested gate cannot see a drop of its margin's size: what it detects
 * and how many queries would bring it to the margin (the largest need among such gates). Null when all can.
 */
export function adviceSentence(report: CompareReport): string | null {
  const short = report.gates.filter(
    (g) =>
      g.result === 'inconclusive' &&
      g.margin !== undefined &&
      (g.min_detectable_drop === null || (g.min_detectable_drop ?? 0) > g.margin + 1e-12),
  );
  if (short.length === 0) return null;
  // One gate's figures, never one gate's margin beside another's queries: the gate furthest from its margin (the
  // most queries needed; none will do counts as most), the first in config order on a tie.
  const needed = (g: GateResult) => (typeof g.queries_needed === 'number' ? g.queries_needed : Infinity);
  const furthest = short.reduce((a, b) => (needed(b) > needed(a) ? b : a));
  const margin = formatValue(furthest.margin);
  const mdd = furthest.min_detectable_drop;
  const sees =
    typeof mdd === 'number'
      ? `finds drops of ${formatValue(mdd)} or more 80% of the time, more than its margin ${margin}`
      : 'finds no drop 80% of the time';
  const who =
    short.length === 1
      ? `the ${furthest.metric} gate`
      : `${short.length} inconclusive gates cannot yet find their margin; the furthest, ${furthest.metric},`;
  const fix =
    typeof furthest.queries_needed === 'number'
      ? `about ${furthest.queries_needed.toLocaleString('en-US')} queries like these would find ${margin} 80% of the time`
      : 'more queries that differ less between runs would be needed';
  return `With ${plural(furthest.n_paired ?? 0, 'query', 'queries')}, ${who} ${sees}: ${fix}.`;
}

/** Gates that make the verdict fail, then those that warn, then inconclusive ones accepted, in config order. */
export function gatesToName(report: CompareReport): GateResult[] {
  return [
    ...report.gates.filter((g) => g.effect === 'fail'),
    ...report.gates.filter((g) => g.effect === 'warn'),
    ...report.gates.filter((g) => g.effect === 'none' && g.result === 'inconclusive'),
  ];
}

/** The verdict as words: an inconclusive gate never reads as a plain pass. */
export type VerdictWord = 'fail' | 'inconclusive' | 'pass with warnings' | 'pass, inconclusive accepted' | 'pass';

export function verdictWord(report: CompareReport): VerdictWord {
  const inconclusive = report.gates.some((g) => g.result === 'inconclusive');
  const warned = report.gates.some((g) => g.effect === 'warn' && g.result !== 'inconclusive');
  if (report.verdict === 'fail') return 'fail';
  if (report.verdict === 'warn') return inconclusive && !warned ? 'inconclusive' : 'pass with warnings';
  return inconclusive ? 'pass, inconclusive accepted' : 'pass';
}

/** "2 of 5 gates failed, 1 gate warned, 2 inconclusive", "all 5 gates passed", "no gates configured". */
export function gateTally(report: CompareReport): string {
  const named = gatesToName(report);
  const failed = named.filter((g) => g.effect === 'fail').length;
  const inconclusive = named.filter((g) => g.result === 'inconclusive' && g.effect !== 'fail').length;
  const warned = named.length - failed - inconclusive;
  return report.gates.length === 0
    ? 'no gates configured'
    : named.length === 0
      ? `${report.gates.length === 1 ? 'the gate' : `all ${report.gates.length} gates`} passed`
      : [
          failed ? `${failed} of ${plural(report.gates.length, 'gate', 'gates')} failed` : '',
          warned ? `${plural(warned, 'gate', 'gates')} warned` : '',
          inconclusive
            ? `${failed ? inconclusive : `${inconclusive} of ${plural(report.gates.length, 'gate', 'gates')}`} inconclusive`
            : '',
        ]
          .filter((x) => x !== '')
          .join(', ');
}

/** Gates shown open: all of them when few, else the ones that did not pass (the rest are in "All gates"). */
export function openGates(report: CompareReport): GateResult[] {
  if (report.gates.length <= OPEN_GATE_ROWS) return report.gates;
  // A pass a trade bought stays in view: the reviewer is asked to accept a larger drop.
  return report.gates.filter((g) => g.result !== 'pass' || g.trade?.traded);
}

/** Key metrics with a value on either side: gated metrics first, then the usual ones, at most OPEN_METRIC_ROWS. */
export function keyMetrics(report: CompareReport): string[] {
  const has = (id: string) =>
    report.metrics[id] !== undefined && (report.metrics[id].baseline !== null || report.metrics[id].candidate !== null);
  const gated = report.gates.filter((g) => !g.where).map((g) => g.metric);
  return [...new Set([...gated, ...KEY_METRICS])].filter(has).slice(0, OPEN_METRIC_ROWS);
}

/** Metrics whose two denominators differ: the one thing the key-metric columns do not show. */
export function changedDenominators(report: CompareReport, ids: string[]): Array<[string, MetricComparison]> {
  return ids.map((id): [string, MetricComparison] => [id, report.metrics[id]]).filter(([, m]) => m.n !== m.n_baseline);
}

/**
 * How bad a per-query change is, lower first: 0 a regression (an expected hit the baseline had is lost), 1 the
 * first relevant rank slipped, 2 an answer-side change for the worse alone. Wins and draws are not regressions.
 */
function regressionTier(o: QueryOutcome): number | null {
  if (o.kind === 'regression') return 0;
  if (o.kind === 'loss') return 1;
  if (o.answer_regression) return 2;
  return null;
}

const byId = (a: QueryOutcome, b: QueryOutcome) => (a.query_id < b.query_id ? -1 : a.query_id > b.query_id ? 1 : 0);

/** Null (no value) sorts after every number. */
function compareDeltas(a: number | null, b: number | null): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  return a - b;
}

/**
 * The per-query outcomes as a partition of the compared queries, each counted once by its first relevant hit (a
 * flaky one set aside), then the answer regressions, which are among those queries and so not added to them.
 */
export function perQueryTally(report: CompareReport): string {
  const c = report.counts;
  const kinds = [
    plural(c.regression, 'expected hit lost', 'expected hits lost'),
    plural(c.loss, 'rank slipped', 'ranks slipped'),
    plural(c.win, 'win', 'wins'),
    plural(c.draw, 'draw', 'draws'),
    ...(report.flaky?.count ? [`${report.flaky.count.toLocaleString('en-US')} flaky (set aside)`] : []),
  ];
  const answers = c.answer_regression
    ? `; among them, ${plural(c.answer_regression, 'answer regression', 'answer regressions')}`
    : '';
  return `${plural(report.per_query.length, 'query', 'queries')} by the first relevant hit: ${kinds.join(' · ')}${answers}`;
}

/**
 * What puts a row among the regressions and in which order (regressionsBySeverity), in the words the reports head
 * them with: the first relevant hit decides the kind, `metric` (the report's per_query_metric) the order within one.
 */
export function regressionOrder(metric: string): string {
  return `lost hits, then lower first relevant ranks, then worse answers; each by Δ ${metric}, lowest first`;
}

/** "Regressions (10 of 31): lost hits, then …": the heading of the worst rows, saying their order. */
export function regressionsHeading(shown: number, total: number, metric: string): string {
  return `Regressions (${shown < total ? `${shown} of ${total}` : total}): ${regressionOrder(metric)}`;
}

/**
 * Regressions, losses and answer regressions by kind (a lost hit before a slipped rank before an answer alone),
 * then the metric delta, then the query id.
 */
export function regressionsBySeverity(perQuery: QueryOutcome[]): QueryOutcome[] {
  const tiered = perQuery.filter((o) => regressionTier(o) !== null);
  return tiered.sort(
    (a, b) => regressionTier(a)! - regressionTier(b)! || compareDeltas(a.metric_delta, b.metric_delta) || byId(a, b),
  );
}

/**
 * The wins' membership and order (winsByGain), as regressionOrder words the regressions': a win is decided by the
 * first relevant hit, so a win's Δ of `metric` can be negative (its rank rose while other relevant hits fell).
 */
export function winOrder(metric: string): string {
  return `hits found, then higher first relevant ranks; each by Δ ${metric}, highest first`;
}

/** Wins in winOrder: a first relevant hit found before a rank that improved; then the metric delta, largest first. */
export function winsByGain(perQuery: QueryOutcome[]): QueryOutcome[] {
  const tier = (o: QueryOutcome) => (o.baseline_rank === null ? 0 : 1);
  const negate = (d: number | null) => (d === null ? null : -d);
  return perQuery
    .filter((o) => o.kind === 'win')
    .sort((a, b) => tier(a) - tier(b) || compareDeltas(negate(a.metric_delta), negate(b.metric_delta)) || byId(a, b));
}

/** Answer changes, those for the worse first. */
export function answerChanges(perQuery: QueryOutcome[]): QueryOutcome[] {
  return perQuery
    .filter((o) => o.answer_changes.length > 0)
    .sort((a, b) => Number(b.answer_regression) - Number(a.answer_regression) || byId(a, b));
}

/** "3 h", "2 days": the gap between two timestamps, or null when either does not parse. */
export function ageBetween(earlier: string, later: string): { text: string; negative: boolean } | null {
  const gap = millisecondsBetween(earlier, later);
  if (gap === null) return null;
  const minutes = Math.round(Math.abs(gap) / 60_000);
  const text =
    minutes < 120
      ? plural(minutes, 'minute', 'minutes')
      : minutes < 24 * 60
        ? plural(Math.round(minutes / 60), 'hour', 'hours')
        : plural(Math.round(minutes / 1440), 'day', 'days');
  return { text, negative: gap < 0 };
}

/** A commit hash the report may link: hex only (the value comes from a run database). */
export function commitOf(hash: string | null): string | null {
  return hash !== null && /^[0-9a-f]{7,64}$/i.test(hash) ? hash.toLowerCase() : null;
}

/** The commits the action's workflow context knows, for runs whose database records none. */
export interface WorkflowCommits {
  /** The commit the workflow run evaluated (a pull request's head): the candidate's. */
  headSha?: string;
  /** Where the action found the baseline; `headSha` is the head commit of the run that uploaded its artifact. */
  baselineFrom?: { headSha?: string };
}

/**
 * The report with each run's commit and where it came from (`commit_source`): the commit its database records
 * wins; a run that records none takes the workflow context's (`workflow_run`), else stays without one (null).
 */
export function withWorkflowCommits(report: CompareReport, context: WorkflowCommits): CompareReport {
  const { baseline, candidate } = report;
  return {
    ...report,
    baseline: baseline && withCommit(baseline, context.baselineFrom?.headSha),
    candidate: withCommit(candidate, context.headSha),
  };
}

function withCommit(run: ComparedRun, fromWorkflow: string | undefined): ComparedRun {
  if (run.commit_hash !== null && run.commit_hash.trim() !== '') return { ...run, commit_source: 'database' };
  if (fromWorkflow) return { ...run, commit_hash: fromWorkflow, commit_source: 'workflow_run' };
  return { ...run, commit_source: null };
}

/** Where a run's commit came from, in words, when not from its own database ("from the workflow run"). */
export function commitSourceText(side: 'baseline' | 'candidate', source: CommitSource | null | undefined): string {
  if (source !== 'workflow_run') return '';
  return side === 'candidate' ? 'from the workflow run' : "from the artifact's workflow run";
}

/** The first relevant rank as a cell: a rank, `miss`, or `missing` when the run has no result for the query. */
export function rankText(rank: number | null, missing: boolean): string {
  return missing ? 'missing' : rank === null ? 'miss' : String(rank);
}

/** The verdict in one plain line, for a commit status (GitHub keeps 140 characters): the gates that failed first. */
export function statusHeadline(report: CompareReport, defs: MetricDef[]): string {
  const byId = new Map(defs.map((d) => [d.id, d]));
  const named = gatesToName(report);
  if (named.length === 0)
    return report.gates.length === 0
      ? 'pass: no gates configured'
      : `pass: ${plural(report.gates.length, 'gate', 'gates')} passed`;
  const failed = named.filter((g) => g.effect === 'fail').length;
  const inconclusive = named.filter((g) => g.result === 'inconclusive' && g.effect !== 'fail').length;
  const warned = named.length - failed - inconclusive;
  const tally = [
    failed ? `${failed} failed` : '',
    warned ? `${warned} warned` : '',
    inconclusive ? `${inconclusive} inconclusive` : '',
  ]
    .filter((x) => x !== '')
    .join(', ');
  const values = named.map((g) => `${g.metric} ${gateValueText(g, unitOf(g.metric, byId))}`);
  return `${verdictWord(report)}: ${tally} of ${plural(report.gates.length, 'gate', 'gates')} (${values.join(', ')})`;
}

const CHUNK_MATCH_WORDS: Record<QueryChunkMatch, string> = {
  exact: 'exact',
  fallback_doc_span: 'by document and span',
  fallback_doc: "by the expected chunk's document",
  fallback_expected_doc: 'by expected_doc_ids (chunk in no chunks table)',
};

/** How many queries each match mode scored, loosest last: "2 exact, 3 by document and span". */
export function chunkMatchSummary(report: CompareReport): string | null {
  const counts = report.chunk_match_queries;
  if (!counts) return null;
  return (Object.keys(CHUNK_MATCH_WORDS) as QueryChunkMatch[])
    .filter((m) => counts[m] > 0)
    .map((m) => `${counts[m].toLocaleString('en-US')} ${CHUNK_MATCH_WORDS[m]}`)
    .join(', ');
}

/** Each run whose stored aggregate was computed on another golden set than the one compared with, and that set's. */
export function otherRecordedGoldenSets(
  report: CompareReport,
): Array<{ side: 'baseline' | 'candidate'; recorded: string }> {
  const sides = [
    ['baseline', report.baseline],
    ['candidate', report.candidate],
  ] as const;
  return sides.flatMap(([side, run]) => {
    const recorded = run?.recorded_golden_fingerprint;
    return recorded && recorded !== report.golden.fingerprint ? [{ side, recorded }] : [];
  });
}

/** How much lower the candidate's judged@10 may be than the baseline's before the report says so (docs/gates.md). */
export const UNJUDGED_GAP = 0.05;

/**
 * With TREC-style judgments, a candidate that surfaces documents nobody judged loses P, nDCG and MAP although nothing
 * may be worse: when its judged@10 is lower than the baseline's by more than UNJUDGED_GAP, one sentence says so.
 */
export function unjudgedNote(report: CompareReport): string | null {
  const m = report.metrics['judged@10'];
  if (!m || m.baseline === null || m.candidate === null || m.baseline - m.candidate <= UNJUDGED_GAP + 1e-9) return null;
  // judged@10 divides by 10 whatever came back: a place with no hit counts as unjudged too, and is said so.
  const places = Math.round((1 - m.candidate) * 10 * m.n);
  return `In the candidate's top 10, ${places.toLocaleString('en-US')} places hold a document nobody judged or none (judged@10 ${formatValue(m.candidate)} against the baseline's ${formatValue(m.baseline)}): P, nDCG and MAP may understate it.`;
}

/**
 * The slice the verdict line names when the gates hold per slice: a failing slice first, else an inconclusive or
 * warning one, else the tested slice with the strongest sign of a drop (the smallest one-sided p); with how many
 * slices share its state. Null when no slice was tested.
 */
export function sliceToName(
  report: CompareReport,
): { gate: GateResult; state: 'failing' | 'worst'; others: number } | null {
  const byP = (a: GateResult, b: GateResult) => (a.p_value ?? 1) - (b.p_value ?? 1);
  const failing = report.gates.filter((g) => g.slice && g.effect === 'fail').sort(byP);
  if (failing.length > 0) return { gate: failing[0], state: 'failing', others: failing.length - 1 };
  const tested = report.gates.filter((g) => g.slice && g.p_value !== undefined && g.p_value !== null);
  if (tested.length === 0) return null;
  const open = tested.filter((g) => g.effect !== 'none' || g.result === 'inconclusive').sort(byP);
  return { gate: (open.length > 0 ? open : [...tested].sort(byP))[0], state: 'worst', others: 0 };
}

/**
 * "traded nDCG@10 −0.0370 for 47% lower latency: within the trade's margin 0.0500", for the verdict line: the first
 * gate a trade passed (and how many more).
 */
export function tradeVerdictText(
  report: CompareReport,
  byId: Map<string, MetricDef>,
  code: (text: string) => string,
): string | null {
  const traded = tradedGates(report.gates);
  if (traded.length === 0) return null;
  const g = traded[0];
  const unit = unitOf(g.metric, byId);
  const more = traded.length > 1 ? ` (and ${traded.length - 1} more traded)` : '';
  return `traded ${code(g.metric)} ${formatDelta(g.paired_delta ?? g.delta, unit)} for ${gainText(g.trade!)}: within the trade's margin ${formatValue(g.trade!.margin, unit)}${more}`;
}

/** "traded for 49% lower latency, a fall of 25% or more shown (600 queries; one-sided p ...)": a traded gate's line. */
export function tradedText(g: GateResult, alpha: number): string {
  return `traded for ${gainWords(g.trade!, familyOf(g), alpha)}`;
}

/** "; not traded: ..." for a gate whose trade did not pass it (and was needed), else "". */
export function untradedClause(g: GateResult, alpha: number, unit: string | undefined): string {
  if (!g.trade || g.trade.traded || g.result === 'pass') return '';
  return `; ${untradedText(g.trade, familyOf(g), alpha, unit)}`;
}

const familyOf = (g: GateResult) => ({
  correction: g.correction ?? 'none',
  simultaneousOver: g.simultaneous_over ?? 1,
});

/** "failing slice category=multi_hop: hit@5 −0.5600, 70 queries" (and "1 more failing"), as the verdict line says it. */
export function sliceVerdictText(
  report: CompareReport,
  byId: Map<string, MetricDef>,
  code: (text: string) => string,
): string | null {
  const named = sliceToName(report);
  if (named === null) return null;
  const { gate: g, state, others } = named;
  const queries = g.slice_queries === undefined ? '' : `, ${plural(g.slice_queries, 'query', 'queries')}`;
  const more = others > 0 ? ` (and ${others} more failing)` : '';
  return `${state} slice ${code(wherePairs(g.where ?? {}))}: ${code(g.metric)} ${formatDelta(g.delta, unitOf(g.metric, byId))}${queries}${more}`;
}
