/**
 * One consistent story in every output: for random paired samples run through compare, the gates and the three
 * renderers, the interval, the adjusted p, the mark and the outcome that the text report, the Markdown comment and
 * the JSON report print agree with each other and with the outcome. The numbers are read back from the printed
 * text, not from the report object, so a rounding that moved an interval end across 0 would show.
 *
 * The generator mixes three kinds of sample so that every outcome is reached often: large sets with few changed
 * queries (pass), large sets with a planted drop (fail), small noisy sets (inconclusive). The test counts the
 * outcomes and fails when one of them is reached fewer than MIN_PER_OUTCOME times, so it cannot silently stop
 * testing a branch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/stats/random.js';
import { parseGateConfig } from '../src/gate/config.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import { stableJson } from '../src/stableJson.js';
import { renderReportMarkdown } from '../src/render/markdown.js';
import { statusHeadline, withShownPValues } from '../src/render/reportParts.js';
import { gateMessage } from '../src/action/outputs.js';
import { renderReportText } from '../src/render/text.js';
import { verdictOf } from '../src/gate/gates.js';
import { chunkQuery, compareAndGate, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';
import { gatePair, simulatePair } from './helpers/verdictSim.js';
import type { SimPair } from './helpers/verdictSim.js';

const ALPHA = 0.05;
const RUNS = 45;
/** Each of pass, fail and inconclusive must be reached at least this often over RUNS samples of 4 gates. */
const MIN_PER_OUTCOME = 20;

interface Sample {
  n: number;
  /** Share of queries whose candidate rank is drawn again. */
  redrawn: number;
  /** Share of found queries the candidate loses. */
  lost: number;
  margin: number;
  correction: 'none' | 'holm' | 'bh';
  seed: number;
}

const correction = fc.constantFrom<Sample['correction']>('none', 'holm', 'bh');
const seed = fc.integer({ min: 0, max: 2 ** 30 });
/** Many queries, few of them changed, a wide margin: the test sees the margin and finds no drop beyond it. */
const passing = fc.record({
  n: fc.integer({ min: 250, max: 400 }),
  redrawn: fc.double({ min: 0.02, max: 0.12, noNaN: true }),
  lost: fc.constant(0),
  margin: fc.double({ min: 0.08, max: 0.2, noNaN: true }),
  correction,
  seed,
});
/** Many queries, a large planted loss: a significant drop. */
const failing = fc.record({
  n: fc.integer({ min: 120, max: 300 }),
  redrawn: fc.double({ min: 0.05, max: 0.4, noNaN: true }),
  lost: fc.double({ min: 0.15, max: 0.4, noNaN: true }),
  margin: fc.double({ min: 0.02, max: 0.1, noNaN: true }),
  correction,
  seed,
});
/** Few queries, much noise: neither a drop shown nor the margin within reach. */
const unclear = fc.record({
  n: fc.integer({ min: 6, max: 30 }),
  redrawn: fc.double({ min: 0.2, max: 0.6, noNaN: true }),
  lost: fc.double({ min: 0, max: 0.1, noNaN: true }),
  margin: fc.double({ min: 0.02, max: 0.1, noNaN: true }),
  correction,
  seed,
});

/** A first relevant rank: found with probability q, at a geometric rank (rank 1 half the time), cut at 10. */
function drawRank(q: number, random: () => number): number | null {
  if (random() >= q) return null;
  let rank = 1;
  while (random() >= 0.5 && rank < 10) rank++;
  return rank;
}

