/** Answer-side helpers: refusals, citation resolution and the text checks. Plain functions over plain data. */
import type { AnswerCitation, ChunkRecord, DocumentRecord, Hit, QueryResult } from '../types.js';
import type { Candidate } from './matching.js';
/** Refusal: the explicit `abstained` flag when present, else `answer.grounded == false`; null when there is no answer at all. */
export declare function isRefusal(result: QueryResult | null): boolean | null;
/** Lower-cased with runs of white space folded: the form every text containment check uses. */
export declare function foldText(text: string): string;
export declare function containsFolded(haystackFolded: string, needle: string): boolean;
/**
 * WFGY example 08's claim containment: some phrase of the lower-cased gold claim (each longest run CLAIM_PHRASES
 * finds, trimmed), 5 or more characters long, is in the lower-cased answer. A claim "X is a constrained mapping."
 * has one phrase, "x is a constrained mapping"; "Paris, the capital" has "paris" and "the capital".
 */
export declare function claimPhraseFound(goldClaim: string, answer: string): boolean;
/**
 * Per-run lookups for resolving citations. Building costs O(C + S) for C chunks and S spans (each chunk listed
 * under its paths); a path's span and heading structures are built the first time a citation names it
 * (PathChunks), so a run whose answers cite by chunk_id pays nothing more.
 */
export declare class CitationIndex {
    readonly chunks: Map<string, ChunkRecord> | null;
    readonly documents: Map<string, DocumentRecord> | null;
    private readonly byPath;
    constructor(chunks: Map<string, ChunkRecord> | null, documents: Map<string, DocumentRecord> | null);
    /** Lists `chunk` under `path` once (two spans of one path list it once: the last one listed is this chunk). */
    private listUnder;
    /**
     * foldText of a chunk's text, for the snippet check: each chunk folded once while its fold stays in the cache
     * (FoldedTexts), and only chunks a hit's snippet is checked against are read and folded at all.
     */
    readonly folded: FoldedTexts;
    docPathOf(chunk: ChunkRecord): string | null;
    /**
     * The chunk a citation points at: by chunk_id, else by path + overlapping line span, else (a 001 reference
     * without lines) by path + a chunk whose heading path starts with the cited one, else (kebab's PDF-page and
     * code-symbol citations, which name no lines) by path alone: the first chunk of that document. Where several
     * chunks qualify, the first in the chunks table's order. Cost: O(1) by id; O(log^2 n) by lines and O(depth) by
     * heading, for n chunks of the path (after PathChunks' one-time build).
     */
    chunkFor(c: AnswerCitation): ChunkRecord | null;
    /**
     * Does the citation resolve to a real chunk? With a chunks table: by chunk_id or path + span. Without one:
     * to a chunk_id or path that some hit of the same query carries.
     */
    resolves(c: AnswerCitation, hits: QueryHits): boolean;
    /** The citation as a matching candidate, so cited chunks are judged by the same relevance model as hits. */
    candidateFor(c: AnswerCitation, hits: QueryHits): Candidate;
}
/**
 * One query's hits as its citations look them up: the first hit of a chunk_id, and whether some hit names a path
 * (doc_path or line citation). A query's few hits are searched in turn; past HITS_SCANNED, a Map and a Set are built
 * on the first look-up, so c citations against h hits cost O(h + c), not O(h x c).
 */
export declare class QueryHits {
    readonly hits: readonly Hit[];
    private byChunkId;
    private paths;
    constructor(hits: readonly Hit[]);
    withChunkId(chunkId: string): Hit | undefined;
    namePath(path: string): boolean;
}
/** At most this many UTF-16 units of folded chunk text are kept (one longer text is kept alone). */
export declare const FOLD_CACHE_UNITS: number;
/** Texts shorter than this are folded each time they are checked, never cached. */
export declare const FOLD_CACHE_MIN_UNITS: number;
/**
 * Folded chunk texts of FOLD_CACHE_MIN_UNITS or more, the first folded dropped first once they hold more than FOLD_CACHE_UNITS (a larger one is
 * kept alone). A chunk cited by many hits is folded once, not once a hit (bench/README.md, "What was kept");
 * memory stays within the cap or the largest value. Cost of `of`: O(1) on a hit, O(length) to fold on a miss.
 */
export declare class FoldedTexts {
    private readonly fold;
    private readonly cache;
    /** Per cached text, answers computed from it (answersOf): dropped with the text. */
    private readonly answers;
    private units;
    /** `fold`: foldText by default; matching's gold-support check keeps lower-cased texts the same way. */
    constructor(fold?: (text: string) => string);
    of(chunk: ChunkRecord): string;
    /**
     * Answers a caller computed from the cached fold of `chunk`, by a key of its own (a gold support), so a long text
     * is scanned once per key while its fold stays cached; null for a text not cached (short: a scan is cheap).
     */
    answersOf(chunk: ChunkRecord): Map<object, boolean> | null;
}
/** Nearest-rank percentile (the smallest value with at least p% of values at or below it); null for no values. */
export declare function nearestRankPercentile(sortedAscending: ArrayLike<number>, p: number): number | null;
/**
 * The same percentile of values in any order, found by selection (O(n)) instead of a sort; reorders `values`.
 * Breakdowns take several percentiles of many groups, where sorting each group was most of their time.
 */
export declare function nearestRankPercentileOf(values: Float64Array, p: number): number | null;
/**
 * The values counted by value when every one is a whole number and they span at most 65,536 (latencies in ms, token
 * counts): then percentiles are read off the counts (percentileOfCounts) instead of selected, and one counting
 * serves p50, p95 and any other. Null otherwise (a fraction; -0, which selection could return as itself).
 */
export declare function wholeNumberCounts(values: Float64Array): {
    min: number;
    counts: Int32Array;
} | null;
/**
 * wholeNumberCounts' rule over the values of `parts` (NaN: no value): their smallest and how many whole numbers
 * from it to their largest (`span`), when every one is a whole number, not -0, and span is at most 65,536; null
 * otherwise. Without values: min 0, span 1.
 */
export declare function wholeNumberRange(parts: readonly Float64Array[]): {
    min: number;
    span: number;
} | null;
/** nearestRankPercentileOf for values counted by wholeNumberCounts (`n` of them): the same value. */
export declare function percentileOfCounts(counted: {
    min: number;
    counts: Int32Array;
}, n: number, p: number): number;
