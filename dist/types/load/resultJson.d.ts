import type { Hit, LineCitation } from '../types.js';
import type { JsonObject } from './json.js';
/** The row's top-level fields except `hits_top_k` (as JSON.parse gives them), and the hits in rank order. */
interface ScannedResult {
    fields: JsonObject;
    hits: Hit[];
    /** Keys the result schema does not know, among the members skipped and the hits read (`fields` aside). */
    unknownKeys: readonly string[];
}
/** The fields of a hit that scoring reads only for some queries (gold supports, line ranges, snippets, citations). */
interface HitDetail {
    /** The heading_path list (or the 001 runner's `"A > B"` text) as JSON text (checked); null when null or absent. */
    headingJson: string | null;
    snippet: string | null;
    score: number | null;
    /** The citation's path; null when the hit has no usable line citation (parseLineCitation's rule). */
    citationPath: string | null;
    citationStart: number;
    citationEnd: number;
}
/**
 * A hit read by the scanner: rank, ids, doc_path and chunker version at once; the rest (HitDetail) at once when read
 * token by token, else when first asked for, by running its template's full pattern again at its place in the row
 * (a hit lives while its row is scored, so holding the row costs nothing).
 */
export declare class RowHit implements Hit {
    readonly rank: number;
    readonly chunkId: string | null;
    readonly docId: string | null;
    /** Read at once too: gold-support matching compares it before it reads anything else of the hit. */
    readonly docPath: string | null;
    readonly chunkerVersion: string | null;
    private detail;
    private readonly row;
    private readonly at;
    private readonly template;
    constructor(rank: number, chunkId: string | null, docId: string | null, 
    /** Read at once too: gold-support matching compares it before it reads anything else of the hit. */
    docPath: string | null, chunkerVersion: string | null, detail: HitDetail | null, row: string, at: number, template: HitTemplate | null);
    private details;
    get headingPath(): string[];
    get snippet(): string | null;
    get score(): number | null;
    get citation(): LineCitation | null;
}
/**
 * The shape of one hit: its text with the values cut out, as sticky regular expressions. The text between values
 * (keys, punctuation, the quotes of strings, nulls, fields not read such as a citation's `"kind":"line"`) must match
 * exactly, so a matching hit is valid JSON with the template's keys, and reads as a hit read token by token would.
 */
interface HitTemplate {
    /** The shape with a group for each value read at once (rank, chunk_id, doc_id, doc_path, chunker_version). */
    scan: RegExp;
    /** Each of those values' group in `scan`'s match, 0 where the hit has null there (part of the literal text). */
    groups: {
        rank: number;
        chunk: number;
        doc: number;
        path: number;
        version: number;
    };
    /** The same shape with a group for every value: `slots`. */
    full: RegExp;
    slots: number[];
    /** The citation's path and start are values here (parseLineCitation uses a citation only with both). */
    citationUsable: boolean;
    /** The keys of the shape the result schema does not know (load/resultKeys.ts), as validate names them. */
    unknownKeys: readonly string[];
}
/** How many hits this thread has read through templates (for tests and benchmarks). */
export declare function templateReadCount(): number;
/** Reads one `result_json` text; null when it is not of the common shape (then the slow path decides). */
export declare function scanResultJson(text: string): ScannedResult | null;
export {};
