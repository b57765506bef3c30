/** computeAggregate: every metric of one run, overall and broken down. Pure: data in, plain object out. */
import { InputError } from '../errors.js';
import type { GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import { buildMetricTable } from './metrics/registry.js';
import { PerQueryValues, quantityKey } from './perQueryValues.js';
import type { MetricDef, MetricValue } from './metrics/types.js';
import type { Columns } from './perQueryValues.js';
import { CAPS_TEXT, DEFAULT_OPTIONS } from './score.js';
import type { AggregateOptions, ScoredRun } from './score.js';
import { QUERY_CHUNK_MATCHES } from './matching.js';
import type { QueryChunkMatch } from './matching.js';
import { MAX_STAGES_PER_RUN, scoreToTable, tabulate } from './table.js';
import type { TableTransfer, TabulatedRun } from './table.js';

export type MetricMap = Record<string, MetricValue>;
export type BreakdownKind = 'category' | 'difficulty' | 'tag' | 'answerable' | 'vault';
/** `vault` only when some query names one (the 001 runner's breakdown), so other reports keep their shape. */
export type Breakdowns = Record<Exclude<BreakdownKind, 'vault'>, Record<string, MetricMap>> & {
  vault?: Record<string, MetricMap>;
};

export interface RunSummary {
  run_id: string;
  suite: string;
  commit_hash: string | null;
  created_at: string;
  chunker_version: string | null;
  /** Distinct chunks.chunker_version values, when the run has a chunks table. */
  chunker_versions: string[];
  embedding_model: string | null;
  index_version: string | null;
  judge_model: string | null;
  judge_prompt_version: string | null;
  /** The golden set its stored aggregate_json was computed against, when it has one (--write). */
  recorded_golden_fingerprint: string | null;
}

export interface AggregateReport {
  run: RunSummary;
  golden: { fingerprint: string; queries: number; pending: number };
  options: {
    ks: number[];
    mrr_cutoff: number;
    ndcg_gain: string;
    min_grade: number;
    mean_over: string;
    chunk_match: string;
    /** The golden set's metric profile, when it is not EvalVerdict's own (docs/golden-sets.md). */
    profile?: string;
  };
  /**
   * The 001 spec's spot-check summary, `judge_reliability: {disagreement_rate, spot_check_n}`: judge_disagreement_rate
   * and its n, present when some query has a spot check.
   */
  judge_reliability?: { disagreement_rate: number | null; spot_check_n: number };
  /** The 001 spec's coverage by document type (by extension), with documents and chunks tables. */
  coverage_by_doc_type?: Record<string, { documents: number; without_chunks: number; without_chunks_rate: number }>;
  /** Queries per chunk match mode, when some query's expected chunks were not matched exactly (docs/metrics.md). */
  chunk_match_queries?: Record<QueryChunkMatch, number>;
  metrics: MetricMap;
  breakdowns: Breakdowns;
  /** Metrics over pending queries (answer not indexed yet): reported apart, never gated. Present when there are any. */
  pending_metrics?: MetricMap;
  /** Result query ids that are not in the golden set (ignored). */
  unknown_query_ids: string[];
  /** Golden query ids with more than one result row in the run (the last one read counts), sorted. */
  duplicate_query_ids: string[];
  /**
   * Golden query ids whose result had more than MAX_HITS_PER_QUERY hits or MAX_CITATIONS_PER_ANSWER citations (those
   * past the cap not scored), sorted; present only when there is one.
   */
  capped_query_ids?: string[];
}

export function summariseRun(run: RunMeta): RunSummary {
  const versions = run.chunks ? [...new Set([...run.chunks.values()].map((c) => c.chunkerVersion))].sort() : [];
  return {
    run_id: run.run.runId,
    suite: run.run.suite,
    commit_hash: run.run.commitHash,
    created_at: run.run.createdAt,
    chunker_version: run.run.chunkerVersion,
    chunker_versions: versions,
    embedding_model: run.run.embeddingModel,
    index_version: run.run.indexVersion,
    judge_model: run.run.judgeModel,
    judge_prompt_version: run.run.judgePromptVersion,
    recorded_golden_fingerprint: run.run.recordedGoldenFingerprint ?? null,
  };
}

export function metricsFor(
  defs: MetricDef[],
  values: PerQueryValues,
  run: RunMeta,
  includeRunLevel: boolean,
  indexes?: ArrayLike<number>,
): MetricMap {
  const out: MetricMap = {};
  for (const def of defs) {
    if (def.runLevel && !includeRunLevel) continue;
    out[def.id] = values.evaluate(def, run, indexes);
  }
  return out;
}

/**
 * Groups query indexes by category, difficulty, each tag and answerable/unanswerable; queries without a value are
 * in no group. Groups and names come out sorted, so reports list them deterministically.
 */
/** What grouping reads of a golden query. */
export type GroupedQuery = Pick<GoldenQuery, 'category' | 'difficulty' | 'tags' | 'answerable' | 'vault'>;

/** Breakdown groups: per kind, each group's name and its rows (ascending), names sorted. */
export type Groups = Record<BreakdownKind, Map<string, Int32Array>>;

export function groupQueries(queries: readonly GroupedQuery[]): Record<BreakdownKind, Map<string, Int32Array>> {
  let groups = groupsCache.get(queries);
  if (!groups) groupsCache.set(queries, (groups = groupQueriesOnce(queries)));
  return groups;
}

/** One grouping per query list: compare groups the baseline's queries before the candidate's table arrives. */
const groupsCache = new WeakMap<readonly GroupedQuery[], Record<BreakdownKind, Map<string, Int32Array>>>();

function groupQueriesOnce(queries: readonly GroupedQuery[]): Record<BreakdownKind, Map<string, Int32Array>> {
  const groups: Record<BreakdownKind, Map<string, number[]>> = {
    category: new Map(),
    difficulty: new Map(),
    tag: new Map(),
    answerable: new Map(),
    vault: new Map(),
  };
  const add = (kind: BreakdownKind, name: string | null, i: number) => {
    if (name === null || name === '') return;
    let list = groups[kind].get(name);
    if (!list) groups[kind].set(name, (list = []));
    list.push(i);
  };
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i];
    add('category', q.category, i);
    add('difficulty', q.difficulty, i);
    const tags = q.tags;
    if (tags.length === 1) add('tag', tags[0], i);
    else if (tags.length > 1) for (const tag of new Set(tags)) add('tag', tag, i); // a tag listed twice counts once
    add('answerable', q.answerable ? 'answerable' : 'unanswerable', i);
    add('vault', q.vault ?? null, i);
  }
  const sorted = {} as Record<BreakdownKind, Map<string, Int32Array>>;
  for (const kind of Object.keys(groups) as BreakdownKind[]) {
    sorted[kind] = new Map(
      [...groups[kind]]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, list]) => [name, Int32Array.from(list)]),
    );
  }
  return sorted;
}

