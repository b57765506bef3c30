/**
 * Plain data shared by every stage of the pipeline: load -> aggregate -> compare -> gate -> render -> publish.
 * Nothing here knows about files, SQLite or GitHub.
 */
import type { Warning } from './warnings.js';
export interface LineCitation {
    kind: 'line';
    path: string;
    start: number;
    end: number;
}
export interface Hit {
    /** 1-based, as stored; never the array position. */
    rank: number;
    chunkId: string | null;
    docId: string | null;
    docPath: string | null;
    headingPath: string[];
    snippet: string | null;
    score: number | null;
    citation: LineCitation | null;
    chunkerVersion: string | null;
}
export interface AnswerCitation {
    marker: string | null;
    chunkId: string | null;
    path: string | null;
    start: number | null;
    end: number | null;
    /** The cited section's headings (the 001 runner's `references: [{rel_path, heading_path}]`); absent: none given. */
    headingPath?: string[];
}
export interface Answer {
    text: string;
    citations: AnswerCitation[];
    /**
     * The result carries a citation list at all, even an empty one (WFGY's schema compliance counts `citations: []`);
     * absent: the same as whether `citations` has any.
     */
    citationsListed?: boolean;
    grounded: boolean;
    /**
     * The answer acknowledges a conflict between versions (`conflict_acknowledged`, in the answer or beside it), for
     * the 001 spec's `acknowledge_both`; null when the result does not say.
     */
    conflictAcknowledged?: boolean | null;
    refusalReason: string | null;
    promptTokens: number | null;
    completionTokens: number | null;
    latencyMs: number | null;
}
export interface JudgeScores {
    groundedness: number | null;
    correctness: number | null;
    unsupportedClaims: number | null;
    spotCheckGroundedness: number | null;
    spotCheckCorrectness: number | null;
    /** The judge's own token counts (`judge.usage`), for the 001 spec's judge cost; absent: not reported. */
    promptTokens?: number | null;
    completionTokens?: number | null;
}
export type FolderMode = 'off' | 'on' | 'on_with_fallback';
export interface QueryResult {
    queryId: string;
    query: string;
    mode: string | null;
    /** Sorted by rank ascending. */
    hits: Hit[];
    answer: Answer | null;
    elapsedMs: number | null;
    error: string | null;
    status: 'ok' | 'error' | 'timeout';
    /** Explicit refusal flag when the runner wrote one; null means "use answer.grounded == false". */
    abstained: boolean | null;
    timingsMs: Record<string, number>;
    costUsd: number | null;
    folderMode: FolderMode | null;
    selectedFolders: string[];
    judge: JudgeScores | null;
}
export interface RunInfo {
    runId: string;
    suite: string;
    commitHash: string | null;
    createdAt: string;
    config: Record<string, unknown>;
    chunkerVersion: string | null;
    embeddingModel: string | null;
    indexVersion: string | null;
    judgeModel: string | null;
    judgePromptVersion: string | null;
    /**
     * The golden set the run's stored aggregate was computed against (`aggregate_json.evalverdict.golden.fingerprint`,
     * written by `aggregate --write` / `write-aggregate`); null when it has none.
     */
    recordedGoldenFingerprint?: string | null;
    /** The indexer's chunk counts from `config_snapshot_json.index_stats`; null or absent when it has none. */
    chunkIndexing?: {
        attempted: number;
        skipped: number;
    } | null;
}
export interface ChunkRecord {
    chunkId: string;
    docId: string;
    text: string;
    headingPath: string[];
    /** Line spans in the source document, when the chunk table carries them. */
    spans: Array<{
        path: string | null;
        start: number;
        end: number;
    }>;
    tokenEstimate: number;
    chunkerVersion: string;
}
export interface DocumentRecord {
    docId: string;
    workspacePath: string;
}
/** A run without its results: what a reader knows before the result rows are read. */
export interface RunMeta {
    /** Where it came from, for messages. */
    source: string;
    run: RunInfo;
    chunks: Map<string, ChunkRecord> | null;
    documents: Map<string, DocumentRecord> | null;
}
/** A run with every result in memory (tests, TREC import, library callers). */
export interface RunData extends RunMeta {
    results: QueryResult[];
}
/**
 * A run whose results are read one at a time: the scorer turns each into a compact record and drops its hits,
 * so a run of millions of hits never sits in memory as objects. `forEachResult` may be called again (a second
 * pass); `release` frees what the source holds (an open database) until then.
 */
export interface RunStream extends RunMeta {
    forEachResult(each: (result: QueryResult) => void): void;
    release?(): void;
    /** What the reader noticed in the rows read so far; absent for runs not read from a database. */
    notice?: RowNotice;
}
/**
 * What a reader noticed in every row it read, cheaply: the keys the result schema does not know (as validate names
 * them: `hits_top_k[].docId`) and whether a hit could match nothing (no chunk_id, doc_id or path). compare checks a
 * run whole when these hold more than its check of the first rows found (validate/pipelineChecks.ts).
 */
export interface RowNotice {
    unknownKeys: Set<string>;
    unmatchableHit: boolean;
}
export declare const noticeOf: () => RowNotice;
/** What several readings of one run noticed, together (a run's repeats, aggregate's two golden halves). */
export declare function mergedNotice(notices: readonly RowNotice[]): RowNotice;
export interface GoldSupport {
    relPath: string;
    headingPath: string[];
    snippets: string[];
    newer: boolean;
}
/**
 * One golden query as read from the golden file. Read-only data: an empty list may be one frozen array shared by
 * every query without that field (src/load/golden.ts), so pushing to it throws.
 */
export interface GoldenQuery {
    id: string;
    query: string;
    lang: string | null;
    expectedDocIds: string[] | null;
    expectedChunkIds: string[] | null;
    mustContain: string[];
    forbidden: string[];
    difficulty: string | null;
    group: string | null;
    category: string | null;
    tags: string[];
    /** The 001 runner's vault (`personal`, `work`): a breakdown. Absent: none. */
    vault?: string | null;
    answerable: boolean;
    goldSupports: GoldSupport[];
    requiredSupportGroups: number[][];
    /** chunk_id or doc_id -> grade 0..3 (trec qrels may carry other integers). */
    judgments: Map<string, number>;
    expectedLines: {
        file: string;
        start: number;
        end: number;
    } | null;
    goldClaim: string | null;
    recencyConflictRule: 'cite_newer' | 'cite_both' | 'acknowledge_both' | null;
    pending: boolean;
    /**
     * The query's own cutoff (a source's per-case `top_k`): the metrics that source defines at top_k score this query
     * at min(k, top_k) (docs/golden-sets.md). Absent or null: none.
     */
    topK?: number | null;
}
/**
 * Whose definitions the metrics that a source system defines differently follow: EvalVerdict's own, WFGY's (its
 * answer metrics) or PaperBot's (retrieval means over every case). A golden set's header names it; the importers
 * write it. See docs/golden-sets.md, "Metric profiles".
 */
export type MetricProfile = 'evalverdict' | 'wfgy' | 'paperbot';
export interface GoldenSet {
    source: string;
    queries: GoldenQuery[];
    fingerprint: string;
    warnings: Warning[];
    /** The header's metric profile; absent: `evalverdict`. */
    profile?: MetricProfile;
    /** Set when no query states an expectation (an ops-only suite): why, for the gates that need one. */
    noExpectation?: string;
}
