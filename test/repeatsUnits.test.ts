/**
 * src/compare/repeats.ts piece by piece, each value computed inside its test (so `npm run mutate` sees it): a side's
 * runs merged into one table (RepeatMerger: per-query means, the median run's facts, the side's ids and stages), the
 * flaky rule on facts built by hand (flakyReasons), and the flaky rule's records and outcomes on runs in memory
 * (compareRepeatedRuns), each expected value derived from how the runs are built.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, MAX_HITS_PER_QUERY, resultsOf } from '../src/aggregate/score.js';
import { compareCandidateOnly, compareRuns } from '../src/compare/compare.js';
import { scoreToTable } from '../src/aggregate/table.js';
import type { RecordFacts, TabulatedRun } from '../src/aggregate/table.js';
import {
  compareRepeatedRuns,
  flakyReasons,
  JUDGE_FLAKY_STEP,
  looksForFlaky,
  MAX_FLAKY_LISTED,
  missingInRepeatsWarnings,
  RepeatMerger,
  setAsideFlaky,
} from '../src/compare/repeats.js';
import type { FlakyRule } from '../src/compare/repeats.js';
import { InputError } from '../src/errors.js';
import type { GoldenSet, QueryResult, RunData } from '../src/types.js';
import {
  chunkQuery,
  goldenQuery,
  goldenSet,
  judgeScores,
  mkAnswer,
  mkHit,
  queryResult,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';

const tableOf = (run: RunData, golden: GoldenSet): TabulatedRun =>
  scoreToTable(resultsOf(run), golden, { ...DEFAULT_OPTIONS });

const answered = (id: string, extra: Partial<QueryResult> = {}) =>
  rankedResult(id, 1, { answer: mkAnswer('an answer'), abstained: false, ...extra });

describe('RepeatMerger: a side of several runs as one table', () => {
  const golden = goldenSet([chunkQuery('a'), chunkQuery('b'), chunkQuery('c', { pending: true })]);
  // With a query no run has, which no run misses against the side.
  const withNone = goldenSet([chunkQuery('a'), chunkQuery('b'), chunkQuery('none')]);

  it('per query, each column is the mean over the runs that have a value; NaN where none has', () => {
    // Judge scores in some runs only: their columns hold NaN in the others.
    const runs = [
      runData('r1', [answered('a', { judge: judgeScores({ correctness: 4 }) }), rankedResult('b', 3)]),
      runData('r2', [rankedResult('a', null), rankedResult('b', 2)]),
      runData('r3', [answered('a', { judge: judgeScores({ correctness: 2 }) }), rankedResult('b', null)]),
    ];
    const tables = runs.map((r) => tableOf(r, golden));
    const merger = new RepeatMerger();
    for (const t of tables) merger.add(t);
    const { table } = merger.merged();
    let mixed = 0;
    let empty = 0;
    for (const [key, column] of table.columns)
      for (let i = 0; i < column.length; i++) {
        const values = tables.map((t) => t.columns.get(key)![i]).filter((v) => !Number.isNaN(v));
        if (values.length > 0 && values.length < tables.length) mixed++;
        if (values.length === 0) {
          empty++;
          expect(column[i], `${key}[${i}]`).toBeNaN();
        } else expect(column[i], `${key}[${i}]`).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 12);
      }
    expect(mixed).toBeGreaterThan(0); // the case the test is about is there
    expect(empty).toBeGreaterThan(0);
    expect(table.pendingColumns.size).toBe(tables[0].pendingColumns.size);
  });

  it("the side's stages, unknown and repeated result ids, chunker versions, citations and ignored timings: every run's", () => {
    const cited = mkHit(1, 'a-rel', null, { citation: { kind: 'line', path: 'a.md', start: 1, end: 2 } });
    const runs = [
      runData('r1', [
        rankedResult('a', 1, { timingsMs: { retrieve: 5 } }),
        queryResult('zz-1', [mkHit(1, 'x', null, { chunkerVersion: 'v2' })]),
      ]),
      runData('r2', [
        rankedResult('a', 1),
        rankedResult('a', 2, { timingsMs: { generate: 7 } }), // a later result of a query replaces the earlier
        queryResult('b', [mkHit(1, 'b-rel', null, { chunkerVersion: 'v1' })]),
        queryResult('zz-2', []),
      ]),
      runData('r3', [queryResult('a', [cited]), rankedResult('c', 1, { timingsMs: { rerank: 1 } })]),
    ];
    const tables = runs.map((r) => tableOf(r, golden));
    const merger = new RepeatMerger();
    for (const t of tables) merger.add(t);
    const { table, repeats } = merger.merged();
    const union = (pick: (t: TabulatedRun) => readonly string[]) => [...new Set(tables.flatMap(pick))].sort();
    expect(table.recordStages).toEqual(union((t) => t.recordStages));
    expect(table.recordStages).toEqual(['generate', 'retrieve']);
    expect(table.allStages).toEqual(union((t) => t.allStages));
    expect(table.allStages).toContain('rerank'); // of the pending query c alone
    expect([...table.unknownResultIds].sort()).toEqual(['zz-1', 'zz-2']);
    expect([...table.duplicateResultIds].sort()).toEqual(union((t) => t.duplicateResultIds));
    expect(table.duplicateResultIds).toEqual(['a']);
    expect(table.hitChunkerVersions).toEqual(['v1', 'v2']);
    expect(tables.map((t) => t.hitsHaveCitations)).toEqual([false, false, true]);
    expect(table.hitsHaveCitations).toBe(true);
    expect(table.ignoredStageTimings).toBe(tables.reduce((n, t) => n + t.ignoredStageTimings, 0));
    // The pending query c has a result in r3 only: the side has one.
    expect([...table.pendingHasResult]).toEqual([1]);
    expect(table.run).toBe(tables[0].run);
    expect(repeats.runIds).toEqual(['r1', 'r2', 'r3']);
    expect(repeats.facts).toEqual(tables.map((t) => t.facts));
  });

  it('timings past the stage cap and results past the hit cap: summed and joined over the runs', () => {
    // 64 stages a run are measured (MAX_STAGES_PER_RUN): r1 times 66, r2 67, so 2 and 3 are ignored.
    const stages = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, s) => [`s${String(s).padStart(2, '0')}`, 1]));
    const over = Array.from({ length: MAX_HITS_PER_QUERY + 1 }, (_, r) => mkHit(r + 1, `h${r}`));
    const tables = [
      runData('r1', [rankedResult('a', 1, { timingsMs: stages(66) })]),
      runData('r2', [rankedResult('a', 1, { timingsMs: stages(67) }), queryResult('b', over)]),
    ].map((r) => tableOf(r, golden));
    expect(tables.map((t) => t.ignoredStageTimings)).toEqual([2, 3]);
    const merger = new RepeatMerger();
    for (const t of tables) merger.add(t);
    const { table } = merger.merged();
    expect(table.ignoredStageTimings).toBe(5);
    expect(table.cappedResultIds).toEqual(['b']);
  });

  it('a run without a result another run has: named with its count, in the order given', () => {
    const runs = [
      runData('r1', [rankedResult('a', 1)]),
      runData('r2', [rankedResult('a', 1), rankedResult('b', 1)]),
      runData('r3', []),
    ];
    const merger = new RepeatMerger();
    for (const r of runs) merger.add(tableOf(r, withNone));
    const { repeats, table } = merger.merged();
    expect(table.hitsHaveCitations).toBe(false);
    expect(repeats.missing).toEqual([
      { source: 'r1.sqlite', runId: 'r1', count: 1 },
      { source: 'r3.sqlite', runId: 'r3', count: 2 },
    ]);
    expect([...table.facts.hasResult]).toEqual([1, 1, 0]);
    expect(missingInRepeatsWarnings('baseline', repeats, 'all')).toEqual([
      'r1.sqlite: baseline run `r1`: 1 query has no result in this run, only in other baseline runs (counted as misses)',
      'r3.sqlite: baseline run `r3`: 2 queries have no result in this run, only in other baseline runs (counted as misses)',
    ]);
    expect(missingInRepeatsWarnings('candidate', repeats, 'trec')[0]).toBe(
      'r1.sqlite: candidate run `r1`: 1 query has no result in this run, only in other candidate runs (left out of its means: `--mean-over trec`)',
    );
  });

  it('refuses what is no side: no run, runs of another golden set, more runs than its counts hold', () => {
    expect(() => new RepeatMerger().merged()).toThrow('repeats: no run added');
    const merger = new RepeatMerger();
    merger.add(tableOf(runData('r1', []), golden));
    const other = goldenSet([chunkQuery('a')]);
    expect(() => merger.add(tableOf(runData('r2', []), other))).toThrow(/^repeats: column \S+ has 1 rows$/);
    const many = new RepeatMerger();
    const one = tableOf(runData('r', []), goldenSet([chunkQuery('a')]));
    for (let r = 0; r < 0xffff; r++) many.add(one);
    let error: unknown = null;
    try {
      many.add(one);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('repeats: more than 65,535 runs on one side');
  });
});

describe("the median run's facts", () => {
  const golden = goldenSet([chunkQuery('a', { mustContain: ['Paris'] })]);
  const run = (runId: string, rank: number | null, text: string, correctness: number | null) =>
    runData(runId, [
      rankedResult('a', rank, {
        answer: mkAnswer(text),
        abstained: false,
        judge: correctness === null ? null : judgeScores({ correctness, groundedness: correctness }),
      }),
    ]);
  const merged = (runs: RunData[]) => {
    const merger = new RepeatMerger();
    for (const r of runs) merger.add(tableOf(r, golden));
    return merger.merged().table.facts;
  };

  it('by first relevant rank, a miss last; the lower middle of an even count; judge scores the mean of those given', () => {
    // ranks 3, miss, 1, 2: in order 1, 2, 3, miss; the lower middle is rank 2, whose answer is "Lyon".
    const f = merged([
      run('r1', 3, 'Paris', 4),
      run('r2', null, 'Paris', null),
      run('r3', 1, 'Paris', 2),
      run('r4', 2, 'Lyon', 5),
    ]);
    expect(f.firstRelevantRank[0]).toBe(2);
    expect(f.groundedText[0]).toBe(0);
    expect(f.judgeCorrectness[0]).toBeCloseTo((4 + 2 + 5) / 3, 12);
    expect(f.judgeGroundedness[0]).toBeCloseTo((4 + 2 + 5) / 3, 12);
    // Three runs, two misses: the median is a miss.
    expect(
      merged([run('r1', null, 'Paris', null), run('r2', 5, 'Paris', null), run('r3', null, 'Paris', null)])
        .firstRelevantRank[0],
    ).toBe(0);
    expect(merged([run('r1', null, 'Paris', null)]).judgeCorrectness[0]).toBeNaN();
  });

  it('of equal ranks the earliest run', () => {
    expect(merged([run('r1', 2, 'Lyon', null), run('r2', 2, 'Paris', null)]).groundedText[0]).toBe(0);
    expect(merged([run('r1', 2, 'Paris', null), run('r2', 2, 'Lyon', null)]).groundedText[0]).toBe(1);
    // Ranks 2, 2, 1: in order r3, r1, r2; the middle one is r1 ("Lyon").
    expect(
      merged([run('r1', 2, 'Lyon', null), run('r2', 2, 'Paris', null), run('r3', 1, 'Paris', null)]).groundedText[0],
    ).toBe(0);
  });

  it('ties broken by run order afresh for each query, whatever the order the query before left', () => {
    // x: ranks 2, 2, 1 (sorted r3, r1, r2); y: rank 3 in every run, grounded in r2 alone: the middle run is r2.
    const two = goldenSet([chunkQuery('x'), chunkQuery('y', { mustContain: ['Paris'] })]);
    const run = (runId: string, xRank: number, text: string) =>
      runData(runId, [rankedResult('x', xRank), rankedResult('y', 3, { answer: mkAnswer(text), abstained: false })]);
    const merger = new RepeatMerger();
    for (const r of [run('r1', 2, 'Lyon'), run('r2', 2, 'Paris'), run('r3', 1, 'Lyon')]) merger.add(tableOf(r, two));
    expect([...merger.merged().table.facts.groundedText]).toEqual([-1, 1]);
  });

  it('a result in any run is a result of the side', () => {
    const merger = new RepeatMerger();
    merger.add(tableOf(runData('r1', []), golden));
    merger.add(tableOf(runData('r2', [rankedResult('a', null)]), golden));
    merger.add(tableOf(runData('r3', []), golden));
    expect([...merger.merged().table.facts.hasResult]).toEqual([1]);
  });
});

/** Facts of one query per run, the rest of each run's facts those of an answered hit at rank 1. */
function factsOf(runs: Array<Partial<Record<keyof RecordFacts, number>>>): RecordFacts[] {
  return runs.map((values) => {
    const base: Record<keyof RecordFacts, number> = {
      hasResult: 1,
      hasExpectations: 1,
      firstRelevantRank: 1,
      refused: 0,
      groundedText: 1,
      judgeGroundedness: Number.NaN,
      judgeCorrectness: Number.NaN,
      hitsReturned: 10,
      citedRelevant: 1,
      lineCitationsCorrect: -1,
      hitsSnippetMissing: 0,
      chunkMatch: 0,
      firstHitMet: 1,
      anyHitMet: 1,
    };
    const all = { ...base, ...values };
    return {
      hasResult: Uint8Array.of(all.hasResult),
      hasExpectations: Uint8Array.of(all.hasExpectations),
      firstRelevantRank: Int32Array.of(all.firstRelevantRank),
      refused: Int8Array.of(all.refused),
      groundedText: Int8Array.of(all.groundedText),
      judgeGroundedness: Float64Array.of(all.judgeGroundedness),
      judgeCorrectness: Float64Array.of(all.judgeCorrectness),
      hitsReturned: Int32Array.of(all.hitsReturned),
      citedRelevant: Uint8Array.of(all.citedRelevant),
      lineCitationsCorrect: Int8Array.of(all.lineCitationsCorrect),
      hitsSnippetMissing: Int32Array.of(all.hitsSnippetMissing),
      chunkMatch: Uint8Array.of(all.chunkMatch),
      firstHitMet: Uint32Array.of(all.firstHitMet),
      anyHitMet: Uint32Array.of(all.anyHitMet),
    };
  });
}

