/**
 * `evalverdict aggregate --per-query`: one row per golden query, values worked out by hand from ckv's PerQuery
 * definitions (fixtures/ckv) and WFGY example 08's labels (fixtures/wfgy); hallucination counts and reasons on a run
 * with a chunks table; the text, Markdown and CSV forms with hostile ids; the compare report's row for each
 * regression; bad input.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wfgyLabel } from '../src/aggregate/perQuery.js';
import type { PerQueryReport, PerQueryRow } from '../src/aggregate/perQuery.js';
import { csvField, neutraliseFormula } from '../src/render/perQueryTable.js';
import {
  answer,
  hit,
  removeTempDirs,
  result,
  runCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';

afterAll(removeTempDirs);

async function ok(args: string[]): Promise<string> {
  const res = await runCli(args);
  expect(res.stderr).not.toMatch(STACK_LINE);
  expect(res.status).toBe(0);
  return res.stdout;
}

async function perQuery(db: string, golden: string, run?: string): Promise<PerQueryReport> {
  const args = ['aggregate', db, '--golden', golden, '--per-query', '--format', 'json'];
  return JSON.parse(await ok(run === undefined ? args : [...args, '--run', run])) as PerQueryReport;
}

/** The row fields a test states, picked from a row. */
const pick = (row: PerQueryRow, keys: Array<keyof PerQueryRow>) => Object.fromEntries(keys.map((k) => [k, row[k]]));

describe('wfgyLabel: WFGY example 08, in its order of tests', () => {
  it('labels each combination of answerable, refusal and citation hit', () => {
    expect(wfgyLabel(true, false, true)).toBe('OK');
    expect(wfgyLabel(false, true, false)).toBe('REFUSAL_OK');
    expect(wfgyLabel(false, true, true)).toBe('REFUSAL_OK');
    expect(wfgyLabel(true, true, false)).toBe('OVER_REFUSAL');
    expect(wfgyLabel(true, true, true)).toBe('OVER_REFUSAL');
    expect(wfgyLabel(false, false, true)).toBe('HALLUCINATION');
    expect(wfgyLabel(false, false, false)).toBe('HALLUCINATION');
    expect(wfgyLabel(true, false, false)).toBe('ANS_NO_HIT');
    expect(wfgyLabel(true, null, true)).toBeNull();
  });
});

