/**
 * Repeats with document matching (issue 46): several runs per side whose chunker versions differ are matched as
 * compareRuns matches two runs (exact when every run has one version, else by document against the expected chunks
 * of every run's table), and the gate config's `repeats.may_differ` names the config_snapshot_json keys a side's
 * repeats may differ in without a warning. In memory through compareRepeatedRuns and compareRuns, then through the
 * CLI (`runCli`, the bin's function) for the config key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { compareRepeatedRuns, DEFAULT_MAY_DIFFER } from '../src/compare/repeats.js';
import type { CompareOptions } from '../src/compare/compare.js';
import type { Comparison } from '../src/compare/types.js';
import { InputError } from '../src/errors.js';
import { parseGateConfig } from '../src/gate/config.js';
import { checkAgainstSchema } from '../src/validate/schema.js';
import { repeatsDifferText } from '../src/render/repeatsText.js';
import type { CompareReport } from '../src/gate/types.js';
import type { GoldenQuery, Hit, RunData, RunStream } from '../src/types.js';
import {
  chunk,
  gateConfigError,
  gates,
  goldenQuery,
  goldenSet,
  mkHit,
  queryResult,
  runData,
} from './helpers/compareFixtures.js';
import { hit, removeTempDirs, result, runCli, tempDir, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json, RunInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

const OPTIONS: Partial<CompareOptions> = { permutations: 200 };

const repeated = (
  baselines: RunData[],
  candidates: RunData[],
  golden: ReturnType<typeof goldenSet>,
  options: Partial<CompareOptions> = OPTIONS,
  mayDiffer?: readonly string[],
) =>
  compareRepeatedRuns(
    baselines.map((r) => () => r),
    candidates.map((r) => () => r),
    golden,
    options,
    undefined,
    mayDiffer,
  );

/** A copy of `run` under another id (a repeat that happened to return the same hits). */
const again = (run: RunData, runId: string): RunData => ({ ...run, run: { ...run.run, runId } });

/** The report without what only repeats add. */
function withoutRepeats(report: Comparison): Comparison {
  const { repeats: _r, flaky: _f, ...rest } = report;
  return rest;
}

/** The report as JSON with every number to 12 significant digits: a mean of 3 equal values may differ in the last bit. */
const rounded = (report: Comparison) =>
  JSON.parse(JSON.stringify(report, (_, v) => (typeof v === 'number' ? Number(v.toPrecision(12)) : v)));

/** The message of the InputError `f` throws. */
function inputError(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error('no InputError');
}

// Chunk ids, re-chunked between the versions: q1's expected chunk is in no table but its document is named (by
// expected_doc_ids), q2's is in no table and unnamed (exact ids only), q3's is in the baseline's table with lines
// 1-10 (by document and span). As test/compare.test.ts's "named document" case, for several runs.
const mixedGolden = () =>
  goldenSet([
    goldenQuery('q1', { expectedChunkIds: ['old-1'], expectedDocIds: ['D1'] }),
    goldenQuery('q2', { expectedChunkIds: ['old-2'] }),
    goldenQuery('q3', { expectedChunkIds: ['c3'], expectedDocIds: ['D3'] }),
  ]);
const mixedBase = (runId = 'b1') =>
  runData(
    runId,
    [
      queryResult('q1', [mkHit(1, 'old-1', 'D1')]),
      queryResult('q2', [mkHit(1, 'old-2', 'D2')]),
      queryResult('q3', [mkHit(1, 'c3', 'D3')]),
    ],
    { config: { chunker_version: 'v1' }, chunks: [chunk('c3', 'D3', [[1, 10]], 'v1')] },
  );
const mixedCand = (runId = 'c1', q3Lines: [number, number] = [1, 10]) =>
  runData(
    runId,
    [
      queryResult('q1', [mkHit(1, 'x9', 'D9'), mkHit(2, 'n1', 'D1')]),
      queryResult('q2', [mkHit(1, 'n2', 'D2')]),
      queryResult('q3', [mkHit(1, 'n3', 'D3')]),
    ],
    {
      config: { chunker_version: 'v2' },
      chunks: [
        chunk('n1', 'D1', [[1, 4]], 'v2'),
        chunk('n2', 'D2', [[1, 4]], 'v2'),
        chunk('n3', 'D3', [q3Lines], 'v2'),
      ],
    },
  );

