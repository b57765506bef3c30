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

const scratch: number[] = [];
// Plain arrays, not typed arrays: a record keeps a handful of short lists, and a typed array costs several times a
// small array of small integers in heap. Lists are gathered in these and copied out at their exact length (an array
// grown by push keeps room for 16 or more).
const listedRanks: number[] = [];
const listedRelevant: number[] = [];
const listedNovel: number[] = [];
const listedGrade: number[] = [];
const listedMoreGrades: number[] = [];
const hitGrades: number[] = [];
const listedOtherJudged: number[] = [];
const NONE: readonly number[] = Object.freeze([]);

/**
 * Joins the ranked candidates (sorted by rank) with the query's expectations once; every metric below reads the
 * result. `ranks[i]` is the stored rank of `candidates[i]`.
 */
export function relevanceVector(
  matcher: QueryMatcher,
  candidates: ArrayLike<Candidate>,
  ranks: ArrayLike<number>,
): RelevanceVector {
  const n = candidates.length;
  const exps = matcher.expectations;
  const minGrade = matcher.options.minGrade;
  const expectationFirstRank: number[] = new Array<number>(exps.length).fill(0);
  let firstRelevantRank = 0;
  listedRanks.length = 0;
  listedRelevant.length = 0;
  listedNovel.length = 0;
  listedGrade.length = 0;
  listedMoreGrades.length = 0;
  listedOtherJudged.length = 0;
  for (let i = 0; i < n; i++) {
    const matched = matcher.match(candidates[i], scratch);
    if (matched.length === 0) continue;
    const rank = ranks[i];
    let relevant = 0;
    let novel = 0;
    let grade = 0;
    let graded = 0; // expectations of grade > 0 this hit is the first to meet
    let judged = false; // meets an expectation of grade >= 0 (a negative grade: trec_eval's unjudged)
    for (const e of matched) {
      const g = exps[e].grade;
      if (g >= 0) judged = true;
      if (g >= minGrade) relevant = 1;
      if (expectationFirstRank[e] === 0) {
        expectationFirstRank[e] = rank;
        if (g >= minGrade) novel++;
        if (g > 0) hitGrades[graded++] = g;
        if (g > grade) grade = g;
      }
    }
    if (relevant && firstRelevantRank === 0) firstRelevantRank = rank;
    if (relevant || grade > 0) {
      if (graded > 1) {
        // Rare (an expected chunk of a judged document, a support anchoring an expected chunk): every grade but the
        // highest, which novelGrade holds.
        let highestSkipped = false;
        for (let m = 0; m < graded; m++) {
          if (!highestSkipped && hitGrades[m] === grade) highestSkipped = true;
          else listedMoreGrades.push(listedRanks.length, hitGrades[m]);
        }
      }
      listedRanks.push(rank);
      listedRelevant.push(relevant);
      listedNovel.push(novel);
      listedGrade.push(grade);
    } else if (judged) listedOtherJudged.push(rank);
  }
  return vectorOfLists(matcher, expectationFirstRank, firstRelevantRank);
}

/** The vector of the lists relevanceVector gathered, each copied out at its exact length (NONE when empty). */
function vectorOfLists(
  matcher: QueryMatcher,
  expectationFirstRank: number[],
  firstRelevantRank: number,
): RelevanceVector {
  const listed = listedRanks.length > 0;
  return {
    ranks: listed ? listedRanks.slice() : NONE,
    relevant: listed ? listedRelevant.slice() : NONE,
    novelRelevant: listed ? listedNovel.slice() : NONE,
    novelGrade: listed ? listedGrade.slice() : NONE,
    moreNovelGrades: listedMoreGrades.length > 0 ? listedMoreGrades.slice() : NONE,
    expectationFirstRank,
    otherJudgedRanks: listedOtherJudged.length > 0 ? listedOtherJudged.slice() : NONE,
    relevantCount: matcher.relevantCount,
    nonRelevantCount: matcher.nonRelevantCount,
    idealGrades: matcher.idealGrades,
    firstRelevantRank,
  };
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
export function recallAtK(
  v: RelevanceVector,
  k: number,
  expectations: ReadonlyArray<{ grade: number }>,
  minGrade: number,
): number | null {
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
export function ndcgAtK(v: RelevanceVector, k: number, kind: GainKind = 'linear'): number | null {
  let ideal = 0;
  for (let i = 0; i < v.idealGrades.length && i < k; i++) ideal += gainOf(v.idealGrades[i], kind) / Math.log2(i + 2);
  if (ideal === 0) return null;
  let dcg = 0;
  const more = v.moreNovelGrades;
  let m = 0;
  for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++) {
    if (v.novelGrade[i] === 0) continue;
    let gain = gainOf(v.novelGrade[i], kind);
    for (; m < more.length && more[m] === i; m += 2) gain += gainOf(more[m + 1], kind);
    dcg += gain / Math.log2(v.ranks[i] + 1);
  }
  return Math.min(1, dcg / ideal);
}

/**
 * Average precision (trec_eval map): for each hit that first meets a relevant expectation, precision at its rank
 * (such hits so far / rank) times the relevant expectations it is the first to meet (the recall it adds); summed
 * and divided by the number of relevant expectations (found or not). No cutoff. A hit meets one new expectation on
 * TREC data, where this is exactly trec_eval; one that meets two (an expected chunk of a judged document) adds
 * both, so a ranking that meets every expectation at the top scores 1.
 */
export function averagePrecision(v: RelevanceVector): number | null {
  if (v.relevantCount === 0) return null;
  let found = 0;
  let sum = 0;
  for (let i = 0; i < v.ranks.length; i++) {
    const added = v.novelRelevant[i];
    if (added > 0) {
      found++;
      sum += (found / v.ranks[i]) * added;
    }
  }
  return sum / v.relevantCount;
}

/**
 * judged@k (ir_measures' Judged@k): hits with rank <= k whose relevance the golden set states (they meet an
 * expectation of grade >= 0, grade 0 included), divided by k even when fewer hits came back.
 */
export function judgedAtK(v: RelevanceVector, k: number): number {
  let count = 0;
  for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++) count++;
  for (let i = 0; i < v.otherJudgedRanks.length && v.otherJudgedRanks[i] <= k; i++) count++;
  return count / k;
}

