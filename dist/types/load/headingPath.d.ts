/** Heading paths as the run's writers spell them. */
/**
 * A heading path written as one text, `"A > B"` (the 001 core-metrics runner's form): split at each `>`, each
 * heading trimmed, empty ones dropped, so it matches the list `["A", "B"]`.
 */
export declare function splitHeadingPath(text: string): string[];
