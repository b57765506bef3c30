/**
 * A scored run as a table: for each golden query, every per-query metric value (one Float64Array column per metric
 * or quantity, NaN where the query is not in the denominator) and the few facts a comparison reads per query (the
 * rank of the first relevant hit, refusal, groundedness, judge scores). Aggregation and comparison read only
 * this, never the records, so a worker thread that scored a run hands back typed arrays (moved between threads,
 * not copied) instead of a hundred thousand record objects to rebuild.
 */
import type { GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import { buildMetricTable } from './metrics/registry.js';
import { perQueryFunctions, quantityKey } from './perQueryValues.js';
import type { Columns } from './perQueryValues.js';
import { scoreEach, withGoldenProfile } from './score.js';
import type { QueryIdRange } from '../load/runDatabase.js';
import type { AggregateOptions, QueryRecord, ScoredRun, ScoringInfo } from './score.js';

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
  /**
   * What a per-query row reads besides the above (src/aggregate/perQuery.ts): hits returned, the answer cites a
   * relevant chunk (1/0), ckv's citation_correct (1, 0, -1 null), hits whose snippet is not in their chunk.
   */
  hitsReturned: Int32Array;
  citedRelevant: Uint8Array;
  lineCitationsCorrect: Int8Array;
  hitsSnippetMissing: Int32Array;
  /** How the query's expected chunks were matched: an index into QUERY_CHUNK_MATCHES (matching.ts). */
  chunkMatch: Uint8Array;
  /**
   * Bit e set: relevant expectation e (of the first 32) is met by the first relevant hit (`firstHitMet`), by some
   * hit (`anyHitMet`). compare's kebab regression reads them: the candidate missing the baseline's expected chunk.
   */
  firstHitMet: Uint32Array;
  anyHitMet: Uint32Array;
}

/** The FirstHitMet and AnyHitMet masks of one record (expectations past the 32nd are not in them). */
function metMasks(record: QueryRecord, minGrade: number): [number, number] {
  const { vec, expectations } = record;
  const first = vec.firstRelevantRank;
  let firstMask = 0;
  let anyMask = 0;
  const n = Math.min(32, expectations.length);
  for (let e = 0; e < n; e++) {
    const rank = vec.expectationFirstRank[e];
    if (rank === 0 || expectations[e].grade < minGrade) continue;
    anyMask |= 1 << e;
    if (rank === first) firstMask |= 1 << e;
  }
  return [firstMask >>> 0, anyMask >>> 0];
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
  /** Golden query ids with more than one result (ScoredRun.duplicateResultIds). */
  duplicateResultIds: string[];
  /** Golden query ids whose hits or citations were cut to the caps (ScoredRun.cappedResultIds). */
  cappedResultIds: string[];
  /** Distinct chunker_version values carried by the hits, sorted. */
  hitChunkerVersions: string[];
  /** Some hit carries a line citation. */
  hitsHaveCitations: boolean;
  /** `timings_ms` values of stages past the run's first MAX_STAGES_PER_RUN in name order: not measured. */
  ignoredStageTimings: number;
}

/**
 * The most `timings_ms` stages measured in one run: those whose names sort first (so which ones does not depend
 * on the order the results are read in, or on how many threads read them). Each stage is two metrics and a column
 * per query: without a cap, many thousands of names cost minutes and gigabytes (bench/README.md, "What was kept").
 * The timings of the rest are counted and warned of.
 */
export const MAX_STAGES_PER_RUN = 64;

const tri = (b: boolean | null): number => (b === null ? -1 : b ? 1 : 0);

/**
 * Writes records into a table row by row, each as soon as it is scored, so no record has to be kept. Rows are the
 * golden queries in order, non-pending and pending apart. Stage timings (the raw `timings_ms`) are collected as
 * stages appear and become columns at the end, so a stage pushed out by MAX_STAGES_PER_RUN costs only what it held;
 * a record that replaces an earlier one for the same query takes the earlier one's timings away, and a stage no
 * record times any more is no stage of the run.
 */
class TableWriter {
  private readonly queries: GoldenQuery[] = [];
  private readonly pendingQueries: GoldenQuery[] = [];
  private readonly rowOf: Int32Array;
  /** The column key and per-query function of every metric but the per-stage ones. */
  private readonly fns: Array<[string, (r: QueryRecord) => number | null]>;
  private readonly main: TableSide;
  private readonly pending: TableSide;
  private readonly facts: RecordFacts;
  private readonly pendingHasResult: Uint8Array;
  /** The stages measured so far, in name order: at most MAX_STAGES_PER_RUN. */
  private readonly keptStages: string[] = [];
  private ignoredStageTimings = 0;

  /** `spareRows`: room after the non-pending rows' values for rows joined later (joinHalfTables). */
  private readonly options: AggregateOptions;

