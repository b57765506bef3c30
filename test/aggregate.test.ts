/**
 * Hand-made metric cases: each database is built from plain objects, read back through the loader and
 * scored with computeAggregate. Every expected value is worked out by hand in the comment next to it.
 */
import fc from 'fast-check';
import {
  foldText,
  nearestRankPercentile,
  nearestRankPercentileOf,
  percentileOfCounts,
  wholeNumberCounts,
} from '../src/aggregate/answerChecks.js';
import { underSomeFolder } from '../src/aggregate/score.js';
import { concatGroups, groupQueries } from '../src/aggregate/aggregate.js';
import type { GroupedQuery } from '../src/aggregate/aggregate.js';
import { PerQueryValues } from '../src/aggregate/perQueryValues.js';
import type { Candidate, QueryMatcher } from '../src/aggregate/matching.js';
import { averagePrecision, ndcgAtK, relevanceVector } from '../src/aggregate/rankMetrics.js';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregateOf, answer, hit, removeTempDirs, result } from './helpers/runDb.js';
import type { RunDbInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

const run = (results: RunDbInput['runs'][number]['results'], extra: Partial<RunDbInput> = {}): RunDbInput => ({
  runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results }],
  ...extra,
});

describe('hit@k and MRR', () => {
  const golden = `
- id: q1
  query: first
  expected_chunk_ids: [rel1]
- id: q2
  query: second
  expected_chunk_ids: [rel2]
- id: q3
  query: third
  expected_chunk_ids: [rel3]
`;
  const results = [
    // relevant at rank 1
    result('q1', [hit(1, 'rel1', 'd1'), hit(2, 'x1', 'dx')]),
    // relevant at stored rank 4, but first in the array: the stored rank must be used, not the position
    result('q2', [hit(4, 'rel2', 'd2'), hit(1, 'a', 'da'), hit(2, 'b', 'db'), hit(3, 'c', 'dc')]),
    // relevant chunk never retrieved: a miss
    result('q3', [hit(1, 'y', 'dy'), hit(2, 'z', 'dz')]),
  ];

  it('ranks {1, 4, miss} give hit@1 = hit@3 = 1/3, hit@5 = hit@10 = 2/3, mrr@10 = 0.4167', async () => {
    const { json, report } = await aggregateOf(run(results), golden);
    // hit@1: only q1 (rank 1 <= 1) -> 1/3 = 0.3333; hit@3: rank 4 > 3 still misses -> 1/3
    expect(json.metrics['hit@1']).toEqual({ value: 0.3333, n: 3 });
    expect(json.metrics['hit@3']).toEqual({ value: 0.3333, n: 3 });
    // hit@5 and hit@10: q1 and q2 (rank 4 <= 5) -> 2/3 = 0.6667
    expect(json.metrics['hit@5']).toEqual({ value: 0.6667, n: 3 });
    expect(json.metrics['hit@10']).toEqual({ value: 0.6667, n: 3 });
    // MRR: (1/1 + 1/4 + 0) / 3 = 1.25 / 3 = 0.41666... -> 0.4167
    expect(json.metrics['mrr@10']).toEqual({ value: 0.4167, n: 3 });
    expect(report.metrics['mrr@10'].value).toBeCloseTo(1.25 / 3, 12);
    // rr has no cutoff: the same 0.4167 here
    expect(json.metrics.rr).toEqual({ value: 0.4167, n: 3 });
  });

  it('a smaller MRR cutoff drops the rank-4 hit', async () => {
    const { json } = await aggregateOf(run(results), golden, { mrrCutoff: 3 });
    // mrr@3: (1/1 + 0 (rank 4 > 3) + 0) / 3 = 0.3333
    expect(json.metrics['mrr@3']).toEqual({ value: 0.3333, n: 3 });
    expect(json.metrics['mrr@10']).toBeUndefined();
  });
});

describe('matching ids', () => {
  // Judged ids match chunk_id or doc_id (TREC qrels judge documents); ids only in expected_chunk_ids match chunk_id.
  // The 20-id query takes the matcher's Map path (past 16 ids), the others its scan.
  const many = Array.from({ length: 20 }, (_, i) => `j${i}`);
  const golden = `
- id: judged
  query: judged document
  judgments: {d1: 2}
- id: chunk-only
  query: an expected chunk id equal to a document id
  expected_chunk_ids: [d1]
- id: many
  query: twenty judged ids and one expected chunk id
  judgments: {${many.map((id) => `${id}: 1`).join(', ')}}
  expected_chunk_ids: [d7]
`;
  const results = [
    result('judged', [hit(1, 'c1', 'd1')]),
    result('chunk-only', [hit(1, 'c1', 'd1')]),
    result('many', [hit(1, 'c5', 'd7'), hit(2, 'c6', 'j19')]),
  ];

  it('matches a judged id by doc_id and an expected chunk id by chunk_id only, with few ids and with many', async () => {
    const { json } = await aggregateOf(run(results), golden);
    // hit@1: judged (d1 judged, rank 1) 1, chunk-only (d1 is not a chunk_id of the hit) 0,
    // many (d7 is an expected chunk id, the hit's doc) 0 -> 1/3
    expect(json.metrics['hit@1']).toEqual({ value: 0.3333, n: 3 });
    // hit@3 adds many's rank 2 (doc j19 judged) -> 2/3
    expect(json.metrics['hit@3']).toEqual({ value: 0.6667, n: 3 });
  });
});

describe('recall_doc@k', () => {
  it('expected docs {d1, d2} with top docs {d1, d3} give recall_doc@3 = 0.5', async () => {
    const golden = `
- id: q1
  query: which docs
  expected_doc_ids: [d1, d2]
`;
    const { json } = await aggregateOf(
      run([result('q1', [hit(1, 'c1', 'd1'), hit(2, 'c3', 'd3'), hit(3, 'c1b', 'd1'), hit(4, 'c2', 'd2')])]),
      golden,
    );
    // top 3 docs: d1, d3, d1 -> distinct expected found {d1} -> 1/2 = 0.5 (a second chunk of d1 adds nothing)
    expect(json.metrics['recall_doc@3']).toEqual({ value: 0.5, n: 1 });
    // rank 1 is d1 -> 1/2
    expect(json.metrics['recall_doc@1']).toEqual({ value: 0.5, n: 1 });
    // top 5 adds d2 at rank 4 -> 2/2 = 1
    expect(json.metrics['recall_doc@5']).toEqual({ value: 1, n: 1 });
  });

  it("takes a hit's doc_id from the chunks table when the hit has none", async () => {
    const golden = `
- id: q1
  query: which docs
  expected_doc_ids: [d1, d2]
`;
    const { json } = await aggregateOf(
      run([result('q1', [hit(1, 'c2', null), hit(2, 'c9', 'd9')])], {
        chunks: [{ chunkId: 'c2', docId: 'd2', text: 'two' }],
      }),
      golden,
    );
    // c2 -> d2 via chunks: found {d2} of {d1, d2} = 1/2
    expect(json.metrics['recall_doc@3']).toEqual({ value: 0.5, n: 1 });
  });
});

