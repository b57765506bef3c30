/**
 * The browser check (issue 22): the fixtures' comment rendered as GitHub renders it (scripts/commentPage.ts:
 * GFM, github-markdown-css, a 760 px column) in Debian's Chromium, measured in the page by an inline script.
 * Without /usr/bin/chromium the suite skips and says so; .ci/run installs it and sets EVALVERDICT_REQUIRE_CHROMIUM=1,
 * so in CI a missing browser fails instead.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  COLUMN_WIDTH,
  commentHtml,
  commentPage,
  dumpDom,
  hasChromium,
  PAGE_PADDING,
  readDumpedJson,
  WRITE_JSON,
} from '../scripts/commentPage.js';
import { runCli } from './helpers/runDb.js';

const required = process.env.EVALVERDICT_REQUIRE_CHROMIUM === '1';
const chromium = hasChromium();
if (!chromium && !required) {
  console.warn(`skipping the browser check: ${CHROMIUM} not found (apt-get install chromium; CI installs it)`);
}

interface Cell {
  row: number;
  column: string;
  text: string;
  lines: number;
}

interface TableMeasure {
  /** 'above the first <details>' or the summary of the <details> it is in. */
  where: string;
  header: string;
  columnWidth: number;
  /** Width the table takes in the column (GitHub's CSS: display block, max-width 100%, overflow auto). */
  clientWidth: number;
  /** Width of its content: more than clientWidth means a horizontal scroll bar. */
  scrollWidth: number;
  /** Width with nothing wrapped (max-content, no max-width). */
  naturalWidth: number;
  /** Cells whose text takes more than one line. */
  wrapped: Cell[];
}

interface PageMeasure {
  tables: TableMeasure[];
  alerts: Array<{ className: string; title: string; borderLeftColor: string; blockquoteBorderColor: string }>;
  resources: string[];
}

// Runs in Chromium: opens every <details> (a reviewer may), then measures each table against the column.
const MEASURE = `${WRITE_JSON}
const column = document.getElementById('comment');
const firstDetails = column.querySelector('details');
const aboveDetails = (node) =>
  firstDetails === null || Boolean(node.compareDocumentPosition(firstDetails) & Node.DOCUMENT_POSITION_FOLLOWING);
for (const details of column.querySelectorAll('details')) details.open = true;

// Lines a cell's text takes: its client rects grouped by vertical overlap (inline code boxes share a line).
function lineCount(cell) {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0).sort((a, b) => a.top - b.top);
  let lines = 0;
  let bottom = -Infinity;
  for (const r of rects) {
    if (r.top >= bottom - 1) {
      lines++;
      bottom = r.bottom;
    } else bottom = Math.max(bottom, r.bottom);
  }
  return lines;
}

const tables = [...column.querySelectorAll('table')].map((table) => {
  const header = [...table.rows[0].cells].map((c) => c.textContent.trim());
  const details = table.closest('details');
  const where = details ? details.querySelector('summary').textContent.trim()
    : aboveDetails(table) ? 'above the first <details>' : 'between <details>';
  const clone = table.cloneNode(true);
  clone.style.maxWidth = 'none';
  clone.style.position = 'absolute';
  clone.style.visibility = 'hidden';
  column.appendChild(clone);
  const naturalWidth = Math.ceil(clone.getBoundingClientRect().width);
  clone.remove();
  const wrapped = [];
  [...table.rows].forEach((row, r) => {
    [...row.cells].forEach((cell, c) => {
      const lines = lineCount(cell);
      if (lines > 1) wrapped.push({ row: r, column: header[c], text: cell.textContent.trim(), lines });
    });
  });
  return {
    where,
    header: header.join(' | '),
    columnWidth: column.clientWidth,
    clientWidth: table.clientWidth,
    scrollWidth: table.scrollWidth,
    naturalWidth,
    wrapped,
  };
});

const plainQuote = document.createElement('blockquote');
column.appendChild(plainQuote);
const blockquoteBorderColor = getComputedStyle(plainQuote).borderLeftColor;
plainQuote.remove();
const alerts = [...column.querySelectorAll('.markdown-alert')].map((alert) => ({
  className: alert.className,
  title: alert.querySelector('.markdown-alert-title')?.textContent ?? '',
  borderLeftColor: getComputedStyle(alert).borderLeftColor,
  blockquoteBorderColor,
}));
const resources = performance.getEntriesByType('resource').map((e) => e.name);
writeJson('measure', { tables, alerts, resources });`;

function describeTable(t: TableMeasure): string {
  const over = (width: number) => (width > t.columnWidth ? ` (${width - t.columnWidth} px over)` : '');
  return `"${t.header}" (${t.where}): ${t.scrollWidth} px${over(t.scrollWidth)} in a ${t.columnWidth} px column, ${t.naturalWidth} px${over(t.naturalWidth)} unwrapped`;
}

