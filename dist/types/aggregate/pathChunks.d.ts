/**
 * The chunks of one cited path, for citation look-ups that cost a logarithm, not a walk over every chunk of the path
 * (a walk per citation made the work grow with citations x chunks). Small lists are scanned: cheaper than an index.
 */
import type { ChunkRecord } from '../types.js';
export declare class PathChunks {
    private readonly chunks;
    private spans;
    private headings;
    /** Appends `chunk` unless it is the last one added (a chunk with two spans of the path is listed once). */
    add(chunk: ChunkRecord): void;
    first(): ChunkRecord | null;
    /**
     * The first chunk with a span overlapping lines [start, end]. Cost: O(n) for n <= SCAN_MAX chunks; else
     * O(log^2 s) for s spans, after a one-time O(s log s) build of the SpanTree (O(s log s) memory).
     */
    overlapping(start: number, end: number): ChunkRecord | null;
    /**
     * The first chunk whose normalised heading path starts with the cited one. Cost: O(n x depth) for n <= SCAN_MAX;
     * else O(depth) through a trie built once in O(total heading segments).
     */
    underHeading(cited: string[]): ChunkRecord | null;
}
