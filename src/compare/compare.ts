/**
 * compareRuns: both runs scored against one golden set, every metric and breakdown compared, per-query outcomes
 * and paired significance. No gates: the gate stage (src/gate/gates.ts, applyGates) adds them. Pure: plain data in,
 * plain report out.
 */
import {
  checkResultsMatchGolden,
  chunkMatchCounts,
  distinctSorted,
  groupQueries,
  resultsMatched,
  summariseRun,
} from '../aggregate/aggregate.js';
import { QUERY_CHUNK_MATCHES } from '../aggregate/matching.js';
import type { ChunkMatchMode } from '../aggregate/matching.js';
import { buildMetricTable } from '../aggregate/metrics/registry.js';
import { PerQueryValues } from '../aggregate/perQueryValues.js';
import { rowCore, rowFactsAt, wfgyLabel } from '../aggregate/perQuery.js';
import type { MetricDef, MetricValue } from '../aggregate/metrics/types.js';
import { DEFAULT_OPTIONS, resultsOf, withGoldenProfile } from '../aggregate/score.js';
import type { AggregateOptions, ScoredRun } from '../aggregate/score.js';
import { scoreToTable } from '../aggregate/table.js';
import type { RecordFacts, TabulatedRun } from '../aggregate/table.js';
import { InputError } from '../errors.js';
import type { ChunkRecord, GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import { hashString } from '../stats/random.js';
import { pairedSignificance } from '../stats/signFlip.js';
import type { ComparedRuns, Comparison, MetricComparison, QueryOutcome } from './types.js';

export interface CompareOptions extends AggregateOptions {
  strictChunkerVersion: boolean;
  /** Seed of the randomization test and bootstrap: same seed, same p-values. */
  seed: number;
  /** Random sign flips of the randomization test. */
  permutations: number;
  /** Significance level: a paired test with p < alpha is `significant` (the pipeline passes the gate config's). */
  alpha: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  ...DEFAULT_OPTIONS,
  strictChunkerVersion: false,
  seed: 20260101,
  permutations: 10_000,
  alpha: 0.05,
};

/** Settings whose difference explains retrieval changes, and those that explain answer changes. */

/**
 * A run's chunker version as its run row or chunks table declares it: config_snapshot_json.chunker_version, else
 * the one version of its chunks table (several: their sorted list, so two mixed indexes still compare unequal).
 * Undefined when neither says, and only the hits can tell.
 */
export function declaredChunkerVersion(run: RunMeta): string | null | undefined {
  if (run.run.chunkerVersion !== null) return run.run.chunkerVersion;
  if (!run.chunks) return undefined;
  const versions = new Set<string>();
  for (const c of run.chunks.values()) versions.add(c.chunkerVersion);
  return [...versions].sort().join(', ');
}

/** A run's chunker version: the declared one, else the one version (or sorted list) its hits carry, else null. */
export function chunkerVersionOf(scored: ScoredRun | TabulatedRun): string | null {
  const declared = declaredChunkerVersion(scored.run);
  if (declared !== undefined) return declared;
  return scored.hitChunkerVersions.length === 0 ? null : scored.hitChunkerVersions.join(', ');
}

function refuseStrict(baseline: RunMeta, candidate: RunMeta, a: string | null, b: string | null): never {
  throw new InputError(
    `chunker_version differs (baseline ${baseline.source}: ${a ?? 'unset'}, candidate ${candidate.source}: ${b ?? 'unset'}) and --strict-chunker-version refuses to compare: chunk ids of different chunkers are not comparable`,
  );
}

/**
 * How expected chunk ids were matched when the chunker versions differ, from what each query's matching did
 * (docs/metrics.md, "Chunker versions"): `fallback_doc_span` when some query's expected chunk was matched by span,
 * else `fallback_doc` (by document, or no query could fall back). `chunk_match_queries` says how many did which.
 */
export function matchLabel(baseline: TabulatedRun, candidate: TabulatedRun): ChunkMatchMode {
  return loosestMatch(baseline, candidate).includes(1) ? 'fallback_doc_span' : 'fallback_doc';
}

/**
 * Per query, the looser of the two runs' match modes: scored with the same tables they agree, but scored exactly
 * each run reads its own table, and an expected chunk only one of them holds is matched by its document in the other.
 */
function loosestMatch(baseline: TabulatedRun, candidate: TabulatedRun): Uint8Array {
  const b = baseline.facts.chunkMatch;
  const c = candidate.facts.chunkMatch;
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = Math.max(b[i], c[i] ?? 0);
  return out;
}

/** Both runs' chunks tables (the baseline's entry where both have an id); empty when neither has one: it finds nothing. */
export function mergedChunks(a: RunMeta, b: RunMeta): Map<string, ChunkRecord> {
  const merged = new Map<string, ChunkRecord>(b.chunks ?? []);
  for (const [id, c] of a.chunks ?? []) merged.set(id, c);
  return merged;
}

/** The config_snapshot_json keys whose values differ between two runs, sorted. */
export function configDifferences(baseline: RunMeta, candidate: RunMeta): string[] {
  const a = baseline.run.config;
  const b = candidate.run.config;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
}

function metricComparison(b: MetricValue, c: MetricValue, comparable: boolean): MetricComparison {
  const delta = b.value === null || c.value === null ? null : c.value - b.value;
  return {
    baseline: b.value,
    candidate: c.value,
    delta,
    rel_delta: delta === null || b.value === 0 ? null : delta / Math.abs(b.value!),
    n: c.n,
    n_baseline: b.n,
    n_paired: null,
    p_value: null,
    ci: null,
    significant: null,
    comparable,
  };
}

/** Query `i` of one run as outcomes read it. */
interface Side {
  hasResult: boolean;
  /** Rank of the first relevant hit, null when none. */
  rank: number | null;
  /** Relevant expectations (bits, the first 32) met by the first relevant hit, and by any hit. */
  firstHitMet: number;
  anyHitMet: number;
  chunkMatch: number;
  refused: boolean | null;
  /** The answer cites a relevant chunk (WFGY's citation hit). */
  citedRelevant: boolean;
  groundedText: boolean | null;
  judge: { groundedness: number | null; correctness: number | null };
}

const triState = (v: number): boolean | null => (v < 0 ? null : v === 1);
const orNull = (v: number): number | null => (v === v ? v : null);

function sideOf(facts: RecordFacts, i: number): Side {
  return {
    hasResult: facts.hasResult[i] === 1,
    rank: facts.firstRelevantRank[i] === 0 ? null : facts.firstRelevantRank[i],
    firstHitMet: facts.firstHitMet[i],
    anyHitMet: facts.anyHitMet[i],
    chunkMatch: facts.chunkMatch[i],
    refused: triState(facts.refused[i]),
    citedRelevant: facts.citedRelevant[i] === 1,
    groundedText: triState(facts.groundedText[i]),
    judge: { groundedness: orNull(facts.judgeGroundedness[i]), correctness: orNull(facts.judgeCorrectness[i]) },
  };
}

/** WFGY's labels of a question answered or refused as it should be. */
const GOOD_LABELS = new Set(['OK', 'REFUSAL_OK']);

/** Under `profile: wfgy`, WFGY's per-question label (its report's table) when it changed: OK -> ANS_NO_HIT. */
function labelChange(q: GoldenQuery, b: Side, c: Side): { change: string; worse: boolean } | null {
  const before = wfgyLabel(q.answerable, b.refused, b.citedRelevant);
  const after = wfgyLabel(q.answerable, c.refused, c.citedRelevant);
  if (before === null || after === null || before === after) return null;
  return { change: `label ${before} -> ${after}`, worse: GOOD_LABELS.has(before) && !GOOD_LABELS.has(after) };
}

/** A query's outcome by the first relevant rank on each side, and whether the baseline's expected chunk went missing. */
function rankOutcome(b: Side, c: Side): { kind: QueryOutcome['kind']; missedSame: boolean } {
  const br = b.rank;
  const cr = c.rank;
  let kind: QueryOutcome['kind'];
  if (br === null && cr === null) kind = 'draw';
  else if (br === null) kind = 'win';
  else if (cr === null) kind = 'regression';
  else kind = cr < br ? 'win' : cr > br ? 'loss' : 'draw';
  // kebab (000, p5-2): "Regression if a hit but b miss for the same expected chunk": a draw or a loss whose
  // candidate meets none of the expectations the baseline's first relevant hit met is one. Only where both runs
  // built the same expectations (the same match mode) and the baseline's are among a query's first 32.
  const missedSame =
    (kind === 'draw' || kind === 'loss') &&
    br !== null &&
    b.chunkMatch === c.chunkMatch &&
    b.firstHitMet !== 0 &&
    (b.firstHitMet & c.anyHitMet) === 0;
  return { kind: missedSame ? 'regression' : kind, missedSame };
}

/** The per-query note reports show: each side's rank, miss or missing result. */
function rankNote(hasExpectations: boolean, b: Side, c: Side, missedSame: boolean): string {
  const br = b.rank;
  const cr = c.rank;
  const show = (r: number | null, side: Side) => (!side.hasResult ? 'missing' : r === null ? 'miss' : `rank ${r}`);
  let note: string;
  if (!hasExpectations) note = 'no relevance expectations';
  else if (br === null && cr === null)
    note = !b.hasResult || !c.hasResult ? `${show(br, b)} -> ${show(cr, c)}` : 'miss in both';
  else note = `${show(br, b)} -> ${show(cr, c)}`;
  if (missedSame) note += ", the baseline's expected chunk missed";
  return note;
}

/** How a query's answer changed (refusal, WFGY label, groundedness, judge scores) and whether it got worse. */
function answerChanges(
  q: GoldenQuery,
  b: Side,
  c: Side,
  judgeComparable: boolean,
  labels: boolean,
): { changes: string[]; regression: boolean } {
  const changes: string[] = [];
  let regression = false;
  if (b.refused !== null && c.refused !== null && b.refused !== c.refused) {
    const worse = q.answerable ? c.refused : !c.refused;
    changes.push(
      `${b.refused ? 'refused' : 'answered'} -> ${c.refused ? 'refused' : 'answered'}${q.answerable ? '' : ' (should refuse)'}`,
    );
    regression ||= worse;
  }
  const label = labels ? labelChange(q, b, c) : null;
  if (label) changes.push(label.change);
  regression ||= label?.worse === true;
  if (b.groundedText !== null && c.groundedText !== null && b.groundedText !== c.groundedText) {
    changes.push(`groundedness ${b.groundedText ? 'pass' : 'fail'} -> ${c.groundedText ? 'pass' : 'fail'}`);
    regression ||= !c.groundedText;
  }
  for (const dim of ['groundedness', 'correctness'] as const) {
    const bs = b.judge[dim];
    const cs = c.judge[dim];
    if (bs === null || cs === null) continue;
    const fell = bs >= 4 && cs < 3;
    const rose = bs < 3 && cs >= 4;
    if (fell || rose) {
      changes.push(`judge ${dim} ${bs} -> ${cs}${judgeComparable ? '' : ' (judge settings differ)'}`);
      regression ||= fell && judgeComparable;
    }
  }
  return { changes, regression };
}

function outcomeOf(
  q: GoldenQuery,
  hasExpectations: boolean,
  b: Side,
  c: Side,
  judgeComparable: boolean,
  metricDelta: number | null,
  labels: boolean,
): QueryOutcome {
  const { kind, missedSame } = rankOutcome(b, c);
  const answer = answerChanges(q, b, c, judgeComparable, labels);
  return {
    query_id: q.id,
    query: q.query,
    kind,
    baseline_rank: b.rank,
    candidate_rank: c.rank,
    metric_delta: metricDelta,
    note: rankNote(hasExpectations, b, c, missedSame),
    answer_changes: answer.changes,
    answer_regression: answer.regression,
  };
}

function pairedDiffs(
  baseline: Float64Array,
  candidate: Float64Array,
  rows: ArrayLike<number> | null = null,
): Float64Array {
  const diffs: number[] = [];
  const n = rows === null ? baseline.length : rows.length;
  for (let r = 0; r < n; r++) {
    const i = rows === null ? r : rows[r];
    const b = baseline[i];
    const c = candidate[i];
    if (b !== b || c !== c) continue; // NaN: not in that side's mean
    diffs.push(c - b);
  }
  return Float64Array.from(diffs);
}

/** What a run's per-query values depend on besides the run: the metrics' stages and options. */
function valuesKey(options: AggregateOptions, stages: string[]): string {
  return JSON.stringify([
    stages,
    options.ks,
    options.mrrCutoff,
    options.ndcgGain,
    options.minGrade,
    options.meanOver,
    options.profile,
  ]);
}

/** The baseline's side of a comparison measured ahead (prepareBaseline), for compareExactlyScored to reuse. */
export interface PreparedBaseline {
  readonly table: TabulatedRun;
  /** valuesKey of the options and stages it was measured with: reused only where the comparison's are the same. */
  readonly key: string;
  readonly values: PerQueryValues;
}

/**
 * What compareScored will need of the baseline alone (its metric table, groups, and every metric over the run and
 * each group), computed ahead: the parallel compare does it while the worker thread finishes the candidate.
 */
export function prepareBaseline(baseline: TabulatedRun, options: AggregateOptions): PreparedBaseline {
  options = withGoldenProfile(options, baseline.golden);
  const defs = buildMetricTable(options, baseline.recordStages);
  const values = new PerQueryValues(defs, baseline.queries.length, baseline.columns);
  const measured = defs.filter((d) => !d.runLevel);
  for (const def of measured) values.evaluate(def, baseline.run);
  const groups = Object.values(groupQueries(baseline.queries)).flatMap((byName) => [...byName.values()]);
  values.sumGroups(measured, groups);
  for (const indexes of groups) for (const def of measured) values.evaluate(def, baseline.run, indexes);
  void baseline.golden.fingerprint; // computed on first read: now, while the worker still scores, not after the join
  return { table: baseline, key: valuesKey(options, baseline.recordStages), values };
}

/** Both runs' per-query tables over one metric table, and whether a metric's two sides may be compared. */
interface Sides {
  baseline: TabulatedRun;
  candidate: TabulatedRun;
  bValues: PerQueryValues;
  cValues: PerQueryValues;
  comparable: (def: MetricDef) => boolean;
}

/**
 * Every metric over the whole runs, with the paired test where a metric has per-query values. The test pairs the
 * queries both runs' means count: a query missing from a run counts as that run's mean counts it (a miss by
 * default), so a candidate that drops results cannot pass a significant_only gate on the queries it kept.
 */
function compareMetrics(defs: MetricDef[], sides: Sides, options: CompareOptions): Record<string, MetricComparison> {
  const { baseline, candidate, bValues, cValues } = sides;
  const metrics: Record<string, MetricComparison> = {};
  for (const def of defs) {
    const m = metricComparison(
      bValues.evaluate(def, baseline.run),
      cValues.evaluate(def, candidate.run),
      sides.comparable(def),
    );
    if (def.paired && def.perQuery) {
      const diffs = pairedDiffs(bValues.column(def.id), cValues.column(def.id));
      const sig = pairedSignificance(
        diffs,
        options.permutations,
        (options.seed ^ hashString(def.id)) >>> 0,
        options.alpha,
      );
      m.n_paired = diffs.length;
      if (sig) {
        m.p_value = sig.pValue;
        m.ci = sig.ci;
        m.significant = sig.pValue < options.alpha;
      }
    }
    metrics[def.id] = m;
  }
  return metrics;
}

/**
 * Every per-query metric over each breakdown group (no paired test), and each group's size. Both runs are scored
 * against one golden set, so records line up index by index and the groups are the same.
 */
function compareBreakdowns(
  defs: MetricDef[],
  sides: Sides,
): Pick<Comparison, 'breakdowns'> & Pick<ComparedRuns, 'groupSizes'> {
  const { baseline, candidate, bValues, cValues } = sides;
  const groups = groupQueries(baseline.queries);
  const groupLists = Object.values(groups).flatMap((byName) => [...byName.values()]);
  bValues.sumGroups(defs, groupLists);
  cValues.sumGroups(defs, groupLists);
  const breakdowns: Comparison['breakdowns'] = {};
  const groupSizes: ComparedRuns['groupSizes'] = {};
  for (const kind of Object.keys(groups) as Array<keyof typeof groups>) {
    if (kind === 'vault' && groups.vault.size === 0) continue; // as in aggregate's report
    // No prototype: group names are the input's, `__proto__` included.
    breakdowns[kind] = Object.create(null) as Record<string, Record<string, MetricComparison>>;
    groupSizes[kind] = Object.create(null) as Record<string, number>;
    for (const [name, indexes] of groups[kind]) {
      groupSizes[kind][name] = indexes.length;
      const group: Record<string, MetricComparison> = {};
      for (const def of defs) {
        if (def.runLevel) continue;
        group[def.id] = metricComparison(
          bValues.evaluate(def, baseline.run, indexes),
          cValues.evaluate(def, candidate.run, indexes),
          sides.comparable(def),
        );
      }
      breakdowns[kind][name] = group;
    }
  }
  return { breakdowns, groupSizes };
}

/**
 * The per-query metric whose delta orders per-query rows of equal severity: nDCG@10, or at the largest cutoff; with
 * no cutoff (a library caller's `ks: []`; the CLI, config and action refuse one) MRR, which has no k.
 */
function perQueryMetricOf(options: CompareOptions): string {
  if (options.ks.length === 0) return `mrr@${options.mrrCutoff}`;
  return `nDCG@${options.ks.includes(10) ? 10 : Math.max(...options.ks)}`;
}

function queryOutcomes(
  baseline: TabulatedRun,
  candidate: TabulatedRun,
  judgeComparable: boolean,
  deltaColumns: { baseline: Float64Array; candidate: Float64Array },
  runMatch: ChunkMatchMode | null,
  queryMatch: Uint8Array,
  labels: boolean,
): Pick<Comparison, 'per_query' | 'counts'> {
  const bFacts = baseline.facts;
  const cFacts = candidate.facts;
  const perQuery: QueryOutcome[] = baseline.queries.map((q, i) => {
    const outcome = outcomeOf(
      q,
      bFacts.hasExpectations[i] === 1,
      sideOf(bFacts, i),
      sideOf(cFacts, i),
      judgeComparable,
      orNull(deltaColumns.candidate[i] - deltaColumns.baseline[i]),
      labels,
    );
    // Both runs were matched with the same expectations, so one mode per query says how.
    if (runMatch !== null) {
      const mode = QUERY_CHUNK_MATCHES[queryMatch[i]];
      outcome.chunk_match = mode;
      // The note is what reports show per query; the run's mode is said once (commonCause).
      if (mode !== runMatch && bFacts.hasExpectations[i] === 1) outcome.note += ` (chunk match ${mode})`;
    }
    return outcome;
  });
  const checksSnippets = candidate.run.chunks !== null;
  perQuery.forEach((o, i) => {
    if (o.kind === 'regression' || o.kind === 'loss' || o.answer_regression)
      o.candidate_row = rowCore(rowFactsAt(cFacts, i, baseline.queries[i].answerable, checksSnippets));
  });
  const counts = { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 };
  for (const o of perQuery) {
    if (o.kind === 'flaky') continue; // never here: setAsideFlaky (repeats.ts) sets it later
    counts[o.kind]++;
    if (o.answer_regression) counts.answer_regression++;
  }
  return { per_query: perQuery, counts };
}

function goldenCoverage(baseline: TabulatedRun, candidate: TabulatedRun): Comparison['golden'] {
  const bFacts = baseline.facts;
  const cFacts = candidate.facts;
  return {
    fingerprint: baseline.golden.fingerprint,
    queries: baseline.queries.length,
    pending: baseline.pendingQueries.length,
    added: baseline.queries.filter((_, i) => cFacts.hasResult[i] === 1 && bFacts.hasResult[i] === 0).map((q) => q.id),
    removed: baseline.queries.filter((_, i) => bFacts.hasResult[i] === 1 && cFacts.hasResult[i] === 0).map((q) => q.id),
    unknown_query_ids: {
      baseline: distinctSorted(baseline.unknownResultIds),
      candidate: distinctSorted(candidate.unknownResultIds),
    },
    duplicate_query_ids: {
      baseline: [...baseline.duplicateResultIds].sort(),
      candidate: [...candidate.duplicateResultIds].sort(),
    },
    ...(baseline.cappedResultIds.length + candidate.cappedResultIds.length > 0
      ? {
          capped_query_ids: {
            baseline: distinctSorted(baseline.cappedResultIds),
            candidate: distinctSorted(candidate.cappedResultIds),
          },
        }
      : {}),
    shared: bFacts.hasResult.reduce(
      (n: number, b: number, i: number) => n + (b === 1 && cFacts.hasResult[i] === 1 ? 1 : 0),
      0,
    ),
  };
}

/** Both sides' per-query values over one metric table; the baseline's reused from `prepared` where it fits. */
function measureSides(
  baseline: TabulatedRun,
  candidate: TabulatedRun,
  defs: MetricDef[],
  valuesKeyNow: string,
  prepared: PreparedBaseline | null,
  judgeComparable: boolean,
): Sides {
  const bValues =
    prepared?.table === baseline && prepared.key === valuesKeyNow
      ? prepared.values
      : new PerQueryValues(defs, baseline.queries.length, baseline.columns);
  return {
    baseline,
    candidate,
    bValues,
    // one table on both sides (the candidate-only report): measured once
    cValues: candidate === baseline ? bValues : new PerQueryValues(defs, candidate.queries.length, candidate.columns),
    comparable: (def) => def.family !== 'judge' || judgeComparable,
  };
}

/** The options the report records: what a reader needs to reproduce its numbers. */
function reportedOptions(options: CompareOptions): Comparison['options'] {
  return {
    ks: options.ks,
    mrr_cutoff: options.mrrCutoff,
    ndcg_gain: options.ndcgGain,
    min_grade: options.minGrade,
    mean_over: options.meanOver,
    seed: options.seed,
    permutations: options.permutations,
    ...(options.profile !== undefined && options.profile !== 'evalverdict' ? { profile: options.profile } : {}),
  };
}

/** The per-query columns the gate stage asks for after the report is built: paired differences, failing queries. */
function perQueryLookups(
  defs: MetricDef[],
  sides: Sides,
): Pick<ComparedRuns, 'pairedDiffsOf' | 'failingQueriesOf' | 'pairedQuantityOf'> {
  const groups = groupQueries(sides.baseline.queries);
  const pairedDiffsOf = (id: string, where?: { key: string; value: string }) => {
    if (!defs.some((d) => d.id === id && d.paired && d.perQuery)) return null;
    const rows = where === undefined ? null : (groups[where.key as keyof typeof groups]?.get(where.value) ?? null);
    if (where !== undefined && rows === null) return null;
    return pairedDiffs(sides.bValues.column(id), sides.cValues.column(id), rows);
  };
  const failingQueriesOf = (id: string, bad: number) =>
    defs.some((d) => d.id === id && d.perQuery)
      ? sides.candidate.queries.filter((_, i) => sides.cValues.column(id)[i] === bad).map((q) => q.id)
      : null;
  // A quantity's values on both sides, over the queries that have it on both (a trade's cost: issue 49).
  const pairedQuantityOf = (name: string) => {
    const [b, c] = [sides.bValues.quantity(name), sides.cValues.quantity(name)];
    if (b === null || c === null) return null;
    const rows: number[] = [];
    for (let i = 0; i < b.length; i++) if (b[i] === b[i] && c[i] === c[i]) rows.push(i);
    return { baseline: Float64Array.from(rows, (i) => b[i]), candidate: Float64Array.from(rows, (i) => c[i]) };
  };
  return { pairedDiffsOf, failingQueriesOf, pairedQuantityOf };
}

export function compareScored(
  baseline: TabulatedRun,
  candidate: TabulatedRun,
  options: CompareOptions,
  chunkMatch: ChunkMatchMode,
  prepared: PreparedBaseline | null = null,
): ComparedRuns {
  options = withGoldenProfile(options, baseline.golden);
  const stages = [...new Set([...baseline.recordStages, ...candidate.recordStages])].sort();
  const defs = buildMetricTable(options, stages);
  const bRun = baseline.run.run;
  const cRun = candidate.run.run;
  const judgeComparable = bRun.judgeModel === cRun.judgeModel && bRun.judgePromptVersion === cRun.judgePromptVersion;
  const differences = configDifferences(baseline.run, candidate.run);
  const sides = measureSides(baseline, candidate, defs, valuesKey(options, stages), prepared, judgeComparable);
  checkResultsMatchGolden(baseline.run, resultsMatched(baseline), baseline.unknownResultIds);
  checkResultsMatchGolden(candidate.run, resultsMatched(candidate), candidate.unknownResultIds);
  const metrics = compareMetrics(defs, sides, options);
  const { breakdowns, groupSizes } = compareBreakdowns(defs, sides);
  const perQueryMetric = perQueryMetricOf(options);
  // Every retrieval metric has per-query values, whatever the runs' stages: the column is always there.
  const deltaColumns = {
    baseline: sides.bValues.column(perQueryMetric),
    candidate: sides.cValues.column(perQueryMetric),
  };
  const queryMatch = loosestMatch(baseline, candidate);
  const matchCounts = chunkMatchCounts(queryMatch);
  const report: Comparison = {
    chunker_version_match: chunkMatch,
    ...(matchCounts !== null ? { chunk_match_queries: matchCounts } : {}),
    baseline: summariseRun(baseline.run),
    candidate: summariseRun(candidate.run),
    golden: goldenCoverage(baseline, candidate),
    differences,
    judge_comparable: judgeComparable,
    alpha: options.alpha,
    metrics,
    breakdowns,
    per_query_metric: perQueryMetric,
    ...queryOutcomes(
      baseline,
      candidate,
      judgeComparable,
      deltaColumns,
      matchCounts !== null ? chunkMatch : null,
      queryMatch,
      options.profile === 'wfgy',
    ),
    options: reportedOptions(options),
  };
  const ignoredStageTimings = { baseline: baseline.ignoredStageTimings, candidate: candidate.ignoredStageTimings };
  return { report, defs, groupSizes, ignoredStageTimings, ...perQueryLookups(defs, sides) };
}

/** Whether the runs declare different chunker versions up front (under strict: an InputError instead). */
export function declaredVersionsDiffer(baseline: RunMeta, candidate: RunMeta, strict: boolean): boolean {
  const a = declaredChunkerVersion(baseline);
  const b = declaredChunkerVersion(candidate);
  if (a === undefined || b === undefined || a === b) return false;
  if (strict) refuseStrict(baseline, candidate, a, b);
  return true;
}

/**
 * Two runs already scored with exact chunk matching (e.g. in parallel): the comparison, or null when the versions
 * their hits carry differ, and compareRuns must score both again with the fallback. Under strict: an InputError.
 * `prepared`: the baseline's side measured ahead (prepareBaseline), used when it fits.
 */
export function compareExactlyScored(
  bs: TabulatedRun,
  cs: TabulatedRun,
  options: Partial<CompareOptions> = {},
  prepared: PreparedBaseline | null = null,
): ComparedRuns | null {
  const opts: CompareOptions = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const versionB = chunkerVersionOf(bs);
  const versionC = chunkerVersionOf(cs);
  if (versionB !== versionC) {
    if (opts.strictChunkerVersion) refuseStrict(bs.run, cs.run, versionB, versionC);
    return null;
  }
  return compareScored(bs, cs, opts, 'exact', prepared);
}

/** A run to compare: in memory, streamed, or a stream opened only when it is needed (see deferRunStream). */
export type RunSource = RunData | RunStream | (() => RunData | RunStream);

/**
 * Compares two runs scored against one golden set (applyGates in src/gate/gates.ts then gates the comparison).
 * One run database is in memory at a time: the baseline is scored and released before the candidate is opened
 * (pass the candidate as a function to defer that). Matching is exact unless the chunker versions (declared, else
 * those the hits carry) differ; then both runs are scored again with the fallback.
 */
export function compareRuns(
  baseline: RunSource,
  candidate: RunSource,
  golden: GoldenSet,
  options: Partial<CompareOptions> = {},
): ComparedRuns {
  const opts: CompareOptions = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const b = resultsOf(typeof baseline === 'function' ? baseline() : baseline);
  let c = typeof candidate === 'function' ? null : resultsOf(candidate);
  const exactOptions: AggregateOptions = { ...opts, chunkMatch: 'exact', referenceChunks: null };
  // Each run is scored straight into its table: no record is kept.
  const scoreReleasing = (run: RunStream, scoring: AggregateOptions): TabulatedRun => {
    try {
      return scoreToTable(run, golden, scoring);
    } finally {
      run.release?.();
    }
  };
  const fallback = (cRun: RunStream): ComparedRuns => {
    const scoring: AggregateOptions = {
      ...opts,
      chunkMatch: 'fallback_doc_span',
      referenceChunks: mergedChunks(b, cRun),
    };
    const bs = scoreReleasing(b, scoring);
    const cs = scoreReleasing(cRun, scoring);
    return compareScored(bs, cs, opts, matchLabel(bs, cs));
  };
  const declaredDiffer = (run: RunStream) => declaredVersionsDiffer(b, run, opts.strictChunkerVersion);
  // Both runs known up front and declared different: no exact pass.
  if (c && declaredDiffer(c)) return fallback(c);
  const bs = scoreReleasing(b, exactOptions);
  c ??= resultsOf((candidate as () => RunData | RunStream)());
  if (declaredDiffer(c)) return fallback(c);
  const cs = scoreReleasing(c, exactOptions);
  const versionB = chunkerVersionOf(bs);
  const versionC = chunkerVersionOf(cs);
  if (versionB !== versionC) {
    if (opts.strictChunkerVersion) refuseStrict(b, c, versionB, versionC);
    return fallback(c);
  }
  return compareScored(bs, cs, opts, 'exact');
}

/**
 * A candidate-only report (`--baseline none`): the candidate scored once, compared with itself for the shape of the
 * report, then every baseline-side value nulled: baseline values, deltas, tests, intervals, per-query outcomes and
 * counts. Gates that compare with a baseline then have no data (applyGates); `min` and `max` gates apply.
 */
export function compareCandidateOnly(
  candidate: RunSource,
  golden: GoldenSet,
  options: Partial<CompareOptions> = {},
): ComparedRuns {
  const opts: CompareOptions = { ...DEFAULT_COMPARE_OPTIONS, ...options };
  const run = resultsOf(typeof candidate === 'function' ? candidate() : candidate);
  let table: TabulatedRun;
  try {
    table = scoreToTable(run, golden, { ...opts, chunkMatch: 'exact', referenceChunks: null });
  } finally {
    run.release?.();
  }
  const { report, defs, groupSizes, failingQueriesOf } = compareScored(table, table, opts, 'exact');
  const alone = (m: MetricComparison): MetricComparison => ({
    ...m,
    baseline: null,
    delta: null,
    rel_delta: null,
    n_baseline: 0,
    n_paired: null,
    p_value: null,
    ci: null,
    significant: null,
  });
  const mapMetrics = (metrics: Record<string, MetricComparison>) =>
    Object.fromEntries(Object.entries(metrics).map(([id, m]) => [id, alone(m)]));
  return {
    report: {
      ...report,
      baseline: null,
      differences: [],
      metrics: mapMetrics(report.metrics),
      breakdowns: Object.fromEntries(
        Object.entries(report.breakdowns).map(([kind, groups]) => [
          kind,
          Object.fromEntries(Object.entries(groups).map(([name, metrics]) => [name, mapMetrics(metrics)])),
        ]),
      ),
      golden: {
        ...report.golden,
        added: [],
        removed: [],
        unknown_query_ids: { ...report.golden.unknown_query_ids, baseline: [] },
        duplicate_query_ids: { ...report.golden.duplicate_query_ids, baseline: [] },
        ...(report.golden.capped_query_ids
          ? { capped_query_ids: { ...report.golden.capped_query_ids, baseline: [] } }
          : {}),
      },
      per_query: [],
      counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    },
    defs,
    groupSizes,
    ignoredStageTimings: { baseline: 0, candidate: table.ignoredStageTimings },
    pairedDiffsOf: () => null,
    failingQueriesOf,
  };
}
