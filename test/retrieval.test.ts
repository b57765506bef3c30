/**
 * Issue 26: hand-worked retrieval values that kill mutants of src/aggregate/rankMetrics.ts which survived the other
 * suites. Runs and golden sets are built in memory (compareFixtures) and scored in process; each expected value is
 * worked out in the comment beside it.
 */
import { describe, expect, it } from 'vitest';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import { bpref, expectedDocFirstRanks, ndcgAtK, recallAtK, relevanceVector } from '../src/aggregate/rankMetrics.js';
import { candidateFromHit, QueryMatcher } from '../src/aggregate/matching.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import type { GoldenQuery, Hit } from '../src/types.js';
import { goldenQuery, goldenSet, mkHit, queryResult, runData } from './helpers/compareFixtures.js';

/** The aggregate of one query `q` whose run returned `hits`. */
const aggregateOne = (q: GoldenQuery, hits: Hit[], minGrade = 1) =>
  computeAggregate(runData('r', [queryResult(q.id, hits)]), goldenSet([q]), { minGrade }).metrics;

const value = (metrics: ReturnType<typeof aggregateOne>, id: string) => metrics[id].value;

describe('retrieval metrics: the first relevant rank, grades, duplicates and negative judgments', () => {
  it('the first relevant rank is the earliest of two relevant hits (ranks 2 and 5), not the later one', () => {
    const q = goldenQuery('q', { expectedChunkIds: ['x', 'y'] });
    const m = aggregateOne(q, [mkHit(1, 'f1'), mkHit(2, 'x'), mkHit(3, 'f3'), mkHit(4, 'f4'), mkHit(5, 'y')]);
    // first relevant rank 2: hit@1 = 0, hit@3 = 1, rr = mrr@10 = 1/2 (rank 5 would give hit@3 = 0, rr = 1/5)
    expect(value(m, 'hit@1')).toBe(0);
    expect(value(m, 'hit@3')).toBe(1);
    expect(value(m, 'rr')).toBe(0.5);
    expect(value(m, 'mrr@10')).toBe(0.5);
  });

  it('an expectation graded below --min-grade is not relevant (hit@k, P@k, rr, recall@k)', () => {
    // min-grade 2: a (grade 1) is not relevant, b (grade 2) is; relevant expectations = {b}, 1 of them
    const q = goldenQuery('q', {
      judgments: new Map([
        ['a', 1],
        ['b', 2],
      ]),
    });
    const m = aggregateOne(q, [mkHit(1, 'a'), mkHit(2, 'f2'), mkHit(3, 'b')], 2);
    // first relevant hit is b at rank 3: hit@1 = 0, hit@3 = 1, rr = 1/3
    expect(value(m, 'hit@1')).toBe(0);
    expect(value(m, 'hit@3')).toBe(1);
    expect(value(m, 'rr')).toBeCloseTo(1 / 3, 12);
    // P@1 = 0/1 (a does not count); P@3 = 1/3 (only b; values are unrounded in process)
    expect(value(m, 'P@1')).toBe(0);
    expect(value(m, 'P@3')).toBeCloseTo(1 / 3, 12);
    // recall@1 = 0/1 (a met at rank 1 is not relevant); recall@3 = 1/1
    expect(value(m, 'recall@1')).toBe(0);
    expect(value(m, 'recall@3')).toBe(1);
  });

  it('MAP counts a second chunk of an already-met document once: relevant, duplicate, relevant = 5/6', () => {
    // expected docs d1, d2 (document-level relevance); hits: d1 (rank 1), d1 again (rank 2), d2 (rank 3)
    const q = goldenQuery('q', { expectedDocIds: ['d1', 'd2'] });
    const m = aggregateOne(q, [mkHit(1, 'c1', 'd1'), mkHit(2, 'c2', 'd1'), mkHit(3, 'c3', 'd2')]);
    // AP = (1/1 + 2/3) / 2 = 0.8333 (counting the duplicate as found would give (1/1 + 3/3) / 2 = 1)
    expect(value(m, 'MAP')).toBeCloseTo(5 / 6, 12);
  });

  it('recall_doc@k counts a duplicated expected_doc_id once: [a, a, b] with a found = 1/2', () => {
    const q = goldenQuery('q', { expectedDocIds: ['a', 'a', 'b'] });
    const m = aggregateOne(q, [mkHit(1, 'c1', 'a'), mkHit(2, 'c2', 'z')]);
    // distinct expected docs {a, b}; a at rank 1: recall_doc@1 = 1/2 (not 1/3 with a listed twice)
    expect(value(m, 'recall_doc@1')).toBe(0.5);
    expect(value(m, 'recall_doc@10')).toBe(0.5);
  });

  it('a negative judgment (TREC qrels use -1, -2) gains nothing: nDCG as if it were 0, never below', () => {
    // a (-1) at rank 1, b (1) at rank 2: DCG = 1/log2(3); ideal = 1: nDCG@10 = 1/log2(3), the same as grade 0
    const ndcg = (aGrade: number) => {
      const q = goldenQuery('q', {
        judgments: new Map([
          ['a', aGrade],
          ['b', 1],
        ]),
      });
      const run = runData('r', [queryResult('q', [mkHit(1, 'a'), mkHit(2, 'b')])]);
      return computeAggregate(run, goldenSet([q])).metrics['nDCG@10'].value;
    };
    expect(ndcg(-1)).toBeCloseTo(1 / Math.log2(3), 12);
    expect(ndcg(-2)).toBe(ndcg(0));
  });

  it('a negative judgment met by the same hit as a positive one gains nothing either (any --min-grade)', () => {
    // chunk x judged 2 and its document d judged -1 (unjudged to trec_eval): the hit at rank 1 meets both, y (1) is
    // at rank 2. DCG = 2 + 1/log2(3) = the ideal [2, 1]: nDCG@10 = 1. Gaining -1 at rank 1 would give
    // (1 + 1/log2 3) / (2 + 1/log2 3) = 0.6199.
    for (const minGrade of [0, 1]) {
      const q = goldenQuery('q', {
        judgments: new Map([
          ['x', 2],
          ['d', -1],
          ['y', 1],
        ]),
      });
      const m = aggregateOne(q, [mkHit(1, 'x', 'd'), mkHit(2, 'y', 'e')], minGrade);
      expect(value(m, 'nDCG@10')).toBeCloseTo(1, 12);
      expect(value(m, 'P@1')).toBe(1);
    }
  });

  it('recall@k and bpref of a query with no relevant expectation are null, not 0/0 = NaN', () => {
    // its only expectation has grade 1 < min-grade 2: relevantCount = 0
    const q = goldenQuery('q', { judgments: new Map([['a', 1]]) });
    const scored = scoreRun(runData('r', [queryResult('q', [mkHit(1, 'a')])]), goldenSet([q]), {
      ...DEFAULT_OPTIONS,
      minGrade: 2,
    });
    const record = scored.records[0];
    expect(record.vec.relevantCount).toBe(0);
    expect(recallAtK(record.vec, 10, record.expectations, 2)).toBeNull();
    // bpref too (its min(N, R) would be 0: 0/0 = NaN), though a judged non-relevant hit was ranked
    expect(bpref(record.vec)).toBeNull();
  });
});

