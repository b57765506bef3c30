/**
 * The retrieval family: ranking metrics over each query's relevance vector (src/aggregate/retrieval.ts holds the
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
} from '../retrieval.js';
import type { QueryRecord } from '../score.js';
import { bool } from './types.js';
import type { MetricContext, MetricDecl, MetricFamily } from './types.js';

/** How a metric profile's retrieval means treat a query with nothing relevant (docs/golden-sets.md). */
interface RetrievalRules {
  /** The query adds 0 to the means rather than being left out, whatever --mean-over. */
  countsNothingRelevant: boolean;
}

/** PaperBot averages over every case, one judged all 0 included (docs/sources/paperbot.md). */
export const RETRIEVAL_PROFILES: Record<MetricProfile, RetrievalRules> = {
  evalgate: { countsNothingRelevant: false },
  wfgy: { countsNothingRelevant: false },
  paperbot: { countsNothingRelevant: true },
};

type PerQuery = (r: QueryRecord) => number | null;

/** The mean rules of one context: which queries a retrieval mean is over, and the denominators that say so. */
function meanRules(ctx: MetricContext) {
  const { meanOver, profile } = ctx.options;
  const rules = RETRIEVAL_PROFILES[profile ?? 'evalgate'];
  /** A query with nothing relevant adds 0 rather than being left out: --mean-over trec, trec_c, or the profile. */
  const countsUnjudged = meanOver !== 'default' || rules.countsNothingRelevant;
  const profileCounts = rules.countsNothingRelevant && meanOver === 'default';
  return {
    /** The trec_eval-overlapping metrics follow --mean-over for missing queries and queries with nothing relevant. */
    trecMean:
      (fn: PerQuery): PerQuery =>
      (r) => {
        if (meanOver === 'trec' && r.result === null) return null;
        if (!r.hasExpectations) return countsUnjudged ? 0 : null;
        const v = fn(r);
        return v === null ? (countsUnjudged ? 0 : null) : v;
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
        return v === null ? (countsUnjudged ? 0 : null) : v;
      },
    withExpectations: profileCounts
      ? `every golden query (${profile} profile: one with nothing relevant adds 0)`
      : 'queries with at least one relevant expectation (see --mean-over)',
    withGrades: profileCounts
      ? `every golden query (${profile} profile: one with no expectation of grade > 0 adds 0)`
      : 'queries with an expectation of grade > 0 (see --mean-over)',
  };
}

/** One declaration per cutoff. */
const perK = (ks: number[], decl: (k: number) => MetricDecl): MetricDecl[] => ks.map(decl);

function rankingMetrics(ctx: MetricContext): MetricDecl[] {
  const { ks, mrrCutoff, minGrade, ndcgGain, meanOver } = ctx.options;
  const { trecMean, gradedMean, withExpectations, withGrades } = meanRules(ctx);
  const common = { direction: 'higher', unit: 'ratio' } as const;
  return [
    ...perK(ks, (k) => ({
      id: `hit@${k}`,
      ...common,
      paired: true,
      definition: `1 when a relevant hit has rank <= ${k} (Recall_any@${k}, evidence hit rate; = trec_eval success_${k})`,
      denominator: withExpectations,
      perQuery: trecMean((r) => hitAtK(r.vec, k)),
    })),
    {
      id: `mrr@${mrrCutoff}`,
      ...common,
      paired: true,
      definition: `1 / rank of the first relevant hit if its rank <= ${mrrCutoff}, else 0`,
      denominator: withExpectations,
      perQuery: trecMean((r) => reciprocalRank(r.vec, mrrCutoff)),
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
      denominator: withExpectations,
      perQuery: trecMean((r) => recallAtK(r.vec, k, r.expectations, minGrade)),
    })),
    ...perK(ks, (k) => ({
      id: `recall_doc@${k}`,
      ...common,
      definition: `distinct expected_doc_ids among the doc_ids of hits with rank <= ${k} / all expected_doc_ids`,
      denominator: 'queries with a non-empty expected_doc_ids',
      perQuery: (r) => recallDocAtK(r.expectedDocFirstRank, k),
    })),
    ...perK(ks, (k) => ({
      id: `nDCG@${k}`,
      ...common,
      paired: true,
      definition: `DCG of hits with rank <= ${k} (gain = ${ndcgGain === 'linear' ? 'grade' : '2^grade - 1'}, discount log2(rank + 1), each expectation gaining once, at the rank of the first hit that meets it) / DCG of the ideal ranking of all expectation grades, at most 1 (= trec_eval ndcg_cut_${k})`,
      denominator: withGrades,
      perQuery: gradedMean((r) => ndcgAtK(r.vec, k, ndcgGain)),
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
  declare: (ctx) => [...rankingMetrics(ctx), ...otherRetrievalMetrics(ctx)],
};
