import type { GoldenView, RunFinding, RunnerMistake } from './findings.js';
/**
 * How much of a run to check: every row (validate), or the first `rows` and on until a usable hit (compare), and
 * every row once one shows a runner mistake (RunnerMistake), so that the report's count is the whole run's.
 */
export interface CheckExtent {
    rows: number;
}
export interface RunCheck {
    /** The run checked (the one named, else the newest, as every command picks it). */
    run: string;
    /** Rows read. */
    rows: number;
    /** Whether rows were left unread (`extent`): the findings are those of the rows read. */
    partial: boolean;
    findings: RunFinding[];
    /** The findings that change what is scored (misspelt keys, hits that can match nothing), each counted over every row. */
    mistakes: RunnerMistake[];
}
/**
 * Checks the result rows of one run of `file` (default: the newest), against `golden` when given: every row, or the
 * first `extent.rows` and then on only until a hit that can match is seen (a runner's mistake repeats in every row;
 * a run with no usable hit is read to its end before compare stops on it), and to the end once a row shows a runner
 * mistake: a clean run costs `extent.rows` rows, and a mistake the report names is counted as validate counts it.
 */
export declare function checkRunFile(file: string, runId: string | null, golden: GoldenView | null, extent?: CheckExtent | null): Promise<RunCheck>;
