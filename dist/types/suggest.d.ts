/** "; did you mean `x`?" for a misspelt key or name, or '' when no candidate is close. */
export declare function suggest(word: string, candidates: Iterable<string>): string;
/** Levenshtein distance, ignoring case. */
export declare function editDistance(a: string, b: string): number;
