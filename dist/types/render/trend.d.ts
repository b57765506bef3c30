/**
 * Main's history in the report: each gated metric's values over main's last runs as a text sparkline,
 * the first and last values, and the change-point mark; then the queries flaky by history. Everything taken from
 * the history file (commits, times, query ids) is untrusted and escaped.
 */
import type { HistoryTrend } from '../compare/historyTrend.js';
/** One character per value, scaled between the series' own lowest and highest (a flat series is mid-height). */
export declare function sparkline(values: ReadonlyArray<number | null>): string;
/**
 * The trend section's Markdown lines (leading blank line included), collapsed under a summary that carries the
 * change-point marks and the flaky count; none for a history without runs.
 */
export declare function trendMarkdownLines(trend: HistoryTrend | undefined, units?: ReadonlyMap<string, {
    unit?: string;
}>): string[];
/** The trend as plain text lines for the terminal report (no Markdown). */
export declare function trendTextLines(trend: HistoryTrend | undefined, units?: ReadonlyMap<string, {
    unit?: string;
}>): string[];