describe('P@k', () => {
  it('divides by k even when fewer than k hits came back', async () => {
    const golden = `
- id: q1
  query: two relevant
  expected_chunk_ids: [c1, c2]
`;
    const { json } = await aggregateOf(run([result('q1', [hit(1, 'c1', 'd1'), hit(2, 'c2', 'd2')])]), golden);
    // 2 hits, both relevant: P@1 = 1/1, P@3 = 2/3, P@5 = 2/5 = 0.4, P@10 = 2/10 = 0.2 (not 2/2)
    expect(json.metrics['P@1'].value).toBe(1);
    expect(json.metrics['P@3'].value).toBe(0.6667);
    expect(json.metrics['P@5'].value).toBe(0.4);
    expect(json.metrics['P@10'].value).toBe(0.2);
  });
});

describe('nDCG with graded judgments', () => {
  const golden = `
- id: q1
  query: graded
  judgments: {a: 3, b: 2, c: 1}
`;
  // ranking [b, x, a]; doc ids differ from every judged id so only chunk ids match
  const results = [result('q1', [hit(1, 'b', 'D'), hit(2, 'x', 'D'), hit(3, 'a', 'D')])];

  it('linear gain (default)', async () => {
    const { json, report } = await aggregateOf(run(results), golden);
    // DCG@3 = 2/log2(2) + 0/log2(3) + 3/log2(4) = 2 + 0 + 1.5 = 3.5
    // IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.26186 + 0.5 = 4.76186
    // nDCG@3 = 3.5 / 4.76186 = 0.73501 -> 0.7350
    expect(report.metrics['nDCG@3'].value).toBeCloseTo(3.5 / (3 + 2 / Math.log2(3) + 0.5), 12);
    expect(json.metrics['nDCG@3'].value).toBe(0.735);
    // nDCG@1 = (2/1) / (3/1) = 0.6667
    expect(json.metrics['nDCG@1'].value).toBe(0.6667);
    // nDCG@5 = @3: c is never retrieved; IDCG over all three grades = 4.76186
    expect(json.metrics['nDCG@5'].value).toBe(0.735);
  });

  it('exponential gain (2^grade - 1)', async () => {
    const { json, report } = await aggregateOf(run(results), golden, { ndcgGain: 'exponential' });
    // gains a = 2^3-1 = 7, b = 2^2-1 = 3, c = 2^1-1 = 1
    // DCG@3 = 3/1 + 7/2 = 6.5; IDCG@3 = 7/1 + 3/log2(3) + 1/2 = 7 + 1.89279 + 0.5 = 9.39279
    // nDCG@3 = 6.5 / 9.39279 = 0.69202 -> 0.6920
    expect(report.metrics['nDCG@3'].value).toBeCloseTo(6.5 / (7 + 3 / Math.log2(3) + 0.5), 12);
    expect(json.metrics['nDCG@3'].value).toBe(0.692);
    // nDCG@1 = 3 / 7 = 0.42857 -> 0.4286
    expect(json.metrics['nDCG@1'].value).toBe(0.4286);
  });

  it('--min-grade does not change which queries nDCG counts (as trec_eval -l leaves ndcg_cut alone)', async () => {
    const twoQueries = `
- id: q1
  query: graded
  judgments: {a: 2, b: 1}
- id: q2
  query: only grade 1
  judgments: {c: 1}
`;
    const ranked = [
      result('q1', [hit(1, 'b', 'D'), hit(2, 'a', 'D')]),
      result('q2', [hit(1, 'x', 'D'), hit(2, 'c', 'D')]),
    ];
    // q1: DCG = 1/1 + 2/log2(3); IDCG = 2/1 + 1/log2(3). q2: DCG = 1/log2(3); IDCG = 1: 0.6309, counted though
    // nothing in it is relevant at grade 2
    const q1 = (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3));
    const q2 = 1 / Math.log2(3);
    for (const meanOver of ['default', 'trec'] as const) {
      const { report } = await aggregateOf(run(ranked), twoQueries, { minGrade: 2, meanOver });
      expect(report.metrics['nDCG@10'].n).toBe(2);
      expect(report.metrics['nDCG@10'].value).toBeCloseTo((q1 + q2) / 2, 12);
    }
    // The binary measures do follow --min-grade: q2 has nothing relevant at grade 2
    const { report } = await aggregateOf(run(ranked), twoQueries, { minGrade: 2 });
    expect(report.metrics['hit@10']).toEqual({ value: 1, n: 1 });
  });
});

