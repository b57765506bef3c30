/**
 * kebab's own definitions (../shared/seeds/000-kebab-eval-metrics-and-compare.txt, task p5-2 "Behavior contract"),
 * each case built by hand and its value worked out from the contract's words next to it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { goldenQuery, goldenSet, mkHit, queryResult, runData } from './helpers/compareFixtures.js';
import { aggregateOf, answer, removeTempDirs, result } from './helpers/runDb.js';

afterAll(removeTempDirs);

describe('groundedness (p5-2: "fraction of RAG answers where ALL must_contain strings appear AND no forbidden string appears. Denominator = RAG answers (excluding errors)")', () => {
  const golden = `
- id: q1
  query: what flutters?
  must_contain: [Flutter]
- id: q2
  query: what flutters, lower case?
  must_contain: [Flutter]
- id: q3
  query: capital of France?
  must_contain: [Paris]
- id: q4
  query: errored
  must_contain: [x]
- id: q5
  query: capital of Germany, refused?
  forbidden: [Berlin]
- id: q6
  query: no strings to check
  expected_doc_ids: [d1]
`;
  const run = {
    runs: [
      {
        runId: 'r1',
        results: [
          result('q1', [], { answer: answer('Flutter is a wing motion.') }), // contains "Flutter": 1
          result('q2', [], { answer: answer('flutter is a wing motion.') }), // "flutter" is not "Flutter" (exact): 0
          result('q3', [], { answer: answer('I cannot answer that.', [], { grounded: false }) }), // a refusal, no "Paris": 0
          result('q4', [], { answer: answer('x x x'), status: 'error', error: 'llm down' }), // an error: left out
          result('q5', [], { answer: answer('No idea.', [], { grounded: false }) }), // a refusal, no "Berlin": 1
          result('q6', [], { answer: answer('anything') }), // neither list: nothing to check, left out
        ],
      },
    ],
  };

  it('counts refusals, leaves errored results out, matches case exactly: (1 + 0 + 0 + 1) / 4', async () => {
    const { json } = await aggregateOf(run, golden);
    expect(json.metrics.groundedness).toEqual({ value: 0.5, n: 4 });
  });

  it('a timed-out result is left out as an errored one is', async () => {
    const timedOut = structuredClone(run);
    timedOut.runs[0].results[0] = result('q1', [], { answer: answer('Flutter.'), status: 'timeout' });
    // q1 out: (0 + 0 + 1) / 3
    const { json } = await aggregateOf(timedOut, golden);
    expect(json.metrics.groundedness.n).toBe(3);
    expect(json.metrics.groundedness.value).toBeCloseTo(1 / 3, 4);
  });
});

describe('citation_coverage (p5-2: "fraction of RAG answers where every Answer.citations[*].citation resolves to a real chunk in the DB")', () => {
  const golden = `
- id: q1
  query: what does page 3 of the manual say?
  answerable: true
- id: q2
  query: where is main?
  answerable: true
- id: q3
  query: a page of a document not indexed
  answerable: true
`;
  const input = {
    runs: [
      {
        runId: 'r1',
        results: [
          // A PDF-page citation names its document and page, no lines: it resolves to a chunk of docs/manual.pdf.
          result('q1', [], {
            answer: answer('See page 3 [1].', [
              { marker: '[1]', citation: { kind: 'pdf_page', path: 'docs/manual.pdf', page: 3 } },
            ]),
          }),
          // A code citation with start_line/end_line: lines 10-12 of src/app.rs overlap chunk c2's lines 5-20.
          result('q2', [], {
            answer: answer('In app.rs [1].', [
              {
                marker: '[1]',
                citation: { kind: 'code', path: 'src/app.rs', symbol: 'main', start_line: 10, end_line: 12 },
              },
            ]),
          }),
          // A page of a PDF with no chunk in the DB: not resolved.
          result('q3', [], {
            answer: answer('See [1].', [
              { marker: '[1]', citation: { kind: 'pdf_page', path: 'docs/other.pdf', page: 1 } },
            ]),
          }),
        ],
      },
    ],
    chunks: [
      { chunkId: 'c1', docId: 'manual', text: 'page text', spans: [] },
      {
        chunkId: 'c2',
        docId: 'app',
        text: 'fn main() {}',
        spans: [{ path: 'src/app.rs', start_line: 5, end_line: 20 }],
      },
    ],
    documents: [
      { docId: 'manual', workspacePath: 'docs/manual.pdf' },
      { docId: 'app', workspacePath: 'src/app.rs' },
    ],
  };

  it('counts PDF-page and code citations that resolve: (1 + 1 + 0) / 3', async () => {
    const { json } = await aggregateOf(input, golden);
    expect(json.metrics.citation_coverage.n).toBe(3);
    expect(json.metrics.citation_coverage.value).toBeCloseTo(2 / 3, 4);
  });

  it('a code citation whose lines miss every chunk of its file does not resolve', async () => {
    const missed = structuredClone(input);
    missed.runs[0].results[1] = result('q2', [], {
      answer: answer('In app.rs [1].', [
        { citation: { kind: 'code', path: 'src/app.rs', line_start: 30, line_end: 40 } },
      ]),
    });
    // lines 30-40 overlap nothing (c2 is 5-20): (1 + 0 + 0) / 3
    const { json } = await aggregateOf(missed, golden);
    expect(json.metrics.citation_coverage.value).toBeCloseTo(1 / 3, 4);
  });
});

describe('compare_runs per query (p5-2: "Regression if a hit but b miss for the same expected chunk")', () => {
  const golden = goldenSet(['q1', 'q2', 'q3', 'q4'].map((id) => goldenQuery(id, { expectedChunkIds: ['c1', 'c2'] })));
  const base = runData('a', [
    queryResult('q1', [mkHit(1, 'c1', 'd')]),
    queryResult('q2', [mkHit(1, 'c1', 'd')]),
    queryResult('q3', [mkHit(1, 'x', 'd'), mkHit(2, 'c1', 'd')]),
    queryResult('q4', [mkHit(1, 'c1', 'd')]),
  ]);
  const cand = runData('b', [
    queryResult('q1', [mkHit(1, 'c2', 'd')]), // c1 missed, c2 at the same rank 1
    queryResult('q2', [mkHit(1, 'c2', 'd'), mkHit(2, 'c1', 'd')]), // c1 still found (rank 2), c2 at rank 1
    queryResult('q3', [mkHit(1, 'c2', 'd')]), // c1 missed, but c2 ranked higher than the baseline's c1
    queryResult('q4', [mkHit(1, 'x', 'd'), mkHit(2, 'y', 'd'), mkHit(3, 'c2', 'd')]), // c1 missed, c2 lower
  ]);

  it('a candidate that misses the chunk the baseline found is a regression, whatever else it ranks there', () => {
    const { report } = compareRuns(base, cand, golden);
    expect(report.per_query.map((o) => [o.query_id, o.baseline_rank, o.candidate_rank, o.kind])).toEqual([
      ['q1', 1, 1, 'regression'], // a hit c1, b missed c1: regression (by rank alone a draw)
      ['q2', 1, 1, 'draw'], // b found c1 too: the same rank, a draw
      ['q3', 2, 1, 'win'], // b ranks a correct chunk higher: we keep the win
      ['q4', 1, 3, 'regression'], // a hit c1, b missed c1 (by rank alone a loss)
    ]);
    expect(report.per_query[0].note).toBe("rank 1 -> rank 1, the baseline's expected chunk missed");
    expect(report.counts.regression).toBe(2);
  });
});
