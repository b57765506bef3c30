/**
 * compareRuns (src/compare/compare.ts) at the edges of its options, on runs built in memory (issue 31: mutants
 * docs/mutation.md once listed as equivalent). compare.test.ts holds the main cases; values are worked out by hand
 * in the comments and computed inside each test (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, MAX_HITS_PER_QUERY } from '../src/aggregate/score.js';
import type { AggregateOptions } from '../src/aggregate/score.js';
import { scoreToTable } from '../src/aggregate/table.js';
import { compareCandidateOnly, compareExactlyScored, compareRuns, prepareBaseline } from '../src/compare/compare.js';
import type { QueryResult } from '../src/types.js';
import {
  chunk,
  chunkQuery,
  goldenQuery,
  goldenSet,
  mkAnswer,
  mkHit,
  queryResult,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';

/** Three queries: qa falls from rank 1 to 2, qb rises from 3 to 1, qc is found only by the candidate. */
const compareThree = (ks: number[]) =>
  compareRuns(
    runData('b', [rankedResult('qa', 1), rankedResult('qb', 3), rankedResult('qc', null)]),
    runData('c', [rankedResult('qa', 2), rankedResult('qb', 1), rankedResult('qc', 1)]),
    goldenSet([chunkQuery('qa'), chunkQuery('qb'), chunkQuery('qc')]),
    { ks },
  ).report;

describe('no cutoffs (ks: [], which the library accepts; the CLI, config and action refuse it)', () => {
  it('no @k metric but mrr@10, and the per-query rows carry its delta: qa 1/2 - 1, qb 1 - 1/3, qc 1 - 0', () => {
    // The per-query metric was nDCG@ the largest cutoff, Math.max of none: nDCG@-Infinity, a metric that is not there.
    const report = compareThree([]);
    expect(Object.keys(report.metrics).filter((id) => id.includes('@'))).toEqual(['mrr@10']);
    expect(report.per_query_metric).toBe('mrr@10');
    const rows = report.per_query.map((o) => [o.query_id, o.kind, o.note]);
    expect(rows).toEqual([
      ['qa', 'loss', 'rank 1 -> rank 2'],
      ['qb', 'win', 'rank 3 -> rank 1'],
      ['qc', 'win', 'miss -> rank 1'],
    ]);
    const deltas = report.per_query.map((o) => o.metric_delta as number);
    expect(deltas[0]).toBeCloseTo(-0.5, 12);
    expect(deltas[1]).toBeCloseTo(2 / 3, 12);
    expect(deltas[2]).toBe(1);
  });

  it('MRR at the cutoff asked for: ks [] with mrrCutoff 2 gives qb (rank 3 -> 1) a delta of 1 - 0', () => {
    const report = compareRuns(
      runData('b', [rankedResult('qa', 1), rankedResult('qb', 3)]),
      runData('c', [rankedResult('qa', 2), rankedResult('qb', 1)]),
      goldenSet([chunkQuery('qa'), chunkQuery('qb')]),
      { ks: [], mrrCutoff: 2 },
    ).report;
    expect(report.per_query_metric).toBe('mrr@2');
    expect(report.per_query.map((o) => [o.query_id, o.metric_delta])).toEqual([
      ['qa', -0.5],
      ['qb', 1],
    ]);
  });

  it('against one cutoff the rows carry its nDCG delta: ks [10] gives qa 1/log2(3) - 1, qb 1 - 1/2, qc 1 - 0', () => {
    // one relevant chunk each: nDCG@10 = 1/log2(rank + 1), 0 when missed
    const report = compareThree([10]);
    expect(report.per_query_metric).toBe('nDCG@10');
    const deltas = report.per_query.map((o) => [o.query_id, o.metric_delta]);
    expect(deltas.map(([id]) => id)).toEqual(['qa', 'qb', 'qc']);
    expect(deltas[0][1]).toBeCloseTo(1 / Math.log2(3) - 1, 12);
    expect(deltas[1][1]).toBeCloseTo(0.5, 12);
    expect(deltas[2][1]).toBe(1);
  });
});

