/**
 * Scoring one run against a golden set: the join done once. Each golden query becomes a QueryRecord holding
 * its relevance vector and its answer-side facts; every metric (src/aggregate/metrics/, one module per family,
 * listed in registry.ts) reads records only.
 */
import type { GoldenQuery, GoldenSet, MetricProfile, QueryResult, RunData, RunMeta, RunStream } from '../types.js';
import type { QueryIdRange } from '../load/runDatabase.js';
import type { ChunkMatchMode, Expectation } from './matching.js';
import type { GainKind, RelevanceVector } from './rankMetrics.js';
export type MeanOver = 'default' | 'trec' | 'trec_c';
export interface AggregateOptions {
    /** Cutoffs for every @k metric. */
    ks: number[];
    /** Cutoff of MRR (`mrr@10`); `rr` has none. */
    mrrCutoff: number;
    ndcgGain: GainKind;
    /** trec_eval -l: grade at or above which a judgment is relevant. */
    minGrade: number;
    /**
     * Which queries a retrieval mean is over. default: queries with at least one relevant expectation, a query
     * missing from the run counting as a miss. trec: queries in both run and golden set, those without relevant
     * expectations adding 0 (trec_eval's default). trec_c: every golden query, missing ones adding 0 (trec_eval -c).
     */
    meanOver: MeanOver;
    chunkMatch: ChunkMatchMode;
    /** Chunk records to find expected chunks' documents and spans when chunkMatch is a fallback. */
    referenceChunks: RunData['chunks'];
    /**
     * Whose definitions the metrics WFGY example 08 also defines follow (absent: evalverdict). The golden set's header
     * names it, and scoring takes it from there (withGoldenProfile).
     */
    profile?: MetricProfile;
}
/** The options with the golden set's metric profile, when its header names one (it wins over the options'). */
export declare function withGoldenProfile<T extends AggregateOptions>(options: T, golden: GoldenSet): T;
export declare const DEFAULT_OPTIONS: AggregateOptions;
/** A result as a record keeps it: everything but the hits, which scoring has reduced to the relevance vector. */
export type ResultSummary = Omit<QueryResult, 'hits'> & {
    hitCount: number;
};
export interface QueryRecord {
    golden: GoldenQuery;
    /** Null when the run has no result for this golden query (scored as a miss with no answer). */
    result: ResultSummary | null;
    /** The query's compiled expectations (see matching.ts); `vec.expectationFirstRank` is indexed like them. */
    expectations: Expectation[];
    /** At least one expectation with grade >= minGrade. */
    hasExpectations: boolean;
    vec: RelevanceVector;
    /** Per distinct expected_doc_id, the rank of the first hit of that document (recall_doc@k); null without any. */
    expectedDocFirstRank: readonly number[] | null;
    refused: boolean | null;
    /** An answer object exists and is not a refusal. */
    answered: boolean;
    /** The answer cites at least one chunk that is relevant under the relevance model. */
    citedRelevant: boolean;
    /** For grounded answers: every citation resolves to a real chunk (false when there are none). */
    citationsResolve: boolean | null;
    /** For answered queries with must_contain or forbidden. */
    groundedText: boolean | null;
    claimFound: boolean | null;
    recencyCorrect: boolean | null;
    hitsWithSnippet: number;
    hitsSnippetMissing: number;
    /**
     * Why the first hit (by rank) counted in hitsSnippetMissing is: `chunk_missing` (no chunk of its chunk_id in
     * `chunks`) or `snippet_not_found` (not in its chunk's text); null when none is (ckv's hallucination_reason).
     */
    hallucinationReason: HallucinationReason | null;
    scopeMiss: boolean | null;
    /**
     * For queries with expected_lines whose hits found it: every hit that cites the expected file cites lines that
     * overlap the expected range (ckv's citation_correct).
     */
    lineCitationsCorrect: boolean | null;
    /** How the query's expected chunks were matched: an index into QUERY_CHUNK_MATCHES (matching.ts). */
    chunkMatch: number;
}
export type HallucinationReason = 'chunk_missing' | 'snippet_not_found';
export interface ScoredRun {
    /** The run without its results: the results live on only as records. */
    run: RunMeta;
    golden: GoldenSet;
    options: AggregateOptions;
    /** Non-pending golden queries, in golden-set order. */
    records: QueryRecord[];
    /** Pending golden queries: scored and reported apart, never gated. */
    pendingRecords: QueryRecord[];
    /** Result query ids that the golden set does not know. */
    unknownResultIds: string[];
    /**
     * Golden query ids the run has more than one result for, each once, in reading order (the last result read
     * counts). A table made by kebab's schema cannot hold these (its primary key is (run_id, query_id)); one without
     * that key can, and the user is told (duplicateResultsWarning).
     */
    duplicateResultIds: string[];
    /** Query ids the run has a result for. */
    resultIds: Set<string>;
    /** Distinct chunker_version values carried by the hits, sorted. */
    hitChunkerVersions: string[];
    /** Some hit carries a line citation (a span for matching across chunker versions). */
    hitsHaveCitations: boolean;
    /**
     * Golden query ids whose result had more than MAX_HITS_PER_QUERY hits or MAX_CITATIONS_PER_ANSWER citations, in
     * reading order: those past the cap were dropped before scoring (cappedResultsWarning).
     */
    cappedResultIds: string[];
}
/**
 * The most hits of one result that are scored: the first by rank. A runner returns its top k, and a cutoff k is at
 * most 1,000, so no run under the cap scores differently; past it, the hits only cost time (every hit is matched
 * against every expectation) and are dropped before scoring, for every metric (MAP and bpref read every rank).
 */