  constructor(
    private readonly golden: GoldenSet,
    options: AggregateOptions,
    spareRows = 0,
  ) {
    this.options = withGoldenProfile(options, golden);
    this.rowOf = new Int32Array(golden.queries.length);
    golden.queries.forEach((q, i) => {
      const rows = q.pending ? this.pendingQueries : this.queries;
      this.rowOf[i] = rows.length;
      rows.push(q);
    });
    this.fns = [...perQueryFunctions(buildMetricTable(this.options, []))];
    const side = (n: number, spare: number): TableSide => ({
      arrays: this.fns.map(() => new Float64Array(n + spare).subarray(0, n)),
      stages: new Map(),
      written: new Uint8Array(n),
      n,
      spare,
    });
    this.main = side(this.queries.length, spareRows);
    this.pending = side(this.pendingQueries.length, 0);
    const n = this.queries.length;
    this.facts = {
      hasResult: new Uint8Array(n),
      hasExpectations: new Uint8Array(n),
      firstRelevantRank: new Int32Array(n),
      refused: new Int8Array(n),
      groundedText: new Int8Array(n),
      judgeGroundedness: new Float64Array(n),
      judgeCorrectness: new Float64Array(n),
      hitsReturned: new Int32Array(n),
      citedRelevant: new Uint8Array(n),
      lineCitationsCorrect: new Int8Array(n),
      hitsSnippetMissing: new Int32Array(n),
      chunkMatch: new Uint8Array(n),
      firstHitMet: new Uint32Array(n),
      anyHitMet: new Uint32Array(n),
    };
    this.pendingHasResult = new Uint8Array(this.pendingQueries.length);
  }

  /** The record of golden query `index`. */
  add(index: number, record: QueryRecord): void {
    const isPending = record.golden.pending;
    const at = isPending ? this.pending : this.main;
    const row = this.rowOf[index];
    // Every metric of one record at once: its data stays in cache while ~70 metrics read it.
    const fns = this.fns;
    for (let m = 0; m < fns.length; m++) {
      const v = fns[m][1](record);
      at.arrays[m][row] = v === null ? NaN : v;
    }
    if (at.written[row]) for (const stage of at.stages.values()) dropRow(stage, row);
    at.written[row] = 1;
    if (record.result) {
      const timings = record.result.timingsMs;
      for (const name of Object.keys(timings)) {
        let stage = at.stages.get(name);
        if (stage === undefined) {
          if (!this.admitStage(name)) {
            this.ignoredStageTimings++;
            continue;
          }
          at.stages.set(name, (stage = { rows: [], values: [] }));
        }
        stage.rows.push(row);
        stage.values.push(timings[name]);
      }
    }
    if (isPending) {
      this.pendingHasResult[row] = record.result === null ? 0 : 1;
      return;
    }
    const facts = this.facts;
    facts.hasResult[row] = record.result === null ? 0 : 1;
    facts.hasExpectations[row] = record.hasExpectations ? 1 : 0;
    facts.firstRelevantRank[row] = record.vec.firstRelevantRank;
    facts.refused[row] = tri(record.refused);
    facts.groundedText[row] = tri(record.groundedText);
    facts.judgeGroundedness[row] = record.result?.judge?.groundedness ?? NaN;
    facts.judgeCorrectness[row] = record.result?.judge?.correctness ?? NaN;
    facts.hitsReturned[row] = record.result?.hitCount ?? 0;
    facts.citedRelevant[row] = record.citedRelevant ? 1 : 0;
    facts.lineCitationsCorrect[row] = tri(record.lineCitationsCorrect);
    facts.hitsSnippetMissing[row] = record.hitsSnippetMissing;
    facts.chunkMatch[row] = record.chunkMatch;
    [facts.firstHitMet[row], facts.anyHitMet[row]] = metMasks(record, this.options.minGrade);
  }

  /** Whether stage `name` is measured: one of the first MAX_STAGES_PER_RUN names in name order seen so far. */
  private admitStage(name: string): boolean {
    const kept = this.keptStages;
    if (kept.length === MAX_STAGES_PER_RUN) {
      const last = kept[kept.length - 1];
      if (name >= last) return name === last; // `last` may be timed on the other side only
      kept.pop();
      for (const at of [this.main, this.pending]) {
        this.ignoredStageTimings += at.stages.get(last)?.rows.length ?? 0;
        at.stages.delete(last);
      }
    }
    let i = kept.length;
    while (i > 0 && kept[i - 1] > name) i--;
    if (kept[i - 1] !== name) kept.splice(i, 0, name);
    return true;
  }

