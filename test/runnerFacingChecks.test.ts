/**
 * Issue 34's runner-facing checks: the published schemas (every fixture fits them, their did-you-mean), `evalverdict
 * validate` naming each runner mistake, compare and aggregate warning and stopping where a metric would silently
 * read 0, ops-only golden sets, and the two writers (JavaScript and Python) read back by `evalverdict aggregate`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseGateConfig, THRESHOLD_KEYS, WHERE_KEYS } from '../src/gate/config.js';
import { parseGoldenJsonl } from '../src/load/golden.js';
import { loadSqlJs } from '../src/load/sqlite.js';
import { RunWriter } from '../src/index.js';
import { checkAgainstSchema, didYouMean, keysOf, SCHEMAS } from '../src/validate/schema.js';
import type { Schema } from '../src/validate/schema.js';
import { hit, RawResult, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json } from './helpers/runDb.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

/** Every result_json of a run database file, parsed. */
async function resultsOf(file: string): Promise<unknown[]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return (db.exec('SELECT result_json FROM eval_query_results')[0]?.values ?? []).map((r) =>
      JSON.parse(String(r[0])),
    );
  } finally {
    db.close();
  }
}

const GOLDEN = [
  '- id: q1',
  '  query: one',
  '  expected_chunk_ids: [c1]',
  '- id: q2',
  '  query: two',
  '  expected_chunk_ids: [c2]',
  '',
].join('\n');

/** A clean two-query run, then `change` applied to its results. */
function run(change: (results: Json[]) => Array<Json | RawResult> = (r) => r) {
  return {
    runs: [
      {
        runId: 'r1',
        results: change([
          result('q1', [hit(1, 'c1', 'd1'), hit(2, 'c9', 'd9')], { elapsed_ms: 10 }),
          result('q2', [hit(1, 'c2', 'd2')], { elapsed_ms: 20 }),
        ]),
      },
    ],
  };
}

