/**
 * `evalverdict import paperbot` end to end: PaperBot's bench JSON (fixtures/paperbot, graded judgments, per-case
 * top_k, query_type, a case judged all 0) and the evidence hits of three retrieval modes, imported as three runs of
 * one database and aggregated, every value worked out by hand; bad input of each kind, leaving no file behind.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { round4 } from '../src/numberFormat.js';
import { queryDb, removeTempDirs, runCli, STACK_LINE, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

const BENCH = 'fixtures/paperbot/bench_v1.json';
const RESULTS = 'fixtures/paperbot/results.jsonl';

type Metrics = Record<string, { value: number | null; n: number }>;

const importPaperbot = (args: string[]) => runCli(['import', 'paperbot', ...args]);

async function aggregate(db: string, golden: string, run: string, extra: string[] = []): Promise<Metrics> {
  const res = await runCli(['aggregate', db, '--golden', golden, '--run', run, '--json', ...extra]);
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout).metrics as Metrics;
}

const value = (m: Metrics, id: string) => m[id].value;

describe("import paperbot: PaperBot's own report JSON", () => {
  it("gives back the report's summary per mode: recall, MRR, nDCG, evidence hit rate, latency", async () => {
    // fixtures/paperbot/report/make_report.py wrote the report with PaperBot's own functions (transcribed): its
    // cases[] carry ranked_chunk_refs, cut at each case's top_k (5), and its summary the means.
    const dir = tempDir();
    const db = join(dir, 'bench.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const bench = 'fixtures/paperbot/report/bench_v1.json';
    const reportFile = 'fixtures/paperbot/report/document_evidence_bench_v1.json';
    const res = await importPaperbot(['--bench', bench, '--results', reportFile, '--out', db, '--golden-out', golden]);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe(
      `imported 4 cases and 8 case rows of PaperBot's report into ${db} as runs fts_only (4), hybrid (4)\n`,
    );
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    for (const mode of ['fts_only', 'hybrid']) {
      const own = report.summary[mode].overall;
      // PaperBot's nDCG gains 2^grade - 1.
      const m = await aggregate(db, golden, mode, ['--ndcg-gain', 'exponential']);
      expect([mode, value(m, 'recall@5'), value(m, 'rr'), value(m, 'nDCG@5'), value(m, 'hit@5')]).toEqual([
        mode,
        round4(own.recall_at_5),
        round4(own.mrr_at_5),
        round4(own.ndcg_at_5),
        round4(own.evidence_hit_rate),
      ]);
      expect([value(m, 'latency_mean_ms'), value(m, 'latency_p95_ms')]).toEqual([
        own.avg_latency_ms,
        own.p95_latency_ms,
      ]);
    }
  });

  it('a case row without ranked_chunk_refs: exit 2, named, nothing written', async () => {
    const dir = tempDir();
    const file = join(dir, 'report.json');
    writeFileSync(file, '{\n  "cases": [{"case_id": "doc_evi_001", "mode": "hybrid", "ranked": []}]\n}\n');
    const res = await importPaperbot(['--bench', BENCH, '--results', file, '--out', join(dir, 'r.sqlite')]);
    expect(res.stderr.replaceAll(file, 'R')).toBe(
      'evalverdict: R: cases[0]: `ranked_chunk_refs` must be a list of chunk refs, got nothing\n',
    );
    expect(res.status).toBe(2);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });
});

describe('import paperbot: three modes side by side from one results file', () => {
  it('imports a run per mode and scores each as PaperBot defines its metrics', async () => {
    const dir = tempDir();
    const db = join(dir, 'bench.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const res = await importPaperbot(['--bench', BENCH, '--results', RESULTS, '--out', db, '--golden-out', golden]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(
      `imported 6 cases and 19 result lines into ${db} as runs fts_only (6), embedding_only (5), hybrid (6)\n`,
    );
    expect(res.stderr).toBe(
      [
        `warning: ${RESULTS}: 1 more line for a case and mode that already had one; the last of each is scored: doc_evi_003 (fts_only) at line 7`,
        `warning: ${RESULTS}: 1 line for a case the bench does not have is skipped: doc_evi_099 at line 13`,
        `warning: ${RESULTS}: mode embedding_only has no line for 1 case (a miss): doc_evi_004`,
        `warning: ${RESULTS}: 2 hits past their case's top_k are left out`,
        '',
      ].join('\n'),
    );
    const items = readFileSync(golden, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(items[1]).toEqual({
      id: 'doc_evi_001',
      query: 'retrieval-aware memory routing latency',
      judgments: { '101:method:0': 3, '101:findings:0': 2 },
      expected_chunk_ids: ['101:method:0'],
      expected_doc_ids: ['101'],
      category: 'paraphrase',
      top_k: 5,
    });

    // Relevant per case (grade >= 1): 001 method:0 (3), findings:0 (2); 002 abstract:0 (3); 003 limitations:0 (2),
    // findings:1 (1); 004 findings:0 (3), findings:1 (2); 005 method:0, limitations:0 (2 each). 006 is judged 0
    // only: PaperBot counts it, and the golden header's `profile: paperbot` says so: means over 6 cases, 006 a miss
    // for hit@k (evidence hit) and rr, 1 for recall@k and nDCG@k (PaperBot's code: nothing relevant scores 1.0).
    //
    // fts_only: first relevant ranks 1, 1, - (003's second line, kept, is empty), 1, 1, -.
    //   recall: 1/2, 1, 0, 1/2, 1, 1 -> 4/6.
    const fts = await aggregate(db, golden, 'fts_only');
    expect([value(fts, 'hit@1'), value(fts, 'rr'), value(fts, 'recall@10')]).toEqual([
      round4(4 / 6),
      round4(4 / 6),
      round4(4 / 6),
    ]);
    expect(fts['hit@1'].n).toBe(6);
    // Latency: 12, 15, 9, 11, 14, 10: mean 71/6, p95 the largest (nearest rank of 6).
    expect([value(fts, 'latency_mean_ms'), value(fts, 'latency_p95_ms')]).toEqual([round4(71 / 6), 15]);
    // embedding_only: 001 at rank 2; 002's relevant hit is 4th of a top_k of 3 (cut); 003 1; 004 no line; 005 1;
    //   006 -. recall: 1/2, 0, 1/2, 0, 1/2, 1 -> 2.5/6.
    const emb = await aggregate(db, golden, 'embedding_only');
    expect([value(emb, 'hit@1'), value(emb, 'hit@3'), value(emb, 'rr'), value(emb, 'recall@10')]).toEqual([
      round4(2 / 6),
      0.5,
      round4(2.5 / 6),
      round4(2.5 / 6),
    ]);
    // hybrid: ranks 1, 2, 1, 2, -, -; recall 1, 1, 1, 1, 0, 1.
    // nDCG@5 (PaperBot's: gain = 2^grade - 1, discount log2(rank + 1)):
    //   001: (7 + 3/log2 3) / (7 + 3/log2 3) = 1;  002: (7/log2 3) / 7;  003: (1 + 3/log2 3) / (3 + 1/log2 3);
    //   004: (3/log2 3 + 7/2) / (7 + 3/log2 3);  005: 0;  006: 1 (nothing relevant).
    const l3 = Math.log2(3);
    const ndcgSum = 1 + 1 / l3 + (1 + 3 / l3) / (3 + 1 / l3) + (3 / l3 + 7 / 2) / (7 + 3 / l3) + 1;
    const hyb = await aggregate(db, golden, 'hybrid');
    expect([value(hyb, 'hit@1'), value(hyb, 'hit@3'), value(hyb, 'rr'), value(hyb, 'recall@10')]).toEqual([
      round4(2 / 6),
      round4(4 / 6),
      0.5,
      round4(5 / 6),
    ]);
    expect(hyb['nDCG@5']).toEqual({ value: round4(ndcgSum / 6), n: 6 });
    expect(value(hyb, 'recall_doc@10')).toBe(0.8); // the expected paper among the hits: all but 005 (006 has none)
    // Without the profile line, EvalVerdict's own rules leave 006 out (means over 5) and gain = grade:
    //   001: 1;  002: (3/log2 3) / 3;  003: (1 + 2/log2 3) / (2 + 1/log2 3);  004: (2/log2 3 + 3/2) / (3 + 2/log2 3).
    const ownSum = 1 + 3 / l3 / 3 + (1 + 2 / l3) / (2 + 1 / l3) + (2 / l3 + 3 / 2) / (3 + 2 / l3);
    const plain = join(dir, 'plain.jsonl');
    writeFileSync(plain, readFileSync(golden, 'utf8').replace('"profile":"paperbot",', ''));
    const own = await aggregate(db, plain, 'hybrid');
    expect(own['hit@1']).toEqual({ value: 0.4, n: 5 });
    expect(own['nDCG@5']).toEqual({ value: round4(ownSum / 5), n: 5 });
    // Breakdown by query_type: the exact cases are 002 (found at 2) and 006 (nothing relevant, a miss).
    const report = JSON.parse(
      (await runCli(['aggregate', db, '--golden', golden, '--run', 'hybrid', '--json'])).stdout,
    );
    expect(report.breakdowns.category.exact['hit@3']).toEqual({ value: 0.5, n: 2 });

    // PaperBot's --fail-under-hybrid-recall on the one run (docs/sources/paperbot.md): recall@10 is 5/6.
    const failUnder = async (min: number) => {
      const gates = join(dir, `gates-${min}.yml`);
      writeFileSync(gates, `gates:\n  - metric: recall@10\n    min: ${min}\n`);
      return runCli([
        'compare',
        '--baseline',
        'none',
        db,
        '--candidate-run',
        'hybrid',
        '--golden',
        golden,
        '--config',
        gates,
        '--format',
        'json',
      ]);
    };
    const below = await failUnder(0.9);
    expect(below.status).toBe(1);
    expect(JSON.parse(below.stdout).gates[0]).toMatchObject({
      metric: 'recall@10',
      candidate: round4(5 / 6),
      result: 'fail',
    });
    expect((await failUnder(0.6)).status).toBe(0);

    // Another commit's results go beside them under a prefix; the first three runs are kept as they were.
    const before = await queryDb(db, 'SELECT run_id, query_id, result_json FROM eval_query_results ORDER BY 1, 2');
    const again = await importPaperbot([
      '--bench',
      BENCH,
      '--results',
      RESULTS,
      '--out',
      db,
      '--golden-out',
      golden,
      '--run-prefix',
      'next-',
    ]);
    expect(again.status).toBe(0);
    const after = await queryDb(db, 'SELECT run_id, query_id, result_json FROM eval_query_results ORDER BY 1, 2');
    expect(after.filter((r) => !String(r[0]).startsWith('next-'))).toEqual(before);
    expect(after.length).toBe(2 * before.length);
    const clash = await importPaperbot(['--bench', BENCH, '--results', RESULTS, '--out', db]);
    expect(clash.status).toBe(2);
    expect(clash.stderr).toMatch(/already holds a run `fts_only`/);
  });
});

describe('import paperbot: bad input', () => {
  const goodCase = '{"case_id": "c1", "query": "q", "judgments": [{"chunk_ref": "1:a:0", "relevance": 2}]}';
  const cases: Array<[string, { bench?: string; results?: string }, RegExp]> = [
    ['a bench that is not JSON', { bench: '{"cases": [' }, /^evalverdict: B: not valid JSON/],
    [
      'a case without case_id',
      { bench: '{"version": "v1",\n "cases": [\n {"query": "q"}]}' },
      /^evalverdict: B:1: a case needs `case_id`/,
    ],
    [
      'a grade out of 0..3',
      { bench: `{"version": "v1", "cases": [\n${goodCase.replace('"relevance": 2', '"relevance": 5')}]}` },
      /^evalverdict: B:2: case "c1": `judgments\[0\].relevance` must be a grade 0..3, got number 5/,
    ],
    [
      'a case_id twice',
      { bench: `{"version": "v1", "cases": [\n${goodCase},\n${goodCase}]}` },
      /^evalverdict: B:3: case_id "c1" again \(first at line 2\)/,
    ],
    [
      'a top_k of 0',
      { bench: `{"version": "v1", "cases": [\n${goodCase.replace('"query": "q"', '"query": "q", "top_k": 0')}]}` },
      /^evalverdict: B:2: case "c1": `top_k` must be a whole number >= 1/,
    ],
    [
      'a result without mode',
      { results: '{"case_id": "c1", "hits": []}\n' },
      /^evalverdict: R:1: a result needs `mode`/,
    ],
    [
      'a hit without chunk_ref',
      { results: '{"case_id": "c1", "mode": "hybrid", "hits": [{"paper_id": 1}]}\n' },
      /^evalverdict: R:1: `hits\[0\]` needs `chunk_ref`/,
    ],
    [
      'a negative latency',
      { results: '{"case_id": "c1", "mode": "hybrid", "hits": [], "latency_ms": -3}\n' },
      /^evalverdict: R:1: `latency_ms` must be a number >= 0/,
    ],
    [
      'no line for any case',
      { results: '{"case_id": "zz", "mode": "hybrid", "hits": []}\n' },
      /^evalverdict: R: no result line for any case of B/,
    ],
    // Issue 34: a runner's mistake is refused, not read as a case with no hits.
    [
      'a line with neither hits nor error',
      { results: '{"case_id": "c1", "mode": "hybrid", "latency_ms": 5, "results": []}\n' },
      /^evalverdict: R:1: case "c1" has neither `hits`, `evidence_hits` nor `error` \(an empty list is no hits\); its keys: case_id, mode, latency_ms, results$/m,
    ],
    [
      'a misspelt key',
      { results: '{"case_id": "c1", "mode": "hybrid", "hit": [{"chunk_ref": "1:a:0"}]}\n' },
      /^evalverdict: R:1: unknown key `hit`; did you mean `hits`\?$/m,
    ],
    [
      'a misspelt hit key',
      { results: '{"case_id": "c1", "mode": "hybrid", "hits": [{"chunk_rf": "1:a:0"}]}\n' },
      /^evalverdict: R:1: unknown key `hits\[0\]\.chunk_rf`; did you mean `chunk_ref`\?$/m,
    ],
  ];
  for (const [name, input, message] of cases) {
    it(`${name}: exit 2, named, nothing written`, async () => {
      const dir = tempDir();
      const bench = join(dir, 'bench.json');
      const results = join(dir, 'results.jsonl');
      writeFileSync(bench, input.bench ?? `{"version": "v1", "cases": [\n${goodCase}]}`);
      writeFileSync(
        results,
        input.results ?? '{"case_id": "c1", "mode": "hybrid", "hits": [{"chunk_ref": "1:a:0"}]}\n',
      );
      const res = await importPaperbot([
        '--bench',
        bench,
        '--results',
        results,
        '--out',
        join(dir, 'r.sqlite'),
        '--golden-out',
        join(dir, 'g.jsonl'),
      ]);
      expect(res.stderr.replaceAll(bench, 'B').replaceAll(results, 'R')).toMatch(message);
      expect(res.stderr).not.toMatch(STACK_LINE);
      expect(res.status).toBe(2);
      expect(readdirSync(dir).sort()).toEqual(['bench.json', 'results.jsonl']);
    });
  }
});

describe('import paperbot: a case without top_k', () => {
  it('is cut at 5 hits, as PaperBot cuts it (`int(row.get("top_k") or 5)`)', async () => {
    const dir = tempDir();
    const bench = join(dir, 'bench.json');
    writeFileSync(
      bench,
      '{"version": "v1", "cases": [\n{"case_id": "c1", "query": "q", "judgments": [{"paper_id": 1, "chunk_ref": "1:a:5", "relevance": 2}]}]}',
    );
    const results = join(dir, 'results.jsonl');
    const hits = [0, 1, 2, 3, 4, 5].map((i) => ({ chunk_ref: `1:a:${i}` }));
    writeFileSync(results, `${JSON.stringify({ case_id: 'c1', mode: 'hybrid', hits })}\n`);
    const db = join(dir, 'r.sqlite');
    const res = await importPaperbot(['--bench', bench, '--results', results, '--out', db]);
    expect(res.status).toBe(0);
    expect(res.stderr).toBe(`warning: ${results}: 1 hit past its case's top_k is left out\n`);
    const [[json]] = (await queryDb(db, 'SELECT result_json FROM eval_query_results')) as string[][];
    // The relevant chunk was the sixth: PaperBot never sees it.
    expect(JSON.parse(json).hits_top_k.map((h: { chunk_id: string }) => h.chunk_id)).toEqual([
      '1:a:0',
      '1:a:1',
      '1:a:2',
      '1:a:3',
      '1:a:4',
    ]);
  });
});
