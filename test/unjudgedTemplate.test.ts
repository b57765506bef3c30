/**
 * `compare --unjudged FILE`: the template lists exactly the (query, id) pairs of both runs' top k that judged@k
 * counts as not judged, as qrels lines of relevance -1, sorted and each once; checked by hand on a small case and
 * against judged@10 on the Cranfield fixtures (judged by their qrels' relevant documents).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import { readGoldenFile } from '../src/load/golden.js';
import { openRunStream } from '../src/load/runDatabase.js';
import { runFromTrec } from '../src/import/trec/trecFiles.js';
import { hit, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json } from './helpers/runDb.js';

afterAll(removeTempDirs);

const runOf = (runId: string, createdAt: string, results: Json[]) =>
  writeRunDb({ runs: [{ runId, createdAt, results }] });

/**
 * `compare` with --unjudged (and --json) into a new directory, under no gates (the default's read @10 metrics and
 * fail a candidate alone): the CLI's result and the files' texts.
 */
async function compareUnjudged(args: string[]) {
  const dir = tempDir();
  const config = writeGolden('gates: []\n', dir, 'gates.yml');
  const template = join(dir, 'unjudged.qrels');
  const json = join(dir, 'report.json');
  const cli = await runCli([
    'compare',
    ...args,
    '--unjudged',
    template,
    '--json',
    json,
    '--format',
    'json',
    '--config',
    config,
  ]);
  return {
    ...cli,
    template: existsSync(template) ? readFileSync(template, 'utf8') : null,
    report: existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as Json) : null,
  };
}

describe('--unjudged by hand', async () => {
  // q1: A 2, B 0 (judged not relevant), C 1, N -1 (trec_eval's unjudged); q2 has no graded judgment (an expected
  // chunk only): never listed; q3 judges document D at 0, which its chunk D#1 meets by doc_id.
  const golden = writeGolden(`
- id: q1
  query: one
  judgments: {A: 2, B: 0, C: 1, N: -1}
- id: q2
  query: two
  expected_chunk_ids: [E]
- id: q3
  query: three
  judgments: {D: 0}
`);
  const baseline = await runOf('base', '2024-01-01T00:00:00Z', [
    result('q1', [
      hit(1, 'A', 'A'),
      hit(2, 'X', 'X'),
      hit(3, 'B', 'B'),
      hit(4, 'N', 'N'),
      hit(5, 'Y', 'Y'),
      hit(6, 'C', 'C'),
      hit(11, 'R11', 'R11'), // below the top 10
    ]),
    result('q2', [hit(1, 'E', 'E'), hit(2, 'Z', 'Z')]),
    result('q3', [hit(1, 'D#1', 'D'), hit(2, 'W', 'W')]),
  ]);
  const candidate = await runOf('cand', '2024-01-02T00:00:00Z', [
    result('q1', [hit(1, 'X', 'X'), hit(2, 'C', 'C'), hit(3, 'Z2', 'Z2'), hit(4, 'N', 'N')]),
    result('q2', [hit(1, 'Z', 'Z')]),
    result('q3', [hit(1, 'W', 'W'), hit(2, 'V#2', 'V')]),
  ]);

  it('lists both runs’ unjudged top-10 pairs once each, sorted; grade 0 judged, -1 listed, rank 11 not', async () => {
    const out = await compareUnjudged([baseline, candidate, '--golden', golden]);
    expect(out.status).toBe(0);
    expect(out.template).toBe(
      ['q1 0 N -1', 'q1 0 X -1', 'q1 0 Y -1', 'q1 0 Z2 -1', 'q3 0 V#2 -1', 'q3 0 W -1', ''].join('\n'),
    );
    // the same count judged@10 misses: baseline q1 6 of 10 hits in the top 10, 3 unjudged (X, N, Y) -> 3/10;
    // q3 D#1 judged -> 1/10; candidate q1 X, Z2, N unjudged -> 1/10; q3 none judged -> 0
    const judged = (out.report as { metrics: Record<string, Json> }).metrics['judged@10'];
    expect([judged.baseline, judged.candidate]).toEqual([0.2, 0.05]);
  });

  it('k is the largest k in use: --k 1,3 lists the top 3', async () => {
    const out = await compareUnjudged([baseline, candidate, '--golden', golden, '--k', '1,3']);
    expect(out.template).toBe(['q1 0 X -1', 'q1 0 Z2 -1', 'q3 0 V#2 -1', 'q3 0 W -1', ''].join('\n'));
  });

  it('a candidate-only report lists the candidate’s pairs alone', async () => {
    const out = await compareUnjudged(['--baseline', 'none', candidate, '--golden', golden]);
    expect(out.template).toBe(['q1 0 N -1', 'q1 0 X -1', 'q1 0 Z2 -1', 'q3 0 V#2 -1', 'q3 0 W -1', ''].join('\n'));
  });

  it('parses as qrels (grade -1: still unjudged); once graded, the pairs are judged and the template is empty', async () => {
    const out = await compareUnjudged([baseline, candidate, '--golden', golden]);
    const { golden: read } = runFromTrec(
      out.template!,
      'unjudged.qrels',
      'q1 Q0 X 1 1 r\n',
      'run',
      '2024-01-01T00:00:00Z',
    );
    expect(read.queries.map((q) => [q.id, Object.fromEntries(q.judgments)])).toEqual([
      ['q1', { N: -1, X: -1, Y: -1, Z2: -1 }],
      ['q3', { 'V#2': -1, W: -1 }],
    ]);
    // an assessor grades every pair (0 here); merged into the golden set, nothing in either top 10 is unjudged
    const graded = writeGolden(`
- id: q1
  query: one
  judgments: {A: 2, B: 0, C: 1, N: 0, X: 0, Y: 0, Z2: 0}
- id: q2
  query: two
  expected_chunk_ids: [E]
- id: q3
  query: three
  judgments: {D: 0, "V#2": 0, W: 0}
`);
    const again = await compareUnjudged([baseline, candidate, '--golden', graded]);
    expect(again.template).toBe('');
    const judged = (again.report as { metrics: Record<string, Json> }).metrics['judged@10'];
    expect([judged.baseline, judged.candidate]).toEqual([0.4, 0.3]); // (0.6 + 0.2) / 2, (0.4 + 0.2) / 2
  });

  it('an id a qrels field cannot hold is left out with a warning', async () => {
    const spaced = await runOf('cand2', '2024-01-02T00:00:00Z', [result('q3', [hit(1, 'a b', 'doc b')])]);
    const out = await compareUnjudged(['--baseline', 'none', spaced, '--golden', golden]);
    expect(out.status).toBe(0);
    expect(out.template).toBe('');
    expect(out.stderr).toContain('warning: --unjudged: 1 unjudged pair(s) left out');
    expect(out.stderr).toContain('id `a b`');
  });

  it('a golden set without graded judgments: refused (exit 2), no file written, not even --json', async () => {
    const plain = writeGolden('- id: q2\n  query: two\n  expected_chunk_ids: [E]\n');
    const out = await compareUnjudged([baseline, candidate, '--golden', plain]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/--unjudged: .*has no graded judgments/);
    expect([out.template, out.report]).toEqual([null, null]);
  });

  it('refuses to write over an input', async () => {
    const out = await runCli(['compare', baseline, candidate, '--golden', golden, '--unjudged', golden]);
    expect(out.status).toBe(2);
    expect(readFileSync(golden, 'utf8')).toContain('judgments: {A: 2');
  });
});

