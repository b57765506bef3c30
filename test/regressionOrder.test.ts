/**
 * The worst per-query rows are in the order their heading states (docs/compare.md, "The comment", item 5): lost
 * hits, then slipped ranks, then answers, each largest drop first; so a slipped rank with a larger drop still
 * comes after every lost hit. The wins likewise: hits found, then improved ranks, each largest gain first.
 */
import { describe, expect, it } from 'vitest';
import { renderReportMarkdown } from '../src/render/markdown.js';
import { regressionOrder, winOrder } from '../src/render/reportParts.js';
import { renderReportText } from '../src/render/text.js';
import { NO_GATES, chunkQuery, compareAndGate, goldenSet, rankedResult, runData } from './helpers/compareFixtures.js';

/** One query per key, its relevant chunk at the baseline's and the candidate's rank (null: not found), compared. */
function compareRanks(ranks: Record<string, [number | null, number | null]>) {
  const ids = Object.keys(ranks);
  const run = (name: string, side: 0 | 1) =>
    runData(
      name,
      ids.map((id) => rankedResult(id, ranks[id][side])),
    );
  return compareAndGate(run('base', 0), run('cand', 1), goldenSet(ids.map((id) => chunkQuery(id))), NO_GATES);
}

describe('the worst regressions, in the order the heading says', () => {
  // nDCG@10 of one relevant chunk at rank r: 1 / log2(r + 1).
  const ranks: Record<string, [number, number | null]> = {
    lostFar: [9, null], // a lost hit, drop 1/log2(10) = 0.30
    lostNear: [2, null], // a lost hit, drop 1/log2(3) = 0.63
    slipped: [1, 10], // a slipped rank, drop 1 - 1/log2(11) = 0.71: the largest drop, yet after both lost hits
    slippedLess: [1, 2], // a slipped rank, drop 1 - 0.63 = 0.37
    same: [1, 1],
  };
  const { report, defs } = compareRanks(ranks);
  const expected = ['lostNear', 'lostFar', 'slipped', 'slippedLess'];

  it('in the text report', () => {
    const lines = renderReportText(report, defs).split('\n');
    const at = lines.indexOf(`Regressions (4): ${regressionOrder('nDCG@10')}`);
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 2, at + 6).map((l) => l.trim().split(/ +/)[0])).toEqual(expected);
  });

  it('in the comment, open and collapsed', () => {
    const md = renderReportMarkdown(report, defs);
    const open = md.indexOf(`#### Regressions (4): ${regressionOrder('nDCG@10')}`);
    const collapsed = md.indexOf(`<summary>Regressions and losses: ${regressionOrder('nDCG@10')} (4)</summary>`);
    expect(open).toBeGreaterThan(0);
    expect(collapsed).toBeGreaterThan(open);
    for (const at of [open, collapsed]) {
      const rows = md
        .slice(at)
        .split('\n')
        .filter((l) => /^\| \w+ \|/.test(l) && !l.startsWith('| query |'))
        .slice(0, 4);
      expect(rows.map((r) => r.split(' | ')[0].slice(2))).toEqual(expected);
    }
  });
});

describe('the wins, in the order their heading says', () => {
  const ranks: Record<string, [number | null, number]> = {
    foundFar: [null, 9], // a hit found, gain 0.30
    foundNear: [null, 2], // a hit found, gain 0.63
    climbed: [10, 1], // a rank improved, gain 0.71: the largest gain, yet after both hits found
    climbedLess: [2, 1], // a rank improved, gain 0.37
  };
  const { report, defs } = compareRanks(ranks);

  it('in the comment: hits found, then improved ranks, each largest gain first', () => {
    const md = renderReportMarkdown(report, defs);
    const at = md.indexOf(`<summary>Wins: ${winOrder('nDCG@10')} (4)</summary>`);
    expect(at).toBeGreaterThan(0);
    const rows = md
      .slice(at)
      .split('\n')
      .filter((l) => /^\| \w+ \|/.test(l) && !l.startsWith('| query |'))
      .slice(0, 4);
    expect(rows.map((r) => r.split(' | ')[0].slice(2))).toEqual(['foundNear', 'foundFar', 'climbed', 'climbedLess']);
  });
});