describe('a hit that meets several expectations (an expected chunk of a judged document)', () => {
  // q1 judges document D (grade 1) and expects its chunk D#c3: two expectations, both met by the one hit D#c3.
  // q2 adds a third expectation, chunk E#c1, and judges D at grade 2 (nDCG reads grades).
  const golden = `
- id: q1
  query: one chunk, two expectations
  judgments: {D: 1}
  expected_chunk_ids: [D#c3]
- id: q2
  query: three expectations
  judgments: {D: 2}
  expected_chunk_ids: [D#c3, E#c1]
`;

  it('a ranking that meets every expectation at the top scores MAP 1 and nDCG 1, as recall does', async () => {
    const results = [
      result('q1', [hit(1, 'D#c3', 'D'), hit(2, 'x', 'X')]),
      result('q2', [hit(1, 'D#c3', 'D'), hit(2, 'E#c1', 'E')]),
    ];
    const { report } = await aggregateOf(run(results), golden);
    // q1: AP = P@1 (1 hit so far / rank 1) x 2 expectations added / 2 = 1 (it was 1/2 when a hit counted once)
    // q2: AP = (1/1 x 2 + 2/2 x 1) / 3 = 1
    expect(report.metrics.MAP.value).toBe(1);
    expect(report.metrics['recall@1'].value).toBeCloseTo((1 + 2 / 3) / 2, 12);
    // nDCG@10: q1 grades [1, 1], both gained at rank 1: DCG = 2 > IDCG = 1 + 1/log2(3) -> capped at 1.
    // q2 grades [2, 1, 1]: D#c3 gains D (2) and D#c3 (1) at rank 1, E#c1 1/log2(3) at rank 2: 3.63 > IDCG 3.13 -> 1
    expect(report.metrics['nDCG@10'].value).toBe(1);
    // nDCG@1: q1 2 / 1, q2 3 / 2: both capped at 1
    expect(report.metrics['nDCG@1'].value).toBe(1);
  });

  it('a later hit that meets two gains both at its rank', async () => {
    // q1: a miss, then D#c3 at rank 2 meets both. q2: E#c1 at 1, D#c3 at 3.
    const results = [
      result('q1', [hit(1, 'x', 'X'), hit(2, 'D#c3', 'D')]),
      result('q2', [hit(1, 'E#c1', 'E'), hit(2, 'y', 'Y'), hit(3, 'D#c3', 'D')]),
    ];
    const { report } = await aggregateOf(run(results), golden);
    // q1: AP = (1 hit / rank 2) x 2 / 2 = 0.5. q2: E#c1: 1/1 x 1; D#c3: 2/3 x 2 -> (1 + 4/3) / 3 = 7/9
    expect(report.metrics.MAP.value).toBeCloseTo((0.5 + 7 / 9) / 2, 12);
    // q1 nDCG@10: both grade-1 expectations at rank 2: DCG = 2/log2(3); IDCG = 1 + 1/log2(3).
    // q2: E#c1 (1) at 1; D (2) and D#c3 (1) at rank 3: DCG = 1 + 3/2; IDCG = 2 + 1/log2(3) + 1/2 (both under 1)
    const l3 = Math.log2(3);
    const q1 = 2 / l3 / (1 + 1 / l3);
    const q2 = (1 + 1.5) / (2 + 1 / l3 + 0.5);
    expect(report.metrics['nDCG@10'].value).toBeCloseTo((q1 + q2) / 2, 12);
    // nDCG@2: q1 the same (positions 2 and 2); q2 E#c1 only (D#c3 at rank 3): 1 / (2 + 1/log2(3))
    const { report: at2 } = await aggregateOf(run(results), golden, { ks: [2] });
    expect(at2.metrics['nDCG@2'].value).toBeCloseTo((q1 + 1 / (2 + 1 / l3)) / 2, 12);
  });

  it('a better ranking never scores a lower nDCG: meeting one more expectation early does not push others down', async () => {
    // judgments D 1, F 2, G 2 and expected chunk D#c3 (1): ideal grades [2, 2, 1, 1]
    const golden3 = '- id: q1\n  query: q\n  judgments: {D: 1, F: 2, G: 2}\n  expected_chunk_ids: [D#c3]\n';
    const ranked = (first: string) => [result('q1', [hit(1, first, 'D'), hit(2, 'F', 'F'), hit(3, 'G', 'G')])];
    const l3 = Math.log2(3);
    const ideal = 2 + 2 / l3 + 1 / 2;
    // X: D#c2 meets D only: DCG@3 = 1 + 2/log2(3) + 2/2
    const x = (await aggregateOf(run(ranked('D#c2')), golden3)).report.metrics['nDCG@3'].value!;
    expect(x).toBeCloseTo((1 + 2 / l3 + 1) / ideal, 12);
    // Y: D#c3 meets D and D#c3 at rank 1, then F and G as in X: DCG@3 = 2 + 2/log2(3) + 1 > ideal -> 1, not below X
    const y = (await aggregateOf(run(ranked('D#c3')), golden3)).report.metrics['nDCG@3'].value!;
    expect(y).toBe(1);
    expect(y).toBeGreaterThan(x);
  });
});

