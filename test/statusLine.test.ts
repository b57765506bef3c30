/** The commit status line, the failed-gate annotation and the `summary` output's gate tallies. */
import { describe, expect, it } from 'vitest';
import type { MetricDef } from '../src/aggregate/metrics/types.js';
import { gateMessage, summaryJson } from '../src/action/outputs.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import { statusHeadline } from '../src/render/reportParts.js';

const latency = {
  metric: 'latency_p95_ms',
  baseline: 850,
  candidate: 1037,
  delta: 187,
  max_increase: 100,
  threshold: 'increase ≤ 100',
  result: 'fail',
  effect: 'fail',
  note: '',
} as GateResult;
const hit = {
  metric: 'hit@5',
  baseline: 0.9,
  candidate: 0.7,
  delta: -0.2,
  threshold: 'drop ≤ 0.0000',
  result: 'inconclusive',
  effect: 'warn',
  note: 'inconclusive: drop beyond the margin 0.1000 but not significant',
} as GateResult;
const report = (gates: GateResult[]) =>
  ({
    verdict: 'fail',
    gates,
    metrics: {},
    counts: {},
    baseline: null,
    candidate: { run_id: 'c' },
  }) as unknown as CompareReport;
const defs = [{ id: 'latency_p95_ms', unit: 'ms' }] as MetricDef[];

describe('the status line and the annotations', () => {
  it("gives a gate's value in its metric's unit (latency was +187.0000)", () => {
    expect(statusHeadline(report([latency]), defs)).toBe('fail: 1 failed of 1 gate (latency_p95_ms +187)');
  });

  it('calls an inconclusive gate inconclusive, not a threshold not met', () => {
    expect(gateMessage(hit)).toBe(
      'hit@5: inconclusive (baseline 0.9000, candidate 0.7000, delta −0.2000); inconclusive: drop beyond the margin 0.1000 but not significant',
    );
    expect(gateMessage(latency)).toMatch(/^latency_p95_ms: threshold increase ≤ 100 not met \(/);
  });

  it('the summary output tallies inconclusive gates apart from warned ones', () => {
    const summary = JSON.parse(summaryJson(report([latency, hit, { ...hit, result: 'warn' } as GateResult])));
    expect(summary.gates).toEqual({ total: 3, failed: 1, warned: 1, inconclusive: 1 });
  });
});
