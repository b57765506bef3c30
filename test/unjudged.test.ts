/**
 * judged@k and bpref: by hand on small cases, and on random TREC-style judgments and runs against a reference
 * written here from the definitions (trec_eval's m_bpref.c; ir_measures' Judged@k), not from src/.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import { runFromTrec } from '../src/import/trec/trecFiles.js';
import { aggregateOf, hit, removeTempDirs, result } from './helpers/runDb.js';
import type { RunDbInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

const run = (results: RunDbInput['runs'][number]['results']): RunDbInput => ({
  runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results }],
});

describe('judged@k by hand', () => {
  // q1 judges A 2, B 0, C 1; q2 states only an expected chunk (no graded judgment): left out of judged@k.
  const golden = `
- id: q1
  query: one
  judgments: {A: 2, B: 0, C: 1}
- id: q2
  query: two
  expected_chunk_ids: [E]
`;
  const results = [
    // ranks 1..5: A (judged 2), X (unjudged), B (judged 0), Y (unjudged), C (judged 1)
    result('q1', [hit(1, 'A', 'A'), hit(2, 'X', 'X'), hit(3, 'B', 'B'), hit(4, 'Y', 'Y'), hit(5, 'C', 'C')]),
    result('q2', [hit(1, 'E', 'E'), hit(2, 'Z', 'Z')]),
  ];

  it('counts a grade-0 judgment as judged, divides by k, and leaves out queries without graded judgments', async () => {
    const { json } = await aggregateOf(run(results), golden);
    // top 1: A -> 1/1; top 3: A, B judged -> 2/3; top 5: A, B, C -> 3/5; top 10: 3 judged of 5 returned -> 3/10
    expect(json.metrics['judged@1']).toEqual({ value: 1, n: 1 });
    expect(json.metrics['judged@3']).toEqual({ value: 0.6667, n: 1 });
    expect(json.metrics['judged@5']).toEqual({ value: 0.6, n: 1 });
    expect(json.metrics['judged@10']).toEqual({ value: 0.3, n: 1 });
  });

  it('bpref: R = 2 (A, C), N = 1 (B); A above every non-relevant -> 1, C below B -> 1 - 1/1 = 0; (1 + 0) / 2', async () => {
    const { json } = await aggregateOf(run(results), golden);
    // q2: R = 1, N = 0, E at rank 1 -> 1; mean over q1 and q2 = (0.5 + 1) / 2 = 0.75
    expect(json.metrics.bpref).toEqual({ value: 0.75, n: 2 });
  });

  it('bpref: unjudged hits between relevant ones change nothing; a judged non-relevant one does', async () => {
    const golden1 = '- id: q1\n  query: one\n  judgments: {A: 1, B: 0, C: 1, D: 0}\n';
    // A 1, X -, Y -, C 1: no non-relevant above either -> (1 + 1) / 2 = 1
    const unjudgedOnly = await aggregateOf(
      run([result('q1', [hit(1, 'A', 'A'), hit(2, 'X', 'X'), hit(3, 'Y', 'Y'), hit(4, 'C', 'C')])]),
      golden1,
    );
    expect(unjudgedOnly.json.metrics.bpref).toEqual({ value: 1, n: 1 });
    // B 0, A 1, D 0, C 1: R = 2, N = 2; A has 1 above -> 1 - 1/2; C has 2 above -> 1 - 2/2 = 0; (0.5 + 0) / 2
    const judged = await aggregateOf(
      run([result('q1', [hit(1, 'B', 'B'), hit(2, 'A', 'A'), hit(3, 'D', 'D'), hit(4, 'C', 'C')])]),
      golden1,
    );
    expect(judged.json.metrics.bpref).toEqual({ value: 0.25, n: 1 });
  });
});

/** trec_eval's bpref from its definition: docs in ranked order, qrels as docno -> rel (absent: unjudged). */
function referenceBpref(ranked: string[], qrels: Map<string, number>, level: number): number {
  const rels = [...qrels.values()];
  const R = rels.filter((g) => g >= level).length;
  const N = rels.filter((g) => g >= 0 && g < level).length;
  let nonrel = 0;
  let sum = 0;
  for (const doc of ranked) {
    const g = qrels.get(doc);
    if (g === undefined || g < 0) continue;
    if (g < level) nonrel++;
    else sum += nonrel > 0 ? 1 - Math.min(nonrel, R) / Math.min(N, R) : 1;
  }
  return R === 0 ? 0 : sum / R;
}

/** ir_measures' Judged@k: ranked docs among the top k that have a judgment, over k. */
function referenceJudged(ranked: string[], qrels: Map<string, number>, k: number): number {
  return ranked.slice(0, k).filter((d) => (qrels.get(d) ?? -1) >= 0).length / k;
}

describe('bpref and judged@k on random cases, against the reference', () => {
  const docs = 'abcdefghijkl'.split('');
  const arb = fc.record({
    // per doc: undefined (not in qrels) or a grade -1..3 (-1: in the pool, unjudged, as trec_eval reads it)
    grades: fc.array(fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }), {
      minLength: docs.length,
      maxLength: docs.length,
    }),
    order: fc.shuffledSubarray(docs),
    level: fc.integer({ min: 1, max: 2 }),
  });

  it('property: equal to trec_eval bpref and Judged@k for any qrels, ranking and -l (500 cases)', () => {
    fc.assert(
      fc.property(arb, ({ grades, order, level }) => {
        const qrels = new Map<string, number>();
        for (const [i, g] of grades.entries()) if (g !== undefined) qrels.set(docs[i], g);
        fc.pre(qrels.size > 0 && order.length > 0);
        const qrelsText = [...qrels].map(([d, g]) => `q1 0 ${d} ${g}`).join('\n');
        // scores descending in the listed order, so trec_eval's ranking is this order
        const runText = order.map((d, i) => `q1 Q0 ${d} ${i + 1} ${100 - i} t`).join('\n');
        const { run: runData, golden } = runFromTrec(qrelsText, 'q', runText, 'r', '2000-01-01T00:00:00Z');
        const options = { ...DEFAULT_OPTIONS, ks: [1, 3, 5, 10], meanOver: 'trec' as const, minGrade: level };
        const record = scoreRun(runData, golden, options).records[0];
        const defs = new Map(buildMetricTable(options).map((d) => [d.id, d]));
        expect(defs.get('bpref')!.perQuery!(record)).toBeCloseTo(referenceBpref(order, qrels, level), 12);
        for (const k of options.ks)
          expect(defs.get(`judged@${k}`)!.perQuery!(record)).toBeCloseTo(referenceJudged(order, qrels, k), 12);
      }),
      { numRuns: 500, seed: 32 },
    );
  });
});
