/**
 * kebab's own definitions (../shared/seeds/000-kebab-eval-metrics-and-compare.txt, task p5-2 "Behavior contract"),
 * each case built by hand and its value worked out from the contract's words next to it.
 */
import { afterAll, describe, expect, it } from 'vitest';
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