describe('a baseline without a chunks table, the versions differing', () => {
  it("the candidate's table alone is the reference: an expected chunk 'S' in neither falls back to its document", () => {
    // Any chunk id will do; a one-letter one also checks that no entry of the table is made up from a string.
    const golden = goldenSet([goldenQuery('q1', { expectedChunkIds: ['S'], expectedDocIds: ['D1'] })]);
    const base = runData('b', [queryResult('q1', [mkHit(1, 'S', 'D1')])], { config: { chunker_version: 'v1' } });
    const cand = runData('c', [queryResult('q1', [mkHit(1, 'x9', 'D9'), mkHit(2, 'n1', 'D1')])], {
      config: { chunker_version: 'v2' },
      chunks: [chunk('n1', 'D1', [[1, 4]], 'v2')],
    });
    const report = compareRuns(base, cand, golden).report;
    // D1 stands for S on both sides: the baseline's S at rank 1, the candidate's n1 at rank 2. The run's mode is
    // fallback_doc: the baseline has no table, so no span to compare.
    expect(report.chunker_version_match).toBe('fallback_doc');
    expect(report.per_query.map((o) => [o.query_id, o.baseline_rank, o.candidate_rank, o.kind, o.chunk_match])).toEqual(
      [['q1', 1, 2, 'loss', 'fallback_expected_doc']],
    );
  });
});

describe('the per-query look-ups the gate stage asks for after the report', () => {
  /** qa: rank 1 -> 2, qb: rank 3 -> miss, qc: miss -> rank 1. */
  const compared = () =>
    compareRuns(
      runData('b', [rankedResult('qa', 1), rankedResult('qb', 3), rankedResult('qc', null)]),
      runData('c', [rankedResult('qa', 2), rankedResult('qb', null), rankedResult('qc', 1)]),
      goldenSet([chunkQuery('qa'), chunkQuery('qb'), chunkQuery('qc')]),
    );

  it('paired differences, candidate - baseline per query, only for a paired metric with per-query values', () => {
    const pairedDiffsOf = compared().pairedDiffsOf!;
    // hit@1: qa 1 -> 0, qb 0 -> 0, qc 0 -> 1; hit@3: qa 1 -> 1, qb 1 -> 0, qc 0 -> 1
    expect([...pairedDiffsOf('hit@1')!]).toEqual([-1, 0, 1]);
    expect([...pairedDiffsOf('hit@3')!]).toEqual([0, -1, 1]);
    expect(pairedDiffsOf('citation_coverage')).toBeNull(); // per query, but no paired test
    expect(pairedDiffsOf('hit_hallucination_rate')).toBeNull(); // no per-query value
    expect(pairedDiffsOf('no_such_metric')).toBeNull();
  });

  it("the candidate's queries at a metric's bad value, only for a metric with per-query values", () => {
    const failingQueriesOf = compared().failingQueriesOf!;
    expect(failingQueriesOf('hit@1', 0)).toEqual(['qa', 'qb']);
    expect(failingQueriesOf('hit@1', 1)).toEqual(['qc']);
    expect(failingQueriesOf('hit_hallucination_rate', 1)).toBeNull();
    expect(failingQueriesOf('no_such_metric', 0)).toBeNull();
  });

  it('a candidate-only report has no paired differences: null, as the type says', () => {
    const { pairedDiffsOf: candidateOnlyDiffs } = compareCandidateOnly(
      runData('c', [rankedResult('qa', 1)]),
      goldenSet([chunkQuery('qa')]),
    );
    expect(candidateOnlyDiffs!('hit@1')).toBeNull();
  });
});

describe('a prepared baseline is reused only under the options it was measured with', () => {
  it('another cutoff (hit@2, not measured ahead) and MRR cutoff are measured again', () => {
    const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2'), chunkQuery('q3')]);
    const exact: AggregateOptions = { ...DEFAULT_OPTIONS, chunkMatch: 'exact', referenceChunks: null };
    const asked: AggregateOptions = { ...exact, ks: [2], mrrCutoff: 2 };
    const table = (id: string, ranks: Array<number | null>) =>
      scoreToTable(
        runData(
          id,
          ranks.map((r, i) => rankedResult(`q${i + 1}`, r)),
        ),
        golden,
        asked,
      );
    const bs = table('b', [2, 1, 3]);
    const ahead = prepareBaseline(bs, exact);
    // baseline ranks 2, 1, 3: hit@2 2/3; mrr@2 (1/2 + 1 + 0) / 3 = 1/2
    const report = compareExactlyScored(bs, table('c', [1, 1, 1]), { ks: [2], mrrCutoff: 2 }, ahead)!.report;
    expect(report.metrics['hit@2']).toMatchObject({ baseline: 2 / 3, candidate: 1 });
    expect(report.metrics['mrr@2'].baseline).toBeCloseTo(0.5, 12);
  });
});

