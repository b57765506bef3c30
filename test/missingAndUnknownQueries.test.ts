/**
 * How results meet the golden set, and what the gates make of it: a query missing from the candidate is a miss in
 * the paired test as in the mean (so dropping results cannot pass a significant_only gate), a significant_only gate
 * with no pairs at all has no data (never a silent pass), results the golden set does not know are reported, and a
 * run none of whose results the golden set knows is an input error (wrong golden file or id form), not all misses.
 */
import { describe, expect, it } from 'vitest';
import { computeAggregate, unknownResultsWarning } from '../src/aggregate/aggregate.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { InputError } from '../src/errors.js';
import { evaluateGates } from '../src/gate/gates.js';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { renderReportMarkdown } from '../src/render/markdown.js';
import { chunkQuery, compareAndGate, gates, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';

const SIGNIFICANT_DROP = 'gates:\n  - metric: hit@5\n    max_drop: 0\n    significant_only: true\n';
const ids = Array.from({ length: 40 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`);
const golden = goldenSet(ids.map((id) => chunkQuery(id, { expectedChunkIds: [`${id}-rel`] })));
const baseline = runData(
  'base',
  ids.map((id) => rankedResult(id, 1)),
);

function inputErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('paired tests count a missing query as the mean does', () => {
  it('a candidate that drops half its results fails a significant_only gate', () => {
    // The 20 results it kept are as good as the baseline's; the 20 it dropped are misses in its mean.
    const candidate = runData(
      'cand',
      ids.slice(0, 20).map((id) => rankedResult(id, 1)),
    );
    const { report } = compareAndGate(baseline, candidate, golden, gates(SIGNIFICANT_DROP));
    expect(report.metrics['hit@5']).toMatchObject({ baseline: 1, candidate: 0.5, n_paired: 40 });
    expect(report.metrics['hit@5'].p_value!).toBeLessThan(0.05);
    expect(report.gates[0]).toMatchObject({ metric: 'hit@5', result: 'fail', effect: 'fail' });
    expect(report.verdict).toBe('fail');
  });

  it('under --mean-over trec a missing query is left out of the mean, and so out of the pairs', () => {
    const candidate = runData(
      'cand',
      ids.slice(0, 20).map((id) => rankedResult(id, 1)),
    );
    const { report } = compareAndGate(baseline, candidate, golden, gates(SIGNIFICANT_DROP), { meanOver: 'trec' });
    expect(report.metrics['hit@5']).toMatchObject({ baseline: 1, candidate: 1, n_paired: 20, p_value: 1 });
    // no drop, and the gate's test pairs the same 20 queries; 20 unchanged queries cannot rule out a drop of 0.1
    expect(report.gates[0]).toMatchObject({ result: 'inconclusive', n_paired: 20 });
    expect(report.gates[0].p_value).toBeCloseTo(0.5, 7); // a mean drop of 0: the one-sided p of no drop is 1/2
  });
});

describe('a significant_only gate without a p-value', () => {
  const defs = new Map(buildMetricTable(DEFAULT_OPTIONS, []).map((d) => [d.id, d]));
  const crossed = {
    baseline: 0.8,
    candidate: 0.4,
    delta: -0.4,
    rel_delta: -0.5,
    n: 10,
    n_baseline: 10,
    n_paired: 0,
    p_value: null,
    ci: null,
    significant: null,
    comparable: true,
  };
  const context = {
    defs,
    metrics: { 'hit@5': crossed },
    breakdowns: {},
    groupSizes: {},
    counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
    alpha: 0.05,
  };

  it('has no data and fails by default: it never passes silently', () => {
    const [gate] = evaluateGates(gates(SIGNIFICANT_DROP), context);
    expect(gate).toMatchObject({ result: 'no_data', effect: 'fail' });
    expect(gate.note).toMatch(/no data: no query has a value in both runs/);
  });

  it('follows on_no_data', () => {
    expect(evaluateGates(gates(`${SIGNIFICANT_DROP}    on_no_data: warn\n`), context)[0]).toMatchObject({
      result: 'no_data',
      effect: 'warn',
    });
    expect(evaluateGates(gates(`${SIGNIFICANT_DROP}    on_no_data: pass\n`), context)[0]).toMatchObject({
      result: 'no_data',
      effect: 'none',
    });
  });

  it('a threshold that is not crossed is no data too: without paired values no drop can be ruled out', () => {
    const [gate] = evaluateGates(gates(SIGNIFICANT_DROP), {
      ...context,
      metrics: { 'hit@5': { ...crossed, candidate: 0.8, delta: 0, rel_delta: 0 } },
    });
    expect(gate.result).toBe('no_data');
  });
});

describe('results the golden set does not know', () => {
  it('are listed per run in the compare report and its Markdown, and not scored', () => {
    const candidate = runData('cand', [
      ...ids.map((id) => rankedResult(id, 1)),
      rankedResult('Q99', 1),
      rankedResult('extra|1', 1),
      rankedResult('Q99', 2),
    ]);
    const { report, defs } = compareAndGate(baseline, candidate, golden, gates(SIGNIFICANT_DROP));
    // Q99 has two result rows: one unknown query, listed once
    expect(report.golden.unknown_query_ids).toEqual({ baseline: [], candidate: ['Q99', 'extra|1'] });
    expect(report.metrics['hit@5']).toMatchObject({ candidate: 1, n: 40 });
    const markdown = renderReportMarkdown(report, defs);
    // counted in the open part, listed in "Runs compared"
    expect(markdown).toContain('- ⚠️ The candidate has results for 2 queries not in the golden set (not scored).');
    expect(markdown).toContain('Result query ids of the candidate not in the golden set: Q99, extra\\|1.');
    expect(markdown).not.toContain('The baseline has results');
    expect(markdown).not.toContain('Result query ids of the baseline');
  });

  it('are listed by aggregate', () => {
    const report = computeAggregate(
      runData('r', [rankedResult('nope', 2), rankedResult('q01', 1), rankedResult('nope', 1)]),
      golden,
    );
    expect(report.unknown_query_ids).toEqual(['nope']);
    expect(unknownResultsWarning('r.sqlite', 'r', report.unknown_query_ids)).toBe(
      'r.sqlite: run `r`: results of 1 query id(s) the golden set does not have are not scored (e.g. "nope")',
    );
  });

  it("when they are all of a run's results, the run is refused: wrong golden file or id form", () => {
    const upper = runData(
      'cand',
      ids.map((id) => rankedResult(id.toUpperCase(), 1)),
    );
    const message = inputErrorOf(() => compareAndGate(baseline, upper, golden, gates(SIGNIFICANT_DROP)));
    expect(message).toBe(
      'cand.sqlite: run `cand`: none of its 40 result(s) has a query_id in the golden set (e.g. "Q01", "Q02", "Q03"); ' +
        'query ids are compared as exact text: is it the right golden file, and do the ids match in case and form?',
    );
    expect(inputErrorOf(() => computeAggregate(upper, golden))).toMatch(
      /^cand\.sqlite: run `cand`: none of its 40 result\(s\)/,
    );
  });

  it('a run with no results at all is not refused for it (every query a miss, as documented)', () => {
    const empty = runData('empty', []);
    expect(computeAggregate(empty, golden).metrics['hit@5']).toEqual({ value: 0, n: 40 });
  });
});