describe('the published schemas', () => {
  it('every result of every fixture run database fits result.schema.json', async () => {
    const files = ['fixtures', 'fixtures/core-spec'].flatMap((dir) =>
      readdirSync(join(repoRoot, dir))
        .filter((f) => f.endsWith('.sqlite'))
        .map((f) => join(repoRoot, dir, f)),
    );
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const results = await resultsOf(file);
      expect(results.length, file).toBeGreaterThan(0);
      for (const r of results) expect(checkAgainstSchema(r, 'result.schema.json'), file).toEqual([]);
    }
  });

  it('every fixture golden set fits golden-set.schema.json, and the gate configs in docs/gates.md fit theirs', () => {
    for (const file of ['fixtures/golden.yaml', 'fixtures/core-spec/golden.yaml']) {
      const doc = parseYaml(readFileSync(join(repoRoot, file), 'utf8'));
      expect(checkAgainstSchema(doc, 'golden-set.schema.json'), file).toEqual([]);
    }
    const gates = readFileSync(join(repoRoot, 'docs/gates.md'), 'utf8');
    const blocks = [...gates.matchAll(/```ya?ml\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .filter((b) => /gates:|preset/.test(b));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      parseGateConfig(block, 'docs/gates.md'); // EvalVerdict reads it...
      expect(checkAgainstSchema(parseYaml(block), 'gate-config.schema.json'), block).toEqual([]); // ...and so does the schema
    }
  });

  it('names a misspelt key with the key meant, from the schema', () => {
    const cases: Array<[unknown, string, string]> = [
      [{ hits: [] }, 'hits', 'hits_top_k'],
      [{ hits_top_k: [{ rank: 1, chunkid: 'c' }] }, 'hits_top_k[0].chunkid', 'chunk_id'],
      [{ hits_top_k: [{ rank: 1, document_id: 'd' }] }, 'hits_top_k[0].document_id', 'doc_id'],
      [{ latency_ms: 3 }, 'latency_ms', 'elapsed_ms'],
      [{ answer: { answr: 'x' } }, 'answer.answr', 'answer'],
      [{ answer: { answer: 'x', citations: [{ citaton: {} }] } }, 'answer.citations[0].citaton', 'citation'],
      [{ answer: { answer: 'x', usage: { prompt_token: 3 } } }, 'answer.usage.prompt_token', 'prompt_tokens'],
    ];
    for (const [value, path, meant] of cases) {
      const [error, ...rest] = checkAgainstSchema(value, 'result.schema.json');
      expect(rest).toEqual([]);
      expect(error).toMatchObject({ path, problem: 'unknown-key', suggestion: `; did you mean \`${meant}\`?` });
    }
    expect(didYouMean('zzzzzz', { a: {}, b: {} })).toBe('');
  });

  it('checks types, bounds and required keys, picking the branch of a union the value was meant for', () => {
    const errors = checkAgainstSchema(
      { hits_top_k: [{ rank: 0, chunk_id: 'c' }, { chunk_id: 'd' }], status: 'done', answer: { grounded: 'yes' } },
      'result.schema.json',
    ).map((e) => `${e.path}: ${e.detail}`);
    expect(errors).toEqual([
      'hits_top_k[0].rank: must be >= 1, got 0',
      'hits_top_k[1].rank: `rank` is missing',
      'status: must be one of "ok", "error", "timeout", null, got "done"',
      'answer.grounded: must be a boolean or null, got "yes"',
    ]);
  });

  /** A valid value for each gate key and top-level key of the gate config (others: '1' and 'retrieval'). */
  const GATE_KEY_VALUES: Record<string, string> = {
    where: '{category: a}',
    level: 'warn',
    on_no_data: 'pass',
    on_inconclusive: 'warn',
    significant_only: 'true',
    per_slice: 'false',
    metric: 'hit@5',
    margin: '0.05',
    // A trade is for a tested gate: the line after it gives the gate its margin.
    trade: '{margin: 0.2, metric: latency_ms, min_gain: 0.25}\n    margin: 0.1',
  };
  const TOP_KEY_VALUES: Record<string, string> = {
    alpha: '0.1',
    slices: '[category, tag]\ngates:\n  - metric: hit@5\n    margin: 0.1\n    per_slice: true',
    min_queries: '30\nslices: category\ngates:\n  - metric: hit@5\n    margin: 0.1\n    per_slice: true',
    noise:
      '{measured: "2026-11-28T00:00:00Z", runs: 3, metrics: {hit@5: {sd_diff: 0.3, sd_mean: 0.01, changed: 0.1, detects: null}}}',
    min_n: '3',
    gates: '[]',
    margin: '0.05',
    on_inconclusive: 'warn',
    correction: 'holm',
    primary: 'hit@5\ngates: [{metric: hit@5, min: 0.5}]',
    k: '[5, 10]',
    mrr_cutoff: '10',
    repeats: '{may_differ: [seed, started_at]}',
  };

  it('the golden reader and the gate config accept exactly the keys their schemas list', () => {
    const query = SCHEMAS['golden-query.schema.json'].$defs!.query.properties!;
    for (const key of Object.keys(query).filter((k) => k !== 'id' && k !== 'query')) {
      const line = JSON.stringify({ id: 'q1', query: 'x', expected_doc_ids: ['d'], [key]: null });
      expect(parseGoldenJsonl(`${line}\n`, 'g.jsonl').warnings, key).toEqual([]);
    }
    expect(
      parseGoldenJsonl('{"id": "q1", "query": "x", "expected_doc_ids": [], "zzz": 1}\n', 'g.jsonl').warnings,
    ).toEqual([expect.objectContaining({ kind: 'unknown_key', key: 'zzz' })]);
    const gate = SCHEMAS['gate-config.schema.json'].$defs!.gate.properties!;
    expect(THRESHOLD_KEYS.every((k) => k in gate)).toBe(true);
    expect(Object.keys((gate.where as Schema).properties!).sort()).toEqual([...WHERE_KEYS].sort());
    for (const key of Object.keys(gate)) {
      const value = GATE_KEY_VALUES[key] ?? '1';
      const text = `gates:\n  - metric: hit@5\n    min: 0.5\n${key === 'metric' || key === 'min' ? '' : `    ${key}: ${value}\n`}`;
      expect(() => parseGateConfig(text, 'c.yml'), key).not.toThrow();
    }
    for (const key of keysOf('gate-config.schema.json'))
      expect(() => parseGateConfig(`${key}: ${TOP_KEY_VALUES[key] ?? 'retrieval'}\n`, 'c.yml'), key).not.toThrow();
  });
});