describe('flakyReasons: why runs of one query disagree', () => {
  const q = goldenQuery('q', { expectedChunkIds: ['x'] });
  const rule: FlakyRule = { k: 10, labels: false };
  const reasons = (runs: Array<Partial<Record<keyof RecordFacts, number>>>, r: FlakyRule = rule, query = q) =>
    flakyReasons(factsOf(runs), query, 0, r);

  it('retrieval: hit@K, else finding a relevant hit at all; ranks within one bucket agree', () => {
    expect(reasons([{ firstRelevantRank: 2 }, { firstRelevantRank: 0 }])).toEqual(['hit@10 differs']);
    expect(reasons([{ firstRelevantRank: 10 }, { firstRelevantRank: 11 }])).toEqual(['hit@10 differs']);
    expect(reasons([{ firstRelevantRank: 2 }, { firstRelevantRank: 0 }], { k: 1, labels: false })).toEqual([
      'a relevant hit differs',
    ]);
    expect(reasons([{ firstRelevantRank: 14 }, { firstRelevantRank: 0 }])).toEqual(['a relevant hit differs']);
    expect(reasons([{ firstRelevantRank: 1 }, { firstRelevantRank: 10 }])).toEqual([]);
    expect(reasons([{ firstRelevantRank: 11 }, { firstRelevantRank: 30 }])).toEqual([]);
    // A query without expectations has no retrieval to disagree on.
    expect(
      reasons([
        { firstRelevantRank: 1, hasExpectations: 0 },
        { firstRelevantRank: 0, hasExpectations: 0 },
      ]),
    ).toEqual([]);
  });

  it('one run never disagrees', () => {
    expect(reasons([{ firstRelevantRank: 0, refused: 1 }])).toEqual([]);
  });

  it('refusal and groundedness verdicts; an unknown one (-1) agrees with anything', () => {
    expect(reasons([{ refused: 0 }, { refused: 1 }])).toEqual(['refusal differs']);
    expect(reasons([{ refused: -1 }, { refused: 1 }])).toEqual([]);
    expect(reasons([{ groundedText: 1 }, { groundedText: 0 }])).toEqual(['groundedness verdict differs']);
    expect(reasons([{ groundedText: -1 }, { groundedText: 0 }, { groundedText: -1 }])).toEqual([]);
  });

  it("WFGY's label, under the rule's labels only", () => {
    // Answered both times, the answer cites a relevant chunk in one run only: OK -> ANS_NO_HIT.
    const runs = [{ citedRelevant: 1 }, { citedRelevant: 0 }];
    expect(reasons(runs, { k: 10, labels: true })).toEqual(["WFGY's label differs"]);
    expect(reasons(runs)).toEqual([]);
    expect(reasons([{ refused: -1 }, { refused: -1, citedRelevant: 0 }], { k: 10, labels: true })).toEqual([]);
  });

  it(`judge scores that move by more than ${JUDGE_FLAKY_STEP}; a score in one run alone moves nothing`, () => {
    expect(reasons([{ judgeCorrectness: 4 }, { judgeCorrectness: 4 - JUDGE_FLAKY_STEP }])).toEqual([]);
    expect(reasons([{ judgeCorrectness: 4 }, { judgeCorrectness: 2.5 }])).toEqual([
      `judge correctness moves by more than ${JUDGE_FLAKY_STEP}`,
    ]);
    expect(reasons([{ judgeGroundedness: 2 }, {}, { judgeGroundedness: 5 }])).toEqual([
      `judge groundedness moves by more than ${JUDGE_FLAKY_STEP}`,
    ]);
    expect(reasons([{ judgeGroundedness: 5 }, {}])).toEqual([]);
    expect(
      reasons([
        { firstRelevantRank: 0, refused: 1, groundedText: 0, judgeGroundedness: 1, judgeCorrectness: 1 },
        { judgeGroundedness: 5, judgeCorrectness: 5 },
      ]),
    ).toEqual([
      'hit@10 differs',
      'refusal differs',
      'groundedness verdict differs',
      `judge groundedness moves by more than ${JUDGE_FLAKY_STEP}`,
      `judge correctness moves by more than ${JUDGE_FLAKY_STEP}`,
    ]);
  });
});