describe('repeats whose chunker versions differ are matched as one run per side is', () => {
  it('one run per side: the report is the one compareRuns gives, matched by document and span', () => {
    const golden = mixedGolden();
    const single = compareRuns(mixedBase(), mixedCand(), golden, OPTIONS).report;
    expect(single.chunker_version_match).toBe('fallback_doc_span');
    const compared = repeated([mixedBase()], [mixedCand()], golden);
    expect(compared.report).toEqual(single);
    expect(compared.repeatWarnings).toEqual([]);
  });

  it('one run per side, the same version: exact, as compareRuns', () => {
    const golden = mixedGolden();
    const v1 = (run: RunData): RunData => ({ ...run, run: { ...run.run, chunkerVersion: 'v1' } });
    const single = compareRuns(v1(mixedBase()), v1(mixedCand()), golden, OPTIONS).report;
    expect(single.chunker_version_match).toBe('exact');
    expect(repeated([v1(mixedBase())], [v1(mixedCand())], golden).report).toEqual(single);
  });

  it('3 runs per side of chunk ids: every outcome, match mode and metric as one run per side', () => {
    const golden = mixedGolden();
    const single = compareRuns(mixedBase(), mixedCand(), golden, OPTIONS).report;
    const report = repeated(
      ['b1', 'b2', 'b3'].map((id) => again(mixedBase(), id)),
      ['c1', 'c2', 'c3'].map((id) => again(mixedCand(), id)),
      golden,
    ).report;
    expect(rounded(withoutRepeats(report))).toEqual(rounded(single));
    expect(report.per_query.map((o) => [o.query_id, o.kind, o.chunk_match])).toEqual([
      ['q1', 'loss', 'fallback_expected_doc'],
      ['q2', 'regression', 'exact'],
      ['q3', 'draw', 'fallback_doc_span'],
    ]);
    expect(report.repeats!.candidate.runs).toBe(3);
  });

  it("the expected chunks of every run's table: one the first runs lack is matched by its document and span", () => {
    // q3's expected chunk c3 (no document named) is only in b2's table: with it, the candidate's n3 (lines 6-10,
    // half of c3's 1-10) covers it; the first runs alone would know no c3 and match q3 exactly (n3 never is c3).
    const golden = goldenSet([goldenQuery('q3', { expectedChunkIds: ['c3'] })]);
    const plain = (run: RunData): RunData => ({ ...run, chunks: null });
    const withC3 = again(mixedBase(), 'b2');
    const report = repeated(
      [plain(mixedBase()), withC3],
      [mixedCand('c1', [6, 10]), mixedCand('c2', [6, 10])],
      golden,
    ).report;
    expect(report.per_query.find((o) => o.query_id === 'q3')).toMatchObject({
      chunk_match: 'fallback_doc_span',
      candidate_rank: 1,
    });
    // Less than half covered: not met, as with one run per side.
    const narrow = repeated([plain(mixedBase()), withC3], [mixedCand('c1', [7, 10])], golden).report;
    expect(narrow.per_query.find((o) => o.query_id === 'q3')!.candidate_rank).toBeNull();
    expect(compareRuns(withC3, mixedCand('c1', [7, 10]), golden, OPTIONS).report.per_query[0]).toMatchObject({
      chunk_match: 'fallback_doc_span',
      candidate_rank: null,
    });
    // Without b2: q3 is matched exactly, and the candidate's n3 meets nothing.
    const alone = repeated([plain(mixedBase())], [mixedCand('c1', [6, 10])], golden).report;
    expect(alone.per_query[0].candidate_rank).toBeNull();
    expect(alone.chunk_match_queries).toBeUndefined(); // every query exact
  });

  it("an expected chunk in several runs' tables: the first run's entry, as compareRuns takes the baseline's", () => {
    // c3 is lines 1-10 in the baseline's table and lines 20-30 in the candidate's: the candidate's n3 (lines 1-10)
    // covers the baseline's c3, not its own.
    const golden = goldenSet([goldenQuery('q3', { expectedChunkIds: ['c3'] })]);
    const cand = runData('c1', [queryResult('q3', [mkHit(1, 'n3', 'D3')])], {
      config: { chunker_version: 'v2' },
      chunks: [chunk('c3', 'D3', [[20, 30]], 'v2'), chunk('n3', 'D3', [[1, 10]], 'v2')],
    });
    const single = compareRuns(mixedBase(), cand, golden, OPTIONS).report;
    expect(single.per_query[0].candidate_rank).toBe(1);
    expect(repeated([mixedBase('b1'), mixedBase('b2')], [cand], golden).report.per_query[0].candidate_rank).toBe(1);
  });

  it("one version: each run's expected chunks are matched exactly, even where its own table could match them by span", () => {
    const golden = goldenSet([goldenQuery('q3', { expectedChunkIds: ['c3'] })]);
    const run = (runId: string) =>
      runData(runId, [queryResult('q3', [mkHit(1, 'n3', 'D3')])], {
        config: { chunker_version: 'v1' },
        chunks: [chunk('c3', 'D3', [[1, 10]], 'v1'), chunk('n3', 'D3', [[1, 10]], 'v1')],
      });
    const single = compareRuns(run('b1'), run('c1'), golden, OPTIONS).report;
    expect(single.per_query[0].candidate_rank).toBeNull();
    expect(repeated([run('b1'), run('b2')], [run('c1')], golden).report.per_query[0].candidate_rank).toBeNull();
  });

  it('under --strict-chunker-version: refused, naming the runs and their versions, and saying the way out', () => {
    const message = inputError(() =>
      repeated([mixedBase('b1'), mixedBase('b2')], [mixedCand('c1')], mixedGolden(), {
        ...OPTIONS,
        strictChunkerVersion: true,
      }),
    );
    expect(message).toBe(
      'chunker_version differs between the runs compared (b1.sqlite run `b1`: v1; c1.sqlite run `c1`: v2) and ' +
        '--strict-chunker-version refuses to compare: chunk ids of different chunkers are not comparable ' +
        '(without it, expected chunks match by document)',
    );
    // A run whose version nothing says (no config key, no chunks table, none on its hits): unset.
    const bare = runData('b1', [queryResult('q1', [mkHit(1, 'old-1', 'D1')])]);
    expect(
      inputError(() => repeated([bare], [mixedCand('c1')], mixedGolden(), { ...OPTIONS, strictChunkerVersion: true })),
    ).toMatch(
      /^chunker_version differs between the runs compared \(b1\.sqlite run `b1`: unset; c1\.sqlite run `c1`: v2\)/,
    );
    // One version: strict changes nothing.
    const v1 = (run: RunData): RunData => ({ ...run, run: { ...run.run, chunkerVersion: 'v1' } });
    const strict = repeated([v1(mixedBase('b1')), v1(mixedBase('b2'))], [v1(mixedCand())], mixedGolden(), {
      ...OPTIONS,
      strictChunkerVersion: true,
    });
    expect(strict.report.chunker_version_match).toBe('exact');
  });
});