describe('aggregate --per-query on the source systems fixtures', () => {
  it("gives ckv's per-query fields for fixtures/ckv's candidate pass", async () => {
    const dir = tempDir();
    const [db, golden] = [join(dir, 'ckv.sqlite'), join(dir, 'golden.jsonl')];
    await ok([
      'import',
      'ckv',
      '--fixture',
      'fixtures/ckv/testdata/queries.yaml',
      '--results',
      'fixtures/ckv/results/candidate.jsonl',
      '--out',
      db,
      '--golden-out',
      golden,
      '--created-at',
      '2026-11-20T00:00:00Z',
    ]);
    const report = await perQuery(db, golden);
    const keys: Array<keyof PerQueryRow> = [
      'query_id',
      'first_relevant_rank',
      'hits_returned',
      'top_hit',
      'top_hit_score',
      'reciprocal_rank',
      'citation_correct',
      'hallucination_count',
      'label',
    ];
    // By hand, from fixtures/ckv (expected file and range; the hits in rank order): a hit is correct when it cites
    // the expected file and overlaps the range; citation_correct: every hit citing the file overlaps (null when
    // no hit was correct); no chunks table, so no hallucination check; no answers, so no label.
    const row = (
      id: string,
      rank: number | null,
      hits: number,
      top: string,
      score: number,
      rr: number,
      cc: boolean | null,
    ) => ({
      query_id: id,
      first_relevant_rank: rank,
      hits_returned: hits,
      top_hit: top,
      top_hit_score: score,
      reciprocal_rank: rr,
      citation_correct: cc,
      hallucination_count: null,
      label: null,
    });
    expect(report.rows.map((r) => pick(r, keys))).toEqual([
      row('q1', 1, 1, 'server.go:22-29', 0.93, 1, true),
      row('q2', 1, 1, 'config/load.go:10-48', 0.9, 1, true),
      row('q3', 1, 1, 'internal/retry/retry.go:15-40', 0.88, 1, true),
      // reqid.go 1-25 overlaps 8-21 at rank 2, under log.go
      row('q4', 2, 2, 'middleware/log.go:1-30', 0.7, 0.5, true),
      // pending without a line range: ckv's zero value [0, 0], which no hit overlaps
      row('q5', null, 1, 'docs/adr/0003-storage.md:1-40', 0.66, 0, null),
      // server.go 70-90 overlaps 60-75 at rank 3, but server.go 1-20 (rank 1) does not: citation not correct
      row('q6', 3, 3, 'server.go:1-20', 0.62, 0.3333, false), // 1/3, printed to 4 decimals,
      row('q7', null, 1, 'CHANGELOG.md:1-50', 0.5, 0, null),
      row('q8', 1, 1, 'metrics/prom.go:1-12', 0.83, 1, true),
    ]);
    expect(report.rows.every((r) => r.status === 'ok' && r.hallucination_reason === null)).toBe(true);
    expect(report.golden).toMatchObject({ queries: 8, pending: 0 });
  });

  it("labels fixtures/wfgy's questions as WFGY's scorer does, n/a for the question without a trace", async () => {
    const dir = tempDir();
    const [db, golden] = [join(dir, 'wfgy.sqlite'), join(dir, 'golden.jsonl')];
    await ok([
      'import',
      'wfgy',
      '--qaset',
      'fixtures/wfgy/eval/qaset.json',
      '--traces',
      'fixtures/wfgy/runs/trace.jsonl',
      '--out',
      db,
      '--golden-out',
      golden,
      '--created-at',
      '2026-11-20T00:00:00Z',
    ]);
    const report = await perQuery(db, golden);
    // By hand from qaset.json and trace.jsonl: refusal = the answer is "not in context" (case and outer space
    // ignored); hit = a citation (from `citations: [...]` in the text, or the `citations` field) is a gold id.
    expect(report.rows.map((r) => [r.query_id, r.label, r.citation_hit, r.status])).toEqual([
      ['q01', 'OK', true, 'ok'], // cites billing#2
      ['q02', 'OK', true, 'ok'], // cites infra#2 and infra#4; infra#4 is gold
      ['q03', 'OVER_REFUSAL', false, 'ok'], // answerable, "not in context"
      ['q04', 'ANS_NO_HIT', false, 'ok'], // its first line cites limits#2, not gold
      ['q04#2', 'OK', true, 'ok'], // its second line cites limits#1 (WFGY scores both lines)
      ['q05', 'REFUSAL_OK', false, 'ok'], // "Not in context"
      ['q06', 'HALLUCINATION', false, 'ok'], // unanswerable, answered
      ['q07', 'OK', true, 'ok'], // the citations field: plans#2
      ['q08', 'ANS_NO_HIT', false, 'ok'], // no citations at all
      ['q09', 'REFUSAL_OK', false, 'ok'], // "  NOT IN CONTEXT \n"
      ['q10', null, null, 'missing'], // no trace line: WFGY leaves it out
      ['q11', 'ANS_NO_HIT', false, 'ok'], // citations: []
    ]);
    // The retrieved chunks are the hits: q02's infra#4 at rank 1 of 2; q03's security#1 is not gold.
    expect(pick(report.rows[1], ['first_relevant_rank', 'hits_returned', 'top_hit'])).toEqual({
      first_relevant_rank: 1,
      hits_returned: 2,
      top_hit: 'infra#4',
    });
    expect(pick(report.rows[2], ['first_relevant_rank', 'reciprocal_rank'])).toEqual({
      first_relevant_rank: null,
      reciprocal_rank: 0,
    });
  });
});

