/**
 * The Markdown PR report (src/render/markdown.ts, src/render/escape.ts), read back with a GFM parser
 * (mdast-util-from-markdown + gfm): structure, significance marks, escaping of hostile text from the run
 * databases, truncation under GitHub's comment limit (a 10,000-query run), and byte-for-byte determinism.
 */
import fc from 'fast-check';
import type { Root, Table } from 'mdast';
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
  mkAnswer,
  NO_GATES,
  rankedResult,
  runData,
} from './helpers/compareFixtures.js';

/** What a reader sees of escaped text: controls dropped, white space folded, our zero-width spaces removed. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Default_Ignorable_Code_Point}]/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const visible = (s: string) => s.replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
const dropZwsp = (s: string) => s.replace(/\u200b/g, '');

/** A one-row, two-column table with `cell` in the first column. */
function cellTable(cell: string): { tree: Root; md: string } {
  const md = `| a | b |\n| --- | --- |\n| ${cell} | z |\n`;
  return { tree: parseGfm(md), md };
}

/** The table after the first node whose text (a heading's, or a `<details><summary>` line's) starts with `title`. */
function sectionTable(tree: Root, title: string): { title: string; table: Table; rows: string[][] } | null {
  const summary = (n: Root['children'][number]) =>
    n.type === 'html' ? n.value.replace(/^<details><summary>/, '').replace(/<\/summary>$/, '') : null;
  const i = tree.children.findIndex(
    (n) => (n.type === 'heading' && textOf(n).startsWith(title)) || summary(n)?.startsWith(title),
  );
  if (i < 0) return null;
  const table = tree.children.slice(i + 1).find((n): n is Table => n.type === 'table');
  if (!table) return null;
  const node = tree.children[i];
  return {
    title: node.type === 'html' ? summary(node)! : textOf(node),
    table,
    rows: table.children.slice(1).map((r) => r.children.map((c) => textOf(c))),
  };
}

/** The `<details>` block whose summary starts with `title`, alone: parsing a whole 8,000-row report is slow. */
function detailsBlock(markdown: string, title: string): string {
  const start = markdown.indexOf(`<details><summary>${title}`);
  expect(start, `no <details> block "${title}"`).toBeGreaterThanOrEqual(0);
  return markdown.slice(start, markdown.indexOf('</details>', start) + '</details>'.length);
}

/** The source lines of the table rows (header and delimiter left out) in the `<details>` block titled `title`. */
function tableRowLines(markdown: string, title: string): string[] {
  return detailsBlock(markdown, title)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2);
}

/** A table row's cells as written (split at pipes not escaped, trimmed): for rows too many to parse. */
const tableCells = (line: string): string[] =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The tables before the first `<details>`, in order: the open part a reviewer sees without a click. */
function openTables(tree: Root): Table[] {
  const first = tree.children.findIndex((n) => n.type === 'html' && n.value.startsWith('<details>'));
  return tree.children.slice(0, first < 0 ? undefined : first).filter((n): n is Table => n.type === 'table');
}

