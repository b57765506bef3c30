/**
 * What a person reads in a terminal: `compare` prints a plain-text report there (verdict first and last, no
 * Markdown escapes or HTML entities, colour only when asked), `--format` chooses what goes to stdout, and
 * `aggregate` and `metrics` print plain text too. The CLI runs in process with the terminal facts it is given.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMarkdown } from './helpers/markdownChecks.js';
import { hit, result, runCli, removeTempDirs, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';

afterAll(removeTempDirs);

const FIXTURES = [
  'compare',
  'fixtures/baseline.sqlite',
  'fixtures/candidate.sqlite',
  '--golden',
  'fixtures/golden.yaml',
  // The README's quick start: a team for whom half a point of nDCG@10 matters (fixtures/evalverdict.yml).
  '--config',
  'fixtures/evalverdict.yml',
];
const ANSI = /\u001b\[[\d;]*m/g;
const ESCAPES = /&gt;|&lt;|&amp;|&quot;|&#\d+;|\\[_|*`[\]<>#]/;

describe('compare on a terminal', async () => {
  const plain = await runCli(FIXTURES, { tty: true });
  const coloured = await runCli(FIXTURES, { tty: true, color: true });
  const lines = plain.stdout.trimEnd().split('\n');

  it('prints the verdict as the first and the last line, and exits 1 (a gate failed)', () => {
    expect(plain.status).toBe(1);
    expect(lines[0]).toBe('EvalVerdict: FAIL — 2 of 4 gates failed');
    expect(lines.at(-1)).toBe(lines[0]);
  });

  it('names each failed gate with its delta, interval and p under the verdict', () => {
    // The gate's bounds: each end one-sided at 1 - alpha / 4 (alpha split over the 4 gates), printed as one 90%
    // interval; it fails because its better end is beyond the margin 0.005.
    expect(lines[1]).toBe(
      '  ✗ nDCG@10 −0.0222 (90% CI [−0.0384, −0.0060], one-sided p 0.0011, Bonferroni-adjusted 0.0045); allowed: drop < 0.0050 (margin) (bounds at α 0.05)',
    );
    expect(lines[2]).toMatch(/^ {2}✗ recall@10 −0\.0325 \(90% CI \[−0\.0514, −0\.0136\]/);
  });

  it('has the gates, the key metrics and the worst regressions, as aligned plain text', () => {
    expect(lines).toContain('Gates');
    expect(lines).toContain('Key metrics');
    expect(lines).toContain(
      'Regressions (10 of 50): lost hits, then lower first relevant ranks, then worse answers; each by Δ nDCG@10, lowest first',
    );
    expect(plain.stdout).toMatch(
      /^ {2}q184 {3}1 → miss {4}−0\.3933 {2}work on small-oscillation re-entry motions \.$/m,
    );
  });

  it('no Markdown: no HTML entities, no backslash escapes, no table pipes, no alert block', () => {
    expect(plain.stdout).not.toMatch(ESCAPES);
    expect(plain.stdout).not.toContain('|');
    expect(plain.stdout).not.toContain('[!CAUTION]');
  });

  it('colour only when asked: the same text once the colour codes are taken out', () => {
    expect(plain.stdout).not.toMatch(ANSI);
    expect(coloured.stdout).toMatch(ANSI);
    expect(coloured.stdout.replace(ANSI, '')).toBe(plain.stdout);
  });
});

describe('--format chooses what goes to stdout', () => {
  it('not a terminal (a pipe, a CI log): the comment-ready Markdown, as before', async () => {
    const res = await runCli(FIXTURES);
    expect(res.stdout.split('\n')[0]).toBe('> [!CAUTION]');
  });

  it('--format markdown on a terminal, --format text into a pipe', async () => {
    expect((await runCli([...FIXTURES, '--format', 'markdown'], { tty: true })).stdout).toMatch(/^> \[!CAUTION\]\n/);
    expect((await runCli([...FIXTURES, '--format', 'text'])).stdout).toMatch(/^EvalVerdict: FAIL/);
  });

  it('--format json prints the JSON report; the files written by --markdown are the same whatever the format', async () => {
    const dir = tempDir();
    const [json, text] = await Promise.all([
      runCli([...FIXTURES, '--format', 'json', '--markdown', join(dir, 'a.md')]),
      runCli([...FIXTURES, '--format', 'text', '--markdown', join(dir, 'b.md')]),
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'fail', per_query_metric: 'nDCG@10' });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toBe(readFileSync(join(dir, 'b.md'), 'utf8'));
    expect(text.status).toBe(1);
  });

  it('an unknown format: exit 2 naming the choices', async () => {
    const res = await runCli([...FIXTURES, '--format', 'html']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/^evalverdict: --format must be text, markdown or json, got "html"/);
  });
});

describe('text from a run database stays on its line', () => {
  it('a run id with a newline and a workflow command: shown escaped, never at the start of a line', async () => {
    const dir = tempDir();
    const golden = writeGolden('- id: q1\n  query: "one"\n  expected_chunk_ids: [r1]\n', dir);
    const db = (runId: string, name: string) =>
      writeRunDb({ runs: [{ runId, results: [result('q1', [hit(1, 'r1', 'd1')])] }] }, join(dir, name));
    const evil = 'cand\n::error title=forged::boom\u202e';
    const [b, c] = await Promise.all([db('base', 'b.sqlite'), db(evil, 'c.sqlite')]);
    const res = await runCli(['compare', b, c, '--golden', golden], { tty: true });
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('candidate cand\\u000a::error title=forged::boom\\u202e at');
    expect(res.stdout).not.toMatch(/^::/m);
  });
});

describe('aggregate and metrics print plain text', () => {
  it('metrics: definitions in plain words (no &lt;), the Markdown table with --format markdown', async () => {
    const text = await runCli(['metrics']);
    expect(text.stdout).not.toMatch(ESCAPES);
    expect(text.stdout).toMatch(/^hit@1 +retrieval, ratio, higher is better$/m);
    expect(text.stdout).toContain('rank <= 1');
    const md = await runCli(['metrics', '--format', 'markdown']);
    expect(md.stdout.split('\n')[0]).toBe('| id | family | better | unit | definition | denominator |');
    expect(md.stdout).toContain('rank &lt;= 1');
  });

  it('aggregate --format markdown: one well-formed table of every metric', async () => {
    const res = await runCli([
      'aggregate',
      'fixtures/candidate.sqlite',
      '--golden',
      'fixtures/golden.yaml',
      '--format',
      'markdown',
    ]);
    expect(res.status).toBe(0);
    const { problems, tables } = checkMarkdown(res.stdout);
    expect(problems).toEqual([]);
    expect(tables).toHaveLength(1);
    expect(res.stdout).toMatch(/^\| retrieval \| `hit@1` \| 0\.3467 \| 225 \|$/m);
  });
});
