/** A cutoff's bounds (k's and mrr_cutoff's are the same; the schema test holds them together). */
export declare const CUTOFF_MIN: number;
export declare const CUTOFF_MAX: number;
/** alpha is above ALPHA_ABOVE and at most ALPHA_MAX: a tested gate's interval is two-sided at 1 - 2 alpha. */
export declare const ALPHA_ABOVE: number;
export declare const ALPHA_MAX: number;
export declare const DEFAULT_ALPHA = 0.05;
/** The schema's own k bounds, for the test that holds them to mrr_cutoff's. */
export declare const K_SCHEMA_BOUNDS: readonly [number | undefined, number | undefined];
/** The words every refusal of a cutoff ends with. */
export declare const CUTOFF_WORDS: string;
export declare function isCutoff(value: unknown): value is number;
export declare function isAlpha(value: unknown): value is number;
/**
 * One cutoff as typed (a flag's or an input's text): decimal digits only, so "", "0x10" and "1e1" are refused rather
 * than read as numbers nobody typed. `name` opens the message (`--mrr-cutoff`, input `mrr-cutoff`).
 */
export declare function cutoffFromText(text: string, name: string): number;
/** A comma list of cutoffs as typed (`1,3,5,10,20`): each as cutoffFromText, repeats dropped, in order. */
export declare function cutoffListFromText(text: string, name: string): number[];
