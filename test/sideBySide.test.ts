/**
 * `evalverdict aggregate RUN.sqlite --run a,b,c` / `--run all`: runs side by side, the best value per metric marked by
 * its direction. Values worked out by hand on fixtures/paperbot's three modes (as PaperBot compares them);
 * bestRuns on its own (ties, lower-is-better, n/a, neutral); the text and Markdown marks; bad run lists.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestRuns } from '../src/aggregate/sideBySide.js';
import type { SideBySideReport } from '../src/aggregate/sideBySide.js';
import { removeTempDirs, result, hit, runCli, STACK_LINE, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';

afterAll(removeTempDirs);

describe('bestRuns', () => {
  const ids = ['a', 'b', 'c'];
  it('marks the largest of a higher-is-better metric and the smallest of a lower-is-better one', () => {
    expect(bestRuns('higher', [0.5, 0.75, 0.25], ids)).toEqual(['b']);
    expect(bestRuns('lower', [0.5, 0.75, 0.25], ids)).toEqual(['c']);
  });

  it('marks every run on a tie, comparing values as printed (4 decimals)', () => {
    expect(bestRuns('lower', [11, 40, 11], ids)).toEqual(['a', 'c']);
    expect(bestRuns('higher', [1 / 3, 0.33334, 0.3], ids)).toEqual(['a', 'b']);
    expect(bestRuns('higher', [0, 0, 0], ids)).toEqual(['a', 'b', 'c']);
  });

  it('never marks n/a, and marks nothing for a neutral metric or when every value is n/a', () => {
    expect(bestRuns('lower', [null, 3, null], ids)).toEqual(['b']);
    expect(bestRuns('higher', [null, null, null], ids)).toEqual([]);
    expect(bestRuns('neutral', [6, 6, 5], ids)).toEqual([]);
  });
});

describe('aggregate --run on fixtures/paperbot: fts_only, embedding_only and hybrid side by side', () => {
  let db = '';
  let golden = '';
  beforeAll(async () => {
    const dir = tempDir();
    db = join(dir, 'bench.sqlite');
    golden = join(dir, 'golden.jsonl');
    const res = await runCli([
      'import',
      'paperbot',
      '--bench',
      'fixtures/paperbot/bench_v1.json',
      '--results',
      'fixtures/paperbot/results.jsonl',
      '--out',
      db,
      '--golden-out',
      golden,
      '--created-at',
      '2026-11-20T00:00:00Z',
    ]);
    expect(res.status).toBe(0);
  });

  const sideBySide = async (runs: string, format = 'json') => {
    const res = await runCli(['aggregate', db, '--golden', golden, '--run', runs, '--format', format]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(0);
    return res.stdout;
  };

  it('gives each mode its values and marks the best, by hand', async () => {
    const report = JSON.parse(await sideBySide('all')) as SideBySideReport;
    // `all`: in the order the import wrote them.
    expect(report.runs.map((r) => r.run_id)).toEqual(['fts_only', 'embedding_only', 'hybrid']);
    const m = report.metrics;
    // Six cases, every one in the means (profile paperbot: doc_evi_006, judged all 0, adds 0). First relevant rank
    // per case 001..006 (grade >= 1 relevant, hits past the case's top_k cut):
    //   fts_only (003's last line has no hits): 1, 1, miss, 1, 1, -
    //   embedding_only (no line for 004; 002's 101:abstract:0 is 4th of top_k 3): 2, miss, 1, miss, 1, -
    //   hybrid: 1, 2, 1 (102:findings:1, grade 1), 2, miss, -
    expect(m['hit@1']).toMatchObject({ values: [4 / 6, 2 / 6, 2 / 6].map(r4), best: ['fts_only'] });
    // hit@3: fts_only 4/6 and hybrid 4/6 tie.
    expect(m['hit@3']).toMatchObject({ values: [4 / 6, 3 / 6, 4 / 6].map(r4), best: ['fts_only', 'hybrid'] });
    expect(m.rr).toMatchObject({ values: [4 / 6, 2.5 / 6, 3 / 6].map(r4), best: ['fts_only'] });
    // Lower is better. Latencies (nearest-rank median of each mode's last line per case):
    //   fts_only 9 10 11 12 14 15 -> 11; embedding_only 38 39 40 41 44 -> 40; hybrid 52 55 57 58 60 61 -> 57.
    expect(m.latency_p50_ms).toMatchObject({ direction: 'lower', values: [11, 40, 57], best: ['fts_only'] });
    // embedding_only has no line for doc_evi_004: a tie of the two others at 0.
    expect(m.missing_queries).toMatchObject({ direction: 'lower', values: [0, 1, 0], best: ['fts_only', 'hybrid'] });
    expect(m.error_rate).toMatchObject({ values: [0, 0, 0], best: ['fts_only', 'embedding_only', 'hybrid'] });
    // Neutral: never marked. n/a everywhere: nothing marked.
    expect(m.total_queries).toMatchObject({ direction: 'neutral', values: [6, 6, 6], n: [6, 6, 6], best: [] });
    expect(m.groundedness).toMatchObject({ values: [null, null, null], best: [] });
    expect(report.golden.queries).toBe(6);
  });

  it('takes the runs in the order given, and the same bytes as each run aggregated alone', async () => {
    const report = JSON.parse(await sideBySide('hybrid,fts_only')) as SideBySideReport;
    expect(report.runs.map((r) => r.run_id)).toEqual(['hybrid', 'fts_only']);
    expect(report.metrics.rr.values).toEqual([0.5, r4(4 / 6)]);
    for (const [i, run] of ['hybrid', 'fts_only'].entries()) {
      const alone = await runCli(['aggregate', db, '--golden', golden, '--run', run, '--json']);
      const metrics = JSON.parse(alone.stdout).metrics as Record<string, { value: number | null; n: number }>;
      for (const [id, v] of Object.entries(metrics)) {
        expect(report.metrics[id].values[i]).toBe(v.value);
        expect(report.metrics[id].n[i]).toBe(v.n);
      }
    }
  });

  it('marks the best with * in text and in bold in Markdown', async () => {
    const text = await sideBySide('fts_only,embedding_only,hybrid', 'text');
    expect(text).toMatch(/^ {2}hit@3 +0\.6667\* +0\.5000 +0\.6667\*$/m);
    expect(text).toMatch(/^ {2}latency_p50_ms +11\* +40 +57$/m);
    expect(text).toMatch(/^ {2}total_queries +6 +6 +6$/m);
    const md = await sideBySide('fts_only,embedding_only,hybrid', 'markdown');
    expect(md).toContain('| family | metric | fts\\_only | embedding\\_only | hybrid |');
    expect(md).toContain('| retrieval | `hit@3` | **0.6667** | 0.5000 | **0.6667** |');
    expect(md).toContain('| operations | `latency_p50_ms` | **11** | 40 | 57 |');
    expect(md).toContain('| operations | `total_queries` | 6 | 6 | 6 |');
  });
});

describe('aggregate --run: run lists that are refused, and run ids with commas', () => {
  const golden = () => writeGolden('- id: q1\n  query: "q"\n  expected_chunk_ids: [c1]\n');
  const run = (runId: string, rank: number) => ({ runId, results: [result('q1', [hit(1, rank === 1 ? 'c1' : 'c2')])] });

  it('refuses an unknown run naming it, the nearest and the runs present; an empty id; an id given twice', async () => {
    const db = await writeRunDb({ runs: [run('fts_only', 1), run('embedding_only', 2), run('hybrid', 1)] });
    const g = golden();
    for (const [value, message] of [
      [
        'fts_only,hybird',
        /no run `hybird` in `eval_runs`; did you mean `hybrid`\? \(runs: fts_only, embedding_only, hybrid\)$/,
      ],
      ['fts_only,zzzzzzzz', /no run `zzzzzzzz` in `eval_runs` \(runs: fts_only, embedding_only, hybrid\)$/],
      ['fts_only,,hybrid', /--run: "fts_only,,hybrid" has an empty run id/],
      ['hybrid,hybrid', /--run: run `hybrid` is given twice/],
    ] as const) {
      const res = await runCli(['aggregate', db, '--golden', g, '--run', value]);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr.trimEnd()).toMatch(message);
      expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    for (const extra of [['--per-query'], ['--write']]) {
      const res = await runCli(['aggregate', db, '--golden', g, '--run', 'all', ...extra]);
      expect(res.status).toBe(2);
      expect(res.stderr).toMatch(/names several runs: --per-query and --write take one run/);
    }
    const csv = await runCli(['aggregate', db, '--golden', g, '--run', 'all', '--format', 'csv']);
    expect(csv.status).toBe(2);
    expect(csv.stderr).toMatch(/--format must be text, markdown or json for several runs, got "csv"/);
  });

  it('reads a value that is exactly one run id as that run alone', async () => {
    const db = await writeRunDb({ runs: [run('a,b', 1), run('all', 2), run('c', 2)] });
    const g = golden();
    for (const id of ['a,b', 'all']) {
      const res = await runCli(['aggregate', db, '--golden', g, '--run', id, '--json']);
      expect(res.status).toBe(0);
      expect(JSON.parse(res.stdout).run.run_id).toBe(id);
    }
    const both = JSON.parse((await runCli(['aggregate', db, '--golden', g, '--run', 'c, all', '--json'])).stdout);
    expect(both.runs.map((r: { run_id: string }) => r.run_id)).toEqual(['c', 'all']);
    expect(both.metrics['hit@1']).toMatchObject({ values: [0, 0], best: ['c', 'all'] });
  });
});

function r4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