const rowsOf = (table: Table) => table.children.slice(1).map((r) => r.children.map((c) => textOf(c)));

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
    expect(escapeMarkdownText('<!-- evalverdict --></details>')).toBe('&lt;!-- evalverdict --&gt;&lt;/details&gt;');
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
    {
      suite: 'nightly',
      commitHash: 'abcdef1234567890',
      createdAt: '2026-11-01T09:00:00Z',
      config: { embedding_model: 'emb-1' },
    },
  );
  const cand = runData(
    'cand-run',
    ids.map(([id, , c]) => rankedResult(id, c)),
    {
      suite: 'nightly',
      commitHash: '0123456789abcdef',
      createdAt: '2026-11-03T09:00:00Z',
      config: { embedding_model: 'emb-2' },
    },
  );
  const config = gates(
    'gates:\n  - metric: hit@1\n    min: 0.9\n  - metric: regressions\n    max: 0\n    level: warn\n  - metric: hit@5\n    max_drop: 0\n',
  );
  const { report, defs } = compareAndGate(base, cand, golden, config);
  const md = renderReportMarkdown(report, defs);
  const tree = parseGfm(md);
  const [gateTable, metricTable, worstTable] = openTables(tree);

  it('is well formed', () => {
    expect(checkMarkdown(md).problems).toEqual([]);
  });

  it('opens with a CAUTION alert: the verdict, then one line per failed or warned gate with its value and limit', () => {
    // hit@1 30/62 = 0.4839 < 0.9 fails; 30 regressions > 0 warns; hit@5 32/62 -> 32/62 passes
    expect(md.split('\n').slice(0, 5)).toEqual([
      '> [!CAUTION]',
      '> **EvalVerdict: fail** — 1 of 3 gates failed, 1 gate warned',
      '>',
      '> - ❌ `hit@1` 0.4839; allowed: ≥ 0.9000',
      '> - ⚠️ `regressions` 30; allowed: ≤ 0',
    ]);
    expect(tree.children[0].type).toBe('blockquote');
  });

  it('says which runs were compared, at which commits, how far apart, on which golden set', () => {
    expect(md).toContain(
      '**Candidate** cand-run at `0123456` (2026-11-03T09:00:00Z) **vs baseline** base-run at `abcdef1`, 2 days older · golden set `sha256:',
    );
    // the runs side by side are one click away, the commit to 12 characters
    const runs = sectionTable(tree, 'Runs compared')!;
    expect(runs.rows.find((r) => r[0] === 'run')).toEqual(['run', 'base-run', 'cand-run']);
    expect(runs.rows.find((r) => r[0] === 'commit')).toEqual(['commit', 'abcdef123456', '0123456789ab']);
    expect(runs.rows.find((r) => r[0] === 'embedding model')).toEqual(['embedding model', 'emb-1', 'emb-2']);
  });

  it('the open gate table: one row per gate, the candidate value, the delta, what is allowed and the result', () => {
    expect(rowsOf(gateTable)).toEqual([
      // hit@1 1/62 -> 30/62: +29/62 = +0.4677
      ['hit@1', '0.4839', '+0.4677', '≥ 0.9000', '❌ fail'],
      ['regressions (warn)', '30', 'n/a', '≤ 0', '⚠️ warn'],
      ['hit@5', '0.5161', '±0.0000', 'drop ≤ 0.0000', '✅ pass'],
    ]);
  });

  it('key metrics: gated ones first, ▲ better, ▼ worse, nothing for no change; the interval and p agree', () => {
    const rows = rowsOf(metricTable);
    const row = (id: string) => rows.find((r) => r[0] === id)!;
    expect(rows.map((r) => r[0]).slice(0, 2)).toEqual(['hit@1', 'hit@5']);
    // hit@1: 1/62 -> 30/62, delta 29/62 = 0.4677; 31 non-zero differences, 30 positive: sign test p ~ 3e-8
    expect(row('hit@1').slice(1, 4)).toEqual(['0.0161', '0.4839', '+0.4677 ▲']);
    expect(row('hit@1')[5]).toBe('< 0.0001');
    // hit@10: 62/62 -> 32/62, delta -30/62 = -0.4839; 30 differences of -1: p = 2^-29
    expect(row('hit@10').slice(1, 4)).toEqual(['1.0000', '0.5161', '−0.4839 ▼']);
    // hit@5: 32/62 on both sides (A 2 -> 1, C 1 -> 3, D 4 -> 4 within 5): no change, p = 1, no mark
    expect(row('hit@5').slice(1, 6)).toEqual(['0.5161', '0.5161', '±0.0000', '[±0.0000, ±0.0000]', '1.0000']);
    for (const r of rows.filter((x) => x[5] !== '—')) {
      const [lo, hi] = r[4]
        .slice(1, -1)
        .split(', ')
        .map((x) => Number(x.replace('−', '-').replace('±', '')));
      const marked = r[3].endsWith('▲') || r[3].endsWith('▼');
      expect(marked, r[0]).toBe(lo > 0 || hi < 0);
    }
  });

  it('the worst regressions: ten open, expected hits lost first, the cause said once above', () => {
    expect(md).toContain(
      '#### Regressions (10 of 31): lost hits, then lower first relevant ranks, then worse answers; each by Δ nDCG@10, lowest first',
    );
    expect(md).toContain(
      '62 queries by the first relevant hit: 30 expected hits lost · 1 rank slipped · 30 wins · 1 draw. The runs differ in embedding\\_model.',
    );
    const rows = rowsOf(worstTable);
    expect(rows).toHaveLength(10);
    // every B query lost a hit at rank 10 (nDCG@10 1/log2(11) = 0.2891 -> 0): equal deltas, so by query id
    expect(rows[0]).toEqual(['b0', 'query b0', '10 → miss', '−0.2891']);
    expect(rows.map((r) => r[0])).toEqual(['b0', 'b1', 'b10', 'b11', 'b12', 'b13', 'b14', 'b15', 'b16', 'b17']);
    expect(md.match(/differ in/g)).toHaveLength(1);
  });

  it('everything else is in <details>: all regressions and losses, wins, the runs, all metrics, breakdowns', () => {
    const summaries = [...md.matchAll(/^<details><summary>(.*)<\/summary>$/gm)].map((m) => m[1]);
    expect(summaries).toEqual([
      'Runs compared',
      'Regressions and losses: lost hits, then lower first relevant ranks, then worse answers; each by Δ nDCG@10, lowest first (31)',
      'Wins: hits found, then higher first relevant ranks; each by Δ nDCG@10, highest first (30)',
      'All metrics',
      'Breakdowns',
    ]);
    expect(md.match(/<\/details>/g)).toHaveLength(5);
    const losses = sectionTable(tree, 'Regressions and losses')!;
    expect(losses.rows).toHaveLength(31);
    expect(losses.rows.at(-1)).toEqual(['c0', 'query c0', '1 → 3', '−0.5000', '—']);
    // a first relevant hit found (miss -> rank 1) before a rank that improved; here every win is rank 2 -> 1
    expect(sectionTable(tree, 'Wins')!.rows[0]).toEqual(['a0', 'query a0', '2 → 1', '+0.3691']);
    expect(md).not.toContain('left out');
  });

  it('no chart: the tables say what changed', () => {
    expect(md).not.toContain('```mermaid');
  });

  it('is deterministic', () => {
    expect(renderReportMarkdown(compareAndGate(base, cand, golden, config).report, defs)).toBe(md);
  });
});