/**
 * bpref (trec_eval's, Buckley and Voorhees 2004): for each relevant hit, 1 - min(n, R) / min(N, R), where n is the
 * number of judged non-relevant hits ranked above it, R the relevant expectations and N the judged non-relevant
 * ones (1 when n is 0); summed and divided by R. Unjudged hits are skipped. A hit counts once per relevant
 * expectation it is the first to meet (as MAP), so a second chunk of a relevant document adds nothing; each judged
 * non-relevant hit adds to n. Null when R is 0.
 */
export function bpref(v: RelevanceVector): number | null {
  const R = v.relevantCount;
  if (R === 0) return null;
  const cap = Math.min(v.nonRelevantCount, R);
  const other = v.otherJudgedRanks;
  let nonRelevantAbove = 0;
  let o = 0;
  let sum = 0;
  for (let i = 0; i < v.ranks.length; i++) {
    for (; o < other.length && other[o] < v.ranks[i]; o++) nonRelevantAbove++;
    if (v.relevant[i] === 0) nonRelevantAbove++;
    else if (v.novelRelevant[i] > 0)
      sum += v.novelRelevant[i] * (nonRelevantAbove > 0 ? 1 - Math.min(nonRelevantAbove, R) / cap : 1);
  }
  return sum / R;
}

/**
 * For recall_doc@k: per distinct expected_doc_id (first listing wins), the stored rank of the first hit whose
 * doc_id it is, 0 when no hit carries it. Null when the query lists no expected_doc_ids.
 */
export function expectedDocFirstRanks(
  expectedDocIds: string[] | null,
  docIds: ArrayLike<string | null>,
  ranks: ArrayLike<number>,
): number[] | null {
  if (!expectedDocIds || expectedDocIds.length === 0) return null;
  // Lists are short (a few expected documents): arrays beat building Sets per query.
  const distinct: string[] = [];
  for (const d of expectedDocIds) if (!distinct.includes(d)) distinct.push(d);
  const first = new Array<number>(distinct.length).fill(0);
  for (let i = 0; i < docIds.length; i++) {
    const d = docIds[i];
    if (d === null) continue;
    const e = distinct.indexOf(d);
    if (e >= 0 && first[e] === 0) first[e] = ranks[i];
  }
  return first;
}

/** recall_doc@k: distinct expected_doc_ids among the doc_ids of hits with rank <= k, over all distinct expected_doc_ids. */
export function recallDocAtK(firstRanks: readonly number[] | null, k: number): number | null {
  if (firstRanks === null) return null;
  let found = 0;
  for (let e = 0; e < firstRanks.length; e++) if (firstRanks[e] !== 0 && firstRanks[e] <= k) found++;
  return found / firstRanks.length;
}

/**
 * recall_all@k (multi-hop): 1 when every required support group has at least one of its supports met by a
 * relevant hit with rank <= k. Null for queries without required_support_groups.
 */
export function recallAllAtK(
  groups: number[][],
  supportFirstRank: (supportIndex: number) => number,
  k: number,
): number | null {
  if (groups.length === 0) return null;
  for (const group of groups) {
    if (
      !group.some((s) => {
        const r = supportFirstRank(s);
        return r !== 0 && r <= k;
      })
    )
      return 0;
  }
  return 1;
}