function gatedSample(s: Sample) {
  const random = seededRandom(s.seed);
  const ids = Array.from({ length: s.n }, (_, i) => `q${i}`);
  const base: Array<number | null> = [];
  const cand: Array<number | null> = [];
  for (let i = 0; i < s.n; i++) {
    const q = Math.max(random(), random(), random());
    const b = drawRank(q, random);
    let c = random() < s.redrawn ? drawRank(q, random) : b;
    if (c !== null && random() < s.lost) c = null;
    base.push(b);
    cand.push(c);
  }
  const golden = goldenSet(ids.map((id) => chunkQuery(id)));
  const config = parseGateConfig(
    `preset: retrieval\ncorrection: ${s.correction}\nmargin: ${s.margin}\nalpha: ${ALPHA}\n`,
    'g.yml',
  );
  return compareAndGate(
    runData(
      'base',
      ids.map((id, i) => rankedResult(id, base[i])),
    ),
    runData(
      'cand',
      ids.map((id, i) => rankedResult(id, cand[i])),
    ),
    golden,
    config,
    { permutations: 2000, seed: s.seed },
  );
}

/** A number as printed: U+2212 minus, `±0.0000`, `< 0.0001` (taken as just below 0.0001). */
function printed(text: string): number {
  const t = text.trim();
  if (t === '< 0.0001') return 0.00005;
  return Number(t.replace('−', '-').replace('±', ''));
}

interface Printed {
  result: string;
  low: number;
  high: number;
  /** The p the outcome is decided on: the adjusted one, or the one-sided p itself when nothing adjusts it. */
  p: number;
  detects: number | null;
}

// "−0.0133 (90% CI [−0.0608, +0.0341], one-sided p 0.2643, Bonferroni-adjusted 1.0000)".
const TEST = /CI \[([^,\]]+), ([^\]]+)\], one-sided p ([^,)]+)(?:, Bonferroni-adjusted ([^,)]+))?/;
const DETECTS = /finds (\d+\.\d+) \(80%\)/;

function fromTest(line: string, result: string): Printed {
  const m = TEST.exec(line);
  expect(m, line).not.toBeNull();
  const detects = DETECTS.exec(line);
  return {
    result,
    low: printed(m![1]),
    high: printed(m![2]),
    p: printed(m![4] ?? m![3]),
    detects: detects ? Number(detects[1]) : null,
  };
}

/** The gate table of the text report: one row per gate, the result word before the detectable drop. */
function textGates(text: string): Printed[] {
  const lines = text.split('\n');
  const start = lines.indexOf('Gates') + 2;
  const rows = lines.slice(start, start + 4);
  return rows.map((row) => fromTest(row, /\s(pass|fail|inconclusive)\b/.exec(row)![1]));
}

const MARKDOWN_RESULT: Record<string, string> = {
  '✅ pass': 'pass',
  '❌ fail': 'fail',
  '🟨 inconclusive': 'inconclusive',
};

/** The rows of the comment's "All gates" table (the open table has no test; the alert names only some gates). */
function markdownGates(md: string): Printed[] {
  const at = md.indexOf('<summary>All gates');
  const rows = md
    .slice(at)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .slice(0, 4);
  return rows.map((row) => {
    // Read as a reader sees it: the escapes undone.
    const cells = row
      .replace(/&lt;/g, '<')
      .replace(/\\([[\]_])/g, '$1')
      .split(' | ');
    const result = Object.entries(MARKDOWN_RESULT).find(([k]) => cells[5].startsWith(k))![1];
    return fromTest(`${cells[3]} ${cells[5]}`, result);
  });
}

function jsonGates(report: CompareReport): Printed[] {
  const gates = (JSON.parse(stableJson(report)) as { gates: GateResult[] }).gates;
  return gates.map((g) => ({
    result: g.result,
    low: g.ci![0],
    high: g.ci![1],
    p: g.p_adjusted!,
    detects: g.min_detectable_drop ?? null,
  }));
}

/**
 * What every output must say of one gate, from its own printed numbers alone (all four metrics: higher is better):
 * the outcome is read off the interval against the margin (docs/gates.md), and the interval leaves 0 on the worse
 * side exactly when the adjusted p is below alpha. Printed ends are rounded to 4 decimals: an end within rounding
 * of -margin is not judged from the print.
 */
