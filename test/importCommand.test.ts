/**
 * The one `evalverdict import FORMAT` command: its help lists every format, an unknown format is answered with the
 * nearest, keys a format does not read are named, and WFGY's repeated lines share one golden set between runs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../src/import/formatList.js';
import { removeTempDirs, runCli, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

describe('evalverdict import', () => {
  it('--help lists every format with its line; FORMAT --help gives its flags', async () => {
    const res = await runCli(['import', '--help']);
    expect(res.status).toBe(0);
    expect(IMPORT_FORMATS.map((f) => f.name)).toEqual(['trec', 'ckv', 'paperbot', 'wfgy']);
    for (const f of IMPORT_FORMATS) expect(res.stdout).toContain(`\n  ${f.name.padEnd(9)} ${f.summary}\n`);
    for (const f of IMPORT_FORMATS) {
      const help = await runCli(['import', f.name, '--help']);
      expect(help.stdout).toBe(`${f.usage}\n`);
      for (const [flag] of f.inputs) expect(f.usage).toContain(`--${flag}`);
      for (const flag of f.options) expect(f.usage).toContain(`--${flag}`);
    }
  });

  it('no format, or an unknown one: exit 2 with the list (and the nearest name)', async () => {
    const none = await runCli(['import']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^evalverdict: usage: evalverdict import FORMAT/);
    const typo = await runCli(['import', 'papperbot', '--out', 'x.sqlite']);
    expect(typo.status).toBe(2);
    expect(typo.stderr.split('\n')[0]).toBe(
      'evalverdict: unknown `import` subcommand `papperbot`; did you mean `paperbot`?',
    );
  });

  it('an output over an input is refused for every format, before anything is read', async () => {
    const dir = tempDir();
    const traces = join(dir, 'trace.jsonl');
    writeFileSync(traces, '{"q": "A?", "answer": "x"}\n');
    const res = await runCli([
      'import',
      'wfgy',
      '--qaset',
      join(dir, 'none.json'),
      '--traces',
      traces,
      '--out',
      traces,
    ]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--out .*--traces file/);
    expect(readFileSync(traces, 'utf8')).toBe('{"q": "A?", "answer": "x"}\n');
  });

  it('keys a line carries that no ckv line has are named on stderr (near misses are refused instead)', async () => {
    const dir = tempDir();
    const results = join(dir, 'results.jsonl');
    writeFileSync(
      results,
      [
        '{"query_id": "q1", "hits": [{"file": "server.go", "line_range": [22, 29], "language": "go"}], "took_ms": 3}',
        '{"query_id": "q2", "hits": [], "took_ms": 4}',
        '',
      ].join('\n'),
    );
    const res = await runCli([
      ...['import', 'ckv', '--fixture', 'fixtures/ckv/testdata/queries.yaml', '--results', results],
      ...['--out', join(dir, 'r.sqlite')],
    ]);
    expect(res.status).toBe(0);
    expect(res.stderr).toContain(
      `warning: ${results}: 2 keys are not read: \`language\` (1 line), \`took_ms\` (2 lines)\n`,
    );
  });
});

describe('import wfgy: repeated lines', () => {
  const qaset = (dir: string, extra = '') => {
    const file = join(dir, 'qaset.json');
    writeFileSync(
      file,
      `[\n{"qid": "q1", "q": "A?", "answerable": true, "gold_ids": ["a"]},\n{"qid": "q2", "q": "B?", "answerable": false}${extra}\n]`,
    );
    return file;
  };
  const traces = (dir: string, name: string, lines: object[]) => {
    const file = join(dir, name);
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    return file;
  };

  it('one golden set serves a run without repeats and one with: the copies are kept, or added without --force', async () => {
    const dir = tempDir();
    const qa = qaset(dir);
    const golden = join(dir, 'golden.jsonl');
    const db = join(dir, 'r.sqlite');
    const once = traces(dir, 'once.jsonl', [{ q: 'A?', answer: 'citations: [a]' }]);
    const twice = traces(dir, 'twice.jsonl', [
      { q: 'A?', answer: 'citations: [b]' },
      { q: 'A?', answer: 'citations: [a]' },
      { q: 'A?', answer: 'not in context' },
    ]);
    const ids = () =>
      readFileSync(golden, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l).id);
    const args = (file: string) => [
      'import',
      'wfgy',
      '--qaset',
      qa,
      '--traces',
      file,
      '--out',
      db,
      '--golden-out',
      golden,
    ];
    expect((await runCli(args(once))).status).toBe(0);
    expect(ids()).toEqual(['q1', 'q2']);
    const grown = await runCli(args(twice));
    expect(grown.stderr).not.toMatch(/already exists/);
    expect(grown.status).toBe(0);
    expect(ids()).toEqual(['q1', 'q1#2', 'q1#3', 'q2']);
    // Importing the run without repeats again (under another id) leaves the grown golden set as it is.
    const again = await runCli([...args(once), '--run-id', 'once-again']);
    expect(again.status).toBe(0);
    expect(ids()).toEqual(['q1', 'q1#2', 'q1#3', 'q2']);
    // WFGY's rows of `twice`: three answerable rows, answered 2 (one cites gold), refused 1.
    const agg = await runCli(['aggregate', db, '--golden', golden, '--run', 'twice', '--json']);
    const m = JSON.parse(agg.stdout).metrics;
    expect([m.answer_precision, m.over_refusal_rate]).toEqual([
      { value: 0.5, n: 2 },
      { value: 0.3333, n: 3 },
    ]);
    // `once` has no result for the copies: WFGY leaves a question without a line out, and so the copies.
    const onceAgg = JSON.parse((await runCli(['aggregate', db, '--golden', golden, '--run', 'once', '--json'])).stdout);
    expect(onceAgg.metrics.answer_precision).toEqual({ value: 1, n: 1 });
  });

  it("a repeat's id that the QA set gives another question is refused, with the way out", async () => {
    const dir = tempDir();
    const qa = qaset(dir, ',\n{"qid": "q1#2", "q": "C?", "answerable": true}');
    const file = traces(dir, 't.jsonl', [
      { q: 'A?', answer: 'x' },
      { q: 'A?', answer: 'y' },
    ]);
    const res = await runCli(['import', 'wfgy', '--qaset', qa, '--traces', file, '--out', join(dir, 'r.sqlite')]);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(
      `evalverdict: ${qa}:4: qid "q1#2" is also the id of question "q1"'s line 2 in ${file}; score one line per question with --keep last\n`,
    );
    const last = await runCli([
      'import',
      'wfgy',
      '--qaset',
      qa,
      '--traces',
      file,
      '--out',
      join(dir, 'r.sqlite'),
      '--keep',
      'last',
    ]);
    expect(last.status).toBe(0);
  });
});
