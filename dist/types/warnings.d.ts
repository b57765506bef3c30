/**
 * Warnings as data: what the readers and the report find, kept as values until an entry prints them
 * (src/render/warningText.ts words them for the terminal and the action's annotations, src/render/markdown.ts for the
 * comment). Two halves of one golden file merge their unknown keys as data (mergeWarnings), not by parsing text.
 */
export type Side = 'baseline' | 'candidate';
/** A key a golden query (or its gold_supports or expected_lines map) has that EvalVerdict does not read. */
export interface UnknownKeyWarning {
    kind: 'unknown_key';
    source: string;
    /** The line of the first query that has it. */
    line: number;
    /** The map it is in; null: the query itself. */
    map: 'gold_supports' | 'expected_lines' | null;
    key: string;
    /** The queries that have it. */
    count: number;
    /** The keys that place has, for "did you mean" (and listed for a map's). */
    known: readonly string[];
}
/** A warning worded where it is found (a reader's own finding, with its file and line in the text). */
export interface NoteWarning {
    kind: 'note';
    text: string;
}
/**
 * A runner's mistake in one run's results that changes what is scored (`evalverdict validate`'s finding of the same
 * check and field, src/validate/findings.ts): a key EvalVerdict does not read that was most likely meant as one it does
 * (`hits_top_k[].docId` for `doc_id`), or hits with no id or path, which can match nothing. Counted over every row.
 */
export interface RunnerMistakeWarning {
    kind: 'runner_mistake';
    side: Side;
    run: string;
    check: 'unknown-key' | 'unmatchable-hit';
    /** The field, list indexes left out: `hits_top_k[].docId`, or `hits_top_k[]` for unmatchable hits. */
    field: string;
    /** The key the unknown one was most likely meant as; null for unmatchable hits. */
    meant: string | null;
    /** The queries whose results show it, of the run's `results`. */
    queries: number;
    results: number;
    /** The first of them, in query_id order. */
    firstQuery: string;
}
/** What the comparison itself warns about; the Markdown comment, the text report and stderr all show these. */
export type ReportWarning = {
    kind: 'stale_baseline';
    age: string;
    maxAgeDays: number;
} | {
    kind: 'baseline_behind';
    commitsBehind: number;
} | {
    kind: 'swapped_runs';
    age: string;
} | {
    kind: 'candidate_commit';
    candidate: string;
    head: string;
}
/** `leftOut`: under `--mean-over trec` the candidate's means leave these queries out, not count them as misses. */
 | {
    kind: 'missing_results';
    count: number;
    leftOut?: boolean;
} | {
    kind: 'added_results';
    count: number;
} | {
    kind: 'unknown_results';
    side: Side;
    count: number;
} | {
    kind: 'duplicate_results';
    side: Side;
    count: number;
}
/** Results with more hits or answer citations than the caps of src/aggregate/score.ts: the first are scored. */
 | {
    kind: 'capped_results';
    side: Side;
    count: number;
} | {
    kind: 'other_golden_set';
    side: Side;
    recorded: string;
    fingerprint: string;
} | {
    kind: 'judge_differs';
} | {
    kind: 'pending';
    count: number;
} | {
    kind: 'same_run';
    runId: string;
    why: 'same database and run' | 'same run id and results';
} | RunnerMistakeWarning;
export type Warning = UnknownKeyWarning | NoteWarning | ReportWarning;
export declare const note: (text: string) => NoteWarning;
/** Notes from texts, nulls (no warning) left out. */
export declare const notes: (texts: ReadonlyArray<string | null | false | undefined>) => NoteWarning[];
/**
 * One warning per unknown key of a file and map, where a file read in two halves (two threads) gave one per half:
 * the counts added, the first half's line kept. The rest pass as they are, in order.
 */
export declare function mergeWarnings(warnings: readonly Warning[]): Warning[];
