/**
 * What a comparison warns about, as data (src/warnings.ts ReportWarning): one list that the Markdown comment, the
 * text report and the entries' stderr each word in their own format. Pure.
 */
import type { CompareReport } from '../gate/types.js';
import type { ReportWarning, RunnerMistakeWarning } from '../warnings.js';
import type { ReportContext } from './reportContext.js';
/** "12 days" when the baseline run is older than the action's `baseline-max-age`, else null. */
export declare function staleAge(createdAt: string, context: ReportContext): string | null;
/** The report's warnings, in the order the comment lists them. */
export declare function reportWarnings(report: CompareReport, context?: ReportContext): ReportWarning[];
/** More than half of the run's results show the mistake. */
export declare const inMostResults: (m: RunnerMistakeWarning) => boolean;
/**
 * The runs most of whose results have hits that can match nothing in the golden set: their scores are mostly a
 * runner's mistake, so the verdict line says so itself (warnings.ts, verdictCaveatText), not only a warning below.
 */
export declare function mostlyUnmatchable(context: ReportContext): RunnerMistakeWarning[];
/**
 * The runner mistakes as the JSON report's `runner_warnings` (docs/compare.md, "The JSON report"): each with its side,
 * run, check and field (as `evalverdict validate` names them), the key meant, its count of the run's results, and
 * whether that is more than half of them (`most_results`: with `unmatchable-hit`, what the verdict line names).
 */
export declare function runnerWarningsJson(mistakes: readonly RunnerMistakeWarning[]): Array<Record<string, unknown>>;
