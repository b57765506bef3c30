/**
 * One clock (src/time.ts): the report's ages and staleness read a time without a zone as UTC, as the run reader
 * does, so a report is the same whatever the machine's time zone. Vitest runs each file in its own process (forks),
 * where setting process.env.TZ changes the zone Date uses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { baselineSource, renderReportMarkdown } from '../src/render/markdown.js';
import { renderReportText } from '../src/render/text.js';
import { millisecondsBetween, runTime } from '../src/time.js';
import { chunkQuery, compareAndGate, goldenSet, NO_GATES, rankedResult, runData } from './helpers/compareFixtures.js';

const zone = process.env.TZ;
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** A baseline written without a zone (SQLite's CURRENT_TIMESTAMP form) and a candidate 3 hours later, in UTC. */
function reportsAt(now: string): { md: string; text: string; source: ReturnType<typeof baselineSource> } {
  const results = [rankedResult('q1', 1)];
  const { report, defs } = compareAndGate(
    runData('b', results, { createdAt: '2026-10-20 00:00:00' }),
    runData('c', results, { createdAt: '2026-10-20T03:00:00Z' }),
    goldenSet([chunkQuery('q1')]),
    NO_GATES,
  );
  const context = { staleAfter: { now, maxAgeDays: 7 } };
  return {
    md: renderReportMarkdown(report, defs, { maxLength: 65_536, context }),
    text: renderReportText(report, defs),
    source: baselineSource(report, 'b.sqlite', context),
  };
}

describe.each(['UTC', 'America/New_York', 'Asia/Kolkata'])('under TZ=%s', (tz) => {
  it('the zone is in force (the check would mean nothing otherwise)', () => {
    process.env.TZ = tz;
    const offset = new Date(Date.UTC(2026, 9, 20)).getTimezoneOffset();
    expect(offset).toBe({ UTC: 0, 'America/New_York': 240, 'Asia/Kolkata': -330 }[tz]);
  });

  it("the candidate's age against the baseline is the UTC one: 3 hours", () => {
    process.env.TZ = tz;
    const { md, text } = reportsAt('2026-10-26T22:00:00Z');
    expect(md).toContain(', 3 hours older');
    expect(text).toContain(', 3 hours older)');
  });

  it('6 days 22 hours old is not stale (7 days allowed); 7 days 2 hours is, and age_days says so', () => {
    process.env.TZ = tz;
    const young = reportsAt('2026-10-26T22:00:00Z');
    expect(young.md).not.toContain('baseline-max-age');
    expect(young.source).toMatchObject({ age_days: 6.9, stale: false });
    const old = reportsAt('2026-10-27T02:00:00Z');
    expect(old.md).toContain('- ⚠️ The baseline run is 7 days old, past `baseline-max-age` (7 days).');
    expect(old.source).toMatchObject({ age_days: 7.1, stale: true });
  });

  it('runTime and millisecondsBetween read a zone-less time as UTC', () => {
    process.env.TZ = tz;
    expect(runTime('2026-10-20 00:00:00')).toBe(Date.UTC(2026, 9, 20));
    expect(millisecondsBetween('2026-10-20 00:00', '2026-10-20T03:00:00+03:00')).toBe(0);
    expect(millisecondsBetween('not a time', '2026-10-20T03:00:00Z')).toBeNull();
  });
});