describe('renderAlerts: GitHub alert blocks', () => {
  it('turns a top-level blockquote whose first line is [!KIND] into a markdown-alert with a title', () => {
    expect(commentHtml('> [!CAUTION]\n> **fail** now\n>\n> - a\n')).toBe(
      '<div class="markdown-alert markdown-alert-caution"><p class="markdown-alert-title">Caution</p>\n' +
        '<p><strong>fail</strong> now</p>\n<ul>\n<li>a</li>\n</ul>\n</div>\n',
    );
    expect(commentHtml('> [!tip]\n>\n> text\n')).toBe(
      '<div class="markdown-alert markdown-alert-tip"><p class="markdown-alert-title">Tip</p>\n<p>text</p>\n</div>\n',
    );
  });

  it('leaves other blockquotes alone, and closes the alert at its own end', () => {
    expect(commentHtml('> just a quote [!NOTE]\n')).toBe('<blockquote>\n<p>just a quote [!NOTE]</p>\n</blockquote>\n');
    expect(commentHtml('> [!NOTE] same line\n')).toBe('<blockquote>\n<p>[!NOTE] same line</p>\n</blockquote>\n');
    const nested = commentHtml('> [!WARNING]\n> outer\n> > inner\n\n> plain\n');
    expect(nested).toBe(
      '<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p>\n<p>outer</p>\n' +
        '<blockquote>\n<p>inner</p>\n</blockquote>\n</div>\n<blockquote>\n<p>plain</p>\n</blockquote>\n',
    );
  });
});

describe.skipIf(!chromium && !required)(`the fixtures' comment in Chromium, ${COLUMN_WIDTH} px wide`, () => {
  let work: string;
  let verdict: string;
  let measure: PageMeasure;

  beforeAll(async () => {
    if (!chromium) throw new Error(`${CHROMIUM} is missing: CI must run the browser check (.ci/run installs it)`);
    work = mkdtempSync(join(tmpdir(), 'evalverdict-browser-'));
    const markdown = join(work, 'comment.md');
    const json = join(work, 'report.json');
    const fixtures = [
      'fixtures/baseline.sqlite',
      'fixtures/candidate.sqlite',
      '--golden',
      'fixtures/golden.yaml',
      '--config',
      'fixtures/evalverdict.yml',
    ];
    const res = await runCli(['compare', ...fixtures, '--markdown', markdown, '--json', json]);
    expect(res.stderr).not.toMatch(/error/i);
    verdict = JSON.parse(readFileSync(json, 'utf8')).verdict;
    const page = join(work, 'comment.html');
    writeFileSync(page, commentPage(readFileSync(markdown, 'utf8'), MEASURE));
    measure = readDumpedJson(await dumpDom(page, COLUMN_WIDTH + 2 * PAGE_PADDING), 'measure') as PageMeasure;
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the page shows tables, every one measured in the full column', () => {
    // The report has the gate, key-metric and per-query tables at least; a measure of 0 would prove nothing.
    expect(measure.tables.length).toBeGreaterThanOrEqual(3);
    for (const t of measure.tables) {
      expect(t.columnWidth).toBe(COLUMN_WIDTH);
      expect(t.clientWidth, describeTable(t)).toBeGreaterThan(0);
    }
  });

  it('no table is wider than the column', () => {
    const tooWide = measure.tables.filter((t) => t.scrollWidth > t.columnWidth).map(describeTable);
    expect(tooWide).toEqual([]);
  });

  it('the tables above the first <details> fit the column without wrapping', () => {
    const above = measure.tables.filter((t) => t.where === 'above the first <details>');
    expect(above.length).toBeGreaterThanOrEqual(2); // the gate and key-metric tables
    const wrapping = above
      .filter((t) => t.naturalWidth > t.columnWidth || t.wrapped.length > 0)
      .map((t) => `${describeTable(t)}; wrapped: ${t.wrapped.map((c) => `${c.column} "${c.text}"`).join(', ')}`);
    expect(wrapping).toEqual([]);
  });

  it('the verdict is one GitHub alert of its kind, styled by GitHub CSS', () => {
    const kinds: Record<string, string[]> = { fail: ['caution'], warn: ['warning'], pass: ['note', 'tip'] };
    expect(Object.keys(kinds)).toContain(verdict);
    expect(measure.alerts).toHaveLength(1);
    const [alert] = measure.alerts;
    const kind = /markdown-alert-(\w+)/.exec(alert.className)?.[1] ?? '';
    expect(kinds[verdict]).toContain(kind);
    expect(alert.title.toLowerCase()).toBe(kind);
    // github-markdown-css colours each kind's border; an unstyled alert would have a plain blockquote's grey.
    expect(alert.borderLeftColor).not.toBe(alert.blockquoteBorderColor);
  });

  it('the page loads nothing (no network, the CSS is inline)', () => {
    expect(measure.resources).toEqual([]);
  });
});
