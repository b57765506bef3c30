/**
 * Warnings that are not the golden set's own rules (golden.test.ts): summariseWarnings (the halves' unknown-key
 * warnings merged, then the cap) and a baseline newer than its candidate (the runs may be swapped).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { warningText } from '../src/render/warningText.js';
import { createHash } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSummary } from '../src/aggregate/aggregate.js';
import { readGoldenFile, readGoldenHalf } from '../src/load/golden.js';
import { runCompare, swappedRunsWarning } from '../src/pipeline/runCompare.js';
import { summariseWarnings } from '../src/render/warningText.js';
import { note, notes } from '../src/warnings.js';
import type { UnknownKeyWarning, Warning } from '../src/warnings.js';
import { hit, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

describe('summariseWarnings', () => {
  it('merges the unknown-key warnings of two halves of one file: counts added, the first line kept', () => {
    // 300 queries; `judgements` in every tenth (q0000, q0010, ...: 30), `x_note` only after the cut, the nested
    // `snippet` in both halves
    const items = Array.from({ length: 300 }, (_, i) => ({
      id: `q${String(i).padStart(4, '0')}`,
      query: `question ${i}`,
      expected_doc_ids: [`d${i}`],
      ...(i % 10 === 0 ? { judgements: { [`d${i}`]: 1 } } : {}),
      ...(i === 290 ? { x_note: 1 } : {}),
      ...(i === 5 || i === 295 ? { gold_supports: [{ rel_path: 'a.md', snippet: 'x' }] } : {}),
    }));
    const file = writeGolden(items.map((q) => `${JSON.stringify(q)}\n`).join(''), tempDir(), 'g.jsonl');
    const [a, b] = [readGoldenHalf(file, 0, 0), readGoldenHalf(file, 1, 0)];
    expect(a && b).toBeTruthy();
    // each half counts its own
    expect(a!.warnings.map(warningText)[0]).toMatch(/^.*:1: unknown key `judgements` in \d+ queries/);
    expect(b!.warnings.map(warningText)[0]).not.toMatch(/:1: /);
    const whole = readGoldenFile(file).warnings.map(warningText);
    expect(whole).toEqual([
      `${file}:1: unknown key \`judgements\` in 30 queries (ignored); did you mean \`judgments\`?`,
      `${file}:6: \`gold_supports\`: unknown key \`snippet\` in 2 queries (ignored; its keys are rel_path, heading_path, snippets, newer); did you mean \`snippets\`?`,
      `${file}:291: unknown key \`x_note\` in 1 query (ignored); did you mean \`note\`?`,
    ]);
    expect(summariseWarnings([...a!.warnings, ...b!.warnings])).toEqual(whole);
  });

  it('keeps apart the same key of other files, other maps, and warnings of other kinds', () => {
    const typo = (source: string, line: number, count: number, map: UnknownKeyWarning['map'] = null) =>
      ({
        kind: 'unknown_key',
        source,
        line,
        map,
        key: 'typo',
        count,
        known: map ? ['file', 'line_range'] : [],
      }) as const;
    const warnings: Warning[] = [
      typo('a.yaml', 3, 2),
      typo('b.yaml', 4, 1),
      typo('a.yaml', 9, 1, 'expected_lines'),
      note('a.yaml: a YAML golden set of 2.6 MB takes seconds to read'),
      typo('a.yaml', 20, 1000),
    ];
    expect(summariseWarnings(warnings)).toEqual([
      'a.yaml:3: unknown key `typo` in 1,002 queries (ignored)',
      'b.yaml:4: unknown key `typo` in 1 query (ignored)',
      'a.yaml:9: `expected_lines`: unknown key `typo` in 1 query (ignored; its keys are file, line_range)',
      'a.yaml: a YAML golden set of 2.6 MB takes seconds to read',
    ]);
    // merged as data: the warnings given are not changed
    expect(warnings[0]).toMatchObject({ count: 2 });
  });

  it('prints ten, then one line counting the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => `w${i}`);
    expect(summariseWarnings(notes(many))).toEqual([...many.slice(0, 10), '... and 2 more warnings like these']);
    expect(summariseWarnings(notes(many.slice(0, 11)))).toEqual(many.slice(0, 11));
  });
});

describe('a baseline newer than its candidate', () => {
  const summary = (run_id: string, created_at: string) => ({ run_id, created_at }) as RunSummary;

  it('warns naming both runs and their times; an older or equal baseline, or a time that is not one, does not', () => {
    expect(swappedRunsWarning(summary('new', '2026-11-02T12:00:00Z'), summary('old', '2026-11-01T12:00:00Z'))).toBe(
      'the baseline run `new` (created 2026-11-02T12:00:00Z) is newer than the candidate run `old` (created 2026-11-01T12:00:00Z): the runs may be swapped (the baseline comes first)',
    );
    expect(
      swappedRunsWarning(summary('old', '2026-11-01T12:00:00Z'), summary('new', '2026-11-02T12:00:00Z')),
    ).toBeNull();
    expect(
      swappedRunsWarning(summary('a', '2026-11-01T12:00:00Z'), summary('b', '2026-11-01T13:00:00+01:00')),
    ).toBeNull();
    expect(swappedRunsWarning(summary('a', 'yesterday'), summary('b', '2026-11-01T12:00:00Z'))).toBeNull();
    // compared as instants, not as text: 09:00 UTC (SQLite's CURRENT_TIMESTAMP form) is after 10:30+02:00 = 08:30 UTC
    expect(
      swappedRunsWarning(summary('a', '2026-11-22 09:00:00'), summary('b', '2026-11-22T10:30:00+02:00')),
    ).toContain('may be swapped');
    expect(
      swappedRunsWarning(summary('a', '2026-11-22T10:30:00+02:00'), summary('b', '2026-11-22 09:00:00')),
    ).toBeNull();
  });

  it("compare: the warning first on stderr (and in the pipeline's warnings), never in the Markdown report", async () => {
    const [baseline, candidate, golden] = ['baseline.sqlite', 'candidate.sqlite', 'golden.yaml'].map((f) =>
      join(repoRoot, 'fixtures', f),
    );
    const swapped = await runCli(['compare', candidate, baseline, '--golden', golden]);
    expect(swapped.status).not.toBe(2);
    const first = swapped.stderr.split('\n')[0];
    expect(first).toBe(
      'warning: the baseline run `candidate-passages` (created 2026-11-02T12:00:00Z) is newer than the candidate run `baseline-whole-doc` (created 2026-11-01T12:00:00Z): the runs may be swapped (the baseline comes first)',
    );
    expect(swapped.stdout).not.toContain('swapped');
    const library = await runCompare({ baselinePath: candidate, candidatePath: baseline, goldenPath: golden });
    expect(library.warnings.map(warningText)[0]).toBe(first.replace(/^warning: /, ''));
    expect(library.markdownFull).not.toContain('swapped');
    // the right way round: no such warning
    expect((await runCli(['compare', baseline, candidate, '--golden', golden])).stderr).not.toContain('swapped');
  });

  it('two runs of one database (--baseline-run, --candidate-run) are checked the same way', async () => {
    const results = [result('q1', [hit(1, 'c1', 'd1')])];
    const db = await writeRunDb({
      runs: [
        { runId: 'monday', createdAt: '2026-11-23T09:00:00Z', results },
        { runId: 'tuesday', createdAt: '2026-11-24T09:00:00Z', results },
      ],
    });
    const golden = writeGolden('- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n');
    const args = (b: string, c: string) => [
      'compare',
      db,
      '--baseline-run',
      b,
      '--candidate-run',
      c,
      '--golden',
      golden,
    ];
    expect((await runCli(args('tuesday', 'monday'))).stderr).toContain(
      'the baseline run `tuesday` (created 2026-11-24T09:00:00Z) is newer than the candidate run `monday`',
    );
    expect((await runCli(args('monday', 'tuesday'))).stderr).not.toContain('swapped');
  });
});

describe('every warning of the report in every output format', () => {
  it('a query the candidate has no result for: in the Markdown, the text report and stderr', async () => {
    const db = await writeRunDb({
      runs: [
        {
          runId: 'base',
          createdAt: '2026-11-23T09:00:00Z',
          results: [result('q1', [hit(1, 'c1', 'd1')]), result('q2', [hit(1, 'c2', 'd2')])],
        },
        { runId: 'cand', createdAt: '2026-11-24T09:00:00Z', results: [result('q1', [hit(1, 'c1', 'd1')])] },
      ],
    });
    const golden = writeGolden(
      '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n- id: q2\n  query: two\n  expected_chunk_ids: [c2]\n',
    );
    const args = ['compare', db, '--baseline-run', 'base', '--candidate-run', 'cand', '--golden', golden];
    const markdown = await runCli([...args, '--format', 'markdown']);
    expect(markdown.stdout).toContain('- ⚠️ 1 query has no result in the candidate (counted as misses).');
    const text = await runCli([...args, '--format', 'text']);
    expect(text.stdout).toContain('warning: 1 query has no result in the candidate (counted as misses)\n');
    expect(text.stderr).toContain('warning: 1 query has no result in the candidate (counted as misses)\n');
    // said once on stderr, not once per format
    expect(text.stderr.split('no result in the candidate').length).toBe(2);
  });
});

describe('the report names its inputs', () => {
  const results = [result('q1', [hit(1, 'c1', 'd1')]), result('q2', [hit(2, 'c2', 'd2')])];
  const goldenText =
    '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n- id: q2\n  query: two\n  expected_chunk_ids: [c2]\n';

  it('the config that produced the verdict, with its hash, or the built-in default: in Markdown, JSON and text', async () => {
    const db = await writeRunDb({
      runs: [
        { runId: 'a', createdAt: '2026-11-23T09:00:00Z', results },
        { runId: 'b', createdAt: '2026-11-24T09:00:00Z', results },
      ],
    });
    const golden = writeGolden(goldenText);
    const configBody = 'gates:\n  - metric: hit@5\n    max_drop: 0.1\n';
    const config = writeGolden(configBody, tempDir(), 'gates.yml');
    const sha = createHash('sha256').update(configBody).digest('hex').slice(0, 12);
    const args = ['compare', db, '--baseline-run', 'a', '--candidate-run', 'b', '--golden', golden];
    const named = await runCompare({
      baselinePath: db,
      candidatePath: db,
      goldenPath: golden,
      baselineRun: 'a',
      candidateRun: 'b',
      configPath: config,
    });
    expect(named.markdown).toContain(`\n\nGate config: ${config} (sha256 \`${sha}\`)\n`);
    expect(JSON.parse(named.json).config).toEqual({ source: config, sha256: sha });
    expect((await runCli([...args, '--config', config, '--format', 'text'])).stdout).toContain(
      `\nconfig    ${config} (sha256 ${sha})\n`,
    );
    const builtIn = await runCompare({
      baselinePath: db,
      candidatePath: db,
      goldenPath: golden,
      baselineRun: 'a',
      candidateRun: 'b',
    });
    expect(builtIn.markdown).toContain('\n\nGate config: built-in default\n');
    expect(JSON.parse(builtIn.json).config).toEqual({ source: null, sha256: null });
    expect((await runCli([...args, '--format', 'text'])).stdout).toContain('\nconfig    built-in default\n');
  });

  it('a run compared with itself: warned in every format; two runs of one database are not', async () => {
    const db = await writeRunDb({
      runs: [
        { runId: 'old', createdAt: '2026-11-23T09:00:00Z', results },
        { runId: 'new', createdAt: '2026-11-24T09:00:00Z', results },
      ],
    });
    const golden = writeGolden(goldenText);
    // both sides pick the newest run of one database
    const same = await runCli(['compare', db, db, '--golden', golden, '--format', 'text']);
    const said = 'the baseline and the candidate are the same run (new: same database and run)';
    expect(same.stdout).toContain(`warning: ${said}`);
    expect(same.stderr).toContain(`warning: ${said}`);
    const md = await runCli(['compare', db, db, '--golden', golden, '--format', 'markdown']);
    expect(md.stdout).toContain('- ⚠️ The baseline and the candidate are the same run (new: same database and run)');
    // a copy of the file: the same run id, time and results
    const copy = join(tempDir(), 'copy.sqlite');
    copyFileSync(db, copy);
    expect((await runCli(['compare', db, copy, '--golden', golden])).stderr).toContain(
      '(new: same run id and results)',
    );
    const apart = await runCli(['compare', db, '--baseline-run', 'old', '--candidate-run', 'new', '--golden', golden]);
    expect(apart.stderr).not.toContain('same run');
  });
});
