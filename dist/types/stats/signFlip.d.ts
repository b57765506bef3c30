export declare const EXACT_ENUMERATION_MAX = 16;
export declare const RESAMPLING_MAX = 2000;
export interface PairedResult {
    pValue: number;
    /** The interval of the mean difference at level 1 - alpha; excludes 0 exactly when pValue < alpha. */
    ci: [number, number];
    n: number;
}
/** A sign-flip test's p-value and its critical value: the largest |sum| with p >= alpha (tolerance included). */
export interface SignFlipTest {
    pValue: number;
    critical: number;
}
export declare function signFlipTest(diffs: ArrayLike<number>, permutations: number, random: () => number, alpha: number): SignFlipTest;
/** The sign-flip test's p-value alone. */
export declare function signFlipPValue(diffs: ArrayLike<number>, permutations: number, random: () => number): number;
/** Test and interval (level 1 - alpha) for one metric's paired differences. Null when there are none. */
export declare function pairedSignificance(diffs: ArrayLike<number>, permutations: number, seed: number, alpha?: number): PairedResult | null;
