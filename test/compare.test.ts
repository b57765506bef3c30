/**
 * compareRuns (src/compare/compare.ts) on runs built in memory: per-query outcomes and their notes, answer-side
 * changes, deltas of metrics and breakdowns, chunker-version fallbacks, judge comparability and determinism;
 * then the Cranfield fixtures through runCompare (JSON snapshot plus hand-checked properties) and the CLI as a
 * child process. Expected values are worked out by hand in the comments.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { scoreToTable, tableFromTransfer, tableTransfer, tabulate } from '../src/aggregate/table.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import { aggregateScored, groupQueries, joinHalfTables } from '../src/aggregate/aggregate.js';
import type { Comparison, QueryOutcome } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import { goldenSetOfHalf, readGoldenFile, readGoldenHalf } from '../src/load/golden.js';
import type { GoldenHalf } from '../src/load/golden.js';
import {
  compareUtf8,
  deferRunStream,
  inRange,
  openRunStream,
  openRunDatabase,
  readRunDatabase,
} from '../src/load/runDatabase.js';
import type { QueryIdRange } from '../src/load/runDatabase.js';
import type { RunData, RunStream } from '../src/types.js';
import { verdictOf } from '../src/gate/gates.js';
import type { CompareReport } from '../src/gate/types.js';
import { runAggregate, runCompare } from '../src/pipeline/pipeline.js';
import { stableJson } from '../src/render/json.js';
import { GITHUB_COMMENT_LIMIT, renderReportMarkdown } from '../src/render/markdown.js';
import { checkMarkdown } from './helpers/markdownChecks.js';
import {
  chunk,
  chunkQuery,
  compareAndGate,
  gates,
  goldenQuery,
  goldenSet,
  judgeScores,
  mkAnswer,
  mkHit,
  NO_GATES,
  queryResult,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';
import {
  hit,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

const byId = (report: Comparison) => new Map(report.per_query.map((o) => [o.query_id, o]));

// ---------------------------------------------------------------------------------------------------------
// Outcomes

describe('per-query outcomes', () => {
  // Rank of each query's relevant chunk in the baseline and the candidate (null = not retrieved, undefined = the
  // run has no result for the query at all).
  const plan: Array<[string, number | null | undefined, number | null | undefined, QueryOutcome['kind'], string]> = [
    ['qa', null, 2, 'win', 'miss -> rank 2'],
    ['qb', 3, 1, 'win', 'rank 3 -> rank 1'],
    ['qc', 1, 4, 'loss', 'rank 1 -> rank 4'],
    ['qd', 2, 2, 'draw', 'rank 2 -> rank 2'],
    ['qe', null, null, 'draw', 'miss in both'],
    ['qf', 1, null, 'regression', 'rank 1 -> miss'],
    ['qg', 2, undefined, 'regression', 'rank 2 -> missing'],
    ['qh', undefined, 1, 'win', 'missing -> rank 1'],
  ];
  const golden = goldenSet(plan.map(([id], i) => chunkQuery(id, { category: i < 4 ? 'alpha' : 'beta' })));
  const side = (k: 1 | 2) =>
    plan.filter((p) => p[k] !== undefined).map((p) => rankedResult(p[0], p[k] as number | null));
  const { report } = compareRuns(runData('base', side(1)), runData('cand', side(2)), golden);
  const outcomes = byId(report);

  it.each(plan)('%s: baseline %s, candidate %s -> %s (%s)', (id, b, c, kind, note) => {
    const o = outcomes.get(id)!;
    expect(o.kind).toBe(kind);
    expect(o.note).toBe(note);
    expect(o.baseline_rank).toBe(b ?? null);
    expect(o.candidate_rank).toBe(c ?? null);
  });

  it('counts: 3 wins (qa, qb, qh), 1 loss (qc), 2 draws (qd, qe), 2 regressions (qf, qg), summing to 8 queries', () => {
    expect(report.counts).toEqual({ win: 3, loss: 1, draw: 2, regression: 2, answer_regression: 0 });
    expect(report.per_query).toHaveLength(8);
  });

  it('the union of query ids: qh only in the candidate, qg only in the baseline', () => {
    expect(report.golden).toMatchObject({ queries: 8, added: ['qh'], removed: ['qg'], shared: 6 });
  });

  it('deltas: hit@3 0.625 -> 0.5, mrr@10 5/12 -> 13/32, hit@1 unchanged', () => {
    // hit@3, baseline ranks [miss, 3, 1, 2, miss, 1, 2, missing]: 5 of 8 within 3 = 0.625;
    // candidate [2, 1, 4, 2, miss, miss, missing, 1]: 4 of 8 = 0.5. delta -0.125, rel_delta -0.125 / 0.625 = -0.2
    expect(report.metrics['hit@3']).toMatchObject({
      baseline: 0.625,
      candidate: 0.5,
      delta: -0.125,
      n: 8,
      n_baseline: 8,
    });
    expect(report.metrics['hit@3'].rel_delta).toBeCloseTo(-0.2, 12);
    // mrr@10: baseline (0 + 1/3 + 1 + 1/2 + 0 + 1 + 1/2 + 0) / 8 = (10/3) / 8 = 5/12;
    // candidate (1/2 + 1 + 1/4 + 1/2 + 0 + 0 + 0 + 1) / 8 = 3.25 / 8 = 13/32
    // delta = 13/32 - 5/12 = (39 - 40) / 96 = -1/96; rel_delta = (-1/96) / (5/12) = -1/40 = -0.025
    const mrr = report.metrics['mrr@10'];
    expect(mrr.baseline).toBeCloseTo(5 / 12, 12);
    expect(mrr.candidate).toBeCloseTo(13 / 32, 12);
    expect(mrr.delta).toBeCloseTo(-1 / 96, 12);
    expect(mrr.rel_delta).toBeCloseTo(-0.025, 12);
    // hit@1: baseline {qc, qf} = 2/8, candidate {qb, qh} = 2/8
    expect(report.metrics['hit@1']).toMatchObject({ baseline: 0.25, candidate: 0.25, delta: 0, rel_delta: 0 });
  });

  it('paired tests pair all 8 golden queries, a query missing from a run a miss there (as in its mean)', () => {
    // hit@3 differences over qa..qh: [+1, 0, -1, 0, 0, -1, -1 (qg missing), +1 (qh missing)]: m = 5, 2 positive:
    // |X - 2.5| >= 0.5 always, p = 1
    expect(report.metrics['hit@3']).toMatchObject({ n_paired: 8, p_value: 1, significant: false });
    // mrr@10 differences, in twelfths: qa +6, qb +8 (1 - 1/3), qc -9 (1/4 - 1), qf -12, qg -6, qh +12; observed
    // |sum| = 1, and with one odd term every sign pattern's |sum| is odd, so >= 1: p = 64/64
    expect(report.metrics['mrr@10']).toMatchObject({ n_paired: 8, p_value: 1 });
  });

  it('breakdowns: hit@3 by category (alpha = qa..qd, beta = qe..qh)', () => {
    // alpha: baseline [0, 1, 1, 1] = 0.75, candidate [1, 1, 0, 1] = 0.75
    expect(report.breakdowns.category.alpha['hit@3']).toMatchObject({
      baseline: 0.75,
      candidate: 0.75,
      delta: 0,
      rel_delta: 0,
      n: 4,
    });
    // beta: baseline [qe 0, qf 1, qg 1, qh 0 (missing)] = 0.5, candidate [0, 0, 0 (missing), 1] = 0.25; rel -0.25/0.5
    expect(report.breakdowns.category.beta['hit@3']).toMatchObject({
      baseline: 0.5,
      candidate: 0.25,
      delta: -0.25,
      rel_delta: -0.5,
    });
    // breakdowns carry no significance; run-level metrics are not broken down
    expect(report.breakdowns.category.beta['hit@3'].p_value).toBeNull();
    expect(report.breakdowns.category.beta.chunks).toBeUndefined();
    expect(report.breakdowns.answerable.answerable['hit@3'].n).toBe(8);
  });
});

describe('deltas with zeros and nulls', () => {
  const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
  // baseline misses both; candidate finds q1 at rank 1 and has a judge correctness score of 4 on q2
  const base = runData('b', [rankedResult('q1', null), rankedResult('q2', null)]);
  const cand = runData('c', [
    rankedResult('q1', 1),
    rankedResult('q2', null, { judge: judgeScores({ correctness: 4 }) }),
  ]);
  const { report } = compareRuns(base, cand, golden);

  it('rel_delta is null when the baseline is 0', () => {
    // hit@1: 0 -> 1/2, delta 0.5, relative change undefined
    expect(report.metrics['hit@1']).toMatchObject({ baseline: 0, candidate: 0.5, delta: 0.5, rel_delta: null });
  });

  it('delta and rel_delta are null where either side is null', () => {
    // judge_correctness_mean: the baseline has no judge scores (null, n 0); the candidate's mean is 4 over 1
    expect(report.metrics.judge_correctness_mean).toMatchObject({
      baseline: null,
      candidate: 4,
      delta: null,
      rel_delta: null,
      n: 1,
      n_baseline: 0,
    });
    // no chunks tables: run-level index metrics are null on both sides
    expect(report.metrics.chunks).toMatchObject({ baseline: null, candidate: null, delta: null, rel_delta: null });
  });

  it('every metric has a comparison, every delta is candidate - baseline', () => {
    for (const [id, m] of Object.entries(report.metrics)) {
      if (m.baseline === null || m.candidate === null) expect(m.delta, id).toBeNull();
      else expect(m.delta, id).toBeCloseTo(m.candidate - m.baseline, 12);
    }
  });
});

describe('answer-side changes', () => {
  const golden = goldenSet([
    goldenQuery('u1', { answerable: false, expectedDocIds: [] }),
    goldenQuery('a1'),
    goldenQuery('a2'),
    goldenQuery('g1', { mustContain: ['Paris'] }),
    goldenQuery('j1'),
    goldenQuery('j2'),
    goldenQuery('j3'),
  ]);
  const answered = (id: string, text = 'an answer', extra = {}) =>
    queryResult(id, [], { answer: mkAnswer(text), abstained: false, ...extra });
  const refused = (id: string) =>
    queryResult(id, [], { answer: mkAnswer('I cannot answer that', { grounded: false }), abstained: true });
  const judged = (id: string, scores: Parameters<typeof judgeScores>[0]) =>
    answered(id, 'an answer', { judge: judgeScores(scores) });
  const baseResults = [
    refused('u1'),
    answered('a1'),
    refused('a2'),
    answered('g1', 'Paris is the capital'),
    judged('j1', { correctness: 5 }),
    judged('j2', { groundedness: 4 }),
    judged('j3', { correctness: 2 }),
  ];
  const candResults = [
    answered('u1'),
    refused('a1'),
    answered('a2'),
    answered('g1', 'It is Lyon'),
    judged('j1', { correctness: 2 }),
    judged('j2', { groundedness: 3 }),
    judged('j3', { correctness: 4 }),
  ];
  const judge = { judge_model: 'judge-1', judge_prompt_version: 'v1' };

  it('refused -> answered on an unanswerable query, answered -> refused, groundedness pass -> fail, judge >= 4 -> < 3', () => {
    const { report } = compareRuns(
      runData('b', baseResults, { config: judge }),
      runData('c', candResults, { config: judge }),
      golden,
    );
    const o = byId(report);
    expect(o.get('u1')).toMatchObject({
      answer_changes: ['refused -> answered (should refuse)'],
      answer_regression: true,
    });
    expect(o.get('a1')).toMatchObject({ answer_changes: ['answered -> refused'], answer_regression: true });
    // refusing less on an answerable query is an improvement
    expect(o.get('a2')).toMatchObject({ answer_changes: ['refused -> answered'], answer_regression: false });
    // must_contain "Paris": "Paris is the capital" passes, "It is Lyon" does not
    expect(o.get('g1')).toMatchObject({ answer_changes: ['groundedness pass -> fail'], answer_regression: true });
    expect(o.get('j1')).toMatchObject({ answer_changes: ['judge correctness 5 -> 2'], answer_regression: true });
    // 4 -> 3: not below 3, no change reported
    expect(o.get('j2')).toMatchObject({ answer_changes: [], answer_regression: false });
    // 2 -> 4: reported, for the better
    expect(o.get('j3')).toMatchObject({ answer_changes: ['judge correctness 2 -> 4'], answer_regression: false });
    // u1, a1, g1, j1
    expect(report.counts.answer_regression).toBe(4);
    // no expectations: retrieval-wise every query is a draw
    expect(report.counts).toMatchObject({ draw: 7, win: 0, loss: 0, regression: 0 });
    expect(o.get('u1')!.note).toBe('no relevance expectations');
  });

  it('with different judge settings a judge drop is listed but not counted, and says why', () => {
    const { report } = compareRuns(
      runData('b', baseResults, { config: judge }),
      runData('c', candResults, { config: { ...judge, judge_model: 'judge-2' } }),
      golden,
    );
    const j1 = byId(report).get('j1')!;
    expect(j1.answer_regression).toBe(false);
    expect(j1.answer_changes).toEqual(['judge correctness 5 -> 2 (judge settings differ)']);
    expect(report.differences).toContain('judge_model');
    // u1, a1, g1 only
    expect(report.counts.answer_regression).toBe(3);
  });
});

describe('known causes are named once, in differences, not on every row', () => {
  const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2', { mustContain: ['yes'] }), chunkQuery('q3')]);
  const common = { temperature: 0, top_k: 10 };
  const base = runData(
    'b',
    [rankedResult('q1', null), rankedResult('q2', 1, { answer: mkAnswer('yes') }), rankedResult('q3', 2)],
    { config: { ...common, chunker_version: 'c1', embedding_model: 'e1', index_version: 'i1', prompt_version: 'p1' } },
  );
  const cand = runData(
    'c',
    [rankedResult('q1', 1), rankedResult('q2', 1, { answer: mkAnswer('no') }), rankedResult('q3', 2)],
    { config: { ...common, chunker_version: 'c2', embedding_model: 'e2', index_version: 'i2', prompt_version: 'p2' } },
  );
  const { report } = compareRuns(base, cand, golden);

  it('differences lists the settings that differ, sorted', () => {
    expect(report.differences).toEqual(['chunker_version', 'embedding_model', 'index_version', 'prompt_version']);
  });

  it('a retrieval change and a draw: the note says only the ranks', () => {
    expect(byId(report).get('q1')!.note).toBe('miss -> rank 1');
    expect(byId(report).get('q3')!.note).toBe('rank 2 -> rank 2');
  });

  it('an answer change says only what changed', () => {
    expect(byId(report).get('q2')!.answer_changes).toEqual(['groundedness pass -> fail']);
  });

  it("each outcome carries the delta of the report's per-query metric (nDCG@10): q1 miss -> rank 1 gains 1", () => {
    expect(report.per_query_metric).toBe('nDCG@10');
    // one relevant chunk: nDCG@10 of a hit at rank 1 is 1, of a miss 0; q3 is rank 2 on both sides
    expect(byId(report).get('q1')!.metric_delta).toBe(1);
    expect(byId(report).get('q3')!.metric_delta).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Chunker versions

describe('chunker versions', () => {
  // The golden set was written against the baseline's chunker: every query expects chunk `old-1` of document D,
  // lines 1-10 (10 lines). The candidate's chunker cut D differently.
  const golden = goldenSet(['q1', 'q2', 'q3', 'q4'].map((id) => goldenQuery(id, { expectedChunkIds: ['old-1'] })));
  const baseChunks = [chunk('old-1', 'D', [[1, 10]], 'v1', 'd.md'), chunk('old-e', 'E', [[1, 10]], 'v1', 'e.md')];
  const candChunks = [
    chunk('new-a', 'D', [[1, 5]], 'v2'), // covers lines 1-5: 5 of 10 = 50% -> match
    chunk('new-c', 'D', [[7, 20]], 'v2'), // covers 7-10: 4 of 10 = 40% -> no
    chunk('new-d', 'D', [[3, 9]], 'v2'), // covers 3-9: 7 of 10 = 70% -> match
    chunk('new-e', 'E', [[1, 10]], 'v2'), // another document -> no
  ];
  const line = (start: number, end: number) => ({ kind: 'line' as const, path: 'd.md', start, end });
  const baseResults = golden.queries.map((q) => queryResult(q.id, [mkHit(1, 'old-1', 'D')]));
  const candResults = [
    // doc_id from the chunks table
    queryResult('q1', [mkHit(1, 'new-a', null)]),
    queryResult('q2', [mkHit(1, 'new-c', 'D'), mkHit(2, 'new-d', 'D')]),
    // a chunk the table does not know: its line citation 2-8 gives the span (7 of 10 lines)
    queryResult('q3', [mkHit(1, 'new-e', 'E'), mkHit(2, 'gone-x', 'D', { citation: line(2, 8) })]),
    // lines 11-30 do not overlap 1-10; the second hit of D has no span at all: the document alone decides
    queryResult('q4', [mkHit(1, null, 'D', { citation: line(11, 30) }), mkHit(2, null, 'D')]),
  ];
  const base = (version: string, chunks = baseChunks) =>
    runData('b', baseResults, { config: { chunker_version: version }, chunks });
  const cand = (version: string, chunks = candChunks, results = candResults) =>
    runData('c', results, { config: { chunker_version: version }, chunks });

  it('different versions with spans: fallback_doc_span, a hit counts when it covers >= 50% of the expected span', () => {
    const { report } = compareRuns(base('v1'), cand('v2'), golden);
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(report.per_query.map((o) => [o.query_id, o.baseline_rank, o.candidate_rank, o.kind])).toEqual([
      ['q1', 1, 1, 'draw'],
      ['q2', 1, 2, 'loss'],
      ['q3', 1, 2, 'loss'],
      ['q4', 1, 2, 'loss'],
    ]);
    // hit@1: candidate 1/4; hit@3: 4/4
    expect(report.metrics['hit@1'].candidate).toBe(0.25);
    expect(report.metrics['hit@3'].candidate).toBe(1);
  });

  it('different versions and no span anywhere: fallback_doc, the document alone decides', () => {
    const noSpans = (cs: typeof baseChunks) => cs.map((c) => ({ ...c, spans: [] }));
    const results = candResults.map((r) => ({ ...r, hits: r.hits.map((h) => ({ ...h, citation: null })) }));
    const { report } = compareRuns(base('v1', noSpans(baseChunks)), cand('v2', noSpans(candChunks), results), golden);
    expect(report.chunker_version_match).toBe('fallback_doc');
    // q1 new-a (D) at 1; q2 new-c (D) at 1; q3 new-e is E, gone-x (D) at 2; q4 the first hit is D
    expect(report.per_query.map((o) => o.candidate_rank)).toEqual([1, 1, 2, 1]);
  });

  it("without chunker_version in the config, the chunks tables' versions decide", () => {
    // baseChunks are v1 and candChunks v2 (see above); neither config names a version
    const { report } = compareRuns(
      runData('b', baseResults, { chunks: baseChunks }),
      runData('c', candResults, { chunks: candChunks }),
      golden,
    );
    expect(report.chunker_version_match).toBe('fallback_doc_span');
  });

  it('the same version: exact chunk ids only, so the candidate never finds old-1', () => {
    const { report } = compareRuns(base('v1'), cand('v1'), golden);
    expect(report.chunker_version_match).toBe('exact');
    expect(report.counts.regression).toBe(4);
  });

  it('strictChunkerVersion refuses different versions with an InputError naming both', () => {
    let error: unknown;
    try {
      compareRuns(base('v1'), cand('v2'), golden, { strictChunkerVersion: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      /chunker_version differs \(baseline b\.sqlite: v1, candidate c\.sqlite: v2\).*--strict-chunker-version/,
    );
    // the same versions pass under strict
    expect(
      compareRuns(base('v1'), cand('v1'), golden, { strictChunkerVersion: true }).report.chunker_version_match,
    ).toBe('exact');
  });
});

describe('a re-chunk (kebab 000, p5-2 compare_runs): expected chunks in no chunks table', () => {
  // kebab: "a hit counts if the run's top-k contains any chunk whose doc_id matches an expected doc_id" when
  // chunker versions differ; an expected chunk that neither run's table holds has only the golden expected_doc_ids
  // to name its document.
  const golden = goldenSet([
    goldenQuery('q1', { expectedChunkIds: ['old-1'], expectedDocIds: ['D1'] }), // re-chunked away, document named
    goldenQuery('q2', { expectedChunkIds: ['old-2'] }), // re-chunked away, no document named
    goldenQuery('q3', { expectedChunkIds: ['c3'], expectedDocIds: ['D3'] }), // in the baseline's table, lines 1-10
  ]);
  const base = runData(
    'b',
    [
      queryResult('q1', [mkHit(1, 'old-1', 'D1')]),
      queryResult('q2', [mkHit(1, 'old-2', 'D2')]),
      queryResult('q3', [mkHit(1, 'c3', 'D3')]),
    ],
    { config: { chunker_version: 'v1' }, chunks: [chunk('c3', 'D3', [[1, 10]], 'v1')] },
  );
  const cand = runData(
    'c',
    [
      queryResult('q1', [mkHit(1, 'x9', 'D9'), mkHit(2, 'n1', 'D1')]),
      queryResult('q2', [mkHit(1, 'n2', 'D2')]),
      queryResult('q3', [mkHit(1, 'n3', 'D3')]),
    ],
    {
      config: { chunker_version: 'v2' },
      chunks: [
        chunk('n1', 'D1', [[1, 4]], 'v2'),
        chunk('n2', 'D2', [[1, 4]], 'v2'),
        chunk('n3', 'D3', [[1, 10]], 'v2'),
      ],
    },
  );

  it('the named document stands for the chunk; each query says how it was matched', () => {
    const { report, defs } = compareAndGate(base, cand, golden, NO_GATES);
    // q1: old-1 is in neither table, D1 is named: the baseline's old-1 (doc D1) at rank 1, the candidate's n1 (D1)
    // at rank 2: a loss, not a regression. q2: nothing names old-2's document, so exact ids only: regression.
    // q3: c3 is in the baseline's table with lines 1-10; n3 covers all 10: rank 1 both, a draw.
    expect(report.per_query.map((o) => [o.query_id, o.baseline_rank, o.candidate_rank, o.kind, o.chunk_match])).toEqual(
      [
        ['q1', 1, 2, 'loss', 'fallback_expected_doc'],
        ['q2', 1, null, 'regression', 'exact'],
        ['q3', 1, 1, 'draw', 'fallback_doc_span'],
      ],
    );
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(report.chunk_match_queries).toEqual({
      exact: 1,
      fallback_doc_span: 1,
      fallback_doc: 0,
      fallback_expected_doc: 1,
    });
    // Rows whose mode is not the run's say theirs in the note the reports show.
    expect(report.per_query.map((o) => o.note)).toEqual([
      'rank 1 -> rank 2 (chunk match fallback_expected_doc)',
      'rank 1 -> miss (chunk match exact)',
      'rank 1 -> rank 1',
    ]);
    const md = renderReportMarkdown(report, defs);
    expect(md).toContain(
      'Chunk match: `fallback_doc_span` (1 exact, 1 by document and span, 1 by expected_doc_ids (chunk in no chunks table)).',
    );
  });

  it('the same versions: exact matching, yet a chunk in no table still falls back to its named document', () => {
    const same = (run: RunData): RunData => ({ ...run, run: { ...run.run, chunkerVersion: 'v1' } });
    const { report } = compareAndGate(same(base), same(cand), golden, NO_GATES);
    expect(report.chunker_version_match).toBe('exact');
    // Scored exactly, each run reads its own table. q1 as above. q3: c3 is in the baseline's table (found exactly,
    // rank 1) but not in the candidate's, which names D3: its n3 stands for it, rank 1, a draw. A query's mode is the
    // looser of the two runs'.
    expect(report.per_query.map((o) => [o.query_id, o.candidate_rank, o.kind, o.chunk_match])).toEqual([
      ['q1', 2, 'loss', 'fallback_expected_doc'],
      ['q2', null, 'regression', 'exact'],
      ['q3', 1, 'draw', 'fallback_expected_doc'],
    ]);
    expect(report.chunk_match_queries).toEqual({
      exact: 1,
      fallback_doc_span: 0,
      fallback_doc: 0,
      fallback_expected_doc: 2,
    });
  });
});

describe('streamed runs: passes, releases and the chunker check', () => {
  // A RunStream over results in memory that logs every pass and release, so the order compareRuns reads in shows.
  function loggedStream(run: RunData, log: string[]): RunStream {
    const name = run.run.runId;
    return {
      source: run.source,
      run: run.run,
      chunks: run.chunks,
      documents: run.documents,
      forEachResult(each) {
        log.push(`pass ${name}`);
        run.results.forEach(each);
      },
      release() {
        log.push(`release ${name}`);
      },
    };
  }
  const golden = goldenSet(
    ['q1', 'q2'].map((id) => goldenQuery(id, { expectedChunkIds: [`${id}-old`], expectedDocIds: ['D'] })),
  );
  // Only the hits say which chunker made them: no chunker_version in either config, no chunks tables.
  const versioned = (id: string, version: string, chunkId: string) =>
    queryResult(id, [mkHit(1, chunkId, 'D', { chunkerVersion: version })]);
  const base = () => runData('b', [versioned('q1', 'v1', 'q1-old'), versioned('q2', 'v1', 'q2-old')]);
  const cand = (version: string) =>
    runData('c', [versioned('q1', version, 'q1-new'), versioned('q2', version, 'q2-new')]);

  it('the baseline is scored and released before a deferred candidate is opened; one chunker: one pass each', () => {
    const log: string[] = [];
    const { report } = compareRuns(
      loggedStream(base(), log),
      () => {
        log.push('open c');
        return loggedStream(cand('v1'), log);
      },
      golden,
    );
    expect(log).toEqual(['pass b', 'release b', 'open c', 'pass c', 'release c']);
    expect(report.chunker_version_match).toBe('exact');
    // exact ids: the candidate's new chunk ids match nothing
    expect(report.counts.regression).toBe(2);
  });

  it('versions known only from the hits and different: both runs are scored again with the fallback', () => {
    const log: string[] = [];
    const { report } = compareRuns(loggedStream(base(), log), () => loggedStream(cand('v2'), log), golden);
    expect(log).toEqual(['pass b', 'release b', 'pass c', 'release c', 'pass b', 'release b', 'pass c', 'release c']);
    expect(report.chunker_version_match).toBe('fallback_doc');
    // No chunks table names the document of q1-old, so even the fallback cannot place it (docs/compare.md).
    expect(report.counts.regression).toBe(2);
    // the same report as from the runs in memory
    expect(stableJson(report)).toBe(stableJson(compareRuns(base(), cand('v2'), golden).report));
  });

  it('versions declared different up front: no exact pass at all', () => {
    const log: string[] = [];
    const declared = (run: RunData, version: string): RunData => ({
      ...run,
      run: { ...run.run, chunkerVersion: version },
    });
    compareRuns(loggedStream(declared(base(), 'v1'), log), loggedStream(declared(cand('v2'), 'v2'), log), golden);
    expect(log).toEqual(['pass b', 'release b', 'pass c', 'release c']);
  });

  it('strictChunkerVersion refuses versions that only the hits reveal', () => {
    expect(() => compareRuns(base(), () => cand('v2'), golden, { strictChunkerVersion: true })).toThrow(
      /chunker_version differs \(baseline b\.sqlite: v1, candidate c\.sqlite: v2\)/,
    );
  });

  it('the Cranfield fixtures give byte-identical reports streamed from the databases and read into memory', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const config = gates('gates:\n  - metric: hit@5\n    min: 0.5\n');
    const inMemory = compareAndGate(
      await readRunDatabase(join(fixtures, 'baseline.sqlite')),
      await readRunDatabase(join(fixtures, 'candidate.sqlite')),
      fixtureGolden,
      config,
    );
    const streamed = compareAndGate(
      await openRunStream(join(fixtures, 'baseline.sqlite')),
      await deferRunStream(join(fixtures, 'candidate.sqlite')),
      fixtureGolden,
      config,
    );
    expect(stableJson(streamed.report)).toBe(stableJson(inMemory.report));
    expect(streamed.report.chunker_version_match).toBe('fallback_doc_span');
  });

  it('a stream read again after release gives the same results', async () => {
    const stream = await openRunStream(join(repoRoot, 'fixtures', 'baseline.sqlite'));
    const ids = (): string[] => {
      const out: string[] = [];
      stream.forEachResult((r) => out.push(`${r.queryId}:${r.hits.map((h) => h.chunkId).join(',')}`));
      return out;
    };
    const first = ids();
    stream.release?.();
    expect(ids()).toEqual(first);
    expect(first.length).toBeGreaterThan(100);
    stream.release?.();
  });

  it("a run scored by golden halves (each thread's query_id range) and joined aggregates as the run scored whole", async () => {
    // q00..q29 in id order; q05 and q20 pending; the run lacks q28 and q29 and has two ids the golden set lacks, one in
    // each range and one between the halves' ids; only upper-range results time a rerank stage.
    const ids = Array.from({ length: 30 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const items = ids.map((id, i) => ({
      id,
      query: `question ${i}`,
      expected_chunk_ids: [`${id}-rel`],
      category: `c${i % 3}`,
      tags: [`t${i % 2}`],
      ...(id === 'q05' || id === 'q20' ? { pending: true } : {}),
      ...(i === 3 || i === 25 ? { x_note: 1 } : {}),
    }));
    const goldenFile = writeGolden(items.map((q) => `${JSON.stringify(q)}\n`).join(''), tempDir(), 'golden.jsonl');
    const [firstHalf, secondHalf] = [readGoldenHalf(goldenFile, 0, 0)!, readGoldenHalf(goldenFile, 1, 0)!];
    const firstMax = firstHalf.queries[firstHalf.queries.length - 1].id;
    expect(firstHalf.queries.length).toBeGreaterThan(10);
    expect(secondHalf.queries.length).toBeGreaterThan(10);
    const between = `${firstMax}-extra`; // sorts after the first half's ids and before the second's
    const results = [...ids.slice(0, 28), between, 'a-extra'].map((id, i) =>
      result(id, [hit(1, i % 3 === 0 ? `${id}-rel` : 'other', 'd1')], {
        elapsed_ms: i,
        ...(i >= 20 && i < 28 ? { timings_ms: { rerank: i } } : {}),
      }),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const golden = readGoldenFile(goldenFile);
    const whole = await openRunStream(file);
    const expected = aggregateScored(scoreRun(whole, golden, { ...DEFAULT_OPTIONS }));
    whole.release?.();
    const part = async (half: GoldenHalf, range: QueryIdRange) => {
      const stream = await openRunStream(file, null, range);
      try {
        return scoreToTable(stream, goldenSetOfHalf(goldenFile, half), { ...DEFAULT_OPTIONS }, range);
      } finally {
        stream.release?.();
      }
    };
    const lower = await part(firstHalf, { through: firstMax });
    const upper = await part(secondHalf, { after: firstMax });
    expect(lower.unknownResultIds.sort()).toEqual(['a-extra']);
    expect(upper.unknownResultIds).toEqual([between]); // between the halves' ids: the second thread's range
    const table = joinHalfTables(
      lower,
      tableTransfer(upper).message,
      groupQueries(upper.queries.filter((q) => !q.pending)),
      golden.fingerprint,
    );
    expect(stableJson(aggregateScored(table))).toBe(stableJson(expected));
    expect(expected.pending_metrics).toBeDefined();
    expect(Object.keys(expected.metrics)).toContain('rerank_latency_p50_ms');
  });

  it('query_id ranges compare ids as SQLite orders them (UTF-8 bytes), not as JavaScript does (UTF-16)', async () => {
    const ids = ['a', 'Z', 'é', 'ﬀ', '\uFFFF', '😀', 'a😀', 'aé', '', 'q10', 'q9'];
    const file = await writeRunDb({ runs: [{ runId: 'r1', results: ids.map((id) => result(id, [])) }] });
    const db = await openRunDatabase(file);
    const sqliteOrder = db
      .exec('SELECT query_id FROM eval_query_results ORDER BY query_id')[0]
      .values.map((v) => String(v[0]));
    db.close();
    expect([...ids].sort(compareUtf8)).toEqual(sqliteOrder);
    expect([...ids].sort()).not.toEqual(sqliteOrder); // JavaScript's own order differs here ('😀' before '\uFFFF')
    expect(inRange('😀', { from: '\uFFFF' })).toBe(true);
    expect(inRange('😀', { to: '\uFFFF' })).toBe(false);
  });

  it('past 64 timings_ms stages the first 64 in name order are measured, read whole, in halves or in golden order', async () => {
    // The first golden half's queries time stages z00..z49 (late names, read first), the second half's a00..a39.
    const ids = Array.from({ length: 20 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const goldenFile = writeGolden(
      ids.map((id) => `${JSON.stringify({ id, query: id, expected_chunk_ids: [`${id}-rel`] })}\n`).join(''),
      tempDir(),
      'golden.jsonl',
    );
    const [firstHalf, secondHalf] = [readGoldenHalf(goldenFile, 0, 0)!, readGoldenHalf(goldenFile, 1, 0)!];
    const firstMax = firstHalf.queries[firstHalf.queries.length - 1].id;
    const firstCount = firstHalf.queries.length;
    expect(firstCount).toBeGreaterThan(2);
    expect(firstCount).toBeLessThan(18);
    const stageNames = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
    const results = ids.map((id, i) =>
      result(id, [hit(1, `${id}-rel`, 'd1')], {
        timings_ms: Object.fromEntries((i < firstCount ? stageNames('z', 50) : stageNames('a', 40)).map((s) => [s, i])),
      }),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const golden = readGoldenFile(goldenFile);
    const whole = await openRunStream(file);
    const inOneRead = scoreToTable(whole, golden, { ...DEFAULT_OPTIONS });
    whole.release?.();
    const again = await openRunStream(file);
    const inGoldenOrder = tabulate(scoreRun(again, golden, { ...DEFAULT_OPTIONS }));
    again.release?.();
    const part = async (half: GoldenHalf, range: QueryIdRange) => {
      const stream = await openRunStream(file, null, range);
      try {
        return scoreToTable(stream, goldenSetOfHalf(goldenFile, half), { ...DEFAULT_OPTIONS }, range);
      } finally {
        stream.release?.();
      }
    };
    const lower = await part(firstHalf, { through: firstMax });
    const upper = await part(secondHalf, { after: firstMax });
    expect(lower.allStages).toEqual(stageNames('z', 50)); // each half alone has room for all of its stages
    expect(lower.ignoredStageTimings).toBe(0);
    const joined = joinHalfTables(lower, tableTransfer(upper).message, groupQueries(upper.queries), golden.fingerprint);
    const measured = [...stageNames('a', 40), ...stageNames('z', 24)];
    for (const table of [inOneRead, inGoldenOrder, joined]) {
      expect(table.allStages).toEqual(measured);
      expect(table.ignoredStageTimings).toBe(26 * firstCount); // z24..z49, timed by each first-half result
    }
    const report = aggregateScored(joined);
    expect(stableJson(aggregateScored(inOneRead))).toBe(stableJson(report));
    expect(report.metrics.z24_latency_p50_ms).toBeUndefined();
    // Nearest-rank median of the second half's values firstCount..19.
    const m = 20 - firstCount;
    expect(report.metrics.a00_latency_p50_ms?.value).toBe(firstCount + Math.ceil(m / 2) - 1);
  });

  it('a table crosses between threads (typed arrays moved) and reads the same as before (table.ts)', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const stream = await openRunStream(join(fixtures, 'candidate.sqlite'));
    const scored = scoreRun(stream, fixtureGolden, { ...DEFAULT_OPTIONS });
    stream.release?.();
    // Hand-made records add what the fixtures lack: answers with citations, judge scores, timings, refusals, pending.
    const q = goldenSet([
      goldenQuery('h1', {
        expectedChunkIds: ['c1'],
        goldSupports: [{ relPath: 'a.md', headingPath: ['A'], snippets: [], newer: true }],
      }),
      goldenQuery('h2'),
      goldenQuery('h3', { pending: true }),
    ]);
    const handMade = scoreRun(
      runData('h', [
        queryResult('h1', [mkHit(1, 'c1', 'D'), mkHit(2, 'c2', 'D', { docPath: 'a.md', headingPath: ['A'] })], {
          answer: mkAnswer('text', {
            citations: [{ marker: '[1]', chunkId: 'c1', path: 'a.md', start: 1, end: 4 }],
            promptTokens: 10,
            completionTokens: 3,
            latencyMs: 5,
          }),
          judge: judgeScores({ groundedness: 4, correctness: 2, spotCheckGroundedness: 5 }),
          timingsMs: { retrieve: 12.5 },
          costUsd: 0.002,
          elapsedMs: 40,
          abstained: false,
          folderMode: 'on',
          selectedFolders: ['docs'],
        }),
        queryResult('h3', [], { timingsMs: { pendingStage: 3 } }),
      ]),
      q,
      { ...DEFAULT_OPTIONS },
    );
    for (const [run, set] of [
      [scored, fixtureGolden],
      [handMade, q],
    ] as const) {
      const table = tabulate(run);
      const { message, transfer } = tableTransfer(table);
      // What postMessage does: a structured clone with the buffers moved.
      const moved = structuredClone(message, { transfer });
      expect(
        table.columns.size > 0 && [...table.columns.values()].every((c) => c.length === 0 || c.buffer.byteLength === 0),
      ).toBe(true);
      const back = tableFromTransfer(moved, run.run, set, run.options);
      const fresh = tabulate(run);
      expect(back.columns).toEqual(fresh.columns);
      expect(back.pendingColumns).toEqual(fresh.pendingColumns);
      expect(back.facts).toEqual(fresh.facts);
      expect(back.queries.every((g, i) => g === run.records[i].golden)).toBe(true);
      expect(back.pendingQueries.every((g, i) => g === run.pendingRecords[i].golden)).toBe(true);
      expect(stableJson(aggregateScored(back))).toBe(stableJson(aggregateScored(run)));
    }
    expect(tabulate(handMade).facts.judgeGroundedness[0]).toBe(4);
    expect(tabulate(handMade).allStages).toEqual(['pendingStage', 'retrieve']);
    expect(tabulate(handMade).recordStages).toEqual(['retrieve']);
  });

  it('a run scored straight into its table gives the table of its records (scoreToTable = tabulate(scoreRun))', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const streamed = async () => openRunStream(join(fixtures, 'baseline.sqlite'));
    const a = await streamed();
    const viaRecords = tabulate(scoreRun(a, fixtureGolden, { ...DEFAULT_OPTIONS }));
    a.release?.();
    const b = await streamed();
    const direct = scoreToTable(b, fixtureGolden, { ...DEFAULT_OPTIONS });
    b.release?.();
    expect(direct).toEqual(viaRecords);
    // Stages in some results only, one only in a pending query's result, a result for an unknown query, a query
    // with two results (the later one counts), a pending query without a result.
    const q = goldenSet([
      goldenQuery('a', { expectedChunkIds: ['c1'] }),
      goldenQuery('b'),
      goldenQuery('p1', { pending: true }),
      goldenQuery('p2', { pending: true }),
      goldenQuery('c'),
    ]);
    const run = runData('h', [
      queryResult('b', [mkHit(1, 'x', 'D')], { timingsMs: { retrieve: 3 } }),
      queryResult('a', [mkHit(1, 'c1', 'D')], {
        timingsMs: { retrieve: 5, generate: 9 },
        judge: judgeScores({ groundedness: 2 }),
      }),
      queryResult('p1', [], { timingsMs: { rerank: 1 } }),
      queryResult('zz', []),
      queryResult('a', [mkHit(2, 'c1', 'D')], { timingsMs: { retrieve: 7 } }),
    ]);
    const table = scoreToTable(run, q, { ...DEFAULT_OPTIONS });
    expect(table).toEqual(tabulate(scoreRun(run, q, { ...DEFAULT_OPTIONS })));
    expect(table.recordStages).toEqual(['retrieve']);
    expect(table.allStages).toEqual(['rerank', 'retrieve']);
    expect(table.facts.firstRelevantRank[0]).toBe(2);
    expect(Array.from(table.pendingHasResult)).toEqual([1, 0]);
    expect(table.unknownResultIds).toEqual(['zz']);
    expect(table.duplicateResultIds).toEqual(['a']);
    expect('resultIds' in table).toBe(false);
  });

  it('deferRunStream checks the path and the SQLite header before anything is scored', async () => {
    await expect(deferRunStream(join(tempDir(), 'missing.sqlite'))).rejects.toThrow(
      /missing\.sqlite: cannot read the run database \(no such file\)/,
    );
    const notSqlite = join(tempDir(), 'golden.sqlite');
    writeFileSync(notSqlite, 'id: q1\n'.repeat(40));
    await expect(deferRunStream(notSqlite)).rejects.toThrow(InputError);
    await expect(deferRunStream(notSqlite)).rejects.toThrow(/not a SQLite database/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Comparability

describe('judge comparability', () => {
  const golden = goldenSet(Array.from({ length: 4 }, (_, i) => chunkQuery(`q${i}`)));
  // judge correctness 5 everywhere in the baseline, 2 in the candidate: mean 5 -> 2
  const results = (score: number) =>
    golden.queries.map((q) => rankedResult(q.id, 1, { judge: judgeScores({ correctness: score }) }));
  const config = gates('gates:\n  - metric: judge_correctness_mean\n    min: 4\n  - metric: hit@1\n    min: 1\n');
  const compare = (b: Record<string, unknown>, c: Record<string, unknown>) =>
    compareAndGate(runData('b', results(5), { config: b }), runData('c', results(2), { config: c }), golden, config)
      .report;

  it('judge model differs: judge deltas shown, not comparable, their gate not_comparable, verdict unaffected', () => {
    const report = compare(
      { judge_model: 'gpt-a', judge_prompt_version: '1' },
      { judge_model: 'gpt-b', judge_prompt_version: '1' },
    );
    expect(report.judge_comparable).toBe(false);
    expect(report.metrics.judge_correctness_mean).toMatchObject({
      baseline: 5,
      candidate: 2,
      delta: -3,
      comparable: false,
    });
    expect(report.metrics['hit@1'].comparable).toBe(true);
    expect(report.breakdowns.answerable.answerable.judge_correctness_mean.comparable).toBe(false);
    expect(report.gates.map((g) => [g.metric, g.result, g.effect])).toEqual([
      ['judge_correctness_mean', 'not_comparable', 'none'],
      ['hit@1', 'pass', 'none'],
    ]);
    expect(report.verdict).toBe('pass');
  });

  it('the Markdown says so: a note, the gate row and the metric row', () => {
    const b = runData('b', results(5), { config: { judge_model: 'gpt-a' } });
    const c = runData('c', results(2), { config: { judge_model: 'gpt-b' } });
    const { report, defs } = compareAndGate(b, c, golden, config);
    const md = renderReportMarkdown(report, defs);
    expect(md).toContain('Judge model or prompt differs: judge scores are shown, not gated.');
    // the open gate table, then the gate's note in "All gates"
    expect(md).toMatch(/^\| `judge_correctness_mean` \| 2\.0000 \| −3\.0000 \| ≥ 4\.0000 \| ➖ not comparable \|$/m);
    expect(md).toMatch(
      /^\| `judge_correctness_mean` \| 5\.0000 \| 2\.0000 \| −3\.0000 \| ≥ 4\.0000 \| ➖ not comparable \| judge settings differ/m,
    );
    // key metrics row: the metric says it is not comparable
    expect(md).toMatch(
      /^\| `judge_correctness_mean` \(not comparable\) \| 5\.0000 \| 2\.0000 \| −3\.0000 \| — \| — \|$/m,
    );
  });

  it('judge prompt version differs: the same', () => {
    const report = compare(
      { judge_model: 'gpt-a', judge_prompt_version: '1' },
      { judge_model: 'gpt-a', judge_prompt_version: '2' },
    );
    expect(report.judge_comparable).toBe(false);
    expect(report.gates[0].result).toBe('not_comparable');
  });

  it('the same judge settings: compared and gated (5 -> 2 fails min 4)', () => {
    const report = compare(
      { judge_model: 'gpt-a', judge_prompt_version: '1' },
      { judge_model: 'gpt-a', judge_prompt_version: '1' },
    );
    expect(report.judge_comparable).toBe(true);
    expect(report.gates[0]).toMatchObject({ result: 'fail', effect: 'fail', candidate: 2 });
    expect(report.verdict).toBe('fail');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Determinism

describe('determinism', () => {
  const golden = goldenSet(
    Array.from({ length: 60 }, (_, i) =>
      chunkQuery(`q${String(i).padStart(2, '0')}`, { category: `c${i % 3}`, tags: [`t${i % 4}`] }),
    ),
  );
  const results = (shift: number) =>
    golden.queries.map((q, i) =>
      rankedResult(q.id, (i + shift) % 7 === 0 ? null : ((i * shift) % 6) + 1, { elapsedMs: 100 + i }),
    );
  const config = gates('preset: retrieval\ngates:\n  - metric: regressions\n    max: 0\n    level: warn\n');

  it('the same inputs give byte-identical JSON and Markdown', () => {
    const render = (b: ReturnType<typeof runData>, c: ReturnType<typeof runData>) => {
      const { report, defs } = compareAndGate(b, c, golden, config);
      return [
        stableJson(report),
        renderReportMarkdown(report, defs),
        renderReportMarkdown(report, defs, { maxLength: 3000 }),
      ];
    };
    const first = render(runData('b', results(1)), runData('c', results(5)));
    const second = render(runData('b', results(1)), runData('c', results(5)));
    expect(second).toEqual(first);
    // the order results are stored in does not matter either
    const shuffled = render(
      runData('b', results(1).reverse()),
      runData('c', [...results(5).slice(30), ...results(5).slice(0, 30)]),
    );
    expect(shuffled).toEqual(first);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The Cranfield fixtures

const fixture = (name: string) => join(repoRoot, 'fixtures', name);
describe('fixtures: runCompare on the Cranfield runs', () => {
  it('fixtures/baseline.sqlite, candidate.sqlite and golden.yaml exist', () => {
    for (const f of ['baseline.sqlite', 'candidate.sqlite', 'golden.yaml'])
      expect(existsSync(fixture(f)), f).toBe(true);
  });

  const inputs = {
    baselinePath: fixture('baseline.sqlite'),
    candidatePath: fixture('candidate.sqlite'),
    goldenPath: fixture('golden.yaml'),
  };
  let out: Awaited<ReturnType<typeof runCompare>>;
  let report: CompareReport;
  let goldenQueries = 0;
  beforeAll(async () => {
    out = await runCompare(inputs);
    report = out.report;
    // the golden set's non-pending queries, counted from the file itself
    goldenQueries = readGoldenFile(fixture('golden.yaml')).queries.filter((q) => !q.pending).length;
  });

  it('matches the JSON snapshot', async () => {
    await expect(out.json).toMatchFileSnapshot('__snapshots__/compare-fixtures.json');
  });

  it('chunker versions differ (whole-doc-v1 vs passage-v2) and chunks carry spans: fallback_doc_span', () => {
    expect(report.baseline).toMatchObject({
      run_id: 'baseline-whole-doc',
      chunker_version: 'whole-doc-v1',
      chunker_versions: ['whole-doc-v1'],
    });
    expect(report.candidate).toMatchObject({
      run_id: 'candidate-passages',
      chunker_version: 'passage-v2',
      chunker_versions: ['passage-v2'],
    });
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(report.differences).toEqual(expect.arrayContaining(['chunker_version', 'index_version']));
  });

  it('per-query counts sum to the number of golden queries, all in both runs', () => {
    // at least the 225 Cranfield queries
    expect(goldenQueries).toBeGreaterThanOrEqual(225);
    const { win, loss, draw, regression } = report.counts;
    expect(win + loss + draw + regression).toBe(goldenQueries);
    expect(report.per_query).toHaveLength(goldenQueries);
    expect(report.golden).toMatchObject({
      queries: goldenQueries,
      shared: goldenQueries,
      added: [],
      removed: [],
      pending: 0,
    });
    for (const kind of ['win', 'loss', 'draw', 'regression'] as const) {
      expect(report.per_query.filter((o) => o.kind === kind).length).toBe(report.counts[kind]);
    }
  });

  it('outcomes agree with the ranks they come from', () => {
    for (const o of report.per_query) {
      const b = o.baseline_rank;
      const c = o.candidate_rank;
      const kind =
        b === null
          ? c === null
            ? 'draw'
            : 'win'
          : c === null
            ? 'regression'
            : c < b
              ? 'win'
              : c > b
                ? 'loss'
                : 'draw';
      // kebab's regression: a draw or loss by rank whose candidate missed the baseline's expected chunk.
      const missed = o.note.endsWith(", the baseline's expected chunk missed");
      if (missed) expect(['draw', 'loss'], o.query_id).toContain(kind);
      expect(o.kind, o.query_id).toBe(missed ? 'regression' : kind);
    }
  });

  it('every delta is candidate - baseline; the verdict follows the gates; the default config is used', () => {
    for (const [id, m] of Object.entries(report.metrics)) {
      if (m.baseline !== null && m.candidate !== null) expect(m.delta, id).toBeCloseTo(m.candidate - m.baseline, 12);
      else expect(m.delta, id).toBeNull();
    }
    expect(report.gates.map((g) => g.metric)).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10', 'regressions']);
    expect(report.gates.find((g) => g.metric === 'regressions')!.candidate).toBe(report.counts.regression);
    expect(report.verdict).toBe(verdictOf(report.gates));
    // every query is in both runs, so the paired sample of hit@5 is its whole denominator (queries with expectations)
    expect(report.metrics['hit@5'].n_paired).toBe(report.metrics['hit@5'].n);
    expect(report.metrics['hit@5'].n).toBeGreaterThanOrEqual(225);
    // no judge settings in either run: comparable
    expect(report.judge_comparable).toBe(true);
  });

  it('the Markdown fits the comment limit and is well formed; a second run gives the same bytes', async () => {
    expect(out.markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(checkMarkdown(out.markdown).problems).toEqual([]);
    const again = await runCompare(inputs);
    expect(again.json).toBe(out.json);
    expect(again.markdown).toBe(out.markdown);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The CLI

describe.concurrent('CLI: evalgate compare exit codes and files', () => {
  const golden =
    '- id: q1\n  query: one\n  expected_chunk_ids: [r1]\n- id: q2\n  query: two\n  expected_chunk_ids: [r2]\n';
  /** Both queries found at rank 1 in the baseline; the candidate misses q2 when `regress`. */
  async function setup(options: { regress?: boolean; config?: string; chunker?: [string, string] } = {}) {
    const dir = tempDir();
    const [bv, cv] = options.chunker ?? ['v1', 'v1'];
    const baseline = await writeRunDb(
      {
        runs: [
          {
            runId: 'base',
            config: { chunker_version: bv },
            results: [result('q1', [hit(1, 'r1', 'd1')]), result('q2', [hit(1, 'r2', 'd2')])],
          },
        ],
      },
      join(dir, 'base.sqlite'),
    );
    const candidate = await writeRunDb(
      {
        runs: [
          {
            runId: 'cand',
            config: { chunker_version: cv },
            results: [result('q1', [hit(1, 'r1', 'd1')]), result('q2', [hit(1, options.regress ? 'x' : 'r2', 'dx')])],
          },
        ],
      },
      join(dir, 'cand.sqlite'),
    );
    const goldenFile = writeGolden(golden, dir);
    const configFile = writeGolden(options.config ?? 'gates:\n  - metric: hit@1\n    min: 0.5\n', dir, 'gates.yml');
    return { dir, args: ['compare', baseline, candidate, '--golden', goldenFile, '--config', configFile] };
  }

  it('pass: exit 0, and --markdown, --markdown-full and --json are written', async () => {
    const { dir, args } = await setup();
    const files = { md: join(dir, 'report.md'), full: join(dir, 'full.md'), json: join(dir, 'report.json') };
    const res = await spawnCli([...args, '--markdown', files.md, '--markdown-full', files.full, '--json', files.json]); // the bin as a child process
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^> \[!TIP\]\n> \*\*EvalGate: pass\*\* — the gate passed\n/);
    expect(readFileSync(files.md, 'utf8')).toBe(res.stdout);
    expect(readFileSync(files.full, 'utf8')).toBe(res.stdout); // small: nothing to cut
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as CompareReport;
    expect(json).toMatchObject({ verdict: 'pass', counts: { win: 0, loss: 0, draw: 2, regression: 0 } });
    expect(json.gates[0]).toMatchObject({ metric: 'hit@1', result: 'pass', baseline: 1, candidate: 1 });
  });

  it('warn: exit 0 (a warn-level gate fails)', async () => {
    const { args } = await setup({
      regress: true,
      config: 'gates:\n  - metric: regressions\n    max: 0\n    level: warn\n',
    });
    const res = await runCli(args);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(
      /^> \[!WARNING\]\n> \*\*EvalGate: pass with warnings\*\* — 1 gate warned\n>\n> - ⚠️ `regressions` 1; allowed: ≤ 0\n/,
    );
  });

  it('fail: exit 1 (hit@1 1 -> 0.5 below min 0.9)', async () => {
    const { dir, args } = await setup({ regress: true, config: 'gates:\n  - metric: hit@1\n    min: 0.9\n' });
    const json = join(dir, 'out.json');
    const res = await spawnCli([...args, '--json', json]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(
      /^> \[!CAUTION\]\n> \*\*EvalGate: fail\*\* — 1 of 1 gate failed\n>\n> - ❌ `hit@1` 0\.5000; allowed: ≥ 0\.9000\n/,
    );
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
      verdict: 'fail',
      gates: [{ result: 'fail', candidate: 0.5 }],
    });
  });

  it('a report over the comment limit: stdout and --markdown are cut and name the --markdown-full file, which has every row', async () => {
    // 900 queries with 100-character texts, all found at rank 1 by the baseline and missed by the candidate:
    // 900 regression rows of about 110 characters (text cut to 60) are about 99,000 characters, past the limit
    const dir = tempDir();
    const ids = Array.from({ length: 900 }, (_, i) => `q${String(i).padStart(3, '0')}`);
    const text = (id: string) => `${id} ${'where is the relevant passage about this topic '.repeat(2)}`.slice(0, 100);
    const goldenFile = writeGolden(
      ids.map((id) => `- id: ${id}\n  query: "${text(id)}"\n  expected_chunk_ids: [${id}-rel]\n`).join(''),
      dir,
    );
    const db = (runId: string, found: boolean) =>
      writeRunDb(
        {
          runs: [
            {
              runId,
              results: ids.map((id) => result(id, [hit(1, found ? `${id}-rel` : 'other', 'd')], { query: text(id) })),
            },
          ],
        },
        join(dir, `${runId}.sqlite`),
      );
    const [baseline, candidate] = await Promise.all([db('base', true), db('cand', false)]);
    const configFile = writeGolden('gates:\n  - metric: regressions\n    max: 0\n', dir, 'gates.yml');
    const files = { md: join(dir, 'comment.md'), full: join(dir, 'full.md') };
    const res = await runCli([
      'compare',
      baseline,
      candidate,
      '--golden',
      goldenFile,
      '--config',
      configFile,
      '--markdown',
      files.md,
      '--markdown-full',
      files.full,
    ]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(1);
    expect(res.stdout.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(readFileSync(files.md, 'utf8')).toBe(res.stdout);
    const left = res.stdout.match(
      /_(\d+) more rows of regressions and losses left out to fit GitHub's comment limit \(the least severe\); the full report is in `([^`]+)`\._/,
    );
    expect(left).not.toBeNull();
    expect(left![2]).toBe(files.full);
    const full = readFileSync(files.full, 'utf8');
    expect(full).not.toContain('left out');
    // every regression row is in the full report's list, after the ten worst shown open: one "| qNNN |" row each
    expect(full.match(/^\| q\d{3} \|/gm)).toHaveLength(900 + 10);
    expect(res.stdout.match(/^\| q\d{3} \|/gm)!.length - 10 + Number(left![1])).toBe(900);
  });

  it('a config typo: exit 2 naming the line and the closest metric', async () => {
    const { args } = await setup({
      config: 'gates:\n  - metric: hit@1\n    min: 0.5\n  - metric: nDGC@10\n    min: 0.5\n',
    });
    const res = await runCli(args);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/gates\.yml:4: unknown metric `nDGC@10`; did you mean `nDCG@10`\?/);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stdout).toBe('');
  });

  it('--strict-chunker-version with different chunker versions: exit 2 with a clear message', async () => {
    const { args } = await setup({ chunker: ['v1', 'v2'] });
    const res = await runCli([...args, '--strict-chunker-version']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(
      /^evalgate: chunker_version differs \(baseline .*base\.sqlite: v1, candidate .*cand\.sqlite: v2\) and --strict-chunker-version refuses to compare/,
    );
    expect(res.stderr).not.toMatch(STACK_LINE);
  });

  it('bad input: a missing golden file or database is exit 2', async () => {
    const { args, dir } = await setup();
    const noGolden = await spawnCli(args.map((a) => (a.endsWith('golden.yaml') ? join(dir, 'nope.yaml') : a)));
    expect(noGolden.status).toBe(2);
    expect(noGolden.stderr).toMatch(/nope\.yaml: cannot read the golden set \(no such file\)/);
    const noDb = await runCli(args.map((a) => (a.endsWith('cand.sqlite') ? join(dir, 'nope.sqlite') : a)));
    expect(noDb.status).toBe(2);
    expect(noDb.stderr).toMatch(/nope\.sqlite: cannot read the run database/);
  });
});