function expectOneStory(p: Printed, gate: GateResult, where: string): void {
  const at = `${where}: ${gate.metric} ${JSON.stringify(p)}`;
  const m = gate.margin!;
  const near = (x: number) => Math.abs(x + m) <= 0.00006;
  expect(p.result, at).toBe(gate.result);
  expect(p.low, at).toBeLessThanOrEqual(p.high);
  expect(p.high < 0, at).toBe(p.p < ALPHA);
  if (!near(p.high)) expect(p.result === 'fail', at).toBe(p.high < -m);
  if (!near(p.low)) expect(p.result === 'pass', at).toBe(p.low > -m);
  // Power is advice for an inconclusive gate only: no other row states it.
  if (where !== 'json' && p.detects !== null) expect(p.result, at).toBe('inconclusive');
}

describe('one consistent story in the text report, the comment and the JSON report', () => {
  it(`random paired samples reach fail, pass and inconclusive each at least ${MIN_PER_OUTCOME} times, and agree`, () => {
    const reached: Record<string, number> = { pass: 0, fail: 0, inconclusive: 0 };
    fc.assert(
      fc.property(fc.oneof(passing, failing, unclear), (s) => {
        const { report: gated, defs } = gatedSample(s);
        // As the pipeline hands the report to every output: p-values as printed.
        const report = withShownPValues(gated);
        const text = textGates(renderReportText(report, defs));
        const md = markdownGates(renderReportMarkdown(report, defs));
        const json = jsonGates(report);
        report.gates.forEach((g, i) => {
          reached[g.result] = (reached[g.result] ?? 0) + 1;
          expectOneStory(text[i], g, 'text');
          expectOneStory(md[i], g, 'markdown');
          expectOneStory(json[i], g, 'json');
        });
      }),
      { numRuns: RUNS, seed: 32 },
    );
    expect(reached.pass).toBeGreaterThanOrEqual(MIN_PER_OUTCOME);
    expect(reached.fail).toBeGreaterThanOrEqual(MIN_PER_OUTCOME);
    expect(reached.inconclusive).toBeGreaterThanOrEqual(MIN_PER_OUTCOME);
  });
});

