/** computeAggregate: every metric of one run, overall and broken down. Pure: data in, plain object out. */
import type { GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import { buildMetricTable, PerQueryValues } from './metrics.js';
import type { MetricDef, MetricValue } from './metrics.js';
import { DEFAULT_OPTIONS } from './score.js';
import type { AggregateOptions, ScoredRun } from './score.js';
import { scoreToTable, tabulate } from './table.js';
import type { TabulatedRun } from './table.js';

export type MetricMap = Record<string, MetricValue>;
export type BreakdownKind = 'category' | 'difficulty' | 'tag' | 'answerable';
export type Breakdowns = Record<BreakdownKind, Record<string, MetricMap>>;

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
}

export interface AggregateReport {
  run: RunSummary;
  golden: { fingerprint: string; queries: number; pending: number };
  options: { ks: number[]; mrr_cutoff: number; ndcg_gain: string; min_grade: number; mean_over: string; chunk_match: string };
  metrics: MetricMap;
  breakdowns: Breakdowns;
  /** Metrics over pending queries (answer not indexed yet): reported apart, never gated. Present when there are any. */
  pending_metrics?: MetricMap;
  /** Result query ids that are not in the golden set (ignored). */
  unknown_query_ids: string[];
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
  };
}

export function metricsFor(defs: MetricDef[], values: PerQueryValues, run: RunMeta, includeRunLevel: boolean, indexes?: ArrayLike<number>): MetricMap {
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
export type GroupedQuery = Pick<GoldenQuery, 'category' | 'difficulty' | 'tags' | 'answerable'>;

export function groupQueries(queries: readonly GroupedQuery[]): Record<BreakdownKind, Map<string, Int32Array>> {
  let groups = groupsCache.get(queries);
  if (!groups) groupsCache.set(queries, (groups = groupQueriesOnce(queries)));
  return groups;
}

/** One grouping per query list: compare groups the baseline's queries before the candidate's table arrives. */
const groupsCache = new WeakMap<readonly GroupedQuery[], Record<BreakdownKind, Map<string, Int32Array>>>();

function groupQueriesOnce(queries: readonly GroupedQuery[]): Record<BreakdownKind, Map<string, Int32Array>> {
  const groups: Record<BreakdownKind, Map<string, number[]>> = {
    category: new Map(), difficulty: new Map(), tag: new Map(), answerable: new Map(),
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
  }
  const sorted = {} as Record<BreakdownKind, Map<string, Int32Array>>;
  for (const kind of Object.keys(groups) as BreakdownKind[]) {
    sorted[kind] = new Map([...groups[kind]].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, list]) => [name, Int32Array.from(list)]));
  }
  return sorted;
}

/**
 * What an aggregate reads of a scored run: a TabulatedRun is one, and so is a run tabulated in two golden halves
 * by two threads (concatTables in src/aggregate/table.ts), whose second half's queries are known only by group.
 */
export interface AggregateTable {
  run: RunMeta;
  options: AggregateOptions;
  golden: { fingerprint: string };
  /** The rows of `columns`, and of `pendingColumns`. */
  queries: readonly GroupedQuery[];
  pendingQueries: readonly GroupedQuery[];
  columns: TabulatedRun['columns'];
  pendingColumns: TabulatedRun['pendingColumns'];
  allStages: string[];
  unknownResultIds: string[];
}

const asTable = (scored: ScoredRun | AggregateTable): AggregateTable => ('records' in scored ? tabulate(scored) : scored);

/** The metric table of a run's aggregate: its stages include those of pending results. */
export function metricTableFor(scored: ScoredRun | AggregateTable): MetricDef[] {
  return buildMetricTable(scored.options, asTable(scored).allStages);
}

export function aggregateScored(scored: ScoredRun | AggregateTable, defs?: MetricDef[]): AggregateReport {
  const table = asTable(scored);
  const { run, golden, options, queries, pendingQueries } = table;
  defs ??= metricTableFor(table);
  const values = new PerQueryValues(defs, queries.length, table.columns);
  const breakdowns = {} as Breakdowns;
  for (const [kind, groups] of Object.entries(groupQueries(queries)) as Array<[BreakdownKind, Map<string, Int32Array>]>) {
    breakdowns[kind] = {};
    for (const [name, indexes] of groups) breakdowns[kind][name] = metricsFor(defs, values, run, false, indexes);
  }
  const report: AggregateReport = {
    run: summariseRun(run),
    golden: { fingerprint: golden.fingerprint, queries: queries.length, pending: pendingQueries.length },
    options: {
      ks: options.ks, mrr_cutoff: options.mrrCutoff, ndcg_gain: options.ndcgGain, min_grade: options.minGrade,
      mean_over: options.meanOver, chunk_match: options.chunkMatch,
    },
    metrics: metricsFor(defs, values, run, true),
    breakdowns,
    unknown_query_ids: [...table.unknownResultIds].sort(),
  };
  if (pendingQueries.length > 0) report.pending_metrics = metricsFor(defs, new PerQueryValues(defs, pendingQueries.length, table.pendingColumns), run, false);
  return report;
}

/** Every aggregate metric of `run` (in memory, or streamed: see openRunStream) scored against `golden`. */
export function computeAggregate(run: RunData | RunStream, golden: GoldenSet, options: Partial<AggregateOptions> = {}): AggregateReport {
  return aggregateScored(scoreToTable(run, golden, { ...DEFAULT_OPTIONS, ...options }));
}
