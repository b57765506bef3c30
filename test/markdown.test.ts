/**
 * The Markdown PR report (src/render/markdown.ts, src/render/escape.ts), read back with a GFM parser
 * (mdast-util-from-markdown + gfm): structure, significance marks, escaping of hostile text from the run
 * databases, truncation under GitHub's comment limit (a 10,000-query run), and byte-for-byte determinism.
 */
import fc from 'fast-check';
import type { Heading, Root, Table } from 'mdast';
import { describe, expect, it } from 'vitest';
import { escapeMarkdownCell, escapeMarkdownText } from '../src/render/escape.js';
import { GITHUB_COMMENT_LIMIT, renderReportMarkdown, renderReportMarkdowns } from '../src/render/markdown.js';
import { checkMarkdown, parseGfm, textOf, walk } from './helpers/markdownChecks.js';
import {
  chunkQuery,
  compareAndGate,
  gates,
  goldenSet,
  HOSTILE,
  hostile,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';

/** What a reader sees of escaped text: controls dropped, white space folded, our zero-width spaces removed. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const visible = (s: string) => s.replace(CONTROL, '').replace(/\s+/g, ' ').trim();
const dropZwsp = (s: string) => s.replace(/\u200b/g, '');

/** A one-row, two-column table with `cell` in the first column. */
function cellTable(cell: string): { tree: Root; md: string } {
  const md = `| a | b |\n| --- | --- |\n| ${cell} | z |\n`;
  return { tree: parseGfm(md), md };
}

/** The table that follows the level-3 heading starting with `title`, and its body rows as cell texts. */
function sectionTable(tree: Root, title: string): { heading: Heading; table: Table; rows: string[][] } | null {
  const i = tree.children.findIndex((n) => n.type === 'heading' && n.depth === 3 && textOf(n).startsWith(title));
  if (i < 0) return null;
  const table = tree.children.slice(i + 1).find((n): n is Table => n.type === 'table');
  if (!table) return null;
  return {
    heading: tree.children[i] as Heading,
    table,
    rows: table.children.slice(1).map((r) => r.children.map((c) => textOf(c))),
  };
}

const headings = (tree: Root) => tree.children.filter((n): n is Heading => n.type === 'heading').map((h) => textOf(h));

// ---------------------------------------------------------------------------------------------------------
// Escaping

describe('escaping untrusted text', () => {
  it.each(HOSTILE.map((h, i) => [i, h] as const))('hostile text %i stays one plain table cell', (_, text) => {
    const { tree, md } = cellTable(escapeMarkdownCell(text, 1000));
    const { problems, tables } = checkMarkdown(md);
    expect(problems).toEqual([]);
    expect(tree.children).toHaveLength(1);
    expect(tables).toHaveLength(1);
    expect(tables[0].children).toHaveLength(2);
    // nothing but text inside the cell, and the reader sees the original text
    const cell = tables[0].children[1].children[0];
    expect(cell.children.every((n) => n.type === 'text')).toBe(true);
    expect(dropZwsp(textOf(cell))).toBe(visible(text));
  });

  it('issue references (#123, owner/repo#4, GH-12) get a zero-width space inside; other # and - are left alone', () => {
    expect(escapeMarkdownText('see #123 and o/r#4, GH-12, gh-3, C# 9, #tag, high-5')).toBe(
      'see #&#8203;123 and o/r#&#8203;4, GH&#8203;-12, gh&#8203;-3, C# 9, #tag, high-5',
    );
  });

  it('@name and @org/team get a zero-width space after the @', () => {
    expect(escapeMarkdownText('cc @octocat @github/security')).toBe('cc @&#8203;octocat @&#8203;github/security');
  });

  it('our hidden marker cannot be faked and <details> cannot be closed', () => {
    expect(escapeMarkdownText('<!-- evalgate --></details>')).toBe('&lt;!-- evalgate --&gt;&lt;/details&gt;');
  });

  it('autolinks are broken inside the pattern, so they stay broken once escapes are resolved', () => {
    // A backslash (`http\://`, `\_www.`) is not enough: GFM also finds autolink literals in the resolved text.
    for (const text of [
      'http://x.example',
      '_www.x.example',
      'HTTPS://X.EXAMPLE',
      '-http://a.example',
      '(www.b.example)',
    ]) {
      const { problems } = checkMarkdown(`| a |\n| --- |\n| ${escapeMarkdownCell(text)} |\n`);
      expect(problems, text).toEqual([]);
    }
  });

  it('long text is cut before escaping, with an ellipsis, so no escape is cut in half', () => {
    // 10 pipes cut to 5 characters: 4 pipes + "…", then each pipe escaped
    expect(escapeMarkdownCell('||||||||||', 5)).toBe('\\|\\|\\|\\|…');
    expect(escapeMarkdownCell('   ')).toBe('—');
    expect(escapeMarkdownCell(null)).toBe('—');
  });

  it('property: any text is one well-formed cell with no HTML, link or mention, and reads back as itself', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '|',
        '\\',
        '`',
        '<',
        '>',
        '&',
        '#',
        ';',
        '@',
        '@a',
        '@org/team',
        'www.',
        'http://',
        'https://',
        ':',
        '/',
        '[',
        ']',
        '(',
        ')',
        '!',
        '*',
        '_',
        '~',
        '$',
        '^',
        '<!--',
        '-->',
        '<details>',
        '</details>',
        '<br>',
        '\n',
        '\r\n',
        '\t',
        ' ',
        'a',
        '.com',
        '&#124;',
        '&lt;',
        '---',
        '\u0000',
        '\u202e',
        '#1',
        'GH-2',
        'o/r#3',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const cell = escapeMarkdownCell(text, 10_000);
        const { problems, tables } = checkMarkdown(`| a | b |\n| --- | --- |\n| ${cell} | z |\n`);
        expect(problems).toEqual([]);
        expect(tables).toHaveLength(1);
        expect(tables[0].children).toHaveLength(2);
        const read = dropZwsp(textOf(tables[0].children[1].children[0]));
        expect(read).toBe(visible(text) === '' ? '—' : visible(text));
      }),
      { numRuns: 300, seed: 20260101 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Structure

describe('report structure', () => {
  // 62 queries: A (30) rank 2 -> 1 (wins), B (30) rank 10 -> miss (regressions), C rank 1 -> 3 (a loss), D 4 -> 4 (a draw)
  const ids = [
    ...Array.from({ length: 30 }, (_, i) => [`a${i}`, 2, 1] as const),
    ...Array.from({ length: 30 }, (_, i) => [`b${i}`, 10, null] as const),
    ['c0', 1, 3] as const,
    ['d0', 4, 4] as const,
  ];
  const golden = goldenSet(ids.map(([id]) => chunkQuery(id)));
  const base = runData(
    'base-run',
    ids.map(([id, b]) => rankedResult(id, b)),
    { suite: 'nightly', commitHash: 'abcdef1234567890', config: { embedding_model: 'emb-1' } },
  );
  const cand = runData(
    'cand-run',
    ids.map(([id, , c]) => rankedResult(id, c)),
    { suite: 'nightly', commitHash: '0123456789abcdef', config: { embedding_model: 'emb-2' } },
  );
  const config = gates(
    'gates:\n  - metric: hit@1\n    min: 0.9\n  - metric: regressions\n    max: 0\n    level: warn\n  - metric: hit@5\n    max_drop: 0\n',
  );
  const { report, defs } = compareAndGate(base, cand, golden, config);
  const md = renderReportMarkdown(report, defs);
  const tree = parseGfm(md);

  it('is well formed', () => {
    expect(checkMarkdown(md).problems).toEqual([]);
  });

  it('opens with the verdict naming the failed and warned gates', () => {
    // hit@1 30/62 = 0.4839 < 0.9 fails; 30 regressions > 0 warns; hit@5 32/62 -> 32/62 passes
    expect(md.split('\n')[0]).toBe('## ❌ **EvalGate: fail** — 1 failed, 1 warned: `hit@1`, `regressions`');
  });

  it('identifies both runs', () => {
    const runs = tree.children.find((n): n is Table => n.type === 'table')!;
    const rows = runs.children.map((r) => r.children.map((c) => textOf(c)));
    expect(rows[0]).toEqual(['', 'baseline', 'candidate']);
    expect(rows.find((r) => r[0] === 'run')).toEqual(['run', 'base-run', 'cand-run']);
    expect(rows.find((r) => r[0] === 'suite')).toEqual(['suite', 'nightly', 'nightly']);
    // commit shortened to 12 characters
    expect(rows.find((r) => r[0] === 'commit')).toEqual(['commit', 'abcdef123456', '0123456789ab']);
    expect(rows.find((r) => r[0] === 'embedding model')).toEqual(['embedding model', 'emb-1', 'emb-2']);
    expect(md).toContain('Settings that differ: embedding\\_model.');
  });

  it('has the gate table: one row per gate with values and results', () => {
    const gatesTable = sectionTable(tree, 'Gates')!;
    expect(gatesTable.rows.map((r) => [r[0], r[2], r[5]])).toEqual([
      // hit@1 candidate 30/62 = 0.48387 -> 0.4839
      ['hit@1', '0.4839', '❌ fail'],
      ['regressions (warn)', '30', '⚠️ warn'],
      ['hit@5', '0.5161', '✅ pass'],
    ]);
  });

  it('marks significant changes in the key metrics: ▲ better, ▼ worse, nothing for no change', () => {
    const key = sectionTable(tree, 'Key metrics')!;
    const row = (id: string) => key.rows.find((r) => r[0] === id)!;
    // hit@1: 1/62 -> 30/62, delta 29/62 = 0.4677; 31 non-zero differences, 30 positive: sign test p ~ 3e-8
    expect(row('hit@1').slice(1, 4)).toEqual(['0.0161', '0.4839', '+0.4677 ▲']);
    // hit@10: 62/62 -> 32/62, delta -30/62 = -0.4839; 30 differences of -1: p = 2^-29
    expect(row('hit@10').slice(1, 4)).toEqual(['1.0000', '0.5161', '−0.4839 ▼']);
    // hit@5: 32/62 on both sides (A 2 -> 1, C 1 -> 3, D 4 -> 4 within 5): no change, p = 1, no mark
    expect(row('hit@5').slice(1, 6)).toEqual(['0.5161', '0.5161', '±0.0000', '[±0.0000, ±0.0000]', '1.0000']);
    expect(row('hit@1')[6]).toBe('62 / 62 (62 paired)');
  });

  it('has a Mermaid xychart-beta chart of baseline (bars) and candidate (line)', () => {
    const code = tree.children.find((n) => n.type === 'code' && n.lang === 'mermaid');
    expect(code).toBeDefined();
    const value = (code as { value: string }).value;
    expect(value.split('\n')[0]).toBe('xychart-beta');
    expect(value).toContain('x-axis ["hit@1", "hit@5", "hit@10", "mrr@10", "nDCG@10", "recall@10", "MAP"]');
    // hit@1, hit@5, hit@10 of the baseline: 1/62 = 0.0161, 32/62 = 0.5161, 1
    expect(value).toMatch(/bar \[0\.0161, 0\.5161, 1, /);
    expect(value).toMatch(/line \[0\.4839, 0\.5161, 0\.5161, /);
  });

  it('counts outcomes, then lists Regressions, Losses and Wins (draws only counted)', () => {
    expect(md).toContain('**Per query:** 30 wins · 1 losses · 30 regressions · 1 draws');
    const h = headings(tree).filter((t) => /^(Regressions|Losses|Wins|Draws)/.test(t));
    expect(h).toEqual(['Regressions (30)', 'Losses (1)', 'Wins (30)']);
    expect(sectionTable(tree, 'Regressions')!.rows).toHaveLength(30);
    // embedding_model differs between the runs: a known cause of retrieval changes, named in each note
    const cause = ' (runs differ in embedding_model)';
    expect(sectionTable(tree, 'Losses')!.rows).toEqual([['c0', 'query c0', '1', '3', `rank 1 -> rank 3${cause}`]]);
    expect(sectionTable(tree, 'Wins')!.rows[0]).toEqual(['a0', 'query a0', '2', '1', `rank 2 -> rank 1${cause}`]);
    expect(sectionTable(tree, 'Regressions')!.rows[0]).toEqual([
      'b0',
      'query b0',
      '10',
      'miss',
      `rank 10 -> miss${cause}`,
    ]);
    expect(md).not.toContain('left out');
  });

  it('puts all metrics and breakdowns in <details>', () => {
    expect(md).toContain('<details><summary>All metrics</summary>');
    expect(md).toContain('<details><summary>Breakdowns</summary>');
    expect(md.match(/<details>/g)).toHaveLength(2);
    expect(md.match(/<\/details>/g)).toHaveLength(2);
  });

  it('is deterministic', () => {
    expect(renderReportMarkdown(compareAndGate(base, cand, golden, config).report, defs)).toBe(md);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Hostile text everywhere

/** Runs whose every database-provided string is hostile: ids, queries, suite, models, commit, categories, tags, config keys, stage names. */
type Plan = [number | null, number | null] | 'only-base' | 'only-cand';
/** By i % 4: a regression, a loss, a win, a draw. */
const CYCLE: Array<[number | null, number | null]> = [
  [1, null],
  [1, 3],
  [null, 2],
  [2, 2],
];

function hostileRuns(n: number, plan: (i: number) => Plan) {
  const queries = Array.from({ length: n }, (_, i) =>
    chunkQuery(`${hostile(i)}`, {
      query: hostile(i + 5),
      category: hostile(i % 13),
      difficulty: hostile(i % 3),
      tags: [hostile(i % 5), hostile((i % 7) + 100)],
    }),
  );
  const baseResults = [];
  const candResults = [];
  for (let i = 0; i < n; i++) {
    const p = plan(i);
    const id = queries[i].id;
    const timingsMs = { [hostile(i % 4)]: 10 + i, retrieve: 5 };
    if (p !== 'only-cand')
      baseResults.push(rankedResult(id, p === 'only-base' ? 1 : p[0], { timingsMs, elapsedMs: 100 + i }, 5));
    if (p !== 'only-base')
      candResults.push(rankedResult(id, p === 'only-cand' ? 1 : p[1], { timingsMs, elapsedMs: 90 + i }, 5));
  }
  const config = (k: number) => ({
    chunker_version: hostile(20 + k),
    embedding_model: hostile(30 + k),
    index_version: hostile(40 + k),
    judge_model: hostile(50),
    judge_prompt_version: hostile(60),
    ...Object.fromEntries(Array.from({ length: 40 }, (_, j) => [hostile(70 + j), k])),
  });
  const base = runData(hostile(1), baseResults, {
    suite: hostile(2),
    commitHash: hostile(3),
    createdAt: hostile(4),
    config: config(0),
  });
  const cand = runData(hostile(6), candResults, {
    suite: hostile(7),
    commitHash: hostile(8),
    createdAt: hostile(9),
    config: config(1),
  });
  return { golden: goldenSet(queries), base, cand };
}

const hostileConfig = gates(`gates:
  - metric: hit@1
    min: 0.99
  - metric: regressions
    max: 0
    level: warn
  - metric: hit@5
    where: { category: "${hostile(0).replace(/[\\"]/g, '\\$&')}" }
    min: 0.5
  - metric: mrr@10
    max_drop: 0
    significant_only: true
  - metric: retrieve_latency_p95_ms
    max_increase_pct: 10
`);

/** No html node inside any outcome table (our own <br> only appears in the gate table). */
function htmlInOutcomeTables(tree: Root): number {
  let count = 0;
  for (const title of ['Regressions', 'Losses', 'Wins', 'Answer changes']) {
    const s = sectionTable(tree, title);
    if (s)
      walk(s.table, (node) => {
        if (node.type === 'html') count++;
      });
  }
  return count;
}

describe('hostile text from the databases', () => {
  // 80 queries: i % 4 = 0 regression, 1 loss, 2 win, 3 draw; two only in one run
  const { golden, base, cand } = hostileRuns(80, (i) =>
    i === 78 ? 'only-base' : i === 79 ? 'only-cand' : CYCLE[i % 4],
  );
  const { report, defs } = compareAndGate(base, cand, golden, hostileConfig);

  for (const [name, maxLength] of [
    ['full', Infinity],
    ['cut to 7,000 characters (the hostile text makes the never-cut part ~6,000)', 7000],
  ] as const) {
    it(`${name}: tables well formed, only our own HTML, no links, no mentions`, () => {
      const md = renderReportMarkdown(report, defs, { maxLength, fullReportHint: '`full.md`' });
      const { problems, html } = checkMarkdown(md);
      expect(problems).toEqual([]);
      expect(
        html.filter(
          (h) => h === '<details><summary>All metrics</summary>' || h === '<details><summary>Breakdowns</summary>',
        ),
      ).toHaveLength(2);
      expect(html.filter((h) => h === '</details>')).toHaveLength(2);
      expect(htmlInOutcomeTables(parseGfm(md))).toBe(0);
      // the action's hidden marker is ours alone
      expect(md).not.toContain('<!--');
      if (maxLength !== Infinity) expect(md.length).toBeLessThanOrEqual(maxLength);
    });
  }

  it('reads back as the original text (cells of the runs and outcome tables)', () => {
    const tree = parseGfm(renderReportMarkdown(report, defs, { maxLength: Infinity }));
    const runs = tree.children.find((n): n is Table => n.type === 'table')!;
    const row = (label: string) =>
      runs.children.find((r) => textOf(r.children[0]) === label)!.children.map((c) => dropZwsp(textOf(c)));
    expect(row('run')).toEqual(['run', visible(hostile(1)), visible(hostile(6))]);
    expect(row('suite')).toEqual(['suite', visible(hostile(2)), visible(hostile(7))]);
    const regressions = sectionTable(tree, 'Regressions')!;
    // i = 0 is the first regression: id hostile(0) (cut to 40), query hostile(5)
    const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
    expect(dropZwsp(regressions.rows[0][0])).toBe(cut(visible(hostile(0)), 40));
    expect(dropZwsp(regressions.rows[0][1])).toBe(cut(visible(hostile(5)), 90));
  });

  it('stage names from timings_ms (hostile metric ids) do not break the All metrics table', () => {
    const md = renderReportMarkdown(report, defs, { maxLength: Infinity });
    const tree = parseGfm(md);
    const i = tree.children.findIndex(
      (n) => n.type === 'html' && n.value === '<details><summary>All metrics</summary>',
    );
    const table = tree.children.slice(i).find((n): n is Table => n.type === 'table')!;
    const ids = table.children.slice(1).map((r) => dropZwsp(textOf(r.children[1])));
    // hostile(0) is "| broken | table | #0": its latency ids read back whole
    expect(ids).toContain(`${visible(hostile(0))}_latency_p95_ms`);
    expect(ids).toContain('retrieve_latency_p95_ms');
    expect(table.children.every((r) => r.children.length === 8)).toBe(true);
  });

  it('config keys that differ are listed (capped at 20), escaped', () => {
    const md = renderReportMarkdown(report, defs, { maxLength: Infinity });
    // 3 run settings + 40 hostile keys differ (judge_model and judge_prompt_version are equal): 43, 20 shown
    expect(report.differences).toHaveLength(43);
    expect(md).toMatch(/Settings that differ: .* and 23 more\./);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Size: a 10,000-query run

describe('a 10,000-query run with thousands of regressions and hostile text', () => {
  // i % 10 in 0..5: regression (6,000); 6..7: loss (2,000); 9 and i < 50: win (5); the rest draws (1,995)
  const plan = (i: number): [number | null, number | null] => {
    const d = i % 10;
    if (d <= 5) return [1 + (i % 3), null];
    if (d <= 7) return [1, 2 + (i % 3)];
    if (d === 9 && i < 50) return [null, 1];
    return [3, 3];
  };
  const { golden, base, cand } = hostileRuns(10_000, plan);
  const { report, defs } = compareAndGate(base, cand, golden, hostileConfig);
  const hint = '`reports/evalgate-full.md`';
  const md = renderReportMarkdown(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: hint });
  const tree = parseGfm(md);

  it('counts: 6,000 regressions, 2,000 losses, 5 wins, 1,995 draws', () => {
    expect(report.counts).toEqual({ win: 5, loss: 2000, draw: 1995, regression: 6000, answer_regression: 0 });
  });

  it(`stays under GitHub's limit (GITHUB_COMMENT_LIMIT = ${GITHUB_COMMENT_LIMIT}) and is well formed`, () => {
    expect(GITHUB_COMMENT_LIMIT).toBeLessThanOrEqual(65_536);
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(checkMarkdown(md).problems).toEqual([]);
    expect(htmlInOutcomeTables(tree)).toBe(0);
  });

  it('keeps the verdict and the gate table whole', () => {
    const full = renderReportMarkdown(report, defs, { maxLength: Infinity });
    expect(md.split('\n')[0]).toBe(full.split('\n')[0]);
    expect(md.split('\n')[0]).toMatch(/^## ❌ \*\*EvalGate: fail\*\* — /);
    const gatesOf = (text: string) => text.slice(text.indexOf('### Gates'), text.indexOf('### Key metrics'));
    expect(gatesOf(md)).toBe(gatesOf(full));
    expect(sectionTable(tree, 'Gates')!.rows).toHaveLength(hostileConfig.gates.length);
  });

  it('cuts the longest sections first and says how many rows were left out and where the full report is', () => {
    const note = (name: string) =>
      md.match(
        new RegExp(
          `_(\\d+) more rows of ${name} left out to fit GitHub's comment limit; the full report is in \`reports/evalgate-full\\.md\`\\._`,
        ),
      );
    for (const [title, name, total] of [
      ['Regressions', 'regressions', 6000],
      ['Losses', 'losses', 2000],
    ] as const) {
      const shown = sectionTable(tree, title)!;
      expect(textOf(shown.heading)).toBe(`${title} (${total})`);
      const m = note(name);
      expect(m, name).not.toBeNull();
      // shown + left out = all of them
      expect(shown.rows.length + Number(m![1])).toBe(total);
    }
    // the 5 wins are the shortest section: kept whole
    expect(sectionTable(tree, 'Wins')!.rows).toHaveLength(5);
    expect(note('wins')).toBeNull();
  });

  it('renderReportMarkdowns (what the pipeline calls) gives the same two documents from one pass', () => {
    const both = renderReportMarkdowns(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: hint });
    expect(both.cut).toBe(md);
    expect(both.full).toBe(renderReportMarkdown(report, defs, { maxLength: Infinity }));
    expect(both.full.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT); // so the cut one was cut
  });

  it('still fits with a long full-report hint (every cut section repeats it)', () => {
    const longHint = `\`${'very/long/path/'.repeat(25)}full.md\``;
    const cut = renderReportMarkdown(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: longHint });
    expect(cut.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(cut.split(longHint).length - 1).toBeGreaterThanOrEqual(3);
  });

  it('is byte-identical when rendered again', () => {
    expect(renderReportMarkdown(report, defs, { maxLength: GITHUB_COMMENT_LIMIT, fullReportHint: hint })).toBe(md);
  });
});

describe('the untruncated report', () => {
  it('holds every outcome row and no "left out" note', () => {
    const { golden, base, cand } = hostileRuns(240, (i) => CYCLE[i % 4]);
    const { report, defs } = compareAndGate(base, cand, golden, hostileConfig);
    const md = renderReportMarkdown(report, defs, { maxLength: Infinity });
    expect(md.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT); // it would not fit a comment: 180 rows of hostile text and breakdowns
    const tree = parseGfm(md);
    expect(md).not.toContain('left out');
    // 240 queries cycling regression, loss, win, draw: 60 of each
    expect(sectionTable(tree, 'Regressions')!.rows).toHaveLength(60);
    expect(sectionTable(tree, 'Losses')!.rows).toHaveLength(60);
    expect(sectionTable(tree, 'Wins')!.rows).toHaveLength(60);
    expect(checkMarkdown(md).problems).toEqual([]);
  });

  it('a tiny limit leaves the never-cut part (verdict, runs, gates, key metrics) whole and every section empty', () => {
    const golden = goldenSet(Array.from({ length: 50 }, (_, i) => chunkQuery(`q${i}`)));
    const config = gates('gates:\n  - metric: hit@1\n    min: 0.9\n  - metric: regressions\n    max: 0\n');
    const { report, defs } = compareAndGate(
      runData(
        'b',
        golden.queries.map((q) => rankedResult(q.id, 1)),
      ),
      runData(
        'c',
        golden.queries.map((q) => rankedResult(q.id, null)),
      ),
      golden,
      config,
    );
    const md = renderReportMarkdown(report, defs, { maxLength: 1000 });
    const tree = parseGfm(md);
    expect(md.split('\n')[0]).toBe('## ❌ **EvalGate: fail** — 2 failed, 0 warned: `hit@1`, `regressions`');
    expect(sectionTable(tree, 'Gates')!.rows).toHaveLength(2);
    expect(sectionTable(tree, 'Regressions')!.rows).toHaveLength(0);
    expect(md).toMatch(/_50 more rows of regressions left out to fit GitHub's comment limit\._/);
    expect(checkMarkdown(md).problems).toEqual([]);
  });
});
