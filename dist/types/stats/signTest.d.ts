/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
export declare function exactSignTest(positives: number, m: number): number;
/**
 * The sign test's critical |2x - m|: for the fewest positives x (x <= m/2) whose tail reaches alpha. The tail grows
 * with x, so a binary search finds it in O(m log m), with the tail computed exactly as exactSignTest computes it.
 */
export declare function signTestCritical(m: number, alpha: number): number;
