/**
 * A scored run as a table: for each golden query, every per-query metric value (one Float64Array column per metric
 * or quantity, NaN where the query is not in the denominator) and the few facts a comparison reads per query (the
 * rank of the first relevant hit, refusal, groundedness, judge scores). Aggregation and comparison read only
 * this, never the records, so a worker thread that scored a run hands back typed arrays (moved between threads,
 * not copied) instead of a hundred thousand record objects to rebuild.
 */
import type { GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import type { Columns } from './perQueryValues.js';
import type { QueryIdRange } from '../load/runDatabase.js';
import type { AggregateOptions, ScoredRun } from './score.js';
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
export declare const MAX_STAGES_PER_RUN = 64;
/** The table of a run already scored into records (the library's scoreRun): the same table scoreToTable writes. */
export declare function tabulate(scored: ScoredRun): TabulatedRun;
/**
 * A run scored straight into its table: each record's values are written as soon as it is scored and the record is
 * dropped, so no record outlives its query (the same table as `tabulate(scoreRun(...))`, tested). Keeping a
 * hundred thousand records until the end made the young-generation collector copy each of them, most of the time
 * garbage collection took. A part of a run (`range`) writes rows only for its own queries.
 */
export declare function scoreToTable(run: RunData | RunStream, golden: GoldenSet, options: AggregateOptions, range?: QueryIdRange, spareRows?: number): TabulatedRun;
/** A TabulatedRun without its run tables and golden set, as a worker thread sends it (typed arrays moved). */
export type TableTransfer = Omit<TabulatedRun, 'run' | 'golden' | 'options' | 'queries' | 'pendingQueries' | 'columns' | 'pendingColumns'> & {
    columns: Array<[string, Float64Array]>;
    pendingColumns: Array<[string, Float64Array]>;
};
export declare function tableTransfer(table: TabulatedRun): {
    message: TableTransfer;
    transfer: ArrayBuffer[];
};
/**
 * A worker's table joined to this thread's reading of the same run and golden set: the rows are the golden
 * queries in order, non-pending and pending apart, exactly as the worker's records were.
 */
export declare function tableFromTransfer(message: TableTransfer, run: RunMeta, golden: GoldenSet, options: AggregateOptions): TabulatedRun;
