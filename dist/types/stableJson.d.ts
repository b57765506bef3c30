/** Compact canonical JSON for hashing (no rounding). */
export declare function canonicalJson(value: unknown): string;
/** The JSON we print: sorted keys, 4-decimal rounding, null for undefined or non-finite, 2-space indent. */
export declare function stableJson(value: unknown): string;
/** stableJson's JSON without the indentation and the final line break (one line, for outputs and logs). */
export declare function compactStableJson(value: unknown): string;
