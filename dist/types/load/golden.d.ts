import type { GoldenQuery, GoldenSet, MetricProfile } from '../types.js';
import type { Warning } from '../warnings.js';
export type GoldenFormat = 'jsonl' | 'yaml';
/** JSON Lines by the file's name (`.jsonl`, `.ndjson`); anything else is read as YAML. */
export declare const goldenFormatOf: (file: string) => GoldenFormat;
/** The metric profiles a golden set's header may name (docs/golden-sets.md, "Metric profiles"). */
export declare const METRIC_PROFILES: readonly MetricProfile[];
/** Whether a value names one of METRIC_PROFILES. */
export declare function isMetricProfile(value: unknown): value is MetricProfile;
/** A YAML golden set this large would read at least a second faster as JSON Lines (docs/golden-sets.md). */
export declare const LARGE_YAML_BYTES = 2500000;
export declare function readGoldenFile(file: string): GoldenSet;
/** A golden set from its text; the fingerprint hashes the text as UTF-8. */
export declare function parseGolden(text: string, source: string, format?: GoldenFormat): GoldenSet;
export declare const parseGoldenJsonl: (text: string, source: string) => GoldenSet;
export declare const parseGoldenYaml: (text: string, source: string) => GoldenSet;
/** A golden file as plain values, for `evalverdict golden convert`: its header (or the YAML map's other keys) and queries. */
export interface GoldenDocument {
    header: Record<string, unknown> | null;
    items: unknown[];
}
/** The file's values, checked as readGoldenFile checks them (an invalid file is not converted). */
export declare function readGoldenDocument(file: string): GoldenDocument;
/** A golden document as file text: a JSON Lines header line, or a YAML map holding it beside `queries`. */
export declare function formatGolden(doc: GoldenDocument, format: GoldenFormat): string;
/** A golden set of plain query objects (an importer's), read by the same rules as a file's. */
export declare function goldenSetOfItems(items: readonly unknown[], source: string): GoldenSet;
/** The keys that state an expectation, for messages. */
export declare function expectationKeysText(): string;
/**
 * sha256 of the golden file's bytes, as `sha256:` and hex: any edit to the file changes it, reformatting and
 * converting included (docs/golden-sets.md). A set built in memory hashes as the JSON Lines of its queries.
 */
export declare function goldenFingerprint(...parts: Array<Uint8Array | string>): string;
/** One half of a JSON Lines golden file, and what the first half's thread needs of the whole file. */
export interface GoldenHalf {
    queries: GoldenQuery[];
    warnings: Warning[];
    /** The whole file's fingerprint. */
    fingerprint: string;
    /** Lines after the cut: at least the queries of the second half (room to keep for its table's rows). */
    linesAfter: number;
    /** The id of the first query after the cut (null: none to be read), where the second half's range starts. */
    nextId: string | null;
    /** The file header's metric profile (read by both halves: only the first holds the header). */
    profile?: MetricProfile;
}
/** Golden files smaller than this are read whole: two threads reading half each save little on them. */
export declare const SPLIT_MIN_BYTES: number;
/**
 * Half `part` of a JSON Lines golden file, cut at the first line break past the middle byte; null when the file
 * is too small to cut or the half does not read cleanly (the whole file's reading then reports its error).
 */
export declare function readGoldenHalf(file: string, part: 0 | 1, minBytes?: number): GoldenHalf | null;
/** One half as a set of its own, for the thread that scores only its queries. */
export declare const goldenSetOfHalf: (source: string, half: GoldenHalf) => GoldenSet;
