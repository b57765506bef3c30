/**
 * The flaky rule and the per-query means of repeated runs (src/compare/repeats.ts) on runs built in memory, and
 * queries flaky by history (`knownFlaky`) with one run per side, through runCompare on the Cranfield fixtures.
 */
import { describe, expect, it } from 'vitest';
import { compareRepeatedRuns, JUDGE_FLAKY_STEP } from '../src/compare/repeats.js';
import type { Comparison } from '../src/compare/types.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import type { QueryResult, RunData } from '../src/types.js';
import {
  chunkQuery,
  goldenQuery,
  goldenSet,
  judgeScores,
  mkAnswer,
  queryResult,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';
import { repoRoot } from './shared.js';

const golden = goldenSet([
  chunkQuery('steady'),
  chunkQuery('moves'),
  chunkQuery('flips'),
  chunkQuery('deep'),
  goldenQuery('refusal'),
  goldenQuery('judge-small'),
  goldenQuery('judge-big'),
]);

const answered = (id: string, extra: Partial<QueryResult> = {}) =>
  queryResult(id, [], { answer: mkAnswer('an answer'), abstained: false, ...extra });
const refused = (id: string) =>
  queryResult(id, [], { answer: mkAnswer('I cannot answer that', { grounded: false }), abstained: true });

/** Repeat r: `moves` at rank 2 or 3 (hit@10 the same), `flips` hit or miss, `deep` at 12 or missed (both no hit@10). */
function repeat(runId: string, r: number): RunData {
  return runData(
    runId,
    [
      rankedResult('steady', 1),
      rankedResult('moves', r === 1 ? 3 : 2),
      rankedResult('flips', r === 0 ? null : 4),
      rankedResult('deep', r === 2 ? null : 12, {}, 12),
      r === 1 ? refused('refusal') : answered('refusal'),
      answered('judge-small', { judge: judgeScores({ correctness: 4 - (r === 2 ? JUDGE_FLAKY_STEP : 0) }) }),
      answered('judge-big', { judge: judgeScores({ correctness: r === 0 ? 5 : 2.5 }) }),
    ],
    { config: { judge_model: 'j', judge_prompt_version: 'v1' } },
  );
}

const steady = (runId: string) =>
  runData(
    runId,
    repeat(runId, 0).results.map((q) => q),
  );

function compare(baselineRuns: RunData[], candidateRuns: RunData[]): Comparison {
  return compareRepeatedRuns(
    baselineRuns.map((run) => () => run),
    candidateRuns.map((run) => () => run),
    golden,
    { permutations: 200 },
  ).report;
}

describe('the flaky rule', () => {
  const report = compare([repeat('b1', 0), repeat('b2', 1), repeat('b3', 2)], [steady('c1')]);
  const flaky = new Map(report.flaky!.queries.map((q) => [q.query_id, q]));

  it('a hit that comes and goes, a refusal that flips and a judge score that moves by more than the step are flaky', () => {
    expect([...flaky.keys()].sort()).toEqual(['deep', 'flips', 'judge-big', 'refusal']);
    expect(flaky.get('flips')!.reasons).toEqual(['baseline: hit@10 differs']);
    expect(flaky.get('flips')!.baseline).toEqual(['miss', 'rank 4', 'rank 4']);
    expect(flaky.get('flips')!.candidate).toEqual(['miss']);
    // found below the top 10 in two repeats, not at all in the third
    expect(flaky.get('deep')!.reasons).toEqual(['baseline: a relevant hit differs']);
    expect(flaky.get('refusal')!.baseline).toEqual(['miss, answered', 'miss, refused', 'miss, answered']);
    expect(flaky.get('judge-big')!.reasons).toEqual([
      `baseline: judge correctness moves by more than ${JUDGE_FLAKY_STEP}`,
    ]);
  });

  it('a rank that moves inside the top 10 and a judge score that moves by exactly the step are not', () => {
    expect(flaky.has('moves')).toBe(false);
    expect(flaky.has('judge-small')).toBe(false);
    expect(flaky.has('steady')).toBe(false);
  });

  it('flaky queries are in no count; the others are counted once', () => {
    const kinds = Object.fromEntries(report.per_query.map((o) => [o.query_id, o.kind]));
    expect(kinds).toMatchObject({ flips: 'flaky', deep: 'flaky', refusal: 'flaky', 'judge-big': 'flaky' });
    const { win, loss, draw, regression } = report.counts;
    expect(win + loss + draw + regression).toBe(golden.queries.length - 4);
    expect(report.repeats).toEqual({
      baseline: { runs: 3, run_ids: ['b1', 'b2', 'b3'] },
      candidate: { runs: 1, run_ids: ['c1'] },
    });
  });

  it("per query, a metric is the mean over the side's repeats; the run's mean is over every query", () => {
    // hit@10 of `flips`: 0, 1, 1 over the baseline's repeats, 0 in the candidate; `moves` ranks 2, 3, 2
    const hit = report.metrics['hit@10'];
    expect(hit.n).toBe(4);
    expect(hit.n_paired).toBe(4);
    expect(hit.baseline).toBeCloseTo((1 + 1 + 2 / 3 + 0) / 4, 12);
    expect(hit.candidate).toBeCloseTo((1 + 1 + 0 + 0) / 4, 12);
    const mrr = report.metrics['mrr@10'];
    expect(mrr.baseline).toBeCloseTo((1 + (1 / 2 + 1 / 3 + 1 / 2) / 3 + (0 + 1 / 4 + 1 / 4) / 3 + 0) / 4, 12);
    // the median repeat's rank is shown: `moves` 2 (of 2, 3, 2)
    expect(report.per_query.find((o) => o.query_id === 'moves')!.baseline_rank).toBe(2);
  });
});

describe('queries flaky by history (knownFlaky), one run per side', () => {
  const fixtures = {
    baselinePath: `${repoRoot}/fixtures/baseline.sqlite`,
    candidatePath: `${repoRoot}/fixtures/candidate.sqlite`,
    goldenPath: `${repoRoot}/fixtures/golden.yaml`,
    options: { permutations: 500 },
  };

  it('are set aside with their reason; an empty map changes nothing, byte for byte', async () => {
    const plain = await runCompare(fixtures);
    const empty = await runCompare({ ...fixtures, knownFlaky: new Map() });
    expect(empty.json).toBe(plain.json);
    expect(empty.markdown).toBe(plain.markdown);
    const regressed = plain.report.per_query.find((o) => o.kind === 'regression')!;
    const known = new Map([[regressed.query_id, 'flipped on main 3 times in the last 10 runs']]);
    const out = await runCompare({ ...fixtures, knownFlaky: known });
    expect(out.report.counts.regression).toBe(plain.report.counts.regression - 1);
    expect(out.report.flaky).toEqual({
      count: 1,
      queries: [
        {
          query_id: regressed.query_id,
          query: regressed.query,
          reasons: ['history: flipped on main 3 times in the last 10 runs'],
          baseline: [`rank ${regressed.baseline_rank}`],
          candidate: ['miss'],
        },
      ],
    });
    expect(out.report.metrics['nDCG@10']).toEqual(plain.report.metrics['nDCG@10']);
    expect(out.markdown).toContain('1 flaky query set aside');
    expect(out.markdown).not.toContain('Repeats:'); // one run per side: no line of runs
  });
});
