/**
 * The retrieval family: ranking metrics over each query's relevance vector (src/aggregate/rankMetrics.ts holds the
 * formulas). Those trec_eval also has follow --mean-over and are equal to trec_eval's (test/trecEval.test.ts).
 */
import type { MetricProfile } from '../../types.js';
import {
  averagePrecision,
  bpref,
  hitAtK,
  judgedAtK,
  ndcgAtK,
  precisionAtK,
  recallAllAtK,
  recallAtK,
  recallDocAtK,
  reciprocalRank,
} from '../rankMetrics.js';
import type { GainKind } from '../rankMetrics.js';
import type { QueryRecord } from '../score.js';
import { bool } from './types.js';
import type { MetricContext, MetricDecl, MetricFamily } from './types.js';

/** How a metric profile's retrieval metrics treat cutoffs and queries with nothing relevant (docs/golden-sets.md). */
interface RetrievalRules {
  /** A query with nothing relevant counts in the means rather than being left out, whatever --mean-over. */
  countsNothingRelevant: boolean;
  /**
   * What the metrics PaperBot defines at top_k (hit, recall, MRR, nDCG) score such a query under --mean-over
   * default: hit@k 0 always; this for recall@k, mrr@K and nDCG@k. The other retrieval metrics add 0.
   */
  nothingRelevantScore: number;
  /** The cutoff of a query without its own top_k; null: none (the metric's k). */
  defaultTopK: number | null;
  /** nDCG's gain whatever --ndcg-gain; null: --ndcg-gain's. */
  ndcgGain: GainKind | null;
}

const EVALVERDICT_RULES: RetrievalRules = {
  countsNothingRelevant: false,
  nothingRelevantScore: 0,
  defaultTopK: null,
  ndcgGain: null,
};

/**
 * PaperBot's document evidence bench (its retrieval_benchmark.py and document_evidence_benchmark.py): means over
 * every case; a case's top_k defaults to 5; recall, MRR and nDCG score 1.0 for a case with nothing relevant (its
 * evidence hit 0); nDCG gains 2^grade - 1 with the ideal ranking cut at top_k.
 */
export const RETRIEVAL_PROFILES: Record<MetricProfile, RetrievalRules> = {
  evalverdict: EVALVERDICT_RULES,
  wfgy: EVALVERDICT_RULES,
  paperbot: { countsNothingRelevant: true, nothingRelevantScore: 1, defaultTopK: 5, ndcgGain: 'exponential' },
};

type PerQuery = (r: QueryRecord) => number | null;

/** The mean rules of one context: which queries a retrieval mean is over, and the denominators that say so. */
function meanRules(ctx: MetricContext) {
  const { meanOver, profile } = ctx.options;
  const rules = RETRIEVAL_PROFILES[profile ?? 'evalverdict'];
  /** A query with nothing relevant adds 0 rather than being left out: --mean-over trec, trec_c, or the profile. */
  const countsUnjudged = meanOver !== 'default' || rules.countsNothingRelevant;
  const profileCounts = rules.countsNothingRelevant && meanOver === 'default';
  /** What a query with nothing relevant scores where the profile's rule applies (PaperBot's recall, MRR, nDCG). */
  const profileScore = profileCounts ? rules.nothingRelevantScore : 0;
  const defaultTopK = rules.defaultTopK ?? Infinity;
  return {
    /**
     * The trec_eval-overlapping metrics follow --mean-over for missing queries and queries with nothing relevant
     * (those add `unjudged` when they count).
     */
    trecMean:
      (fn: PerQuery, unjudged = 0): PerQuery =>
      (r) => {
        if (meanOver === 'trec' && r.result === null) return null;
        if (!r.hasExpectations) return countsUnjudged ? unjudged : null;
        const v = fn(r);
        return v === null ? (countsUnjudged ? unjudged : null) : v;
      },
    /**
     * nDCG's mean: as trecMean, but a query counts when it has any expectation of grade > 0, whatever --min-grade
     * (nDCG reads grades, not the relevant/not-relevant cut: trec_eval's ndcg_cut ignores -l the same way).
     */
    gradedMean:
      (fn: PerQuery): PerQuery =>
      (r) => {
        if (meanOver === 'trec' && r.result === null) return null;
        const v = fn(r); // null: no expectation of grade > 0
        return v === null ? (countsUnjudged ? profileScore : null) : v;
      },
    profileScore,
    /** The cutoff of `r` for a metric at k: the query's top_k (or the profile's default) when lower. */
    cut: (r: QueryRecord, k: number): number => Math.min(k, r.golden.topK ?? defaultTopK),
    ndcgGain: rules.ndcgGain ?? ctx.options.ndcgGain,
    withExpectations: profileCounts
      ? `every golden query (${profile} profile: one with nothing relevant adds 0)`
      : 'queries with at least one relevant expectation (see --mean-over)',
    withExpectationsScored: profileCounts
      ? `every golden query (${profile} profile: one with nothing relevant scores ${rules.nothingRelevantScore})`
      : 'queries with at least one relevant expectation (see --mean-over)',
    withGrades: profileCounts
      ? `every golden query (${profile} profile: one with no expectation of grade > 0 scores ${rules.nothingRelevantScore})`
      : 'queries with an expectation of grade > 0 (see --mean-over)',
  };
}