/**
 * The rows `first` then `second` as grouped together: each group's rows of `second` (counted from 0) come after
 * those of `first`, offset by `offset` (the rows of `first`). The same groups as grouping the joined rows.
 */
export function concatGroups(first: Groups, second: Groups, offset: number): Groups {
  const out = {} as Groups;
  for (const kind of Object.keys(first) as BreakdownKind[]) {
    const names = [...new Set([...first[kind].keys(), ...second[kind].keys()])].sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    out[kind] = new Map(
      names.map((name) => {
        const a = first[kind].get(name) ?? EMPTY_ROWS;
        const b = second[kind].get(name) ?? EMPTY_ROWS;
        const rows = new Int32Array(a.length + b.length);
        rows.set(a, 0);
        for (let j = 0; j < b.length; j++) rows[a.length + j] = b[j] + offset;
        return [name, rows];
      }),
    );
  }
  return out;
}

const EMPTY_ROWS = new Int32Array(0);

/**
 * What an aggregate reads of a scored run: a TabulatedRun gives one (aggregateTableOf), and so does a run tabulated
 * in two golden halves by two threads (concatTables in src/aggregate/table.ts), each thread grouping its own rows.
 */
export interface AggregateTable {
  run: RunMeta;
  options: AggregateOptions;
  golden: { fingerprint: string };
  /** The number of rows of `columns` (non-pending golden queries), and of `pendingColumns`. */
  rows: number;
  pendingRows: number;
  /** The breakdown groups of the rows of `columns` (groupQueries). */
  groups: Groups;
  columns: TabulatedRun['columns'];
  pendingColumns: TabulatedRun['pendingColumns'];
  allStages: string[];
  unknownResultIds: string[];
  duplicateResultIds: string[];
  cappedResultIds: string[];
  /** Results whose query_id the golden set has (pending queries included). */
  resultsMatched: number;
  ignoredStageTimings: number;
  /** Per row, how its expected chunks were matched (RecordFacts.chunkMatch). */
  chunkMatch: Uint8Array;
}

