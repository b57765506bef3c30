/**
 * What a report is rendered with besides the comparison: the links only the action knows, where the gate config came
 * from, whether the two sides are one run, main's trend and the runs' mistakes. The pipeline fills it; every renderer
 * (Markdown, text, JSON's extras, the warnings) reads it.
 */
import type { HistoryTrend } from '../compare/historyTrend.js';
import type { NoiseFloor } from '../gate/noise.js';
import type { RunnerMistakeWarning } from '../warnings.js';

/** Links the report can give; only the action knows them. */
export interface ReportContext {
  /** `https://github.com/owner/repo`: commit hashes link to `<repoUrl>/commit/<sha>`. */
  repoUrl?: string;
  /** The workflow run, whose page shows the job summary. */
  runUrl?: string;
  /** The commit the workflow evaluated (a pull request's head); the candidate's when its database records none. */
  headSha?: string;
  /** The baseline run is stale when older than `maxAgeDays` (0: never) at `now` (an ISO time: the action's clock). */
  staleAfter?: { now: string; maxAgeDays: number };
  /**
   * Where the baseline came from when the action found it (`artifact:NAME`); `headSha`, the head commit of the run
   * that uploaded it, is the baseline's commit when its database records none.
   */
  baselineFrom?: { source: string; runUrl: string; commitsBehind: number; baseCommitRun: boolean; headSha?: string };
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
export function configText(config: ConfigOrigin): string {
  return config.source === null ? 'built-in default' : `${config.source} (sha256 ${config.sha256})`;
}
