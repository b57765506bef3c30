/**
 * The one clock: every time EvalVerdict reads (a run's `created_at`, the action's "now") is parsed here, so the run
 * picked as newest, the swapped-runs warning and the report's ages agree, whatever the machine's time zone; and every
 * time it writes is taken here, in UTC. A leaf: it imports nothing.
 */

/** Now, as the run writer and the reports write it: RFC 3339 in UTC, milliseconds kept (runs written within one
 * second still order). */
export const nowIso = (): string => new Date().toISOString();

/** Now to the second, as the importers write a run's `created_at` (the source systems' own times have no fraction). */
export const nowRfc3339 = (): string => nowIso().replace(/\.\d+Z$/, 'Z');

/** What runTime reads, for messages. */
export const RUN_TIME_FORM = 'such as 2026-11-22T10:00:00Z; without a zone, UTC';

const RUN_TIME = new RegExp(
  String.raw`^(\d{4})-(\d{2})-(\d{2})` + // date
    String.raw`(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?` + // time, seconds and fraction optional
    String.raw`(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$`, // zone, optional
);

/**
 * A run's `created_at` as milliseconds since the epoch (fractions below a millisecond kept), or null when it is not
 * an RFC 3339 time. Also read: a space for the `T` and no zone, as SQLite's CURRENT_TIMESTAMP writes them (read as
 * UTC, so the newest run does not depend on where EvalVerdict runs); `+0100` (Python's `%z`); no seconds or no time.
 */
export function runTime(text: string): number | null {
  const m = RUN_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    part === undefined ? undefined : Number(part),
  );
  if (month! < 1 || month! > 12 || day! < 1 || hour > 23 || minute > 59 || second > 60) return null;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute, Math.min(second, 59)); // a leap second reads as :59
  if (date.getUTCDate() !== day) return null; // 2026-02-30
  const utc = date.getTime();
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  return utc - offsetMinutes * 60_000 + (m[7] === undefined ? 0 : Number(`0${m[7]}`) * 1000);
}

/** Milliseconds from `earlier` to `later` (negative when `later` comes first), or null when either does not parse. */
export function millisecondsBetween(earlier: string, later: string): number | null {
  const [a, b] = [runTime(earlier), runTime(later)];
  return a === null || b === null ? null : b - a;
}
