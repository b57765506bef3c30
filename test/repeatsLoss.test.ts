/**
 * Flaky cannot hide a loss (issue 45): only a query unstable on the baseline side (its repeats disagree, or main's
 * history says so) is set aside as flaky; a query stable in the baseline whose candidate runs disagree is a win, loss
 * or draw in proportion (its hit@K rate against the baseline's), and the count gates see it. Runs are built in
 * memory and compared through compareRepeatedRuns and applyGates, the code `compare --baseline-run a,b,c` runs.
 */
import { describe, expect, it } from 'vitest';
import { compareRepeatedRuns } from '../src/compare/repeats.js';
import type { Comparison } from '../src/compare/types.js';
import { parseGateConfig } from '../src/gate/config.js';
import { applyGates } from '../src/gate/gates.js';
import type { QueryResult, RunData } from '../src/types.js';
import { chunkQuery, goldenSet, mkAnswer, rankedResult, runData } from './helpers/compareFixtures.js';

const compare = (
  golden: ReturnType<typeof goldenSet>,
  baseline: RunData[],
  candidate: RunData[],
  knownFlaky?: ReadonlyMap<string, string>,
) =>
  compareRepeatedRuns(
    baseline.map((r) => () => r),
    candidate.map((r) => () => r),
    golden,
    { permutations: 1000 },
    knownFlaky,
  );

const kindOf = (report: Comparison, id: string) => report.per_query.find((o) => o.query_id === id)!;

describe('F1: 3 runs per side, 45 stable baseline hits found in only 1 of 3 candidate runs', () => {
  // 300 queries: 200 stable hits (rank 1-4), 90 stable misses, 10 flaky on both sides (hit, miss, hit). The
  // candidate finds 45 of the stable hits (q000, q004, ..., q176) in its first run only: hit@10 drops by
  // 45 x (2/3) / 300 = 0.10.
  const N = 300;
  const id = (i: number) => `q${String(i).padStart(3, '0')}`;
  const golden = goldenSet(Array.from({ length: N }, (_, i) => chunkQuery(id(i))));
  const lost = new Set(Array.from({ length: 45 }, (_, k) => 4 * k));
  const rankOf = (i: number, r: number, candidate: boolean): number | null => {
    if (i >= 290) return r === 1 ? null : 2;
    if (i >= 200) return null;
    if (candidate && lost.has(i) && r > 0) return null;
    return 1 + (i % 4);
  };
  const runs = (side: 'b' | 'c') =>
    [0, 1, 2].map((r) =>
      runData(
        `${side}${r + 1}`,
        Array.from({ length: N }, (_, i) => rankedResult(id(i), rankOf(i, r, side === 'c'))),
      ),
    );
  // Compared in each test, not in the describe body: Stryker switches a mutant on for the tests it runs.
  const compared = () => compare(golden, runs('b'), runs('c'));

  it('the 45 are losses, not flaky; only the 10 unstable in the baseline are set aside', () => {
    const report = compared().report;
    expect(report.metrics['hit@10'].delta).toBeCloseTo(-0.1, 12);
    expect(report.counts).toEqual({ win: 0, loss: 45, draw: 300 - 45 - 10, regression: 0, answer_regression: 0 });
    expect(report.flaky!.count).toBe(10);
    expect(report.flaky!.queries.map((q) => q.query_id)).toEqual(Array.from({ length: 10 }, (_, k) => id(290 + k)));
    const q000 = kindOf(report, 'q000');
    expect(q000.kind).toBe('loss');
    expect(q000.note).toBe(
      "hit@10 in 3 of 3 runs -> 1 of 3 (the candidate's runs disagree; median run: rank 1 -> miss)",
    );
    // its row in the candidate (the median run's), as every loss has
    expect(q000.candidate_row?.first_relevant_rank).toBeNull();
  });

  it('a count gate `losses: max 10` fails, and the verdict with it', () => {
    const config = parseGateConfig('gates:\n  - metric: losses\n    max: 10\n', 'gates.yml');
    const gated = applyGates(compared(), config).report;
    expect(gated.gates.map((g) => [g.metric, g.candidate, g.result])).toEqual([['losses', 45, 'fail']]);
    expect(gated.verdict).toBe('fail');
  });
});

