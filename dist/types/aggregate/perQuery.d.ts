/**
 * Per-query rows of one run (`evalverdict aggregate --per-query`): ckv's PerQuery fields and WFGY example 08's
 * per-question label, one row per golden query. The compare report carries the same fields (RowFacts) for
 * each regression, so a regression's row can be found by its query id.
 */
import type { GoldenSet, Hit, QueryResult, RunData, RunStream } from '../types.js';
import type { RunSummary } from './aggregate.js';
import type { AggregateOptions, QueryRecord } from './score.js';
import type { RecordFacts } from './table.js';
/** WFGY example 08's per-question label (its score.md.py, in its order of tests). */
export type WfgyLabel = 'OK' | 'REFUSAL_OK' | 'OVER_REFUSAL' | 'HALLUCINATION' | 'ANS_NO_HIT';
/**
 * The label of one question: null when whether it was refused is unknown (no result, or a result with neither an
 * answer nor an abstained flag: a retrieval-only run). `hit` is WFGY's citation hit: the answer cites a relevant id.
 */
export declare function wfgyLabel(answerable: boolean, refused: boolean | null, hit: boolean): WfgyLabel | null;
/** What a row is computed from that fits in a number: what the compare report's table also keeps per query. */
export interface RowFacts {
    answerable: boolean;
    hasExpectations: boolean;
    /** Rank of the first relevant hit; 0 when none. */
    firstRelevantRank: number;
    hitsReturned: number;
    refused: boolean | null;
    /** The answer cites a relevant chunk (WFGY's hit); false without an answer. */
    citedRelevant: boolean;
    lineCitationsCorrect: boolean | null;
    /** Null when the run has no chunks table (a snippet cannot be checked). */
    hallucinationCount: number | null;
}
/** The row fields the compare report carries for a regression, with the same names and values as PerQueryRow. */
export interface RowCore {
    /** Null: no relevant hit (a miss, or the query has nothing relevant). */
    first_relevant_rank: number | null;
    hits_returned: number;
    /** 1 / first_relevant_rank, 0 on a miss; null when the query has no relevant expectation. */
    reciprocal_rank: number | null;
    /** ckv's citation_correct: null without expected_lines or without a relevant hit. */
    citation_correct: boolean | null;
    /** WFGY's citation hit; null when whether the query was refused is unknown (as label). */
    citation_hit: boolean | null;
    hallucination_count: number | null;
    label: WfgyLabel | null;
}
export interface PerQueryRow extends RowCore {
    query_id: string;
    query: string;
    /** Pending in the golden set (scored apart from the others by aggregate; listed here in place). */
    pending: boolean;
    /** The result's status; `missing` when the run has no result for the query. */
    status: QueryResult['status'] | 'missing';
    /** The top hit's chunk_id, else its cited or document path, else its doc_id; null without hits. */
    top_hit: string | null;
    top_hit_score: number | null;
    /** Why the first hallucinated hit is (`chunk_missing`, `snippet_not_found`); null when none is. */
    hallucination_reason: string | null;
}
export declare function rowCore(f: RowFacts): RowCore;
/** A record's facts for its row; `checksSnippets`: the run has a chunks table. */
export declare function rowFactsOf(r: QueryRecord, checksSnippets: boolean): RowFacts;
/** Row `i` of a scored run's table as a row's facts (the compare report's rows for regressions). */
export declare function rowFactsAt(facts: RecordFacts, i: number, answerable: boolean, checksSnippets: boolean): RowFacts;
/** What a row shows of the hit ranked first (ckv's top hit). */
export interface TopHit {
    label: string | null;
    score: number | null;
}
/** The top hit's chunk_id, else its cited path, else its doc_path, else its doc_id. */
export declare function topHitOf(hits: readonly Hit[]): TopHit | null;
export declare function perQueryRow(r: QueryRecord, checksSnippets: boolean, top: TopHit | null): PerQueryRow;
/** The columns of the Markdown, text and CSV tables, in order (the JSON rows have the same keys). */
export declare const PER_QUERY_COLUMNS: readonly ["query_id", "query", "status", "first_relevant_rank", "hits_returned", "top_hit", "top_hit_score", "reciprocal_rank", "citation_correct", "citation_hit", "hallucination_count", "hallucination_reason", "label", "pending"];
/** The JSON of `aggregate --per-query`: the run, the golden set and every row. */
export interface PerQueryReport {
    run: RunSummary;
    /** Golden queries scored (not pending) and pending, as aggregate counts them. */
    golden: {
        fingerprint: string;
        queries: number;
        pending: number;
    };
    rows: PerQueryRow[];
    unknown_query_ids: string[];
    duplicate_query_ids: string[];
    /** Golden query ids whose hits or citations were cut to the caps; present only when there is one. */
    capped_query_ids?: string[];
}
export interface PerQueryRows {
    rows: PerQueryRow[];
    /** Result query ids the golden set does not have (not scored), each once, sorted. */
    unknownQueryIds: string[];
    /** Golden query ids with more than one result row (the last one read is scored), sorted. */
    duplicateQueryIds: string[];
    /** Golden query ids whose hits or citations were cut to the caps (ScoredRun.cappedResultIds), sorted. */
    cappedQueryIds: string[];
}
/**
 * One row per golden query, in golden-set order (pending ones in place), each made as its query is scored: the
 * records (and hits) are dropped as aggregate drops them. A run none of whose results the golden set knows is
 * refused, as aggregate refuses it.
 */
export declare function perQueryRows(run: RunData | RunStream, golden: GoldenSet, options: AggregateOptions): PerQueryRows;
