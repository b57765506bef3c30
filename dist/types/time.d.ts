/**
 * The one clock: every time EvalVerdict reads (a run's `created_at`, the action's "now") is parsed here, so the run
 * picked as newest, the swapped-runs warning and the report's ages agree, whatever the machine's time zone; and every
 * time it writes is taken here, in UTC. A leaf: it imports nothing.
 */
/** Now, as the run writer and the reports write it: RFC 3339 in UTC, milliseconds kept (runs written within one
 * second still order). */
export declare const nowIso: () => string;
/** Now to the second, as the importers write a run's `created_at` (the source systems' own times have no fraction). */
export declare const nowRfc3339: () => string;
/** What runTime reads, for messages. */
export declare const RUN_TIME_FORM = "such as 2026-11-22T10:00:00Z; without a zone, UTC";
/**
 * A run's `created_at` as milliseconds since the epoch (fractions below a millisecond kept), or null when it is not
 * an RFC 3339 time. Also read: a space for the `T` and no zone, as SQLite's CURRENT_TIMESTAMP writes them (read as
 * UTC, so the newest run does not depend on where EvalVerdict runs); `+0100` (Python's `%z`); no seconds or no time.
 */
export declare function runTime(text: string): number | null;
/** Milliseconds from `earlier` to `later` (negative when `later` comes first), or null when either does not parse. */
export declare function millisecondsBetween(earlier: string, later: string): number | null;
