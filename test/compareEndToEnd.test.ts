/**
 * compareRuns end to end (src/compare/compare.ts with the loaders, the pipeline and the CLI): runs streamed from
 * run databases, the Cranfield fixtures through runCompare (JSON snapshot plus hand-checked properties) and the CLI
 * in process and as a child process. Apart from compare.test.ts (runs built in memory) so that `npm run mutate`
 * can leave these slower suites out of compare.ts's mutant runs (docs/mutation.md); `npm test` runs both.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreToTable, tableFromTransfer, tableTransfer, tabulate } from '../src/aggregate/table.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import { aggregateScored, groupQueries, joinHalfTables } from '../src/aggregate/aggregate.js';
import { InputError } from '../src/errors.js';
import { goldenSetOfHalf, readGoldenFile, readGoldenHalf } from '../src/load/golden.js';
import type { GoldenHalf } from '../src/load/golden.js';
import {
  compareUtf8,
  deferRunStream,
  inRange,
  openRunStream,
  openRunDatabase,
  readRunDatabase,
} from '../src/load/runDatabase.js';
import type { QueryIdRange } from '../src/load/runDatabase.js';
import { verdictOf } from '../src/gate/gates.js';
import type { CompareReport } from '../src/gate/types.js';
import { runAggregate } from '../src/pipeline/runAggregate.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import { stableJson } from '../src/stableJson.js';
import { GITHUB_COMMENT_LIMIT } from '../src/render/markdown.js';
import { checkMarkdown } from './helpers/markdownChecks.js';
import {
  compareAndGate,
  gates,
  goldenQuery,
  goldenSet,
  judgeScores,
  mkAnswer,
  mkHit,
  queryResult,
  runData,
} from './helpers/compareFixtures.js';
import {
  hit,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

// ---------------------------------------------------------------------------------------------------------
// Streamed runs read from run databases

describe('streamed runs from run databases', () => {
  it('the Cranfield fixtures give byte-identical reports streamed from the databases and read into memory', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const config = gates('gates:\n  - metric: hit@5\n    min: 0.5\n');
    const inMemory = compareAndGate(
      await readRunDatabase(join(fixtures, 'baseline.sqlite')),
      await readRunDatabase(join(fixtures, 'candidate.sqlite')),
      fixtureGolden,
      config,
    );
    const streamed = compareAndGate(
      await openRunStream(join(fixtures, 'baseline.sqlite')),
      await deferRunStream(join(fixtures, 'candidate.sqlite')),
      fixtureGolden,
      config,
    );
    expect(stableJson(streamed.report)).toBe(stableJson(inMemory.report));
    expect(streamed.report.chunker_version_match).toBe('fallback_doc_span');
  });

  it('a stream read again after release gives the same results', async () => {
    const stream = await openRunStream(join(repoRoot, 'fixtures', 'baseline.sqlite'));
    const ids = (): string[] => {
      const out: string[] = [];
      stream.forEachResult((r) => out.push(`${r.queryId}:${r.hits.map((h) => h.chunkId).join(',')}`));
      return out;
    };
    const first = ids();
    stream.release?.();
    expect(ids()).toEqual(first);
    expect(first.length).toBeGreaterThan(100);
    stream.release?.();
  });

  it("a run scored by golden halves (each thread's query_id range) and joined aggregates as the run scored whole", async () => {
    // q00..q29 in id order; q05 and q20 pending; the run lacks q28 and q29 and has two ids the golden set lacks, one in
    // each range and one between the halves' ids; only upper-range results time a rerank stage.
    const ids = Array.from({ length: 30 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const items = ids.map((id, i) => ({
      id,
      query: `question ${i}`,
      expected_chunk_ids: [`${id}-rel`],
      category: `c${i % 3}`,
      tags: [`t${i % 2}`],
      ...(id === 'q05' || id === 'q20' ? { pending: true } : {}),
      ...(i === 3 || i === 25 ? { x_note: 1 } : {}),
    }));
    const goldenFile = writeGolden(items.map((q) => `${JSON.stringify(q)}\n`).join(''), tempDir(), 'golden.jsonl');
    const [firstHalf, secondHalf] = [readGoldenHalf(goldenFile, 0, 0)!, readGoldenHalf(goldenFile, 1, 0)!];
    const firstMax = firstHalf.queries[firstHalf.queries.length - 1].id;
    expect(firstHalf.queries.length).toBeGreaterThan(10);
    expect(secondHalf.queries.length).toBeGreaterThan(10);
    const between = `${firstMax}-extra`; // sorts after the first half's ids and before the second's
    const results = [...ids.slice(0, 28), between, 'a-extra'].map((id, i) =>
      result(id, [hit(1, i % 3 === 0 ? `${id}-rel` : 'other', 'd1')], {
        elapsed_ms: i,
        ...(i >= 20 && i < 28 ? { timings_ms: { rerank: i } } : {}),
      }),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const golden = readGoldenFile(goldenFile);
    const whole = await openRunStream(file);
    const expected = aggregateScored(scoreRun(whole, golden, { ...DEFAULT_OPTIONS }));
    whole.release?.();
    const part = async (half: GoldenHalf, range: QueryIdRange) => {
      const stream = await openRunStream(file, null, range);
      try {
        return scoreToTable(stream, goldenSetOfHalf(goldenFile, half), { ...DEFAULT_OPTIONS }, range);
      } finally {
        stream.release?.();
      }
    };
    const lower = await part(firstHalf, { through: firstMax });
    const upper = await part(secondHalf, { after: firstMax });
    expect(lower.unknownResultIds.sort()).toEqual(['a-extra']);
    expect(upper.unknownResultIds).toEqual([between]); // between the halves' ids: the second thread's range
    const table = joinHalfTables(
      lower,
      tableTransfer(upper).message,
      groupQueries(upper.queries.filter((q) => !q.pending)),
      golden.fingerprint,
    );
    expect(stableJson(aggregateScored(table))).toBe(stableJson(expected));
    expect(expected.pending_metrics).toBeDefined();
    expect(Object.keys(expected.metrics)).toContain('rerank_latency_p50_ms');
  });

  it('query_id ranges compare ids as SQLite orders them (UTF-8 bytes), not as JavaScript does (UTF-16)', async () => {
    const ids = ['a', 'Z', 'é', 'ﬀ', '\uFFFF', '😀', 'a😀', 'aé', '', 'q10', 'q9'];
    const file = await writeRunDb({ runs: [{ runId: 'r1', results: ids.map((id) => result(id, [])) }] });
    const db = await openRunDatabase(file);
    const sqliteOrder = db
      .exec('SELECT query_id FROM eval_query_results ORDER BY query_id')[0]
      .values.map((v) => String(v[0]));
    db.close();
    expect([...ids].sort(compareUtf8)).toEqual(sqliteOrder);
    expect([...ids].sort()).not.toEqual(sqliteOrder); // JavaScript's own order differs here ('😀' before '\uFFFF')
    expect(inRange('😀', { from: '\uFFFF' })).toBe(true);
    expect(inRange('😀', { to: '\uFFFF' })).toBe(false);
  });

  it('past 64 timings_ms stages the first 64 in name order are measured, read whole, in halves or in golden order', async () => {
    // The first golden half's queries time stages z00..z49 (late names, read first), the second half's a00..a39.
    const ids = Array.from({ length: 20 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const goldenFile = writeGolden(
      ids.map((id) => `${JSON.stringify({ id, query: id, expected_chunk_ids: [`${id}-rel`] })}\n`).join(''),
      tempDir(),
      'golden.jsonl',
    );
    const [firstHalf, secondHalf] = [readGoldenHalf(goldenFile, 0, 0)!, readGoldenHalf(goldenFile, 1, 0)!];
    const firstMax = firstHalf.queries[firstHalf.queries.length - 1].id;
    const firstCount = firstHalf.queries.length;
    expect(firstCount).toBeGreaterThan(2);
    expect(firstCount).toBeLessThan(18);
    const stageNames = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
    const results = ids.map((id, i) =>
      result(id, [hit(1, `${id}-rel`, 'd1')], {
        timings_ms: Object.fromEntries((i < firstCount ? stageNames('z', 50) : stageNames('a', 40)).map((s) => [s, i])),
      }),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const golden = readGoldenFile(goldenFile);
    const whole = await openRunStream(file);
    const inOneRead = scoreToTable(whole, golden, { ...DEFAULT_OPTIONS });
    whole.release?.();
    const again = await openRunStream(file);
    const inGoldenOrder = tabulate(scoreRun(again, golden, { ...DEFAULT_OPTIONS }));
    again.release?.();
    const part = async (half: GoldenHalf, range: QueryIdRange) => {
      const stream = await openRunStream(file, null, range);
      try {
        return scoreToTable(stream, goldenSetOfHalf(goldenFile, half), { ...DEFAULT_OPTIONS }, range);
      } finally {
        stream.release?.();
      }
    };
    const lower = await part(firstHalf, { through: firstMax });
    const upper = await part(secondHalf, { after: firstMax });
    expect(lower.allStages).toEqual(stageNames('z', 50)); // each half alone has room for all of its stages
    expect(lower.ignoredStageTimings).toBe(0);
    const joined = joinHalfTables(lower, tableTransfer(upper).message, groupQueries(upper.queries), golden.fingerprint);
    const measured = [...stageNames('a', 40), ...stageNames('z', 24)];
    for (const table of [inOneRead, inGoldenOrder, joined]) {
      expect(table.allStages).toEqual(measured);
      expect(table.ignoredStageTimings).toBe(26 * firstCount); // z24..z49, timed by each first-half result
    }
    const report = aggregateScored(joined);
    expect(stableJson(aggregateScored(inOneRead))).toBe(stableJson(report));
    expect(report.metrics.z24_latency_p50_ms).toBeUndefined();
    // Nearest-rank median of the second half's values firstCount..19.
    const m = 20 - firstCount;
    expect(report.metrics.a00_latency_p50_ms?.value).toBe(firstCount + Math.ceil(m / 2) - 1);
  });

  it('a table crosses between threads (typed arrays moved) and reads the same as before (table.ts)', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const stream = await openRunStream(join(fixtures, 'candidate.sqlite'));
    const scored = scoreRun(stream, fixtureGolden, { ...DEFAULT_OPTIONS });
    stream.release?.();
    // Hand-made records add what the fixtures lack: answers with citations, judge scores, timings, refusals, pending.
    const q = goldenSet([
      goldenQuery('h1', {
        expectedChunkIds: ['c1'],
        goldSupports: [{ relPath: 'a.md', headingPath: ['A'], snippets: [], newer: true }],
      }),
      goldenQuery('h2'),
      goldenQuery('h3', { pending: true }),
    ]);
    const handMade = scoreRun(
      runData('h', [
        queryResult('h1', [mkHit(1, 'c1', 'D'), mkHit(2, 'c2', 'D', { docPath: 'a.md', headingPath: ['A'] })], {
          answer: mkAnswer('text', {
            citations: [{ marker: '[1]', chunkId: 'c1', path: 'a.md', start: 1, end: 4 }],
            promptTokens: 10,
            completionTokens: 3,
            latencyMs: 5,
          }),
          judge: judgeScores({ groundedness: 4, correctness: 2, spotCheckGroundedness: 5 }),
          timingsMs: { retrieve: 12.5 },
          costUsd: 0.002,
          elapsedMs: 40,
          abstained: false,
          folderMode: 'on',
          selectedFolders: ['docs'],
        }),
        queryResult('h3', [], { timingsMs: { pendingStage: 3 } }),
      ]),
      q,
      { ...DEFAULT_OPTIONS },
    );
    for (const [run, set] of [
      [scored, fixtureGolden],
      [handMade, q],
    ] as const) {
      const table = tabulate(run);
      const { message, transfer } = tableTransfer(table);
      // What postMessage does: a structured clone with the buffers moved.
      const moved = structuredClone(message, { transfer });
      expect(
        table.columns.size > 0 && [...table.columns.values()].every((c) => c.length === 0 || c.buffer.byteLength === 0),
      ).toBe(true);
      const back = tableFromTransfer(moved, run.run, set, run.options);
      const fresh = tabulate(run);
      expect(back.columns).toEqual(fresh.columns);
      expect(back.pendingColumns).toEqual(fresh.pendingColumns);
      expect(back.facts).toEqual(fresh.facts);
      expect(back.queries.every((g, i) => g === run.records[i].golden)).toBe(true);
      expect(back.pendingQueries.every((g, i) => g === run.pendingRecords[i].golden)).toBe(true);
      expect(stableJson(aggregateScored(back))).toBe(stableJson(aggregateScored(run)));
    }
    expect(tabulate(handMade).facts.judgeGroundedness[0]).toBe(4);
    expect(tabulate(handMade).allStages).toEqual(['pendingStage', 'retrieve']);
    expect(tabulate(handMade).recordStages).toEqual(['retrieve']);
  });

  it('a run scored straight into its table gives the table of its records (scoreToTable = tabulate(scoreRun))', async () => {
    const fixtures = join(repoRoot, 'fixtures');
    const fixtureGolden = readGoldenFile(join(fixtures, 'golden.yaml'));
    const streamed = async () => openRunStream(join(fixtures, 'baseline.sqlite'));
    const a = await streamed();
    const viaRecords = tabulate(scoreRun(a, fixtureGolden, { ...DEFAULT_OPTIONS }));
    a.release?.();
    const b = await streamed();
    const direct = scoreToTable(b, fixtureGolden, { ...DEFAULT_OPTIONS });
    b.release?.();
    expect(direct).toEqual(viaRecords);
    // Stages in some results only, one only in a pending query's result, a result for an unknown query, a query
    // with two results (the later one counts), a pending query without a result.
    const q = goldenSet([
      goldenQuery('a', { expectedChunkIds: ['c1'] }),
      goldenQuery('b'),
      goldenQuery('p1', { pending: true }),
      goldenQuery('p2', { pending: true }),
      goldenQuery('c'),
    ]);
    const run = runData('h', [
      queryResult('b', [mkHit(1, 'x', 'D')], { timingsMs: { retrieve: 3 } }),
      queryResult('a', [mkHit(1, 'c1', 'D')], {
        timingsMs: { retrieve: 5, generate: 9 },
        judge: judgeScores({ groundedness: 2 }),
      }),
      queryResult('p1', [], { timingsMs: { rerank: 1 } }),
      queryResult('zz', []),
      queryResult('a', [mkHit(2, 'c1', 'D')], { timingsMs: { retrieve: 7 } }),
    ]);
    const table = scoreToTable(run, q, { ...DEFAULT_OPTIONS });
    expect(table).toEqual(tabulate(scoreRun(run, q, { ...DEFAULT_OPTIONS })));
    expect(table.recordStages).toEqual(['retrieve']);
    expect(table.allStages).toEqual(['rerank', 'retrieve']);
    expect(table.facts.firstRelevantRank[0]).toBe(2);
    expect(Array.from(table.pendingHasResult)).toEqual([1, 0]);
    expect(table.unknownResultIds).toEqual(['zz']);
    expect(table.duplicateResultIds).toEqual(['a']);
    expect('resultIds' in table).toBe(false);
  });

  it('deferRunStream checks the path and the SQLite header before anything is scored', async () => {
    await expect(deferRunStream(join(tempDir(), 'missing.sqlite'))).rejects.toThrow(
      /missing\.sqlite: cannot read the run database \(no such file\)/,
    );
    const notSqlite = join(tempDir(), 'golden.sqlite');
    writeFileSync(notSqlite, 'id: q1\n'.repeat(40));
    await expect(deferRunStream(notSqlite)).rejects.toThrow(InputError);
    await expect(deferRunStream(notSqlite)).rejects.toThrow(/not a SQLite database/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The Cranfield fixtures

const fixture = (name: string) => join(repoRoot, 'fixtures', name);
describe('fixtures: runCompare on the Cranfield runs', () => {
  it('fixtures/baseline.sqlite, candidate.sqlite and golden.yaml exist', () => {
    for (const f of ['baseline.sqlite', 'candidate.sqlite', 'golden.yaml'])
      expect(existsSync(fixture(f)), f).toBe(true);
  });

  const inputs = {
    baselinePath: fixture('baseline.sqlite'),
    candidatePath: fixture('candidate.sqlite'),
    goldenPath: fixture('golden.yaml'),
  };
  let out: Awaited<ReturnType<typeof runCompare>>;
  let report: CompareReport;
  let goldenQueries = 0;
  beforeAll(async () => {
    out = await runCompare(inputs);
    report = out.report;
    // the golden set's non-pending queries, counted from the file itself
    goldenQueries = readGoldenFile(fixture('golden.yaml')).queries.filter((q) => !q.pending).length;
  });

  it('matches the JSON snapshot', async () => {
    await expect(out.json).toMatchFileSnapshot('__snapshots__/compare-fixtures.json');
  });

  it('chunker versions differ (whole-doc-v1 vs passage-v2) and chunks carry spans: fallback_doc_span', () => {
    expect(report.baseline).toMatchObject({
      run_id: 'baseline-whole-doc',
      chunker_version: 'whole-doc-v1',
      chunker_versions: ['whole-doc-v1'],
    });
    expect(report.candidate).toMatchObject({
      run_id: 'candidate-passages',
      chunker_version: 'passage-v2',
      chunker_versions: ['passage-v2'],
    });
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(report.differences).toEqual(expect.arrayContaining(['chunker_version', 'index_version']));
  });

  it('per-query counts sum to the number of golden queries, all in both runs', () => {
    // at least the 225 Cranfield queries
    expect(goldenQueries).toBeGreaterThanOrEqual(225);
    const { win, loss, draw, regression } = report.counts;
    expect(win + loss + draw + regression).toBe(goldenQueries);
    expect(report.per_query).toHaveLength(goldenQueries);
    expect(report.golden).toMatchObject({
      queries: goldenQueries,
      shared: goldenQueries,
      added: [],
      removed: [],
      pending: 0,
    });
    for (const kind of ['win', 'loss', 'draw', 'regression'] as const) {
      expect(report.per_query.filter((o) => o.kind === kind).length).toBe(report.counts[kind]);
    }
  });

  it('outcomes agree with the ranks they come from', () => {
    for (const o of report.per_query) {
      const b = o.baseline_rank;
      const c = o.candidate_rank;
      const kind =
        b === null
          ? c === null
            ? 'draw'
            : 'win'
          : c === null
            ? 'regression'
            : c < b
              ? 'win'
              : c > b
                ? 'loss'
                : 'draw';
      // kebab's regression: a draw or loss by rank whose candidate missed the baseline's expected chunk.
      const missed = o.note.endsWith(", the baseline's expected chunk missed");
      if (missed) expect(['draw', 'loss'], o.query_id).toContain(kind);
      expect(o.kind, o.query_id).toBe(missed ? 'regression' : kind);
    }
  });

  it('every delta is candidate - baseline; the verdict follows the gates; the default config is used', () => {
    for (const [id, m] of Object.entries(report.metrics)) {
      if (m.baseline !== null && m.candidate !== null) expect(m.delta, id).toBeCloseTo(m.candidate - m.baseline, 12);
      else expect(m.delta, id).toBeNull();
    }
    // the default: the retrieval preset's four tested gates (issue 32 removed the regressions warn gate)
    expect(report.gates.map((g) => g.metric)).toEqual(['hit@5', 'mrr@10', 'nDCG@10', 'recall@10']);
    expect(report.gates.every((g) => g.correction === 'holm' && g.margin === 0.1)).toBe(true);
    expect(report.verdict).toBe(verdictOf(report.gates));
    // every query is in both runs, so the paired sample of hit@5 is its whole denominator (queries with expectations)
    expect(report.metrics['hit@5'].n_paired).toBe(report.metrics['hit@5'].n);
    expect(report.metrics['hit@5'].n).toBeGreaterThanOrEqual(225);
    // no judge settings in either run: comparable
    expect(report.judge_comparable).toBe(true);
  });

  it('the Markdown fits the comment limit and is well formed; a second run gives the same bytes', async () => {
    expect(out.markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(checkMarkdown(out.markdown).problems).toEqual([]);
    const again = await runCompare(inputs);
    expect(again.json).toBe(out.json);
    expect(again.markdown).toBe(out.markdown);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The CLI

describe.concurrent('CLI: evalverdict compare exit codes and files', () => {
  const golden =
    '- id: q1\n  query: one\n  expected_chunk_ids: [r1]\n- id: q2\n  query: two\n  expected_chunk_ids: [r2]\n';
  /** Both queries found at rank 1 in the baseline; the candidate misses q2 when `regress`. */
  async function setup(options: { regress?: boolean; config?: string; chunker?: [string, string] } = {}) {
    const dir = tempDir();
    const [bv, cv] = options.chunker ?? ['v1', 'v1'];
    const baseline = await writeRunDb(
      {
        runs: [
          {
            runId: 'base',
            config: { chunker_version: bv },
            results: [result('q1', [hit(1, 'r1', 'd1')]), result('q2', [hit(1, 'r2', 'd2')])],
          },
        ],
      },
      join(dir, 'base.sqlite'),
    );
    const candidate = await writeRunDb(
      {
        runs: [
          {
            runId: 'cand',
            config: { chunker_version: cv },
            results: [result('q1', [hit(1, 'r1', 'd1')]), result('q2', [hit(1, options.regress ? 'x' : 'r2', 'dx')])],
          },
        ],
      },
      join(dir, 'cand.sqlite'),
    );
    const goldenFile = writeGolden(golden, dir);
    const configFile = writeGolden(options.config ?? 'gates:\n  - metric: hit@1\n    min: 0.5\n', dir, 'gates.yml');
    return { dir, args: ['compare', baseline, candidate, '--golden', goldenFile, '--config', configFile] };
  }

  it('pass: exit 0, and --markdown, --markdown-full and --json are written', async () => {
    const { dir, args } = await setup();
    const files = { md: join(dir, 'report.md'), full: join(dir, 'full.md'), json: join(dir, 'report.json') };
    const res = await spawnCli([...args, '--markdown', files.md, '--markdown-full', files.full, '--json', files.json]); // the bin as a child process
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^> \[!TIP\]\n> \*\*EvalVerdict: pass\*\* — the gate passed\n/);
    expect(readFileSync(files.md, 'utf8')).toBe(res.stdout);
    expect(readFileSync(files.full, 'utf8')).toBe(res.stdout); // small: nothing to cut
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as CompareReport;
    expect(json).toMatchObject({ verdict: 'pass', counts: { win: 0, loss: 0, draw: 2, regression: 0 } });
    expect(json.gates[0]).toMatchObject({ metric: 'hit@1', result: 'pass', baseline: 1, candidate: 1 });
  });

  it('warn: exit 0 (a warn-level gate fails)', async () => {
    const { args } = await setup({
      regress: true,
      config: 'gates:\n  - metric: regressions\n    max: 0\n    level: warn\n',
    });
    const res = await runCli(args);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(
      /^> \[!WARNING\]\n> \*\*EvalVerdict: pass with warnings\*\* — 1 gate warned\n>\n> - ⚠️ `regressions` 1; allowed: ≤ 0\n/,
    );
  });

  it('fail: exit 1 (hit@1 1 -> 0.5 below min 0.9)', async () => {
    const { dir, args } = await setup({ regress: true, config: 'gates:\n  - metric: hit@1\n    min: 0.9\n' });
    const json = join(dir, 'out.json');
    const res = await spawnCli([...args, '--json', json]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(
      /^> \[!CAUTION\]\n> \*\*EvalVerdict: fail\*\* — 1 of 1 gate failed\n>\n> - ❌ `hit@1` 0\.5000; allowed: ≥ 0\.9000\n/,
    );
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
      verdict: 'fail',
      gates: [{ result: 'fail', candidate: 0.5 }],
    });
  });

  it('a report over the comment limit: stdout and --markdown are cut and name the --markdown-full file, which has every row', async () => {
    // 900 queries with 100-character texts, all found at rank 1 by the baseline and missed by the candidate:
    // 900 regression rows of about 110 characters (text cut to 60) are about 99,000 characters, past the limit
    const dir = tempDir();
    const ids = Array.from({ length: 900 }, (_, i) => `q${String(i).padStart(3, '0')}`);
    const text = (id: string) => `${id} ${'where is the relevant passage about this topic '.repeat(2)}`.slice(0, 100);
    const goldenFile = writeGolden(
      ids.map((id) => `- id: ${id}\n  query: "${text(id)}"\n  expected_chunk_ids: [${id}-rel]\n`).join(''),
      dir,
    );
    const db = (runId: string, found: boolean) =>
      writeRunDb(
        {
          runs: [
            {
              runId,
              results: ids.map((id) => result(id, [hit(1, found ? `${id}-rel` : 'other', 'd')], { query: text(id) })),
            },
          ],
        },
        join(dir, `${runId}.sqlite`),
      );
    const [baseline, candidate] = await Promise.all([db('base', true), db('cand', false)]);
    const configFile = writeGolden('gates:\n  - metric: regressions\n    max: 0\n', dir, 'gates.yml');
    const files = { md: join(dir, 'comment.md'), full: join(dir, 'full.md') };
    const res = await runCli([
      'compare',
      baseline,
      candidate,
      '--golden',
      goldenFile,
      '--config',
      configFile,
      '--markdown',
      files.md,
      '--markdown-full',
      files.full,
    ]);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.status).toBe(1);
    expect(res.stdout.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(readFileSync(files.md, 'utf8')).toBe(res.stdout);
    const left = res.stdout.match(
      /_(\d+) more rows of regressions and losses left out to fit GitHub's comment limit \(the least severe\); the full report is in `([^`]+)`\._/,
    );
    expect(left).not.toBeNull();
    expect(left![2]).toBe(files.full);
    const full = readFileSync(files.full, 'utf8');
    expect(full).not.toContain('left out');
    // every regression row is in the full report's list, after the ten worst shown open: one "| qNNN |" row each
    expect(full.match(/^\| q\d{3} \|/gm)).toHaveLength(900 + 10);
    expect(res.stdout.match(/^\| q\d{3} \|/gm)!.length - 10 + Number(left![1])).toBe(900);
  });

  it('a config typo: exit 2 naming the line and the closest metric', async () => {
    const { args } = await setup({
      config: 'gates:\n  - metric: hit@1\n    min: 0.5\n  - metric: nDGC@10\n    min: 0.5\n',
    });
    const res = await runCli(args);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/gates\.yml:4: unknown metric `nDGC@10`; did you mean `nDCG@10`\?/);
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stdout).toBe('');
  });

  it('--strict-chunker-version with different chunker versions: exit 2 with a clear message', async () => {
    const { args } = await setup({ chunker: ['v1', 'v2'] });
    const res = await runCli([...args, '--strict-chunker-version']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(
      /^evalverdict: chunker_version differs \(baseline .*base\.sqlite: v1, candidate .*cand\.sqlite: v2\) and --strict-chunker-version refuses to compare/,
    );
    expect(res.stderr).not.toMatch(STACK_LINE);
  });

  it('bad input: a missing golden file or database is exit 2', async () => {
    const { args, dir } = await setup();
    const noGolden = await spawnCli(args.map((a) => (a.endsWith('golden.yaml') ? join(dir, 'nope.yaml') : a)));
    expect(noGolden.status).toBe(2);
    expect(noGolden.stderr).toMatch(/nope\.yaml: cannot read the golden set \(no such file\)/);
    const noDb = await runCli(args.map((a) => (a.endsWith('cand.sqlite') ? join(dir, 'nope.sqlite') : a)));
    expect(noDb.status).toBe(2);
    expect(noDb.stderr).toMatch(/nope\.sqlite: cannot read the run database/);
  });
});

