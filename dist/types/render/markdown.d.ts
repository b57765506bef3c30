/**
 * renderReportMarkdown: the compare report as one GitHub-flavoured Markdown document, deterministic byte
 * for byte. Every value that came from a run database or golden set goes through escape.ts. When the
 * document would pass `maxLength`, the longest cuttable sections lose rows first; the verdict, runs and
 * gate table are never cut.
 */
import type { MetricDef } from '../aggregate/metrics/types.js';
import type { CompareReport } from '../gate/types.js';
import type { ReportWarning } from '../warnings.js';
import type { ReportContext } from './reportContext.js';
/** GitHub rejects comment bodies over 65,536 characters; keep a margin for the hidden marker the action adds. */
export declare const GITHUB_COMMENT_LIMIT: number;
export interface RenderOptions {
    maxLength: number;
    /** Where the untruncated report is, named when rows are left out. */
    fullReportHint?: FullReportHint;
    context?: ReportContext;
}
/** Where the baseline came from, for the JSON report (`baseline_source`); null in a candidate-only report. */
export interface BaselineSource {
    /** `artifact:NAME`, or `path` for a file given by path (the path itself is left out: it is the machine's). */
    source: string;
    /** The workflow run that uploaded the artifact; null for a path. */
    run_url: string | null;
    /** Commits between the baseline's commit and the pull request's base (0: the base commit's own run). */
    commits_behind: number | null;
    base_commit_run: boolean | null;
    /** Days from the baseline's created_at to the action's clock (1 decimal); null without a clock (the CLI). */
    age_days: number | null;
    /** Older than `baseline-max-age`; null when no limit applies. */
    stale: boolean | null;
}
export declare function baselineSource(report: CompareReport, baselinePath: string | null, context?: ReportContext): BaselineSource | null;
/** A report warning as the comment says it: the one wording (warnings.ts), a sentence, its parts in Markdown. */
export declare function markdownWarning(w: ReportWarning, context: ReportContext): string;
export declare function renderReportMarkdown(report: CompareReport, defs: MetricDef[], options?: RenderOptions): string;
/** Where the untruncated report is, or how to name it once its size is known (a store may not take it whole). */
export type FullReportHint = string | ((full: string) => string);
/**
 * The untruncated report and the one cut to `options.maxLength` (the same two documents as two
 * renderReportMarkdown calls). The full report names where it is only through the cut one.
 */
export declare function renderReportMarkdowns(report: CompareReport, defs: MetricDef[], options: RenderOptions): {
    full: string;
    cut: string;
};
