/**
 * The bundles (dist/cli and the action's dist/index.js) score the candidate in a worker thread
 * (src/pipeline/twoThreads.ts): the same bytes as one thread and as the library. Run `npm run build` first.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stableJson } from '../src/stableJson.js';
import { runAggregate } from '../src/pipeline/runAggregate.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import type { CompareOutputs } from '../src/pipeline/runCompare.js';
import { loadSqlJs } from '../src/load/sqlite.js';
import { COMMENTS_PATH, clockless, ensureBuilt, runAction, summarise, useActionSuite } from './helpers/actionSuite.js';
import { ACTION_NODE, CLI_BUNDLE, FIXTURE_RUN_FLAGS } from './helpers/actionRunner.js';
import { answer, hit, RawResult, result, runCli, runNode, writeRunDb } from './helpers/runDb.js';

useActionSuite();

describe('the CLI bundle: the candidate scored in a worker thread', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runNode([...FIXTURE_RUN_FLAGS, CLI_BUNDLE, ...args], { EVALVERDICT_TRACE: '1', ...env }, ACTION_NODE);
  /**
   * The one-thread side of each comparison: the CLI in this process, where the pipeline runs from source and never
   * starts a worker (src/pipeline/twoThreads.ts), traced as `cli` traces: no bundle start for each.
   */
  const oneThread = async (args: string[]) => {
    vi.stubEnv('EVALVERDICT_TRACE', '1');
    try {
      return await runCli(args);
    } finally {
      vi.unstubAllEnvs();
    }
  };
  // 60 queries; the relevant chunk of query i sits at rank (i % 7) + 1 in the baseline and (i % 5) + 1 in the
  // candidate, ranks 6 and 7 being misses; answers and latencies vary so every metric family has data.
  const ids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}`);
  const golden = ids
    .map(
      (id, i) =>
        `- id: ${id}\n  query: "question ${i}"\n  expected_chunk_ids: ["${id}-rel"]\n  category: ${['a', 'b', 'c'][i % 3]}\n  must_contain: ["x"]\n`,
    )
    .join('');
  // The same queries as JSON Lines: aggregate reads only a JSON Lines golden set in two threads.
  const goldenLines = ids
    .map(
      (id, i) =>
        `${JSON.stringify({ id, query: `question ${i}`, expected_chunk_ids: [`${id}-rel`], category: ['a', 'b', 'c'][i % 3], must_contain: ['x'] })}\n`,
    )
    .join('');
  /** Extra queries x0000.. as JSON Lines, each `words` repeated to make the file large enough to cut. */
  const extraLines = (n: number, fields: (i: number) => Record<string, unknown>) =>
    Array.from(
      { length: n },
      (_, i) => `${JSON.stringify({ id: `x${String(i).padStart(4, '0')}`, ...fields(i) })}\n`,
    ).join('');
  const runResults = (mod: number, version: string) =>
    ids.map((id, i) => {
      const rank = (i % mod) + 1;
      const hits = Array.from({ length: 5 }, (_, r) =>
        hit(r + 1, r + 1 === rank ? `${id}-rel` : `${id}-f${r}`, `d${i}`, { chunker_version: version }),
      );
      return result(id, hits, {
        elapsed_ms: 100 + ((i * mod) % 37),
        answer: answer(i % 4 === 0 ? 'no x here' : 'x marks it', [{ chunk_id: `${id}-rel` }]),
      });
    });
  let dir: string;
  let files: { golden: string; baseline: string; candidate: string; candidateV2: string; broken: string };

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evalverdict-parallel-'));
    files = {
      golden: join(dir, 'golden.yaml'),
      baseline: await writeRunDb(
        { runs: [{ runId: 'base', config: { chunker_version: 'v1' }, results: runResults(7, 'v1') }] },
        join(dir, 'b.sqlite'),
      ),
      candidate: await writeRunDb(
        { runs: [{ runId: 'cand', config: { chunker_version: 'v1' }, results: runResults(5, 'v1') }] },
        join(dir, 'c.sqlite'),
      ),
      // no chunker_version declared: only its hits say v2
      candidateV2: await writeRunDb(
        { runs: [{ runId: 'cand2', results: runResults(5, 'v2') }] },
        join(dir, 'c2.sqlite'),
      ),
      broken: await writeRunDb(
        {
          runs: [
            {
              runId: 'bad',
              config: { chunker_version: 'v1' },
              results: [...runResults(5, 'v1').slice(1), new RawResult('q00', '{"hits_top_k": [')],
            },
          ],
        },
        join(dir, 'bad.sqlite'),
      ),
    };
    writeFileSync(files.golden, golden);
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function threeWays(candidate: string) {
    const args = (out: string) => [
      'compare',
      files.baseline,
      candidate,
      '--golden',
      files.golden,
      '--json',
      join(dir, out),
    ];
    const two = await cli(args('two.json'), { EVALVERDICT_WORKERS: '2' });
    const one = await oneThread(args('one.json'));
    const inProcess = await runCompare({
      baselinePath: files.baseline,
      candidatePath: candidate,
      goldenPath: files.golden,
    });
    return {
      two,
      one,
      inProcess,
      twoJson: readFileSync(join(dir, 'two.json'), 'utf8'),
      oneJson: readFileSync(join(dir, 'one.json'), 'utf8'),
    };
  }

  it("the config's k and mrr_cutoff reach the worker thread, and the preset's gates hold under them", async () => {
    const config = join(dir, 'cutoffs.yml');
    writeFileSync(config, 'preset: retrieval\nk: [2]\nmrr_cutoff: 3\n');
    const args = (out: string) => [
      'compare',
      files.baseline,
      files.candidate,
      '--golden',
      files.golden,
      '--config',
      config,
      '--json',
      join(dir, out),
    ];
    const two = await cli(args('k-two.json'), { EVALVERDICT_WORKERS: '2' });
    const one = await oneThread(args('k-one.json'));
    expect(two.stderr).toContain('evalverdict: scored in two threads');
    expect(one.stderr).toContain('evalverdict: scored in one thread');
    const json = readFileSync(join(dir, 'k-two.json'), 'utf8');
    expect(json).toBe(readFileSync(join(dir, 'k-one.json'), 'utf8'));
    const report = JSON.parse(json);
    // k 2 asked for, 5 and 10 added for the preset's gates; MRR at the one cutoff asked for.
    expect(report.options.ks).toEqual([2, 5, 10]);
    expect(report.gates.map((g: { metric: string }) => g.metric)).toEqual(['hit@5', 'mrr@3', 'nDCG@10', 'recall@10']);
    expect(report.metrics['hit@2'].candidate).not.toBeNull();
  });

  it('one chunker: two threads, and the same bytes as one thread and as the library', async () => {
    const r = await threeWays(files.candidate);
    expect(r.two.stderr).toContain('evalverdict: scored in two threads');
    expect(r.one.stderr).toContain('evalverdict: scored in one thread');
    expect(r.twoJson).toBe(r.oneJson);
    expect(r.twoJson).toBe(r.inProcess.json);
    expect(r.two.stdout).toBe(r.one.stdout);
    const report = JSON.parse(r.twoJson) as CompareOutputs['report'];
    expect(report.chunker_version_match).toBe('exact');
    expect(report.counts.win + report.counts.loss + report.counts.draw + report.counts.regression).toBe(60);
    expect(report.counts.loss).toBeGreaterThan(0);
  });

  it('by default a candidate under 64 MiB is scored in one thread: a worker would cost more than it saves', async () => {
    const small = await cli(['compare', files.baseline, files.candidate, '--golden', files.golden]);
    expect(statSync(files.candidate).size).toBeLessThan(64 << 20);
    expect(small.stderr).toContain('evalverdict: scored in one thread');
    expect(small.stderr).not.toContain('worker started');
  });

  it('versions only the hits reveal to differ: the two-thread pass gives way to the fallback in one thread', async () => {
    const r = await threeWays(files.candidateV2);
    expect(r.two.stderr).toContain('evalverdict: scored in one thread');
    expect(r.twoJson).toBe(r.inProcess.json);
    expect((JSON.parse(r.twoJson) as CompareOutputs['report']).chunker_version_match).toBe('fallback_doc');
  });

  it('aggregate in two threads (query_id halves): the same bytes as one thread and the library', async () => {
    // EVALVERDICT_WORKERS=2: two threads whatever the size (by default only runs with a golden file of 16 MB or more).
    const big = await writeRunDb(
      {
        runs: [
          {
            runId: 'big',
            results: runResults(7, 'v1').map((r) => ({
              ...r,
              hits_top_k: (r.hits_top_k as Array<Record<string, unknown>>).map((h) => ({
                ...h,
                snippet: 's'.repeat(2000),
              })),
            })),
          },
        ],
      },
      join(dir, 'big.sqlite'),
    );
    const goldenJsonl = join(dir, 'golden.jsonl');
    writeFileSync(goldenJsonl, goldenLines);
    const args = ['aggregate', big, '--golden', goldenJsonl, '--json'];
    const two = await cli(args, { EVALVERDICT_WORKERS: '2' });
    const one = await oneThread(args);
    expect((await cli(args)).stderr).toContain('evalverdict: scored in one thread'); // by default: too small to split
    expect(two.stderr).toContain('evalverdict: scored in two threads');
    expect(one.stderr).toContain('evalverdict: scored in one thread');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const library = await runAggregate({ runPath: big, goldenPath: goldenJsonl });
    expect(two.stdout).toBe(stableJson(library.report));
    // a YAML golden set: one thread
    expect(
      (await cli(['aggregate', big, '--golden', files.golden, '--json'], { EVALVERDICT_WORKERS: '2' })).stderr,
    ).toContain('evalverdict: scored in one thread');
    expect((JSON.parse(two.stdout) as { metrics: Record<string, { n: number }> }).metrics['hit@5'].n).toBe(60);
    // a small run: one thread
    const small = await cli(['aggregate', files.baseline, '--golden', files.golden, '--json']);
    expect(small.stderr).toContain('evalverdict: scored in one thread');
  });

  it('a golden file over 1 MB: compare reads it in each thread, aggregate in halves, one per thread; the same bytes as one thread and the library', async () => {
    // 1,260 golden queries (the 60 of the runs and 1,200 the runs lack, each ~900 bytes: a large file of few queries
    // parses in a quarter of the time), an unknown key in each half.
    const extra = Array.from(
      { length: 1_200 },
      (_, i) =>
        `- id: x${String(i).padStart(4, '0')}\n  query: "an extra question ${i} ${'words '.repeat(140 + (i % 30))}"\n  expected_doc_ids: ["d${i}"]\n  category: ${['a', 'b', 'c'][i % 3]}\n${i % 400 === 7 ? '  x_note: 1\n' : ''}`,
    ).join('');
    const bigGolden = join(dir, 'big-golden.yaml');
    writeFileSync(bigGolden, golden + extra);
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20);
    const args = ['compare', files.baseline, files.candidate, '--golden', bigGolden, '--json', join(dir, 'big.json')];
    const two = await cli(args, { EVALVERDICT_WORKERS: '2' });
    const twoJson = readFileSync(join(dir, 'big.json'), 'utf8');
    const one = await oneThread(args);
    const library = await runCompare({
      baselinePath: files.baseline,
      candidatePath: files.candidate,
      goldenPath: bigGolden,
    });
    expect(two.stderr).toMatch(/ faults {2}golden set read$/m);
    expect(two.stderr).toMatch(/ faults {2}worker: golden set read$/m);
    // Each phase with its time and the process's page faults so far, the worker's on the same counts.
    const faultsAt = (label: string) =>
      Number(new RegExp(`^evalverdict: \\d+\\.\\d\\d s +(\\d+\\.\\d)k faults  ${label}`, 'm').exec(two.stderr)?.[1]);
    expect(faultsAt('worker: golden set read')).toBeGreaterThan(0);
    expect(faultsAt('reports rendered')).toBeGreaterThanOrEqual(faultsAt('worker started'));
    expect(two.stderr).toContain('evalverdict: scored in two threads');
    expect(twoJson).toBe(library.json);
    expect(readFileSync(join(dir, 'big.json'), 'utf8')).toBe(library.json);
    expect(two.stdout).toBe(one.stdout);
    // the warnings of both halves, with their lines, as one thread gives them: one for the key in 3 queries
    const warnings = (r: { stderr: string }) => r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    const xNote = /^warning: .*:\d+: unknown key `x_note` in 3 queries \(ignored\); did you mean `note`\?$/;
    expect(warnings(two)).toEqual(warnings(one));
    expect(warnings(two)).toEqual([expect.stringMatching(xNote)]);
    const report = JSON.parse(twoJson) as CompareOutputs['report'];
    expect(report.golden.queries).toBe(1_260);
    expect(report.golden.removed).toEqual([]);
    // aggregate in two threads, each scoring the query_id range of its own half of the same queries as JSON Lines
    // (in id order: q.. then x0000..x1199): the same bytes and warnings as one thread.
    const extraJsonl = extraLines(1_200, (i) => ({
      query: `an extra question ${i} ${'words '.repeat(140 + (i % 30))}`,
      expected_doc_ids: [`d${i}`],
      category: ['a', 'b', 'c'][i % 3],
      ...(i % 400 === 7 ? { x_note: 1 } : {}),
    }));
    const bigJsonl = join(dir, 'big-golden.jsonl');
    writeFileSync(bigJsonl, goldenLines + extraJsonl);
    expect(statSync(bigJsonl).size).toBeGreaterThan(1 << 20);
    const aggregateBothWays = async (goldenFile: string) => {
      const aggArgs = ['aggregate', files.baseline, '--golden', goldenFile, '--json'];
      const agg2 = await cli(aggArgs, { EVALVERDICT_WORKERS: '2', EVALVERDICT_TRACE: '1' });
      const agg1 = await oneThread(aggArgs);
      expect(agg2.status).toBe(0);
      expect(agg2.stdout).toBe(agg1.stdout);
      expect(warnings(agg2)).toEqual(warnings(agg1));
      expect(warnings(agg2)).toEqual([expect.stringMatching(xNote)]);
      expect((JSON.parse(agg2.stdout) as { golden: { queries: number } }).golden.queries).toBe(1_260);
      return agg2.stderr;
    };
    expect(await aggregateBothWays(bigJsonl)).toContain('evalverdict: scored in two threads');
    // Not in id order (the extra queries first, so the first half's ids sort after the second's): one thread.
    const unordered = join(dir, 'unordered-golden.jsonl');
    writeFileSync(unordered, extraJsonl + goldenLines);
    expect(await aggregateBothWays(unordered)).toContain('evalverdict: scored in one thread');
  });

  it("the action bundle scores in two threads too: its report file is the library's, byte for byte", async () => {
    const run = await runAction({
      inputs: { baseline: files.baseline, candidate: files.candidate, golden: files.golden },
      env: { EVALVERDICT_WORKERS: '2' }, // a worker whatever the size (by default for a candidate of 64 MiB or more)
    });
    const library = await runCompare({
      baselinePath: files.baseline,
      candidatePath: files.candidate,
      goldenPath: files.golden,
      // The candidate records no commit: the action's is the pull request's head (commit_source workflow_run).
      reportContext: { headSha: '6dcb09b5b57875f334f61aebed695e2e4193db5e' },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(library.report.verdict === 'fail' ? 1 : 0);
    expect(clockless(readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8'))).toBe(library.json);
    expect(summarise(run.requests)).toEqual([`GET ${COMMENTS_PATH}?per_page=100 200`, `POST ${COMMENTS_PATH} 201`]);
    expect(run.stdout).toContain('::debug::EvalVerdict: runs scored in two threads');
    // the Cranfield fixtures differ in chunker version: one thread
    expect((await runAction({ env: { EVALVERDICT_WORKERS: '2' } })).stdout).toContain(
      '::debug::EvalVerdict: runs scored in one thread',
    );
  });

  it('the action reads a JSON Lines golden set: the same report as the YAML one but for the fingerprint', async () => {
    const jsonl = join(dir, 'golden-for-action.jsonl');
    writeFileSync(jsonl, goldenLines);
    const [fromYaml, fromJsonl] = [
      await runAction({ inputs: { baseline: files.baseline, candidate: files.candidate, golden: files.golden } }),
      await runAction({ inputs: { baseline: files.baseline, candidate: files.candidate, golden: jsonl } }),
    ];
    const report = (run: { workspace: string }) =>
      readFileSync(join(run.workspace, 'evalverdict-report.json'), 'utf8').replace(/sha256:[0-9a-f]{64}/, 'sha256:');
    expect(fromJsonl.stderr).toBe('');
    expect(fromJsonl.code).toBe(fromYaml.code);
    expect(report(fromJsonl)).toBe(report(fromYaml));
    expect(
      JSON.parse(readFileSync(join(fromJsonl.workspace, 'evalverdict-report.json'), 'utf8')).golden.fingerprint,
    ).toBe(`sha256:${createHash('sha256').update(goldenLines).digest('hex')}`);
  });

  it("a bad row in the worker's run: exit 2 naming file, table, run and query, no stack", async () => {
    const r = await cli(['compare', files.baseline, files.broken, '--golden', files.golden], {
      EVALVERDICT_WORKERS: '2',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `${files.broken}: table \`eval_query_results\`, run \`bad\`, query \`q00\`, column \`result_json\`: malformed JSON`,
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('aggregate in two threads: results between the two ranges (ids in neither half) are read too, as one thread reads them', async () => {
    // Unknown ids beside every extra golden id (`x0007z` sorts between x0007 and x0008): one of them lies between the
    // main thread's last id and the worker's first, which neither thread's own range holds.
    const bigGolden = join(dir, 'big-golden-for-gaps.jsonl');
    writeFileSync(
      bigGolden,
      goldenLines +
        extraLines(1_200, (i) => ({
          query: `an extra question ${i} ${'words '.repeat(140 + (i % 30))}`,
          category: ['a', 'b', 'c'][i % 3],
        })),
    );
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const unknown = Array.from({ length: 1_200 }, (_, i) =>
      result(`x${String(i).padStart(4, '0')}z`, [hit(1, `u${i}`, `du${i}`, { chunker_version: 'v1' })]),
    );
    const db = await writeRunDb(
      { runs: [{ runId: 'gaps', results: [...runResults(5, 'v1'), ...unknown] }] },
      join(dir, 'gaps.sqlite'),
    );
    const args = ['aggregate', db, '--golden', bigGolden, '--json'];
    const two = await cli(args, { EVALVERDICT_WORKERS: '2', EVALVERDICT_TRACE: '1' });
    const one = await oneThread(args);
    expect(two.stderr).toContain('the two halves joined');
    // The worker's young generation is Node 20's on every Node (Node 24 would give it 192 MB): the check that
    // fails without the limit is .ci/run's second pass, under Node 24.
    expect(two.stderr).toContain('worker: worker running (young generation 48 MB)');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect((JSON.parse(one.stdout) as { unknown_query_ids: string[] }).unknown_query_ids).toHaveLength(1_200);
  });

  it('aggregate in two threads, query_ids stored as numbers (a column without TEXT affinity): each thread gets its half, the same bytes as one thread', async () => {
    // SQLite sorts every number below every text: compared with the golden halves' text bounds as they are, all the
    // numbers would fall in the main thread's range and the worker's half would read as missing.
    // Few queries with long texts: a golden file over 1 MB that parses and scores quickly.
    const n = 2_000;
    const ids = Array.from({ length: n }, (_, i) => String(100_000 + i));
    const numericGolden = join(dir, 'numeric-ids.jsonl');
    writeFileSync(
      numericGolden,
      ids
        .map(
          (id) =>
            `${JSON.stringify({ id, query: `question ${id} ${'words '.repeat(100)}`, expected_chunk_ids: [`c${id}`] })}\n`,
        )
        .join(''),
    );
    expect(statSync(numericGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const db = join(dir, 'numeric-ids.sqlite');
    const SQL = await loadSqlJs();
    const made = new SQL.Database();
    made.run(`CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, config_snapshot_json TEXT NOT NULL, aggregate_json TEXT NOT NULL, commit_hash TEXT, created_at TEXT NOT NULL);
      CREATE TABLE eval_query_results (run_id TEXT NOT NULL, query_id NOT NULL, result_json TEXT NOT NULL, PRIMARY KEY (run_id, query_id));
      INSERT INTO eval_runs VALUES ('numbers', 'bench', '{}', '{}', NULL, '2026-11-24T00:00:00Z');`);
    const insert = made.prepare('INSERT INTO eval_query_results VALUES (?, ?, ?)');
    // every tenth id stored as a REAL (SQLite's text of it is "100010.0"; EvalVerdict matches String(100010) = "100010"),
    // and those around the halves' boundary, where SQLite's text would put a row between the two ranges
    const insertReal = made.prepare('INSERT INTO eval_query_results VALUES (?, CAST(? AS REAL), ?)');
    // every other query finds its chunk at rank 1
    ids.forEach((id, i) => {
      (i % 10 === 0 || Math.abs(i - n / 2) <= 2 ? insertReal : insert).run([
        'numbers',
        Number(id),
        JSON.stringify(result(id, [hit(1, i % 2 === 0 ? `c${id}` : 'other')])),
      ]);
    });
    insert.free();
    insertReal.free();
    expect(made.exec("SELECT count(*) FROM eval_query_results WHERE typeof(query_id) = 'real'")[0].values[0][0]).toBe(
      n / 10 + 4,
    );
    writeFileSync(db, made.export());
    made.close();
    const args = ['aggregate', db, '--golden', numericGolden, '--json'];
    const two = await cli(args, { EVALVERDICT_WORKERS: '2', EVALVERDICT_TRACE: '1' });
    const one = await oneThread(args);
    expect(two.stderr).toContain('the two halves joined');
    expect(two.status).toBe(0);
    const metrics = (JSON.parse(two.stdout) as { metrics: Record<string, { value: number | null; n: number }> })
      .metrics;
    expect(metrics['hit@1']).toEqual({ value: 0.5, n: n });
    expect(metrics.missing_queries.value).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    // the same ids as JSON numbers: read as their text, the same bytes, no warning
    writeFileSync(numericGolden, readFileSync(numericGolden, 'utf8').replace(/^\{"id":"(\d+)"/gm, '{"id":$1'));
    const [twoUnquoted, oneUnquoted] = [
      await cli(args, { EVALVERDICT_WORKERS: '2', EVALVERDICT_TRACE: '1' }),
      await oneThread(args),
    ];
    expect(twoUnquoted.stderr).toContain('the two halves joined');
    expect(oneUnquoted.stderr).not.toContain('warning:');
    expect(twoUnquoted.stdout).toBe(oneUnquoted.stdout);
    expect(JSON.parse(oneUnquoted.stdout).metrics).toEqual(JSON.parse(one.stdout).metrics); // another file: another fingerprint
  });

  it('query ids with two result rows (a table without the primary key): listed and warned of, alike in two threads and one, and by compare', async () => {
    // Few queries with long texts: a golden file over 1 MB that parses and scores quickly.
    const n = 2_000;
    const ids = Array.from({ length: n }, (_, i) => `r${String(i).padStart(5, '0')}`);
    const dupGolden = join(dir, 'dup-golden.jsonl');
    writeFileSync(
      dupGolden,
      ids
        .map(
          (id) =>
            `${JSON.stringify({ id, query: `question ${id} ${'words '.repeat(100)}`, expected_chunk_ids: [`c${id}`] })}\n`,
        )
        .join(''),
    );
    expect(statSync(dupGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const db = join(dir, 'dup.sqlite');
    const SQL = await loadSqlJs();
    const made = new SQL.Database();
    made.run(`CREATE TABLE eval_runs (run_id TEXT PRIMARY KEY, suite TEXT NOT NULL, config_snapshot_json TEXT NOT NULL, aggregate_json TEXT NOT NULL, commit_hash TEXT, created_at TEXT NOT NULL);
      CREATE TABLE eval_query_results (run_id TEXT NOT NULL, query_id TEXT NOT NULL, result_json TEXT NOT NULL);
      INSERT INTO eval_runs VALUES ('dup', 'bench', '{}', '{}', NULL, '2026-11-24T00:00:00Z');`);
    const insert = made.prepare('INSERT INTO eval_query_results VALUES (?, ?, ?)');
    for (const id of ids) insert.run(['dup', id, JSON.stringify(result(id, [hit(1, `c${id}`)]))]);
    // a second row for one query early in the main thread's half, one just inside the worker's and its last
    const repeated = [ids[n - 1], ids[3], ids[n / 2 + 1]];
    for (const id of repeated) insert.run(['dup', id, JSON.stringify(result(id, [hit(1, `c${id}`)]))]);
    insert.free();
    writeFileSync(db, made.export());
    made.close();
    const args = ['aggregate', db, '--golden', dupGolden, '--json'];
    const two = await cli(args, { EVALVERDICT_WORKERS: '2', EVALVERDICT_TRACE: '1' });
    const one = await oneThread(args);
    expect(two.stderr).toContain('the two halves joined');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const report = JSON.parse(one.stdout) as {
      duplicate_query_ids: string[];
      metrics: Record<string, { value: number | null; n: number }>;
    };
    expect(report.duplicate_query_ids).toEqual([...repeated].sort());
    expect(report.metrics['hit@1']).toEqual({ value: 1, n });
    const warned = (r: { stderr: string }) => r.stderr.split('\n').filter((line) => line.includes('more than one row'));
    expect(warned(one)).toEqual([
      `warning: ${db}: run \`dup\`: 3 query id(s) have more than one row in eval_query_results, and only the last one read is scored (e.g. "${ids[3]}", "${ids[n / 2 + 1]}", "${ids[n - 1]}"); the table should have PRIMARY KEY (run_id, query_id)`,
    ]);
    expect(warned(two)).toEqual(warned(one));
    expect((await oneThread(['aggregate', db, '--golden', dupGolden])).stdout).toContain(
      '\n3 queries have more than one result row: only the last one read is scored\n',
    );
    const compared = await cli(['compare', db, db, '--golden', dupGolden, '--json', join(dir, 'dup-compare.json')], {
      EVALVERDICT_WORKERS: '2',
    });
    expect(warned(compared)).toHaveLength(2); // the baseline's and the candidate's
    expect(
      (JSON.parse(readFileSync(join(dir, 'dup-compare.json'), 'utf8')) as { golden: { duplicate_query_ids: unknown } })
        .golden.duplicate_query_ids,
    ).toEqual({ baseline: [...repeated].sort(), candidate: [...repeated].sort() });
    expect(compared.stdout).toContain(
      '- ⚠️ The candidate has more than one result for 3 queries (the last one read is scored).',
    );
    expect(compared.stdout).toContain(`Queries with more than one result in the candidate: ${ids[3]}`);
  });

  it("aggregate with a wrong golden file and a wrong run: the golden file's error, in one thread and in two", async () => {
    const badGolden = join(dir, 'bad-late-golden.jsonl');
    // A bad value near the end: in the worker's half when two threads cut the file.
    writeFileSync(
      badGolden,
      goldenLines +
        extraLines(1_200, (i) => ({
          query: `an extra question ${i} ${'words '.repeat(140 + (i % 30))}`,
          ...(i === 1_150 ? { answerable: 'maybe' } : {}),
        })),
    );
    expect(statSync(badGolden).size).toBeGreaterThan(1 << 20);
    const db = await writeRunDb(
      { runs: [{ runId: 'only', results: runResults(5, 'v1') }] },
      join(dir, 'one-run.sqlite'),
    );
    for (const runArgs of [['--run', 'nope'], []]) {
      const [one, two] = [
        await oneThread(['aggregate', db, '--golden', badGolden, ...runArgs]),
        await cli(['aggregate', db, '--golden', badGolden, ...runArgs], { EVALVERDICT_WORKERS: '2' }),
      ];
      for (const r of [one, two]) {
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/bad-late-golden\.jsonl:1211: query `x1150`: `answerable` must be true or false/);
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }
    }
  });

  it('aggregate in two threads: a bad row in either half exits 2 naming file, table, run and query, no stack', async () => {
    // A golden file over 1 MB in id order (so the threads split by golden halves): q00..q59, then x0000..; the bad
    // row is q00 (the main thread's half) in one run and x5939 (the worker's) in the other.
    const bigGolden = join(dir, 'big-golden-for-errors.jsonl');
    writeFileSync(
      bigGolden,
      goldenLines +
        extraLines(5_940, (i) => ({
          query: `an extra question ${i} ${'words '.repeat(i % 30)}`,
          expected_doc_ids: [`d${i}`],
          category: ['a', 'b', 'c'][i % 3],
        })),
    );
    expect(statSync(bigGolden).size).toBeGreaterThan(1 << 20); // cut in halves
    const good = runResults(5, 'v1');
    for (const [at, id] of [
      ['main', 'q00'],
      ['worker', 'x5939'],
    ] as const) {
      const results = [...good.filter((r) => r.query_id !== id), new RawResult(id, '{"hits_top_k": [')];
      const db = await writeRunDb({ runs: [{ runId: `bad-${at}`, results }] }, join(dir, `bad-${at}.sqlite`));
      const r = await cli(['aggregate', db, '--golden', bigGolden], { EVALVERDICT_WORKERS: '2' });
      // Each thread scores its half's range as soon as it has read the half; the main thread's bad row ends it there.
      expect(r.stderr, at).toContain('golden half read (the first here)');
      expect(r.status, at).toBe(2);
      expect(r.stderr, at).toContain(
        `${db}: table \`eval_query_results\`, run \`bad-${at}\`, query \`${id}\`, column \`result_json\`: malformed JSON`,
      );
      expect(r.stderr, at).not.toMatch(/^\s+at /m);
    }
  });
});
