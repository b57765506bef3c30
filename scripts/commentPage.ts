/**
 * A report's Markdown as GitHub shows it in a PR comment, for `npm run screenshot` and test/browser.test.ts:
 * GFM (micromark), the raw HTML the report writes, GitHub's alert blocks, github-markdown-css's light theme
 * inlined, in a 760 px column at the comment body's 14 px. A file:// page that loads nothing, and Chromium to
 * dump or photograph it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/** Width of GitHub's PR comment body, in CSS pixels. */
export const COLUMN_WIDTH = 760;
/** Padding around the column in the page, so a screenshot has a margin like the comment box. */
export const PAGE_PADDING = 16;
export const CHROMIUM = '/usr/bin/chromium';

const ALERT_KINDS = ['note', 'tip', 'important', 'warning', 'caution'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const require = createRequire(import.meta.url);

/**
 * GitHub's alert blocks: a top-level blockquote whose first line is exactly `[!KIND]` becomes
 * `<div class="markdown-alert markdown-alert-KIND">` with a title paragraph (GitHub adds an octicon; we do not).
 */
export function renderAlerts(html: string): string {
  const tag = /<(\/?)blockquote>/g;
  const opener = /^<blockquote>\n<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\](?:\n|<\/p>\n)/i;
  let out = '';
  let last = 0;
  let depth = 0;
  const open: boolean[] = []; // per open blockquote: is it an alert?
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    if (m[1] === '') {
      const alert = depth === 0 ? opener.exec(html.slice(m.index)) : null;
      open.push(alert !== null);
      depth++;
      if (alert) {
        const kind = alert[1].toLowerCase() as AlertKind;
        const title = kind[0].toUpperCase() + kind.slice(1);
        const rest = alert[0].endsWith('</p>\n') ? '' : '<p>';
        out += `${html.slice(last, m.index)}<div class="markdown-alert markdown-alert-${kind}"><p class="markdown-alert-title">${title}</p>\n${rest}`;
        last = m.index + alert[0].length;
        tag.lastIndex = last;
      }
    } else {
      depth--;
      if (open.pop()) {
        out += `${html.slice(last, m.index)}</div>`;
        last = m.index + m[0].length;
      }
    }
  }
  return out + html.slice(last);
}

/** The comment's HTML as GitHub renders its Markdown (GFM, raw HTML kept: the report writes <details> and <sub>). */
export function commentHtml(markdown: string): string {
  const html = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return renderAlerts(html);
}

export function githubMarkdownCss(): string {
  return readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
}

/**
 * A whole HTML page: the comment in `<article id="comment" class="markdown-body">`, `COLUMN_WIDTH` wide, then
 * `script` (inline) to measure it.
 */
export function commentPage(markdown: string, script = ''): string {
  const page = `
html, body { margin: 0; background: #ffffff; }
#frame { padding: ${PAGE_PADDING}px; width: ${COLUMN_WIDTH}px; }
/* GitHub's .comment-body: 14 px text, no padding of its own here (the frame has it). */
#comment { width: ${COLUMN_WIDTH}px; padding: 0; font-size: 14px; }`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>EvalVerdict comment</title>
<style>${githubMarkdownCss()}</style>
<style>${page}</style>
</head><body><div id="frame"><article id="comment" class="markdown-body">
${commentHtml(markdown)}
</article></div>${script ? `<script>${script}</script>` : ''}</body></html>
`;
}

/** The first id="NAME" JSON a page's script wrote (as <script type="application/json">) in Chromium's DOM dump. */
export function readDumpedJson(dom: string, id: string): unknown {
  const m = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(dom);
  if (!m) throw new Error(`the page wrote no #${id} (the script failed?); DOM starts: ${dom.slice(0, 300)}`);
  return JSON.parse(m[1]);
}

/** Browser-side: `writeJson(id, value)` puts `value` into the DOM where readDumpedJson finds it. */
export const WRITE_JSON = `function writeJson(id, value) {
  const s = document.createElement('script');
  s.type = 'application/json';
  s.id = id;
  s.textContent = JSON.stringify(value).replace(/</g, '\\\\u003c');
  document.body.appendChild(s);
}`;

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

// No network: the page needs none, and Chromium's own background fetches are turned off and cannot resolve a host.
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--hide-scrollbars',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

function runChromium(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, [...CHROMIUM_FLAGS, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${CHROMIUM} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The page's DOM after its scripts ran, at `width` x `height`. */
export function dumpDom(file: string, width: number, height = 2000): Promise<string> {
  return runChromium([
    `--window-size=${width},${height}`,
    '--virtual-time-budget=5000',
    '--dump-dom',
    `file://${file}`,
  ]);
}

export async function screenshot(file: string, png: string, width: number, height: number): Promise<void> {
  await runChromium([`--window-size=${width},${height}`, `--screenshot=${png}`, `file://${file}`]);
}
