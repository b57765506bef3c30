/**
 * compareRuns (src/compare/compare.ts) on runs built in memory: per-query outcomes and their notes, answer-side
 * changes, deltas of metrics and breakdowns, chunker-version fallbacks, streamed passes and releases, judge
 * comparability and determinism. Expected values are worked out by hand in the comments. The runs read from run
 * databases, the Cranfield fixtures and the CLI are in compareEndToEnd.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, resultsOf } from '../src/aggregate/score.js';
import type { AggregateOptions } from '../src/aggregate/score.js';
import { scoreToTable } from '../src/aggregate/table.js';
import {
  compareCandidateOnly,
  compareExactlyScored,
  compareRuns,
  declaredVersionsDiffer,
  prepareBaseline,
} from '../src/compare/compare.js';
import { exactSignTest } from '../src/stats/signTest.js';
import type { Comparison, QueryOutcome } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import type { ChunkRecord, RunData, RunStream } from '../src/types.js';
import { stableJson } from '../src/stableJson.js';
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
  // Compared inside each test, not here: mutation testing switches a mutant on for the tests only (docs/mutation.md).
  const compared = () => compareRuns(runData('base', side(1)), runData('cand', side(2)), golden).report;

  it.each(plan)('%s: baseline %s, candidate %s -> %s (%s)', (id, b, c, kind, note) => {
    const o = byId(compared()).get(id)!;
    expect(o.kind).toBe(kind);
    expect(o.note).toBe(note);
    expect(o.baseline_rank).toBe(b ?? null);
    expect(o.candidate_rank).toBe(c ?? null);
  });

  it('counts: 3 wins (qa, qb, qh), 1 loss (qc), 2 draws (qd, qe), 2 regressions (qf, qg), summing to 8 queries', () => {
    const report = compared();
    expect(report.counts).toEqual({ win: 3, loss: 1, draw: 2, regression: 2, answer_regression: 0 });
    expect(report.per_query).toHaveLength(8);
  });

  it('the union of query ids: qh only in the candidate, qg only in the baseline', () => {
    const report = compared();
    expect(report.golden).toMatchObject({ queries: 8, added: ['qh'], removed: ['qg'], shared: 6 });
  });

  it('deltas: hit@3 0.625 -> 0.5, mrr@10 5/12 -> 13/32, hit@1 unchanged', () => {
    const report = compared();
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
    const report = compared();
    // hit@3 differences over qa..qh: [+1, 0, -1, 0, 0, -1, -1 (qg missing), +1 (qh missing)]: m = 5, 2 positive:
    // |X - 2.5| >= 0.5 always, p = 1
    expect(report.metrics['hit@3']).toMatchObject({ n_paired: 8, p_value: 1, significant: false });
    // mrr@10 differences, in twelfths: qa +6, qb +8 (1 - 1/3), qc -9 (1/4 - 1), qf -12, qg -6, qh +12; observed
    // |sum| = 1, and with one odd term every sign pattern's |sum| is odd, so >= 1: p = 64/64
    expect(report.metrics['mrr@10']).toMatchObject({ n_paired: 8, p_value: 1 });
  });

  it('breakdowns: hit@3 by category (alpha = qa..qd, beta = qe..qh)', () => {
    const report = compared();
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
  const compared = () => compareRuns(base, cand, golden).report;

  it('rel_delta is null when the baseline is 0', () => {
    const report = compared();
    // hit@1: 0 -> 1/2, delta 0.5, relative change undefined
    expect(report.metrics['hit@1']).toMatchObject({ baseline: 0, candidate: 0.5, delta: 0.5, rel_delta: null });
  });

  it('delta and rel_delta are null where either side is null', () => {
    const report = compared();
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
    const report = compared();
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
    // no expectations, no nDCG@10 on either side: no per-query delta (null, not NaN)
    expect(o.get('u1')!.metric_delta).toBeNull();
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
  const compared = () => compareRuns(base, cand, golden).report;

  it('differences lists the settings that differ, sorted', () => {
    const report = compared();
    expect(report.differences).toEqual(['chunker_version', 'embedding_model', 'index_version', 'prompt_version']);
  });

  it('a retrieval change and a draw: the note says only the ranks', () => {
    const report = compared();
    expect(byId(report).get('q1')!.note).toBe('miss -> rank 1');
    expect(byId(report).get('q3')!.note).toBe('rank 2 -> rank 2');
  });

  it('an answer change says only what changed', () => {
    const report = compared();
    expect(byId(report).get('q2')!.answer_changes).toEqual(['groundedness pass -> fail']);
  });

  it("each outcome carries the delta of the report's per-query metric (nDCG@10): q1 miss -> rank 1 gains 1", () => {
    const report = compared();
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

  it('a query without expectations says no chunk match in its note, whatever the run matched by', () => {
    const withQ4 = goldenSet([...golden.queries, goldenQuery('q4', { answerable: false })]);
    const { report } = compareAndGate(base, cand, withQ4, NO_GATES);
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(byId(report).get('q4')).toMatchObject({ note: 'no relevance expectations', chunk_match: 'exact' });
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

  it("a side that fell back numbers its expectations otherwise: the baseline's met chunk is not read as lost", () => {
    // Expected [B, A]. The baseline's table holds both: expectations B (bit 0), A (bit 1). The candidate's lacks B,
    // so dB stands for it: expectations A (bit 0), dB (bit 1). Both find B's passage at rank 1: a draw. Read bit by
    // bit across the two modes, the baseline's bit 0 (B) would look unmet in the candidate (its bit 0 is A).
    const q = goldenSet([goldenQuery('q', { expectedChunkIds: ['B', 'A'], expectedDocIds: ['dA', 'dB'] })]);
    const tables = { config: { chunker_version: 'v1' } };
    const baseRun = runData('b', [queryResult('q', [mkHit(1, 'B', 'dB')])], {
      ...tables,
      chunks: [chunk('A', 'dA', [[1, 4]], 'v1'), chunk('B', 'dB', [[1, 4]], 'v1')],
    });
    const candRun = runData('c', [queryResult('q', [mkHit(1, 'B2', 'dB')])], {
      ...tables,
      chunks: [chunk('A', 'dA', [[1, 4]], 'v1'), chunk('B2', 'dB', [[1, 4]], 'v1')],
    });
    const { report } = compareAndGate(baseRun, candRun, q, NO_GATES);
    expect(report.chunker_version_match).toBe('exact');
    expect(report.per_query.map((o) => [o.baseline_rank, o.candidate_rank, o.kind, o.chunk_match])).toEqual([
      [1, 1, 'draw', 'fallback_expected_doc'],
    ]);
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
    // No chunks table holds q1-old or q2-old: the golden set's expected_doc_ids name their document D, which both
    // candidate hits are in (kebab's re-chunk rule, docs/compare.md): no regression.
    expect(report.counts.regression).toBe(0);
    expect(report.per_query.map((o) => o.chunk_match)).toEqual(['fallback_expected_doc', 'fallback_expected_doc']);
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

  it('a deferred candidate declared different: it is opened and scored once, with the fallback only', () => {
    const log: string[] = [];
    const declared = (run: RunData, version: string): RunData => ({
      ...run,
      run: { ...run.run, chunkerVersion: version },
    });
    compareRuns(loggedStream(declared(base(), 'v1'), log), () => loggedStream(declared(cand('v2'), 'v2'), log), golden);
    // the baseline's exact pass happens before the candidate is known; the candidate has no exact pass
    expect(log).toEqual(['pass b', 'release b', 'pass b', 'release b', 'pass c', 'release c']);
  });

  it('strictChunkerVersion refuses versions that only the hits reveal', () => {
    expect(() => compareRuns(base(), () => cand('v2'), golden, { strictChunkerVersion: true })).toThrow(
      /chunker_version differs \(baseline b\.sqlite: v1, candidate c\.sqlite: v2\)/,
    );
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

// Keep the in-memory compare honest about the markdown it feeds the renderer (a smoke test).
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

// ---------------------------------------------------------------------------------------------------------
// The pipeline's entry points: a candidate alone, runs scored ahead (in parallel), declared versions

describe('compareCandidateOnly, compareExactlyScored, declaredVersionsDiffer, in process', () => {
  const golden = goldenSet([
    chunkQuery('q1', { category: 'alpha' }),
    chunkQuery('q2', { category: 'alpha' }),
    chunkQuery('q3', { category: 'beta' }),
  ]);
  // q1 at rank 1 (twice: a duplicate row), q2 missed, q3 has no result; zz is not in the golden set
  const candidateResults = () => [
    rankedResult('q1', 1),
    rankedResult('q1', 1),
    rankedResult('q2', null),
    rankedResult('zz', 1),
  ];
  const exact: AggregateOptions = { ...DEFAULT_OPTIONS, chunkMatch: 'exact', referenceChunks: null };
  const table = (run: ReturnType<typeof runData>) => scoreToTable(run, golden, exact);

  it('a candidate alone: its own values, every baseline-side value null, no outcomes, no baseline lists', () => {
    const log: string[] = [];
    const { report, defs } = compareCandidateOnly(() => {
      log.push('open');
      return { ...resultsOf(runData('c', candidateResults())), release: () => log.push('release') };
    }, golden);
    expect(log).toEqual(['open', 'release']);
    expect(defs.some((d) => d.id === 'hit@1')).toBe(true);
    // hit@1: q1 of 3 queries (q3 counts as a miss) = 1/3
    expect(report.metrics['hit@1']).toEqual({
      baseline: null,
      candidate: 1 / 3,
      delta: null,
      rel_delta: null,
      n: 3,
      n_baseline: 0,
      n_paired: null,
      p_value: null,
      ci: null,
      significant: null,
      comparable: true,
    });
    // alpha: q1 hit, q2 miss = 1/2; beta: q3 missing = 0
    expect(report.breakdowns.category.alpha['hit@1']).toMatchObject({ baseline: null, candidate: 0.5, delta: null });
    expect(report.breakdowns.category.beta['hit@1']).toMatchObject({ baseline: null, candidate: 0, n_baseline: 0 });
    expect(report.chunker_version_match).toBe('exact');
    expect(report.baseline).toBeNull();
    expect(report.candidate?.run_id).toBe('c');
    expect(report.differences).toEqual([]);
    expect(report.per_query).toEqual([]);
    expect(report.counts).toEqual({ win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 });
    expect(report.golden).toMatchObject({
      queries: 3,
      added: [],
      removed: [],
      unknown_query_ids: { baseline: [], candidate: ['zz'] },
      duplicate_query_ids: { baseline: [], candidate: ['q1'] },
    });
  });

  it('a candidate alone, given in memory (no release) and with options: the options are used', () => {
    const { report } = compareCandidateOnly(runData('c', candidateResults()), golden, { ks: [1, 2], seed: 5 });
    expect(report.options).toMatchObject({ ks: [1, 2], seed: 5, permutations: 10_000 });
    expect(report.metrics['hit@2'].candidate).toBe(1 / 3);
  });

  it('runs scored ahead with the same chunker: the report compareRuns gives; options default as there', () => {
    const base = runData('b', [rankedResult('q1', 2), rankedResult('q2', 1), rankedResult('q3', 3)]);
    const cand = runData('c', candidateResults());
    const ahead = compareExactlyScored(table(base), table(cand))!;
    expect(ahead.report.chunker_version_match).toBe('exact');
    expect(stableJson(ahead.report)).toBe(stableJson(compareRuns(base, cand, golden).report));
    expect(ahead.report.options).toMatchObject({ seed: 20260101, permutations: 10_000 });
  });

  it('the same tables compared again with other cutoffs: metrics of the new cutoffs, not the cached ones', () => {
    const bs = table(runData('b', [rankedResult('q1', 2), rankedResult('q2', 1), rankedResult('q3', 3)]));
    const cs = table(runData('c', candidateResults()));
    // (the tables hold the default cutoffs' columns, 1, 3, 5 and 10)
    const first = compareExactlyScored(bs, cs, { ks: [1, 3] })!.report;
    const second = compareExactlyScored(bs, cs, { ks: [5] })!.report;
    // baseline ranks 2, 1, 3: hit@1 1/3, hit@3 and hit@5 3/3; candidate q1 at 1 only: 1/3 at every cutoff
    expect(first.metrics['hit@1']).toMatchObject({ baseline: 1 / 3, candidate: 1 / 3 });
    expect(first.metrics['hit@3']).toMatchObject({ baseline: 1, candidate: 1 / 3 });
    expect(second.metrics['hit@5']).toMatchObject({ baseline: 1, candidate: 1 / 3 });
    expect(second.metrics['hit@3']).toBeUndefined();
  });

  it('the baseline measured ahead (prepareBaseline) gives the same report as measured at the comparison', () => {
    const base = runData('b', [rankedResult('q1', 2), rankedResult('q2', 1), rankedResult('q3', 3)]);
    const bs = table(base);
    const ahead = prepareBaseline(bs, exact);
    expect(ahead.table).toBe(bs);
    const prepared = compareExactlyScored(bs, table(runData('c', candidateResults())), {}, ahead)!.report;
    expect(stableJson(prepared)).toBe(
      stableJson(compareExactlyScored(table(base), table(runData('c', candidateResults())))!.report),
    );
  });

  it('a prepared baseline is used only for its own table and options: no state is left behind in compare', () => {
    const base = runData('b', [rankedResult('q1', 2), rankedResult('q2', 1), rankedResult('q3', 3)]);
    const bs = table(base);
    const ahead = prepareBaseline(bs, exact);
    // other cutoffs than it was measured with: measured again (hit@1 of the baseline, ranks 2, 1, 3: 1/3)
    const other = compareExactlyScored(bs, table(runData('c', candidateResults())), { ks: [1] }, ahead)!.report;
    expect(other.metrics['hit@1']).toMatchObject({ baseline: 1 / 3 });
    expect(other.metrics['hit@3']).toBeUndefined();
    // another baseline table than the prepared one: its own values, not the prepared table's
    const cand = table(runData('c', candidateResults()));
    const swapped = compareExactlyScored(cand, table(base), {}, ahead)!.report;
    expect(swapped.metrics['hit@3']).toMatchObject({ baseline: 1 / 3, candidate: 1 });
  });

  it('runs scored ahead whose hits carry different chunker versions: null (to be scored again), or refused', () => {
    const hits = (id: string, version: string) =>
      runData(id, [queryResult('q1', [mkHit(1, 'q1-rel', 'doc-q1', { chunkerVersion: version })])]);
    expect(compareExactlyScored(table(hits('b', 'v1')), table(hits('c', 'v2')))).toBeNull();
    expect(() =>
      compareExactlyScored(table(hits('b', 'v1')), table(hits('c', 'v2')), { strictChunkerVersion: true }),
    ).toThrow(/chunker_version differs \(baseline b\.sqlite: v1, candidate c\.sqlite: v2\)/);
    expect(compareExactlyScored(table(hits('b', 'v1')), table(hits('c', 'v1')))?.report.chunker_version_match).toBe(
      'exact',
    );
  });

  it('declared versions: differ only when both runs declare one and they differ; strict refuses then', () => {
    const declared = (id: string, version?: string, chunks?: ReturnType<typeof chunk>[]) =>
      runData(id, [], { config: version === undefined ? {} : { chunker_version: version }, chunks });
    expect(declaredVersionsDiffer(declared('b', 'v1'), declared('c', 'v2'), false)).toBe(true);
    expect(() => declaredVersionsDiffer(declared('b', 'v1'), declared('c', 'v2'), true)).toThrow(InputError);
    expect(() => declaredVersionsDiffer(declared('b', 'v1'), declared('c', 'v2'), true)).toThrow(
      /chunker_version differs \(baseline b\.sqlite: v1, candidate c\.sqlite: v2\)/,
    );
    expect(declaredVersionsDiffer(declared('b', 'v1'), declared('c', 'v1'), true)).toBe(false);
    // undeclared on either side (no config value, no chunks table): only the hits can tell, later
    expect(declaredVersionsDiffer(declared('b', 'v1'), declared('c'), true)).toBe(false);
    expect(declaredVersionsDiffer(declared('b'), declared('c', 'v2'), true)).toBe(false);
    expect(declaredVersionsDiffer(declared('b'), declared('c'), true)).toBe(false);
    // a chunks table declares its versions: v1 vs v2
    const withChunks = (id: string, version: string) => declared(id, undefined, [chunk(`${id}-1`, 'D', [], version)]);
    expect(declaredVersionsDiffer(withChunks('b', 'v1'), withChunks('c', 'v2'), false)).toBe(true);
    expect(declaredVersionsDiffer(withChunks('b', 'v1'), withChunks('c', 'v1'), false)).toBe(false);
  });
});

describe('compareRuns: missing and duplicate rows, deltas, the paired test and the options at their edges', () => {
  it('queries missing from one run or both: their notes, added, removed and shared', () => {
    const golden = goldenSet(['q1', 'q2', 'q3', 'q4'].map((id) => chunkQuery(id)));
    const { report } = compareRuns(
      runData('b', [rankedResult('q2', null), rankedResult('q4', 1)]),
      runData('c', [rankedResult('q1', null), rankedResult('q4', 1)]),
      golden,
    );
    // a miss on one side and no result on the other is not "miss in both": the note says which side lacks it
    expect(report.per_query.map((o) => [o.query_id, o.kind, o.note])).toEqual([
      ['q1', 'draw', 'missing -> miss'],
      ['q2', 'draw', 'miss -> missing'],
      ['q3', 'draw', 'missing -> missing'],
      ['q4', 'draw', 'rank 1 -> rank 1'],
    ]);
    // q3 is in neither run: neither added nor removed
    expect(report.golden).toMatchObject({ added: ['q1'], removed: ['q2'], shared: 1 });
  });

  it('duplicate result rows are listed per run, sorted', () => {
    const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
    // second rows of q2, then q1: listed q1, q2
    const rows = () => [rankedResult('q2', 1), rankedResult('q1', 1), rankedResult('q2', 1), rankedResult('q1', 1)];
    const { report } = compareRuns(runData('b', rows()), runData('c', [...rows(), rankedResult('q2', 2)]), golden);
    expect(report.golden.duplicate_query_ids).toEqual({ baseline: ['q1', 'q2'], candidate: ['q1', 'q2'] });
  });

  it('differences are sorted whatever order the configs list their keys in', () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const { report } = compareRuns(
      runData('b', [rankedResult('q1', 1)], { config: { zeta: 1, alpha: 1, same: 0 } }),
      runData('c', [rankedResult('q1', 1)], { config: { zeta: 2, alpha: 2, same: 0 } }),
      golden,
    );
    expect(report.differences).toEqual(['alpha', 'zeta']);
  });

  it('a candidate without a value the baseline has: delta and rel_delta null, not -baseline', () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const { report } = compareRuns(
      runData('b', [rankedResult('q1', 1, { judge: judgeScores({ correctness: 4 }) })]),
      runData('c', [rankedResult('q1', 1)]),
      golden,
    );
    expect(report.metrics.judge_correctness_mean).toMatchObject({ baseline: 4, candidate: null, delta: null });
    expect(report.metrics.judge_correctness_mean.rel_delta).toBeNull();
  });

  it('answer changes need a known value on both sides; judge changes cross 4 and 3 exactly', () => {
    const golden = goldenSet(
      ['r1', 'r2', 'g1', 'g2', 'g3', 'g4', 'j1', 'j2', 'j3', 'j4', 'j5', 'j6'].map((id) =>
        goldenQuery(id, id.startsWith('g') ? { mustContain: ['Paris'] } : {}),
      ),
    );
    const none = (id: string) => queryResult(id, []); // no answer, no abstained flag: refusal and grounding unknown
    const answered = (id: string, text = 'Paris', extra = {}) =>
      queryResult(id, [], { answer: mkAnswer(text), abstained: false, ...extra });
    const refused = (id: string) =>
      queryResult(id, [], { answer: mkAnswer('no', { grounded: false }), abstained: true });
    const judged = (id: string, correctness?: number) =>
      correctness === undefined ? answered(id) : answered(id, 'Paris', { judge: judgeScores({ correctness }) });
    const judge = { judge_model: 'judge-1', judge_prompt_version: 'v1' };
    const { report } = compareRuns(
      runData(
        'b',
        [
          none('r1'),
          refused('r2'),
          answered('g1', 'Paris'),
          none('g2'),
          answered('g3', 'Paris'),
          answered('g4', 'Lyon'),
          judged('j1', 4),
          judged('j2', 3),
          judged('j3', 3),
          judged('j4', 2),
          judged('j5'),
          judged('j6', 5),
        ],
        { config: judge },
      ),
      runData(
        'c',
        [
          refused('r1'),
          none('r2'),
          none('g1'),
          answered('g2', 'Lyon'),
          answered('g3', 'Paris again'),
          answered('g4', 'Paris'),
          judged('j1', 2),
          judged('j2', 1),
          judged('j3', 4),
          judged('j4', 3),
          judged('j5', 5),
          judged('j6'),
        ],
        { config: judge },
      ),
      golden,
    );
    const changes = Object.fromEntries(report.per_query.map((o) => [o.query_id, o.answer_changes]));
    expect(changes).toEqual({
      r1: [], // refusal unknown -> refused
      r2: [], // refused -> unknown
      g1: [], // grounded -> no answer
      g2: [], // no answer -> not grounded
      g3: [], // grounded on both sides
      g4: ['groundedness fail -> pass'],
      j1: ['judge correctness 4 -> 2'], // 4 is ">= 4", 2 is "< 3"
      j2: [], // 3 -> 1: 3 was not ">= 4"
      j3: [], // 3 -> 4: 3 was not "< 3"
      j4: [], // 2 -> 3: 3 is not ">= 4"
      j5: [], // no score -> 5
      j6: [], // 5 -> no score
    });
    // only j1 is a regression (g4 improved)
    expect(report.per_query.filter((o) => o.answer_regression).map((o) => o.query_id)).toEqual(['j1']);
  });

  it('the paired test leaves out queries without a value on a side: groundedness pairs 2 of 3', () => {
    const golden = goldenSet(['g1', 'g2', 'g3'].map((id) => goldenQuery(id, { mustContain: ['Paris'] })));
    const answered = (id: string, text: string) => queryResult(id, [], { answer: mkAnswer(text), abstained: false });
    const { report } = compareRuns(
      runData('b', [answered('g1', 'Paris'), answered('g2', 'Paris'), answered('g3', 'Paris')]),
      runData('c', [answered('g1', 'Lyon'), answered('g2', 'Paris'), queryResult('g3', [])]),
      golden,
    );
    const m = report.metrics.groundedness;
    // g3 has no answer in the candidate: no groundedness there; differences g1 -1, g2 0: p = 1 (one non-zero)
    expect(m.n_paired).toBe(2);
    expect(m.p_value).toBe(1);
    // the same with the answer missing on the baseline's side
    const reversed = compareRuns(
      runData('b', [answered('g1', 'Paris'), answered('g2', 'Paris'), queryResult('g3', [])]),
      runData('c', [answered('g1', 'Lyon'), answered('g2', 'Paris'), answered('g3', 'Paris')]),
      golden,
    ).report.metrics.groundedness;
    expect(reversed.n_paired).toBe(2);
    expect(reversed.p_value).toBe(1);
  });

  it('significant means p < alpha: at alpha exactly the p-value, not significant', () => {
    const golden = goldenSet(Array.from({ length: 8 }, (_, i) => chunkQuery(`q${i}`)));
    const base = runData(
      'b',
      golden.queries.map((q) => rankedResult(q.id, null)),
    );
    const cand = runData(
      'c',
      golden.queries.map((q) => rankedResult(q.id, 1)),
    );
    // hit@1: 8 differences of +1, the sign test's p = 2/256 (as the test computes it)
    const p = exactSignTest(8, 8);
    expect(compareRuns(base, cand, golden, { alpha: p }).report.metrics['hit@1']).toMatchObject({
      p_value: p,
      significant: false,
    });
    expect(compareRuns(base, cand, golden, { alpha: 0.05 }).report.metrics['hit@1'].significant).toBe(true);
  });

  it("the per-query metric is nDCG at the largest cutoff when 10 is not one; each stage's latency, sorted", () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const { report } = compareRuns(
      runData('b', [rankedResult('q1', 1, { timingsMs: { zeta: 10 } })]),
      runData('c', [rankedResult('q1', 1, { timingsMs: { alpha: 20 } })]),
      golden,
      { ks: [1, 5] },
    );
    expect(report.per_query_metric).toBe('nDCG@5');
    // stages of both runs: alpha (the candidate's), zeta (the baseline's), in that order
    expect(Object.keys(report.metrics).filter((id) => id.endsWith('_latency_p50_ms'))).toEqual([
      'alpha_latency_p50_ms',
      'zeta_latency_p50_ms',
    ]);
    expect(report.metrics.zeta_latency_p50_ms).toMatchObject({ baseline: 10, candidate: null });
  });

  it('a metric profile other than evalverdict is named in the options; evalverdict and none are not', () => {
    const golden = goldenSet([chunkQuery('q1')]);
    const run = (id: string) => runData(id, [rankedResult('q1', 1)]);
    expect(compareRuns(run('b'), run('c'), golden, { profile: 'wfgy' }).report.options.profile).toBe('wfgy');
    expect('profile' in compareRuns(run('b'), run('c'), golden, { profile: 'evalverdict' }).report.options).toBe(false);
    expect('profile' in compareRuns(run('b'), run('c'), golden).report.options).toBe(false);
  });

  it('a baseline given as a function is opened and compared as one given directly', () => {
    const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
    const base = () => runData('b', [rankedResult('q1', 1), rankedResult('q2', null)]);
    const cand = () => runData('c', [rankedResult('q1', 2), rankedResult('q2', 1)]);
    expect(stableJson(compareRuns(base, cand, golden).report)).toBe(
      stableJson(compareRuns(base(), cand(), golden).report),
    );
  });

  describe('chunker versions: declared, carried by hits, and the fallback', () => {
    const golden = goldenSet(['q1', 'q2'].map((id) => goldenQuery(id, { expectedChunkIds: ['old-1'] })));
    const hitsOf = (
      id: string,
      versions: Array<string | null>,
      config: Record<string, unknown> = {},
      chunks?: ChunkRecord[],
    ) =>
      runData(
        id,
        versions.map((v, i) => queryResult(`q${i + 1}`, [mkHit(1, 'old-1', 'D', { chunkerVersion: v })])),
        { config, chunks },
      );

    it('a version declared on one side only: the hits decide, and equal hits mean an exact match', () => {
      const declared = { chunker_version: 'v1' };
      expect(
        compareRuns(hitsOf('b', ['v1', 'v1'], declared), hitsOf('c', ['v1', 'v1']), golden).report
          .chunker_version_match,
      ).toBe('exact');
      expect(
        compareRuns(hitsOf('b', ['v1', 'v1']), hitsOf('c', ['v1', 'v1'], declared), golden).report
          .chunker_version_match,
      ).toBe('exact');
    });

    it('a declared version outranks the versions the hits carry', () => {
      const declared = { chunker_version: 'v1' };
      const b = hitsOf('b', ['x', 'x'], declared);
      const c = hitsOf('c', ['y', 'y'], declared);
      expect(compareRuns(b, c, golden).report.chunker_version_match).toBe('exact');
      expect(
        compareExactlyScored(scoreToTable(b, golden, DEFAULT_OPTIONS), scoreToTable(c, golden, DEFAULT_OPTIONS)),
      ).not.toBeNull();
    });

    it('strict refusals name each side: unset without any version, a sorted list of several', () => {
      const strict = { strictChunkerVersion: true };
      expect(() => compareRuns(hitsOf('b', [null, null]), hitsOf('c', ['v2', 'v2']), golden, strict)).toThrow(
        /\(baseline b\.sqlite: unset, candidate c\.sqlite: v2\)/,
      );
      expect(() => compareRuns(hitsOf('b', ['v2', 'v1']), hitsOf('c', [null, null]), golden, strict)).toThrow(
        /\(baseline b\.sqlite: v1, v2, candidate c\.sqlite: unset\)/,
      );
      // chunks tables of two versions, listed v2 first in one and v1 first in the other: the same sorted list
      const tables = (id: string, versions: string[]) =>
        hitsOf(
          id,
          ['v1', 'v1'],
          {},
          versions.map((v, i) => chunk(`${id}-${i}`, 'D', [], v)),
        );
      expect(declaredVersionsDiffer(tables('b', ['v2', 'v1']), tables('c', ['v1', 'v2']), true)).toBe(false);
      expect(() => declaredVersionsDiffer(tables('b', ['v2', 'v1']), tables('c', ['v3']), true)).toThrow(
        /\(baseline b\.sqlite: v1, v2, candidate c\.sqlite: v3\)/,
      );
    });

    it('spans known only from one chunks table (no citations): fallback_doc_span where the expected chunk has one', () => {
      const withSpans = [chunk('old-1', 'D', [[1, 10]], 'v1')];
      const noSpans = [chunk('new-1', 'D', [], 'v2')];
      const b = hitsOf('b', ['v1', 'v1'], { chunker_version: 'v1' }, withSpans);
      const c = hitsOf('c', ['v2', 'v2'], { chunker_version: 'v2' }, noSpans);
      expect(compareRuns(b, c, golden).report.chunker_version_match).toBe('fallback_doc_span');
      // The expected chunk has no span: its queries match by document alone, whatever spans the candidate's
      // table has, and the report says the mode the queries used.
      const b2 = hitsOf('b', ['v1', 'v1'], { chunker_version: 'v1' }, [chunk('old-1', 'D', [], 'v1')]);
      const c2 = hitsOf('c', ['v2', 'v2'], { chunker_version: 'v2' }, [chunk('new-1', 'D', [[1, 10]], 'v2')]);
      expect(compareRuns(b2, c2, golden).report.chunker_version_match).toBe('fallback_doc');
    });

    it("the fallback finds an expected chunk in the candidate's chunks table, or with one run's table only", () => {
      // The golden set names new-d, a chunk of the candidate's chunker (D lines 3-9). The baseline's old-1 (D lines
      // 1-10) covers all of it, so the baseline finds it at rank 1 through the candidate's table.
      const expectsNew = goldenSet([goldenQuery('q1', { expectedChunkIds: ['new-d'] })]);
      const b = runData('b', [queryResult('q1', [mkHit(1, 'old-1', 'D')])], {
        config: { chunker_version: 'v1' },
        chunks: [chunk('old-1', 'D', [[1, 10]], 'v1')],
      });
      const c = runData('c', [queryResult('q1', [mkHit(1, 'new-d', 'D')])], {
        config: { chunker_version: 'v2' },
        chunks: [chunk('new-d', 'D', [[3, 9]], 'v2')],
      });
      const both = compareRuns(b, c, expectsNew).report;
      expect(both.per_query[0]).toMatchObject({ baseline_rank: 1, candidate_rank: 1 });
      // without the candidate's table nothing says where new-d is: the baseline misses it, the candidate matches
      // its id exactly
      const noTable = compareRuns(b, { ...c, chunks: null }, expectsNew).report;
      expect(noTable.per_query[0]).toMatchObject({ baseline_rank: null, candidate_rank: 1 });
    });
  });
});

describe('compareRuns: per-query rows of regressions, exact matching, the vault breakdown, unmeasured stages', () => {
  const golden = goldenSet([
    goldenQuery('q1', { expectedChunkIds: ['c1'] }),
    goldenQuery('q2', { expectedChunkIds: ['c2'] }),
    goldenQuery('q3', { expectedChunkIds: ['c3'] }),
    goldenQuery('q4', { expectedChunkIds: ['c4'] }),
  ]);
  const base = runData('b', [
    queryResult('q1', [mkHit(1, 'c1', 'd')]), // found at 1; the candidate misses it: regression
    queryResult('q2', [mkHit(1, 'x', 'd'), mkHit(2, 'c2', 'd')]), // 2 -> 3: loss
    queryResult('q3', [mkHit(1, 'x', 'd'), mkHit(2, 'c3', 'd')]), // 2 -> 1: win
    queryResult('q4', [mkHit(1, 'c4', 'd')]), // 1 -> 1: draw
  ]);
  const cand = (options: Parameters<typeof runData>[2] = {}) =>
    runData(
      'c',
      [
        queryResult('q1', [mkHit(1, 'x', 'd')]),
        queryResult('q2', [mkHit(1, 'x', 'd'), mkHit(2, 'y', 'd'), mkHit(3, 'c2', 'd')]),
        queryResult('q3', [mkHit(1, 'c3', 'd')]),
        queryResult('q4', [mkHit(1, 'c4', 'd')]),
      ],
      options,
    );

  it("a regression and a loss carry the candidate's per-query row; a win and a draw do not", () => {
    const { report } = compareRuns(base, cand(), golden);
    expect(report.per_query.map((o) => [o.query_id, o.kind, o.candidate_row !== undefined])).toEqual([
      ['q1', 'regression', true],
      ['q2', 'loss', true],
      ['q3', 'win', false],
      ['q4', 'draw', false],
    ]);
    expect(byId(report).get('q2')?.candidate_row).toMatchObject({ first_relevant_rank: 3, hits_returned: 3 });
    // Without a chunks table nothing says whether a snippet is there: no hallucination count.
    expect(byId(report).get('q1')?.candidate_row?.hallucination_count).toBeNull();
    const withChunks = compareRuns(base, cand({ chunks: [chunk('x', 'd', [], 'v1')] }), golden).report;
    expect(byId(withChunks).get('q1')?.candidate_row?.hallucination_count).toBe(0);
  });

  it('matched exactly: no chunk_match per query and no chunk_match_queries', () => {
    const { report } = compareRuns(base, cand(), golden);
    expect(report.chunker_version_match).toBe('exact');
    expect('chunk_match_queries' in report).toBe(false);
    expect(report.per_query.some((o) => 'chunk_match' in o)).toBe(false);
  });

  it('the vault breakdown only where some query has a vault', () => {
    expect(compareRuns(base, cand(), golden).report.breakdowns.vault).toBeUndefined();
    const vaulted = goldenSet(golden.queries.map((q, i) => ({ ...q, vault: i < 2 ? 'work' : 'personal' })));
    const { report, groupSizes } = compareRuns(base, cand(), vaulted);
    expect(Object.keys(report.breakdowns.vault ?? {}).sort()).toEqual(['personal', 'work']);
    expect(groupSizes.vault).toEqual({ work: 2, personal: 2 });
    // hit@1 of the work queries: the baseline finds q1 at 1 (1 of 2), the candidate neither
    expect(report.breakdowns.vault.work['hit@1']).toMatchObject({ baseline: 0.5, candidate: 0 });
  });

  it('the stage timings each run left unmeasured, for the warning (none here; the candidate alone has none either)', () => {
    expect(compareRuns(base, cand(), golden).ignoredStageTimings).toEqual({ baseline: 0, candidate: 0 });
    expect(compareCandidateOnly(cand(), golden).ignoredStageTimings).toEqual({ baseline: 0, candidate: 0 });
    const timed = (n: number) =>
      runData(
        'c',
        golden.queries.map((q, i) =>
          queryResult(q.id, [], {
            timingsMs: Object.fromEntries(Array.from({ length: n }, (_, s) => [`s${i}-${s}`, s])),
          }),
        ),
      );
    // 4 results x 20 stages, every name distinct: 80 names, 64 measured, the timings of 16 ignored.
    expect(compareRuns(base, timed(20), golden).ignoredStageTimings).toEqual({ baseline: 0, candidate: 16 });
    expect(compareCandidateOnly(timed(20), golden).ignoredStageTimings).toEqual({ baseline: 0, candidate: 16 });
  });
});

describe("kebab's regression reads a query's first 32 expectations", () => {
  it('a baseline hit meeting only the 33rd expectation: a draw by rank stays a draw (nothing to say it was missed)', () => {
    const ids = Array.from({ length: 33 }, (_, i) => `e${i}`);
    const golden = goldenSet([goldenQuery('q1', { expectedChunkIds: ids })]);
    const base = runData('b', [queryResult('q1', [mkHit(1, 'e32', 'd')])]);
    const cand = runData('c', [queryResult('q1', [mkHit(1, 'e0', 'd')])]);
    const { report } = compareRuns(base, cand, golden);
    expect(report.per_query.map((o) => [o.kind, o.note])).toEqual([['draw', 'rank 1 -> rank 1']]);
    // Within the first 32 the same change is kebab's regression.
    const within = runData('b', [queryResult('q1', [mkHit(1, 'e31', 'd')])]);
    expect(compareRuns(within, cand, golden).report.per_query[0].kind).toBe('regression');
  });
});