describe('flaky records and outcomes, runs in memory', () => {
  const golden = goldenSet([
    chunkQuery('flips'),
    chunkQuery('grounding', { mustContain: ['Paris'] }),
    goldenQuery('refusal'),
    goldenQuery('judged'),
    chunkQuery('gone'),
  ]);
  const base = (runId: string, r: number) =>
    runData(runId, [
      rankedResult('flips', r === 1 ? null : 4),
      rankedResult('grounding', 2, { answer: mkAnswer(r === 2 ? 'Lyon' : 'Paris'), abstained: false }),
      queryResult('refusal', [], {
        answer: mkAnswer(r === 0 ? 'I cannot answer that' : 'an answer'),
        abstained: r === 0,
      }),
      queryResult('judged', [], {
        answer: mkAnswer('an answer'),
        abstained: false,
        judge: judgeScores({ groundedness: r === 0 ? 5 : 2, correctness: r === 0 ? 1 : 3 }),
      }),
      ...(r === 2 ? [] : [rankedResult('gone', 1)]),
    ]);
  const compare = (baselines: RunData[], candidates: RunData[], knownFlaky?: Map<string, string>) =>
    compareRepeatedRuns(
      baselines.map((b) => () => b),
      candidates.map((c) => () => c),
      golden,
      { permutations: 100 },
      knownFlaky,
    ).report;

  it("each flaky query with its reasons and every run's outcome, in the words the reasons call for", () => {
    const report = compare([base('b1', 0), base('b2', 1), base('b3', 2)], [base('c1', 0), base('c2', 0)]);
    expect(report.flaky).toEqual({
      count: 5,
      queries: [
        {
          query_id: 'flips',
          query: 'query flips',
          reasons: ['baseline: hit@10 differs'],
          baseline: ['rank 4', 'miss', 'rank 4'],
          candidate: ['rank 4', 'rank 4'],
        },
        {
          query_id: 'gone',
          query: 'query gone',
          reasons: ['baseline: hit@10 differs'],
          baseline: ['rank 1', 'rank 1', 'missing'],
          candidate: ['rank 1', 'rank 1'],
        },
        {
          query_id: 'grounding',
          query: 'query grounding',
          reasons: ['baseline: groundedness verdict differs'],
          baseline: ['rank 2, grounded', 'rank 2, grounded', 'rank 2, not grounded'],
          candidate: ['rank 2, grounded', 'rank 2, grounded'],
        },
        {
          query_id: 'judged',
          query: 'query judged',
          reasons: [
            `baseline: judge groundedness moves by more than ${JUDGE_FLAKY_STEP}`,
            `baseline: judge correctness moves by more than ${JUDGE_FLAKY_STEP}`,
          ],
          baseline: [
            'miss, judge groundedness 5, judge correctness 1',
            'miss, judge groundedness 2, judge correctness 3',
            'miss, judge groundedness 2, judge correctness 3',
          ],
          candidate: [
            'miss, judge groundedness 5, judge correctness 1',
            'miss, judge groundedness 5, judge correctness 1',
          ],
        },
        {
          query_id: 'refusal',
          query: 'query refusal',
          reasons: ['baseline: refusal differs'],
          baseline: ['miss, refused', 'miss, answered', 'miss, answered'],
          candidate: ['miss, refused', 'miss, refused'],
        },
      ],
    });
    const flips = report.per_query.find((o) => o.query_id === 'flips')!;
    expect(flips).toMatchObject({ kind: 'flaky', answer_changes: [], answer_regression: false });
    expect(flips.note.startsWith('flaky: ')).toBe(true);
    expect(flips.candidate_row).toBeUndefined();
    expect(report.counts).toEqual({ win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 });
  });

  it("the candidate's reasons join the baseline's, then history's; one run per side is flaky by history alone", () => {
    const report = compare(
      [base('b1', 0), base('b2', 1)],
      [base('c1', 0), base('c2', 1)],
      new Map([['flips', 'seen']]),
    );
    expect(report.flaky!.queries.find((q) => q.query_id === 'flips')!.reasons).toEqual([
      'baseline: hit@10 differs',
      'candidate: hit@10 differs',
      'history: seen',
    ]);
    const single = compare([base('b1', 0)], [base('c1', 1)], new Map([['flips', 'seen']]));
    expect(single.flaky!.queries).toEqual([
      {
        query_id: 'flips',
        query: 'query flips',
        reasons: ['history: seen'],
        baseline: ['rank 4'],
        candidate: ['miss'],
      },
    ]);
    expect(single.repeats).toEqual({ baseline: { runs: 1, run_ids: ['b1'] }, candidate: { runs: 1, run_ids: ['c1'] } });
    expect(single.counts.regression).toBe(0);
    // Nothing looked for: no `repeats`, no `flaky`.
    const plain = compare([base('b1', 0)], [base('c1', 1)]);
    expect(plain.repeats).toBeUndefined();
    expect(plain.flaky).toBeUndefined();
    expect(plain.per_query.find((o) => o.query_id === 'flips')!.kind).toBe('regression');
  });

  it('at most MAX_FLAKY_LISTED listed, by query id; the count is whole', () => {
    const n = MAX_FLAKY_LISTED + 3;
    // In an order no run of the sort finds: i * 11 mod n (11 and n coprime).
    const ids = Array.from({ length: n }, (_, i) => `q${String((i * 11) % n).padStart(4, '0')}`);
    const many = goldenSet(ids.map((id) => chunkQuery(id)));
    const side = (prefix: string) =>
      [0, 1].map((r) =>
        runData(
          `${prefix}${r}`,
          ids.map((id) => rankedResult(id, r === 0 ? 1 : null)),
        ),
      );
    const report = compareRepeatedRuns(
      side('b').map((b) => () => b),
      side('c').map((c) => () => c),
      many,
      { permutations: 100 },
    ).report;
    expect(report.flaky!.count).toBe(n);
    expect(report.flaky!.queries.map((q) => q.query_id)).toEqual([...ids].sort().slice(0, MAX_FLAKY_LISTED));
  });

  it("under profile wfgy: a label the candidate's runs disagree on, in proportion; a worse share is an answer regression", () => {
    const q = goldenSet([chunkQuery('cites')]);
    // Answered every time, the hit at rank 1; the answer cites the relevant chunk (label OK) or nothing (ANS_NO_HIT).
    const run = (runId: string, cites: boolean) =>
      runData(runId, [
        rankedResult('cites', 1, {
          answer: mkAnswer('an answer', {
            citations: cites ? [{ marker: '[1]', chunkId: 'cites-rel', path: null, start: null, end: null }] : [],
          }),
          abstained: false,
        }),
      ]);
    const compareWith = (profile: 'wfgy' | undefined) =>
      compareRepeatedRuns(
        [run('b1', true), run('b2', true)].map((r) => () => r),
        [run('c1', true), run('c2', false), run('c3', false)].map((r) => () => r),
        q,
        { permutations: 100, profile },
      ).report.per_query[0];
    expect(compareWith('wfgy')).toMatchObject({
      kind: 'draw',
      note: 'rank 1 -> rank 1', // retrieval agrees: no proportion of hits
      // The median run (c2, the middle of three equal ranks) has the label change; the proportion follows it.
      answer_changes: ['label OK -> ANS_NO_HIT', "WFGY's label not OK in 2 of 3 candidate runs, 0 of 2 baseline runs"],
      answer_regression: true,
    });
    expect(compareWith(undefined)).toMatchObject({ kind: 'draw', answer_changes: [], answer_regression: false });
  });

  it('a regression the candidate answers unsteadily on keeps its row; a better share of answers is a change only', () => {
    // Found at rank 1 in both baseline runs, refused there; missed in every candidate run, refused in 1 of 3.
    const q = goldenSet([chunkQuery('lost')]);
    const run = (runId: string, rank: number | null, refuses: boolean) =>
      runData(runId, [
        rankedResult('lost', rank, {
          answer: mkAnswer(refuses ? 'I cannot answer that' : 'an answer', { grounded: !refuses }),
          abstained: refuses,
        }),
      ]);
    const o = compareRepeatedRuns(
      [run('b1', 1, true), run('b2', 1, true)].map((r) => () => r),
      [run('c1', null, false), run('c2', null, true), run('c3', null, false)].map((r) => () => r),
      q,
      { permutations: 100 },
    ).report.per_query[0];
    expect(o).toMatchObject({
      kind: 'regression',
      note: 'rank 1 -> miss',
      answer_changes: ['refused in 1 of 3 candidate runs, 2 of 2 baseline runs'],
      answer_regression: false,
    });
    expect(o.candidate_row?.first_relevant_rank).toBeNull();
  });

  it("a run's outcome names only the facts the reasons are about, and only those it knows", () => {
    // hits: found at rank 1 or missed; grounded, judged and answered in every run: its outcomes are ranks alone.
    // refusal: refused ("I cannot", not grounded), answered "Paris" (grounded), or a result without an answer (both
    // unknown): the last shows its rank alone.
    const q = goldenSet([
      chunkQuery('hits', { mustContain: ['Paris'] }),
      goldenQuery('refusal', { mustContain: ['Paris'] }),
    ]);
    const run = (runId: string, r: number) =>
      runData(runId, [
        rankedResult('hits', r === 1 ? null : 1, {
          answer: mkAnswer('Paris'),
          abstained: false,
          judge: judgeScores({ groundedness: 4, correctness: 4 }),
        }),
        r === 2
          ? queryResult('refusal', [])
          : queryResult('refusal', [], { answer: mkAnswer(r === 0 ? 'I cannot' : 'Paris'), abstained: r === 0 }),
      ]);
    const report = compareRepeatedRuns(
      [run('b1', 0), run('b2', 1), run('b3', 2)].map((r) => () => r),
      [run('c1', 0)].map((r) => () => r),
      q,
      { permutations: 100 },
    ).report;
    expect(report.flaky!.queries.map((f) => [f.query_id, f.reasons, f.baseline])).toEqual([
      ['hits', ['baseline: hit@10 differs'], ['rank 1', 'miss', 'rank 1']],
      [
        'refusal',
        ['baseline: refusal differs', 'baseline: groundedness verdict differs'],
        ['miss, refused, not grounded', 'miss, answered, grounded', 'miss'],
      ],
    ]);
  });

  it("a flaky query's runs without a judge score show none", () => {
    const q = goldenSet([goldenQuery('judged')]);
    const run = (runId: string, correctness: number | null) =>
      runData(runId, [
        queryResult('judged', [], {
          answer: mkAnswer('an answer'),
          abstained: false,
          judge: correctness === null ? null : judgeScores({ correctness, groundedness: correctness }),
        }),
      ]);
    const report = compareRepeatedRuns(
      [run('b1', 5), run('b2', null), run('b3', 2)].map((r) => () => r),
      [run('c1', 5)].map((r) => () => r),
      q,
      { permutations: 100 },
    ).report;
    expect(report.flaky!.queries[0].baseline).toEqual([
      'miss, judge groundedness 5, judge correctness 5',
      'miss',
      'miss, judge groundedness 2, judge correctness 2',
    ]);
  });

  it('a candidate-only report is left as it is, history or not', () => {
    const q = goldenSet([chunkQuery('a')]);
    const alone = compareCandidateOnly(runData('c1', [rankedResult('a', 1)]), q, { permutations: 100 });
    const inputs = { baseline: null, candidate: null, rule: { k: 10, labels: false }, queries: null };
    expect(setAsideFlaky(alone, { ...inputs, knownFlaky: new Map([['a', 'seen']]) })).toBe(alone);
  });

  it("answers in proportion count only the runs that know the fact; a fact the candidate's runs agree on is no proportion", () => {
    // Answerable, must contain Paris. Baseline: answered "Paris" (grounded) twice. Candidate: the hit found in one run
    // only; refused (not grounded), answered "Lyon" (not grounded), no answer (refusal and groundedness unknown).
    const q = goldenSet([chunkQuery('a', { mustContain: ['Paris'] })]);
    const answer = (text: string, refused: boolean) => ({
      answer: mkAnswer(refused ? 'I cannot answer that' : text, { grounded: !refused }),
      abstained: refused,
    });
    const o = compareRepeatedRuns(
      [
        runData('b1', [rankedResult('a', 1, answer('Paris', false))]),
        runData('b2', [rankedResult('a', 1, answer('Paris', false))]),
      ].map((r) => () => r),
      [
        runData('c1', [rankedResult('a', 1, answer('', true))]),
        runData('c2', [rankedResult('a', null, answer('Lyon', false))]),
        runData('c3', [rankedResult('a', null)]),
      ].map((r) => () => r),
      q,
      { permutations: 100 },
    ).report.per_query[0];
    expect(o.answer_changes).toEqual([
      // the median run's (c2: rank order c1, then c2 and c3 missed) own change, then the proportions
      'groundedness pass -> fail',
      'refused in 1 of 2 candidate runs, 0 of 2 baseline runs',
    ]);
    expect(o.kind).toBe('loss');
  });

  it('runs that know neither the refusal nor the groundedness verdict are left out of both proportions', () => {
    // Baseline: "Paris" at rank 1 twice. Candidate: refused at rank 1 (not grounded), "Paris" missed (grounded), and
    // a missed result without an answer (both unknown).
    const q = goldenSet([chunkQuery('a', { mustContain: ['Paris'] })]);
    const said = (text: string, refused: boolean) => ({ answer: mkAnswer(text), abstained: refused });
    const o = compareRepeatedRuns(
      ['b1', 'b2'].map((id) => () => runData(id, [rankedResult('a', 1, said('Paris', false))])),
      [
        runData('c1', [rankedResult('a', 1, said('I cannot answer that', true))]),
        runData('c2', [rankedResult('a', null, said('Paris', false))]),
        runData('c3', [rankedResult('a', null)]),
      ].map((r) => () => r),
      q,
      { permutations: 100 },
    ).report.per_query[0];
    expect(o.answer_changes).toEqual([
      'refused in 1 of 2 candidate runs, 0 of 2 baseline runs',
      'not grounded in 1 of 2 candidate runs, 0 of 2 baseline runs',
    ]);
  });

  it("under profile wfgy, a run with no label (refusal unknown) is left out of the label's proportion", () => {
    const q = goldenSet([chunkQuery('a')]);
    const cites = (yes: boolean) =>
      mkAnswer('an answer', {
        citations: yes ? [{ marker: '[1]', chunkId: 'a-rel', path: null, start: null, end: null }] : [],
      });
    const o = compareRepeatedRuns(
      ['b1', 'b2'].map((id) => () => runData(id, [rankedResult('a', 1, { answer: cites(true), abstained: false })])),
      [
        runData('c1', [rankedResult('a', 1, { answer: cites(true), abstained: false })]),
        runData('c2', [rankedResult('a', 1, { answer: cites(false), abstained: false })]),
        runData('c3', [rankedResult('a', 1)]),
      ].map((r) => () => r),
      q,
      { permutations: 100, profile: 'wfgy' },
    ).report.per_query[0];
    expect(o.answer_changes).toContain("WFGY's label not OK in 1 of 2 candidate runs, 0 of 2 baseline runs");
  });

  it('under profile wfgy, labels other than OK in every run of both sides: no proportion', () => {
    // Baseline refuses twice (OVER_REFUSAL); the candidate refuses once and answers without citing once (ANS_NO_HIT).
    const q = goldenSet([chunkQuery('a')]);
    const refusedRun = (runId: string) =>
      runData(runId, [
        rankedResult('a', 1, { answer: mkAnswer('I cannot answer that', { grounded: false }), abstained: true }),
      ]);
    const o = compareRepeatedRuns(
      [refusedRun('b1'), refusedRun('b2')].map((r) => () => r),
      [
        refusedRun('c1'),
        runData('c2', [rankedResult('a', 1, { answer: mkAnswer('an answer'), abstained: false })]),
      ].map((r) => () => r),
      q,
      { permutations: 100, profile: 'wfgy' },
    ).report.per_query[0];
    expect(o.answer_changes).toEqual(['refused in 1 of 2 candidate runs, 2 of 2 baseline runs']);
    expect(o.answer_regression).toBe(false);
  });

  it('a loss in proportion whose candidate has a chunks table carries its snippet count', () => {
    const q = goldenSet([chunkQuery('a')]);
    const table = {
      chunks: [
        {
          chunkId: 'a-rel',
          docId: 'doc-a',
          text: 't',
          headingPath: [],
          spans: [],
          tokenEstimate: 1,
          chunkerVersion: 'v1',
        },
      ],
    };
    const row = (chunks: boolean) =>
      compareRepeatedRuns(
        [runData('b1', [rankedResult('a', 2)]), runData('b2', [rankedResult('a', 2)])].map((r) => () => r),
        // Ranks 2, miss, 2: the median run's rank 2 is a draw, a loss in proportion, whose row is added then.
        [0, 1, 2]
          .map((r) => runData(`c${r}`, [rankedResult('a', r === 1 ? null : 2)], chunks ? table : {}))
          .map((r) => () => r),
        q,
        { permutations: 100 },
      ).report.per_query[0].candidate_row;
    expect(row(true)?.hallucination_count).toBe(0);
    expect(row(false)?.hallucination_count).toBeNull();
  });

  it('one run per side with history alone: each side is its one run', () => {
    const q = goldenSet([chunkQuery('a')]);
    const compared = compareRuns(runData('b1', [rankedResult('a', 1)]), runData('c1', [rankedResult('a', null)]), q, {
      permutations: 100,
    });
    const out = setAsideFlaky(compared, {
      baseline: null,
      candidate: null,
      knownFlaky: new Map([['a', 'seen']]),
      rule: { k: 10, labels: false },
      queries: null,
    });
    expect(out.report.repeats).toEqual({
      baseline: { runs: 1, run_ids: ['b1'] },
      candidate: { runs: 1, run_ids: ['c1'] },
    });
    expect(out.report.flaky!.queries[0].baseline).toEqual(['rank 1']);
  });

  it('looksForFlaky: several runs on a side, or history given', () => {
    const one = { runIds: ['r'], facts: [], differences: [], expectedDifferences: [], missing: [] };
    const two = { ...one, runIds: ['r1', 'r2'] };
    const rule = { k: 10, labels: false };
    expect(looksForFlaky({ baseline: one, candidate: one, rule, queries: null })).toBe(false);
    expect(looksForFlaky({ baseline: null, candidate: null, rule, queries: null })).toBe(false);
    expect(looksForFlaky({ baseline: two, candidate: one, rule, queries: null })).toBe(true);
    expect(looksForFlaky({ baseline: one, candidate: two, rule, queries: null })).toBe(true);
    expect(looksForFlaky({ baseline: null, candidate: null, knownFlaky: new Map(), rule, queries: null })).toBe(false);
    expect(
      looksForFlaky({ baseline: null, candidate: null, knownFlaky: new Map([['q', 'x']]), rule, queries: null }),
    ).toBe(true);
  });
});