/**
 * A run tabulated in two golden halves by two threads, as one table: `first` scored the first half's queries,
 * `second` (sent by the other thread, with its rows' `secondGroups` counted from 0) the second half's, whose ids
 * all sort after the first half's. The rows are the first half's then the second's: the whole golden set's order.
 */
export function joinHalfTables(
  first: TabulatedRun,
  second: TableTransfer,
  secondGroups: Groups,
  fingerprint: string,
): AggregateTable {
  const rows = first.queries.length;
  const secondRows = second.facts.hasResult.length;
  for (const groups of Object.values(secondGroups)) {
    for (const list of groups.values())
      if (list.some((row) => row >= secondRows))
        throw new Error("joinHalfTables: the second half's groups do not match its table");
  }
  // Each half measured its own first stages in name order; together, the first of both.
  const stages = [...new Set([...first.allStages, ...second.allStages])].sort();
  const cutStages = new Set(stages.splice(MAX_STAGES_PER_RUN).map((name) => quantityKey(`timings_ms.${name}`)));
  let ignoredStageTimings = first.ignoredStageTimings + second.ignoredStageTimings;
  const join = (a: Columns, b: Array<[string, Float64Array]>, aRows: number, bRows: number): Columns => {
    const bColumns = new Map(b);
    const out: Columns = new Map();
    for (const key of new Set([...a.keys(), ...bColumns.keys()])) {
      if (cutStages.has(key)) {
        for (const column of [a.get(key), bColumns.get(key)]) ignoredStageTimings += countValues(column);
        continue;
      }
      const [x, y] = [a.get(key), bColumns.get(key)];
      // Into the room left after the first half's values (scoreToTable's spareRows), else into a new column.
      const inPlace = x !== undefined && x.buffer.byteLength - x.byteOffset >= (aRows + bRows) * 8;
      const column = inPlace
        ? new Float64Array(x.buffer, x.byteOffset, aRows + bRows)
        : new Float64Array(aRows + bRows).fill(NaN, 0, aRows);
      if (x && !inPlace) column.set(x, 0);
      if (y) column.set(y, aRows);
      else column.fill(NaN, aRows); // a part without the column has no values there
      out.set(key, column);
    }
    return out;
  };
  const pendingRows = first.pendingQueries.length;
  const secondPendingRows = second.pendingHasResult.length;
  return {
    run: first.run,
    options: first.options,
    golden: { fingerprint },
    rows: rows + secondRows,
    pendingRows: pendingRows + secondPendingRows,
    groups: concatGroups(groupQueries(first.queries), secondGroups, rows),
    columns: join(first.columns, second.columns, rows, secondRows),
    pendingColumns: join(first.pendingColumns, second.pendingColumns, pendingRows, secondPendingRows),
    allStages: stages,
    unknownResultIds: [...first.unknownResultIds, ...second.unknownResultIds],
    duplicateResultIds: [...first.duplicateResultIds, ...second.duplicateResultIds],
    cappedResultIds: [...first.cappedResultIds, ...second.cappedResultIds],
    resultsMatched: resultsMatched(first) + resultsMatched(second),
    ignoredStageTimings,
    chunkMatch: concatBytes(first.facts.chunkMatch, second.facts.chunkMatch),
  };
}