export declare const MAX_HITS_PER_QUERY = 10000;
/** The most citations of one answer that are read, in their order (each is resolved and matched like a hit). */
export declare const MAX_CITATIONS_PER_ANSWER = 10000;
/** The caps as the warnings name them. */
export declare const CAPS_TEXT: string;
/**
 * `result` with at most MAX_HITS_PER_QUERY hits (the first by rank: `hits` is in rank order) and
 * MAX_CITATIONS_PER_ANSWER citations; `result` itself when it is within both.
 */
export declare function withinWorkCaps(result: QueryResult): QueryResult;
/** The results of `run` one at a time, whether they are in memory or streamed from a database. */
export declare function resultsOf(run: RunData | RunStream): RunStream;
/** What scoring learns of a run besides its records. */
export type ScoringInfo = Pick<ScoredRun, 'run' | 'unknownResultIds' | 'duplicateResultIds' | 'resultIds' | 'hitChunkerVersions' | 'hitsHaveCitations' | 'cappedResultIds'>;
/**
 * Scores every result against the golden set as it is read (one pass, the hits dropped after each query) and hands
 * each golden query's record to `sink` with the query's index, then gives golden queries the run has no result
 * for a record of their own (a miss with no answer). A later result for the same query replaces an earlier one.
 * Without `collectResultIds`, `resultIds` stays empty.
 */
export declare function scoreEach(run: RunData | RunStream, golden: GoldenSet, options: AggregateOptions, sink: (index: number, record: QueryRecord) => void, range?: QueryIdRange, collectResultIds?: boolean): ScoringInfo;
/**
 * Part of a run's results by query_id, as SQLite orders query_id (by UTF-8 bytes): `from` and `through` inclusive,
 * `after` and `to` exclusive. Two threads score a large run in such parts.
 */
/** Every golden query's record, non-pending and pending apart, in golden-set order (see scoreEach). */
export declare function scoreRun(run: RunData | RunStream, golden: GoldenSet, options?: AggregateOptions): ScoredRun;
/**
 * `path` lies under one of `folders` (trailing slashes ignored; `''` and `.` are the root). Without a regex or a
 * new string per folder unless one ends with a slash: scope is checked for every query of a run.
 */
export declare function underSomeFolder(path: string, folders: readonly string[]): boolean;