describe('the alert block matches the verdict', () => {
  const golden = goldenSet([chunkQuery('q1'), chunkQuery('q2')]);
  const base = runData('b', [rankedResult('q1', 1), rankedResult('q2', 1)]);
  const worse = runData('c', [rankedResult('q1', 1), rankedResult('q2', null)]);
  it.each([
    ['pass', 'TIP', 'gates:\n  - metric: hit@1\n    min: 0.4\n', '**EvalVerdict: pass** — the gate passed'],
    [
      'warn',
      'WARNING',
      'gates:\n  - metric: hit@1\n    min: 0.4\n  - metric: regressions\n    max: 0\n    level: warn\n',
      '**EvalVerdict: pass with warnings** — 1 gate warned',
    ],
    ['fail', 'CAUTION', 'gates:\n  - metric: hit@1\n    min: 0.9\n', '**EvalVerdict: fail** — 1 of 1 gate failed'],
  ])('%s: [!%s]', (verdict, alert, yaml, headline) => {
    const { report, defs } = compareAndGate(base, worse, golden, gates(yaml));
    expect(report.verdict).toBe(verdict);
    const md = renderReportMarkdown(report, defs);
    expect(md.split('\n').slice(0, 2)).toEqual([`> [!${alert}]`, `> ${headline}`]);
  });

  it('no gates: says so, and passes', () => {
    const { report, defs } = compareAndGate(base, base, golden, gates('gates: []\n'));
    expect(renderReportMarkdown(report, defs).split('\n').slice(0, 2)).toEqual([
      '> [!TIP]',
      '> **EvalVerdict: pass** — no gates configured',
    ]);
  });
});