/** One declaration per cutoff. */
const perK = (ks: number[], decl: (k: number) => MetricDecl): MetricDecl[] => ks.map(decl);

function rankingMetrics(ctx: MetricContext): MetricDecl[] {
  const { ks, mrrCutoff, minGrade } = ctx.options;
  const rules = meanRules(ctx);
  const { trecMean, cut, profileScore, withExpectations } = rules;
  const common = { direction: 'higher', unit: 'ratio' } as const;
  return [
    ...perK(ks, (k) => ({
      id: `hit@${k}`,
      ...common,
      paired: true,
      definition: `1 when a relevant hit has rank <= ${k} (Recall_any@${k}, evidence hit rate; = trec_eval success_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => hitAtK(r.vec, cut(r, k))),
    })),
    {
      id: `mrr@${mrrCutoff}`,
      ...common,
      paired: true,
      definition: `1 / rank of the first relevant hit if its rank <= ${mrrCutoff}, else 0`,
      denominator: rules.withExpectationsScored,
      perQuery: trecMean((r) => reciprocalRank(r.vec, cut(r, mrrCutoff)), profileScore),
    },
    {
      id: 'rr',
      ...common,
      paired: true,
      definition: '1 / rank of the first relevant hit, no cutoff, else 0 (= trec_eval recip_rank)',
      denominator: withExpectations,
      perQuery: trecMean((r) => reciprocalRank(r.vec)),
    },
    ...perK(ks, (k) => ({
      id: `P@${k}`,
      ...common,
      definition: `relevant hits with rank <= ${k}, divided by ${k} even when fewer hits came back (= trec_eval P_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => precisionAtK(r.vec, k)),
    })),
    ...perK(ks, (k) => ({
      id: `recall@${k}`,
      ...common,
      paired: true,
      definition: `distinct relevant expectations met by hits with rank <= ${k} / all relevant expectations (= trec_eval recall_${k})`,
      denominator: rules.withExpectationsScored,
      perQuery: trecMean((r) => recallAtK(r.vec, cut(r, k), r.expectations, minGrade), profileScore),
    })),
    ...perK(ks, (k) => ({
      id: `recall_doc@${k}`,
      ...common,
      definition: `distinct expected_doc_ids among the doc_ids of hits with rank <= ${k} / all expected_doc_ids`,
      denominator: 'queries with a non-empty expected_doc_ids',
      perQuery: (r) => recallDocAtK(r.expectedDocFirstRank, k),
    })),
  ];
}

