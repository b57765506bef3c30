/**
 * The GFM checks the Markdown suite applies to every report: parse with GitHub's dialect, then look for broken
 * tables, foreign HTML, links and mentions. Apart from compareFixtures.ts, which most suites import, because the
 * parser takes about a second to load.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Nodes, Root, Table } from 'mdast';

export function parseGfm(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

export function walk(node: Nodes, visit: (node: Nodes, ancestors: Nodes[]) => void, ancestors: Nodes[] = []): void {
  visit(node, ancestors);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit, [...ancestors, node]);
}

/** The only raw HTML the renderer writes itself. */
export const OWN_HTML = new Set(['</details>', '<br>', '<sub>', '</sub>']);
const OWN_SUMMARY =
  /^<details><summary>(All gates \([\d,]+\) with their tests and notes|Runs compared|Regressions and losses: lost hits, then lower first relevant ranks, then worse answers; each by Δ [\w@]+, lowest first \([\d,]+\)|Wins: hits found, then higher first relevant ranks; each by Δ [\w@]+, highest first \([\d,]+\)|Answer changes \([\d,]+\)|All metrics|Breakdowns)<\/summary>$/;
export const isOwnHtml = (html: string): boolean => OWN_HTML.has(html) || OWN_SUMMARY.test(html);

/** `@name` or `@org/team` that GitHub would turn into a notification (not preceded by a word character). */
export const MENTION = /(?:^|[^\p{L}\p{N}_`])@[A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][\w-]*)?/u;

export interface MarkdownProblems {
  problems: string[];
  tables: Table[];
  html: string[];
}

/**
 * Everything the Markdown suite requires of a report: every table row has the header's number of cells, raw HTML
 * is only our own, no links or images at all (the renderer writes none, so any would come from data), and no text
 * carries a mention.
 */
export function checkMarkdown(markdown: string): MarkdownProblems {
  const tree = parseGfm(markdown);
  const problems: string[] = [];
  const tables: Table[] = [];
  const html: string[] = [];
  walk(tree, (node) => {
    switch (node.type) {
      case 'table': {
        tables.push(node);
        const width = node.children[0].children.length;
        node.children.forEach((row, i) => {
          if (row.children.length !== width)
            problems.push(`table row ${i} has ${row.children.length} cells, header has ${width}`);
        });
        break;
      }
      case 'html':
        html.push(node.value);
        if (!isOwnHtml(node.value)) problems.push(`foreign html node ${JSON.stringify(node.value)}`);
        break;
      case 'link':
      case 'image':
      case 'linkReference':
      case 'imageReference':
      case 'definition':
      case 'footnoteReference':
      case 'footnoteDefinition':
        problems.push(`${node.type} node ${JSON.stringify('url' in node ? node.url : '')}`);
        break;
      case 'text':
        if (MENTION.test(node.value)) problems.push(`mention in text ${JSON.stringify(node.value.slice(0, 80))}`);
        break;
      default:
        break;
    }
  });
  return { problems, tables, html };
}

/** Plain text of a node (for reading cells back). */
export function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string' && node.type !== 'html') return node.value;
  if ('children' in node) return node.children.map((c) => textOf(c as Nodes)).join('');
  return '';
}
