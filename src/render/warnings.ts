import { oneLine } from '../errors.js';

/**
 * Warnings as the entries print them: the first `limit` as they are, then one line for the rest. A golden set
 * with an unknown key in every one of 100,000 queries would otherwise print 100,000 lines (and the action would
 * raise as many annotations, of which GitHub shows ten).
 */
export function summariseWarnings(warnings: readonly string[], limit = 10): string[] {
  // A warning is one line: ids and keys quoted in it show their control characters escaped.
  if (warnings.length <= limit + 1) return warnings.map(oneLine);
  return [
    ...warnings.slice(0, limit).map(oneLine),
    `... and ${(warnings.length - limit).toLocaleString('en-US')} more warnings like these`,
  ];
}
