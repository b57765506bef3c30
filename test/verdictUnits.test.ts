/**
 * The verdict of issue 32 at the unit level: the one-sided drop test, the corrections, the minimum detectable drop,
 * tested gates on a small comparison and the advice sentence. Quick (no simulation of many pairs), so the mutation
 * runs of src/gate/gates.ts and src/gate/testedGates.ts include it; the simulations stay in verdict.test.ts. Every value
 * is computed inside its test (docs/mutation.md: a describe body never sees a mutant).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimumDetectableDrop, noiseModel, queriesNeeded } from '../src/stats/power.js';
import { seededRandom } from '../src/stats/random.js';
import { defaultGateConfig, parseGateConfig } from '../src/gate/config.js';
import { renderReportMarkdown } from '../src/render/markdown.js';
import { renderReportText } from '../src/render/text.js';
import { adviceSentence } from '../src/render/reportParts.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import {
  chunkQuery,
  compareAndGate,
  goldenQuery,
  goldenSet,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';
import { gatePair, simulatePair } from './helpers/verdictSim.js';
import { repoRoot } from './shared.js';

describe('the minimum detectable drop', () => {
  it('with no change and 8 queries, exactly: 7 losses of 8 are needed at 0.0125 (2^-7 < 0.0125 < 2^-6)', () => {
    // Power P(Bin(8, pi) >= 7) = 0.8 at pi = 0.8316 (8 pi^7 (1 - pi) + pi^8 = 0.8), by bisection here.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 60; i++) {
      const pi = (lo + hi) / 2;
      if (8 * pi ** 7 * (1 - pi) + pi ** 8 >= 0.8) hi = pi;
      else lo = pi;
    }
    expect(minimumDetectableDrop({ n: 8, rho: 0, size: 1 }, 0.0125)).toBeCloseTo(hi, 6);
  });

  it('the exact and the normal computation meet at 100 / 101 queries, and more queries detect less', () => {
    const at = (n: number) => minimumDetectableDrop({ n, rho: 0.12, size: 1 }, 0.0125);
    expect(Math.abs(at(100) - at(101))).toBeLessThan(0.01);
    expect(at(300)).toBeLessThan(at(101));
    const model = noiseModel([...new Array(5).fill(-1), ...new Array(13).fill(0)]);
    const needed = queriesNeeded(model, 0.0125, 0.1)!;
    expect(minimumDetectableDrop({ ...model, n: needed }, 0.0125)).toBeLessThanOrEqual(0.1);
    expect(minimumDetectableDrop({ ...model, n: needed - 1 }, 0.0125)).toBeGreaterThan(0.1);
  });
});

describe("the newcomer's 18-query case", () => {
  // 20 queries, 18 answerable; the candidate loses the expected chunk (rank 1 -> miss) on 5 of them. Built and
  // compared in each test: a report computed in the describe body never sees a mutant (docs/mutation.md).
  const newcomerRuns = () => {
    const golden = goldenSet([
      ...Array.from({ length: 18 }, (_, i) => chunkQuery(`q${i}`)),
      goldenQuery('u1', { answerable: false }),
      goldenQuery('u2', { answerable: false }),
    ]);
    const answerable = golden.queries.filter((q) => q.answerable);
    const base = runData('base', [
      ...answerable.map((q, i) => rankedResult(q.id, i < 16 ? 1 : null)),
      rankedResult('u1', null),
      rankedResult('u2', null),
    ]);
    const cand = runData('cand', [
      ...answerable.map((q, i) => rankedResult(q.id, i < 11 ? 1 : null)),
      rankedResult('u1', null),
      rankedResult('u2', null),
    ]);
    return { base, cand, golden };
  };
  const newcomer = (config = defaultGateConfig()) => {
    const { base, cand, golden } = newcomerRuns();
    return compareAndGate(base, cand, golden, config);
  };

  it('is not a pass: the four default gates are inconclusive, the verdict warns (exit 0), never green', () => {
    const { report } = newcomer();
    expect(report.metrics['hit@5'].delta).toBeCloseTo(-5 / 18, 4);
    expect(report.gates.map((g) => g.result)).toEqual(new Array(4).fill('inconclusive'));
    expect(report.verdict).toBe('warn');
    const hit = report.gates[0];
    expect(hit.simultaneous_over).toBe(4);
    expect(hit.p_adjusted).toBeCloseTo(Math.min(1, 4 * hit.p_value!), 12);
    // A drop of 0.1 is neither ruled out (the worse end is past -0.1) nor shown (the better end is within it).
    expect(hit.ci![0]).toBeLessThan(-0.1);
    expect(hit.ci![1]).toBeGreaterThan(-0.1);
  });

  it('the comment has the yellow alert, the detectable drop and the advice', () => {
    const { report, defs } = newcomer();
    const md = renderReportMarkdown(report, defs);
    expect(md).toContain('> [!WARNING]');
    expect(md).not.toContain('[!TIP]');
    expect(md).toContain('**EvalVerdict: inconclusive** — 4 of 4 gates inconclusive');
    expect(md).toMatch(
      /With 18 queries, 4 inconclusive gates cannot yet find their margin; the furthest, [^,]+, finds drops of 0\.\d{4} or more 80% of the time, more than its margin 0\.1000: about [\d,]+ queries like these would find 0\.1000 80% of the time\./,
    );
    expect(md).toContain('🟨 inconclusive');
    const text = renderReportText(report, defs);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('EvalVerdict: INCONCLUSIVE — 4 of 4 gates inconclusive');
    expect(lines[1]).toMatch(/^ {2}With 18 queries, 4 inconclusive gates cannot yet find their margin; the furthest/);
    // docs/compare.md and docs/gates.md work this case through: their figures are the ones the report prints.
    const advice =
      /finds drops of (0\.\d{4}) or more 80% of the time, more than its margin 0\.1000: about ([\d,]+) queries/.exec(
        md,
      )!;
    for (const doc of ['docs/compare.md', 'docs/gates.md']) {
      const text = readFileSync(join(repoRoot, doc), 'utf8').replace(/\s+/g, ' '); // as Markdown reads a reflowed line
      expect(text, doc).toContain(`finds drops of ${advice[1]} or more`);
      expect(text, doc).toContain(`about ${advice[2]} queries`);
    }
    expect(lines.at(-1)).toBe(lines[0]);
    expect(text).toMatch(/finds 0\.\d{4} \(80%\) > margin 0\.1000/);
  });

  it('with on_inconclusive: fail it fails; with pass it passes under a blue NOTE, not the green TIP', () => {
    const failing = newcomer(parseGateConfig('preset: retrieval\non_inconclusive: fail\n', 'g.yml'));
    expect(failing.report.verdict).toBe('fail');
    const passing = newcomer(parseGateConfig('preset: retrieval\non_inconclusive: pass\n', 'g.yml'));
    expect(passing.report.verdict).toBe('pass');
    const md = renderReportMarkdown(passing.report, passing.defs);
    expect(md).toContain('> [!NOTE]');
    expect(md).toContain('**EvalVerdict: pass, inconclusive accepted**');
  });

  it('without the split (correction: none) the drop is shown, yet not shown to be beyond the margin: inconclusive', () => {
    const { report: r } = newcomer(parseGateConfig('preset: retrieval\ncorrection: none\n', 'g.yml'));
    const hit = r.gates[0];
    expect(hit).toMatchObject({ result: 'inconclusive', simultaneous_over: 1 });
    expect(hit.p_value!).toBeLessThan(0.05);
    expect(hit.note).toMatch(/\(90%; one-sided p 0\.\d{4}, not adjusted < α 0\.05\)/);
  });
});

describe('primary: one metric at the full alpha, the rest corrected among themselves', () => {
  it('the primary keeps its p, bounded at alpha; the other three split alpha over three', () => {
    const pair = simulatePair(60, 0.15, seededRandom(5));
    const { gates } = gatePair(pair, parseGateConfig('preset: retrieval\nprimary: nDCG@10\n', 'g.yml'), 1);
    const primary = gates.find((g) => g.metric === 'nDCG@10')!;
    expect(primary).toMatchObject({ correction: 'primary', simultaneous_over: 1 });
    expect(primary.p_adjusted).toBe(primary.p_value);
    const others = gates.filter((g) => g.metric !== 'nDCG@10');
    expect(others.map((g) => g.p_adjusted)).toEqual(others.map((g) => Math.min(1, 3 * g.p_value!)));
    expect(others.every((g) => g.correction === 'holm' && g.simultaneous_over === 3)).toBe(true);
  });
});

describe('the advice sentence', () => {
  const gate = (metric: string, margin: number, mdd: number | null, needed: number | null, result = 'inconclusive') =>
    ({ metric, margin, min_detectable_drop: mdd, queries_needed: needed, n_paired: 50, result }) as GateResult;
  const advice = (gates: GateResult[]) => adviceSentence({ gates } as CompareReport);

  it('takes every figure from the gate that needs the most queries, never one gate margin beside another', () => {
    const text = advice([gate('hit@5', 0.1, 0.3, 200), gate('ndcg@10', 0.05, 0.2, 900), gate('mrr@10', 0.1, 0.05, 30)]);
    expect(text).toBe(
      'With 50 queries, 2 inconclusive gates cannot yet find their margin; the furthest, ndcg@10, finds drops of ' +
        '0.2000 or more 80% of the time, more than its margin 0.0500: about 900 queries like these would find 0.0500 80% of the time.',
    );
  });

  it('a gate that no number of queries would bring to its margin counts as furthest', () => {
    const text = advice([gate('hit@5', 0.1, 0.3, 200), gate('judge_score', 0.1, null, null)]);
    expect(text).toBe(
      'With 50 queries, 2 inconclusive gates cannot yet find their margin; the furthest, judge_score, finds no drop ' +
        '80% of the time: more queries that differ less between runs would be needed.',
    );
  });

  it('is absent when every inconclusive gate can find its margin, and for gates that passed or failed', () => {
    expect(advice([gate('hit@5', 0.1, 0.1, 50)])).toBeNull();
    expect(advice([gate('hit@5', 0.1, 0.3, 200, 'pass'), gate('mrr@10', 0.1, 0.3, 200, 'fail')])).toBeNull();
  });
});
