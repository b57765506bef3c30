import type { ChunkMatchMode } from '../aggregate/matching.js';
import { PerQueryValues } from '../aggregate/perQueryValues.js';
import type { AggregateOptions, ScoredRun } from '../aggregate/score.js';
import type { TabulatedRun } from '../aggregate/table.js';
import type { ChunkRecord, GoldenSet, RunData, RunMeta, RunStream } from '../types.js';
import type { ComparedRuns } from './types.js';
export interface CompareOptions extends AggregateOptions {
    strictChunkerVersion: boolean;
    /** Seed of the randomization test and bootstrap: same seed, same p-values. */
    seed: number;
    /** Random sign flips of the randomization test. */
    permutations: number;
    /** Significance level: a paired test with p < alpha is `significant` (the pipeline passes the gate config's). */
    alpha: number;
}
export declare const DEFAULT_COMPARE_OPTIONS: CompareOptions;
/** Settings whose difference explains retrieval changes, and those that explain answer changes. */
/**
 * A run's chunker version as its run row or chunks table declares it: config_snapshot_json.chunker_version, else
 * the one version of its chunks table (several: their sorted list, so two mixed indexes still compare unequal).
 * Undefined when neither says, and only the hits can tell.
 */
export declare function declaredChunkerVersion(run: RunMeta): string | null | undefined;
/** A run's chunker version: the declared one, else the one version (or sorted list) its hits carry, else null. */
export declare function chunkerVersionOf(scored: ScoredRun | TabulatedRun): string | null;
/**
 * How expected chunk ids were matched when the chunker versions differ, from what each query's matching did
 * (docs/metrics.md, "Chunker versions"): `fallback_doc_span` when some query's expected chunk was matched by span,
 * else `fallback_doc` (by document, or no query could fall back). `chunk_match_queries` says how many did which.
 */
export declare function matchLabel(baseline: TabulatedRun, candidate: TabulatedRun): ChunkMatchMode;
/** Both runs' chunks tables (the baseline's entry where both have an id); empty when neither has one: it finds nothing. */
export declare function mergedChunks(a: RunMeta, b: RunMeta): Map<string, ChunkRecord>;
/** The config_snapshot_json keys whose values differ between two runs, sorted. */
export declare function configDifferences(baseline: RunMeta, candidate: RunMeta): string[];
/** The baseline's side of a comparison measured ahead (prepareBaseline), for compareExactlyScored to reuse. */
export interface PreparedBaseline {
    readonly table: TabulatedRun;
    /** valuesKey of the options and stages it was measured with: reused only where the comparison's are the same. */
    readonly key: string;
    readonly values: PerQueryValues;
}
/**
 * What compareScored will need of the baseline alone (its metric table, groups, and every metric over the run and
 * each group), computed ahead: the parallel compare does it while the worker thread finishes the candidate.
 */
export declare function prepareBaseline(baseline: TabulatedRun, options: AggregateOptions): PreparedBaseline;
export declare function compareScored(baseline: TabulatedRun, candidate: TabulatedRun, options: CompareOptions, chunkMatch: ChunkMatchMode, prepared?: PreparedBaseline | null): ComparedRuns;
/** Whether the runs declare different chunker versions up front (under strict: an InputError instead). */
export declare function declaredVersionsDiffer(baseline: RunMeta, candidate: RunMeta, strict: boolean): boolean;
/**
 * Two runs already scored with exact chunk matching (e.g. in parallel): the comparison, or null when the versions
 * their hits carry differ, and compareRuns must score both again with the fallback. Under strict: an InputError.
 * `prepared`: the baseline's side measured ahead (prepareBaseline), used when it fits.
 */
export declare function compareExactlyScored(bs: TabulatedRun, cs: TabulatedRun, options?: Partial<CompareOptions>, prepared?: PreparedBaseline | null): ComparedRuns | null;
/** A run to compare: in memory, streamed, or a stream opened only when it is needed (see deferRunStream). */
export type RunSource = RunData | RunStream | (() => RunData | RunStream);
/**
 * Compares two runs scored against one golden set (applyGates in src/gate/gates.ts then gates the comparison).
 * One run database is in memory at a time: the baseline is scored and released before the candidate is opened
 * (pass the candidate as a function to defer that). Matching is exact unless the chunker versions (declared, else
 * those the hits carry) differ; then both runs are scored again with the fallback.
 */
export declare function compareRuns(baseline: RunSource, candidate: RunSource, golden: GoldenSet, options?: Partial<CompareOptions>): ComparedRuns;
/**
 * A candidate-only report (`--baseline none`): the candidate scored once, compared with itself for the shape of the
 * report, then every baseline-side value nulled: baseline values, deltas, tests, intervals, per-query outcomes and
 * counts. Gates that compare with a baseline then have no data (applyGates); `min` and `max` gates apply.
 */
export declare function compareCandidateOnly(candidate: RunSource, golden: GoldenSet, options?: Partial<CompareOptions>): ComparedRuns;