describe('retrieval metrics: unmet expectations, the cutoff rank, no expected documents and gains', () => {
  it('recall@k counts a relevant expectation no hit meets as not met: x met, y never = 1/2', () => {
    const q = goldenQuery('q', { expectedChunkIds: ['x', 'y'] });
    const m = aggregateOne(q, [mkHit(1, 'x'), mkHit(2, 'f2')]);
    // y's first rank is 0 (never met): 0 <= k must not count it
    expect(value(m, 'recall@10')).toBe(0.5);
    expect(value(m, 'recall@1')).toBe(0.5);
  });

  it('mrr@10 counts a first relevant hit at rank exactly 10 (1/10), not at 11', () => {
    const q = goldenQuery('q', { expectedChunkIds: ['x'] });
    const ranks = (r: number) => Array.from({ length: r }, (_, i) => mkHit(i + 1, i + 1 === r ? 'x' : `f${i + 1}`));
    expect(value(aggregateOne(q, ranks(10)), 'mrr@10')).toBeCloseTo(0.1, 12);
    expect(value(aggregateOne(q, ranks(11)), 'mrr@10')).toBe(0);
  });

  it('recall_doc@k of a query whose expected_doc_ids is [] (unanswerable) is null, not 0/0', () => {
    expect(expectedDocFirstRanks([], ['a'], [1])).toBeNull();
    const unanswerable = goldenQuery('u', { expectedDocIds: [], answerable: false });
    const answerable = goldenQuery('a', { expectedDocIds: ['d1'] });
    const metrics = computeAggregate(
      runData('r', [queryResult('u', [mkHit(1, 'c1', 'd1')]), queryResult('a', [mkHit(1, 'c2', 'd1')])]),
      goldenSet([unanswerable, answerable]),
      { minGrade: 1 },
    ).metrics;
    // only the answerable query counts: 1/1
    expect(metrics['recall_doc@10'].value).toBe(1);
  });

  it('nDCG gains are linear unless exponential is asked for: grades 1 then 3 against the ideal [3, 1]', () => {
    const q2 = goldenQuery('q2', {
      judgments: new Map([
        ['x', 1],
        ['y', 3],
      ]),
    });
    const m2 = new QueryMatcher(q2, { ...DEFAULT_OPTIONS, referenceChunks: null, runChunks: null });
    const hits2 = [mkHit(1, 'x'), mkHit(2, 'y')];
    const v2 = relevanceVector(
      m2,
      hits2.map((h) => candidateFromHit(h, null)),
      hits2.map((h) => h.rank),
    );
    // linear: (1 + 3/log2 3) / (3 + 1/log2 3) = 0.7967; exponential: (1 + 7/log2 3) / (7 + 1/log2 3) = 0.7098
    expect(ndcgAtK(v2, 10)).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)), 12);
    expect(ndcgAtK(v2, 10, 'exponential')).toBeCloseTo((1 + 7 / Math.log2(3)) / (7 + 1 / Math.log2(3)), 12);
  });

  it("a relevance vector keeps its own lists: building the next query's does not change it", () => {
    const q = goldenQuery('q', { expectedChunkIds: ['x'] });
    const matcher = new QueryMatcher(q, { ...DEFAULT_OPTIONS, referenceChunks: null, runChunks: null });
    const vector = (hits: Hit[]) =>
      relevanceVector(
        matcher,
        hits.map((h) => candidateFromHit(h, null)),
        hits.map((h) => h.rank),
      );
    const first = vector([mkHit(1, 'x')]);
    vector([mkHit(1, 'f1')]); // matches nothing: its lists are empty
    expect([first.ranks, first.relevant, first.novelRelevant, first.novelGrade]).toEqual([[1], [1], [1], [1]]);
  });
});