/** A run with a chunks table: snippets checked against chunk text, a failed query, a missing one, a pending one. */
async function chunkedRun(queryIds: { first: string; second: string } = { first: 'a1', second: 'a2' }) {
  const db = await writeRunDb({
    chunks: [
      { chunkId: 'c1', docId: 'd1', text: 'The launch window opens in May.' },
      { chunkId: 'c2', docId: 'd1', text: 'Fuel is loaded two hours before launch.' },
    ],
    runs: [
      {
        runId: 'r1',
        results: [
          // c2 at rank 1 (relevant); c1's snippet is not in c1's text; c9 is in no chunks row
          result(
            queryIds.first,
            [
              hit(1, 'c2', 'd1', { snippet: 'fuel is  LOADED', score: 2.5 }),
              hit(2, 'c1', 'd1', { snippet: 'the window closes in June' }),
              hit(3, 'c9', 'd1', { snippet: 'anything' }),
            ],
            { answer: answer('Fuel goes in two hours before.', [{ chunk_id: 'c2' }]) },
          ),
          // the first hallucinated hit is one whose chunk is missing
          result(queryIds.second, [hit(1, 'c9', 'd1', { snippet: 'x' }), hit(2, 'c1', 'd1', { snippet: 'nope' })], {
            error: 'timeout after 30 s',
            status: 'timeout',
          }),
          result('p1', [hit(1, 'c1', 'd1', { snippet: 'launch window' })]),
        ],
      },
    ],
  });
  const golden = writeGolden(
    [
      `- id: ${JSON.stringify(queryIds.first)}`,
      '  query: "when is fuel loaded?"',
      '  expected_chunk_ids: [c2]',
      `- id: ${JSON.stringify(queryIds.second)}`,
      '  query: "=HYPERLINK(\\"http://x\\", \\"a, b\\")"',
      '  expected_chunk_ids: [c1]',
      '- id: m1',
      '  query: "missing from the run"',
      '  expected_chunk_ids: [c1]',
      '- id: p1',
      '  query: "pending one"',
      '  pending: true',
      '  expected_chunk_ids: [c1]',
    ].join('\n'),
  );
  return { db, golden };
}

