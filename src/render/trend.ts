/**
 * Main's history in the report: each gated metric's values over main's last runs as a text sparkline,
 * the first and last values, and the change-point mark; then the queries flaky by history. Everything taken from
 * the history file (commits, times, query ids) is untrusted and escaped.
 */
import type { HistoryTrend } from '../compare/historyTrend.js';
import { formatValue, plural } from '../numberFormat.js';
import { escapeMarkdownText, metricCode } from './escape.js';

import { formatP } from '../numberFormat.js';
import { CHANGE_POINT_ALPHA } from '../stats/changePoint.js';
import type { ChangePoint } from '../stats/changePoint.js';

const BLOCKS = '▁▂▃▄▅▆▇█';
/** Flaky query ids named in the comment at most; the rest are counted. */
const FLAKY_SHOWN = 20;

/** One character per value, scaled between the series' own lowest and highest (a flat series is mid-height). */
export function sparkline(values: ReadonlyArray<number | null>): string {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const low = Math.min(...present);
  const high = Math.max(...present);
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return '·';
      if (high === low) return BLOCKS[3];
      return BLOCKS[Math.min(BLOCKS.length - 1, Math.floor(((v - low) / (high - low)) * BLOCKS.length))];
    })
    .join('');
}

function commitText(commit: string | null): string {
  if (commit === null) return 'no commit';
  return /^[0-9a-f]{7,64}$/i.test(commit) ? `\`${commit.slice(0, 7)}\`` : escapeMarkdownText(commit, 20);
}

/** Where a change point starts: "at run 13 of 15", the run counted from the oldest. */
function runText(changePoint: ChangePoint): string {
  return `at run ${changePoint.start + 1} of ${changePoint.runs}`;
}

function shiftText(m: HistoryTrend['metrics'][number], runs: HistoryTrend['runs']): string {
  if (!m.changePoint) return '—';
  const { direction, pValue, start } = m.changePoint;
  const commit = runs[start]?.commit;
  const p = `p ${pValue < 0.0001 ? '' : '= '}${formatP(pValue, CHANGE_POINT_ALPHA)}`;
  return `⚠️ main shifted ${direction} ${runText(m.changePoint)} (${commit ? `${commitText(commit)}; ${p}` : p})`;
}

/** The collapsed section's summary: the run count, and what a reviewer must see without opening it. */
function summaryText(trend: HistoryTrend): string {
  const shifted = trend.metrics.filter((m) => m.changePoint);
  const parts = [`Main's history: the last ${plural(trend.runs.length, 'run', 'runs')} on the default branch`];
  for (const direction of ['down', 'up'] as const) {
    const ids = shifted
      .filter((m) => m.changePoint!.direction === direction)
      .map((m) => `${metricCode(m.id)} ${runText(m.changePoint!)}`);
    if (ids.length > 0) parts.push(`⚠️ main shifted ${direction}: ${ids.join(', ')}`);
  }
  if (trend.flaky.size > 0) parts.push(`${plural(trend.flaky.size, 'query', 'queries')} flaky by history`);
  return parts.join(' · ');
}

/**
 * The trend section's Markdown lines (leading blank line included), collapsed under a summary that carries the
 * change-point marks and the flaky count; none for a history without runs.
 */
export function trendMarkdownLines(
  trend: HistoryTrend | undefined,
  units: ReadonlyMap<string, { unit?: string }> = new Map(),
): string[] {
  if (!trend || trend.runs.length === 0) return [];
  const newest = trend.runs[trend.runs.length - 1];
  const { minSegment, alpha, minRuns, arMax } = trend.test;
  const lines = [
    '',
    `<details><summary>${summaryText(trend)}</summary>`,
    '',
    `Oldest to newest (newest ${commitText(newest.commit)}, ${escapeMarkdownText(newest.time, 40)})${trend.otherGolden > 0 ? `; ${plural(trend.otherGolden, 'run', 'runs')} of another golden set left out` : ''}.`,
  ];
  if (trend.metrics.length > 0) {
    lines.push('', '| metric | main runs | oldest | newest | change point |', '| --- | --- | ---: | ---: | --- |');
    for (const m of trend.metrics) {
      const unit = units.get(m.id)?.unit;
      const first = m.values.find((v) => v !== null) ?? null;
      const last = [...m.values].reverse().find((v) => v !== null) ?? null;
      lines.push(
        `| ${metricCode(m.id)} | \`${sparkline(m.values)}\` | ${formatValue(first, unit)} | ${formatValue(last, unit)} | ${shiftText(m, trend.runs)} |`,
      );
    }
    lines.push(
      '',
      `_Change point: a permutation test for one shift in the metric's level, prewhitened for runs that follow each other (AR(1) coefficients up to ${arMax}), false-alarm rate at most ${alpha * 100}% per metric; a shift lasts ${minSegment} runs or more, and the test needs ${minRuns} runs or more._`,
    );
  }
  lines.push(...flakyLines(trend), '', '</details>');
  return lines;
}

function flakyLines(trend: HistoryTrend): string[] {
  if (trend.flaky.size === 0) return [];
  const ids = [...trend.flaky.keys()];
  const shown = ids.slice(0, FLAKY_SHOWN).map((id) => escapeMarkdownText(id, 80));
  const more = ids.length > FLAKY_SHOWN ? ` and ${ids.length - FLAKY_SHOWN} more` : '';
  return [
    '',
    `_Flaky by history: ${plural(ids.length, 'query', 'queries')} went between hit and miss on main, each in at least a quarter of the runs, and ${ids.length === 1 ? 'is' : 'are'} set aside: ${shown.join(', ')}${more}._`,
  ];
}

/** The trend as plain text lines for the terminal report (no Markdown). */
export function trendTextLines(
  trend: HistoryTrend | undefined,
  units: ReadonlyMap<string, { unit?: string }> = new Map(),
): string[] {
  if (!trend || trend.runs.length === 0) return [];
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const lines = ['', `Main's history (last ${plural(trend.runs.length, 'run', 'runs')}, oldest to newest):`];
  for (const m of trend.metrics) {
    const last = [...m.values].reverse().find((v) => v !== null) ?? null;
    const commit = m.changePoint ? trend.runs[m.changePoint.start]?.commit : null;
    const shown = commit
      ? `${clean(/^[0-9a-f]{7,64}$/i.test(commit) ? commit.slice(0, 7) : commit.slice(0, 20))}, `
      : '';
    const cp = m.changePoint
      ? `  shifted ${m.changePoint.direction} ${runText(m.changePoint)} (${shown}p = ${formatP(m.changePoint.pValue, CHANGE_POINT_ALPHA)})`
      : '';
    lines.push(`  ${clean(m.id).padEnd(14)} ${sparkline(m.values)}  ${formatValue(last, units.get(m.id)?.unit)}${cp}`);
  }
  if (trend.flaky.size > 0) {
    const ids = [...trend.flaky.keys()];
    lines.push(
      `  flaky by history: ${ids.slice(0, FLAKY_SHOWN).map(clean).join(', ')}${ids.length > FLAKY_SHOWN ? ` and ${ids.length - FLAKY_SHOWN} more` : ''}`,
    );
  }
  return lines;
}
