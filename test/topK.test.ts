/**
 * A query's own cutoff (`top_k` in the golden set) and PaperBot's rules under `profile: paperbot`, every value
 * worked out by hand. PaperBot's definitions: its retrieval_benchmark.py (ndcg_at_k, recall_at_k, mrr_at_k) and
 * document_evidence_benchmark.py (top_k defaults to 5; evidence hit), see docs/sources/paperbot.md.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseGoldenYaml } from '../src/load/golden.js';
import { aggregateOf, hit, removeTempDirs, result } from './helpers/runDb.js';
import type { RunDbInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

const run = (results: RunDbInput['runs'][number]['results']): RunDbInput => ({
  runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results }],
});
const r4 = (x: number) => Number(x.toFixed(4));
const l3 = Math.log2(3);
const ranked = (id: string, chunks: string[]) =>
  result(
    id,
    chunks.map((c, i) => hit(i + 1, c, c)),
  );

describe('top_k: a query scored at min(k, top_k)', () => {
  const golden = `
- id: q1
  query: one
  top_k: 2
  judgments: {A: 3, B: 2, C: 1}
- id: q2
  query: two
  judgments: {A: 3, B: 2, C: 1}
`;
  // Both rank X (unjudged), A, B, C: q1 is cut at 2, q2 is not.
  const results = [ranked('q1', ['X', 'A', 'B', 'C']), ranked('q2', ['X', 'A', 'B', 'C'])];

  it('cuts hit@k, recall@k, mrr@10 and nDCG@k (its ideal ranking too), not P@k', async () => {
    const { json } = await aggregateOf(run(results), golden);
    const m = json.metrics;
    // hit@1: first relevant at 2 for both -> 0. hit@3: q1 at min(3, 2) = 2, A at 2 -> 1; q2 -> 1.
    expect(m['hit@1'].value).toBe(0);
    expect(m['hit@3'].value).toBe(1);
    // recall@5: q1 cut at 2 meets A of A, B, C -> 1/3; q2 meets all three -> 1. Mean 2/3.
    expect(m['recall@5'].value).toBe(r4((1 / 3 + 1) / 2));
    // mrr@10: 1/2 for both (the cut at 2 keeps A).
    expect(m['mrr@10'].value).toBe(0.5);
    // nDCG@5, gain = grade: q1 at 2: DCG 3/log2 3, ideal 3 + 2/log2 3.
    //   q2 at 5: DCG 3/log2 3 + 2/2 + 1/log2 5, ideal 3 + 2/log2 3 + 1/2.
    const q1 = 3 / l3 / (3 + 2 / l3);
    const q2 = (3 / l3 + 1 + 1 / Math.log2(5)) / (3 + 2 / l3 + 0.5);
    expect(m['nDCG@5'].value).toBe(r4((q1 + q2) / 2));
    // P@5 is not PaperBot's: A, B, C of the top 5 for both -> 3/5.
    expect(m['P@5'].value).toBe(0.6);
  });

  it('is read from the golden set, and a top_k that is not a whole number >= 1 is refused naming its line', () => {
    const set = parseGoldenYaml(golden, 'golden.yaml');
    expect(set.queries.map((q) => q.topK)).toEqual([2, null]);
    for (const bad of ['0', '2.5', '"3"', '-1'])
      expect(() => parseGoldenYaml(`- id: q1\n  query: one\n  top_k: ${bad}\n  judgments: {A: 1}\n`, 'g.yaml')).toThrow(
        /g\.yaml.*top_k.*must be a whole number >= 1/,
      );
  });
});

describe('profile: paperbot', () => {
  const golden = `
profile: paperbot
queries:
  - id: p1
    query: cut at its top_k
    top_k: 2
    judgments: {A: 3, B: 2, C: 1}
  - id: p2
    query: no top_k, so 5
    judgments: {A: 1, B: 1, C: 1, D: 1, E: 1, F: 1}
  - id: p3
    query: judged all 0
    judgments: {A: 0, B: 0}
`;
  const results = [
    ranked('p1', ['X', 'A', 'B', 'C']),
    ranked('p2', ['A', 'B', 'C', 'D', 'E', 'F']),
    ranked('p3', ['A', 'B']),
  ];

  it("cuts at top_k (5 without one), gains 2^grade - 1, and scores a case judged all 0 as PaperBot's code does", async () => {
    const { json } = await aggregateOf(run(results), golden);
    const m = json.metrics;
    // nDCG@10: p1 at 2: DCG (2^3 - 1)/log2 3 = 7/log2 3, ideal 7 + 3/log2 3. p2 at 5: all five top ranks relevant
    //   -> 1. p3: ideal DCG 0 -> 1.0.
    expect(m['nDCG@10']).toEqual({ value: r4((7 / l3 / (7 + 3 / l3) + 1 + 1) / 3), n: 3 });
    // recall@10: p1 1/3 (A of A, B, C); p2 5/6 (cut at 5); p3 1.0 (nothing relevant).
    expect(m['recall@10']).toEqual({ value: r4((1 / 3 + 5 / 6 + 1) / 3), n: 3 });
    // mrr@10: p1 1/2; p2 1; p3 1.0.
    expect(m['mrr@10']).toEqual({ value: r4(2.5 / 3), n: 3 });
    // hit@10 (evidence hit rate): p1 1, p2 1, p3 0 (no relevant hit).
    expect(m['hit@10']).toEqual({ value: r4(2 / 3), n: 3 });
  });

  it("without the profile, EvalVerdict's own rules: no default cut, gain = grade, p3 left out", async () => {
    const { json } = await aggregateOf(run(results), golden.replace('profile: paperbot\n', ''));
    const m = json.metrics;
    // nDCG@10: p1 still cut at its top_k 2, gain = grade: (3/log2 3) / (3 + 2/log2 3); p2 -> 1.
    expect(m['nDCG@10']).toEqual({ value: r4((3 / l3 / (3 + 2 / l3) + 1) / 2), n: 2 });
    // recall@10: p1 1/3; p2 6/6.
    expect(m['recall@10']).toEqual({ value: r4((1 / 3 + 1) / 2), n: 2 });
  });
});
