// `npm run screenshot`: docs/comment.png, the fixtures' PR comment as a reviewer first sees it on GitHub (every
// <details> collapsed), rendered by scripts/commentPage.ts in Debian's Chromium. Run it after `npm run build`
// whenever the report changes. Loads nothing from the network: the CSS is inlined and the page is a file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHROMIUM,
  COLUMN_WIDTH,
  commentPage,
  dumpDom,
  hasChromium,
  PAGE_PADDING,
  readDumpedJson,
  screenshot,
  WRITE_JSON,
} from './commentPage.ts';

const OUT = 'docs/comment.png';
const CLI = 'dist/cli/index.js';

if (!hasChromium()) {
  console.error(
    `screenshot: ${CHROMIUM} not found. Install Debian's Chromium and the fonts the page falls back to:\n` +
      '  sudo apt-get install --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji',
  );
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'evalverdict-screenshot-'));
try {
  const markdown = join(work, 'comment.md');
  const args = ['compare', 'fixtures/baseline.sqlite', 'fixtures/candidate.sqlite'];
  args.push('--golden', 'fixtures/golden.yaml', '--config', 'fixtures/evalverdict.yml', '--markdown', markdown);
  try {
    execFileSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    // Exit 1 is the verdict (the fixtures fail a gate); anything else is a real failure.
    if (error.status !== 1) {
      console.error(`screenshot: ${CLI} ${args.join(' ')} exited ${error.status}:\n${error.stderr}`);
      process.exit(1);
    }
  }

  // First pass: the page's height with every <details> collapsed, so the picture is cropped to the comment.
  const page = join(work, 'comment.html');
  const measure = `${WRITE_JSON}
writeJson('height', Math.ceil(document.getElementById('frame').getBoundingClientRect().height));`;
  writeFileSync(page, commentPage(readFileSync(markdown, 'utf8'), measure));
  const width = COLUMN_WIDTH + 2 * PAGE_PADDING;
  const height = readDumpedJson(await dumpDom(page, width), 'height');

  writeFileSync(page, commentPage(readFileSync(markdown, 'utf8')));
  await screenshot(page, join(process.cwd(), OUT), width, height);
  console.log(`${OUT}: ${width} x ${height} px, ${statSync(OUT).size} bytes`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
