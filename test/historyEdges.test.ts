/**
 * Main's history at its edges (src/compare/historyTrend.ts), in process and on reports built by hand with only the
 * fields a history reads: the empty history, the gated metrics, a run's values and outcomes, the runs of the newest
 * golden set, the flaky-by-history rule at its bounds and the trend's parts. test/history.test.ts and
 * test/flakyHistory.test.ts check the same on real comparisons and by simulation.
 */
import { describe, expect, it } from 'vitest';
import { AR_MAX, CHANGE_POINT_ALPHA, changePointOf, MIN_RUNS, MIN_SEGMENT } from '../src/stats/changePoint.js';
import {
  appendRun,
  currentRuns,
  emptyHistory,
  flakyByHistory,
  gatedMetrics,
  trendOf,
} from '../src/compare/historyTrend.js';
import { DEFAULT_HISTORY_RUNS, HISTORY_SCHEMA_VERSION } from '../src/load/historyFile.js';
import type { History, HistoryRun } from '../src/load/historyFile.js';
import type { Comparison } from '../src/compare/types.js';

/** A report with the fields appendRun reads: per query, the candidate's rank (null: a miss). */
function report(ranks: Record<string, number | null>, metrics: Record<string, number | null> = {}, id = 'c1') {
  return {
    per_query: Object.entries(ranks).map(([query_id, candidate_rank]) => ({ query_id, candidate_rank })),
    metrics: Object.fromEntries(Object.entries(metrics).map(([m, candidate]) => [m, { candidate }])),
    candidate: { run_id: id, commit_hash: `commit-${id}`, created_at: `time-${id}` },
    golden: { fingerprint: 'g1' },
  } as unknown as Comparison;
}

function run(outcomes: string, golden = 'g1', i = 0, metrics: Record<string, number | null> = {}): HistoryRun {
  return { run_id: `r${i}`, commit: `c${i}`, time: `t${i}`, golden, metrics, outcomes };
}

const historyOf = (queries: string[], runs: HistoryRun[], maxRuns = DEFAULT_HISTORY_RUNS): History => ({
  ...emptyHistory(maxRuns),
  queries,
  runs,
});

describe('the empty history and the gated metrics', () => {
  it('an empty history: the schema version, max_runs (20 unless given), no queries, no runs', () => {
    expect(emptyHistory()).toEqual({ schema_version: HISTORY_SCHEMA_VERSION, max_runs: 20, queries: [], runs: [] });
    expect(DEFAULT_HISTORY_RUNS).toBe(20);
    expect(emptyHistory(7).max_runs).toBe(7);
  });

  it('the whole-set gates only, each metric once, in the gates order', () => {
    const gates = [{ metric: 'b' }, { metric: 'a', where: { lang: 'en' } }, { metric: 'c' }, { metric: 'b' }];
    expect(gatedMetrics({ gates })).toEqual(['b', 'c']);
    expect(gatedMetrics({ gates: [{ metric: 'a', where: {} }] })).toEqual([]);
  });
});

describe('appending a run', () => {
  it('its values: each asked metric, null for one the report lacks or has no candidate value of', () => {
    const next = appendRun(emptyHistory(), report({ q1: 1 }, { 'hit@5': 0.5, mrr: null }), ['hit@5', 'mrr', 'gone']);
    expect(next.runs[0]).toEqual({
      run_id: 'c1',
      commit: 'commit-c1',
      time: 'time-c1',
      golden: 'g1',
      metrics: { 'hit@5': 0.5, mrr: null, gone: null },
      outcomes: 'h',
    });
    expect(next).toMatchObject({ schema_version: HISTORY_SCHEMA_VERSION, max_runs: 20, queries: ['q1'] });
  });

  it('a hit at any rank is h, a miss m; the query list becomes the report s', () => {
    const next = appendRun(emptyHistory(), report({ q2: 10, q1: null, q3: 1 }), []);
    expect(next.queries).toEqual(['q2', 'q1', 'q3']);
    expect(next.runs[0].outcomes).toBe('hmh');
  });

  it('max_runs of 1 keeps the new run only; of 3, the newest three', () => {
    const old = historyOf(['q1'], [run('h', 'g1', 0), run('m', 'g1', 1)], 1);
    expect(appendRun(old, report({ q1: 1 }), []).runs.map((r) => r.run_id)).toEqual(['c1']);
    const three = historyOf(['q1'], [run('h', 'g1', 0), run('m', 'g1', 1), run('h', 'g1', 2)], 3);
    expect(appendRun(three, report({ q1: 1 }), []).runs.map((r) => r.run_id)).toEqual(['r1', 'r2', 'c1']);
  });

  it('a candidate-only report: older runs kept as they are, even where an id repeats in the list', () => {
    // the reader does not refuse a repeated id; realigning by id would copy the last one's mark over the first's
    const old = historyOf(['q', 'q'], [run('hm')]);
    const next = appendRun(old, report({}), []);
    expect(next.queries).toEqual(['q', 'q']);
    expect(next.runs.map((r) => r.outcomes)).toEqual(['hm', '--']);
  });

  it('a new golden set: marks carried over by id, - for a new id and where an older run has no mark', () => {
    const old = historyOf(['q1', 'q2'], [run('hm'), run('m', 'g1', 1)]);
    const next = appendRun(old, report({ q2: 1, q3: null, q1: 1 }), []);
    expect(next.runs.map((r) => r.outcomes)).toEqual(['m-h', '--m', 'hmh']);
  });
});

