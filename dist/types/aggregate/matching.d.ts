import type { ChunkRecord, GoldenQuery, Hit } from '../types.js';
export type ChunkMatchMode = 'exact' | 'fallback_doc_span' | 'fallback_doc';
/**
 * How one query's expected chunks were matched, loosest first wins: `fallback_expected_doc` when an expected chunk
 * is in no chunks table (a re-chunk) and the query's expected_doc_ids name its document, so any hit of those
 * documents meets it; otherwise as ChunkMatchMode. `exact` also for a query none of whose expected chunks could fall
 * back (no expected_chunk_ids, or one in no table and no expected_doc_ids).
 */
export type QueryChunkMatch = ChunkMatchMode | 'fallback_expected_doc';
/** QueryChunkMatch as a number (a table column), in order of looseness. */
export declare const QUERY_CHUNK_MATCHES: readonly QueryChunkMatch[];
export interface MatchOptions {
    /** Grade at or above which an expectation counts as relevant for binary metrics (trec_eval -l). */
    minGrade: number;
    /**
     * How an expected chunk id is matched. `exact`: chunk_id equality. The fallbacks are for runs whose
     * chunker_version differs from the one the golden set was written against: also match a hit of the same
     * document whose span covers >= 50% of the expected chunk's span (`fallback_doc_span`), and where spans are
     * unknown, the document alone.
     */
    chunkMatch: ChunkMatchMode;
    /** Chunk records used to find the expected chunk's document and span (both runs' chunk tables). */
    referenceChunks: Map<string, ChunkRecord> | null;
    /** This run's own chunk table, for the text and span of a hit's chunk. */
    runChunks: Map<string, ChunkRecord> | null;
    /**
     * Lower-cased chunk texts for the gold-support snippet check, kept per run (FoldedTexts with toLowerCase): a long
     * text cited by many hits is read and lower-cased once, not once per hit, and searched once per gold support
     * (answersOf). Without it, per candidate.
     */
    lowerTexts?: {
        of(chunk: ChunkRecord): string;
        answersOf(chunk: ChunkRecord): Map<object, boolean> | null;
    };
}
export interface Expectation {
    grade: number;
    kind: 'id' | 'doc' | 'support' | 'lines';
    /** Index into gold_supports for support expectations. */
    supportIndex: number;
}
/** A ranked hit or a cited chunk, reduced to what matching looks at. */
export interface Candidate {
    chunkId: string | null;
    docId: string | null;
    docPath: string | null;
    headingPath: string[];
    text: string | null;
    line: {
        path: string;
        start: number;
        end: number;
    } | null;
    /** The chunk record `text` is read from, when there is one (for MatchOptions.lowerTexts). */
    readonly chunk?: ChunkRecord | null;
}
export declare function normaliseHeading(path: string[]): string[];
/** The compiled expectations of one query; `match` is called once per hit. */
export declare class QueryMatcher {
    readonly golden: GoldenQuery;
    readonly options: MatchOptions;
    readonly expectations: Expectation[];
    /** Expectations with grade >= minGrade: the denominator of recall and MAP. */
    readonly relevantCount: number;
    /** Expectations with 0 <= grade < minGrade: judged not relevant (bpref's N). */
    readonly nonRelevantCount: number;
    /** Grades > 0, sorted descending: the ideal ranking of nDCG (trec_eval ndcg_cut ignores -l). */
    readonly idealGrades: number[];
    /** Judged ids (expectations 0 .. judgedCount - 1) and expected chunk ids, to their expectations. */
    private readonly byId;
    private readonly judgedCount;
    private readonly byDoc;
    private readonly supports;
    private readonly lines;
    private readonly fallbackIds;
    /** How this query's expected chunks are matched: an index into QUERY_CHUNK_MATCHES. */
    readonly chunkMatch: number;
    constructor(golden: GoldenQuery, options: MatchOptions);
    get hasExpectations(): boolean;
    /**
     * Indexes of the expectations `c` satisfies. Returns a shared array: copy before keeping it.
     * Judged ids match chunk_id or doc_id (TREC qrels judge documents); expected_chunk_ids match chunk_id.
     */
    match(c: Candidate, out: number[]): number[];
    /**
     * Path, heading, then a snippet in the candidate's lower-cased text. Cost of the snippet search: O(length of the
     * text x snippets) once per distinct (long chunk text, gold support) pair while its lower-cased text stays cached
     * (MatchOptions.lowerTexts; the same chunk cited by many hits, or by a repeated result, gives the same answer), so
     * O(total text of distinct cited chunks x snippets); a text under the cache's 64 Ki units is searched per check.
     */
    private matchesSupport;
    /** >= 50% of the expected span covered by the candidate's span (from its chunk record, else its line citation). */
    private spanCovers;
}
export declare function candidateFromHit(hit: Hit, runChunks: Map<string, ChunkRecord> | null): Candidate;