// Documents only: 30 queries, each expecting document D<i>. The baseline's runs (chunker v1) find it at rank 1;
// the re-chunked candidate's (v2, other chunk ids) at rank 2, but run r misses the queries with i % 3 === r.
const N = 30;
const docGolden = () =>
  goldenSet(Array.from({ length: N }, (_, i) => goldenQuery(`q${i}`, { expectedDocIds: [`D${i}`] })));
const docHits = (i: number, rank: number | null, prefix: string, version: string | null): Hit[] =>
  Array.from({ length: 3 }, (_, r) =>
    r + 1 === rank
      ? mkHit(r + 1, `${prefix}-${i}`, `D${i}`, { chunkerVersion: version })
      : mkHit(r + 1, `${prefix}-filler-${i}-${r}`, `F${r}`, { chunkerVersion: version }),
  );
function docRuns(side: 'b' | 'c', declared: boolean): RunData[] {
  const version = side === 'b' ? 'v1' : 'v2';
  return [0, 1, 2].map((r) =>
    runData(
      `${side}${r + 1}`,
      Array.from({ length: N }, (_, i) =>
        queryResult(
          `q${i}`,
          side === 'b' ? docHits(i, 1, 'old', version) : docHits(i, i % 3 === r ? null : 2, 'new', version),
        ),
      ),
      declared ? { config: { chunker_version: version } } : {},
    ),
  );
}

