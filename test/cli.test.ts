/**
 * The CLI end to end (child processes from the repo root): run selection, --write, determinism, init,
 * import trec, a database in kebab's own schema, and warnings. Expected values are worked out by hand.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../src/aggregate/score.js';
import { main } from '../src/cli/main.js';
import { InputError } from '../src/errors.js';
import { parseGoldenYaml, readGoldenFile } from '../src/load/golden.js';
import { readRunDatabase } from '../src/load/runDatabase.js';
import { loadSqlJs } from '../src/load/sqlite.js';
import { stableJson } from '../src/stableJson.js';
import {
  answer,
  hit,
  queryDb,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';
import { CLI_BUNDLE, ensureBuilt } from './helpers/actionRunner.js';

afterAll(removeTempDirs);

type Metrics = Record<string, { value: number | null; n: number }>;
interface Report {
  run: {
    run_id: string;
    created_at: string;
    chunker_version: string | null;
    chunker_versions: string[];
    embedding_model: string | null;
    commit_hash: string | null;
  };
  metrics: Metrics;
  golden: { queries: number; pending: number };
  unknown_query_ids: string[];
  options: Record<string, unknown>;
}

function ok(res: { status: number | null; stderr: string }): void {
  expect(res.stderr).not.toMatch(STACK_LINE);
  expect(res.status).toBe(0);
}

describe.concurrent('run selection', () => {
  const golden = '- id: q1\n  query: one\n  expected_chunk_ids: [rel]\n';
  // The relevant chunk sits at rank 1 in run a, 2 in run b, 3 in run c: MRR tells which run was read.
  const runOf = (runId: string, createdAt: string, relRank: number) => ({
    runId,
    createdAt,
    results: [
      result(
        'q1',
        [1, 2, 3].map((r) => hit(r, r === relRank ? 'rel' : `other${r}`, 'd')),
      ),
    ],
  });
  const dbInput = {
    runs: [
      // 10:00+05:00 = 05:00Z: the largest string, but not the newest instant
      runOf('a', '2024-03-01T10:00:00+05:00', 1),
      // 06:00Z: the newest instant
      runOf('b', '2024-03-01T06:00:00Z', 2),
      runOf('c', '2024-02-01T00:00:00Z', 3),
    ],
  };

  it('defaults to the newest created_at (as an instant, not as a string)', async () => {
    const db = await writeRunDb(dbInput);
    const res = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--json']);
    ok(res);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.run.run_id).toBe('b');
    // run b: relevant at rank 2 -> 1/2
    expect(report.metrics['mrr@10'].value).toBe(0.5);
  });

  it('--run picks a run', async () => {
    const db = await writeRunDb(dbInput);
    const a = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--json', '--run', 'a']);
    ok(a);
    const ra = JSON.parse(a.stdout) as Report;
    expect(ra.run.run_id).toBe('a');
    expect(ra.metrics['mrr@10'].value).toBe(1); // rank 1 -> 1/1
    // the loader, in process: run c has the relevant chunk at rank 3 -> 1/3
    const c = await readRunDatabase(db, 'c');
    expect(c.run.runId).toBe('c');
    expect(computeAggregate(c, parseGoldenYaml(golden, 'g.yaml')).metrics['mrr@10'].value).toBeCloseTo(1 / 3, 12);
  });

  it('--run "" (an unset variable) names no run: an error, not the newest run', async () => {
    const db = await writeRunDb(dbInput);
    const res = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--json', '--run', '']);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain(`${db}: no run \`\` in \`eval_runs\``);
  });

  it('a misspelt --run is named with the closest run id', async () => {
    const db = await writeRunDb({
      runs: [runOf('hybrid', '2024-03-01T10:00:00Z', 1), runOf('fts_only', '2024-03-01T09:00:00Z', 2)],
    });
    const res = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--run', 'hybird']);
    expect(res.status).toBe(2);
    expect(res.stderr).toBe(
      `evalverdict: ${db}: no run \`hybird\` in \`eval_runs\`; did you mean \`hybrid\`? (runs: hybrid, fts_only)\n`,
    );
  });

  it('breaks a created_at tie by the larger run_id', async () => {
    // the same instant written in two zones, inserted in both orders: y wins either way
    const y = runOf('y', '2024-01-01T12:00:00Z', 1);
    const x = runOf('x', '2024-01-01T13:00:00+01:00', 2);
    expect((await readRunDatabase(await writeRunDb({ runs: [y, x] }))).run.runId).toBe('y');
    expect((await readRunDatabase(await writeRunDb({ runs: [x, y] }))).run.runId).toBe('y');
  });

  it('prints a readable table without --json', async () => {
    const db = await writeRunDb(dbInput);
    let stdout = '';
    const code = await main(['aggregate', db, '--golden', writeGolden(golden)], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: () => {},
    });
    expect(code).toBe(0);
    expect(stdout).toContain('run b (suite test, created 2024-03-01T06:00:00Z)');
    expect(stdout).toMatch(/^\s+mrr@10\s+0\.5\d*\s+1$/m);
  });
});

describe('aggregate --write', () => {
  const golden = `- id: q1
  query: one
  expected_doc_ids: [d1, d2]
  must_contain: [alpha]
- id: q2
  query: two
  expected_doc_ids: [d2]
  forbidden: [beta]
- id: q3
  query: should refuse
  expected_doc_ids: []
- id: q4
  query: failed
  expected_doc_ids: [d9]
`;
  const r2 = [
    // relevant (d1) at rank 1; recall_doc = {d1} of {d1, d2} = 1/2 at every k
    result('q1', [hit(1, 'c1', 'd1'), hit(2, 'c3', 'd3')], {
      answer: answer('alpha is the answer [1]', [
        { marker: '[1]', chunk_id: 'c1', citation: { kind: 'line', path: 'a.md', start: 1, end: 2 } },
      ]),
    }),
    // relevant (d2) at rank 3
    result('q2', [hit(1, 'c4', 'd4'), hit(2, 'c5', 'd5'), hit(3, 'c2', 'd2')], {
      answer: answer('beta says so', [{ chunk_id: 'c99', citation: {} }]),
    }),
    result('q3', [], { abstained: true }),
    result('q4', [], { status: 'error', error: 'model timed out' }),
  ];

  it("stores kebab's keys for the chosen run and leaves the other rows untouched", async () => {
    const db = await writeRunDb({
      runs: [
        {
          runId: 'r1',
          createdAt: '2024-01-01T00:00:00Z',
          aggregateJson: '{"old": true}',
          commitHash: 'aaa',
          results: [result('q1', [hit(1, 'c1', 'd1')])],
        },
        {
          runId: 'r2',
          createdAt: '2024-01-02T00:00:00Z',
          aggregateJson: '{}',
          commitHash: 'bbb',
          config: { chunker_version: 'v2' },
          results: r2,
        },
      ],
    });
    const before = {
      r1: await queryDb(db, "SELECT * FROM eval_runs WHERE run_id = 'r1'"),
      r2: await queryDb(
        db,
        "SELECT run_id, suite, config_snapshot_json, commit_hash, created_at FROM eval_runs WHERE run_id = 'r2'",
      ),
      results: await queryDb(db, 'SELECT * FROM eval_query_results ORDER BY run_id, query_id'),
    };
    const res = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--write', '--json']);
    ok(res);
    expect(res.stderr).toContain(`wrote aggregate_json of run r2 into ${db}`);

    expect(await queryDb(db, "SELECT * FROM eval_runs WHERE run_id = 'r1'")).toEqual(before.r1);
    expect(
      await queryDb(
        db,
        "SELECT run_id, suite, config_snapshot_json, commit_hash, created_at FROM eval_runs WHERE run_id = 'r2'",
      ),
    ).toEqual(before.r2);
    expect(await queryDb(db, 'SELECT * FROM eval_query_results ORDER BY run_id, query_id')).toEqual(before.results);

    const stored = JSON.parse(
      String((await queryDb(db, "SELECT aggregate_json FROM eval_runs WHERE run_id = 'r2'"))[0][0]),
    ) as Record<string, unknown>;
    // Retrieval means are over q1, q2, q4 (q3 has no expected docs):
    //   hit@1 = (1 + 0 + 0) / 3 = 0.3333; hit@3 = hit@5 = hit@10 = (1 + 1 + 0) / 3 = 0.6667
    expect(stored.hit_at_k).toEqual({ 1: 0.3333, 3: 0.6667, 5: 0.6667, 10: 0.6667 });
    //   mrr = (1/1 + 1/3 + 0) / 3 = 4/9 = 0.4444
    expect(stored.mrr).toBe(0.4444);
    //   recall_doc@1 = (1/2 + 0 + 0) / 3 = 0.1667; @3, @5, @10 = (1/2 + 1 + 0) / 3 = 0.5
    expect(stored.recall_at_k_doc).toEqual({ 1: 0.1667, 3: 0.5, 5: 0.5, 10: 0.5 });
    //   P@1 = (1 + 0 + 0) / 3 = 0.3333; P@3 = (1/3 + 1/3 + 0) / 3 = 2/9 = 0.2222;
    //   P@5 = (1/5 + 1/5 + 0) / 3 = 0.1333; P@10 = (1/10 + 1/10 + 0) / 3 = 0.0667
    expect(stored.precision_at_k_chunk).toEqual({ 1: 0.3333, 3: 0.2222, 5: 0.1333, 10: 0.0667 });
    // q1 cites c1 (a hit of q1: resolves), q2 cites c99 (nowhere): (1 + 0) / 2 = 0.5
    expect(stored.citation_coverage).toBe(0.5);
    // q1 contains "alpha" -> 1; q2 contains the forbidden "beta" -> 0: 0.5
    expect(stored.groundedness).toBe(0.5);
    // q3 and q4 have no hits: 2 / 4 = 0.5
    expect(stored.empty_result_rate).toBe(0.5);
    // q3 should refuse and did: 1 / 1
    expect(stored.refusal_correctness).toBe(1);
    expect(stored.total_queries).toBe(4);
    // kebab's plain-f32 keys are 0 where a metric is undefined, as kebab writes them; ours stay null
    const retrievalOnly = await writeRunDb({ runs: [{ runId: 'r', results: [result('q1', [hit(1, 'c1', 'd1')])] }] });
    ok(
      await runCli([
        'aggregate',
        retrievalOnly,
        '--golden',
        writeGolden('- id: q1\n  query: q\n  expected_chunk_ids: [c1]\n'),
        '--write',
      ]),
    );
    const bare = JSON.parse(
      String((await queryDb(retrievalOnly, 'SELECT aggregate_json FROM eval_runs'))[0][0]),
    ) as Record<string, unknown> & { evalverdict: { metrics: Record<string, { value: number | null }> } };
    expect([bare.groundedness, bare.recall_at_k_doc, bare.mrr]).toEqual([0, { 1: 0, 3: 0, 5: 0, 10: 0 }, 1]);
    expect([bare.citation_coverage, bare.refusal_correctness]).toEqual([null, null]);
    expect([bare.evalverdict.metrics.groundedness.value, bare.evalverdict.metrics['recall_doc@1'].value]).toEqual([
      null,
      null,
    ]);
    expect(stored.failed_queries).toBe(1); // q4: status error
    // our full report rides along, for the run that was written
    expect((stored.evalverdict as Report).run.run_id).toBe('r2');
    expect((stored.evalverdict as Report).metrics).toEqual((JSON.parse(res.stdout) as Report).metrics);
  });

  it('--write replaces the file a symbolic link points at, keeps its permissions, and keeps a WAL-mode database in WAL mode', async () => {
    const dir = tempDir();
    const real = await writeRunDb(
      { runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results: r2 }] },
      join(dir, 'real.sqlite'),
    );
    // WAL mode is the header's read and write versions (bytes 18 and 19) at 2; no log beside it
    const bytes = readFileSync(real);
    bytes[18] = bytes[19] = 2;
    writeFileSync(real, bytes);
    chmodSync(real, 0o600);
    const link = join(dir, 'link.sqlite');
    symlinkSync(real, link);
    const res = await runCli(['aggregate', link, '--golden', writeGolden(golden), '--write']);
    ok(res);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(real).mode & 0o777).toBe(0o600);
    const after = readFileSync(real);
    expect([after[18], after[19]]).toEqual([2, 2]);
    expect(
      JSON.parse(String((await queryDb(real, "SELECT aggregate_json FROM eval_runs WHERE run_id = 'r1'"))[0][0])),
    ).toHaveProperty('hit_at_k');
    expect(readdirSync(dir).sort()).toEqual(['link.sqlite', 'real.sqlite']); // no temporary file left
  });

  it.skipIf(process.getuid?.() !== 0)(
    "--write by root keeps the owner of a user's database (only root can give a file away)",
    async () => {
      const db = await writeRunDb({ runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results: r2 }] });
      chownSync(db, 4321, 4321);
      ok(await runCli(['aggregate', db, '--golden', writeGolden(golden), '--write']));
      expect([statSync(db).uid, statSync(db).gid]).toEqual([4321, 4321]);
    },
  );

  it('--write --run writes the named run only', async () => {
    const db = await writeRunDb({
      runs: [
        {
          runId: 'r1',
          createdAt: '2024-01-01T00:00:00Z',
          aggregateJson: '{"old": 1}',
          results: [result('q1', [hit(1, 'c1', 'd1')])],
        },
        { runId: 'r2', createdAt: '2024-01-02T00:00:00Z', aggregateJson: '{"old": 2}', results: r2 },
      ],
    });
    const res = await runCli(['aggregate', db, '--golden', writeGolden(golden), '--write', '--run', 'r1']);
    ok(res);
    const rows = await queryDb(db, 'SELECT run_id, aggregate_json FROM eval_runs ORDER BY run_id');
    expect(rows[1]).toEqual(['r2', '{"old": 2}']);
    const r1 = JSON.parse(String(rows[0][1])) as Record<string, unknown>;
    // run r1: q1 has d1 at rank 1 -> hit 1; q2, q4 missing -> misses: hit@1 = 1/3; total 4, failed = 3 missing
    expect((r1.hit_at_k as Record<string, number>)['1']).toBe(0.3333);
    expect(r1.total_queries).toBe(4);
    expect(r1.failed_queries).toBe(3);
  });
});

describe('determinism', () => {
  it('aggregate --json twice gives byte-identical output', async () => {
    const golden = writeGolden(`- id: b
  query: two
  expected_chunk_ids: [c2, c1]
  tags: [z, a]
  category: cat
- id: a
  query: one
  judgments: {x: 2, y: 1}
  tags: [a]
  difficulty: hard
`);
    const db = await writeRunDb({
      runs: [
        {
          runId: 'r',
          results: [
            result('a', [hit(2, 'y', 'd'), hit(1, 'x', 'd')], {
              elapsed_ms: 12.5,
              timings_ms: { rerank: 3, embed: 1 },
            }),
            result('b', [hit(1, 'c1', 'd'), hit(3, 'c2', 'd')], { elapsed_ms: 7, cost_usd: 0.001 }),
            result('zz', [hit(1, 'c1', 'd')]),
          ],
        },
      ],
    });
    const [one, two] = [
      await runCli(['aggregate', db, '--golden', golden, '--json']),
      await runCli(['aggregate', db, '--golden', golden, '--json']),
    ];
    ok(one);
    ok(two);
    expect(one.stdout.length).toBeGreaterThan(1000);
    expect(two.stdout).toBe(one.stdout);
    // and the same bytes as stableJson of the in-process report
    const inProcess = stableJson(computeAggregate(await readRunDatabase(db), readGoldenFile(golden)));
    expect(one.stdout).toBe(inProcess);
  });

  it('aggregate --json sorts numeric-looking breakdown names as text, with the others', async () => {
    const golden = writeGolden(
      ['10', '9', 'b']
        .map(
          (tag, i) =>
            `- id: q${i}\n  query: q\n  expected_chunk_ids: [c]\n  tags: ["${tag}"]\n  category: "${['2024', '999', 'x'][i]}"\n`,
        )
        .join(''),
    );
    const db = await writeRunDb({ runs: [{ runId: 'r', results: [result('q0', [hit(1, 'c', 'd')])] }] });
    const res = await runCli(['aggregate', db, '--golden', golden, '--json']);
    ok(res);
    // The names as they come in the text, at the breakdowns' depth (a JavaScript object would list 9 before 10).
    const namesAt = (kind: string) => {
      const block = res.stdout.slice(res.stdout.indexOf(`\n    "${kind}": {`));
      return [...block.matchAll(/^ {6}"([^"]+)": \{$/gm)].map((m) => m[1]).slice(0, 3);
    };
    expect(namesAt('tag')).toEqual(['10', '9', 'b']);
    expect(namesAt('category')).toEqual(['2024', '999', 'x']);
  });
});

describe('--version', () => {
  it("says package.json's version (one place to bump)", async () => {
    let stdout = '';
    const io = { stdout: (t: string) => void (stdout += t), stderr: () => {} };
    expect(await main(['--version'], io)).toBe(0);
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    expect(stdout).toBe(`evalverdict ${version}\n`);
  });
});

describe('aggregate --help', () => {
  it('lists every metric of the metric table with its direction and definition, as docs/metrics.md does', async () => {
    let stdout = '';
    expect(
      await main(['aggregate', '--help'], {
        stdout: (t) => {
          stdout += t;
        },
        stderr: () => {},
      }),
    ).toBe(0);
    expect(stdout).toMatch(/^usage: evalverdict aggregate RUN\.sqlite --golden golden\.yaml/);
    const defs = buildMetricTable(DEFAULT_OPTIONS, ['<stage>']);
    expect(defs.length).toBeGreaterThan(40);
    const listed = stdout.split('\n').filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  ['));
    expect(listed.map((l) => l.trim().split(/\s+/)[0])).toEqual(defs.map((d) => d.id));
    for (const [i, d] of defs.entries())
      expect(listed[i].trim().split(/\s+/).slice(1).join(' ')).toBe(
        `${d.direction} ${d.definition}`.split(/\s+/).join(' '),
      );
  });
});

describe('init', () => {
  it('creates a database that aggregate reads (and reports that it has no runs)', async () => {
    const file = join(tempDir(), 'new.sqlite');
    const created = await spawnCli(['init', file]); // the bin as a child process
    ok(created);
    expect(created.stdout).toBe(`created ${file}\n`);
    expect(existsSync(file)).toBe(true);
    const tables = (await queryDb(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).map(
      (r) => r[0],
    );
    expect(tables).toEqual(['chunks', 'documents', 'eval_query_results', 'eval_runs']);

    const agg = await runCli([
      'aggregate',
      file,
      '--golden',
      writeGolden('- id: q1\n  query: one\n  answerable: true\n'),
    ]);
    expect(agg.stderr).not.toMatch(STACK_LINE);
    expect(agg.stderr).toBe(`evalverdict: ${file}: table \`eval_runs\` has no runs\n`);
    expect(agg.status).toBe(2);
    // init never overwrites (in process: the CLI maps this InputError to exit 2 like the one above)
    await expect(main(['init', file], { stdout: () => {}, stderr: () => {} })).rejects.toThrow(
      `${file}: already exists`,
    );
  });
});

describe('import trec', () => {
  // q1: d3 (0.9) first; d1 and d2 tie at 0.8 and trec_eval breaks ties by docno descending: d2 before d1
  // (the file's own rank column, which says d1 = 2, d2 = 3, is ignored). So ranks: d3 = 1, d2 = 2, d1 = 3.
  // q4 is not in the qrels (ignored); q3 is in the qrels but not in the run; q5 and q6 have only grade-0 judgments.
  const qrels = ['q1 0 d1 1', 'q1 0 d2 2', 'q1 0 d3 0', 'q2 0 d4 1', 'q3 0 d5 1', 'q5 0 d7 0', 'q6 0 d8 0', ''].join(
    '\n',
  );
  const runText = [
    'q1 Q0 d3 1 0.9 tagX',
    'q1 Q0 d1 2 0.8 tagX',
    'q1 Q0 d2 3 0.8 tagX',
    'q2 Q0 d9 1 0.5 tagX',
    'q2 Q0 d4 2 0.4 tagX',
    'q4 Q0 d1 1 1.0 tagX',
    'q5 Q0 d7 1 0.7 tagX',
    'q6 Q0 d8 1 0.3 tagX',
    '',
  ].join('\n');

  it('round-trips into a run database and a golden file scored like trec_eval', async () => {
    const dir = tempDir();
    const [qrelsFile, runFile, out, goldenOut] = ['qrels.txt', 'run.txt', 'trec.sqlite', 'golden.yaml'].map((f) =>
      join(dir, f),
    );
    writeFileSync(qrelsFile, qrels);
    writeFileSync(runFile, runText);
    const imported = await runCli([
      'import',
      'trec',
      '--qrels',
      qrelsFile,
      '--run',
      runFile,
      '--out',
      out,
      '--golden-out',
      goldenOut,
      '--created-at',
      '2024-05-01T00:00:00Z',
    ]);
    ok(imported);
    // a --created-at Date.parse would take but no RFC 3339 time: refused before anything is written
    const badTime = await runCli([
      'import',
      'trec',
      '--qrels',
      qrelsFile,
      '--run',
      runFile,
      '--out',
      join(dir, 'other.sqlite'),
      '--created-at',
      '1',
    ]);
    expect(badTime.status).toBe(2);
    expect(badTime.stderr).toContain('--created-at: "1" is not an RFC 3339 time');
    expect(existsSync(join(dir, 'other.sqlite'))).toBe(false);
    // 5 run queries (q1, q2, q4, q5, q6) with 3 + 2 + 1 + 1 + 1 = 8 hits
    expect(imported.stdout).toBe(`imported 5 queries (8 hits) into ${out} as run tagX\n`);

    const res = await runCli(['aggregate', out, '--golden', goldenOut, '--json', '--mean-over', 'trec']);
    ok(res);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.run).toMatchObject({ run_id: 'tagX', created_at: '2024-05-01T00:00:00Z' });
    expect(report.golden).toMatchObject({ queries: 5, pending: 0 });
    expect(report.unknown_query_ids).toEqual(['q4']);
    const m = report.metrics;
    // --mean-over trec: queries in both run and qrels = q1, q2, q5, q6 (n = 4); q5, q6 add 0.
    // q1: relevant (grade >= 1) d2 at rank 2, d1 at rank 3. q2: d4 at rank 2.
    expect(m['hit@1']).toEqual({ value: 0, n: 4 });
    expect(m['hit@3']).toEqual({ value: 0.5, n: 4 }); // (1 + 1 + 0 + 0) / 4
    expect(m['mrr@10']).toEqual({ value: 0.25, n: 4 }); // (1/2 + 1/2) / 4
    expect(m['P@3']).toEqual({ value: 0.25, n: 4 }); // (2/3 + 1/3) / 4
    expect(m['P@5']).toEqual({ value: 0.15, n: 4 }); // (2/5 + 1/5) / 4
    expect(m['recall@1']).toEqual({ value: 0, n: 4 });
    expect(m['recall@3']).toEqual({ value: 0.5, n: 4 }); // (2/2 + 1/1) / 4
    // MAP: q1 = (1/2 + 2/3) / 2 = 0.58333; q2 = (1/2) / 1 = 0.5; (0.58333 + 0.5) / 4 = 0.27083
    expect(m.MAP).toEqual({ value: 0.2708, n: 4 });
    // nDCG@3: q1 DCG = 2/log2(3) + 1/log2(4) = 1.26186 + 0.5 = 1.76186, IDCG = 2/1 + 1/log2(3) = 2.63093 -> 0.66967;
    //         q2 DCG = 1/log2(3) = 0.63093, IDCG = 1 -> 0.63093; (0.66967 + 0.63093) / 4 = 0.32515
    expect(m['nDCG@3']).toEqual({ value: 0.3252, n: 4 });
    expect(m.missing_queries.value).toBe(1); // q3

    // The other two means, in process on the same imported files:
    const run = await readRunDatabase(out);
    const golden = readGoldenFile(goldenOut);
    const def = computeAggregate(run, golden).metrics;
    // default: queries with a relevant expectation = q1, q2, q3 (missing: a miss): hit@3 = 2/3, mrr = (1/2 + 1/2 + 0) / 3 = 1/3
    expect(def['hit@3']).toEqual({ value: 2 / 3, n: 3 });
    expect(def['mrr@10'].value).toBeCloseTo(1 / 3, 12);
    // trec_c: every golden query q1, q2, q3, q5, q6: hit@3 = 2/5, mrr = 1/5
    const c = computeAggregate(run, golden, { meanOver: 'trec_c' }).metrics;
    expect(c['hit@3']).toEqual({ value: 0.4, n: 5 });
    expect(c['mrr@10']).toEqual({ value: 0.2, n: 5 });
  });
});

describe('text from inputs cannot pass as a workflow command', () => {
  it('a golden key holding a line that starts with :: is printed on one line, its line break escaped', async () => {
    const db = await writeRunDb({ runs: [{ runId: 'r', results: [result('q1', [hit(1, 'c1')])] }] });
    const golden = writeGolden(
      `${JSON.stringify({ id: 'q1', query: 'one', answerable: true, 'x\n::error::forged': 1 })}\n`,
      tempDir(),
      'g.jsonl',
    );
    const res = await runCli(['aggregate', db, '--golden', golden, '--json']);
    ok(res);
    expect(res.stderr).toContain('unknown key `x\\n::error::forged` in 1 query (ignored)');
    expect(res.stderr).not.toMatch(/^\s*::/m);
  });
});

describe('golden sets as JSON Lines from the command line', () => {
  it('import trec --golden-out g.jsonl writes JSON Lines with a header, scored as the YAML golden-out is', async () => {
    const dir = tempDir();
    const [qrelsFile, runFile] = ['qrels.txt', 'run.txt'].map((f) => join(dir, f));
    writeFileSync(qrelsFile, 'q1 0 d1 1\nq1 0 d2 2\nq2 0 d3 1\n');
    writeFileSync(runFile, 'q1 Q0 d2 1 9 t\nq1 Q0 d9 2 8 t\nq2 Q0 d3 1 5 t\n');
    const outputs = ['yaml', 'jsonl'].map((ext) => [join(dir, `${ext}.sqlite`), join(dir, `golden.${ext}`)]);
    for (const [db, golden] of outputs)
      ok(
        await runCli([
          'import',
          'trec',
          '--qrels',
          qrelsFile,
          '--run',
          runFile,
          '--out',
          db,
          '--golden-out',
          golden,
          '--created-at',
          '2024-05-01T00:00:00Z',
        ]),
      );
    const lines = readFileSync(outputs[1][1], 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { description: `Imported from ${qrelsFile} by evalverdict import trec` },
      { id: 'q1', query: 'q1', judgments: { d1: 1, d2: 2 } },
      { id: 'q2', query: 'q2', judgments: { d3: 1 } },
    ]);
    const [fromYaml, fromJsonl] = await Promise.all(
      outputs.map(([db, golden]) => runCli(['aggregate', db, '--golden', golden, '--json'])),
    );
    const metrics = (r: { stdout: string }) => (JSON.parse(r.stdout) as Report).metrics;
    expect(metrics(fromJsonl)).toEqual(metrics(fromYaml));
    expect(metrics(fromJsonl)['mrr@10']).toEqual({ value: 1, n: 2 });
  });

  it('golden convert: YAML to JSON Lines and back, the same queries; refuses an existing OUT and a bad IN, writing nothing', async () => {
    const dir = tempDir();
    const yaml = writeGolden(
      '# a comment\n- id: q1\n  query: one\n  expected_doc_ids: [d1]\n- id: q2\n  query: two\n  tags: [x]\n',
      dir,
      'g.yaml',
    );
    const jsonl = join(dir, 'g.jsonl');
    const res = await runCli(['golden', 'convert', yaml, jsonl]);
    ok(res);
    expect(res.stdout).toBe(`converted 2 queries from ${yaml} to ${jsonl}\n`);
    expect(readFileSync(jsonl, 'utf8')).toBe(
      '{"id":"q1","query":"one","expected_doc_ids":["d1"]}\n{"id":"q2","query":"two","tags":["x"]}\n',
    );
    const back = join(dir, 'back.yml');
    ok(await runCli(['golden', 'convert', jsonl, back]));
    expect(readGoldenFile(back).queries).toStrictEqual(readGoldenFile(yaml).queries);
    const again = await runCli(['golden', 'convert', yaml, jsonl]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('golden convert replaces an existing file only with --force');
    ok(await runCli(['golden', 'convert', yaml, jsonl, '--force']));
    const bad = writeGolden('{"id": "q1", "query": "one"}\n{"id": "q1", "query": "again"}\n', dir, 'bad.jsonl');
    const refused = await runCli(['golden', 'convert', bad, join(dir, 'out.yaml')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`evalverdict: ${bad}:2: query \`q1\`: duplicate id (first defined at line 1)\n`);
    expect(existsSync(join(dir, 'out.yaml'))).toBe(false);
    expect((await runCli(['golden', 'convert', yaml])).status).toBe(2);
  });
});

describe("a database in kebab's own schema", () => {
  // kebab's tables as kebab creates them: more columns, other column order, plus tables we never read.
  const KEBAB_DDL = `
CREATE TABLE assets (asset_id TEXT PRIMARY KEY, source_uri TEXT NOT NULL, workspace_path TEXT NOT NULL, media_type TEXT NOT NULL,
  byte_len INTEGER NOT NULL, checksum TEXT NOT NULL, storage_kind TEXT NOT NULL, storage_path TEXT, discovered_at TEXT NOT NULL);
CREATE TABLE documents (doc_id TEXT PRIMARY KEY, asset_id TEXT NOT NULL REFERENCES assets(asset_id), workspace_path TEXT NOT NULL,
  title TEXT, lang TEXT, source_type TEXT NOT NULL, trust_level TEXT NOT NULL, parser_version TEXT NOT NULL, doc_version INTEGER NOT NULL,
  schema_version INTEGER NOT NULL, metadata_json TEXT NOT NULL, provenance_json TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE chunks (chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE, text TEXT NOT NULL,
  heading_path_json TEXT NOT NULL, section_label TEXT, source_spans_json TEXT NOT NULL, token_estimate INTEGER NOT NULL,
  chunker_version TEXT NOT NULL, policy_hash TEXT NOT NULL, block_ids_json TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, config_snapshot_json TEXT NOT NULL, aggregate_json TEXT NOT NULL,
  commit_hash TEXT, created_at TEXT NOT NULL);
CREATE TABLE eval_query_results (run_id TEXT NOT NULL REFERENCES eval_runs(run_id), query_id TEXT NOT NULL, result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, query_id));
`;

  async function buildKebabDb(file: string): Promise<void> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.exec(KEBAB_DDL);
    const t = '2024-06-01T00:00:00Z';
    for (const [asset, path] of [
      ['A1', 'guide/install.md'],
      ['A2', 'faq.md'],
      ['A3', 'empty.md'],
    ]) {
      db.run('INSERT INTO assets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        asset,
        `file:///w/${path}`,
        path,
        '{}',
        10,
        'cafe',
        'reference',
        null,
        t,
      ]);
    }
    for (const [doc, asset, path] of [
      ['D1', 'A1', 'guide/install.md'],
      ['D2', 'A2', 'faq.md'],
      ['D3', 'A3', 'empty.md'],
    ]) {
      db.run('INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        doc,
        asset,
        path,
        null,
        'en',
        'markdown',
        'primary',
        'p1',
        1,
        1,
        '{}',
        '{}',
        t,
        t,
      ]);
    }
    const chunk = (
      id: string,
      doc: string,
      text: string,
      heading: string[],
      start: number,
      end: number,
      tokens: number,
    ) =>
      db.run('INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        id,
        doc,
        text,
        JSON.stringify(heading),
        null,
        JSON.stringify([{ start_line: start, end_line: end }]),
        tokens,
        'v3',
        'h',
        '[]',
        t,
      ]);
    chunk('k1', 'D1', 'Install with cargo install kebab. Then run kebab init.', ['Guide', 'Install'], 1, 12, 12);
    chunk('k2', 'D1', 'Configure the data dir in kebab.toml.', ['Guide', 'Configure'], 13, 20, 8);
    chunk('k3', 'D2', 'Frequently asked questions.', ['FAQ'], 1, 5, 6);
    db.run('INSERT INTO eval_runs VALUES (?, ?, ?, ?, ?, ?)', [
      'kb-1',
      'smoke',
      JSON.stringify({ chunker_version: 'v3', embedding_model: 'bge-m3' }),
      '{"hit_at_k": {}}',
      'abc123',
      t,
    ]);
    const results = [
      result(
        'install',
        [
          hit(1, 'k2', 'D1', {
            doc_path: 'guide/install.md',
            heading_path: ['Guide', 'Configure'],
            snippet: 'the data  dir',
            score: 0.9,
            citation: { kind: 'line', path: 'guide/install.md', start: 13, end: 20 },
          }),
          hit(2, 'k1', 'D1', {
            doc_path: 'guide/install.md',
            heading_path: ['Guide', 'Install'],
            snippet: 'cargo install kebab',
            score: 0.8,
          }),
        ],
        {
          // cites lines 2-3 of guide/install.md: inside k1's span 1-12, found through documents.workspace_path
          answer: answer(
            'Run cargo install kebab [1].',
            [{ marker: '[1]', citation: { kind: 'line', path: 'guide/install.md', start: 2, end: 3 } }],
            { usage: { prompt_tokens: 100, completion_tokens: 20 } },
          ),
          elapsed_ms: 120,
        },
      ),
      result('faq', [hit(1, 'k3', 'D2', { doc_path: 'faq.md', snippet: 'not in the chunk text' })], {
        // lines 40-41 of faq.md: k3 covers 1-5 only, so the citation is broken
        answer: answer(
          'See the FAQ [1].',
          [{ marker: '[1]', citation: { kind: 'line', path: 'faq.md', start: 40, end: 41 } }],
          { usage: { prompt_tokens: 50, completion_tokens: 5 } },
        ),
        elapsed_ms: 80,
      }),
    ];
    for (const r of results)
      db.run('INSERT INTO eval_query_results VALUES (?, ?, ?)', ['kb-1', r.query_id as string, JSON.stringify(r)]);
    writeFileSync(file, db.export());
    db.close();
  }

  it('is read without any conversion', async () => {
    const file = join(tempDir(), 'kebab.sqlite');
    await buildKebabDb(file);
    const golden = writeGolden(`- id: install
  query: how do I install kebab
  expected_chunk_ids: [k1]
- id: faq
  query: where is the faq
  expected_chunk_ids: [k3]
`);
    const res = await runCli(['aggregate', file, '--golden', golden, '--json']);
    ok(res);
    expect(res.stderr).toBe('');
    const report = JSON.parse(res.stdout) as Report;
    expect(report.run).toMatchObject({
      run_id: 'kb-1',
      commit_hash: 'abc123',
      chunker_version: 'v3',
      chunker_versions: ['v3'],
      embedding_model: 'bge-m3',
    });
    const m = report.metrics;
    // install: k1 at rank 2; faq: k3 at rank 1 -> hit@1 = (0 + 1) / 2 = 0.5, mrr = (1/2 + 1) / 2 = 0.75
    expect(m['hit@1']).toEqual({ value: 0.5, n: 2 });
    expect(m['mrr@10']).toEqual({ value: 0.75, n: 2 });
    // install's citation resolves to k1 by path + span, faq's to nothing: (1 + 0) / 2
    expect(m.citation_coverage).toEqual({ value: 0.5, n: 2 });
    // the resolved citation is k1, an expected chunk: install 1, faq 0 -> 0.5
    expect(m.attribution_hit_rate).toEqual({ value: 0.5, n: 2 });
    // snippets: "the data dir" in k2 (white space folded) and "cargo install kebab" in k1 are found, faq's is not: 1/3
    expect(m.hit_hallucination_rate).toEqual({ value: 0.3333, n: 3 });
    // index: 3 chunks, 3 documents, D3 has no chunk; tokens 12, 8, 6
    expect(m.chunks.value).toBe(3);
    expect(m.documents.value).toBe(3);
    expect(m.documents_without_chunks.value).toBe(1);
    expect(m.chunk_tokens_min.value).toBe(6);
    expect(m.chunk_tokens_max.value).toBe(12);
    // operations: elapsed 120 + 80 = 200; prompt tokens 100 + 50 = 150; completion 20 + 5 = 25
    expect(m.suite_time_ms.value).toBe(200);
    expect(m.prompt_tokens_total.value).toBe(150);
    expect(m.completion_tokens_total.value).toBe(25);
  });
});

describe('warnings and options', () => {
  const golden = `- id: q1
  query: graded
  judgments: {a: 3, b: 2, c: 1}
  explanation: not a known key
`;

  it('an unknown key in many queries: one warning, at its first line, counting them', async () => {
    const db = await writeRunDb({ runs: [{ runId: 'r', results: [result('q00', [hit(1, 'a', 'D')])] }] });
    const query = (i: number) => `- id: q${String(i).padStart(2, '0')}\n  query: "q"\n  expected_doc_ids: [D]\n`;
    // `judgements` from the second query on (line 7), in 24 of the 25
    const g = writeGolden(
      Array.from({ length: 25 }, (_, i) => `${query(i)}${i > 0 ? `  judgements: {a: ${i % 3}}\n` : ''}`).join(''),
    );
    const res = await runCli(['aggregate', db, '--golden', g, '--json']);
    ok(res);
    expect(res.stderr).toBe(
      `warning: ${g}:7: unknown key \`judgements\` in 24 queries (ignored); did you mean \`judgments\`?\n`,
    );
  });

  it('many unknown-key warnings: ten printed, then one line counting the rest', async () => {
    const db = await writeRunDb({ runs: [{ runId: 'r', results: [result('q00', [hit(1, 'a', 'D')])] }] });
    // a key of its own in each of 25 queries
    const g = writeGolden(
      Array.from(
        { length: 25 },
        (_, i) => `- id: q${String(i).padStart(2, '0')}\n  query: "q"\n  answerable: true\n  source_${i}: wiki\n`,
      ).join(''),
    );
    const res = await runCli(['aggregate', db, '--golden', g, '--json']);
    ok(res);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(`warning: ${g}:4: unknown key \`source_0\` in 1 query (ignored)`);
    expect(lines[9]).toBe(`warning: ${g}:40: unknown key \`source_9\` in 1 query (ignored)`);
    expect(lines[10]).toBe('warning: ... and 15 more warnings like these');
  });

  it('--ndcg-gain exponential, and an unknown golden key warns on stderr', async () => {
    // ranking [b, x, a]
    const db = await writeRunDb({
      runs: [{ runId: 'r', results: [result('q1', [hit(1, 'b', 'D'), hit(2, 'x', 'D'), hit(3, 'a', 'D')])] }],
    });
    const g = writeGolden(golden);
    const res = await runCli(['aggregate', db, '--golden', g, '--json', '--ndcg-gain', 'exponential']);
    ok(res);
    // `explanation` is on line 4
    expect(res.stderr).toBe(`warning: ${g}:4: unknown key \`explanation\` in 1 query (ignored)\n`);
    const report = JSON.parse(res.stdout) as Report;
    expect(report.options.ndcg_gain).toBe('exponential');
    // gains 2^g - 1: a = 7, b = 3, c = 1. DCG@3 = 3/1 + 7/log2(4) = 6.5; IDCG@3 = 7 + 3/log2(3) + 1/2 = 9.39279 -> 0.69202
    expect(report.metrics['nDCG@3']).toEqual({ value: 0.692, n: 1 });
  });

  it('an unknown command, subcommand or flag: one line with the nearest known one, then usage, exit 2', async () => {
    const firstLine = async (args: string[]) => {
      const res = await runCli(args);
      expect(res.status).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).not.toMatch(STACK_LINE);
      const [line, usage] = res.stderr.split('\n');
      expect(usage).toMatch(/^usage: evalverdict /);
      return line;
    };
    expect(await firstLine(['compar', 'b.sqlite', 'c.sqlite'])).toBe(
      'evalverdict: unknown command `compar`; did you mean `compare`?',
    );
    expect(await firstLine(['agregate'])).toBe('evalverdict: unknown command `agregate`; did you mean `aggregate`?');
    expect(await firstLine(['--verison'])).toBe('evalverdict: unknown command `--verison`; did you mean `--version`?');
    expect(await firstLine(['frobnicate'])).toBe('evalverdict: unknown command `frobnicate`');
    expect(await firstLine(['compare', 'b.sqlite', 'c.sqlite', '--gold', 'g.yaml'])).toBe(
      "evalverdict: Unknown option '--gold'; did you mean `--golden`?",
    );
    expect(await firstLine(['compare', 'b.sqlite', 'c.sqlite', '--gold=g.yaml'])).toBe(
      "evalverdict: Unknown option '--gold'; did you mean `--golden`?",
    );
    expect(await firstLine(['aggregate', 'r.sqlite', '--golden', 'g.yaml', '--mrr-cutof', '3'])).toBe(
      "evalverdict: Unknown option '--mrr-cutof'; did you mean `--mrr-cutoff`?",
    );
    expect(await firstLine(['metrics', '--jsn'])).toBe("evalverdict: Unknown option '--jsn'; did you mean `--json`?");
    expect(await firstLine(['metrics', '--colour'])).toBe("evalverdict: Unknown option '--colour'");
    expect(await firstLine(['import', 'trce', '--qrels', 'q', '--run', 'r', '--out', 'o'])).toBe(
      'evalverdict: unknown `import` subcommand `trce`; did you mean `trec`?',
    );
    expect(await firstLine(['golden', 'conver', 'a.yaml', 'b.jsonl'])).toBe(
      'evalverdict: unknown `golden` subcommand `conver`; did you mean `convert`?',
    );
    // other parse errors are as node words them, with no suggestion
    expect(await firstLine(['aggregate', 'r.sqlite', '--golden'])).toBe(
      "evalverdict: Option '--golden <value>' argument missing",
    );
  });

  it('rejects bad flags in process with InputError', async () => {
    const io = { stdout: () => {}, stderr: () => {} };
    await expect(main(['aggregate', 'x.sqlite', '--golden', 'g.yaml', '--mean-over', 'median'], io)).rejects.toThrow(
      InputError,
    );
    await expect(main(['aggregate', 'x.sqlite', '--golden', 'g.yaml', '--min-grade', '1.5'], io)).rejects.toThrow(
      '--min-grade: "1.5" is not a whole number',
    );
    await expect(main(['aggregate', 'a.sqlite', 'b.sqlite', '--golden', 'g.yaml'], io)).rejects.toThrow(
      'expected one run database',
    );
    await expect(main(['import', 'csv', '--qrels', 'q', '--run', 'r', '--out', 'o'], io)).rejects.toThrow(InputError);
  });
});

describe('a reader that closes the pipe early', () => {
  it('ends the command quietly, with its own exit code and no stack trace (`evalverdict metrics | head`)', async () => {
    const { spawn } = await import('node:child_process');
    const { repoRoot } = await import('./shared.js');
    ensureBuilt();
    const child = spawn(process.execPath, [CLI_BUNDLE, 'metrics', '--json'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the CLI has started: its first write meets a closed pipe (EPIPE).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(STACK_LINE);
    expect(stderr).not.toMatch(/EPIPE/);
    expect(status).toBe(0);
  });
});