describe('aggregate --per-query: hallucination checks, statuses and order', () => {
  it('counts hits whose snippet is not in their chunk, with the first reason in rank order', async () => {
    const { db, golden } = await chunkedRun();
    const report = await perQuery(db, golden);
    const keys: Array<keyof PerQueryRow> = [
      'query_id',
      'status',
      'pending',
      'first_relevant_rank',
      'hits_returned',
      'top_hit',
      'top_hit_score',
      'hallucination_count',
      'hallucination_reason',
      'label',
    ];
    // Golden-set order, the pending query in place. a1: c2's snippet is in c2 (case and space folded); c1's is not
    // (snippet_not_found, the first); c9 has no chunk. a2: c9 first (chunk_missing), then c1's.
    expect(report.rows.map((r) => pick(r, keys))).toEqual([
      {
        query_id: 'a1',
        status: 'ok',
        pending: false,
        first_relevant_rank: 1,
        hits_returned: 3,
        top_hit: 'c2',
        top_hit_score: 2.5,
        hallucination_count: 2,
        hallucination_reason: 'snippet_not_found',
        label: 'OK',
      },
      {
        query_id: 'a2',
        status: 'timeout',
        pending: false,
        first_relevant_rank: 2,
        hits_returned: 2,
        top_hit: 'c9',
        top_hit_score: null,
        hallucination_count: 2,
        hallucination_reason: 'chunk_missing',
        label: null,
      },
      {
        query_id: 'm1',
        status: 'missing',
        pending: false,
        first_relevant_rank: null,
        hits_returned: 0,
        top_hit: null,
        top_hit_score: null,
        hallucination_count: 0,
        hallucination_reason: null,
        label: null,
      },
      {
        query_id: 'p1',
        status: 'ok',
        pending: true,
        first_relevant_rank: 1,
        hits_returned: 1,
        top_hit: 'c1',
        top_hit_score: null,
        hallucination_count: 0,
        hallucination_reason: null,
        label: null,
      },
    ]);
    expect(report.golden).toMatchObject({ queries: 3, pending: 1 });
    // The same bytes every time.
    expect(await ok(['aggregate', db, '--golden', golden, '--per-query', '--json'])).toBe(
      await ok(['aggregate', db, '--golden', golden, '--per-query', '--json']),
    );
  });

  it('names the top hit by its chunk_id, else its cited path, else its doc_path, else its doc_id', async () => {
    const db = await writeRunDb({
      runs: [
        {
          runId: 'r',
          results: [
            result('t1', [
              hit(1, null, 'd1', {
                doc_path: 'docs/a.md',
                citation: { kind: 'line', path: 'src/a.ts', start: 1, end: 2 },
              }),
            ]),
            result('t2', [hit(1, null, 'd2', { doc_path: 'docs/b.md' }), hit(2, 'c2', 'd2')]),
            result('t3', [hit(1, null, 'd3', { score: -1.5 })]),
            result('t4', [hit(2, 'c4', null), hit(1, 'c3', null)]),
          ],
        },
      ],
    });
    const golden = writeGolden(
      ['t1', 't2', 't3', 't4'].map((id) => `- id: ${id}\n  query: "${id}"\n  expected_doc_ids: [d9]\n`).join(''),
    );
    const { rows } = await perQuery(db, golden);
    // t4: by rank, not by position in the list.
    expect(rows.map((r) => [r.top_hit, r.top_hit_score])).toEqual([
      ['src/a.ts', null],
      ['docs/b.md', null],
      ['d3', -1.5],
      ['c3', null],
    ]);
  });

  it('writes RFC 4180 CSV, input text guarded against spreadsheet formulas', async () => {
    const { db, golden } = await chunkedRun({ first: '@SUM(A1)', second: 'a,"b"\nc' });
    const csv = await ok(['aggregate', db, '--golden', golden, '--per-query', '--format', 'csv']);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'query_id,query,status,first_relevant_rank,hits_returned,top_hit,top_hit_score,reciprocal_rank,citation_correct,citation_hit,hallucination_count,hallucination_reason,label,pending',
    );
    expect(lines[1]).toBe("'@SUM(A1),when is fuel loaded?,ok,1,3,c2,2.5,1,,true,2,snippet_not_found,OK,false");
    // A quoted field may hold CR LF, a comma and doubled quotes; the query starting with `=` gets its `'`.
    expect(csv).toContain(
      '"a,""b""\nc","\'=HYPERLINK(""http://x"", ""a, b"")",timeout,2,2,c9,,0.5,,,2,chunk_missing,,false\r\n',
    );
    expect(csv.endsWith('p1,pending one,ok,1,1,c1,,1,,,0,,,true\r\n')).toBe(true);
    expect(csv.split('\r\n')).toHaveLength(6); // header, 4 rows, the empty string after the last CRLF
  });

  it('escapes input text in the Markdown table and shows controls in the text table', async () => {
    const { db, golden } = await chunkedRun({ first: 'x|<details>@team', second: 'tab\there' });
    const md = await ok(['aggregate', db, '--golden', golden, '--per-query', '--format', 'markdown']);
    expect(md).toContain(
      '| x\\|&lt;details&gt;@&#8203;team | when is fuel loaded? | ok | 1 | 3 | c2 | 2.5000 | 1.0000 | n/a | yes | 2 | snippet_not_found | OK | no |',
    );
    expect(md).not.toContain('<details>');
    // Every row has the header's 14 cells.
    const rows = md.split('\n').filter((l) => l.startsWith('|'));
    for (const r of rows) expect(r.replace(/\\\|/g, '').split('|')).toHaveLength(16);
    const text = await ok(['aggregate', db, '--golden', golden, '--per-query']);
    expect(text).toContain('tab\\u0009here');
    expect(text.split('\n')[2]).toMatch(/^query_id\s+query\s+status\s+first_relevant_rank/);
  });
});

describe('csvField and neutraliseFormula', () => {
  it('quotes what RFC 4180 says must be quoted, and nothing else', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('prefixes a quote to a cell a spreadsheet would read as a formula', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(neutraliseFormula(`${lead}1+1`)).toBe(`'${lead}1+1`);
    expect(neutraliseFormula('1+1')).toBe('1+1');
    expect(neutraliseFormula("'=x")).toBe("'=x");
  });
});

