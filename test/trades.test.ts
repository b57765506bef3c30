/**
 * Trades (issue 49; docs/gates.md, "Trades"): `trade: {margin, metric, min_gain}` on a tested gate. The gain's
 * statistic (src/stats/tradeGain.ts) on exact inputs, the config's refusals with their lines, the family that counts
 * the gain's test, and the outcome in every output from run databases: a bought drop passes as traded, an unbought
 * one decides as before and says what the trade lacked. The claims by simulation are in test/tradeSims.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/pipeline/runCompare.js';
import { renderReportText } from '../src/render/text.js';
import { MIN_TRADE_QUERIES, tradeGain } from '../src/stats/tradeGain.js';
import { gainWords } from '../src/gate/trades.js';
import type { GateResult } from '../src/gate/types.js';
import { gateConfigError } from './helpers/compareFixtures.js';
import { hit, removeTempDirs, result, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import { writeTradeExample } from './helpers/tradeExample.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

const f64 = (xs: number[]) => Float64Array.from(xs);

describe("a trade's gain (tradeGain)", () => {
  it('the geometric mean of the per-query ratios, for every cost', () => {
    const g = tradeGain(f64([100, 200, 400]), f64([50, 100, 200]), 0.25);
    expect(g.gain).toBeCloseTo(0.5, 12);
    expect(g.n).toBe(3);
    // Ratios of 1/2 and 1/8: geometric mean 1/4, a gain of 0.75 (the totals' would be 1 - 150/900 = 0.83).
    expect(tradeGain(f64([100, 800]), f64([50, 100]), 0.25).gain).toBeCloseTo(0.75, 12);
  });

  it('0 on both sides is no change; 0 in one run only leaves the gain untested, whatever the other prices', () => {
    // Ratios 1 (0 and 0), 1/2, 1: a geometric mean of 2^(-1/3).
    expect(tradeGain(f64([0, 40, 5]), f64([0, 20, 5]), 0.25).gain).toBeCloseTo(1 - 2 ** (-1 / 3), 12);
    expect(tradeGain(f64([0, 0]), f64([0, 0]), 0.25)).toEqual({ gain: null, pValue: null, n: 2, oneSidedZeros: 0 });
    // The review's case: 100 of 1,000 queries made free, the rest unchanged, and one other query at $0.00001.
    const base = f64(Array(1000).fill(0.01));
    const cand = base.map((x, i) => (i < 100 ? 0 : i === 500 ? 0.00001 : x));
    const g = tradeGain(base, cand, 0.25);
    expect(g).toMatchObject({ pValue: null, n: 1000, oneSidedZeros: 100 });
    // Its gain is over the 900 queries with a ratio: one of them 1,000 times cheaper.
    expect(g.gain).toBeCloseTo(1 - 0.001 ** (1 / 900), 12);
    expect(
      tradeGain(
        base,
        base.map((x, i) => (i === 0 ? 0 : x * 0.5)),
        0.25,
      ).pValue,
    ).toBeNull();
    expect(
      tradeGain(
        base,
        base.map((x) => x * 0.5),
        0.25,
      ).pValue,
    ).toBe(0);
  });

  it(`under ${MIN_TRADE_QUERIES} queries: the gain is measured, not tested; from ${MIN_TRADE_QUERIES} it is`, () => {
    const n = MIN_TRADE_QUERIES + 2;
    const [b, c] = [f64(Array(n).fill(100)), f64(Array(n).fill(40))];
    const under = tradeGain(b.slice(0, MIN_TRADE_QUERIES - 1), c.slice(0, MIN_TRADE_QUERIES - 1), 0.25);
    expect(under).toMatchObject({ pValue: null, n: MIN_TRADE_QUERIES - 1 });
    expect(under.gain).toBeCloseTo(0.6, 12);
    expect(tradeGain(b, c, 0.25)).toMatchObject({ pValue: 0, n });
    expect(tradeGain(f64([]), f64([]), 0.25)).toMatchObject({ gain: null, pValue: null, n: 0 });
  });

  it('a p under 0.5 only for a gain above min_gain; every ratio by the same share lower never has a larger p', () => {
    const costs = fc.array(fc.double({ min: 1, max: 5000, noNaN: true }), {
      minLength: MIN_TRADE_QUERIES,
      maxLength: 2 * MIN_TRADE_QUERIES,
    });
    fc.assert(
      fc.property(costs, fc.double({ min: 0.2, max: 1.2, noNaN: true }), (base, ratio) => {
        const b = f64(base);
        const c = b.map((x, i) => x * ratio * (1 + 0.3 * Math.sin(i)));
        const g = tradeGain(b, c, 0.25);
        expect(g.pValue).not.toBeNull();
        if (g.pValue! < 0.05) expect(g.gain).toBeGreaterThan(0.25);
        // Every ratio 10% lower moves the log ratios' mean, not their spread.
        const cheaper = tradeGain(
          b,
          c.map((x) => x * 0.9),
          0.25,
        );
        expect(cheaper.pValue!).toBeLessThanOrEqual(g.pValue! * (1 + 1e-9) + 1e-12);
      }),
      { numRuns: 300, seed: 49 },
    );
  });
});

describe("a trade's words when its gain is not tested", () => {
  const untested = {
    one_sided_zeros: 0,
    metric: 'latency_ms',
    margin: 0.1,
    min_gain: 0.25,
    p_value: null,
    p_adjusted: null,
    bought: false,
    traded: false,
  } as const;
  it.each([
    [
      { ...untested, gain: null, n_paired: 0 },
      "no query has elapsed_ms in both runs, so the trade's gain cannot be tested",
    ],
    [
      { ...untested, gain: null, n_paired: 12 },
      "elapsed_ms is 0 for every query of both runs, so the trade's gain cannot be tested",
    ],
    [
      { ...untested, gain: 0.5, n_paired: 3 },
      '50% lower latency, but only 3 queries have elapsed_ms in both runs, fewer than the 100 a gain is tested on',
    ],
    [
      { ...untested, gain: 0.4, n_paired: 500, one_sided_zeros: 3 },
      '40% lower latency, but 3 queries have elapsed_ms 0 in one run only: a ratio cannot say how far a free query fell, so the gain is not tested',
    ],
  ])('%#', (trade, words) => {
    expect(gainWords(trade, { correction: 'holm', simultaneousOver: 2 }, 0.05)).toBe(words);
  });
});

describe('the config: a trade is checked key by key, each refusal naming its line', () => {
  const gate = (trade: string, extra = '    margin: 0.02\n') =>
    `gates:\n  - metric: hit@5\n${extra}    trade: ${trade}\n`;
  const TRADE = '{margin: 0.06, metric: latency_ms, min_gain: 0.25}';

  it.each([
    [gate(TRADE, '    min: 0.5\n'), 'gates.yml:4: `trade` is for a tested gate: give the gate a `margin`'],
    [
      gate(TRADE, '    margin: 0.02\n    where: {category: a}\n'),
      'gates.yml:5: `trade` cannot be combined with `where`: a trade is decided over the whole set',
    ],
    [gate('fast'), 'gates.yml:4: `trade` must be a map'],
    [gate('{margin: 0.06, metric: latency, min_gain: 0.25}'), '`trade.metric` must be one of latency_ms, cost_usd'],
    [gate('{margin: 0.06, metric: latncy_ms, min_gain: 0.25}'), 'did you mean `latency_ms`?'],
    [gate('{margin: 0.06, metric: cost_usd, min_gain: 1}'), 'gates.yml:4: `trade.min_gain` must be a share above 0'],
    [gate('{margin: 0.06, metric: cost_usd}'), 'gates.yml:4: `trade.min_gain` must be a share above 0 and below 1'],
    [gate('{margin: 0.06, metric: cost_usd, min_gain: 0.2, gain: 1}'), 'unknown `trade` key `gain`'],
    [
      gate('{margin: 0.01, metric: cost_usd, min_gain: 0.2}'),
      "gates.yml:4: `trade.margin` must be a number above the gate's margin 0.02 (the larger drop a gain may buy, in the metric's unit), got 0.01",
    ],
    [
      gate(TRADE, '    significant_only: true\n    max_drop: 0.1\n'),
      "gates.yml:5: `trade.margin` must be a number above the gate's margin 0.1",
    ],
    [
      gate(TRADE, '    significant_only: true\n    max_drop_pct: 5\n'),
      "gates.yml:5: a trade's margin is in the metric's unit, and this gate's margin comes from `max_drop_pct` and the baseline: give the gate a `margin`",
    ],
  ])('%#: refused', (yaml, message) => {
    expect(gateConfigError(yaml)).toContain(message);
  });

  it('a key of the trade in a block map is named at its own line', () => {
    const yaml =
      'gates:\n  - metric: hit@5\n    margin: 0.02\n    trade:\n      margin: 0.06\n      metric: latency_ms\n      min_gain: 2\n';
    expect(gateConfigError(yaml)).toMatch(/^gates\.yml:7: `trade\.min_gain`/);
  });

  it('per_slice and a trade together are refused', () => {
    const yaml = `slices: category\n${gate(TRADE, '    margin: 0.02\n    per_slice: true\n')}`;
    expect(gateConfigError(yaml)).toContain('`trade` cannot be combined with `per_slice`');
  });
});

// ---------------------------------------------------------------------------------------------------------
// From run databases: 400 queries, the candidate loses hit@5 on 20 (a drop of 0.05, shown beyond the margin 0.02 and
// ruled out at 0.1), at the latencies and costs given.

const QUERIES = 400;
const id = (i: number) => `q${String(i).padStart(3, '0')}`;

function golden(): string {
  return writeGolden(
    Array.from(
      { length: QUERIES },
      (_, i) => `- id: ${id(i)}\n  query: question ${i}\n  expected_doc_ids: [d${i}]\n`,
    ).join(''),
  );
}

/** Query i finds `d<i>` first, unless `lost(i)`; its elapsed_ms and cost_usd are `ms(i)` and `usd(i)`. */
function runDb(
  runId: string,
  lost: (i: number) => boolean,
  ms: (i: number) => number | null,
  usd: (i: number) => number | null,
) {
  const hits = (i: number) => (lost(i) ? [hit(1, 'c-x', 'd-x')] : [hit(1, `c${i}`, `d${i}`), hit(2, 'c-x', 'd-x')]);
  return writeRunDb({
    runs: [
      {
        runId,
        createdAt: runId === 'base' ? '2026-11-01T00:00:00Z' : '2026-11-02T00:00:00Z',
        results: Array.from({ length: QUERIES }, (_, i) =>
          result(id(i), hits(i), { elapsed_ms: ms(i), cost_usd: usd(i) }),
        ),
      },
    ],
  });
}

