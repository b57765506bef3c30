import type { TestedNumbers } from './testedGates.js';
/**
 * The p of a tested gate's bounds, adjusted where alpha is split: "one-sided p 0.0312, Bonferroni-adjusted 0.1250",
 * "..., not adjusted" (correction: none), "..., primary, not adjusted", "..., primary with its trade,
 * Bonferroni-adjusted 0.0624" (the primary's alpha split with its trade's test: `over` 2). The one sentence every
 * output gives it in.
 */
export declare function gatePSentence(pValue: number, pAdjusted: number | null | undefined, correction: TestedNumbers['correction'], alpha: number, over?: number): string;
/** "one-sided p 0.0312, Bonferroni-adjusted 0.1250 ≥ α 0.05". */
export declare function pWords(t: TestedNumbers, alpha: number): string;
/** "change between −0.0533 and +0.0267 (90%, simultaneous over 4 tests; one-sided p 0.66, ...)". */
export declare function boundsWords(t: TestedNumbers, alpha: number, unit: string | undefined): string;
/** "with 18 queries a drop of 0.72 or more is found 80% of the time" (advice for an inconclusive gate). */
export declare function detectText(t: TestedNumbers, unit: string | undefined): string;