describe('per-query rows by severity', () => {
  // q1 loses its first relevant hit (rank 10 -> miss: nDCG@10 -0.2891), q2 slips far (1 -> 9: -0.6990),
  // q3 slips a little (1 -> 2: -0.3691), q4 keeps rank 1 but an answerable question is now refused.
  const golden = goldenSet(['q1', 'q2', 'q3', 'q4'].map((id) => chunkQuery(id)));
  const answer = (refused: boolean) => ({
    answer: mkAnswer(refused ? 'I cannot answer that' : 'an answer'),
    abstained: refused,
  });
  const base = runData('b', [
    rankedResult('q1', 10),
    rankedResult('q2', 1),
    rankedResult('q3', 1),
    rankedResult('q4', 1, answer(false)),
  ]);
  const cand = runData('c', [
    rankedResult('q1', null),
    rankedResult('q2', 9),
    rankedResult('q3', 2),
    rankedResult('q4', 1, answer(true)),
  ]);
  const { report, defs } = compareAndGate(base, cand, golden, gates('gates: []\n'));

  it('an expected hit lost beats a rank that slipped, whatever the deltas; then by delta; answers last', () => {
    expect(report.per_query.find((o) => o.query_id === 'q4')!.answer_regression).toBe(true);
    const rows = rowsOf(openTables(parseGfm(renderReportMarkdown(report, defs)))[1]);
    expect(rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ['q1', '10 → miss', '−0.2891'],
      ['q2', '1 → 9', '−0.6990'],
      ['q3', '1 → 2', '−0.3691'],
      ['q4', '1 → 1', '±0.0000'],
    ]);
    // the answer column appears because a shown row changed its answer
    expect(rows[3][4]).toBe('answered -> refused');
  });
});

