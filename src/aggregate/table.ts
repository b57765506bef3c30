/**
 * A scored run as a table: for each golden query, every per-query metric value (one Float64Array column per metric
 * or quantity, NaN where the query is not in the denominator) and the few facts a comparison reads per query (the
 * rank of the first relevant hit, refusal, groundedness, judge scores). Aggregation and comparison read only
 * this, never the records, so a worker thread that scored a run hands back typed arrays (moved between threads,
 * not copied) instead of a hundred thousand record objects to rebuild.
 */
import type { GoldenQuery, GoldenSet, RunMeta } from '../types.js';
import { buildMetricTable, columnsOf, stagesOf } from './metrics.js';
import type { Columns } from './metrics.js';
import type { AggregateOptions, QueryRecord, ScoredRun } from './score.js';

/** Per query (rows as in `TabulatedRun.queries`): what compare's per-query outcomes read. */
export interface RecordFacts {
  /** The run has a result for the query: 1, else 0. */
  hasResult: Uint8Array;
  /** At least one relevant expectation: 1, else 0. */
  hasExpectations: Uint8Array;
  /** Rank of the first relevant hit; 0 when none. */
  firstRelevantRank: Int32Array;
  /** 1 true, 0 false, -1 null. */
  refused: Int8Array;
  groundedText: Int8Array;
  /** Stored judge scores; NaN when absent. */
  judgeGroundedness: Float64Array;
  judgeCorrectness: Float64Array;
}

export interface TabulatedRun {
  run: RunMeta;
  golden: GoldenSet;
  options: AggregateOptions;
  /** Non-pending golden queries in golden-set order: the rows of `columns` and `facts`. */
  queries: GoldenQuery[];
  /** Pending golden queries: the rows of `pendingColumns` and `pendingHasResult`. */
  pendingQueries: GoldenQuery[];
  /** Stage names in the `timings_ms` of the non-pending results (compare's metric table). */
  recordStages: string[];
  /** ... and of the pending ones too (aggregate's metric table; the columns are computed for it). */
  allStages: string[];
  columns: Columns;
  pendingColumns: Columns;
  facts: RecordFacts;
  pendingHasResult: Uint8Array;
  /** Result query ids that the golden set does not know. */
  unknownResultIds: string[];
  /** Distinct chunker_version values carried by the hits, sorted. */
  hitChunkerVersions: string[];
  /** Some hit carries a line citation. */
  hitsHaveCitations: boolean;
}

const tri = (b: boolean | null): number => (b === null ? -1 : b ? 1 : 0);

export function factsOf(records: readonly QueryRecord[]): RecordFacts {
  const n = records.length;
  const facts: RecordFacts = {
    hasResult: new Uint8Array(n), hasExpectations: new Uint8Array(n), firstRelevantRank: new Int32Array(n),
    refused: new Int8Array(n), groundedText: new Int8Array(n), judgeGroundedness: new Float64Array(n), judgeCorrectness: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const r = records[i];
    facts.hasResult[i] = r.result === null ? 0 : 1;
    facts.hasExpectations[i] = r.hasExpectations ? 1 : 0;
    facts.firstRelevantRank[i] = r.vec.firstRelevantRank;
    facts.refused[i] = tri(r.refused);
    facts.groundedText[i] = tri(r.groundedText);
    facts.judgeGroundedness[i] = r.result?.judge?.groundedness ?? NaN;
    facts.judgeCorrectness[i] = r.result?.judge?.correctness ?? NaN;
  }
  return facts;
}

/** The table of a scored run: every per-query value computed once, from the records, which can then be dropped. */
export function tabulate(scored: ScoredRun): TabulatedRun {
  const recordStages = stagesOf(scored.records);
  const allStages = stagesOf([...scored.records, ...scored.pendingRecords]);
  const defs = buildMetricTable(scored.options, allStages);
  return {
    run: scored.run,
    golden: scored.golden,
    options: scored.options,
    queries: scored.records.map((r) => r.golden),
    pendingQueries: scored.pendingRecords.map((r) => r.golden),
    recordStages,
    allStages,
    columns: columnsOf(defs, scored.records),
    pendingColumns: columnsOf(defs, scored.pendingRecords),
    facts: factsOf(scored.records),
    pendingHasResult: Uint8Array.from(scored.pendingRecords, (r) => (r.result === null ? 0 : 1)),
    unknownResultIds: scored.unknownResultIds,
    hitChunkerVersions: scored.hitChunkerVersions,
    hitsHaveCitations: scored.hitsHaveCitations,
  };
}