describe('the runs of the newest golden set', () => {
  it('none in an empty history; else those of the newest run s golden set, oldest first', () => {
    expect(currentRuns(emptyHistory())).toEqual([]);
    const runs = [run('h', 'a', 0), run('h', 'b', 1), run('h', 'a', 2), run('h', 'a', 3)];
    expect(currentRuns(historyOf(['q'], runs)).map((r) => r.run_id)).toEqual(['r0', 'r2', 'r3']);
  });
});

describe('flaky by history at its bounds', () => {
  const flaky = (marks: string[], minFlips?: number) =>
    flakyByHistory(
      historyOf(
        ['q'],
        marks.map((m, i) => run(m, 'g1', i)),
      ),
      minFlips,
    );

  it('the rarer outcome a miss or a hit alike: 5 of 20 is flaky, 4 of 20 is not', () => {
    const of = (rare: string, common: string, at: number[]) =>
      Array.from({ length: 20 }, (_, i) => (at.includes(i) ? rare : common));
    expect(flaky(of('h', 'm', [1, 5, 9, 13, 17])).has('q')).toBe(true);
    expect(flaky(of('h', 'm', [1, 5, 9, 13])).has('q')).toBe(false);
    expect(flaky(of('m', 'h', [1, 5, 9, 13, 17])).has('q')).toBe(true);
    expect(flaky(of('m', 'h', [1, 5, 9, 13])).has('q')).toBe(false);
  });

  it('- is no outcome: it neither flips nor counts, and the reason counts every run of the golden set', () => {
    expect(flaky(['h', '-', 'h', '-', 'h', 'h']).has('q')).toBe(false);
    // h m h over 3 marked runs of 6: 2 flips, the rarer 1 of 3
    expect(flaky(['h', '-', 'm', '-', 'h', '-']).get('q')).toBe(
      'flipped between hit and miss 2 times in the last 6 main runs',
    );
    // with the - counted as runs, 1 of 6 would be under a quarter
  });

  it('the first mark is no flip; minFlips at its bound', () => {
    expect(flaky(['m', 'h', 'h', 'm']).get('q')).toBe('flipped between hit and miss 2 times in the last 4 main runs');
    expect(flaky(['m', 'h', 'h', 'm'], 3).has('q')).toBe(false);
    expect(flaky(['m', 'h', 'm', 'h'], 3).get('q')).toBe(
      'flipped between hit and miss 3 times in the last 4 main runs',
    );
    expect(flaky(['m', 'm', 'h', 'h']).has('q')).toBe(false);
  });

  it('every query of the list in its own place', () => {
    const history = historyOf(
      ['steady', 'flaky', 'missed'],
      ['hhm', 'hmm', 'hhm', 'hmm'].map((m, i) => run(m, 'g1', i)),
    );
    expect([...flakyByHistory(history).keys()]).toEqual(['flaky']);
  });
});

describe('the trend', () => {
  it('the settings of the test, the runs of the newest golden set, the others counted, the flaky queries', () => {
    const runs = [run('m', 'old', 0), run('h', 'g1', 1), run('m', 'g1', 2), run('h', 'g1', 3)];
    const trend = trendOf(historyOf(['q'], runs), []);
    expect(trend.test).toEqual({
      minSegment: MIN_SEGMENT,
      alpha: CHANGE_POINT_ALPHA,
      minRuns: MIN_RUNS,
      arMax: AR_MAX,
    });
    expect(trend.runs).toEqual([
      { commit: 'c1', time: 't1' },
      { commit: 'c2', time: 't2' },
      { commit: 'c3', time: 't3' },
    ]);
    expect(trend.otherGolden).toBe(1);
    expect([...trend.flaky]).toEqual([['q', 'flipped between hit and miss 2 times in the last 3 main runs']]);
    expect(trend.metrics).toEqual([]);
  });

  it('a metric with a value in some run only: its series with nulls, no change point; one with none: left out', () => {
    const values = [...new Array(11).fill(0.8), 0.5, 0.5, 0.5];
    const runs = values.map((v, i) => run('h', 'g1', i, i === 3 ? { flat: 0.5 } : { drop: v, flat: 0.5 }));
    const trend = trendOf(historyOf(['q'], runs), ['drop', 'none', 'flat']);
    expect(trend.metrics.map((m) => m.id)).toEqual(['drop', 'flat']);
    expect(trend.metrics[0].values).toEqual(values.map((v, i) => (i === 3 ? null : v)));
    expect(trend.metrics[0].changePoint).toBeNull();
    expect(trend.metrics[1].values).toEqual(new Array(14).fill(0.5));
    // the complete series is tested: the same drop with its value back is found
    const complete = trendOf(
      historyOf(
        ['q'],
        values.map((v, i) => run('h', 'g1', i, { drop: v })),
      ),
      ['drop'],
    );
    expect(complete.metrics[0].changePoint).toEqual(changePointOf(values));
    expect(complete.metrics[0].changePoint).toMatchObject({ direction: 'down', start: 11 });
  });
});