describe('a re-chunked candidate, 3 runs per side, a golden set of expected_doc_ids only', () => {
  for (const [how, declared] of [
    ['declared in config_snapshot_json', true],
    ['carried by the hits alone', false],
  ] as const)
    it(`compares (chunker versions ${how}), by document: the runs' means and proportions`, () => {
      const report = repeated(docRuns('b', declared), docRuns('c', declared), docGolden()).report;
      expect(report.chunker_version_match).toBe('fallback_doc');
      // Each query found in 2 of the candidate's 3 runs, at rank 2: per query hit@1 0, hit@3 2/3, RR 1/3.
      expect(report.metrics['hit@1']).toMatchObject({ baseline: 1, candidate: 0 });
      expect(report.metrics['hit@3'].candidate).toBeCloseTo(2 / 3, 12);
      expect(report.metrics['mrr@10'].candidate).toBeCloseTo(1 / 3, 12);
      // Stable in the baseline, the candidate's runs disagree: a loss in proportion, never flaky.
      expect(report.counts).toMatchObject({ loss: N, win: 0, draw: 0, regression: 0 });
      expect(report.flaky!.count).toBe(0);
    });

  it('one run per side: the report is the one compareRuns gives', () => {
    const [b] = docRuns('b', true);
    const [c] = docRuns('c', true);
    const single = compareRuns(b, c, docGolden(), OPTIONS).report;
    expect(single.chunker_version_match).toBe('fallback_doc');
    expect(repeated([b], [c], docGolden()).report).toEqual(single);
  });

  it('declared versions that differ: the runs after are opened, not scored exactly, before the fallback pass', () => {
    // Each run's results are read once per scoring: the baseline's 3 exactly (one version so far), then c1 declares
    // v2 and no more are scored exactly; the fallback pass scores all 6.
    const reads = new Map<string, number>();
    let opens = 0;
    let releases = 0;
    const counted = (run: RunData) => (): RunStream => {
      opens++;
      return {
        ...run,
        forEachResult(each) {
          reads.set(run.run.runId, (reads.get(run.run.runId) ?? 0) + 1);
          for (const r of run.results) each(r);
        },
        release() {
          releases++;
        },
      };
    };
    compareRepeatedRuns(docRuns('b', true).map(counted), docRuns('c', true).map(counted), docGolden(), OPTIONS);
    expect(Object.fromEntries(reads)).toEqual({ b1: 2, b2: 2, b3: 2, c1: 1, c2: 1, c3: 1 });
    // Every run opened is released: 6 in the exact pass (c1 to c3 opened, not scored), 6 in the fallback.
    expect([opens, releases]).toEqual([12, 12]);
    // One version, carried by the hits alone: one exact pass.
    reads.clear();
    const same = compareRepeatedRuns(
      docRuns('b', false).map(counted),
      docRuns('b', false).map(counted),
      docGolden(),
      OPTIONS,
    );
    expect(same.report.chunker_version_match).toBe('exact');
    expect([...reads.values()]).toEqual([2, 2, 2]); // b1, b2, b3 on both sides
    // Versions only the hits carry: known once a run is scored, so c1 is scored exactly too, c2 and c3 not.
    reads.clear();
    compareRepeatedRuns(docRuns('b', false).map(counted), docRuns('c', false).map(counted), docGolden(), OPTIONS);
    expect(Object.fromEntries(reads)).toEqual({ b1: 2, b2: 2, b3: 2, c1: 2, c2: 1, c3: 1 });
  });
});

// Settings: runs that record a seed, a start time and (in one run) another embedding model.
const settingsRun = (runId: string, config: Record<string, unknown>, golden: GoldenQuery[]) =>
  runData(
    runId,
    golden.map((q) => queryResult(q.id, [mkHit(1, `${q.id}-rel`)])),
    { config },
  );