// Keep the in-memory compare honest about the markdown it feeds the renderer (a smoke test).
describe('the golden set a stored aggregate was computed on', () => {
  it('a baseline whose aggregate_json names another golden set: in its run summary and a warning line', async () => {
    const dir = tempDir();
    const [baseline, edited, golden] = [join(dir, 'b.sqlite'), join(dir, 'edited.yaml'), fixture('golden.yaml')];
    writeFileSync(baseline, readFileSync(fixture('baseline.sqlite')));
    // The same queries with one comment line more: another file, so another fingerprint.
    writeFileSync(edited, `# edited\n${readFileSync(golden, 'utf8')}`);
    await runAggregate({ runPath: baseline, goldenPath: edited, write: true });
    const out = await runCompare({
      baselinePath: baseline,
      candidatePath: fixture('candidate.sqlite'),
      goldenPath: golden,
    });
    const recorded = readGoldenFile(edited).fingerprint;
    expect(recorded).not.toBe(out.report.golden.fingerprint);
    expect(out.report.baseline?.recorded_golden_fingerprint).toBe(recorded);
    expect(out.report.candidate.recorded_golden_fingerprint).toBeNull();
    expect(out.markdown).toContain(
      `- ⚠️ The baseline run's stored aggregate was computed on another golden set (\`${recorded.slice(0, 19)}\`): both runs are scored here on \`${out.report.golden.fingerprint.slice(0, 19)}\`.`,
    );
    expect(out.markdown).not.toContain("The candidate run's stored aggregate");
    // Recorded on the golden set compared with: nothing to say.
    await runAggregate({ runPath: baseline, goldenPath: golden, write: true });
    const same = await runCompare({
      baselinePath: baseline,
      candidatePath: fixture('candidate.sqlite'),
      goldenPath: golden,
    });
    expect(same.report.baseline?.recorded_golden_fingerprint).toBe(same.report.golden.fingerprint);
    expect(same.markdown).not.toContain('stored aggregate was computed on another golden set');
  });
});

describe('compare + render', () => {
  it('a small report renders and fits', () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const { report, defs } = compareAndGate(
      runData('b', [rankedResult('q1', 1)]),
      runData('c', [rankedResult('q1', null)]),
      golden,
      NO_GATES,
    );
    const md = renderReportMarkdown(report, defs);
    expect(md.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
    expect(checkMarkdown(md).problems).toEqual([]);
  });
});
