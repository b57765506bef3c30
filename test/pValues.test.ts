/** A printed p-value never contradicts the mark and the outcome beside it, which compare the exact p with alpha. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatP, shownP } from '../src/numberFormat.js';
import type { MetricComparison } from '../src/compare/types.js';
import { pWords } from '../src/gate/gateWords.js';
import type { TestedNumbers } from '../src/gate/testedGates.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import { withShownPValues } from '../src/render/reportParts.js';
import { stableJson } from '../src/stableJson.js';

describe('shownP', () => {
  it('cuts a p just under alpha instead of rounding it up to alpha, and lifts one just over it', () => {
    expect(formatP(0.04996, 0.05)).toBe('0.0499');
    expect(formatP(0.049951, 0.05)).toBe('0.0499');
    expect(formatP(0.05, 0.05)).toBe('0.0500');
    expect(formatP(0.050004, 0.05)).toBe('0.0500');
    // An alpha with more decimals than the print: 0.04962 rounds to 0.0496, below alpha 0.04961, which it is not.
    expect(formatP(0.04962, 0.04961)).toBe('0.0497');
    // Away from alpha it rounds as every other number does.
    expect(formatP(0.12346, 0.05)).toBe('0.1235');
    expect(formatP(0.00004, 0.05)).toBe('< 0.0001');
    expect(formatP(null, 0.05)).toBe('—');
  });

  it('is on the same side of alpha as p, and within 0.0001 of it (fast-check, 2,000 cases)', () => {
    const alpha = fc.integer({ min: 1, max: 9999 }).map((i) => i / 1e4);
    const p = fc.double({ min: 0, max: 1, noNaN: true });
    const nearAlpha = fc.tuple(alpha, fc.double({ min: -2e-4, max: 2e-4, noNaN: true }));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(alpha, p),
          nearAlpha.map(([a, d]) => [a, Math.min(1, Math.max(0, a + d))] as const),
        ),
        ([a, x]) => {
          const shown = shownP(x, a);
          expect(shown < a).toBe(x < a);
          expect(Math.abs(shown - x)).toBeLessThan(1e-4 + 1e-12);
        },
      ),
      { numRuns: 2000, seed: 31 },
    );
  });

  it("the gate's note says < alpha beside a p that reads below alpha", () => {
    const t = { pValue: 0.04996, pAdjusted: 0.04996, correction: 'none', significant: true } as TestedNumbers;
    expect(pWords(t, 0.05)).toBe('one-sided p 0.0499, not adjusted < α 0.05');
  });
});

describe('withShownPValues', () => {
  const metric = (p: number | null) => ({ p_value: p, significant: p !== null && p < 0.05 }) as MetricComparison;
  const report = () =>
    ({
      alpha: 0.05,
      metrics: { 'hit@5': metric(0.04996), mrr: metric(null), MAP: metric(0.00004) },
      breakdowns: { category: { faq: { 'hit@5': metric(0.049999) } } },
      gates: [{ metric: 'hit@5', p_value: 0.0125, p_adjusted: 0.04999 } as GateResult],
    }) as unknown as CompareReport;

  it('gives the JSON the printed p-values, so they agree with `significant` there too', () => {
    const json = JSON.parse(stableJson(withShownPValues(report())));
    expect(json.metrics['hit@5'].p_value).toBe(0.0499);
    expect(json.metrics.mrr.p_value).toBeNull();
    // Below 0.0001 the exact p stays, for the reports' `< 0.0001` (4 decimals would print 0.0000 or 0.0001).
    expect(withShownPValues(report()).metrics.MAP.p_value).toBe(0.00004);
    expect(json.breakdowns.category.faq['hit@5'].p_value).toBe(0.0499);
    expect(json.gates[0].p_adjusted).toBe(0.0499);
    expect(json.gates[0].p_value).toBe(0.0125);
    // Without it, the JSON's own rounding printed alpha itself beside `significant: true`.
    expect(JSON.parse(stableJson(report())).metrics['hit@5'].p_value).toBe(0.05);
  });
});