describe("repeats.may_differ: the settings a side's repeats may differ in without a warning", () => {
  const golden = goldenSet([goldenQuery('q1', { expectedChunkIds: ['q1-rel'] })]);
  const runs = (side: string) => [
    settingsRun(`${side}1`, { seed: 1, started_at: '09:00', embedding_model: 'e1' }, golden.queries),
    settingsRun(`${side}2`, { seed: 2, started_at: '09:05', embedding_model: 'e1' }, golden.queries),
    settingsRun(`${side}3`, { seed: 3, started_at: '09:10', embedding_model: 'e2' }, golden.queries),
  ];
  const sides = (mayDiffer?: readonly string[]) =>
    repeated(runs('b'), runs('c').slice(0, 2), golden, OPTIONS, mayDiffer).report.repeats!;

  it('by default the seed alone: kept apart as expected, the others still differences', () => {
    expect(DEFAULT_MAY_DIFFER).toEqual(['seed']);
    const r = sides();
    expect(r.baseline).toEqual({
      runs: 3,
      run_ids: ['b1', 'b2', 'b3'],
      differences: ['embedding_model', 'started_at'],
      expected_differences: ['seed'],
    });
    expect(r.candidate).toEqual({
      runs: 2,
      run_ids: ['c1', 'c2'],
      differences: ['started_at'],
      expected_differences: ['seed'],
    });
  });

  it('the keys named, exactly: no other key is silenced, and none when the list is empty', () => {
    expect(sides(['seed', 'started_at']).baseline).toMatchObject({
      differences: ['embedding_model'],
      expected_differences: ['seed', 'started_at'],
    });
    const candidate = sides(['seed', 'started_at']).candidate;
    expect(candidate).toEqual({ runs: 2, run_ids: ['c1', 'c2'], expected_differences: ['seed', 'started_at'] });
    expect(sides([]).baseline).toEqual({
      runs: 3,
      run_ids: ['b1', 'b2', 'b3'],
      differences: ['embedding_model', 'seed', 'started_at'],
    });
    // A key named that no run differs in is not listed.
    expect(sides(['embedding_model', 'judge_model']).candidate).toEqual({
      runs: 2,
      run_ids: ['c1', 'c2'],
      differences: ['seed', 'started_at'],
    });
  });

  it('expected differences alone are no warning in the reports', () => {
    const report = repeated(runs('b'), runs('c').slice(0, 2), golden, OPTIONS, [
      'seed',
      'started_at',
      'embedding_model',
    ]).report as CompareReport;
    expect(repeatsDifferText(report)).toBeNull();
    const warned = repeated(runs('b'), runs('c').slice(0, 2), golden, OPTIONS).report as CompareReport;
    expect(repeatsDifferText(warned)).toBe(
      "the baseline's runs differ in embedding_model, started_at; the candidate's runs differ in started_at: repeats should be runs of one system",
    );
  });
});

describe('repeats.may_differ in the gate config', () => {
  it('reads a list, or one key alone; absent or empty `repeats` leaves the default', () => {
    expect(gates('repeats:\n  may_differ: [seed, started_at, seed]\n').repeatsMayDiffer).toEqual([
      'seed',
      'started_at',
    ]);
    expect(gates('repeats:\n  may_differ: started_at\n').repeatsMayDiffer).toEqual(['started_at']);
    expect(gates('repeats:\n  may_differ:\n').repeatsMayDiffer).toEqual([]);
    expect(gates('preset: retrieval\n').repeatsMayDiffer).toBeUndefined();
    expect(gates('repeats:\n').repeatsMayDiffer).toBeUndefined();
    expect(gates('repeats: {}\n').repeatsMayDiffer).toBeUndefined();
  });

  it('a misspelt key or a wrong shape is one message naming the line', () => {
    expect(gateConfigError('preset: retrieval\nrepeats:\n  may_diffr: [seed]\n')).toBe(
      'gates.yml:3: unknown `repeats` key `may_diffr`; did you mean `may_differ`?',
    );
    expect(gateConfigError('preset: retrieval\nrepeats: [seed]\n')).toBe(
      'gates.yml:2: `repeats` must be a map, e.g. `repeats: {may_differ: [seed, started_at]}`',
    );
    expect(gateConfigError('repeats:\n  may_differ:\n    - seed\n    - 3\n')).toBe(
      'gates.yml:4: `repeats.may_differ` lists config_snapshot_json keys (strings), got 3',
    );
    expect(gateConfigError('repeats:\n  may_differ: {seed: true}\n')).toBe(
      'gates.yml:2: `repeats.may_differ` lists config_snapshot_json keys (strings), got {"seed":true}',
    );
    expect(gateConfigError('repeat:\n  may_differ: [seed]\n')).toMatch(
      /^gates\.yml:2: unknown key `repeat`; did you mean `repeats`\?/,
    );
  });
});