describe('what the report warns about', () => {
  const golden = goldenSet([chunkQuery('q1')]);
  const results = [rankedResult('q1', 1)];
  it('a baseline created after the candidate: the runs may be the wrong way round', () => {
    const { report, defs } = compareAndGate(
      runData('b', results, { createdAt: '2026-11-05T00:00:00Z' }),
      runData('c', results, { createdAt: '2026-11-01T00:00:00Z' }),
      golden,
      NO_GATES,
    );
    const md = renderReportMarkdown(report, defs);
    expect(md).toContain(', created 4 days after the candidate ·');
    expect(md).toContain(
      '- ⚠️ The baseline run was created 4 days after the candidate: are the two the wrong way round?',
    );
  });

  it("a baseline older than the action's baseline-max-age at its clock: said, with its age; younger: not", () => {
    const { report, defs } = compareAndGate(
      runData('b', results, { createdAt: '2026-11-01T00:00:00Z' }),
      runData('c', results, { createdAt: '2026-11-02T00:00:00Z' }),
      golden,
      NO_GATES,
    );
    const at = (now: string) =>
      renderReportMarkdown(report, defs, {
        maxLength: GITHUB_COMMENT_LIMIT,
        context: { staleAfter: { now, maxAgeDays: 7 } },
      });
    expect(at('2026-11-11T00:00:00Z')).toContain(
      '- ⚠️ The baseline run is 10 days old, past `baseline-max-age` (7 days).',
    );
    expect(at('2026-11-07T23:00:00Z')).not.toContain('baseline-max-age');
  });

  it('in the action: commits and the workflow run are links; a candidate made at another commit is named', () => {
    const { report, defs } = compareAndGate(
      runData('b', results, { commitHash: 'a'.repeat(40) }),
      runData('c', results, { commitHash: 'b'.repeat(40) }),
      golden,
      NO_GATES,
    );
    const md = renderReportMarkdown(report, defs, {
      maxLength: GITHUB_COMMENT_LIMIT,
      fullReportHint: 'the job summary',
      context: {
        repoUrl: 'https://github.com/o/r',
        runUrl: 'https://github.com/o/r/actions/runs/7',
        headSha: 'c'.repeat(40),
      },
    });
    expect(md).toContain(`[\`bbbbbbb\`](https://github.com/o/r/commit/${'b'.repeat(40)})`);
    expect(md).toContain(
      '[workflow run and job summary](https://github.com/o/r/actions/runs/7) · full report: the job summary',
    );
    expect(md).toContain('- ⚠️ The candidate run was made at [`bbbbbbb`]');
    // a commit hash that is not hex is text, never a link
    const odd = compareAndGate(
      runData('b', results, { commitHash: 'x](javascript:alert(1))' }),
      runData('c', results),
      golden,
      NO_GATES,
    );
    const oddMd = renderReportMarkdown(odd.report, odd.defs, {
      maxLength: GITHUB_COMMENT_LIMIT,
      context: { repoUrl: 'https://github.com/o/r' },
    });
    expect(oddMd).not.toContain('javascript:alert(1))](');
    expect(checkMarkdown(oddMd.replace(/\[`[0-9a-f]{7}`\]\([^)]*\)/g, '')).problems).toEqual([]);
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

/** No html node inside any per-query table. */
function htmlInOutcomeTables(tree: Root): number {
  let count = 0;
  for (const title of ['Regressions (', 'Regressions and losses', 'Wins', 'Answer changes']) {
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
    ['cut to 12,000 characters (the hostile text makes the never-cut part ~9,300)', 12_000],
  ] as const) {
    it(`${name}: tables well formed, only our own HTML, no links, no mentions`, () => {
      const md = renderReportMarkdown(report, defs, { maxLength, fullReportHint: '`full.md`' });
      const { problems, html } = checkMarkdown(md);
      expect(problems).toEqual([]);
      const opened = html.filter((h) => h.startsWith('<details>'));
      expect(opened.length).toBeGreaterThanOrEqual(4);
      expect(html.filter((h) => h === '</details>')).toHaveLength(opened.length);
      expect(htmlInOutcomeTables(parseGfm(md))).toBe(0);
      // the action's hidden marker is ours alone
      expect(md).not.toContain('<!--');
      if (maxLength !== Infinity) expect(md.length).toBeLessThanOrEqual(maxLength);
    });
  }

  it('reads back as the original text (cells of the runs and outcome tables)', () => {
    const tree = parseGfm(renderReportMarkdown(report, defs, { maxLength: Infinity }));
    const runs = sectionTable(tree, 'Runs compared')!.table;
    const row = (label: string) =>
      runs.children.find((r) => textOf(r.children[0]) === label)!.children.map((c) => dropZwsp(textOf(c)));
    expect(row('run')).toEqual(['run', visible(hostile(1)), visible(hostile(6))]);
    expect(row('suite')).toEqual(['suite', visible(hostile(2)), visible(hostile(7))]);
    const regressions = sectionTable(tree, 'Regressions and losses')!;
    const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
    // every row reads back as a golden query's id (cut to 40) and text (cut to 60)
    const pairs = new Set(golden.queries.map((q) => `${cut(visible(q.id), 40)}\n${cut(visible(q.query), 60)}`));
    expect(regressions.rows.length).toBeGreaterThan(30);
    for (const r of regressions.rows) expect(pairs.has(`${dropZwsp(r[0])}\n${dropZwsp(r[1])}`), r[0]).toBe(true);
  });

  it('stage names from timings_ms (hostile metric ids) do not break the All metrics table', () => {
    const md = renderReportMarkdown(report, defs, { maxLength: Infinity });
    const tree = parseGfm(md);
    const i = tree.children.findIndex(
      (n) => n.type === 'html' && n.value === '<details><summary>All metrics</summary>',
    );
    const table = tree.children.slice(i).find((n): n is Table => n.type === 'table')!;
    // the first row of a family names it: "latency retrieve_latency_p95_ms"
    const ids = table.children.slice(1).map((r) => dropZwsp(textOf(r.children[0])).replace(/^[a-z_]+ (?=\S)/, ''));
    // hostile(0) is "| broken | table | #0": its latency ids read back whole
    expect(ids.some((id) => id.endsWith(`${visible(hostile(0))}_latency_p95_ms`))).toBe(true);
    expect(ids).toContain('retrieve_latency_p95_ms');
    expect(table.children.every((r) => r.children.length === 7)).toBe(true);
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
  const hint = '`reports/evalverdict-full.md`';
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

  const openPart = (text: string) => text.slice(0, text.indexOf('<details>'));

  it('keeps the open part whole, and it stays within its budget (docs/compare.md)', () => {
    const full = renderReportMarkdown(report, defs, { maxLength: Infinity });
    expect(openPart(md)).toBe(openPart(full));
    expect(md.split('\n')[0]).toBe('> [!CAUTION]');
    // the budget: at most 70 Markdown lines before the first <details>, 8 gate rows, 8 key metrics, 10 queries
    expect(openPart(md).split('\n').length).toBeLessThanOrEqual(70);
    const [gateRows, metricRows, queryRows] = openTables(tree).map((t) => t.children.length - 1);
    expect(gateRows).toBe(hostileConfig.gates.length);
    expect(gateRows).toBeLessThanOrEqual(8);
    expect(metricRows).toBeLessThanOrEqual(8);
    expect(queryRows).toBe(10);
  });

  it('cuts the least severe rows first: breakdowns and wins go before any regression or loss, all metrics stay', () => {
    const full = renderReportMarkdown(report, defs, { maxLength: Infinity });
    const losses = sectionTable(tree, 'Regressions and losses')!;
    // The full list's 8,000 rows as their source lines (too many to GFM-parse in a test): the rows shown, parsed
    // above, are the same lines as the head of the full list.
    const shownLines = tableRowLines(md, 'Regressions and losses');
    const allLines = tableRowLines(full, 'Regressions and losses');
    expect(losses.title).toBe(
      'Regressions and losses: lost hits, then lower first relevant ranks, then worse answers; each by Δ nDCG@10, lowest first (8,000)',
    );
    const note = md.match(
      /_([\d,]+) more rows of regressions and losses left out to fit GitHub's comment limit \(the least severe\); the full report is in `reports\/evalverdict-full\.md`\._/,
    );
    expect(note).not.toBeNull();
    // shown + left out = all of them, and the rows shown are the worst ones: the head of the full list
    expect(losses.rows.length + Number(note![1].replace(/,/g, ''))).toBe(8000);
    expect(losses.rows.length).toBeGreaterThan(100);
    expect(shownLines).toHaveLength(losses.rows.length);
    expect(allLines).toHaveLength(8000);
    expect(shownLines).toEqual(allLines.slice(0, shownLines.length));
    // the full list is by severity: every expected hit lost (6,000) before any rank that slipped
    expect(losses.rows[0][2]).toBe(tableCells(shownLines[0])[2]);
    const lostAt = allLines.map((line) => tableCells(line)[2].endsWith('→ miss'));
    expect(lostAt.indexOf(false)).toBe(6000);
    expect(lostAt.lastIndexOf(true)).toBe(5999);
    // less severe sections were emptied first; all metrics kept every row
    expect(sectionTable(tree, 'Wins')!.rows).toHaveLength(0);
    expect(sectionTable(tree, 'Breakdowns')!.rows).toHaveLength(0);
    const allMetrics = sectionTable(parseGfm(detailsBlock(full, 'All metrics')), 'All metrics')!;
    expect(sectionTable(tree, 'All metrics')!.rows).toEqual(allMetrics.rows);
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
    const tree = parseGfm(md);
    expect(md).not.toContain('left out');
    // 240 queries cycling regression, loss, win, draw: 60 of each
    expect(sectionTable(tree, 'Regressions and losses')!.rows).toHaveLength(120);
    expect(sectionTable(tree, 'Wins')!.rows).toHaveLength(60);
    expect(checkMarkdown(md).problems).toEqual([]);
  });

  it('a tiny limit leaves the open part whole and every cuttable section empty', () => {
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
    expect(md.split('\n').slice(0, 2)).toEqual(['> [!CAUTION]', '> **EvalVerdict: fail** — 2 of 2 gates failed']);
    expect(openTables(tree)[0].children).toHaveLength(3);
    expect(sectionTable(tree, 'Regressions and losses')!.rows).toHaveLength(0);
    expect(md).toMatch(
      /_50 more rows of regressions and losses left out to fit GitHub's comment limit \(the least severe\)\._/,
    );
    expect(checkMarkdown(md).problems).toEqual([]);
  });
});