/** Values (not NaN) in `column`, or 0 when there is none. */
function countValues(column: Float64Array | undefined): number {
  let n = 0;
  if (column) for (const v of column) if (!Number.isNaN(v)) n++;
  return n;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Queries per chunk match mode (matching.ts), null when every one matched exactly. */
export function chunkMatchCounts(chunkMatch: Uint8Array): Record<QueryChunkMatch, number> | null {
  const counts = Object.fromEntries(QUERY_CHUNK_MATCHES.map((m) => [m, 0])) as Record<QueryChunkMatch, number>;
  for (const m of chunkMatch) counts[QUERY_CHUNK_MATCHES[m]]++;
  return counts.exact === chunkMatch.length ? null : counts;
}

/** A run's table as the aggregate reads it: its rows counted and grouped. */
export function aggregateTableOf(table: TabulatedRun): AggregateTable {
  return {
    run: table.run,
    options: table.options,
    golden: table.golden,
    rows: table.queries.length,
    pendingRows: table.pendingQueries.length,
    groups: groupQueries(table.queries),
    chunkMatch: table.facts.chunkMatch,
    columns: table.columns,
    pendingColumns: table.pendingColumns,
    allStages: table.allStages,
    unknownResultIds: table.unknownResultIds,
    duplicateResultIds: table.duplicateResultIds,
    cappedResultIds: table.cappedResultIds,
    resultsMatched: resultsMatched(table),
    ignoredStageTimings: table.ignoredStageTimings,
  };
}

/** Results of `table` whose query_id the golden set has (pending queries included). */
export function resultsMatched(table: Pick<TabulatedRun, 'facts' | 'pendingHasResult'>): number {
  let n = 0;
  for (const has of table.facts.hasResult) n += has;
  for (const has of table.pendingHasResult) n += has;
  return n;
}

/**
 * Results whose query_id the golden set lacks are left out of every metric. When that is every result of a run, the
 * golden file or the ids' form is wrong (ids are compared as exact text: `Q1` is not `q1`), and every metric would
 * quietly read as a miss: that is an input error, not a run that missed everything.
 */
export function checkResultsMatchGolden(run: RunMeta, matched: number, unknownIds: readonly string[]): void {
  if (matched > 0 || unknownIds.length === 0) return;
  throw new InputError(
    `${run.source}: run \`${run.run.runId}\`: none of its ${unknownIds.length} result(s) has a query_id in the golden set ` +
      `(e.g. ${sampleIds(unknownIds)}); query ids are compared as exact text: is it the right golden file, and do the ids match in case and form?`,
  );
}

/** Each id once, sorted: a query with more than one result row is still one unknown query. */
export function distinctSorted(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

/** The warning for results the golden set does not know (not scored), or null when there are none. */
export function unknownResultsWarning(source: string, runId: string, unknownIds: readonly string[]): string | null {
  if (unknownIds.length === 0) return null;
  return `${source}: run \`${runId}\`: results of ${unknownIds.length} query id(s) the golden set does not have are not scored (e.g. ${sampleIds(unknownIds)})`;
}

/** The warning for `timings_ms` stages past MAX_STAGES_PER_RUN, or null when every stage is measured. */
export function ignoredStagesWarning(source: string, runId: string, ignoredTimings: number): string | null {
  if (ignoredTimings === 0) return null;
  return (
    `${source}: run \`${runId}\`: more than ${MAX_STAGES_PER_RUN} distinct \`timings_ms\` stages; the first ${MAX_STAGES_PER_RUN} in name order are measured ` +
    `and ${ignoredTimings.toLocaleString('en-US')} timing(s) of the others are ignored`
  );
}

/**
 * The warning for golden queries with more than one result row, or null when there are none: a run table without
 * kebab's primary key (run_id, query_id) can hold them, and only the last row read is scored.
 */
export function duplicateResultsWarning(source: string, runId: string, duplicateIds: readonly string[]): string | null {
  if (duplicateIds.length === 0) return null;
  return (
    `${source}: run \`${runId}\`: ${duplicateIds.length} query id(s) have more than one row in eval_query_results, and only the last one read is scored (e.g. ${sampleIds(duplicateIds)}); ` +
    'the table should have PRIMARY KEY (run_id, query_id)'
  );
}

/**
 * The warning for results whose hits or citations were cut to the caps (MAX_HITS_PER_QUERY, MAX_CITATIONS_PER_ANSWER),
 * or null when none was: one per run, with the number of queries and the first of their ids.
 */
export function cappedResultsWarning(source: string, runId: string, cappedIds: readonly string[]): string | null {
  if (cappedIds.length === 0) return null;
  const ids = distinctSorted(cappedIds);
  return (
    `${source}: run \`${runId}\`: ${ids.length} quer${ids.length === 1 ? 'y has' : 'ies have'} more than ${CAPS_TEXT}; ` +
    `only the first by rank (citations: in order) are scored (e.g. ${JSON.stringify(ids[0])})`
  );
}

const sampleIds = (ids: readonly string[]): string =>
  distinctSorted(ids)
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(', ');

const asTable = (scored: ScoredRun | TabulatedRun | AggregateTable): AggregateTable =>
  'records' in scored ? aggregateTableOf(tabulate(scored)) : 'queries' in scored ? aggregateTableOf(scored) : scored;

/** The metric table of a run's aggregate: its stages include those of pending results. */
export function metricTableFor(scored: ScoredRun | TabulatedRun | AggregateTable): MetricDef[] {
  return buildMetricTable(scored.options, ('records' in scored ? asTable(scored) : scored).allStages);
}

export function aggregateScored(
  scored: ScoredRun | TabulatedRun | AggregateTable,
  defs?: MetricDef[],
): AggregateReport {
  const table = asTable(scored);
  const { run, golden, options, rows, pendingRows } = table;
  checkResultsMatchGolden(run, table.resultsMatched, table.unknownResultIds);
  defs ??= metricTableFor(table);
  const values = new PerQueryValues(defs, rows, table.columns);
  const breakdowns = {} as Breakdowns;
  const kinds = Object.entries(table.groups) as Array<[BreakdownKind, Map<string, Int32Array>]>;
  values.sumGroups(
    defs,
    kinds.flatMap(([, groups]) => [...groups.values()]),
  );
  for (const [kind, groups] of kinds) {
    if (kind === 'vault' && groups.size === 0) continue;
    const byName = Object.create(null) as Record<string, MetricMap>; // group names are the input's: `__proto__` too
    for (const [name, indexes] of groups) byName[name] = metricsFor(defs, values, run, false, indexes);
    breakdowns[kind] = byName;
  }
  const matchCounts = chunkMatchCounts(table.chunkMatch);
  const report: AggregateReport = {
    run: summariseRun(run),
    golden: { fingerprint: golden.fingerprint, queries: rows, pending: pendingRows },
    options: {
      ks: options.ks,
      mrr_cutoff: options.mrrCutoff,
      ndcg_gain: options.ndcgGain,
      min_grade: options.minGrade,
      mean_over: options.meanOver,
      chunk_match: options.chunkMatch,
      ...(options.profile !== undefined && options.profile !== 'evalverdict' ? { profile: options.profile } : {}),
    },
    ...(matchCounts !== null ? { chunk_match_queries: matchCounts } : {}),
    metrics: metricsFor(defs, values, run, true),
    breakdowns,
    unknown_query_ids: distinctSorted(table.unknownResultIds),
    duplicate_query_ids: [...table.duplicateResultIds].sort(),
    ...(table.cappedResultIds.length > 0 ? { capped_query_ids: distinctSorted(table.cappedResultIds) } : {}),
  };
  if (pendingRows > 0) {
    const pending = new PerQueryValues(defs, pendingRows, table.pendingColumns);
    report.pending_metrics = metricsFor(defs, pending, run, false);
  }
  const disagreement = report.metrics.judge_disagreement_rate;
  if (disagreement !== undefined && disagreement.n > 0) {
    report.judge_reliability = { disagreement_rate: disagreement.value, spot_check_n: disagreement.n };
  }
  const byType = coverageByDocType(run);
  if (byType !== null) report.coverage_by_doc_type = byType;
  return report;
}

/** A document's type: the lower-cased extension of its workspace path (`md`, `pdf`, `go`), or `(none)`. */
export function docTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '(none)';
}

/**
 * The 001 spec's "Coverage by Doc Type": per document type, documents and those with no chunk, and their rate;
 * null without documents and chunks tables.
 */
function coverageByDocType(run: RunMeta): AggregateReport['coverage_by_doc_type'] | null {
  if (!run.documents || !run.chunks || run.documents.size === 0) return null;
  const withChunks = new Set<string>();
  for (const c of run.chunks.values()) withChunks.add(c.docId);
  const out: NonNullable<AggregateReport['coverage_by_doc_type']> = Object.create(null); // types are the input's
  for (const doc of run.documents.values()) {
    const type = docTypeOf(doc.workspacePath);
    const entry = (out[type] ??= { documents: 0, without_chunks: 0, without_chunks_rate: 0 });
    entry.documents++;
    if (!withChunks.has(doc.docId)) entry.without_chunks++;
  }
  for (const entry of Object.values(out)) entry.without_chunks_rate = entry.without_chunks / entry.documents;
  return out;
}

/** Every aggregate metric of `run` (in memory, or streamed: see openRunStream) scored against `golden`. */
export function computeAggregate(
  run: RunData | RunStream,
  golden: GoldenSet,
  options: Partial<AggregateOptions> = {},
): AggregateReport {
  return aggregateScored(scoreToTable(run, golden, { ...DEFAULT_OPTIONS, ...options }));
}
