import type { GoldenQuery, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import { PerQueryValues } from './perQueryValues.js';
import type { MetricDef, MetricValue } from './metrics/types.js';
import type { AggregateOptions, ScoredRun } from './score.js';
import type { QueryChunkMatch } from './matching.js';
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
    golden: {
        fingerprint: string;
        queries: number;
        pending: number;
    };
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
    judge_reliability?: {
        disagreement_rate: number | null;
        spot_check_n: number;
    };
    /** The 001 spec's coverage by document type (by extension), with documents and chunks tables. */
    coverage_by_doc_type?: Record<string, {
        documents: number;
        without_chunks: number;
        without_chunks_rate: number;
    }>;
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
export declare function summariseRun(run: RunMeta): RunSummary;
export declare function metricsFor(defs: MetricDef[], values: PerQueryValues, run: RunMeta, includeRunLevel: boolean, indexes?: ArrayLike<number>): MetricMap;
/**
 * Groups query indexes by category, difficulty, each tag and answerable/unanswerable; queries without a value are
 * in no group. Groups and names come out sorted, so reports list them deterministically.
 */
/** What grouping reads of a golden query. */
export type GroupedQuery = Pick<GoldenQuery, 'category' | 'difficulty' | 'tags' | 'answerable' | 'vault'>;
/** Breakdown groups: per kind, each group's name and its rows (ascending), names sorted. */
export type Groups = Record<BreakdownKind, Map<string, Int32Array>>;
export declare function groupQueries(queries: readonly GroupedQuery[]): Record<BreakdownKind, Map<string, Int32Array>>;
/**
 * The rows `first` then `second` as grouped together: each group's rows of `second` (counted from 0) come after
 * those of `first`, offset by `offset` (the rows of `first`). The same groups as grouping the joined rows.
 */
export declare function concatGroups(first: Groups, second: Groups, offset: number): Groups;
/**
 * What an aggregate reads of a scored run: a TabulatedRun gives one (aggregateTableOf), and so does a run tabulated
 * in two golden halves by two threads (concatTables in src/aggregate/table.ts), each thread grouping its own rows.
 */
export interface AggregateTable {
    run: RunMeta;
    options: AggregateOptions;
    golden: {
        fingerprint: string;
    };
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
export declare function joinHalfTables(first: TabulatedRun, second: TableTransfer, secondGroups: Groups, fingerprint: string): AggregateTable;
/** Queries per chunk match mode (matching.ts), null when every one matched exactly. */
export declare function chunkMatchCounts(chunkMatch: Uint8Array): Record<QueryChunkMatch, number> | null;
/** A run's table as the aggregate reads it: its rows counted and grouped. */
export declare function aggregateTableOf(table: TabulatedRun): AggregateTable;
/** Results of `table` whose query_id the golden set has (pending queries included). */
export declare function resultsMatched(table: Pick<TabulatedRun, 'facts' | 'pendingHasResult'>): number;
/**
 * Results whose query_id the golden set lacks are left out of every metric. When that is every result of a run, the
 * golden file or the ids' form is wrong (ids are compared as exact text: `Q1` is not `q1`), and every metric would
 * quietly read as a miss: that is an input error, not a run that missed everything.
 */
export declare function checkResultsMatchGolden(run: RunMeta, matched: number, unknownIds: readonly string[]): void;
/** Each id once, sorted: a query with more than one result row is still one unknown query. */
export declare function distinctSorted(ids: readonly string[]): string[];
/** The warning for results the golden set does not know (not scored), or null when there are none. */
export declare function unknownResultsWarning(source: string, runId: string, unknownIds: readonly string[]): string | null;
/** The warning for `timings_ms` stages past MAX_STAGES_PER_RUN, or null when every stage is measured. */
export declare function ignoredStagesWarning(source: string, runId: string, ignoredTimings: number): string | null;
/**
 * The warning for golden queries with more than one result row, or null when there are none: a run table without
 * kebab's primary key (run_id, query_id) can hold them, and only the last row read is scored.
 */
export declare function duplicateResultsWarning(source: string, runId: string, duplicateIds: readonly string[]): string | null;
/**
 * The warning for results whose hits or citations were cut to the caps (MAX_HITS_PER_QUERY, MAX_CITATIONS_PER_ANSWER),
 * or null when none was: one per run, with the number of queries and the first of their ids.
 */
export declare function cappedResultsWarning(source: string, runId: string, cappedIds: readonly string[]): string | null;
/** The metric table of a run's aggregate: its stages include those of pending results. */
export declare function metricTableFor(scored: ScoredRun | TabulatedRun | AggregateTable): MetricDef[];
export declare function aggregateScored(scored: ScoredRun | TabulatedRun | AggregateTable, defs?: MetricDef[]): AggregateReport;
/** A document's type: the lower-cased extension of its workspace path (`md`, `pdf`, `go`), or `(none)`. */
export declare function docTypeOf(path: string): string;
/** Every aggregate metric of `run` (in memory, or streamed: see openRunStream) scored against `golden`. */
export declare function computeAggregate(run: RunData | RunStream, golden: GoldenSet, options?: Partial<AggregateOptions>): AggregateReport;