describe('an interval end within rounding of 0', () => {
  // A significant drop scaled down by a power of 2, exact in binary: the test's p stays, its interval and its
  // detectable drop scale with it (to rounding), until the interval's upper end lies within 0.00005 of 0, where 4 decimals
  // (the JSON report's) would make it 0 beside a fail.
  // Margin 0: any drop shown fails, so a fail sits beside an interval end just below 0.
  const config = parseGateConfig('preset: retrieval\nmargin: 0\n', 'g.yml');
  const pair = simulatePair(300, 0.2, seededRandom(7));
  const unscaled = gatePair(pair, config).gates;
  const high = unscaled[0].ci![1];
  const scale = 2 ** -Math.ceil(Math.log2(-high / 0.00004));
  const scaled: SimPair = {
    baseline: pair.baseline.map((xs) => xs.map((x) => x * scale)),
    candidate: pair.candidate.map((xs) => xs.map((x) => x * scale)),
  };
  const gates = gatePair(scaled, config).gates;
  // The gates rendered in a report of the compare pipeline's shape (its metric tables are not what is tested here).
  const shell = sampleShell();
  const report = withShownPValues({ ...shell.report, gates, verdict: verdictOf(gates) });

  it('the case is what it claims: a fail whose upper end rounds to 0 at 4 decimals, decided as unscaled', () => {
    expect(unscaled[0].result).toBe('fail');
    expect(gates[0].result).toBe('fail');
    expect(gates[0].p_adjusted).toBe(unscaled[0].p_adjusted);
    expect(gates[0].ci![1] / (high * scale)).toBeCloseTo(1, 5);
    expect(gates[0].ci![1]).toBeLessThan(0);
    expect(gates[0].ci![1]).toBeGreaterThan(-0.00005);
  });

  it('the text report, the comment and the JSON print it below 0, beside the fail and a p below alpha', () => {
    const text = renderReportText(report, shell.defs);
    const md = renderReportMarkdown(report, shell.defs);
    const outputs = { text: textGates(text), markdown: markdownGates(md), json: jsonGates(report) };
    for (const [where, printedGates] of Object.entries(outputs)) {
      for (const [i, g] of gates.entries()) expectOneStory(printedGates[i], g, where);
      expect(printedGates[0].high, where).toBe(-0.0001);
    }
    // The verdict's lines name the failed gate with the same interval.
    expect(text.split('\n')[1]).toMatch(/^ {2}✗ hit@5 .*CI \[−0\.\d{4}, −0\.0001\]/);
    expect(md).toMatch(/> - ❌ `hit@5` .*CI \[−0\.\d{4}, −0\.0001\]/);
  });

  it("the metric tables' two-sided intervals too: an end within 0.00005 of 0 keeps its side in the JSON", () => {
    const m = shell.report.metrics['hit@5'];
    const tiny = withShownPValues({
      ...shell.report,
      metrics: { ...shell.report.metrics, 'hit@5': { ...m, ci: [-0.00003, 0.00002] } },
    });
    const json = JSON.parse(stableJson(tiny)) as CompareReport;
    expect(json.metrics['hit@5'].ci).toEqual([-0.0001, 0.0001]);
    // An end that is 0, or that rounds to something else, is left as it is.
    expect(
      withShownPValues({ ...shell.report, metrics: { 'hit@5': { ...m, ci: [0, 0.00006] } } }).metrics['hit@5'].ci,
    ).toEqual([0, 0.00006]);
  });
});

/** A small compared and gated pair of runs whose metric ids are the simulation's (hit@5, mrr@10, nDCG@10, recall@10). */
function sampleShell() {
  return gatedSample({ n: 20, redrawn: 0.3, lost: 0, margin: 0.1, correction: 'holm', seed: 1 });
}

