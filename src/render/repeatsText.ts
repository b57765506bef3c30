/**
 * The report's repeats and flaky queries (unstable on the baseline side) in words (docs/compare.md, "Repeated runs
 * and flaky queries"): the count the verdict line adds, the runs of each side, and the flaky list for the comment and
 * the terminal. Nothing when the report has no `flaky` (one run per side, no history): those reports stay as they were.
 */
import type { CompareReport } from '../gate/types.js';
import { escapeMarkdownCell, escapeMarkdownText } from './escape.js';

/** Flaky queries shown in the comment (the JSON lists more); sorted by query id. */
export const FLAKY_ROWS_SHOWN = 20;

const queries = (n: number) => `${n.toLocaleString('en-US')} flaky ${n === 1 ? 'query' : 'queries'}`;

/** "10 flaky queries set aside", for the verdict line; null without flaky queries. */
export function flakySetAsideText(report: CompareReport): string | null {
  const n = report.flaky?.count ?? 0;
  return n === 0 ? null : `${queries(n)} set aside`;
}

/** "baseline 3 runs (b1, b2, b3), candidate 3 runs (c1, c2, c3)": raw ids, for the caller to escape. */
export function repeatsText(report: CompareReport, maxIds = 5): string | null {
  const r = report.repeats;
  if (!r || (r.baseline.runs === 1 && r.candidate.runs === 1)) return null; // flaky by history alone
  const side = (name: string, s: { runs: number; run_ids: string[] }) =>
    `${name} ${s.runs} ${s.runs === 1 ? 'run' : 'runs'} (${s.run_ids.slice(0, maxIds).join(', ')}${s.run_ids.length > maxIds ? ', …' : ''})`;
  return `${side('baseline', r.baseline)}, ${side('candidate', r.candidate)}`;
}

const MEANS = "per query, each metric is the mean over its side's runs; the paired test pairs those means";

/** "the baseline's runs differ in embedding_model": repeats of different systems; null when none do. */
export function repeatsDifferText(report: CompareReport): string | null {
  const r = report.repeats;
  if (!r) return null;
  const parts = (['baseline', 'candidate'] as const)
    .filter((side) => r[side].differences?.length)
    .map((side) => `the ${side}'s runs differ in ${r[side].differences!.slice(0, 10).join(', ')}`);
  return parts.length === 0 ? null : `${parts.join('; ')}: repeats should be runs of one system`;
}

/** The comment's line under the runs compared. */
export function repeatsMarkdownLines(report: CompareReport): string[] {
  const text = repeatsText(report);
  if (text === null) return [];
  const differ = repeatsDifferText(report);
  return [
    '',
    `Repeats: ${escapeMarkdownText(text, 400)}: ${MEANS}.${differ ? ` ⚠️ ${escapeMarkdownText(differ, 400)}.` : ''}`,
  ];
}

/** The comment's flaky list, collapsed: at most FLAKY_ROWS_SHOWN rows, each cell escaped and capped. */
export function flakyMarkdownLines(report: CompareReport): string[] {
  const flaky = report.flaky;
  if (!flaky || flaky.count === 0) return [];
  const shown = flaky.queries.slice(0, FLAKY_ROWS_SHOWN);
  const more = flaky.count > shown.length ? ` (the first ${shown.length} by query id)` : '';
  return [
    '',
    `<details><summary>Flaky queries (${flaky.count.toLocaleString('en-US')})${more}: unstable in the baseline's runs or main's history, set aside, in no win, loss or regression count</summary>`,
    '',
    '| query | why | baseline runs | candidate runs |',
    '| --- | --- | --- | --- |',
    ...shown.map(
      (q) =>
        `| ${escapeMarkdownCell(q.query_id, 40)} | ${escapeMarkdownCell(q.reasons.join('; '), 160)} | ${escapeMarkdownCell(q.baseline.join(' · '), 120)} | ${escapeMarkdownCell(q.candidate.join(' · '), 120)} |`,
    ),
    '',
    `_Means and paired tests keep them with their per-query means; the JSON report lists them as \`flaky\`. A query only the candidate's runs disagree on is not flaky: it is a win, loss or draw by its hit rate._`,
    '',
    '</details>',
  ];
}

/** The terminal's line of each side's runs. */
export function repeatsTextLines(report: CompareReport, plain: (text: string, max?: number) => string): string[] {
  const text = repeatsText(report);
  if (text === null) return [];
  const differ = repeatsDifferText(report);
  return [`repeats   ${plain(text, 400)}`, ...(differ ? [`warning: ${plain(differ, 400)}`] : [])];
}

/** The terminal's first flaky queries, each with its runs' outcomes. */
export function flakyTextLines(report: CompareReport, plain: (text: string, max?: number) => string): string[] {
  const flaky = report.flaky;
  if (!flaky || flaky.count === 0) return [];
  const lines = ['', `${queries(flaky.count)} (unstable on the baseline side), set aside (in no count):`];
  for (const q of flaky.queries.slice(0, 10))
    lines.push(
      `  ${plain(q.query_id, 30)}  ${plain(q.baseline.join(' · '), 60)} → ${plain(q.candidate.join(' · '), 60)}`,
    );
  if (flaky.count > 10) lines.push(`  and ${flaky.count - 10} more in --json FILE`);
  return lines;
}