describe('a query stable in the baseline whose candidate runs disagree: its outcome follows its hit rate', () => {
  const ids = ['fell-two', 'rose', 'below-k', 'found-less', 'all-lost', 'history'];
  const golden = goldenSet(ids.map((q) => chunkQuery(q)));
  // per query: the baseline's rank in each of its runs, the candidate's in each of its 3 runs
  const plan: Record<string, { b: Array<number | null>; c: Array<number | null> }> = {
    'fell-two': { b: [2, 2, 2], c: [2, null, 2] }, // hit@10 3/3 -> 2/3: a loss (the median run is a hit at rank 2)
    rose: { b: [null, null, null], c: [null, 3, null] }, // 0/3 -> 1/3: a win
    'below-k': { b: [14, 14, 14], c: [3, null, 14] }, // hit@10 0/3 -> 1/3: a win, though one run misses
    'found-less': { b: [14, 14, 14], c: [14, null, 14] }, // hit@10 0/3 both; found 3/3 -> 2/3: a loss
    'all-lost': { b: [1, 1, 1], c: [null, null, null] }, // stable on both sides: the median rule, a regression
    history: { b: [1, 1, 1], c: [1, null, null] }, // flaky by main's history: set aside
  };
  const side = (s: 'b' | 'c', runs: number) =>
    Array.from({ length: runs }, (_, r) =>
      runData(
        `${s}${r + 1}`,
        ids.map((q) => rankedResult(q, plan[q][s][r], {}, 20)),
      ),
    );
  const known = new Map([['history', 'flipped between hit and miss 4 times in the last 20 main runs']]);

  it('lower a loss, higher a win; a candidate that loses the hit in every run is a regression', () => {
    const report = compare(golden, side('b', 3), side('c', 3), known).report;
    expect(Object.fromEntries(report.per_query.map((o) => [o.query_id, o.kind]))).toEqual({
      'fell-two': 'loss',
      rose: 'win',
      'below-k': 'win',
      'found-less': 'loss',
      'all-lost': 'regression',
      history: 'flaky',
    });
    expect(kindOf(report, 'rose').note).toBe(
      "hit@10 in 0 of 3 runs -> 1 of 3 (the candidate's runs disagree; median run: miss in both)",
    );
    expect(kindOf(report, 'fell-two').candidate_row?.first_relevant_rank).toBe(2);
    expect(kindOf(report, 'rose').candidate_row).toBeUndefined();
    expect(kindOf(report, 'found-less').note).toBe(
      "a relevant hit in 3 of 3 runs -> 2 of 3 (the candidate's runs disagree; median run: rank 14 -> rank 14)",
    );
    expect(report.counts).toEqual({ win: 2, loss: 2, draw: 0, regression: 1, answer_regression: 0 });
    expect(report.flaky!.queries.map((q) => [q.query_id, q.reasons])).toEqual([
      [
        'history',
        ['candidate: hit@10 differs', 'history: flipped between hit and miss 4 times in the last 20 main runs'],
      ],
    ]);
  });

  it('one baseline run is stable: the candidate runs are compared with it in proportion', () => {
    const one = compare(golden, side('b', 1), side('c', 3)).report;
    expect(kindOf(one, 'fell-two').kind).toBe('loss');
    expect(kindOf(one, 'fell-two').note).toMatch(/^hit@10 in 1 of 1 run -> 2 of 3 /);
    expect(kindOf(one, 'history').kind).toBe('loss'); // no history given here
    expect(one.flaky!.count).toBe(0);
  });
});

describe('answers the candidate runs disagree on, the baseline stable: in proportion too', () => {
  const golden = goldenSet([
    chunkQuery('refuses-once'),
    chunkQuery('should-refuse', { answerable: false }),
    chunkQuery('ungrounded-once', { mustContain: ['Paris'] }),
  ]);
  const answered = (q: string, extra: Partial<QueryResult> = {}) =>
    rankedResult(q, 1, { answer: mkAnswer('an answer'), abstained: false, ...extra });
  const refused = (q: string) =>
    rankedResult(q, 1, { answer: mkAnswer('I cannot answer that', { grounded: false }), abstained: true });
  const run = (runId: string, r: number, candidate: boolean) =>
    runData(runId, [
      candidate && r === 2 ? refused('refuses-once') : answered('refuses-once'),
      candidate && r !== 0 ? refused('should-refuse') : answered('should-refuse'),
      answered('ungrounded-once', { answer: mkAnswer(candidate && r === 1 ? 'Lyon' : 'Paris') }),
    ]);

  it('a worse answer in some candidate runs is an answer regression; a better one is a change', () => {
    const report = compare(
      golden,
      [0, 1, 2].map((r) => run(`b${r + 1}`, r, false)),
      [0, 1, 2].map((r) => run(`c${r + 1}`, r, true)),
    ).report;
    expect(report.flaky!.count).toBe(0);
    const of = (q: string) => kindOf(report, q);
    expect(of('refuses-once').answer_regression).toBe(true);
    expect(of('refuses-once').answer_changes).toContain('refused in 1 of 3 candidate runs, 0 of 3 baseline runs');
    expect(of('ungrounded-once').answer_regression).toBe(true);
    expect(of('ungrounded-once').answer_changes).toContain(
      'not grounded in 1 of 3 candidate runs, 0 of 3 baseline runs',
    );
    expect(of('should-refuse').answer_regression).toBe(false);
    expect(of('should-refuse').answer_changes).toContain(
      'answered (should refuse) in 1 of 3 candidate runs, 3 of 3 baseline runs',
    );
    expect(report.counts.answer_regression).toBe(2);
  });
});
