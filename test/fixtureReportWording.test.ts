/**
 * Issue 46's small items, checked on the fixtures' report (the README's quick start, `evalverdict compare` with
 * fixtures/evalverdict.yml): metric names copy as they read (no zero-width space after their `@`), the per-query tables
 * are in the order their headings state, and the outcome counts add up to the queries compared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueryOutcome } from '../src/compare/types.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import { escapeMarkdownCell } from '../src/render/escape.js';
import { regressionOrder, winOrder } from '../src/render/reportParts.js';
import { renderReportText } from '../src/render/text.js';
import { checkMarkdown } from './helpers/markdownChecks.js';
import { repoRoot } from './shared.js';

const fixtures = join(repoRoot, 'fixtures');

function compareFixtures(config: { configPath?: string; configText?: string }) {
  return runCompare({
    baselinePath: join(fixtures, 'baseline.sqlite'),
    candidatePath: join(fixtures, 'candidate.sqlite'),
    goldenPath: join(fixtures, 'golden.yaml'),
    ...config,
  });
}

const quickStart = () => compareFixtures({ configPath: join(fixtures, 'evalverdict.yml') });

/** The query ids of a collapsed section's table, in order. */
function sectionIds(md: string, summaryStart: string): string[] {
  const at = md.indexOf(`<details><summary>${summaryStart}`);
  expect(at, summaryStart).toBeGreaterThan(0);
  const body = md.slice(at, md.indexOf('</details>', at));
  return body
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| query |') && !l.startsWith('| ---'))
    .map((l) => l.split(' | ')[0].slice(2));
}

/** Each row's key is no smaller than the one before it. */
function inOrder<T>(rows: T[], key: (row: T) => number[]): boolean {
  const less = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  return rows.every((row, i) => i === 0 || !less(key(row), key(rows[i - 1])));
}

describe("the fixtures' report: names copy as they read", () => {
  it('no zero-width space after the @ of a metric name, in the quick start and in an inconclusive verdict', async () => {
    const { markdown } = await quickStart();
    expect(markdown).toContain('`nDCG@10`');
    expect(markdown).not.toContain('@&#8203;');
    // Tight margins leave both gates inconclusive: the advice sentence names a metric in escaped prose.
    const tight = await compareFixtures({
      configText: 'gates:\n  - metric: hit@5\n    margin: 0.02\n  - metric: mrr@10\n    margin: 0.02\n',
    });
    const verdict = tight.markdown.split('\n')[1];
    expect(verdict).toMatch(/the furthest, (hit@5|mrr@10), finds drops of/);
    expect(tight.markdown).not.toContain('@&#8203;');
    expect(checkMarkdown(tight.markdown).problems).toEqual([]);
  });

  it('an e-mail address stays broken: unescaped, GitHub would link it', () => {
    const cell = (text: string) => `| a |\n| --- |\n| ${text} |\n`;
    expect(checkMarkdown(cell('a@b.c')).problems).toEqual(['link node "mailto:a@b.c"']);
    expect(checkMarkdown(cell(escapeMarkdownCell('a@b.c'))).problems).toEqual([]);
    expect(checkMarkdown(cell(escapeMarkdownCell('hit@5 and a@b'))).problems).toEqual([]);
  });
});

describe("the fixtures' report: per-query tables in the order their headings state", () => {
  it('wins: every row a first relevant hit found or ranked higher; found first, then by Δ, highest first', async () => {
    const { report, markdown } = await quickStart();
    const metric = report.per_query_metric;
    const byId = new Map(report.per_query.map((o) => [o.query_id, o]));
    const wins = sectionIds(markdown, `Wins: ${winOrder(metric)} (`).map((id) => byId.get(id)!);
    expect(wins).toHaveLength(report.counts.win);
    for (const o of wins) {
      expect(o.candidate_rank, o.query_id).not.toBeNull();
      expect(o.baseline_rank === null || o.candidate_rank! < o.baseline_rank, o.query_id).toBe(true);
    }
    expect(inOrder(wins, (o) => [o.baseline_rank === null ? 0 : 1, -(o.metric_delta ?? -Infinity)])).toBe(true);
    // The heading does not claim a gain: some win's Δ is negative here (a rank that rose while others fell).
    expect(wins.some((o) => (o.metric_delta ?? 0) < 0)).toBe(true);
  });

  it('regressions and losses: lost hits, then lower ranks, then worse answers; each by Δ, lowest first', async () => {
    const { report, markdown } = await quickStart();
    const byId = new Map(report.per_query.map((o) => [o.query_id, o]));
    const tier = (o: QueryOutcome) => (o.kind === 'regression' ? 0 : o.kind === 'loss' ? 1 : 2);
    const rows = sectionIds(markdown, `Regressions and losses: ${regressionOrder(report.per_query_metric)} (`).map(
      (id) => byId.get(id)!,
    );
    expect(rows.filter((o) => tier(o) === 2).every((o) => o.answer_regression)).toBe(true);
    expect(inOrder(rows, (o) => [tier(o), o.metric_delta ?? Infinity])).toBe(true);
    expect(markdown).toContain(`#### Regressions (10 of ${rows.length}): ${regressionOrder(report.per_query_metric)}`);
  });
});

describe("the fixtures' report: the outcome counts add up", () => {
  /** "235 queries by the first relevant hit: 9 expected hits lost · … · 140 draws; among them, 2 answer regressions" */
  function tally(line: string) {
    const m = line.match(
      /([\d,]+) queries by the first relevant hit: (.*?)(?:; among them, ([\d,]+) answer regressions?)?\.?$/,
    );
    expect(m, line).not.toBeNull();
    const num = (s: string) => Number(s.replace(/,/g, ''));
    return {
      total: num(m![1]),
      parts: m![2].split(' · ').map((p) => num(p.split(' ')[0])),
      answers: m![3] ? num(m![3]) : 0,
    };
  }

  it('in the Markdown and the text report: the partition sums to the queries compared, answers among them', async () => {
    const { report, markdown, defs, context } = await quickStart();
    const mdLine = markdown.split('\n').find((l) => l.includes('queries by the first relevant hit'))!;
    const textLine = renderReportText(report, defs, false, context)
      .split('\n')
      .find((l) => l.startsWith('Per query: '))!;
    for (const line of [mdLine, textLine.slice('Per query: '.length)]) {
      const { total, parts, answers } = tally(line.split('. The runs differ')[0]);
      expect(parts).toHaveLength(4);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(total).toBe(report.golden.queries);
      expect(answers).toBe(report.counts.answer_regression);
      expect(answers).toBeGreaterThan(0);
      expect(answers).toBeLessThanOrEqual(total);
    }
  });

  it('in fixtures/README.md (built by scripts/build-fixtures.ts): the four kinds make the queries it names', () => {
    const readme = readFileSync(join(fixtures, 'README.md'), 'utf8').replace(/\n\s*/g, ' ');
    const m = readme.match(
      /each of the (\d+) queries once by the rank of its first relevant hit in the top \d+: \*\*(\d+) wins, (\d+) losses, (\d+) draws, (\d+) regressions\*\*/,
    );
    expect(m).not.toBeNull();
    const [total, ...kinds] = m!.slice(1).map(Number);
    expect(kinds.reduce((a, b) => a + b, 0)).toBe(total);
    expect(readme).toMatch(/Among these queries, \d+ are also answer regressions \(counted apart, not added\)/);
  });
});
