/**
 * The report's repeats and flaky queries (unstable on the baseline side) in words (docs/compare.md, "Repeated runs
 * and flaky queries"): the count the verdict line adds, the runs of each side, and the flaky list for the comment and
 * the terminal. Nothing when the report has no `flaky` (one run per side, no history): those reports stay as they were.
 */
import type { CompareReport } from '../gate/types.js';
/** Flaky queries shown in the comment (the JSON lists more); sorted by query id. */
export declare const FLAKY_ROWS_SHOWN = 20;
/** "10 flaky queries set aside", for the verdict line; null without flaky queries. */
export declare function flakySetAsideText(report: CompareReport): string | null;
/** "baseline 3 runs (b1, b2, b3), candidate 3 runs (c1, c2, c3)": raw ids, for the caller to escape. */
export declare function repeatsText(report: CompareReport, maxIds?: number): string | null;
/** "the baseline's runs differ in embedding_model": repeats of different systems; null when none do. */
export declare function repeatsDifferText(report: CompareReport): string | null;
/** The comment's line under the runs compared. */
export declare function repeatsMarkdownLines(report: CompareReport): string[];
/** The comment's flaky list, collapsed: at most FLAKY_ROWS_SHOWN rows, each cell escaped and capped. */
export declare function flakyMarkdownLines(report: CompareReport): string[];
/** The terminal's line of each side's runs. */
export declare function repeatsTextLines(report: CompareReport, plain: (text: string, max?: number) => string): string[];
/** The terminal's first flaky queries, each with its runs' outcomes. */
export declare function flakyTextLines(report: CompareReport, plain: (text: string, max?: number) => string): string[];
