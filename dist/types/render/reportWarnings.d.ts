/**
 * What a comparison warns about, as data (src/warnings.ts ReportWarning): one list that the Markdown comment, the
 * text report and the entries' stderr each word in their own format. Pure.
 */
import type { HistoryTrend } from '../compare/historyTrend.js';
import type { CompareReport } from '../gate/types.js';
import type { NoiseFloor } from '../gate/noise.js';
import type { ReportWarning, RunnerMistakeWarning } from '../warnings.js';
/** Links the report can give; only the action knows them. */
export interface ReportContext {
    /** `https://github.com/owner/repo`: commit hashes link to `<repoUrl>/commit/<sha>`. */
    repoUrl?: string;
    /** The workflow run, whose page shows the job summary. */
    runUrl?: string;
    /** The commit the workflow evaluated (a pull request's head); the candidate's when its database records none. */
    headSha?: string;
    /** The baseline run is stale when older than `maxAgeDays` (0: never) at `now` (an ISO time: the action's clock). */
    staleAfter?: {
        now: string;
        maxAgeDays: number;
    };
    /**
     * Where the baseline came from when the action found it (`artifact:NAME`); `headSha`, the head commit of the run
     * that uploaded it, is the baseline's commit when its database records none.
     */
    baselineFrom?: {
        source: string;
        runUrl: string;
        commitsBehind: number;
        baseCommitRun: boolean;
        headSha?: string;
    };
    /** The gate config that produced the verdict, named in every format (set by the pipeline). */
    config?: ConfigOrigin;
    /** Why the baseline and the candidate are one run, when they are (set by the pipeline, which knows the paths). */
    sameRun?: SameRunReason | null;
    /** Main's history: the gated metrics' trend and the queries flaky by history, shown when given. */
    trend?: HistoryTrend;
    /**
     * The runs' mistakes that change what is scored (a misspelt key, hits that can match nothing), found by the checks
     * `evalverdict validate` runs (set by the pipeline): warned of before the queries without a result.
     */
    runnerMistakes?: readonly RunnerMistakeWarning[];
}
/** Where the gate config came from: a file or the action's `gates` input, with its hash; null: the built-in default. */
export interface ConfigOrigin {
    source: string | null;
    /** The first 12 hex digits of the SHA-256 of the config's text; null for the built-in default. */
    sha256: string | null;
    /** The noise floor the config carries (`noise:`, written by `evalverdict calibrate`), named by the reports. */
    noise?: NoiseFloor;
}
export type SameRunReason = 'same database and run' | 'same run id and results';
/** The config as the text report and stderr name it: `PATH (sha256 0123456789ab)`, or `built-in default`. */
export declare function configText(config: ConfigOrigin): string;
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