describe('evalverdict validate', () => {
  it('passes a clean run (exit 0) and says how many results it checked', async () => {
    const file = await writeRunDb(run());
    const golden = writeGolden(GOLDEN);
    const out = await runCli(['validate', file, '--golden', golden]);
    expect(out).toMatchObject({ status: 0, stderr: '' });
    expect(out.stdout).toBe(`${file}: run \`r1\`: 2 results checked, no findings\n`);
  });

  it('names each runner mistake with file, run and query, and exits 1', async () => {
    const golden = writeGolden(GOLDEN);
    const mistakes: Array<[string, (r: Json[]) => Array<Json | RawResult>, string]> = [
      [
        'hits for hits_top_k',
        (r) => r.map(({ hits_top_k, ...rest }) => ({ ...rest, hits: hits_top_k })),
        'run `r1`, query `q1`: unknown key `hits` in `result_json` (ignored); did you mean `hits_top_k`? (in 2 queries; the first is shown)',
      ],
      [
        'hits without ids',
        (r) => r.map((x) => ({ ...x, hits_top_k: [{ rank: 1, score: 2 }] })),
        'run `r1`, query `q1`: a hit has no `chunk_id`, `doc_id` or `doc_path`: it can match nothing in the golden set (in 2 queries',
      ],
      [
        'a gap in the ranks',
        (r) => [{ ...r[0], hits_top_k: [hit(1, 'c1'), hit(3, 'c9')] }, r[1]],
        'run `r1`, query `q1`: the ranks are 1, 3, not 1..2',
      ],
      [
        'a repeated rank',
        (r) => [r[0], { ...r[1], hits_top_k: [hit(1, 'c2'), hit(1, 'c3')] }],
        'run `r1`, query `q2`: the ranks are 1, 1, not 1..2',
      ],
      [
        'a query missing from the golden set, and one missing from the run',
        (r) => [r[0], { ...r[1], query_id: 'q3' }],
        'run `r1`: 1 query is not in the golden set',
      ],
      ['an empty run', () => [], 'run `r1`: the run has no rows in `eval_query_results`'],
      [
        'malformed JSON',
        (r) => [r[0], new RawResult('q2', '{"query_id": ')],
        'run `r1`, query `q2`: `result_json` is not JSON',
      ],
      [
        'a wrong query_id inside the result',
        (r) =>
          [r[0], { ...r[1], query_id: 'q9' }, r[1]]
            .slice(0, 2)
            .map((x, i) => (i === 1 ? new RawResult('q2', JSON.stringify({ ...x, query_id: 'q9' })) : x)),
        "run `r1`, query `q2`: `result_json.query_id` is `q9`, the row's `query_id` is `q2`",
      ],
    ];
    for (const [what, change, expected] of mistakes) {
      const file = await writeRunDb(run(change));
      const out = await runCli(['validate', file, '--golden', golden]);
      expect(out.status, what).toBe(1);
      expect(out.stdout, what).toContain(`${file}: ${expected}`);
    }
  });

  it("finds query_ids given twice (a table without kebab's primary key), and reports JSON with --format json", async () => {
    const file = await writeRunDb(run());
    const { editDb } = await import('./helpers/runDb.js');
    await editDb(file, (db) => {
      db.exec(
        "CREATE TABLE t (run_id TEXT NOT NULL, query_id TEXT NOT NULL, result_json TEXT NOT NULL); INSERT INTO t SELECT * FROM eval_query_results; INSERT INTO t SELECT * FROM eval_query_results WHERE query_id = 'q2'; DROP TABLE eval_query_results; ALTER TABLE t RENAME TO eval_query_results",
      );
    });
    const out = await runCli(['validate', file, '--format', 'json']);
    expect(out.status).toBe(1);
    const report = JSON.parse(out.stdout);
    expect(report).toMatchObject({ file, run: 'r1', rows: 3, golden: null });
    expect(report.findings).toEqual([
      expect.objectContaining({
        kind: 'run-format',
        check: 'duplicate-query',
        source: file,
        run: 'r1',
        query: 'q2',
        count: 1,
      }),
    ]);
  });

  it('names a result_json past 64 MiB by its size, in the words compare refuses it with', async () => {
    const golden = writeGolden(GOLDEN);
    const file = await writeRunDb(run());
    const { editDb } = await import('./helpers/runDb.js');
    await editDb(file, (db) => {
      db.exec(`UPDATE eval_query_results SET result_json = printf('%.*c', ${65 << 20}, 'x') WHERE query_id = 'q2'`);
    });
    const compare = await runCli(['compare', file, file, '--golden', golden]);
    expect(compare.status).toBe(2);
    expect(compare.stderr).toContain(
      'query `q2`: column `result_json` holds 65 MiB, more than the 64 MiB EvalVerdict reads in one value',
    );
    const out = await runCli(['validate', file, '--golden', golden]);
    expect(out.status).toBe(1);
    expect(out.stdout).toBe(
      `${file}: run \`r1\`, query \`q2\`: column \`result_json\` holds 65 MiB, more than the 64 MiB EvalVerdict reads in one value\n` +
        `${file}: run \`r1\`: 2 results checked, 1 finding\n`,
    );
    const json = JSON.parse((await runCli(['validate', file, '--format', 'json'])).stdout);
    expect(json.findings).toEqual([
      expect.objectContaining({ check: 'invalid-json', query: 'q2', field: 'result_json', count: 1 }),
    ]);
  });

  it('refuses what no command can read (exit 2), as compare does', async () => {
    const out = await runCli(['validate', join(tempDir(), 'missing.sqlite')]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('cannot read the run database (no such file)');
    expect((await runCli(['validate'])).status).toBe(2);
  });
});

describe('compare and aggregate run the same checks', () => {
  it('stop with exit 2, naming the cause, when a run has no usable hit and the golden set expects hits', async () => {
    const golden = writeGolden(GOLDEN);
    const baseline = await writeRunDb(run());
    const candidate = await writeRunDb(run((r) => r.map(({ hits_top_k, ...rest }) => ({ ...rest, hits: hits_top_k }))));
    for (const args of [
      ['compare', baseline, candidate, '--golden', golden, '--format', 'json'],
      ['aggregate', candidate, '--golden', golden, '--json'],
    ]) {
      const out = await runCli(args);
      expect(out.status, args[0]).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toBe(
        `evalverdict: ${candidate}: run \`r1\`: no result has a hit in \`hits_top_k\`, while the golden set ${golden} expects hits: every retrieval metric would be 0, which says nothing about retrieval; found there: unknown key \`hits\` in \`result_json\` (ignored); did you mean \`hits_top_k\`? (\`evalverdict validate ${candidate} --golden ${golden}\` lists every finding)\n`,
      );
    }
  });

  it('stop on hits written under another key in a run with answers too, but not on a run of answers alone', async () => {
    const golden = writeGolden(GOLDEN);
    const withAnswers = (r: Json[]): Json[] => r.map((x) => ({ ...x, answer: { answer: 'x', grounded: true } }));
    const misnamed = await writeRunDb(
      run((r) => withAnswers(r).map(({ hits_top_k, ...rest }) => ({ ...rest, hits: hits_top_k }))),
    );
    expect((await runCli(['aggregate', misnamed, '--golden', golden, '--json'])).status).toBe(2);
    // A generation-only run (WFGY's traces without chunks): its answer metrics are what it is compared on.
    const answersOnly = await writeRunDb(run((r) => withAnswers(r).map((x) => ({ ...x, hits_top_k: [] }))));
    const out = await runCli(['aggregate', answersOnly, '--golden', golden, '--json']);
    expect(out).toMatchObject({ status: 0, stderr: '' });
    expect((await runCli(['validate', answersOnly, '--golden', golden])).status).toBe(0);
  });

  it('warn of findings that change no score, and go on', async () => {
    const golden = writeGolden(GOLDEN);
    const baseline = await writeRunDb(run());
    const candidate = await writeRunDb(run((r) => r.map((x) => ({ ...x, trace_id: 't' }))));
    const compared = await runCli(['compare', baseline, candidate, '--golden', golden, '--format', 'json']);
    expect(compared.status).toBe(0);
    const warning = `warning: ${candidate}: run \`r1\`, query \`q1\`: unknown key \`trace_id\` in \`result_json\` (ignored) (in 2 queries; the first is shown)\n`;
    // Both runs are `r1` with equal scores: the same-run warning comes first, then the finding, and nothing else.
    expect(compared.stderr).toMatch(/^warning: the baseline and the candidate are the same run \(r1: /);
    expect(compared.stderr.slice(compared.stderr.indexOf('\n') + 1)).toBe(warning);
    const aggregated = await runCli(['aggregate', candidate, '--golden', golden, '--json']);
    expect(aggregated.status).toBe(0);
    expect(aggregated.stderr).toBe(warning);
    expect(JSON.parse(aggregated.stdout).metrics['hit@1']).toEqual({ value: 1, n: 2 });
  });
});

describe('an ops-only golden set (no expectation in any query)', () => {
  const OPS = '- id: q1\n  query: one\n- id: q2\n  query: two\n';

  it('aggregates: latency and error rate have values, relevance metrics are n/a, and nothing stops', async () => {
    const file = await writeRunDb(run());
    const out = await runCli(['aggregate', file, '--golden', writeGolden(OPS), '--json']);
    expect(out.status).toBe(0);
    const { metrics } = JSON.parse(out.stdout);
    expect(metrics.latency_p95_ms).toEqual({ value: 20, n: 2 });
    expect(metrics.error_rate).toEqual({ value: 0, n: 2 });
    expect(metrics['hit@5']).toEqual({ value: null, n: 0 });
  });

  it('gates latency and error rate; a gate that needs an expectation is refused, named', async () => {
    const golden = writeGolden(OPS);
    const baseline = await writeRunDb(run());
    const slower = await writeRunDb(run((r) => r.map((x) => ({ ...x, elapsed_ms: 100 }))));
    const dir = tempDir();
    const opsGates = writeGolden(
      'gates:\n  - metric: latency_p95_ms\n    max_increase_pct: 20\n  - metric: error_rate\n    max: 0.05\n',
      dir,
      'ops.yml',
    );
    const passing = await runCli([
      'compare',
      baseline,
      baseline,
      '--golden',
      golden,
      '--config',
      opsGates,
      '--format',
      'json',
    ]);
    expect(passing.status).toBe(0);
    expect(JSON.parse(passing.stdout).gates.map((g: any) => [g.metric, g.result])).toEqual([
      ['latency_p95_ms', 'pass'],
      ['error_rate', 'pass'],
    ]);
    const failing = await runCli([
      'compare',
      baseline,
      slower,
      '--golden',
      golden,
      '--config',
      opsGates,
      '--format',
      'json',
    ]);
    expect(failing.status).toBe(1);
    const mixed = writeGolden(
      'gates:\n  - metric: error_rate\n    max: 0.05\n  - metric: hit@5\n    min: 0.5\n',
      dir,
      'mixed.yml',
    );
    const refused = await runCli(['compare', baseline, baseline, '--golden', golden, '--config', mixed]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `evalverdict: ${golden}: none of its 2 queries states an expectation, and the gate config ${mixed} gates a metric that compares with it: \`hit@5\` (${mixed}:4); a query needs one of expected_doc_ids, expected_chunk_ids, judgments, gold_supports, expected_lines, must_contain, forbidden, gold_claim, recency_conflict_rule or answerable (docs/golden-sets.md, "Expectations"), or gate only metrics that need none (latency, cost, error and timeout rates)\n`,
    );
    const byDefault = await runCli(['compare', baseline, baseline, '--golden', golden]);
    expect(byDefault.status).toBe(2);
    expect(byDefault.stderr).toContain(
      'the gate config built-in default gates metrics that compare with it: `hit@5` (preset retrieval)',
    );
  });
});

describe('the writers for runners', () => {
  const expected = { 'hit@1': { value: 0.5, n: 2 }, 'hit@3': { value: 1, n: 2 }, latency_p95_ms: { value: 30, n: 2 } };
  const golden = () => writeGolden(GOLDEN);

  it('RunWriter (JavaScript) writes a run that aggregate reads with the expected metrics, and refuses mistakes', async () => {
    const file = join(tempDir(), 'run.sqlite');
    const writer = await RunWriter.create(file, {
      runId: 'js-1',
      suite: 'smoke',
      config: { embedding_model: 'x' },
      createdAt: '2026-11-22T10:00:00Z',
    });
    writer.addResult('q1', { query: 'one', hits: [{ chunk_id: 'c1', doc_id: 'd1' }], elapsed_ms: 10 });
    writer.addResult('q2', {
      query: 'two',
      hits: [{ chunk_id: 'c9' }, { chunk_id: 'c2', score: 1 }],
      answer: 'x',
      elapsed_ms: 30,
    });
    expect(() => writer.addResult('q3', { hits: [{ chunkid: 'c' }] })).toThrow(
      'query `q3`: `hits_top_k[0].chunkid`: unknown key `chunkid`; did you mean `chunk_id`?',
    );
    expect(() => writer.addResult('q3', { hits: [{ score: 1 }] })).toThrow('hit 0 has no chunk_id, doc_id or doc_path');
    expect(() => writer.addResult('q3', { hits: [{ chunk_id: 'a', rank: 2 }] })).toThrow('ranks 2 are not 1..1');
    expect(() => writer.addResult('q1', {})).toThrow('query `q1` is written twice');
    writer.close();
    const out = await runCli(['aggregate', file, '--golden', golden(), '--json']);
    expect(out).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(out.stdout).metrics).toMatchObject(expected);
    expect((await runCli(['validate', file, '--golden', golden()])).status).toBe(0);
    // a second run joins the first
    const second = await RunWriter.create(file, { runId: 'js-2', suite: 'smoke' });
    second.addResult('q1', { hits: [{ chunk_id: 'c1' }] });
    second.close();
    expect((await runCli(['aggregate', file, '--golden', golden(), '--run', 'js-1', '--json'])).status).toBe(0);
    await expect(RunWriter.create(file, { runId: 'js-1', suite: 'smoke' })).rejects.toThrow(
      'already holds a run `js-1`',
    );
  });

  it('evalverdict_writer (Python) writes a run that aggregate reads with the expected metrics', async () => {
    const file = join(tempDir(), 'run.sqlite');
    const script = [
      'import sys',
      `sys.path.insert(0, ${JSON.stringify(join(repoRoot, 'clients/python'))})`,
      'from evalverdict_writer import RunWriter',
      `with RunWriter(${JSON.stringify(file)}, "py-1", "smoke", config={"embedding_model": "x"}, created_at="2026-11-22T10:00:00Z") as run:`,
      '    run.add_result("q1", query="one", hits=[{"chunk_id": "c1", "doc_id": "d1"}], elapsed_ms=10)',
      '    run.add_result("q2", query="two", hits=[{"chunk_id": "c9"}, {"chunk_id": "c2", "score": 1}], answer="x", elapsed_ms=30)',
    ].join('\n');
    const python = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
    expect(python.stderr).toBe('');
    expect(python.status).toBe(0);
    const out = await runCli(['aggregate', file, '--golden', golden(), '--json']);
    expect(out).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(out.stdout).metrics).toMatchObject(expected);
    expect((await runCli(['validate', file, '--golden', golden()])).status).toBe(0);
  });
});
