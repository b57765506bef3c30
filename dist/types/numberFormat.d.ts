/**
 * Numbers as every stage prints them: rounded to 4 decimals on output only (as trec_eval prints), n/a for a null.
 * A leaf module: aggregate (kebab's JSON), gate (threshold text) and render all read it.
 */
export declare function round4(x: number): number;
/**
 * A p-value to 4 decimals as every output gives it: rounded, except where rounding would carry it across alpha
 * (0.04996 at alpha 0.05 is 0.0499, cut rather than rounded up to 0.0500), so a printed p never contradicts the mark
 * and the outcome beside it, which compare the exact p with alpha.
 */
export declare function shownP(p: number, alpha: number): number;
/** A p-value as the reports print it: `shownP`, and `< 0.0001` below that. */
export declare function formatP(p: number | null | undefined, alpha: number): string;
export declare function formatValue(value: number | null | undefined, unit?: string): string;
export declare function formatDelta(value: number | null | undefined, unit?: string): string;
/**
 * A delta as formatDelta prints it, but never `±0` for a value that is not 0: more decimals (up to 10) until its
 * sign shows. For an interval's end, whose side of 0 is the test's answer (a gate's interval leaves 0 exactly when
 * its test is significant), so the printed interval and the outcome cannot disagree by rounding.
 */
export declare function formatDeltaKeepingSign(value: number | null | undefined, unit?: string): string;
/** "1 query", "1,024 queries": a count with its noun. */
export declare function plural(n: number, one: string, many: string): string;
