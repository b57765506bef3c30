/**
 * Retrieval metrics over one query's graded relevance vector. Each function is the single definition of its
 * metric; docs/metrics.md repeats the formulas. Where trec_eval has the same measure the result is identical
 * (tested on trec_eval's own test data): ranks are the stored 1-based ranks, which an import from TREC assigns
 * in trec_eval's order (score descending, ties by docno descending).
 */
import type { Candidate, QueryMatcher } from './matching.js';
export type GainKind = 'linear' | 'exponential';
/**
 * One query's ranking joined with its expectations, kept sparse: only the hits that meet an expectation with a
 * positive grade are listed (every metric below skips the others, so leaving them out changes no value and keeps
 * a run of millions of hits small in memory).
 */
export interface RelevanceVector {
    /** Stored ranks of the listed hits, ascending. */
    ranks: readonly number[];
    /** 1 when the hit satisfies an expectation with grade >= minGrade. */
    relevant: readonly number[];
    /**
     * How many relevant expectations the hit is the first to satisfy: 0 for a second chunk of the same expected
     * document, 2 for a chunk that is both an expected chunk and of a judged document. Used by MAP.
     */
    novelRelevant: readonly number[];
    /** Highest grade (> 0) among the expectations this hit is the first to satisfy; 0 if none. Used by nDCG. */
    novelGrade: readonly number[];
    /**
     * The other grades (> 0) of expectations a hit is the first to satisfy, when it satisfies more than one: pairs of
     * (index into the lists above, grade), by index. Empty on TREC data. Used by nDCG.
     */
    moreNovelGrades: readonly number[];
    /** Per expectation: rank of the first hit that satisfies it, 0 when none does. */
    expectationFirstRank: readonly number[];
    /**
     * Stored ranks, ascending, of the hits not listed above that meet some expectation of grade >= 0: judged, and
     * not relevant (a grade-0 judgment, or a second hit of an expectation below minGrade). Used by judged@k and bpref.
     */
    otherJudgedRanks: readonly number[];
    /** Expectations with grade >= minGrade (trec_eval num_rel). */
    relevantCount: number;
    /** Expectations with 0 <= grade < minGrade: judged not relevant (trec_eval num_nonrel). Used by bpref. */
    nonRelevantCount: number;
    /** Grades > 0 of all expectations, descending: the ideal ranking. */
    idealGrades: readonly number[];
    /** Rank of the first relevant hit, 0 when none. */
    firstRelevantRank: number;
}
/**
 * Joins the ranked candidates (sorted by rank) with the query's expectations once; every metric below reads the
 * result. `ranks[i]` is the stored rank of `candidates[i]`.
 */
export declare function relevanceVector(matcher: QueryMatcher, candidates: ArrayLike<Candidate>, ranks: ArrayLike<number>): RelevanceVector;
/** hit@k (= trec_eval success_k, Recall_any@k): 1 when a relevant hit has rank <= k. */
export declare function hitAtK(v: RelevanceVector, k: number): number;
/** P@k: relevant hits with rank <= k, divided by k even when fewer than k hits came back (trec_eval P_k). */
export declare function precisionAtK(v: RelevanceVector, k: number): number;
/** recall@k: distinct relevant expectations met by hits with rank <= k, over all relevant expectations (trec_eval recall_k). */
export declare function recallAtK(v: RelevanceVector, k: number, expectations: ReadonlyArray<{
    grade: number;
}>, minGrade: number): number | null;
/** Reciprocal rank: 1 / rank of the first relevant hit with rank <= cutoff, else 0. No cutoff = trec_eval recip_rank. */
export declare function reciprocalRank(v: RelevanceVector, cutoff?: number): number;
/**
 * nDCG@k: DCG over DCG of the ideal ranking of all expectation grades cut at k (trec_eval ndcg_cut: gain = grade,
 * ideal from every judged grade, -l not applied). Each expectation gains once, at the rank of the first hit that
 * meets it, so nDCG stays <= 1 when several chunks match one document; a hit that is the first to meet several (an
 * expected chunk of a judged document) gains each of them. The ideal ranking places one expectation per position, so
 * such a ranking can score above it: nDCG is capped at 1 (a ranking at least as good as the ideal). The cap keeps
 * nDCG monotone: meeting more expectations, or meeting them earlier, never lowers it (pushing a hit's second
 * expectation to the next position instead would let an early low grade push a later high one past k). Where each
 * hit first meets at most one expectation (all TREC data), DCG never exceeds the ideal: exactly trec_eval. Null when
 * no expectation has a positive grade.
 */
export declare function ndcgAtK(v: RelevanceVector, k: number, kind?: GainKind): number | null;
/**
 * Average precision (trec_eval map): for each hit that first meets a relevant expectation, precision at its rank
 * (such hits so far / rank) times the relevant expectations it is the first to meet (the recall it adds); summed
 * and divided by the number of relevant expectations (found or not). No cutoff. A hit meets one new expectation on
 * TREC data, where this is exactly trec_eval; one that meets two (an expected chunk of a judged document) adds
 * both, so a ranking that meets every expectation at the top scores 1.
 */
export declare function averagePrecision(v: RelevanceVector): number | null;
/**
 * judged@k (ir_measures' Judged@k): hits with rank <= k whose relevance the golden set states (they meet an
 * expectation of grade >= 0, grade 0 included), divided by k even when fewer hits came back.
 */
export declare function judgedAtK(v: RelevanceVector, k: number): number;
/**
 * bpref (trec_eval's, Buckley and Voorhees 2004): for each relevant hit, 1 - min(n, R) / min(N, R), where n is the
 * number of judged non-relevant hits ranked above it, R the relevant expectations and N the judged non-relevant
 * ones (1 when n is 0); summed and divided by R. Unjudged hits are skipped. A hit counts once per relevant
 * expectation it is the first to meet (as MAP), so a second chunk of a relevant document adds nothing; each judged
 * non-relevant hit adds to n. Null when R is 0.
 */
export declare function bpref(v: RelevanceVector): number | null;
/**
 * For recall_doc@k: per distinct expected_doc_id (first listing wins), the stored rank of the first hit whose
 * doc_id it is, 0 when no hit carries it. Null when the query lists no expected_doc_ids.
 */
export declare function expectedDocFirstRanks(expectedDocIds: string[] | null, docIds: ArrayLike<string | null>, ranks: ArrayLike<number>): number[] | null;
/** recall_doc@k: distinct expected_doc_ids among the doc_ids of hits with rank <= k, over all distinct expected_doc_ids. */
export declare function recallDocAtK(firstRanks: readonly number[] | null, k: number): number | null;
/**
 * recall_all@k (multi-hop): 1 when every required support group has at least one of its supports met by a
 * relevant hit with rank <= k. Null for queries without required_support_groups.
 */
export declare function recallAllAtK(groups: number[][], supportFirstRank: (supportIndex: number) => number, k: number): number | null;