describe('--unjudged on the Cranfield fixtures', async () => {
  // The fixtures' golden set has no judgments: judge each query's relevant documents (its expected_doc_ids, the
  // qrels' grade >= 1) at 1, and, on every third query, the first non-relevant document of cran-0001.. at 0.
  const items = parseYaml(readFileSync('fixtures/golden.yaml', 'utf8')) as Array<Record<string, unknown>>;
  const judgedItems = items.map((item, i) => {
    const relevant = (item.expected_doc_ids as string[]) ?? [];
    if (relevant.length === 0) return { id: item.id, query: item.query, expected_doc_ids: [] };
    const judgments: Record<string, number> = Object.fromEntries(relevant.map((d) => [d, 1]));
    if (i % 3 === 0) {
      const other = Array.from({ length: 20 }, (_, n) => `cran-${String(n + 1).padStart(4, '0')}`);
      judgments[other.find((d) => !(d in judgments))!] = 0;
    }
    return { id: item.id, query: item.query, judgments };
  });
  const golden = writeGolden(JSON.stringify(judgedItems), tempDir(), 'golden.yaml');
  const B = 'fixtures/baseline.sqlite';
  const C = 'fixtures/candidate.sqlite';

  /** Per query: hits in the run's top 10, and judged@10 as the metric table computes it. */
  async function topTen(path: string): Promise<Map<string, { returned: number; judged: number | null }>> {
    const run = await openRunStream(path);
    const returned = new Map<string, number>();
    run.forEachResult((r) => returned.set(r.queryId, r.hits.filter((h) => h.rank <= 10).length));
    const again = await openRunStream(path);
    const scored = scoreRun(again, readGoldenFile(golden), DEFAULT_OPTIONS);
    const judgedAt10 = buildMetricTable(DEFAULT_OPTIONS).find((d) => d.id === 'judged@10')!.perQuery!;
    return new Map(
      scored.records.map((r) => [r.golden.id, { returned: returned.get(r.golden.id) ?? 0, judged: judgedAt10(r) }]),
    );
  }

  /** The two runs compared once for the tests that read it (one compares again, for the same bytes). */
  let compared: ReturnType<typeof compareUnjudged> | undefined;
  const bothRuns = () => {
    compared ??= compareUnjudged([B, C, '--golden', golden]);
    return compared;
  };

  /** The template's lines per query. */
  const countsOf = (template: string) => {
    const counts = new Map<string, number>();
    for (const line of template.split('\n').filter(Boolean)) {
      const [q, iter, , rel] = line.split(' ');
      expect([iter, rel]).toEqual(['0', '-1']);
      counts.set(q, (counts.get(q) ?? 0) + 1);
    }
    return counts;
  };

  it('each run alone: per query, unjudged in the template = returned - 10 * judged@10', async () => {
    for (const [path, side] of [
      [B, 'baseline'],
      [C, 'candidate'],
    ] as const) {
      const alone = await compareUnjudged(['--baseline', 'none', path, '--golden', golden]);
      expect(alone.status).toBe(0);
      const counts = countsOf(alone.template!);
      const perQuery = await topTen(path);
      let sum = 0;
      let n = 0;
      let unjudgedSeen = 0;
      for (const [id, { returned, judged }] of perQuery) {
        if (judged === null) {
          expect(counts.has(id), id).toBe(false); // no judgments: never listed
          continue;
        }
        expect(counts.get(id) ?? 0, `${side} ${id}`).toBe(Math.round(returned - 10 * judged));
        if (returned === 10) expect(counts.get(id) ?? 0).toBe(Math.round(10 * (1 - judged)));
        unjudgedSeen += counts.get(id) ?? 0;
        sum += judged;
        n++;
      }
      expect(unjudgedSeen).toBeGreaterThan(100); // the case is not vacuous
      // and the per-query values are the ones the compare report means
      const both = await bothRuns();
      const metric = (both.report as { metrics: Record<string, Json> }).metrics['judged@10'];
      expect(metric[side]).toBeCloseTo(sum / n, 4);
    }
  });

  it('the comparison’s template is the union of the two runs’ templates, sorted and deduplicated', async () => {
    const both = await bothRuns();
    const b = await compareUnjudged(['--baseline', 'none', B, '--golden', golden]);
    const c = await compareUnjudged(['--baseline', 'none', C, '--golden', golden]);
    const union = [...new Set([...b.template!.split('\n'), ...c.template!.split('\n')].filter(Boolean))];
    const lines = both.template!.split('\n').filter(Boolean);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.sort()).toEqual(union.sort());
    const key = (l: string) => l.split(' ');
    const written = both.template!.split('\n').filter(Boolean);
    const sorted = [...written].sort((x, y) => {
      const [qx, , dx] = key(x);
      const [qy, , dy] = key(y);
      return qx < qy ? -1 : qx > qy ? 1 : dx < dy ? -1 : dx > dy ? 1 : 0;
    });
    expect(written).toEqual(sorted);
    // deterministic: the same bytes again
    expect((await compareUnjudged([B, C, '--golden', golden])).template).toBe(both.template);
  });

  it('across chunker versions (the fixtures differ): matched as the comparison matched, per side = judged@10', async () => {
    // Each query judges its first relevant document at 1 and keeps its expected passages: the baseline's whole-
    // document chunks meet those only through the comparison's fallback (by document), so exact matching would
    // list them. Per side, the unjudged are the template's pairs among that run's top 10.
    const withChunks = items.map((item) => {
      const relevant = (item.expected_doc_ids as string[]) ?? [];
      if (relevant.length === 0) return { id: item.id, query: item.query, expected_doc_ids: [] };
      return {
        id: item.id,
        query: item.query,
        judgments: { [relevant[0]]: 1 },
        expected_chunk_ids: item.expected_chunk_ids,
      };
    });
    const goldenChunks = writeGolden(JSON.stringify(withChunks), tempDir(), 'golden.yaml');
    const both = await compareUnjudged([B, C, '--golden', goldenChunks]);
    expect(both.status).not.toBe(2);
    const report = both.report as { chunker_version_match: string; metrics: Record<string, Json> };
    expect(report.chunker_version_match).not.toBe('exact');
    const listed = new Set(both.template!.split('\n').filter(Boolean));
    const judgedQueries = new Set(withChunks.filter((q) => 'judgments' in q).map((q) => q.id as string));
    for (const [path, side] of [
      [B, 'baseline'],
      [C, 'candidate'],
    ] as const) {
      const run = await openRunStream(path);
      let sum = 0;
      run.forEachResult((r) => {
        if (!judgedQueries.has(r.queryId)) return;
        const top = r.hits.filter((h) => h.rank <= 10);
        const unjudged = top.filter((h) => listed.has(`${r.queryId} 0 ${h.chunkId} -1`)).length;
        sum += (top.length - unjudged) / 10;
      });
      run.release?.();
      expect(report.metrics['judged@10'][side], side).toBeCloseTo(sum / judgedQueries.size, 4);
    }
    // The baseline alone is matched exactly: its whole-document chunks of expected passages are then unjudged, so
    // it lists more of its own hits than the comparison does.
    const exactOnly = await compareUnjudged(['--baseline', 'none', B, '--golden', goldenChunks]);
    const exactLines = exactOnly.template!.split('\n').filter(Boolean);
    const inComparison = exactLines.filter((l) => listed.has(l)).length;
    expect(exactLines.length - inComparison).toBeGreaterThan(200); // 2148 - 1725 = 423 when written
  });
});