describe('compare: each regression carries its per-query row', () => {
  it("has the candidate's aggregate --per-query fields for the regressions and answer regressions", async () => {
    const dir = tempDir();
    const [db, golden] = [join(dir, 'wfgy.sqlite'), join(dir, 'golden.jsonl')];
    const wfgy = (traces: string, createdAt: string) =>
      ok([
        'import',
        'wfgy',
        '--qaset',
        'fixtures/wfgy/eval/qaset.json',
        '--traces',
        traces,
        '--out',
        db,
        '--golden-out',
        golden,
        '--created-at',
        createdAt,
        '--force',
      ]);
    await wfgy('fixtures/wfgy/runs/trace-candidate.jsonl', '2026-11-20T00:00:00Z');
    await wfgy('fixtures/wfgy/runs/trace.jsonl', '2026-11-21T00:00:00Z');
    const compared = JSON.parse(
      await ok([
        'compare',
        db,
        db,
        '--golden',
        golden,
        '--baseline-run',
        'trace-candidate',
        '--candidate-run',
        'trace',
        '--format',
        'json',
      ]),
    ) as { per_query: Array<{ query_id: string; kind: string; answer_regression: boolean; candidate_row?: object }> };
    const rows = new Map((await perQuery(db, golden, 'trace')).rows.map((r) => [r.query_id, r]));
    const withRow = compared.per_query.filter((o) => o.candidate_row !== undefined);
    // q02 misses infra#1, which the baseline ranked first, with infra#4 first instead (kebab: a regression); q03
    // found -> refused, q10 found -> no trace, q11 found -> cites nothing; q06 now answers, should refuse. WFGY's
    // label falls from OK for q04 (its first line cites limits#2), q08 and q11: answer regressions too.
    expect(withRow.map((o) => [o.query_id, o.kind, o.answer_regression])).toEqual([
      ['q02', 'regression', false],
      ['q03', 'regression', true],
      ['q04', 'regression', true],
      ['q06', 'draw', true],
      ['q08', 'draw', true],
      ['q10', 'regression', false],
      ['q11', 'regression', true],
    ]);
    for (const o of withRow) {
      const row = rows.get(o.query_id)!;
      const { query_id, query, pending, status, top_hit, top_hit_score, hallucination_reason, ...core } = row;
      expect(o.candidate_row).toEqual(core);
    }
    expect(withRow.map((o) => (o.candidate_row as { label: string | null }).label)).toEqual([
      'OK',
      'OVER_REFUSAL',
      'ANS_NO_HIT',
      'HALLUCINATION',
      'ANS_NO_HIT',
      null,
      'ANS_NO_HIT',
    ]);
    // The Markdown report says where the rows are, in the collapsed regressions section (not the open part).
    const md = await ok([
      'compare',
      db,
      db,
      '--golden',
      golden,
      '--baseline-run',
      'trace-candidate',
      '--candidate-run',
      'trace',
      '--format',
      'markdown',
    ]);
    const hint = md.indexOf('`evalverdict aggregate CANDIDATE.sqlite --golden GOLDEN --per-query`');
    const section = md.indexOf(
      '<details><summary>Regressions and losses: lost hits, then lower first relevant ranks, then worse answers; each by Δ nDCG@10, lowest first (7)</summary>',
    );
    expect(section).toBeGreaterThan(0);
    expect(hint).toBeGreaterThan(section);
    expect(md.indexOf('</details>', section)).toBeGreaterThan(hint);
    // Wins and draws without an answer regression carry none.
    expect(
      compared.per_query.filter((o) => o.kind === 'draw' && !o.answer_regression).every((o) => !o.candidate_row),
    ).toBe(true);
  });
});

describe('aggregate --per-query: bad input', () => {
  it('refuses --write, an unknown format, and a golden set that knows none of the results (exit 2, one line)', async () => {
    const { db, golden } = await chunkedRun();
    for (const [args, message] of [
      [['--write'], /--per-query writes nothing: leave out --write/],
      [['--format', 'xml'], /--format must be text, markdown, csv or json with --per-query, got "xml"/],
      [['--run', 'nope'], /no run `nope` in `eval_runs` \(runs: r1\)/],
    ] as const) {
      const res = await runCli(['aggregate', db, '--golden', golden, '--per-query', ...args]);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(STACK_LINE);
    }
    const other = writeGolden('- id: zz\n  query: "other"\n  expected_chunk_ids: [c1]\n');
    const res = await runCli(['aggregate', db, '--golden', other, '--per-query']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/none of its 3 result\(s\) has a query_id in the golden set/);
  });
});