describe('the golden set a stored aggregate was computed on', () => {
  it('a baseline whose aggregate_json names another golden set: in its run summary and a warning line', async () => {
    const dir = tempDir();
    const [baseline, edited, golden] = [join(dir, 'b.sqlite'), join(dir, 'edited.yaml'), fixture('golden.yaml')];
    writeFileSync(baseline, readFileSync(fixture('baseline.sqlite')));
    // The same queries with one comment line more: another file, so another fingerprint.
    writeFileSync(edited, `# edited\n${readFileSync(golden, 'utf8')}`);
    await runAggregate({ runPath: baseline, goldenPath: edited, write: true });
    const out = await runCompare({
      baselinePath: baseline,
      candidatePath: fixture('candidate.sqlite'),
      goldenPath: golden,
    });
    const recorded = readGoldenFile(edited).fingerprint;
    expect(recorded).not.toBe(out.report.golden.fingerprint);
    expect(out.report.baseline?.recorded_golden_fingerprint).toBe(recorded);
    expect(out.report.candidate.recorded_golden_fingerprint).toBeNull();
    expect(out.markdown).toContain(
      `- ⚠️ The baseline run's stored aggregate was computed on another golden set (\`${recorded.slice(0, 19)}\`): both runs are scored here on \`${out.report.golden.fingerprint.slice(0, 19)}\`.`,
    );
    expect(out.markdown).not.toContain("The candidate run's stored aggregate");
    // Recorded on the golden set compared with: nothing to say.
    await runAggregate({ runPath: baseline, goldenPath: golden, write: true });
    const same = await runCompare({
      baselinePath: baseline,
      candidatePath: fixture('candidate.sqlite'),
      goldenPath: golden,
    });
    expect(same.report.baseline?.recorded_golden_fingerprint).toBe(same.report.golden.fingerprint);
    expect(same.markdown).not.toContain('stored aggregate was computed on another golden set');
  });
});