describe('MAP and nDCG bounds', () => {
  it('property: for any hits meeting any sets of graded expectations, 0 <= AP <= 1 and 0 <= nDCG@k <= 1, and nDCG is monotone', () => {
    const arb = fc.record({
      grades: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 6 }),
      hits: fc.array(fc.array(fc.nat({ max: 5 }), { maxLength: 3 }), { maxLength: 8 }),
      minGrade: fc.integer({ min: 1, max: 2 }),
      k: fc.integer({ min: 1, max: 10 }),
    });
    fc.assert(
      fc.property(arb, ({ grades, hits, minGrade, k }) => {
        // A stand-in for QueryMatcher: candidate i meets the expectations hits[i] lists (those that exist).
        const meets = hits.map((list) => [...new Set(list.filter((e) => e < grades.length))]);
        const matcher = {
          expectations: grades.map((grade) => ({ grade, kind: 'id', supportIndex: -1 })),
          options: { minGrade },
          relevantCount: grades.filter((g) => g >= minGrade).length,
          idealGrades: grades.filter((g) => g > 0).sort((a, b) => b - a),
          match: (c: { index: number }, out: number[]) => {
            out.length = 0;
            out.push(...meets[c.index]);
            return out;
          },
        } as unknown as QueryMatcher;
        const candidates = meets.map((_, index) => ({ index })) as unknown as Candidate[];
        const v = relevanceVector(
          matcher,
          candidates,
          meets.map((_, i) => i + 1),
        );
        const ap = averagePrecision(v);
        if (ap !== null) {
          expect(ap).toBeGreaterThanOrEqual(0);
          expect(ap).toBeLessThanOrEqual(1 + 1e-12);
        }
        const ndcg = ndcgAtK(v, k);
        if (ndcg !== null) {
          expect(ndcg).toBeGreaterThanOrEqual(0);
          expect(ndcg).toBeLessThanOrEqual(1 + 1e-12);
        }
        // every expectation met at the top, in the ideal's order of grades, one hit each: both are 1
        const ideal = grades
          .map((g, e) => ({ g, e }))
          .filter((x) => x.g > 0)
          .sort((a, b) => b.g - a.g);
        const top = relevanceVector(
          {
            ...matcher,
            match: (c: { index: number }, out: number[]) => {
              out.length = 0;
              out.push(ideal[c.index].e);
              return out;
            },
          } as unknown as QueryMatcher,
          ideal.map((_, index) => ({ index })) as unknown as Candidate[],
          ideal.map((_, i) => i + 1),
        );
        if (ideal.length > 0) expect(ndcgAtK(top, k)).toBeCloseTo(1, 12);
        // monotone: a hit that also meets one more expectation never lowers nDCG
        if (meets.length > 0) {
          const extra = meets.map((list, i) => (i === 0 ? [...new Set([...list, grades.length - 1])] : list));
          const richer = relevanceVector(
            {
              ...matcher,
              match: (c: { index: number }, out: number[]) => {
                out.length = 0;
                out.push(...extra[c.index]);
                return out;
              },
            } as unknown as QueryMatcher,
            candidates,
            meets.map((_, i) => i + 1),
          );
          const before = ndcgAtK(v, k);
          if (before !== null) expect(ndcgAtK(richer, k)!).toBeGreaterThanOrEqual(before - 1e-12);
        }
        if (matcher.relevantCount > 0) expect(averagePrecision(top)).toBeCloseTo(1, 12);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('answer metrics', () => {
  it('a broken citation gives citation_coverage 0.0 (chunks table present)', async () => {
    const golden = `
- id: q1
  query: cite
  expected_chunk_ids: [c1]
`;
    const { json, text } = await aggregateOf(
      run(
        [
          result('q1', [hit(1, 'c1', 'd1')], {
            // lines 50-60 of docs/a.md: the only chunk of that file covers lines 1-10, so nothing resolves
            answer: answer('See [1].', [
              { marker: '[1]', citation: { kind: 'line', path: 'docs/a.md', start: 50, end: 60 } },
            ]),
          }),
        ],
        {
          chunks: [{ chunkId: 'c1', docId: 'd1', text: 'alpha', spans: [{ start_line: 1, end_line: 10 }] }],
          documents: [{ docId: 'd1', workspacePath: 'docs/a.md' }],
        },
      ),
      golden,
    );
    // 0 resolving answers / 1 grounded answer = 0.0
    expect(json.metrics.citation_coverage).toEqual({ value: 0, n: 1 });
    expect(text).toMatch(/"citation_coverage": \{\n\s+"n": 1,\n\s+"value": 0\n/);
  });

  it('one broken citation among good ones makes the answer uncovered', async () => {
    const golden = `
- id: q1
  query: cite
- id: q2
  query: cite again
  answerable: true
`;
    const { json } = await aggregateOf(
      run(
        [
          result('q1', [hit(1, 'c1', 'd1')], {
            answer: answer('See [1] [2].', [
              { marker: '[1]', citation: { kind: 'line', path: 'docs/a.md', start: 3, end: 4 } }, // inside c1's span 1-10: resolves
              { marker: '[2]', chunk_id: 'ghost', citation: { kind: 'line', path: 'docs/zzz.md', start: 1, end: 2 } }, // no such chunk or file
            ]),
          }),
          result('q2', [hit(1, 'c1', 'd1')], {
            answer: answer('See [1].', [{ marker: '[1]', chunk_id: 'c1', citation: {} }]),
          }),
        ],
        {
          chunks: [{ chunkId: 'c1', docId: 'd1', text: 'alpha', spans: [{ start_line: 1, end_line: 10 }] }],
          documents: [{ docId: 'd1', workspacePath: 'docs/a.md' }],
        },
      ),
      golden,
    );
    // q1: not every citation resolves -> 0; q2: c1 exists -> 1; mean (0 + 1) / 2 = 0.5
    expect(json.metrics.citation_coverage).toEqual({ value: 0.5, n: 2 });
  });

  it('without a chunks table a citation resolves only to a chunk_id or path some hit carries', async () => {
    const golden = `
- id: q1
  query: cite
- id: q2
  query: cite again
  answerable: true
`;
    const { json } = await aggregateOf(
      run([
        result('q1', [hit(1, 'c1', 'd1')], { answer: answer('x', [{ chunk_id: 'c9', citation: {} }]) }), // c9 not among hits -> 0
        result('q2', [hit(1, 'c1', 'd1')], { answer: answer('x', [{ chunk_id: 'c1', citation: {} }]) }), // c1 is hit 1 -> 1
      ]),
      golden,
    );
    // (0 + 1) / 2 = 0.5
    expect(json.metrics.citation_coverage).toEqual({ value: 0.5, n: 2 });
  });

  it('a forbidden string makes groundedness false (0)', async () => {
    const golden = `
- id: q1
  query: capital
  must_contain: ["42"]
  forbidden: [Paris]
`;
    const bad = await aggregateOf(
      run([
        // must_contain is satisfied, but the forbidden "Paris" is there too
        result('q1', [hit(1, 'c1', 'd1')], { answer: answer('The answer is 42, says the Paris note.') }),
      ]),
      golden,
    );
    // 0 grounded / 1 answered query with must_contain or forbidden = 0
    expect(bad.json.metrics.groundedness).toEqual({ value: 0, n: 1 });

    const good = await aggregateOf(
      run([result('q1', [hit(1, 'c1', 'd1')], { answer: answer('The answer is 42.') })]),
      golden,
    );
    // control: same golden query, no forbidden string -> 1 / 1
    expect(good.json.metrics.groundedness).toEqual({ value: 1, n: 1 });
  });

  it('all should-refuse queries refused gives refusal_correctness 1.0', async () => {
    const golden = `
- id: u1
  query: not in the docs
  expected_doc_ids: []
- id: u2
  query: also not in the docs
  expected_doc_ids: []
- id: u3
  query: explicitly unanswerable
  answerable: false
`;
    const { json } = await aggregateOf(
      run([
        result('u1', [], { abstained: true }), // explicit flag
        result('u2', [hit(1, 'c1', 'd1')], {
          answer: answer('I cannot answer.', [], { grounded: false, refusal_reason: 'no evidence' }),
        }),
        result('u3', [], { answer: answer('', [], { grounded: false }) }),
      ]),
      golden,
    );
    // 3 refused / 3 unanswerable = 1.0; under-refusal 0 / 3 = 0
    expect(json.metrics.refusal_correctness).toEqual({ value: 1, n: 3 });
    expect(json.metrics.under_refusal_rate).toEqual({ value: 0, n: 3 });
    // no answerable queries: over-refusal has a zero denominator -> null
    expect(json.metrics.over_refusal_rate).toEqual({ value: null, n: 0 });
  });

  it('a category, tag or stage named `__proto__` is a group and a stage like any other', async () => {
    const golden = `
- id: q1
  query: one
  category: __proto__
  tags: [__proto__, t]
  expected_chunk_ids: [c1]
- id: q2
  query: two
  category: other
  expected_chunk_ids: [c2]
`;
    const { json, text } = await aggregateOf(
      run([
        result('q1', [hit(1, 'c1', 'd1')], { timings_ms: { __proto__: 5, retrieval: 7 } }),
        result('q2', [hit(2, 'c2', 'd2')], { timings_ms: JSON.parse('{"__proto__": 9, "retrieval": 3}') }),
      ]),
      golden,
    );
    const breakdowns = json.breakdowns as Record<
      string,
      Record<string, Record<string, { value: number | null; n: number }>>
    >;
    expect(Object.keys(breakdowns.category)).toEqual(['__proto__', 'other']);
    expect(Object.keys(breakdowns.tag)).toEqual(['__proto__', 't']);
    // biome-ignore lint/suspicious/noProto: a group named __proto__ is the case under test
    expect(breakdowns.category.__proto__['hit@1']).toEqual({ value: 1, n: 1 });
    expect(json.metrics.__proto___latency_p50_ms).toEqual({ value: 9, n: 1 }); // q1's own object literal sets no stage
    expect(text).toContain('"__proto__": {');
  });

  it('an answer without `grounded` (and no `abstained`) is an answer, not a refusal', async () => {
    const golden = `
- id: a1
  query: answerable one
  expected_chunk_ids: [c1]
- id: u1
  query: unanswerable one
  expected_doc_ids: []
`;
    const silent = (text: string, citations: Array<Record<string, unknown>>) => ({ answer: text, citations });
    const { json } = await aggregateOf(
      run([
        result('a1', [hit(1, 'c1', 'd1')], { answer: silent('yes [1]', [{ marker: '[1]', chunk_id: 'c1' }]) }),
        result('u1', [hit(1, 'c9', 'd9')], { answer: silent('made up', []) }),
      ]),
      golden,
    );
    expect(json.metrics.over_refusal_rate).toEqual({ value: 0, n: 1 });
    expect(json.metrics.under_refusal_rate).toEqual({ value: 1, n: 1 });
    expect(json.metrics.attribution_hit_rate).toEqual({ value: 1, n: 1 });
    expect(json.metrics.citation_hit_rate).toEqual({ value: 1, n: 1 });
    // both answers count as grounded (non-refusal) answers; u1's has no citation, so it is not covered
    expect(json.metrics.citation_coverage).toEqual({ value: 0.5, n: 2 });
  });

  it('over_refusal_rate and under_refusal_rate', async () => {
    const golden = `
- id: a1
  query: answerable one
  expected_chunk_ids: [c1]
- id: a2
  query: answerable two
  expected_chunk_ids: [c2]
- id: a3
  query: answerable, refusal unknown
  expected_chunk_ids: [c3]
- id: u1
  query: unanswerable one
  expected_doc_ids: []
- id: u2
  query: unanswerable two
  expected_doc_ids: []
`;
    const { json } = await aggregateOf(
      run([
        result('a1', [hit(1, 'c1', 'd1')], { answer: answer('yes [1]', [{ chunk_id: 'c1', citation: {} }]) }), // answered
        result('a2', [hit(1, 'c2', 'd2')], { abstained: true, answer: answer('no', [], { grounded: false }) }), // refused: over-refusal
        result('a3', [hit(1, 'c3', 'd3')]), // no answer, no flag: refusal unknown, left out
        result('u1', [], { answer: answer('no', [], { grounded: false }) }), // refused: correct
        result('u2', [hit(1, 'c9', 'd9')], { abstained: false, answer: answer('made up') }), // answered: under-refusal
      ]),
      golden,
    );
    // over: answerable with known refusal = {a1, a2}; refused {a2} -> 1/2 = 0.5
    expect(json.metrics.over_refusal_rate).toEqual({ value: 0.5, n: 2 });
    // under: unanswerable {u1, u2}; answered {u2} -> 1/2 = 0.5
    expect(json.metrics.under_refusal_rate).toEqual({ value: 0.5, n: 2 });
    // refusal_correctness = 1 - under = 1/2
    expect(json.metrics.refusal_correctness).toEqual({ value: 0.5, n: 2 });
  });
});

describe('means and denominators', () => {
  it('excludes queries without expectations and counts a query missing from the run as a miss', async () => {
    const golden = `
- id: q1
  query: found
  expected_chunk_ids: [c1]
- id: q2
  query: nothing expected
- id: q3
  query: missing from the run
  expected_chunk_ids: [c3]
`;
    const { json } = await aggregateOf(
      run([
        result('q1', [hit(1, 'c1', 'd1')]),
        result('q2', []),
        // q3 has no row at all
      ]),
      golden,
    );
    // q2 has no expectation: left out; q3 is missing: counts 0 -> hit@1 = (1 + 0) / 2 = 0.5, n = 2
    expect(json.metrics['hit@1']).toEqual({ value: 0.5, n: 2 });
    expect(json.metrics['mrr@10']).toEqual({ value: 0.5, n: 2 });
    // empty_result_rate is over all 3 scored queries: q2 has 0 hits, missing q3 counts as empty -> 2/3
    expect(json.metrics.empty_result_rate).toEqual({ value: 0.6667, n: 3 });
    // missing_queries = 1 (q3); failed_queries counts missing results too = 1
    expect(json.metrics.missing_queries.value).toBe(1);
    expect(json.metrics.failed_queries.value).toBe(1);
    expect(json.metrics.total_queries.value).toBe(3);
  });

  it('excludes pending queries from the metrics and counts them in golden.pending', async () => {
    const golden = `
- id: q1
  query: normal
  expected_chunk_ids: [c1]
- id: q2
  query: answer not indexed yet
  expected_chunk_ids: [c2]
  pending: true
`;
    const { json } = await aggregateOf(
      run([
        result('q1', [hit(1, 'c1', 'd1')]),
        result('q2', [hit(1, 'zz', 'dz')]), // a miss, but pending
      ]),
      golden,
    );
    // only q1 counts: hit@1 = 1/1 (would be 1/2 = 0.5 if q2 were scored)
    expect(json.metrics['hit@1']).toEqual({ value: 1, n: 1 });
    expect(json.metrics.total_queries.value).toBe(1);
    expect(json.golden).toMatchObject({ queries: 1, pending: 1 });
    // reported apart: q2 alone misses
    expect((json.pending_metrics as Record<string, { value: number }>)['hit@1']).toEqual({ value: 0, n: 1 });
  });

  it('serialises zero denominators as null (judge metrics without judge data)', async () => {
    const golden = `
- id: q1
  query: one
  expected_chunk_ids: [c1]
`;
    const { json, text } = await aggregateOf(run([result('q1', [hit(1, 'c1', 'd1')])]), golden);
    for (const id of [
      'judge_groundedness_mean',
      'judge_correctness_mean',
      'judge_groundedness_ge4_rate',
      'judge_disagreement_rate',
      'latency_p50_ms',
      'citation_coverage',
      'refusal_correctness',
    ]) {
      expect(json.metrics[id], id).toStrictEqual({ n: 0, value: null });
    }
    expect(text).toMatch(/"judge_groundedness_mean": \{\n\s+"n": 0,\n\s+"value": null\n/);
  });

  it('judge metrics from stored judge scores', async () => {
    const golden = `
- id: q1
  query: one
- id: q2
  query: two
- id: q3
  query: three
  answerable: true
`;
    const { json } = await aggregateOf(
      run([
        result('q1', [], {
          judge: { groundedness: 5, correctness: 3, spot_check: { groundedness: 3, correctness: 3 } },
        }),
        result('q2', [], { judge: { groundedness: 4, correctness: 4 } }),
        result('q3', []),
      ]),
      golden,
    );
    // groundedness mean (5 + 4) / 2 = 4.5; both >= 4 -> 2/2 = 1
    expect(json.metrics.judge_groundedness_mean).toEqual({ value: 4.5, n: 2 });
    expect(json.metrics.judge_groundedness_ge4_rate).toEqual({ value: 1, n: 2 });
    // correctness mean (3 + 4) / 2 = 3.5; >= 4: only q2 -> 1/2
    expect(json.metrics.judge_correctness_mean).toEqual({ value: 3.5, n: 2 });
    expect(json.metrics.judge_correctness_ge4_rate).toEqual({ value: 0.5, n: 2 });
    // only q1 has a spot check: |5 - 3| = 2 > 1 -> disagreement 1/1
    expect(json.metrics.judge_disagreement_rate).toEqual({ value: 1, n: 1 });
  });
});

describe('latency', () => {
  it('p50 and p95 are nearest-rank percentiles', async () => {
    // elapsed_ms in scrambled order: 30, 100, 10, 80, 50, 20, 90, 40, 70, 60 (sorted: 10, 20, ..., 100)
    const elapsed = [30, 100, 10, 80, 50, 20, 90, 40, 70, 60];
    const golden = elapsed.map((_, i) => `- id: q${i}\n  query: q${i}\n  answerable: true\n`).join('');
    const { json } = await aggregateOf(
      run(elapsed.map((ms, i) => result(`q${i}`, [], { elapsed_ms: ms, timings_ms: { retrieve: ms / 10 } }))),
      golden,
    );
    // p50: ceil(0.50 * 10) = 5th smallest = 50 (an interpolating median would say 55)
    expect(json.metrics.latency_p50_ms).toEqual({ value: 50, n: 10 });
    // p95: ceil(0.95 * 10) = ceil(9.5) = 10th smallest = 100 (interpolation would say 95.5)
    expect(json.metrics.latency_p95_ms).toEqual({ value: 100, n: 10 });
    // mean (10 + ... + 100) / 10 = 550 / 10 = 55; max 100; suite time 550
    expect(json.metrics.latency_mean_ms).toEqual({ value: 55, n: 10 });
    expect(json.metrics.latency_max_ms).toEqual({ value: 100, n: 10 });
    expect(json.metrics.suite_time_ms).toEqual({ value: 550, n: 10 });
    // per stage, same rule on timings_ms.retrieve = 1, 2, ..., 10: p50 = 5th = 5, p95 = 10th = 10
    expect(json.metrics.retrieve_latency_p50_ms).toEqual({ value: 5, n: 10 });
    expect(json.metrics.retrieve_latency_p95_ms).toEqual({ value: 10, n: 10 });
  });

  it('p95 of 20 values is the 19th', async () => {
    // 5, 10, ..., 100 (20 values), stored descending
    const elapsed = Array.from({ length: 20 }, (_, i) => 100 - 5 * i);
    const golden = elapsed.map((_, i) => `- id: q${i}\n  query: q${i}\n  answerable: true\n`).join('');
    const { json } = await aggregateOf(run(elapsed.map((ms, i) => result(`q${i}`, [], { elapsed_ms: ms }))), golden);
    // p95: ceil(0.95 * 20) = 19th smallest = 95; p50: ceil(10) = 10th smallest = 50
    expect(json.metrics.latency_p95_ms.value).toBe(95);
    expect(json.metrics.latency_p50_ms.value).toBe(50);
  });
});

describe('index tables', () => {
  // A golden set needs an expectation (docs/golden-sets.md); `answerable: true` is the default stated.
  const golden = `
- id: q1
  query: one
  answerable: true
`;
  const hits = [
    hit(1, 'c1', 'd1', { snippet: 'Alpha   BETA' }), // folded: "alpha beta" is in c1's text
    hit(2, 'c2', 'd2', { snippet: 'delta' }), // c2's text has no "delta"
    hit(3, 'c9', 'd9', { snippet: 'anything' }), // c9 is not in chunks
    hit(4, 'c1', 'd1'), // no snippet: not counted
  ];

  it('hit_hallucination_rate pools hits with a snippet', async () => {
    const { json } = await aggregateOf(
      run([result('q1', hits)], {
        chunks: [
          { chunkId: 'c1', docId: 'd1', text: 'Intro: alpha beta gamma.', tokenEstimate: 30 },
          { chunkId: 'c2', docId: 'd2', text: 'epsilon', tokenEstimate: 10 },
        ],
        documents: [
          { docId: 'd1', workspacePath: 'a.md' },
          { docId: 'd2', workspacePath: 'b.md' },
          { docId: 'd3', workspacePath: 'c.md' },
        ],
      }),
      golden,
    );
    // 3 hits with a snippet; c2 (text mismatch) and c9 (no chunk) are missing -> 2/3 = 0.6667
    expect(json.metrics.hit_hallucination_rate).toEqual({ value: 0.6667, n: 3 });
    // 2 chunks, 3 documents, d3 has no chunk; tokens min 10, max 30, mean (10 + 30) / 2 = 20
    expect(json.metrics.chunks.value).toBe(2);
    expect(json.metrics.documents.value).toBe(3);
    expect(json.metrics.documents_without_chunks.value).toBe(1);
    expect(json.metrics.chunk_tokens_min.value).toBe(10);
    expect(json.metrics.chunk_tokens_max.value).toBe(30);
    expect(json.metrics.chunk_tokens_mean.value).toBe(20);
  });

  it('empty index tables (as `evalverdict init` creates them) count as no index', async () => {
    // writeRunDb uses the init DDL, so chunks and documents exist but hold no rows
    const { json } = await aggregateOf(
      run([result('q1', hits, { answer: answer('see [1]', [{ chunk_id: 'c1', citation: {} }]) })]),
      golden,
    );
    // no index: snippets cannot be checked (null), and the citation resolves through hit 1's chunk_id (1/1)
    expect(json.metrics.hit_hallucination_rate).toStrictEqual({ n: 0, value: null });
    expect(json.metrics.citation_coverage).toEqual({ value: 1, n: 1 });
    expect(json.metrics.chunks).toStrictEqual({ n: 0, value: null });
    expect(json.metrics.documents).toStrictEqual({ n: 0, value: null });
  });
});

describe('cited chunks are matched like hits', () => {
  it("a citation meets a gold support by its hit's path, heading and snippet, and a line range by its own span", async () => {
    const golden = `
- id: q1
  query: heading and snippet match
  gold_supports: [{rel_path: docs/a.md, heading_path: [Guide, Setup], snippets: [rate limit]}]
- id: q2
  query: heading differs
  gold_supports: [{rel_path: docs/a.md, heading_path: [Guide, Setup], snippets: [rate limit]}]
- id: q3
  query: snippet missing
  gold_supports: [{rel_path: docs/a.md, heading_path: [Guide, Setup], snippets: [rate limit]}]
- id: q4
  query: line range
  expected_lines: {file: src/x.py, line_range: [10, 20]}
`;
    // Hit 2 (rank 2) is the cited one; hit 1 matches nothing, so only the citation can make the query cited-relevant.
    const hits = (heading: string[], snippet: string) => [
      hit(1, 'c0', 'd0', { doc_path: 'docs/other.md', heading_path: ['Guide', 'Setup'], snippet: 'rate limit' }),
      hit(2, 'c1', 'd1', { doc_path: 'docs/a.md', heading_path: heading, snippet }),
    ];
    const cites = (extra: Record<string, unknown>) => ({ answer: answer('see [1]', [{ marker: '[1]', ...extra }]) });
    const { json } = await aggregateOf(
      run([
        result('q1', hits(['Guide', ' Setup ', 'Install'], 'The Rate Limit is 10.'), cites({ chunk_id: 'c1' })), // heading starts with the support's, snippet found: 1
        result('q2', hits(['Guide', 'Other'], 'The rate limit is 10.'), cites({ chunk_id: 'c1' })), // heading differs: 0
        result('q3', hits(['Guide', 'Setup'], 'No limits here.'), cites({ chunk_id: 'c1' })), // snippet not found: 0
        result('q4', [], cites({ citation: { kind: 'line', path: 'src/x.py', start: 15, end: 30 } })), // 15-30 overlaps 10-20: 1
      ]),
      golden,
    );
    // citation hit rate: answerable queries answered with a relevant citation, 2 of 4
    expect(json.metrics.citation_hit_rate).toEqual({ value: 0.5, n: 4 });
    expect(json.metrics['hit@1']).toEqual({ value: 0, n: 4 }); // the hits alone find nothing at rank 1
  });
});

describe('scope_miss_rate', () => {
  it('counts queries whose gold supports lie under no selected folder', async () => {
    const golden = `
- id: q1
  query: in scope
  gold_supports:
    - rel_path: docs/guide/a.md
- id: q2
  query: out of scope
  gold_supports:
    - rel_path: notes/b.md
- id: q3
  query: folders off
  gold_supports:
    - rel_path: notes/b.md
`;
    const { json } = await aggregateOf(
      run([
        result('q1', [], { scope: { folder_mode: 'on', selected_folders: ['docs/'] } }), // docs/guide/a.md is under docs -> 0
        result('q2', [], { scope: { folder_mode: 'on_with_fallback', selected_folders: ['docs', 'note'] } }), // "note" is not "notes" -> 1
        result('q3', [], { scope: { folder_mode: 'off', selected_folders: [] } }), // folder mode off: not counted
      ]),
      golden,
    );
    // (0 + 1) / 2 = 0.5
    expect(json.metrics.scope_miss_rate).toEqual({ value: 0.5, n: 2 });
  });
});

describe('scope folders', () => {
  it('property: underSomeFolder is the prefix-with-a-slash rule, trailing slashes ignored, "" and "." the root', () => {
    const segment = fc.constantFrom('docs', 'doc', 'docs2', 'notes', 'a', '.', '');
    const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => parts.join('/'));
    const folder = fc.tuple(path, fc.constantFrom('', '/', '//')).map(([p, slashes]) => p + slashes);
    fc.assert(
      fc.property(path, fc.array(folder, { maxLength: 4 }), (p, folders) => {
        // The rule as first written (a regex and a new string per folder).
        const trimmed = folders.map((f) => f.replace(/\/+$/, ''));
        const expected = trimmed.some((f) => f === '' || f === '.' || p === f || p.startsWith(`${f}/`));
        expect(underSomeFolder(p, folders)).toBe(expected);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });
});

describe('text folding', () => {
  it('property: foldText lower-cases, folds every run of white space to one space and trims, as the one-line definition', () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\ufeff', ' \t '),
      fc.constantFrom('Rate', 'LIMIT', 'ΟΔΟΣ', 'İ', 'a', 'é'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
        (text) => {
          expect(foldText(text)).toBe(text.toLowerCase().replace(/\s+/g, ' ').trim());
        },
      ),
      { numRuns: 3000, seed: 20261123 },
    );
  });
});

describe('nearest-rank percentiles by selection', () => {
  it('property: equal to the sorted definition for any values and p (duplicates, negatives, one value)', () => {
    const values = fc.array(
      fc.oneof(
        fc.integer({ min: -5, max: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
      ),
      { minLength: 1, maxLength: 300 },
    );
    fc.assert(
      fc.property(
        values,
        fc.oneof(fc.constantFrom(0, 1, 50, 95, 99, 100), fc.double({ min: 0, max: 100, noNaN: true })),
        (xs, p) => {
          const sorted = Float64Array.from(xs).sort();
          // -0 and 0 are one value to a percentile
          expect(nearestRankPercentileOf(Float64Array.from(xs), p)! + 0).toBe(nearestRankPercentile(sorted, p)! + 0);
        },
      ),
      { numRuns: 2000, seed: 20261122 },
    );
    expect(nearestRankPercentileOf(new Float64Array(0), 50)).toBeNull();
  });

  it('property: read off counts of whole numbers, the same value as selection; counts only for whole numbers in a narrow range', () => {
    const values = fc.array(
      fc.oneof(fc.integer({ min: -70, max: 70 }), fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(0.5, -0, 3)),
      { minLength: 1, maxLength: 300 },
    );
    let counted = 0;
    fc.assert(
      fc.property(
        values,
        fc.oneof(fc.constantFrom(0, 1, 50, 95, 99, 100), fc.double({ min: 0, max: 100, noNaN: true })),
        (xs, p) => {
          const c = wholeNumberCounts(Float64Array.from(xs));
          const whole = xs.every((x) => Number.isInteger(x) && !Object.is(x, -0));
          const wide = Math.max(...xs) - Math.min(...xs) >= 1 << 16;
          expect(c !== null).toBe(whole && !wide);
          if (c === null) return;
          counted++;
          expect(percentileOfCounts(c, xs.length, p)).toBe(nearestRankPercentileOf(Float64Array.from(xs), p));
        },
      ),
      { numRuns: 2000, seed: 20261123 },
    );
    expect(counted).toBeGreaterThan(500);
    expect(wholeNumberCounts(new Float64Array(0))).toBeNull();
  });
});

describe('breakdown groups and their sums', () => {
  const labels = fc.record({
    category: fc.option(fc.constantFrom('a', 'b', 'c', ''), { nil: null }),
    difficulty: fc.option(fc.constantFrom('easy', 'hard'), { nil: null }),
    tags: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }),
    answerable: fc.boolean(),
  });

  it('property: groups of two lists of rows joined are the groups of the joined list (concatGroups)', () => {
    fc.assert(
      fc.property(
        fc.array(labels, { maxLength: 40 }),
        fc.array(labels, { maxLength: 40 }),
        (first: GroupedQuery[], second: GroupedQuery[]) => {
          expect(concatGroups(groupQueries(first), groupQueries(second), first.length)).toEqual(
            groupQueries([...first, ...second]),
          );
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });

  it("property: p50, p95 and max of every row list are the sorted definition, whether the run's values are all whole numbers (counted by value in one pass) or not", () => {
    // Whole numbers in a narrow range (counted), a wide one (picked and selected), or with a fraction or -0 somewhere
    // in the run (picked): each list's percentile is then the nearest-rank value of its own values, sorted.
    const column = (n: number) =>
      fc.oneof(
        fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: -20, max: 20 })), { minLength: n, maxLength: n }),
        fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: 0, max: 200_000 })), { minLength: n, maxLength: n }),
        fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: 0, max: 9 }), fc.constantFrom(0.5, -0)), {
          minLength: n,
          maxLength: n,
        }),
      );
    const input = fc.integer({ min: 1, max: 60 }).chain((n) =>
      fc.record({
        values: column(n),
        queries: fc.array(labels, { minLength: n, maxLength: n }),
      }),
    );
    const defs = (['p50', 'p95', 'max'] as const).map((by) => ({
      id: `lat_${by}`,
      reduce: { quantity: 'lat', value: () => null, by },
    })) as unknown as MetricDef[];
    let counted = 0;
    fc.assert(
      fc.property(input, ({ values, queries }) => {
        const n = values.length;
        const table = new PerQueryValues(defs, n, new Map([['quantity:lat', Float64Array.from(values)]]));
        const lists = [undefined, ...Object.values(groupQueries(queries)).flatMap((byName) => [...byName.values()])];
        if (
          values.every((v) => Number.isNaN(v) || (Number.isInteger(v) && !Object.is(v, -0))) &&
          Math.max(...values.filter((v) => !Number.isNaN(v))) - Math.min(...values.filter((v) => !Number.isNaN(v))) <
            1 << 16
        )
          counted++;
        for (const list of lists) {
          const mine = (list ? [...list].map((i) => values[i]) : values).filter((v) => !Number.isNaN(v));
          const sorted = Float64Array.from(mine).sort();
          for (const [def, expected] of [
            [defs[0], nearestRankPercentile(sorted, 50)],
            [defs[1], nearestRankPercentile(sorted, 95)],
            [defs[2], mine.length === 0 ? null : Math.max(...mine)],
          ] as const) {
            const got = table.evaluate(def, null as never, list);
            expect(got.n).toBe(mine.length);
            // -0 and 0 are one value to a percentile and to max
            expect(got.value === null ? null : got.value + 0).toBe(expected === null ? null : expected + 0);
          }
        }
      }),
      { numRuns: 600, seed: 20261123 },
    );
    expect(counted).toBeGreaterThan(100);
  });

  it('property: sums ahead for every group (sumGroups) give every metric the same value, bit for bit, as one group at a time', () => {
    // Columns with missing values (NaN) and fractions whose sums depend on their order; five of them, so one pass
    // takes four columns and one is summed alone.
    const column = (n: number) =>
      fc.array(
        fc.oneof(fc.constant(NaN), fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: 0, max: 5 })),
        { minLength: n, maxLength: n },
      );
    const rows = fc.integer({ min: 1, max: 60 });
    fc.assert(
      fc.property(
        rows.chain((n) =>
          fc.tuple(
            fc.array(column(n), { minLength: 5, maxLength: 5 }),
            fc.array(labels, { minLength: n, maxLength: n }),
          ),
        ),
        ([cols, queries]) => {
          const defs = cols.map((_, i) => ({ id: `m${i}`, perQuery: () => null }) as unknown as MetricDef);
          const columns = new Map(cols.map((c, i) => [`m${i}`, Float64Array.from(c)]));
          const groups = Object.values(groupQueries(queries)).flatMap((byName) => [...byName.values()]);
          const ahead = new PerQueryValues(defs, queries.length, columns);
          ahead.sumGroups(defs, groups);
          const alone = new PerQueryValues(defs, queries.length, columns);
          const run = null as never;
          for (const g of groups) {
            for (const def of defs) {
              const [a, b] = [ahead.evaluate(def, run, g), alone.evaluate(def, run, g)];
              expect(a.n).toBe(b.n);
              expect(Object.is(a.value, b.value)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
