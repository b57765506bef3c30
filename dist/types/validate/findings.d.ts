import type { GoldenQuery, GoldenSet } from '../types.js';
export type FindingCheck = 'invalid-json' | 'unknown-key' | 'wrong-value' | 'missing-key' | 'unmatchable-hit' | 'rank-order' | 'query-id-mismatch' | 'empty-run' | 'duplicate-query' | 'not-in-golden' | 'missing-from-run' | 'no-usable-hits';
/** One finding: a mistake of one kind, with the first query that shows it and how many do. */
export interface RunFinding {
    kind: 'run-format';
    check: FindingCheck;
    /** The run database's path. */
    source: string;
    run: string;
    /** The first query (in query_id order) that shows it; null for a finding about the whole run. */
    query: string | null;
    /** The field, list indexes left out (`hits_top_k[].chunk_id`); null when none. */
    field: string | null;
    /** How many queries (or, for golden-set findings, ids) show it. */
    count: number;
    /**
     * Set when only the first `of` results were checked (compare's and aggregate's bound, src/validate/pipelineChecks.ts):
     * `count` is of those. Absent when every row was checked, as `evalverdict validate` checks them.
     */
    of?: number;
    /** What is wrong, without the file, run and query (formatFinding adds them). */
    text: string;
    /**
     * A finding that makes every score of its kind meaningless (no hit of the run can match the golden set): compare and
     * aggregate stop on it (exit 2) rather than report 0.
     */
    blocking: boolean;
}
/**
 * What the checks need of a golden set: its queries (for ids missing either side; absent when only a report of it
 * is at hand), whether it expects hits, and whether a hit's path alone can meet it (gold_supports).
 */
export interface GoldenView {
    source: string;
    queries: readonly GoldenQuery[] | null;
    expectsHits: boolean;
    pathsMatch: boolean;
}
/**
 * A finding that changes what is scored, which the comparison's report names (src/warnings.ts RunnerMistakeWarning):
 * an unknown key with a key it was most likely meant as (a misspelt `doc_id` is never read), or hits that can match
 * nothing. `meant`: that key; null for unmatchable hits.
 */
export interface RunnerMistake {
    finding: RunFinding;
    meant: string | null;
}
export declare function goldenViewOf(golden: GoldenSet): GoldenView;
/** Collects the findings of one run's rows, then of the run as a whole (finish). */
export declare class RunChecker {
    readonly source: string;
    readonly run: string;
    private readonly byKind;
    /** The key meant, by finding, for the runner mistakes (an unmatchable hit's: null). */
    private readonly mistaken;
    /** The query each finding was last counted for: a mistake in ten hits of one query counts that query once. */
    private readonly lastCounted;
    private readonly seen;
    private readonly duplicates;
    private rows;
    private hits;
    /** Hits with an id (chunk_id or doc_id); with a path only, counted apart (they match gold_supports alone). */
    private hitsWithId;
    private hitsWithPathOnly;
    /** Results with an answer object, and whether some result wrote its hits under another key (`hits`). */
    private answers;
    private misnamedHits;
    constructor(source: string, run: string);
    /** One row of `eval_query_results`: its query_id and the `result_json` text (or whatever the column held). */
    addRow(queryId: string, resultJson: unknown): void;
    /**
     * The row's `result_json` as an object, or null with an invalid-json finding. A text past compare's bounds on a JSON
     * cell (src/load/json.ts) is that finding in compare's words, found before JSON.parse builds what the text holds.
     */
    private parsedRow;
    /**
     * A row whose `result_json` is past the length EvalVerdict reads (never fetched): counted as read, and an invalid-json
     * finding worded by `text` (the reader's own words), apart from the texts that are not JSON.
     */
    addOversizedRow(queryId: string, text: string): void;
    private countRow;
    private checkResult;
    private noteSchema;
    private note;
    /** Whether a row read so far shows a runner mistake (RunnerMistake): a misspelt key, or a hit that matches nothing. */
    hasRunnerMistake(): boolean;
    /** The runner mistakes of the rows read, in the order first seen, their counts as they stand. */
    runnerMistakes(): RunnerMistake[];
    /** Rows read so far. */
    get rowCount(): number;
    /** Whether some hit read so far can match `golden`: one with an id, or with a path when it has gold_supports. */
    hasUsableHit(golden: GoldenView | null): boolean;
    /**
     * Every finding, the run-level ones (empty run, duplicates, golden set) after the row-level ones; when not
     * `complete`, the row-level ones say of how many results they count (`of`).
     */
    finish(golden: GoldenView | null, complete?: boolean): RunFinding[];
    private goldenFindings;
}
/**
 * A finding as one line: `FILE: run \`R\`, query \`Q\`: what (in N queries)`. The entries print it; the data stays
 * in the warning list until then.
 */
export declare function formatFinding(f: RunFinding): string;