function gradedMetrics(ctx: MetricContext): MetricDecl[] {
  const { ks, meanOver } = ctx.options;
  const { trecMean, gradedMean, cut, ndcgGain, withExpectations, withGrades } = meanRules(ctx);
  const common = { direction: 'higher', unit: 'ratio' } as const;
  return [
    ...perK(ks, (k) => ({
      id: `nDCG@${k}`,
      ...common,
      paired: true,
      definition: `DCG of hits with rank <= ${k} (gain = ${ndcgGain === 'linear' ? 'grade' : '2^grade - 1'}, discount log2(rank + 1), each expectation gaining once, at the rank of the first hit that meets it) / DCG of the ideal ranking of all expectation grades, at most 1 (= trec_eval ndcg_cut_${k})`,
      denominator: withGrades,
      perQuery: gradedMean((r) => ndcgAtK(r.vec, cut(r, k), ndcgGain)),
    })),
    {
      id: 'MAP',
      ...common,
      definition:
        'mean average precision: precision at the rank of each hit that first meets a relevant expectation, times the expectations it first meets, summed, / all relevant expectations (= trec_eval map)',
      denominator: withExpectations,
      perQuery: trecMean((r) => averagePrecision(r.vec)),
    },
    {
      id: 'bpref',
      ...common,
      definition:
        'binary preference for incomplete judgments: per relevant hit, 1 - (judged non-relevant hits above it, at most R) / min(judged non-relevant, R), unjudged hits skipped; summed / all relevant expectations R (= trec_eval bpref)',
      denominator: withExpectations,
      perQuery: trecMean((r) => bpref(r.vec)),
    },
    ...perK(ks, (k) => ({
      id: `judged@${k}`,
      direction: 'neutral',
      unit: 'ratio',
      definition: `hits with rank <= ${k} whose relevance the golden set states (a grade, 0 included), divided by ${k} even when fewer hits came back (ir_measures Judged@${k})`,
      denominator: 'queries with graded judgments (see --mean-over for missing ones)',
      perQuery: (r) =>
        r.golden.judgments.size === 0 || (meanOver === 'trec' && r.result === null) ? null : judgedAtK(r.vec, k),
    })),
  ];
}

/** The rank of the first relevant hit meeting gold support `s`, 0 when none does (recall_all@k). */
function supportFirstRank(r: QueryRecord, s: number, minGrade: number): number {
  const e = r.expectations.findIndex((x) => x.kind === 'support' && x.supportIndex === s);
  return e < 0 || r.expectations[e].grade < minGrade ? 0 : r.vec.expectationFirstRank[e];
}

function otherRetrievalMetrics(ctx: MetricContext): MetricDecl[] {
  const { ks, minGrade } = ctx.options;
  return [
    ...perK(ks, (k) => ({
      id: `recall_all@${k}`,
      direction: 'higher',
      unit: 'ratio',
      definition: `1 when every required support group has a support met by a relevant hit with rank <= ${k} (multi-hop)`,
      denominator: 'queries with required_support_groups',
      perQuery: (r) => recallAllAtK(r.golden.requiredSupportGroups, (s) => supportFirstRank(r, s, minGrade), k),
    })),
    {
      id: 'scope_miss_rate',
      direction: 'lower',
      unit: 'ratio',
      definition: 'no gold support lies under any selected folder',
      denominator: 'queries with gold_supports run with folder_mode on or on_with_fallback',
      perQuery: (r) => bool(r.scopeMiss),
    },
    {
      id: 'citation_accuracy',
      direction: 'higher',
      unit: 'ratio',
      definition:
        "every hit whose line citation names the expected_lines file cites lines overlapping the expected range (ckv's CitationAccuracy)",
      denominator: 'queries with expected_lines and a relevant hit',
      perQuery: (r) => bool(r.lineCitationsCorrect),
    },
    {
      id: 'empty_result_rate',
      direction: 'lower',
      unit: 'ratio',
      definition: 'zero hits (a query missing from the run counts as empty)',
      denominator: 'all scored queries',
      perQuery: (r) => ((r.result?.hitCount ?? 0) === 0 ? 1 : 0),
    },
  ];
}

export const retrievalFamily: MetricFamily = {
  family: 'retrieval',
  declare: (ctx) => [...rankingMetrics(ctx), ...gradedMetrics(ctx), ...otherRetrievalMetrics(ctx)],
};