describe('a crossing where the two sides have different denominators', () => {
  // 40 queries; the baseline finds q0..q19 and misses q20..q39 (0.5). The candidate answers q0..q19 only and, under
  // --mean-over trec, its mean leaves out the 20 it has no result for: it finds q0..q11 (12 of 20, 0.6). The means
  // say +0.1; on the 20 queries with a value on both sides the candidate lost 8 and won none, a paired drop of 0.4.
  const ids = Array.from({ length: 40 }, (_, i) => `q${i}`);
  const golden = goldenSet(ids.map((id) => chunkQuery(id)));
  const base = runData(
    'base',
    ids.map((id, i) => rankedResult(id, i < 20 ? 1 : null)),
  );
  const cand = runData(
    'cand',
    ids.slice(0, 20).map((id, i) => rankedResult(id, i < 12 ? 1 : null)),
  );
  const config = parseGateConfig('preset: retrieval\n', 'g.yml');
  const gated = compareAndGate(base, cand, golden, config, { meanOver: 'trec' });
  const report = withShownPValues(gated.report);

  it('the means count 40 and 20 queries; the gate pairs the 20 with a value on both sides', () => {
    expect(report.metrics['hit@5']).toMatchObject({ n_baseline: 40, n: 20, n_paired: 20 });
    expect(report.metrics['hit@5'].delta).toBeCloseTo(0.1, 12);
    for (const g of report.gates) {
      expect(g.n_paired, g.metric).toBe(20);
      // 8 losses, no win: a drop of 0.4, shown beyond the margin 0.1; alpha split over four gates.
      const raw = gated.report.gates.find((x) => x.metric === g.metric)!;
      expect(raw.p_value!, g.metric).toBeLessThan(0.002);
      expect(raw.p_adjusted, g.metric).toBe(4 * raw.p_value!);
      expect(g.simultaneous_over, g.metric).toBe(4);
      // The interval is of the paired delta (-8/20), not of the means' (+0.1).
      expect(g.ci![0], g.metric).toBeLessThanOrEqual(-0.4);
      expect(g.ci![1], g.metric).toBeGreaterThanOrEqual(-0.4);
      expect(g.result, g.metric).toBe('fail');
    }
  });

  it('every output prints an interval below 0 beside the fail, and says how many queries were paired', () => {
    const text = renderReportText(report, gated.defs);
    const md = renderReportMarkdown(report, gated.defs);
    const outputs = { text: textGates(text), markdown: markdownGates(md), json: jsonGates(report) };
    for (const [where, printedGates] of Object.entries(outputs))
      for (const [i, g] of report.gates.entries()) {
        expectOneStory(printedGates[i], g, where);
        expect(printedGates[i].high, where).toBeLessThan(0);
      }
    // Every gate failed: no advice on finding the margin (power is advice for inconclusive gates only).
    expect(text).not.toContain('cannot yet find their margin');
    expect(text).toContain('denominators differ: hit@5 40 → 20');
    expect(md).not.toContain('cannot yet find their margin');
    expect(md).toContain('Denominators differ: `hit@5` 40 → 20');
    // Under --mean-over trec the 20 queries without a result are left out of the candidate's means, not misses.
    expect(text).toContain(
      'warning: 20 queries have no result in the candidate (left out of its means: --mean-over trec)',
    );
    expect(md).toContain('- ⚠️ 20 queries have no result in the candidate (left out of its means: `--mean-over trec`).');
    expect(md).toContain("Queries only in the baseline run (left out of the candidate's means): ");
    expect(md).not.toContain('counted as misses');
    expect((JSON.parse(stableJson(report)) as CompareReport).gates.map((g) => g.n_paired)).toEqual([20, 20, 20, 20]);
  });

  it("the paired change the interval describes is printed beside it, not only the means' +0.1", () => {
    const json = JSON.parse(stableJson(report)) as CompareReport;
    for (const g of json.gates) expect(g.paired_delta, g.metric).toBeCloseTo(-0.4, 12);
    const text = renderReportText(report, gated.defs);
    const md = renderReportMarkdown(report, gated.defs);
    // At least once per gate in each output (the text and the comment show gate rows in more than one place).
    expect(text.match(/paired change −0\.4000 over 20 queries, 90% CI \[/g)?.length).toBeGreaterThanOrEqual(4);
    expect(md.match(/paired change −0\.4000 over 20 queries, 90% CI \[/g)?.length).toBeGreaterThanOrEqual(4);
    // The short forms too: the commit status line, the annotations, the comment's open gate table.
    expect(statusHeadline(report, gated.defs)).toContain('hit@5 +0.1000 (paired −0.4000)');
    for (const g of report.gates)
      expect(gateMessage(g), g.metric).toContain('delta +0.1000, paired change −0.4000 over 20 queries');
    expect(md).toMatch(/\| `hit@5` \| 0\.6000 \| \+0\.1000 \(paired −0\.4000\) \|/);
    // The key metrics' mark follows the paired test (a loss), not the means' +0.1.
    expect(md).toMatch(/\| `hit@5` \|[^\n]*\+0\.1000 ▼ \|/);
    expect(md).not.toMatch(/\+0\.1000 ▲/);
    // Where the means count the same queries the two changes are one: no paired_delta, no extra words.
    const same = withShownPValues(
      compareAndGate(
        base,
        runData(
          'c2',
          ids.map((id, i) => rankedResult(id, i < 12 ? 1 : null)),
        ),
        golden,
        config,
      ).report,
    );
    expect(same.gates.every((g) => g.paired_delta === undefined)).toBe(true);
    expect(renderReportText(same, gated.defs)).not.toContain('paired change');
  });
});
