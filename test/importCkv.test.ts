/**
 * `evalverdict import ckv` end to end: ckv's own fixture format (fixtures/ckv) with the hits of two eval passes,
 * imported into one database, aggregated and compared, values worked out by hand from ckv's definitions
 * (recall@k: queries with a correct hit in the top k over all queries; MRR: the mean of 1/found_rank, 0 when not
 * found); ckv's schema_version and line-range rules; bad input of each kind, leaving no file behind.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { round4 } from '../src/numberFormat.js';
import { queryDb, removeTempDirs, runCli, STACK_LINE, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

const FIXTURE = 'fixtures/ckv/testdata/queries.yaml';
const BASELINE = 'fixtures/ckv/results/baseline.jsonl';
const CANDIDATE = 'fixtures/ckv/results/candidate.jsonl';

type Metrics = Record<string, { value: number | null; n: number }>;

const importCkv = (args: string[]) => runCli(['import', 'ckv', ...args]);

async function aggregate(db: string, golden: string, run: string): Promise<Metrics> {
  const res = await runCli(['aggregate', db, '--golden', golden, '--run', run, '--json']);
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout).metrics as Metrics;
}

const pick = (m: Metrics) => ({
  recall_at_1: m['hit@1'],
  recall_at_3: m['hit@3'],
  recall_at_5: m['hit@5'],
  mrr: m.rr,
  citation_accuracy: m.citation_accuracy,
  total: m.total_queries.value,
});

describe('import ckv: the fixture in ckv format', () => {
  it('imports two passes into one database, aggregated and compared as ckv scores them', async () => {
    const dir = tempDir();
    const db = join(dir, 'runs.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const base = await importCkv([
      '--fixture',
      FIXTURE,
      '--results',
      BASELINE,
      '--out',
      db,
      '--golden-out',
      golden,
      '--created-at',
      '2026-11-20T00:00:00Z',
    ]);
    expect(base.stderr).not.toMatch(STACK_LINE);
    expect(base.status).toBe(0);
    expect(base.stdout).toBe(`imported 7 of 8 queries (9 result lines) into ${db} as run baseline\n`);
    expect(base.stderr).toBe(
      [
        `warning: ${BASELINE}: 1 more line for a query that already had one; the last of each is scored: q2 at line 8`,
        `warning: ${BASELINE}: 1 line for a query the fixture does not have is skipped: q99 at line 7`,
        `warning: ${FIXTURE}: 1 query has no result (a miss, as ckv counts a query it could not run): q7`,
        `warning: ${BASELINE}: 1 hit past the top 5 is left out (ckv scores the top K)`,
        '',
      ].join('\n'),
    );
    // The golden set: each expected location as expected_lines; pending entries scored with the others (tagged),
    // q5's missing range as ckv's zero value [0, 0], which no hit overlaps.
    const items = readFileSync(golden, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(items[5]).toEqual({
      id: 'q5',
      query: 'why did we switch the store to bbolt',
      expected_lines: { file: 'docs/adr/0003-storage.md', line_range: [0, 0] },
      tags: ['pending'],
    });
    expect(items[1]).toEqual({
      id: 'q1',
      query: 'where does the server start listening for connections',
      expected_lines: { file: 'server.go', line_range: [22, 29] },
      category: 'Method',
    });

    // Found ranks (first hit citing the expected file with an overlapping range, within the top 5):
    //   q1 2 (server.go 18-35; 1-20 ends before 22)   q2 1 (its second line is kept)
    //   q3 -  (retry.go 41-60 starts after 40; the overlapping 15-40 is hit 6, past K)   q4 - (an error)
    //   q5 -  (pending, no range)   q6 3   q7 - (no result)   q8 1 (pending, with a range)
    // recall@1 2/8, recall@3 = recall@5 4/8, MRR (1/2 + 1 + 1/3 + 1) / 8.
    // Citation accuracy, over the 4 that found it: every hit citing the expected file overlaps its range? q1 no
    // (server.go 1-20), q2 yes, q6 no (server.go 1-20 again), q8 yes: 2/4.
    expect(pick(await aggregate(db, golden, 'baseline'))).toEqual({
      recall_at_1: { value: 0.25, n: 8 },
      recall_at_3: { value: 0.5, n: 8 },
      recall_at_5: { value: 0.5, n: 8 },
      mrr: { value: round4((1 / 2 + 1 + 1 / 3 + 1) / 8), n: 8 },
      citation_accuracy: { value: 0.5, n: 4 },
      total: 8,
    });

    const cand = await importCkv(['--fixture', FIXTURE, '--results', CANDIDATE, '--out', db, '--golden-out', golden]);
    expect(cand.status).toBe(0);
    expect(cand.stdout).toMatch(/as run candidate \(added to the runs already there\)\n$/);
    expect(
      await queryDb(db, 'SELECT run_id, COUNT(*) FROM eval_query_results GROUP BY run_id ORDER BY run_id'),
    ).toEqual([
      ['baseline', 7],
      ['candidate', 8],
    ]);
    // q1 1, q2 1, q3 1, q4 2 (reqid.go 1-25 overlaps 8-21), q5 -, q6 3, q7 - (pending [0, 0]), q8 1.
    // Citation accuracy: all 6 that found it but q6 (server.go 1-20 beside 60-75): 5/6.
    expect(pick(await aggregate(db, golden, 'candidate'))).toEqual({
      recall_at_1: { value: 0.5, n: 8 },
      recall_at_3: { value: 0.75, n: 8 },
      recall_at_5: { value: 0.75, n: 8 },
      mrr: { value: round4((1 + 1 + 1 + 1 / 2 + 1 / 3 + 1) / 8), n: 8 },
      citation_accuracy: { value: round4(5 / 6), n: 6 },
      total: 8,
    });

    const json = join(dir, 'report.json');
    const compared = await runCli([
      'compare',
      db,
      db,
      '--golden',
      golden,
      '--baseline-run',
      'baseline',
      '--candidate-run',
      'candidate',
      '--json',
      json,
    ]);
    expect(compared.stderr).not.toMatch(STACK_LINE);
    expect(compared.status).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    // hit@5 improves by 0.25, but a set this small cannot rule out a drop of the margin: inconclusive warns (exit 0)
    expect(report.verdict).toBe('warn');
    expect(report.gates[0].result).toBe('inconclusive');
    expect(report.metrics['hit@5'].delta).toBe(0.25);
  });

  it('the same input gives the same bytes; --k counts fewer hits', async () => {
    const bytes = [];
    for (const k of ['5', '5', '2']) {
      const dir = tempDir();
      const db = join(dir, 'r.sqlite');
      const golden = join(dir, 'g.jsonl');
      const res = await importCkv([
        '--fixture',
        FIXTURE,
        '--results',
        BASELINE,
        '--out',
        db,
        '--golden-out',
        golden,
        '--created-at',
        '2026-11-20T00:00:00Z',
        '--k',
        k,
      ]);
      expect(res.status).toBe(0);
      bytes.push(readFileSync(db));
      if (k === '2') {
        // q6's third hit is past the top 2 now: found 3 of 8 within k.
        expect((await aggregate(db, golden, 'baseline'))['hit@5']).toEqual({ value: 0.375, n: 8 });
      }
    }
    expect(Buffer.compare(bytes[0], bytes[1])).toBe(0);
    expect(Buffer.compare(bytes[0], bytes[2])).not.toBe(0);
  });
});

describe('import ckv: schema_version and line ranges as ckv states them', () => {
  const query = (extra: string) => `queries:\n  - id: q1\n    intent: "x"\n    expected:\n      file: a.go\n${extra}`;
  const sane = query('      line_range: [3, 9]\n');
  const cases: Array<[string, string, RegExp | null, RegExp | null]> = [
    ['a missing schema_version', sane, /^evalverdict: F:1: `schema_version` is missing or empty/, null],
    [
      'an empty schema_version',
      `schema_version: ""\n${sane}`,
      /^evalverdict: F:1: `schema_version` is missing or empty/,
      null,
    ],
    [
      'a newer major',
      `schema_version: "2"\n${sane}`,
      /^evalverdict: F:1: fixture schema_version 2 is a newer major than 1, which this EvalVerdict reads/,
      null,
    ],
    [
      'a version that is none',
      `schema_version: "v1"\n${sane}`,
      /^evalverdict: F:1: `schema_version` "v1" is not MAJOR or MAJOR.MINOR/,
      null,
    ],
    [
      'a newer minor: read, with a warning',
      `schema_version: "1.3"\n${sane}`,
      null,
      /^warning: F: fixture schema_version 1.3 is a newer minor than 1.0; read as 1/,
    ],
    ['the same version, as a YAML number', `schema_version: 1\n${sane}`, null, null],
    [
      'a reversed range',
      `schema_version: "1"\n${query('      line_range: [29, 22]\n')}`,
      /^evalverdict: F:7: query "q1": `expected.line_range` \[29, 22\] is not a range of lines/,
      null,
    ],
    [
      'a zero range on an entry that is not pending',
      `schema_version: "1"\n${query('      line_range: [0, 0]\n')}`,
      /^evalverdict: F:7: query "q1": `expected.line_range` \[0, 0\] is no range \(only pending entries may have it\)/,
      null,
    ],
    [
      'no range on an entry that is not pending',
      `schema_version: "1"\n${query('')}`,
      /^evalverdict: F:6: query "q1" needs `expected.line_range: \[start, end\]` \(only pending entries may omit it\)/,
      null,
    ],
    [
      'a zero range on a pending entry',
      `schema_version: "1"\n${query('      line_range: [0, 0]\n    pending: true\n')}`,
      null,
      null,
    ],
    [
      'a range starting at 0 on a pending entry',
      `schema_version: "1"\n${query('      line_range: [0, 4]\n    pending: true\n')}`,
      /is not a range of lines/,
      null,
    ],
    [
      'a query without intent',
      'schema_version: "1"\nqueries:\n  - id: q1\n    expected: {file: a.go, line_range: [1, 2]}\n',
      /^evalverdict: F:3: query "q1" needs `intent`/,
      null,
    ],
    [
      'a query without expected.file',
      'schema_version: "1"\nqueries:\n  - id: q1\n    intent: x\n    expected: {line_range: [1, 2]}\n',
      /^evalverdict: F:5: query "q1" needs `expected.file`/,
      null,
    ],
    [
      'an id twice',
      `schema_version: "1"\n${sane}${sane.replace('queries:\n', '')}`,
      /^evalverdict: F:8: query id "q1" again \(first at line 3\)/,
      null,
    ],
  ];
  for (const [name, yaml, error, warning] of cases) {
    it(`${name}`, async () => {
      const dir = tempDir();
      const fixture = join(dir, 'queries.yaml');
      const results = join(dir, 'results.jsonl');
      writeFileSync(fixture, yaml);
      writeFileSync(results, '{"query_id": "q1", "hits": [{"file": "a.go", "line_range": [1, 4]}]}\n');
      const res = await importCkv([
        '--fixture',
        fixture,
        '--results',
        results,
        '--out',
        join(dir, 'r.sqlite'),
        '--golden-out',
        join(dir, 'g.jsonl'),
      ]);
      const stderr = res.stderr.replaceAll(fixture, 'F');
      expect(stderr).not.toMatch(STACK_LINE);
      if (error) {
        expect(stderr).toMatch(error);
        expect(res.status).toBe(2);
        expect(readdirSync(dir).sort()).toEqual(['queries.yaml', 'results.jsonl']);
      } else {
        expect(res.status).toBe(0);
        if (warning) expect(stderr).toMatch(warning);
        else expect(stderr).toBe('');
      }
    });
  }
});

describe("import ckv: ckv's own Result JSON", () => {
  it("gives back the Result's recall@1/3/5, MRR and CitationAccuracy, and its per-query rows", async () => {
    const dir = tempDir();
    const db = join(dir, 'runs.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const resultFile = 'fixtures/ckv/results/result.json';
    const res = await importCkv(['--fixture', FIXTURE, '--results', resultFile, '--out', db, '--golden-out', golden]);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe(`imported 8 of 8 queries (8 rows of ckv's Result) into ${db} as run result\n`);
    // ckv's Summarize over the rows (found_rank 1, 3, 0, 2, 0, 5, 0, 4; citation_correct over the 5 found).
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    const own = result.aggregate;
    const m = pick(await aggregate(db, golden, 'result'));
    expect(m).toEqual({
      recall_at_1: { value: round4(own.recall_at_1), n: own.total },
      recall_at_3: { value: round4(own.recall_at_3), n: own.total },
      recall_at_5: { value: round4(own.recall_at_5), n: own.total },
      mrr: { value: round4(own.mrr), n: own.total },
      citation_accuracy: { value: round4(own.citation_accuracy), n: own.found },
      total: own.total,
    });
    // Each row as ckv's PerQuery has it: found_rank (n/a for 0), hits_returned, citation_correct (n/a when not found).
    const rows = await runCli([
      'aggregate',
      db,
      '--golden',
      golden,
      '--run',
      'result',
      '--per-query',
      '--format',
      'json',
    ]);
    type Row = {
      query_id: string;
      first_relevant_rank: number | null;
      hits_returned: number;
      citation_correct: boolean | null;
      top_hit: string;
    };
    const got = (JSON.parse(rows.stdout).rows as Row[]).map((r) => [
      r.query_id,
      r.first_relevant_rank ?? 0,
      r.hits_returned,
      r.citation_correct,
    ]);
    type PerQuery = { query_id: string; found_rank: number; hits_returned: number; citation_correct: boolean };
    expect(got).toEqual(
      (result.per_query as PerQuery[]).map((q) => [
        q.query_id,
        q.found_rank,
        q.hits_returned,
        q.found_rank > 0 ? q.citation_correct : null,
      ]),
    );
    // The top hit's file where the Result names one other than the expected file.
    expect((JSON.parse(rows.stdout).rows as Row[])[1].top_hit).toBe('config/env.go:1-1');
  });

  it('a found_rank for a pending entry without a range, and a misspelt key: exit 2, named', async () => {
    const dir = tempDir();
    const file = join(dir, 'result.json');
    writeFileSync(file, '{\n"k": 5, "per_query": [{"query_id": "q7", "found_rank": 1, "hits_returned": 1}]}\n');
    const res = await importCkv(['--fixture', FIXTURE, '--results', file, '--out', join(dir, 'r.sqlite')]);
    expect(res.stderr.replaceAll(file, 'R')).toMatch(
      /^evalverdict: R: per_query\[0\]: found_rank 1 for a pending entry without a range/,
    );
    expect(res.status).toBe(2);
    writeFileSync(file, '{"per_query": [{"query_id": "q1", "found_rnak": 1}]}\n');
    const misspelt = await importCkv(['--fixture', FIXTURE, '--results', file, '--out', join(dir, 'r.sqlite')]);
    expect(misspelt.stderr.replaceAll(file, 'R')).toBe(
      'evalverdict: R: per_query[0]: unknown key `found_rnak`; did you mean `found_rank`?\n',
    );
    expect(readdirSync(dir)).toEqual(['result.json']);
  });
});

describe('import ckv: bad results', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['a line that is not JSON', '{"query_id": "q1", "hits": []}\n{"query_id": \n', /^evalverdict: R:2: not valid JSON/],
    ['a line without query_id', '{"hits": []}\n', /^evalverdict: R:1: a result needs `query_id`, got nothing\n/],
    [
      'hits that are no list',
      '{"query_id": "q1", "hits": {"file": "a.go"}}\n',
      /^evalverdict: R:1: `hits` must be a list, got an object/,
    ],
    [
      'a hit without file',
      '{"query_id": "q1", "hits": [{"line_range": [1, 2]}]}\n',
      /^evalverdict: R:1: `hits\[0\].file` must be the cited file, got nothing\n/,
    ],
    [
      'a hit with a reversed range',
      '{"query_id": "q1", "hits": [{"file": "a.go", "line_range": [1, 2]}, {"file": "a.go", "line_range": [9, 3]}]}\n',
      /^evalverdict: R:1: `hits\[1\].line_range` must be \[start, end\] with 1 <= start <= end, got \[9,3\]/,
    ],
    [
      'an error that is not text',
      '{"query_id": "q1", "error": true}\n',
      /^evalverdict: R:1: `error` must be text, got boolean true/,
    ],
    // Issue 34: a runner's mistake is refused, not read as a query with no hits.
    [
      'a line with neither hits nor error',
      '{"query_id": "q1", "results": [{"file": "a.go", "line_range": [1, 2]}]}\n',
      /^evalverdict: R:1: query "q1" has neither `hits` nor `error` \(an empty list is no hits\); its keys: query_id, results\n/,
    ],
    [
      'a misspelt key',
      '{"query_id": "q1", "hit": [{"file": "a.go", "line_range": [1, 2]}]}\n',
      /^evalverdict: R:1: unknown key `hit`; did you mean `hits`\?\n/,
    ],
    [
      'a misspelt hit key',
      '{"query_id": "q1", "hits": [{"file": "a.go", "line_rnage": [1, 2]}]}\n',
      /^evalverdict: R:1: unknown key `hits\[0\]\.line_rnage`; did you mean `line_range`\?\n/,
    ],
  ];
  for (const [name, results, message] of cases) {
    it(`${name}: exit 2, named, nothing written`, async () => {
      const dir = tempDir();
      const resultsFile = join(dir, 'results.jsonl');
      writeFileSync(resultsFile, results);
      const res = await importCkv([
        '--fixture',
        FIXTURE,
        '--results',
        resultsFile,
        '--out',
        join(dir, 'r.sqlite'),
        '--golden-out',
        join(dir, 'g.jsonl'),
      ]);
      expect(res.stderr.replaceAll(resultsFile, 'R')).toMatch(message);
      expect(res.status).toBe(2);
      expect(readdirSync(dir)).toEqual(['results.jsonl']);
    });
  }

  it('a --k that is no positive whole number, and missing flags', async () => {
    expect(
      (await importCkv(['--fixture', FIXTURE, '--results', BASELINE, '--out', 'x.sqlite', '--k', '0'])).stderr,
    ).toMatch(/^evalverdict: --k: "0" is not a positive whole number/);
    expect((await importCkv(['--fixture', FIXTURE, '--out', 'x.sqlite'])).stderr).toMatch(
      /^evalverdict: --fixture, --results and --out are required/,
    );
  });
});
