/**
 * Retrieval metrics over one query's graded relevance vector. Each function is the single definition of its
 * metric; docs/metrics.md repeats the formulas. Where trec_eval has the same measure the result is identical
 * (tested on trec_eval's own test data): ranks are the stored 1-based ranks, which an import from TREC assigns
 * in trec_eval's order (score descending, ties by docno descending).
 */
import type { Candidate, QueryMatcher } from './matching.js';

export type GainKind = 'linear' | 'exponential';

export interface RelevanceVector {
  /** Stored ranks, ascending. */
  ranks: Int32Array;
  /** 1 when the hit satisfies an expectation with grade >= minGrade. */
  relevant: Uint8Array;
  /** 1 when the hit is the first to satisfy some relevant expectation (a second chunk of the same expected document is not). */
  novelRelevant: Uint8Array;
  /** Highest grade (> 0) among the expectations this hit is the first to satisfy; 0 if none. Used by nDCG. */
  novelGrade: Float64Array;
  /** Per expectation: rank of the first hit that satisfies it, 0 when none does. */
  expectationFirstRank: Int32Array;
  /** Expectations with grade >= minGrade (trec_eval num_rel). */
  relevantCount: number;
  /** Grades > 0 of all expectations, descending: the ideal ranking. */
  idealGrades: number[];
  /** Rank of the first relevant hit, 0 when none. */
  firstRelevantRank: number;
}

const scratch: number[] = [];

/** Joins the ranked candidates with the query's expectations once; every metric below reads the result. */
export function relevanceVector(matcher: QueryMatcher, candidates: Candidate[], ranks: ArrayLike<number>): RelevanceVector {
  const n = candidates.length;
  const exps = matcher.expectations;
  const minGrade = matcher.options.minGrade;
  const vec: RelevanceVector = {
    ranks: Int32Array.from(ranks as ArrayLike<number>),
    relevant: new Uint8Array(n),
    novelRelevant: new Uint8Array(n),
    novelGrade: new Float64Array(n),
    expectationFirstRank: new Int32Array(exps.length),
    relevantCount: matcher.relevantCount,
    idealGrades: matcher.idealGrades,
    firstRelevantRank: 0,
  };
  for (let i = 0; i < n; i++) {
    const matched = matcher.match(candidates[i], scratch);
    if (matched.length === 0) continue;
    for (const e of matched) {
      const grade = exps[e].grade;
      if (grade >= minGrade) vec.relevant[i] = 1;
      if (vec.expectationFirstRank[e] === 0) {
        vec.expectationFirstRank[e] = vec.ranks[i];
        if (grade >= minGrade) vec.novelRelevant[i] = 1;
        if (grade > vec.novelGrade[i]) vec.novelGrade[i] = grade;
      }
    }
    if (vec.relevant[i] && vec.firstRelevantRank === 0) vec.firstRelevantRank = vec.ranks[i];
  }
  return vec;
}

/** hit@k (= trec_eval success_k, Recall_any@k): 1 when a relevant hit has rank <= k. */
export function hitAtK(v: RelevanceVector, k: number): number {
  return v.firstRelevantRank !== 0 && v.firstRelevantRank <= k ? 1 : 0;
}

/** P@k: relevant hits with rank <= k, divided by k even when fewer than k hits came back (trec_eval P_k). */
export function precisionAtK(v: RelevanceVector, k: number): number {
  let count = 0;
  for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++) count += v.relevant[i];
  return count / k;
}

/** recall@k: distinct relevant expectations met by hits with rank <= k, over all relevant expectations (trec_eval recall_k). */
export function recallAtK(v: RelevanceVector, k: number, expectations: ReadonlyArray<{ grade: number }>, minGrade: number): number | null {
  if (v.relevantCount === 0) return null;
  let met = 0;
  for (let e = 0; e < v.expectationFirstRank.length; e++) {
    const r = v.expectationFirstRank[e];
    if (r !== 0 && r <= k && expectations[e].grade >= minGrade) met++;
  }
  return met / v.relevantCount;
}

/** Reciprocal rank: 1 / rank of the first relevant hit with rank <= cutoff, else 0. No cutoff = trec_eval recip_rank. */
export function reciprocalRank(v: RelevanceVector, cutoff = Infinity): number {
  return v.firstRelevantRank !== 0 && v.firstRelevantRank <= cutoff ? 1 / v.firstRelevantRank : 0;
}

function gainOf(grade: number, kind: GainKind): number {
  return kind === 'linear' ? grade : 2 ** grade - 1;
}

/**
 * nDCG@k: sum over hits with rank <= k of gain / log2(rank + 1), over the same sum for the ideal ranking of all
 * expectation grades (trec_eval ndcg_cut: gain = grade, ideal from every judged grade, -l not applied).
 * Each expectation gains once, at the first hit that meets it, so nDCG stays <= 1 when several chunks match one document.
 * Null when no expectation has a positive grade.
 */
export function ndcgAtK(v: RelevanceVector, k: number, kind: GainKind = 'linear'): number | null {
  let ideal = 0;
  for (let i = 0; i < v.idealGrades.length && i < k; i++) ideal += gainOf(v.idealGrades[i], kind) / Math.log2(i + 2);
  if (ideal === 0) return null;
  let dcg = 0;
  for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++) {
    if (v.novelGrade[i] > 0) dcg += gainOf(v.novelGrade[i], kind) / Math.log2(v.ranks[i] + 1);
  }
  return dcg / ideal;
}

/**
 * Average precision (trec_eval map): for each hit that first meets a relevant expectation, precision at its rank;
 * summed and divided by the number of relevant expectations (found or not). No cutoff.
 */
export function averagePrecision(v: RelevanceVector): number | null {
  if (v.relevantCount === 0) return null;
  let found = 0;
  let sum = 0;
  for (let i = 0; i < v.ranks.length; i++) {
    if (v.novelRelevant[i]) {
      found++;
      sum += found / v.ranks[i];
    }
  }
  return sum / v.relevantCount;
}

/** recall_doc@k: distinct expected_doc_ids among the doc_ids of hits with rank <= k, over all expected_doc_ids. */
export function recallDocAtK(expectedDocIds: string[] | null, docIds: Array<string | null>, ranks: ArrayLike<number>, k: number): number | null {
  if (!expectedDocIds || expectedDocIds.length === 0) return null;
  // Lists are short (k hits, a few expected documents): arrays beat building two Sets per call.
  let distinct = 0;
  for (let i = 0; i < expectedDocIds.length; i++) if (expectedDocIds.indexOf(expectedDocIds[i]) === i) distinct++;
  const found: string[] = [];
  for (let i = 0; i < docIds.length && ranks[i] <= k; i++) {
    const d = docIds[i];
    if (d !== null && !found.includes(d) && expectedDocIds.includes(d)) found.push(d);
  }
  return found.length / distinct;
}

/**
 * recall_all@k (multi-hop): 1 when every required support group has at least one of its supports met by a
 * relevant hit with rank <= k. Null for queries without required_support_groups.
 */
export function recallAllAtK(groups: number[][], supportFirstRank: (supportIndex: number) => number, k: number): number | null {
  if (groups.length === 0) return null;
  for (const group of groups) {
    if (!group.some((s) => { const r = supportFirstRank(s); return r !== 0 && r <= k; })) return 0;
  }
  return 1;
}
