/**
 * What the action derives from a compare report: which gates fail the step, the annotation for each failed
 * gate, and the `failed-gates` and `summary` outputs. Pure: no @actions/core here.
 */
import type { CompareReport, GateResult } from '../gate/types.js';
import { formatDelta, formatValue } from '../numberFormat.js';
import { compactStableJson } from '../stableJson.js';
import { KEY_METRICS, whereText } from '../render/reportParts.js';
import type { FailOn } from './inputs.js';

/**
 * Metrics the `summary` output always carries when the report has them (besides every gated metric): the comment's
 * key metrics, and a few a later step is likely to read.
 */
export const SUMMARY_METRICS = [...KEY_METRICS, 'hit@5', 'citation_hit_rate', 'under_refusal_rate', 'cost_usd_total'];

/** Gates that fail at `level`: `error` = error-level gates that failed; `warn` = those and failed warn-level ones. */
export function gatesFailingAt(report: CompareReport, level: FailOn): GateResult[] {
  if (level === 'never') return [];
  return report.gates.filter((g) => g.effect === 'fail' || (level === 'warn' && g.effect === 'warn'));
}

/** The `passed` output: no gate failed at the `fail-on` level (for `fail-on: never`, at the error level). */
export function passedAt(report: CompareReport, failOn: FailOn): boolean {
  return gatesFailingAt(report, failOn === 'never' ? 'error' : failOn).length === 0;
}

export function gateLabel(g: GateResult): string {
  return `${g.metric}${whereText(g.where)}`;
}

/** One line per failed gate, for the annotation and the failure message. */
export function gateMessage(g: GateResult): string {
  const value = (x: number | null) => (x !== null && Number.isInteger(x) ? String(x) : formatValue(x));
  const delta = (x: number | null) =>
    x !== null && Number.isInteger(x) && x !== 0 ? `${x > 0 ? '+' : '−'}${Math.abs(x)}` : formatDelta(x);
  const paired =
    g.paired_delta !== undefined && g.n_paired !== undefined
      ? `, paired change ${formatDelta(g.paired_delta)} over ${g.n_paired} queries`
      : '';
  const values = `baseline ${value(g.baseline)}, candidate ${value(g.candidate)}, delta ${delta(g.delta)}${paired}`;
  const what =
    g.result === 'no_data'
      ? 'no data'
      : g.result === 'inconclusive'
        ? 'inconclusive'
        : `threshold ${g.threshold} not met`;
  return `${gateLabel(g)}: ${what} (${values})${g.note ? `; ${g.note}` : ''}`;
}

export interface GateAnnotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
  /** The gate config file and line, when the gate came from one. */
  file?: string;
  line?: number;
}

/**
 * One annotation per gate with an effect: an error for each gate that fails the step at the `fail-on` level,
 * a warning for every other failed gate (warn-level gates, or all of them under `fail-on: never`).
 */
export function gateAnnotations(report: CompareReport, failOn: FailOn, configFile: string | null): GateAnnotation[] {
  const failing = new Set(gatesFailingAt(report, failOn));
  return report.gates
    .filter((g) => g.effect !== 'none')
    .map((g) => {
      const level = failing.has(g) ? ('error' as const) : ('warning' as const);
      return {
        level,
        title: `EvalVerdict ${level === 'error' ? 'gate failed' : 'gate warning'}: ${gateLabel(g)}`,
        message: gateMessage(g),
        ...(configFile && g.line !== undefined ? { file: configFile, line: g.line } : {}),
      };
    });
}

/** The step's failure message when gates fail it, naming each failed gate. */
export function gateFailureMessage(failed: GateResult[], failOn: FailOn): string {
  const n = failed.length;
  return `EvalVerdict: ${n} ${n === 1 ? 'gate' : 'gates'} failed (fail-on: ${failOn}): ${failed.map((g) => `${gateLabel(g)} (${g.threshold})`).join(', ')}`;
}

/** The `failed-gates` output: every gate with an effect (failed or warned), as in the JSON report. */
export function failedGatesJson(report: CompareReport): string {
  return compactStableJson(report.gates.filter((g) => g.effect !== 'none'));
}

/** The `summary` output: verdict, runs, the key metrics with their deltas, outcome counts and gate tallies. */
export function summaryJson(report: CompareReport): string {
  const ids = [...new Set([...report.gates.filter((g) => !g.where).map((g) => g.metric), ...SUMMARY_METRICS])].filter(
    (id) =>
      report.metrics[id] !== undefined &&
      (report.metrics[id].baseline !== null || report.metrics[id].candidate !== null),
  );
  const metrics = Object.fromEntries(
    ids.map((id) => {
      const m = report.metrics[id];
      return [
        id,
        {
          baseline: m.baseline,
          candidate: m.candidate,
          delta: m.delta,
          rel_delta: m.rel_delta,
          p_value: m.p_value,
          significant: m.significant,
        },
      ];
    }),
  );
  return compactStableJson({
    verdict: report.verdict,
    baseline_run: report.baseline?.run_id ?? null,
    candidate_run: report.candidate.run_id,
    metrics,
    counts: report.counts,
    gates: {
      total: report.gates.length,
      failed: report.gates.filter((g) => g.effect === 'fail').length,
      warned: report.gates.filter((g) => g.effect === 'warn' && g.result !== 'inconclusive').length,
      inconclusive: report.gates.filter((g) => g.result === 'inconclusive').length,
    },
  });
}

/** The `summary` output when the run could not be evaluated. */
export function errorSummaryJson(message: string): string {
  return JSON.stringify({ verdict: 'error', error: message });
}
