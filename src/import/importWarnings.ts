/** The warnings the formats print about what an import left out or chose, worded once. */
import type { Tally } from '../load/lines.js';
import { moreOf } from '../load/lines.js';
import { plural } from '../numberFormat.js';

/** "q1 at line 3, q2 at line 9, and 4 more": a tally of places. */
export function placesOf(t: Tally<{ id: string; line: number }>): string {
  return `${t.first.map((p) => `${p.id} at line ${p.line}`).join(', ')}${moreOf(t)}`;
}

/** Keys a file's lines carry that the format does not read (near misses of its keys were refused already). */
export function otherKeysWarning(file: string, keys: ReadonlyMap<string, number>): string[] {
  if (keys.size === 0) return [];
  const list = [...keys]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, n]) => `\`${key}\` (${plural(n, 'line', 'lines')})`);
  return [`${file}: ${plural(keys.size, 'key is', 'keys are')} not read: ${list.join(', ')}`];
}

/** Lines for queries the other file does not have: skipped. */
export function unknownWarning(
  file: string,
  t: Tally<{ id: string; line: number }>,
  [one, many]: [string, string],
  of: string,
): string[] {
  if (t.count === 0) return [];
  const text = plural(
    t.count,
    `line for a ${one} ${of} does not have is skipped`,
    `lines for ${many} ${of} does not have are skipped`,
  );
  return [`${file}: ${text}: ${placesOf(t)}`];
}