  table(info: Omit<ScoringInfo, 'resultIds'>): TabulatedRun {
    const stagesIn = (at: TableSide) => [...at.stages].filter(([, stage]) => stage.rows.length > 0).map(([n]) => n);
    const recordStages = stagesIn(this.main).sort();
    const allStages = [...new Set([...recordStages, ...stagesIn(this.pending)])].sort();
    const columnsFor = (at: TableSide): Columns => {
      const columns: Columns = new Map(this.fns.map(([key], m) => [key, at.arrays[m]]));
      for (const name of allStages) {
        // Room after the rows for a second half's values (joinHalfTables), as the metric columns have.
        const column = new Float64Array(at.n + at.spare).fill(NaN, 0, at.n).subarray(0, at.n);
        const stage = at.stages.get(name);
        if (stage) for (let i = 0; i < stage.rows.length; i++) column[stage.rows[i]] = stage.values[i];
        columns.set(quantityKey(`timings_ms.${name}`), column);
      }
      return columns;
    };
    return {
      ...info,
      golden: this.golden,
      options: this.options,
      queries: this.queries,
      pendingQueries: this.pendingQueries,
      recordStages,
      allStages,
      columns: columnsFor(this.main),
      pendingColumns: columnsFor(this.pending),
      facts: this.facts,
      pendingHasResult: this.pendingHasResult,
      ignoredStageTimings: this.ignoredStageTimings,
    };
  }
}

/** A stage's timings as they come, by row: a column is made of them once, at the end. */
interface StageTimings {
  rows: number[];
  values: number[];
}

/** Takes row `row`'s timing out of `stage`: the last one added, unless a result repeats out of order. */
function dropRow(stage: StageTimings, row: number): void {
  const at = stage.rows[stage.rows.length - 1] === row ? stage.rows.length - 1 : stage.rows.lastIndexOf(row);
  if (at < 0) return;
  stage.rows.splice(at, 1);
  stage.values.splice(at, 1);
}

/** One side (non-pending or pending rows) of a TableWriter. */
interface TableSide {
  arrays: Float64Array[];
  /** Per measured stage: its timings so far. */
  stages: Map<string, StageTimings>;
  written: Uint8Array;
  n: number;
  spare: number;
}

/** The table of a run already scored into records (the library's scoreRun): the same table scoreToTable writes. */
export function tabulate(scored: ScoredRun): TabulatedRun {
  const writer = new TableWriter(scored.golden, scored.options);
  let row = 0;
  let pendingRow = 0;
  scored.golden.queries.forEach((q, i) => {
    writer.add(i, q.pending ? scored.pendingRecords[pendingRow++] : scored.records[row++]);
  });
  const {
    resultIds: _ids,
    golden: _golden,
    options: _options,
    records: _records,
    pendingRecords: _pending,
    ...info
  } = scored;
  return writer.table(info);
}

/**
 * A run scored straight into its table: each record's values are written as soon as it is scored and the record is
 * dropped, so no record outlives its query (the same table as `tabulate(scoreRun(...))`, tested). Keeping a
 * hundred thousand records until the end made the young-generation collector copy each of them, most of the time
 * garbage collection took. A part of a run (`range`) writes rows only for its own queries.
 */
export function scoreToTable(
  run: RunData | RunStream,
  golden: GoldenSet,
  options: AggregateOptions,
  range?: QueryIdRange,
  spareRows = 0,
): TabulatedRun {
  const writer = new TableWriter(golden, options, spareRows);
  const { resultIds: _ids, ...info } = scoreEach(
    run,
    golden,
    options,
    (i, record) => writer.add(i, record),
    range,
    false,
  );
  return writer.table(info);
}

/** A TabulatedRun without its run tables and golden set, as a worker thread sends it (typed arrays moved). */
export type TableTransfer = Omit<
  TabulatedRun,
  'run' | 'golden' | 'options' | 'queries' | 'pendingQueries' | 'columns' | 'pendingColumns'
> & {
  columns: Array<[string, Float64Array]>;
  pendingColumns: Array<[string, Float64Array]>;
};

export function tableTransfer(table: TabulatedRun): { message: TableTransfer; transfer: ArrayBuffer[] } {
  const { run: _run, golden: _golden, options: _options, queries: _queries, pendingQueries: _pending, ...rest } = table;
  const message: TableTransfer = { ...rest, columns: [...table.columns], pendingColumns: [...table.pendingColumns] };
  const buffers = new Set<ArrayBuffer>();
  for (const [, column] of [...message.columns, ...message.pendingColumns]) buffers.add(column.buffer as ArrayBuffer);
  for (const array of [...Object.values(message.facts), message.pendingHasResult])
    buffers.add((array as Uint8Array).buffer as ArrayBuffer);
  return { message, transfer: [...buffers] };
}

/**
 * A worker's table joined to this thread's reading of the same run and golden set: the rows are the golden
 * queries in order, non-pending and pending apart, exactly as the worker's records were.
 */
export function tableFromTransfer(
  message: TableTransfer,
  run: RunMeta,
  golden: GoldenSet,
  options: AggregateOptions,
): TabulatedRun {
  const queries: GoldenQuery[] = [];
  const pendingQueries: GoldenQuery[] = [];
  for (const q of golden.queries) (q.pending ? pendingQueries : queries).push(q);
  if (queries.length !== message.facts.hasResult.length || pendingQueries.length !== message.pendingHasResult.length) {
    throw new Error('scoring worker: its table does not match the golden set read here');
  }
  return {
    ...message,
    run,
    golden,
    options: withGoldenProfile(options, golden),
    queries,
    pendingQueries,
    columns: new Map(message.columns),
    pendingColumns: new Map(message.pendingColumns),
  };
}