describe('schemas/gate-config.schema.json and the reader agree on `repeats`', () => {
  const readerAccepts = (value: unknown) => {
    try {
      parseGateConfig(JSON.stringify(value), 'evalverdict.yml');
      return true;
    } catch (error) {
      if (error instanceof InputError) return false;
      throw error;
    }
  };
  const schemaAccepts = (value: unknown) => checkAgainstSchema(value, 'gate-config.schema.json').length === 0;
  it.each([
    ['a list of keys', { repeats: { may_differ: ['seed', 'started_at'] } }, true],
    ['one key', { repeats: { may_differ: 'seed' } }, true],
    ['an empty list', { repeats: { may_differ: [] } }, true],
    ['an empty `may_differ`', { repeats: { may_differ: null } }, true],
    ['an empty `repeats`', { repeats: null }, true],
    ['an empty map', { repeats: {} }, true],
    ['a misspelt key', { repeats: { may_diffr: ['seed'] } }, false],
    ['a list for the map', { repeats: ['seed'] }, false],
    ['a number among the keys', { repeats: { may_differ: ['seed', 3] } }, false],
    ['an empty key', { repeats: { may_differ: [''] } }, false],
    ['a map for the list', { repeats: { may_differ: { seed: true } } }, false],
  ])('%s', (_name, value, accepted) => {
    expect([schemaAccepts(value), readerAccepts(value)]).toEqual([accepted, accepted]);
  });
});

describe('through the CLI: a re-chunked candidate, 3 x 3 runs recording their seed and start time', () => {
  /** Documents only, as FOLDOC's known-item set: 40 queries, D<i> expected. */
  const M = 40;
  const golden = () =>
    `${Array.from({ length: M }, (_, i) => JSON.stringify({ id: `q${i}`, query: `term ${i}`, expected_doc_ids: [`D${i}`] })).join('\n')}\n`;
  const runsOf = (side: 'b' | 'c'): RunInput[] =>
    [0, 1, 2].map((r) => ({
      runId: `${side}${r + 1}`,
      suite: 'smoke',
      createdAt: `2026-11-0${side === 'b' ? 1 : 2}T0${r}:00:00Z`,
      config: { chunker_version: side === 'b' ? 'v1' : 'v2', seed: 100 + r, started_at: `0${r}:00` },
      results: Array.from({ length: M }, (_, i) =>
        result(`q${i}`, [
          hit(1, `${side}-${i}-a`, side === 'c' && i === r ? 'X' : `D${i}`),
          hit(2, `${side}-${i}-b`, 'F'),
        ] as Json[]),
      ),
    }));

  it('compares by document; the named keys warn nowhere and are listed as expected in the JSON', async () => {
    const dir = tempDir();
    const goldenPath = writeGolden(golden(), dir, 'golden.jsonl');
    const base = await writeRunDb({ runs: runsOf('b') }, `${dir}/base.sqlite`);
    const cand = await writeRunDb({ runs: runsOf('c') }, `${dir}/cand.sqlite`);
    const named = writeGolden('preset: retrieval\nrepeats:\n  may_differ: [seed, started_at]\n', dir, 'named.yml');
    const plain = writeGolden('preset: retrieval\n', dir, 'plain.yml');
    const args = ['compare', base, cand, '--golden', goldenPath, '--baseline-run', 'all', '--candidate-run', 'all'];
    const json = await runCli([...args, '--config', named, '--format', 'json']);
    expect(json.stderr).not.toMatch(/runs differ in|chunker_version differs/);
    expect(json.status).not.toBe(2);
    const report = JSON.parse(json.stdout) as Comparison;
    expect(report.chunker_version_match).toBe('fallback_doc');
    expect(report.repeats!.candidate).toEqual({
      runs: 3,
      run_ids: ['c1', 'c2', 'c3'],
      expected_differences: ['seed', 'started_at'],
    });
    // c1, c2, c3 each miss one query (q0, q1, q2): hit@1 of those 2/3, of the rest 1.
    expect(report.metrics['hit@1'].candidate).toBeCloseTo((M - 1) / M, 4);
    const md = await runCli([...args, '--config', named, '--format', 'markdown']);
    expect(md.stdout).toContain('Repeats: baseline 3 runs');
    expect(md.stdout).not.toContain("'s runs differ in");
    // The built-in default silences the seed alone: the start time still warns.
    const warned = await runCli([...args, '--config', plain, '--format', 'markdown']);
    expect(warned.stdout).toContain(
      "the baseline's runs differ in started\\_at; the candidate's runs differ in started\\_at",
    );
    const repeatsLine = warned.stdout.split('\n').find((line) => line.startsWith('Repeats:'));
    expect(repeatsLine).not.toContain('seed');
  });
});
