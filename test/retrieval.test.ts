/**
 * Issue 26: hand-worked retrieval values that kill mutants of src/aggregate/retrieval.ts which survived the other
 * suites. Runs and golden sets are built in memory (compareFixtures) and scored in process; each expected value is
 * worked out in the comment beside it.
 */
import { describe, expect, it } from 'vitest';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import { recallAtK } from '../src/aggregate/retrieval.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import type { GoldenQuery, Hit } from '../src/types.js';
import { goldenQuery, goldenSet, mkHit, queryResult, runData } from './helpers/compareFixtures.js';

/** The aggregate of one query `q` whose run returned `hits`. */
const aggregateOne = (q: GoldenQuery, hits: Hit[], minGrade = 1) =>
  computeAggregate(runData('r', [queryResult(q.id, hits)]), goldenSet([q]), { minGrade }).metrics;

const value = (metrics: ReturnType<typeof aggregateOne>, id: string) => metrics[id].value;

describe('retrieval metrics: survivors of mutation testing (issue 26)', () => {
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

  it('recall@k of a query with no relevant expectation is null, not 0/0 = NaN', () => {
    // its only expectation has grade 1 < min-grade 2: relevantCount = 0
    const q = goldenQuery('q', { judgments: new Map([['a', 1]]) });
    const scored = scoreRun(runData('r', [queryResult('q', [mkHit(1, 'a')])]), goldenSet([q]), {
      ...DEFAULT_OPTIONS,
      minGrade: 2,
    });
    const record = scored.records[0];
    expect(record.vec.relevantCount).toBe(0);
    expect(recallAtK(record.vec, 10, record.expectations, 2)).toBeNull();
  });
});
