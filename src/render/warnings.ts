import { mergeUnknownKeyWarnings } from '../load/golden.js';
import { oneLine } from '../errors.js';

/**
 * Warnings as the entries print them: the first `limit` as they are, then one line for the rest. A golden set
 * with a different unknown key in each of 100,000 queries would otherwise print 100,000 lines (and the action would
 * raise as many annotations, of which GitHub shows ten). The unknown-key warnings of a golden file read in two
 * halves are merged into one per key first, as one thread gives them.
 */
export function summariseWarnings(warnings: readonly string[], limit = 10): string[] {
  // A warning is one line: ids and keys quoted in it show their control characters escaped.
  const merged = mergeUnknownKeyWarnings(warnings).map(oneLine);
  if (merged.length <= limit + 1) return merged;
  return [
    ...merged.slice(0, limit),
    `... and ${(merged.length - limit).toLocaleString('en-US')} more warnings like these`,
  ];
}