const baseMs = (i: number) => 150 + (i % 7) * 20;
const baseUsd = (i: number) => 0.001 * (1 + (i % 5));

async function compareTrade(
  configText: string,
  candidate: {
    ms: (i: number) => number | null;
    usd?: (i: number) => number | null;
    lost?: (i: number) => boolean;
  },
) {
  const goldenPath = golden();
  const baselinePath = await runDb('base', () => false, baseMs, baseUsd);
  const lost = candidate.lost ?? ((i) => i % 20 === 7);
  const candidatePath = await runDb('cand', lost, candidate.ms, candidate.usd ?? baseUsd);
  const out = await runCompare({ baselinePath, candidatePath, goldenPath, configText });
  const text = renderReportText(out.report, out.defs, false, out.context).trimEnd().split('\n');
  const gates = JSON.parse(out.json).gates as GateResult[];
  const verdictMd = out.markdown.split('\n').find((l) => l.startsWith('> **EvalVerdict:'))!;
  return { out, text, gates, verdictMd };
}

const LATENCY_TRADE =
  'gates:\n  - metric: hit@5\n    margin: 0.02\n    trade: {margin: 0.1, metric: latency_ms, min_gain: 0.25}\n';

describe('a trade from run databases, in every output', () => {
  it('half the latency buys the drop: a pass, traded, named in the verdict line, the gate table and the JSON', async () => {
    const { out, text, gates, verdictMd } = await compareTrade(LATENCY_TRADE, { ms: (i) => baseMs(i) / 2 + (i % 3) });
    const g = gates[0];
    expect(out.report.verdict).toBe('pass');
    expect(g).toMatchObject({ result: 'pass', effect: 'none', simultaneous_over: 2 });
    expect(g.trade).toMatchObject({
      metric: 'latency_ms',
      margin: 0.1,
      min_gain: 0.25,
      n_paired: 400,
      bought: true,
      traded: true,
    });
    expect(g.trade!.gain).toBeGreaterThan(0.45);
    expect(g.trade!.p_adjusted).toBeLessThan(0.05);
    // Without the trade it fails: its drop is shown beyond the margin 0.02.
    expect(g.ci![1]).toBeLessThan(-0.02);
    expect(g.ci![0]).toBeGreaterThan(-0.1);
    expect(g.note).toMatch(/^traded: a drop of 0\.0500 for [45]\d% lower latency, within the trade's margin 0\.1000: /);
    expect(g.note).toContain('a fall of 25% or more shown (400 queries; one-sided p < 0.0001, Bonferroni-adjusted');
    expect(verdictMd).toMatch(/· traded hit@5 −0\.0500 for [45]\d% lower latency: within the trade's margin 0\.1000/);
    expect(out.markdown).toMatch(
      /\| `hit@5` \| 0\.9500 \| −0\.0500 \| drop &lt; 0\.0200 \(margin\), or &lt; 0\.1000 for 25% lower latency \(bounds at α 0\.05\) \| ✅ pass \(traded\) \|/,
    );
    expect(out.markdown).toMatch(
      /^> - ⚖️ `hit@5` −0\.0500 \(90% CI .*\); allowed: .* — traded for [45]\d% lower latency, a fall of 25% or more shown \(400 queries; /m,
    );
    expect(text[1]).toMatch(
      /^ {2}= hit@5 −0\.0500 \(90% CI .* — traded for [45]\d% lower latency, a fall of 25% or more shown/,
    );
    expect(text[0]).toMatch(/· traded hit@5 −0\.0500 for [45]\d% lower latency: within the trade's margin 0\.1000/);
    expect(text.some((l) => /hit@5 .* pass \(traded\)/.test(l))).toBe(true);
  });

  it('a latency 5% lower does not: the gate fails as before and says the trade lacked its gain', async () => {
    const { out, gates, verdictMd } = await compareTrade(LATENCY_TRADE, { ms: (i) => baseMs(i) * 0.95 });
    const g = gates[0];
    expect(out.report.verdict).toBe('fail');
    expect(g).toMatchObject({ result: 'fail', trade: { bought: false, traded: false } });
    expect(g.trade!.gain).toBeCloseTo(0.05, 6);
    expect(g.note).toContain(
      "; not traded: the trade's margin 0.1000 holds, but 5% lower latency, a fall of 25% or more not shown (400 queries; one-sided p",
    );
    expect(verdictMd).not.toContain('traded');
  });

  it("a drop the trade's margin does not rule out fails, however fast: the alert line says so", async () => {
    // hit@5 lost on 1 query in 10: a drop of 0.1, the trade's margin itself.
    const { out, text, gates } = await compareTrade(LATENCY_TRADE, {
      ms: (i) => baseMs(i) / 2,
      lost: (i) => i % 10 === 3,
    });
    expect(gates[0]).toMatchObject({ result: 'fail', trade: { bought: true, margin_holds: false, traded: false } });
    const clause = "; not traded: a drop of the trade's margin 0.1000 is not ruled out (50% lower latency)";
    expect(gates[0].note).toContain(clause);
    expect(out.markdown).toMatch(
      /^> - ❌ `hit@5` −0\.1000 .*; not traded: a drop of the trade's margin 0\.1000 is not ruled out \(50% lower latency\)$/m,
    );
    expect(text[1]).toMatch(
      /^ {2}✗ hit@5 −0\.1000 .*; not traded: a drop of the trade's margin 0\.1000 is not ruled out/,
    );
  });

  it('no elapsed_ms in the runs: the gain cannot be tested, and the gate says so', async () => {
    const goldenPath = golden();
    const baselinePath = await runDb(
      'base',
      () => false,
      () => null,
      baseUsd,
    );
    const candidatePath = await runDb(
      'cand',
      (i) => i % 20 === 7,
      () => null,
      baseUsd,
    );
    const out = await runCompare({ baselinePath, candidatePath, goldenPath, configText: LATENCY_TRADE });
    const g = out.report.gates[0];
    expect(g).toMatchObject({ result: 'fail', trade: { gain: null, p_value: null, n_paired: 0, bought: false } });
    expect(g.note).toContain("; not traded: the trade's margin 0.1000 holds, but no query has elapsed_ms in both runs");
  });

  it('cost: a model at half the price buys the drop', async () => {
    const config =
      'gates:\n  - metric: hit@5\n    margin: 0.02\n    trade: {margin: 0.1, metric: cost_usd, min_gain: 0.3}\n';
    const { gates } = await compareTrade(config, { ms: baseMs, usd: (i) => baseUsd(i) * 0.5 });
    expect(gates[0].trade).toMatchObject({ metric: 'cost_usd', bought: true, traded: true });
    expect(gates[0].trade!.gain).toBeCloseTo(0.5, 9);
    expect(gates[0].note).toContain('for 50% lower cost');
  });

  it('a gate whose drop is within its own margin passes without the trade: traded is false, the gain still recorded', async () => {
    const config =
      'gates:\n  - metric: hit@5\n    margin: 0.09\n    trade: {margin: 0.2, metric: latency_ms, min_gain: 0.25}\n';
    const { gates, verdictMd } = await compareTrade(config, { ms: (i) => baseMs(i) / 2 });
    expect(gates[0]).toMatchObject({ result: 'pass', trade: { bought: true, traded: false } });
    expect(gates[0].note).not.toContain('traded');
    expect(verdictMd).not.toContain('traded');
  });

  it('the family counts the trade: one more test for a corrected gate, the primary split in two, none under none', async () => {
    const two = `${LATENCY_TRADE}  - metric: mrr@10\n    margin: 0.1\n`;
    const withTrade = await compareTrade(two, { ms: (i) => baseMs(i) / 2 });
    expect(withTrade.gates.map((g) => g.simultaneous_over)).toEqual([3, 3]);
    const primary = await compareTrade(`primary: hit@5\n${two}`, { ms: (i) => baseMs(i) / 2 });
    expect(primary.gates.map((g) => g.simultaneous_over)).toEqual([2, 1]);
    const [hit5] = primary.out.report.gates;
    expect(hit5.trade!.p_adjusted).toBe(Math.min(1, 2 * hit5.trade!.p_value!));
    expect(hit5.p_adjusted).toBe(Math.min(1, 2 * hit5.p_value!));
    expect(hit5.note).toContain(
      'simultaneous over 2 tests; one-sided p < 0.0001, primary with its trade, Bonferroni-adjusted',
    );
    const none = await compareTrade(`correction: none\n${two}`, { ms: (i) => baseMs(i) / 2 });
    expect(none.gates.map((g) => g.simultaneous_over)).toEqual([1, 1]);
  });
});

describe("docs/gates.md's example comment", () => {
  it('is what the code renders for test/helpers/tradeExample.ts: the verdict, its alert lines and the gate table', async () => {
    const paths = await writeTradeExample(tempDir());
    const out = await runCompare({ ...paths });
    const example = exampleOf(out.markdown);
    expect(example).toContain("· traded nDCG@10 −0.0362 for 49% lower latency: within the trade's margin 0.0600");
    expect(example).toContain('worst slice category=multi\\_hop: hit@5 −0.0333, 180 queries');
    const docs = readFileSync(join(repoRoot, 'docs/gates.md'), 'utf8');
    const quoted = /<!-- example: trade [^>]*-->\n([\s\S]*?)\n<!-- \/example -->/.exec(docs)?.[1];
    expect(quoted).toBe(example);
    // README's feature list quotes the two clauses of its verdict line, as the text report writes them.
    const verdict = renderReportText(out.report, out.defs, false, out.context).split('\n')[0];
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8').replace(/\s*\n\s*/g, ' ');
    const clauses = verdict.split(' · ').slice(1);
    expect(clauses).toHaveLength(2);
    for (const clause of clauses) expect(readme).toContain(`\`${clause}\``);
  });
});

/** The top of a comment a reader sees first: the alert (verdict and gate lines), then the gate table. */
function exampleOf(markdown: string): string {
  const lines = markdown.split('\n');
  const alert = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('>')),
  );
  const start = lines.findIndex((l) => l.startsWith('| gate |'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return [...alert, '', ...lines.slice(start, end)].join('\n');
}