describe("under profile: wfgy, WFGY's per-question label when it changed", () => {
  const cites = (id: string) =>
    mkAnswer('an answer', { citations: [{ marker: '[1]', chunkId: `${id}-rel`, path: null, start: null, end: null }] });
  const uncited = () => mkAnswer('an answer');
  const labelled = (profile: 'wfgy' | undefined) => {
    const golden = {
      ...goldenSet([
        chunkQuery('a1'),
        chunkQuery('a2'),
        chunkQuery('a3'),
        chunkQuery('a4'),
        chunkQuery('a5'),
        chunkQuery('u1', { answerable: false }),
      ]),
      ...(profile ? { profile } : {}),
    };
    return compareRuns(
      runData('b', [
        rankedResult('a1', 1, { answer: cites('a1') }), // OK
        rankedResult('a2', 1, { answer: uncited() }), // ANS_NO_HIT
        rankedResult('a3', 1), // no answer: no label
        rankedResult('a4', 1, { abstained: true }), // OVER_REFUSAL
        rankedResult('a5', 1, { answer: cites('a5') }), // OK
        rankedResult('u1', null, { abstained: true }), // REFUSAL_OK
      ]),
      runData('c', [
        rankedResult('a1', 1, { answer: uncited() }), // ANS_NO_HIT: worse
        rankedResult('a2', 1, { answer: cites('a2') }), // OK: better
        rankedResult('a3', 1, { answer: cites('a3') }), // OK, but from no label
        rankedResult('a4', 1, { answer: uncited() }), // ANS_NO_HIT: from one bad label to another, not worse
        rankedResult('a5', 1), // no answer: no label to change to
        rankedResult('u1', null, { abstained: true }), // REFUSAL_OK: the same
      ]),
      golden,
    ).report;
  };

  it('OK -> ANS_NO_HIT is an answer regression; ANS_NO_HIT -> OK is listed, not one; no label or the same, nothing', () => {
    const rows = labelled('wfgy').per_query.map((o) => [o.query_id, o.answer_changes, o.answer_regression]);
    expect(rows).toEqual([
      ['a1', ['label OK -> ANS_NO_HIT'], true],
      ['a2', ['label ANS_NO_HIT -> OK'], false],
      ['a3', [], false],
      ['a4', ['refused -> answered', 'label OVER_REFUSAL -> ANS_NO_HIT'], false],
      ['a5', [], false],
      ['u1', [], false],
    ]);
  });

  it('without the profile no label is listed', () => {
    const changes = labelled(undefined).per_query.flatMap((o) => o.answer_changes);
    expect(changes).toEqual(['refused -> answered']);
  });
});

describe("capped_query_ids in the comparison's golden block: each side's queries over the work caps", () => {
  // q1 with one hit more than MAX_HITS_PER_QUERY (its relevant chunk at rank 1): scored on its first hits, and named.
  const over = () => rankedResult('q1', 1, {}, MAX_HITS_PER_QUERY + 1);
  const under = () => rankedResult('q1', 1);
  const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
  const runOf = (id: string, q1: () => QueryResult) => runData(id, [q1(), rankedResult('q2', 2)]);

  it('named per side, sorted; absent when neither side was cut', () => {
    const capped = (b: () => QueryResult, c: () => QueryResult) =>
      compareRuns(runOf('b', b), runOf('c', c), golden).report.golden.capped_query_ids;
    expect(capped(under, over)).toEqual({ baseline: [], candidate: ['q1'] });
    expect(capped(over, under)).toEqual({ baseline: ['q1'], candidate: [] });
    expect(capped(over, over)).toEqual({ baseline: ['q1'], candidate: ['q1'] });
    expect(capped(under, under)).toBeUndefined();
  });

  it("a candidate-only report keeps the candidate's and clears the baseline side", () => {
    const alone = (q1: () => QueryResult) => compareCandidateOnly(runOf('c', q1), golden).report.golden;
    expect(alone(over).capped_query_ids).toEqual({ baseline: [], candidate: ['q1'] });
    expect(alone(under).capped_query_ids).toBeUndefined();
  });
});
