/** The comparison of two runs: the compare report before the gate stage adds `gates` and `verdict`. */
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { RunSummary } from '../aggregate/aggregate.js';
import type { ChunkMatchMode, QueryChunkMatch } from '../aggregate/matching.js';
import type { RowCore } from '../aggregate/perQuery.js';

/** `flaky`: set aside, counted nowhere (a side's repeats disagree, or the query is flaky by history). */
export type OutcomeKind = 'win' | 'loss' | 'draw' | 'regression' | 'flaky';

export interface MetricComparison {
  baseline: number | null;
  candidate: number | null;
  /** candidate - baseline; null when either side is null. */
  delta: number | null;
  /** delta / baseline; null when the baseline is 0 or either side is null. */
  rel_delta: number | null;
  /** The candidate's denominator. */
  n: number;
  n_baseline: number;
  /** Shared queries with a value on both sides (the paired test's sample); null for unpaired metrics. */
  n_paired: number | null;
  /** Paired two-sided randomization test; null for metrics without a per-query paired value. */
  p_value: number | null;
  /**
   * Interval of the mean paired per-query delta at level 1 - alpha, read off the paired test (mean +- its critical
   * value): it excludes 0 exactly when p_value < alpha. Null for metrics without a paired test.
   */
  ci: [number, number] | null;
  significant: boolean | null;
  /** False when the runs' judge settings differ: shown, never gated. */
  comparable: boolean;
}

export interface QueryOutcome {
  query_id: string;
  query: string;
  kind: OutcomeKind;
  /** Rank of the first relevant hit; null = miss (or missing from the run). */
  baseline_rank: number | null;
  candidate_rank: number | null;
  /** Candidate - baseline of the report's `per_query_metric` for this query; null where either side has none. */
  metric_delta: number | null;
  note: string;
  /** Answer-side changes, e.g. "refused -> answered (unanswerable)". */
  answer_changes: string[];
  /** True when an answer-side change is for the worse. */
  answer_regression: boolean;
  /**
   * For a regression, a loss or an answer regression: the candidate's per-query row, the fields and values of
   * `evalverdict aggregate CANDIDATE --per-query` for this query_id (top_hit and hallucination_reason are only there).
   */
  candidate_row?: RowCore;
  /** How this query's expected chunks were matched; present when some query of the comparison fell back. */
  chunk_match?: QueryChunkMatch;
}

/** A query set aside as flaky (docs/compare.md, "Repeated runs and flaky queries"). */
export interface FlakyQuery {
  query_id: string;
  query: string;
  /** Why, each prefixed with its side or `history:`. */
  reasons: string[];
  /** Per run of each side, in the order given: the first relevant rank and the answer facts that disagree. */
  baseline: string[];
  candidate: string[];
}

/** The runs of one side. */
export interface SideRuns {
  runs: number;
  run_ids: string[];
  /** Settings in which the side's runs differ (present when some do), less the expected: repeats should be runs of one system. */
  differences?: string[];
  /** Settings the side's runs differ in that the gate config expects to (`repeats.may_differ`): no warning. */
  expected_differences?: string[];
}

/**
 * Where a run's `commit_hash` came from: its database (`eval_runs.commit_hash`), or, when that is empty, the action's
 * workflow context (the candidate's: the commit the workflow run evaluated; the baseline's: the head commit of the
 * run that uploaded its artifact). Null: no commit is known.
 */
export type CommitSource = 'database' | 'workflow_run';

/** A run of the comparison; `commit_source` is set by the pipeline (render/reportParts.ts withWorkflowCommits). */
export type ComparedRun = RunSummary & { commit_source?: CommitSource | null };

/** Every field of the JSON report except the gate stage's `gates` and `verdict`. */
export interface Comparison {
  chunker_version_match: ChunkMatchMode;
  /** Queries per match mode (docs/metrics.md, "Chunker versions"); present when some query fell back. */
  chunk_match_queries?: Record<QueryChunkMatch, number>;
  /** Null in a candidate-only report (`--baseline none`): every baseline value, delta and test is null too. */
  baseline: ComparedRun | null;
  candidate: ComparedRun;
  golden: {
    fingerprint: string;
    queries: number;
    pending: number;
    /** Golden queries only the candidate run has results for (added) / only the baseline has (removed). */
    added: string[];
    removed: string[];
    shared: number;
    /** Result query ids each run has that the golden set does not (not scored), sorted. */
    unknown_query_ids: { baseline: string[]; candidate: string[] };
    /** Golden query ids each run has more than one result for (only the last one read is scored), sorted. */
    duplicate_query_ids: { baseline: string[]; candidate: string[] };
    /**
     * Golden query ids each run has more than 10,000 hits or answer citations for (the first scored, the rest not),
     * sorted; present only when a run has one (src/aggregate/score.ts MAX_HITS_PER_QUERY).
     */
    capped_query_ids?: { baseline: string[]; candidate: string[] };
  };
  /** Settings that differ between the runs (known causes of change). */
  differences: string[];
  judge_comparable: boolean;
  /** Significance level of the paired tests (`significant`), the gate config's `alpha`. */
  alpha: number;
  metrics: Record<string, MetricComparison>;
  breakdowns: Record<string, Record<string, Record<string, MetricComparison>>>;
  /** The per-query metric each outcome's `metric_delta` is of (nDCG@10 by default). */
  per_query_metric: string;
  per_query: QueryOutcome[];
  /** Per outcome kind, flaky queries left out. */
  counts: { win: number; loss: number; draw: number; regression: number; answer_regression: number };
  /** How many runs each side has; present when a side has several runs or queries are flaky by history. */
  repeats?: { baseline: SideRuns; candidate: SideRuns };
  /** Queries set aside as flaky (`count` of them, the first MAX_FLAKY_LISTED by query id); present as `repeats`. */
  flaky?: { count: number; queries: FlakyQuery[] };
  options: {
    ks: number[];
    mrr_cutoff: number;
    ndcg_gain: string;
    min_grade: number;
    mean_over: string;
    seed: number;
    permutations: number;
    /** The golden set's metric profile, when it is not EvalVerdict's own (docs/golden-sets.md). */
    profile?: string;
  };
}

export interface ComparedRuns {
  report: Comparison;
  /** The metric table used, for gating and rendering (direction, unit, family). */
  defs: MetricDef[];
  /** Queries per breakdown group, which gates with `where` read for `min_n`; not part of the report. */
  groupSizes: Record<string, Record<string, number>>;
  /** Per run, `timings_ms` values of stages past the first MAX_STAGES_PER_RUN: warned of, not part of the report. */
  ignoredStageTimings: { baseline: number; candidate: number };
  /**
   * A paired metric's per-query differences (candidate - baseline), for the gates' one-sided tests, over every
   * paired query or those of one breakdown group (`where`, a slice); else null.
   */
  pairedDiffsOf?: (metric: string, where?: { key: string; value: string }) => Float64Array | null;
  /**
   * A per-query quantity's values (`elapsed_ms`, `cost_usd`, `prompt_tokens`), each side's, over the queries that
   * have it on both sides in the same order; null when no metric of the table reads it.
   */
  pairedQuantityOf?: (quantity: string) => { baseline: Float64Array; candidate: Float64Array } | null;
  /** The candidate's query ids whose per-query value of `metric` is `bad` (a failed answer gate names them). */
  failingQueriesOf?: (metric: string, bad: number) => string[] | null;
}