/** A TabulatedRun without its run tables and golden set, as a worker thread sends it (typed arrays moved). */
export type TableTransfer = Omit<TabulatedRun, 'run' | 'golden' | 'options' | 'queries' | 'pendingQueries' | 'columns' | 'pendingColumns'> & {
  columns: Array<[string, Float64Array]>;
  pendingColumns: Array<[string, Float64Array]>;
};

export function tableTransfer(table: TabulatedRun): { message: TableTransfer; transfer: ArrayBuffer[] } {
  const { run: _run, golden: _golden, options: _options, queries: _queries, pendingQueries: _pending, ...rest } = table;
  const message: TableTransfer = { ...rest, columns: [...table.columns], pendingColumns: [...table.pendingColumns] };
  const buffers = new Set<ArrayBuffer>();
  for (const [, column] of [...message.columns, ...message.pendingColumns]) buffers.add(column.buffer as ArrayBuffer);
  for (const array of [...Object.values(message.facts), message.pendingHasResult]) buffers.add((array as Uint8Array).buffer as ArrayBuffer);
  return { message, transfer: [...buffers] };
}

/**
 * A worker's table joined to this thread's reading of the same run and golden set: the rows are the golden
 * queries in order, non-pending and pending apart, exactly as the worker's records were.
 */
export function tableFromTransfer(message: TableTransfer, run: RunMeta, golden: GoldenSet, options: AggregateOptions): TabulatedRun {
  const queries: GoldenQuery[] = [];
  const pendingQueries: GoldenQuery[] = [];
  for (const q of golden.queries) (q.pending ? pendingQueries : queries).push(q);
  if (queries.length !== message.facts.hasResult.length || pendingQueries.length !== message.pendingHasResult.length) {
    throw new Error('scoring worker: its table does not match the golden set read here');
  }
  return { ...message, run, golden, options, queries, pendingQueries, columns: new Map(message.columns), pendingColumns: new Map(message.pendingColumns) };
}

/**
 * One run tabulated in parts (disjoint query_id ranges, e.g. by two threads) as if tabulated whole: each golden
 * query's row comes from the part that has its result (a query no part has: the first part's "no result" row).
 */
export function mergeTables(parts: readonly TabulatedRun[]): TabulatedRun {
  const [first] = parts;
  const pick = (has: (part: TabulatedRun) => Uint8Array, n: number): Int32Array => {
    const from = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      for (let p = 0; p < parts.length; p++) {
        if (has(parts[p])[i]) {
          from[i] = p;
          break;
        }
      }
    }
    return from;
  };
  const rows = pick((p) => p.facts.hasResult, first.queries.length);
  const pendingRows = pick((p) => p.pendingHasResult, first.pendingQueries.length);
  const mergeColumns = (which: 'columns' | 'pendingColumns', from: Int32Array): Columns => {
    const out: Columns = new Map();
    const keys = new Set(parts.flatMap((p) => [...p[which].keys()]));
    for (const key of keys) {
      const column = new Float64Array(from.length);
      for (let i = 0; i < from.length; i++) column[i] = parts[from[i]][which].get(key)?.[i] ?? NaN;
      out.set(key, column);
    }
    return out;
  };
  const mergeArray = <A extends Uint8Array | Int8Array | Int32Array | Float64Array>(get: (p: TabulatedRun) => A, from: Int32Array): A => {
    const out = get(first).slice() as A;
    for (let i = 0; i < from.length; i++) out[i] = get(parts[from[i]])[i];
    return out;
  };
  const facts = {} as RecordFacts;
  for (const key of Object.keys(first.facts) as Array<keyof RecordFacts>) {
    (facts as unknown as Record<string, unknown>)[key] = mergeArray((p) => p.facts[key], rows);
  }
  const sortedUnion = (lists: string[][]) => [...new Set(lists.flat())].sort();
  return {
    ...first,
    recordStages: sortedUnion(parts.map((p) => p.recordStages)),
    allStages: sortedUnion(parts.map((p) => p.allStages)),
    columns: mergeColumns('columns', rows),
    pendingColumns: mergeColumns('pendingColumns', pendingRows),
    facts,
    pendingHasResult: mergeArray((p) => p.pendingHasResult, pendingRows),
    unknownResultIds: parts.flatMap((p) => p.unknownResultIds),
    hitChunkerVersions: sortedUnion(parts.map((p) => p.hitChunkerVersions)),
    hitsHaveCitations: parts.some((p) => p.hitsHaveCitations),
  };
}
