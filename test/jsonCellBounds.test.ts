/**
 * A run database's JSON cells, and a golden set's long JSON Lines lines, checked on their text before they are parsed
 * (src/load/json.ts JSON_VALUE_BOUNDS, from JSON_SCAN_FROM_CHARS on). Before, JSON.parse built whatever a cell of up
 * to 64 MiB held and the depth was checked on the value after: 64 MiB of nested brackets in result_json took the CLI
 * 14 s of CPU and 3.4 GB, and the same brackets after `hits_top_k` were read by the fast reader (whose JSON.parse of
 * the members after the hits saw no depth check) and accepted after 32 s and 5.4 GB. The work is bounded here by the
 * CPU time of this process (process.cpuUsage), not the wall clock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGoldenFile } from '../src/load/golden.js';
import { JSON_SCAN_FROM_CHARS, JSON_VALUE_BOUNDS, jsonTextPast } from '../src/load/json.js';
import type { JsonTextBounds } from '../src/load/json.js';
import { readResultRow } from '../src/load/queryResult.js';
import { readRunDatabase } from '../src/load/runDatabase.js';
import {
  editDb,
  hit,
  RawResult,
  removeTempDirs,
  result,
  runCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';

afterAll(removeTempDirs);

const MiB = 1 << 20;

/** CPU time (user + system) `run` took in this process, in ms, and what it returned. */
async function cpuMs<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const before = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000 };
}

/** `unit` repeated to make the text about `bytes` long between `open` and `close`. */
function filled(open: string, unit: string, close: string, bytes: number): string {
  return `${open}${unit.repeat(Math.floor((bytes - open.length - close.length) / unit.length))}${close}`;
}

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A row the fast reader takes: hits, then `x` (an unknown key) holding `value`, read by its JSON.parse. */
const afterHits = (value: string) => `{"hits_top_k":[{"rank":1,"chunk_id":"c1"}],"x":${value}}`;

const GOLDEN =
  '- id: q0\n  query: zero\n  expected_chunk_ids: [c1]\n- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n';

/** A run database of run `r`: q0 ordinary, q1 holding `text` as its result_json verbatim. */
function runWithResult(text: string): Promise<string> {
  return writeRunDb({ runs: [{ runId: 'r', results: [result('q0', [hit(1, 'c1')]), new RawResult('q1', text)] }] });
}

const resultWhere = (file: string) =>
  `${file}: table \`eval_query_results\`, run \`r\`, query \`q1\`, column \`result_json\``;
const depthMessage = (where: string) => `${where}: JSON nested more than 100 levels deep`;
const boundMessage = (where: string, what: string) =>
  `${where}: JSON holds more than ${what}, the most EvalVerdict reads in one value`;

// The scan stops at the 101st bracket; what is left is reading the 32 MiB value out of SQLite into a string (the
// whole command 45-110 ms of CPU here). Without the scan, these tests took 6 s of CPU and more.
const CPU_BOUND_MS = 1_500;
// The golden line: 12-36 ms with the scan, ~2 s without.
const GOLDEN_CPU_BOUND_MS = 500;

describe('32 MiB of nested brackets as result_json: exit 2 at once, naming the row and column', () => {
  const cases: Array<[string, string]> = [
    ['read by JSON.parse (not an object, so not the fast reader)', nested(16 * MiB)],
    ['after the hits, where the fast reader used to accept it', afterHits(nested(16 * MiB - 30))],
  ];
  it.each(cases)('%s', async (_how, text) => {
    const file = await runWithResult(text);
    const golden = writeGolden(GOLDEN);
    const { value: run, ms } = await cpuMs(() => runCli(['aggregate', file, '--golden', golden]));
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`evalverdict: ${depthMessage(resultWhere(file))}\n`);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(ms).toBeLessThan(CPU_BOUND_MS);
  });
});

describe("every JSON cell past a bound: refused before it is parsed, in the cell's words", () => {
  const size = 3 * MiB;
  const lists = filled('[', '[],', '[]]', size);
  const cases: Array<[string, string, (file: string) => string]> = [
    ['1,000,000 lists as result_json', lists, (f) => boundMessage(resultWhere(f), '500,000 lists and objects')],
    [
      'objects after the hits',
      afterHits(filled('[', '{},', '{}]', size)),
      (f) => boundMessage(resultWhere(f), '500,000 lists and objects'),
    ],
    [
      'keys of timings_ms',
      `{"hits_top_k":[],"timings_ms":${filled('{', '"":0,', '"":0}', size)}}`,
      (f) => boundMessage(resultWhere(f), '500,000 object keys'),
    ],
    [
      'numbers after the hits',
      afterHits(filled('[', '0,', '0]', size)),
      (f) => boundMessage(resultWhere(f), '1,000,000 values'),
    ],
    [
      '101 levels after the hits, in a row long enough to be scanned',
      afterHits(`[${'"x",'.repeat(MiB / 4)}${nested(99)}]`),
      (f) => depthMessage(resultWhere(f)),
    ],
  ];
  it.each(cases)('result_json: %s', async (_what, text, message) => {
    const file = await runWithResult(text);
    await expect(readRunDatabase(file)).rejects.toThrow(message(file));
  });

  const runWhere = (file: string, column: string) => `${file}: table \`eval_runs\`, run \`r\`, column \`${column}\``;
  it('eval_runs.config_snapshot_json', async () => {
    const column = 'config_snapshot_json';
    const file = await runWithResult(JSON.stringify(result('q1', [hit(1, 'c1')])));
    await editDb(file, (db) => db.run(`UPDATE eval_runs SET ${column} = ?`, [lists]));
    await expect(readRunDatabase(file)).rejects.toThrow(
      boundMessage(runWhere(file, column), '500,000 lists and objects'),
    );
  });

  it('eval_runs.aggregate_json past the bounds is not read: no recorded golden set, no refusal', async () => {
    // EvalVerdict's own aggregate for a golden set of thousands of breakdown groups can pass 500,000 keys; the
    // column only ever gives the golden set it was computed on, so it is left unread rather than refused.
    const file = await runWithResult(JSON.stringify(result('q1', [hit(1, 'c1')])));
    await editDb(file, (db) => db.run('UPDATE eval_runs SET aggregate_json = ?', [lists]));
    const cpu = process.cpuUsage();
    const db = await readRunDatabase(file);
    const used = process.cpuUsage(cpu);
    expect(db.run.recordedGoldenFingerprint ?? null).toBeNull();
    expect(db.results.length).toBeGreaterThan(0);
    expect((used.user + used.system) / 1e6).toBeLessThan(1.5);
  });

  it.each(['heading_path_json', 'source_spans_json'])('chunks.%s', async (column) => {
    const file = await writeRunDb({
      runs: [{ runId: 'r', results: [result('q0', [hit(1, 'c1')])] }],
      chunks: [{ chunkId: 'c1', docId: 'd1', text: 'one' }],
    });
    await editDb(file, (db) => db.run(`UPDATE chunks SET ${column} = ?`, [lists]));
    const where = `${file}: table \`chunks\`, chunk \`c1\`, column \`${column}\``;
    await expect(readRunDatabase(file)).rejects.toThrow(boundMessage(where, '500,000 lists and objects'));
  });
});

describe('a golden set line of 10 MB', () => {
  it('of nested brackets: refused at once, naming file and line', async () => {
    const file = join(tempDir(), 'golden.jsonl');
    writeFileSync(file, `{"id":"q0","query":"zero"}\n${nested(5_000_000)}\n`);
    const { value: message, ms } = await cpuMs(async () => {
      try {
        readGoldenFile(file);
        return '(nothing thrown)';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toBe(
      `${file}:2: JSON holds more than 500,000 lists and objects, the most EvalVerdict reads in one line`,
    );
    expect(ms).toBeLessThan(GOLDEN_CPU_BOUND_MS);
  });

  it('of 150,000 expected chunk ids: read as before', () => {
    const dir = tempDir();
    const ids = Array.from({ length: 150_000 }, (_, i) => `chunk-${i}`);
    const file = join(dir, 'golden.jsonl');
    const line = JSON.stringify({ id: 'q0', query: 'zero', expected_chunk_ids: ids, tags: ['x'.repeat(MiB)] });
    expect(line.length).toBeGreaterThanOrEqual(JSON_SCAN_FROM_CHARS);
    writeFileSync(file, `${line}\n`);
    expect(readGoldenFile(file).queries[0]?.expectedChunkIds).toEqual(ids);
  });
});

describe('what the bounds leave alone', () => {
  const kebabHit = (i: number) => ({
    rank: i + 1,
    chunk_id: `c${i}`,
    doc_id: 'd7',
    doc_path: 'docs/wings.md',
    heading_path: ['Wings', 'Flutter'],
    snippet: 'flutter',
    score: 12.3,
    citation: { kind: 'line', path: 'docs/wings.md', start: 10, end: 24 },
    chunker_version: 'v2',
  });
  const half: JsonTextBounds = {
    depth: JSON_VALUE_BOUNDS.depth,
    containers: JSON_VALUE_BOUNDS.containers / 2,
    keys: JSON_VALUE_BOUNDS.keys / 2,
    commas: JSON_VALUE_BOUNDS.commas / 2,
  };

  it('the largest results the tests read hold less than half of each bound (src/load/json.ts)', () => {
    const tenThousand = JSON.stringify(
      result(
        'q1',
        Array.from({ length: 10_000 }, (_, i) => kebabHit(i)),
      ),
    );
    const manyCitations = JSON.stringify({
      hits_top_k: Array.from({ length: 60_000 }, (_, i) => ({ rank: i + 1, chunk_id: `k${i}`, doc_id: 'd1' })),
      answer: {
        answer: 'a',
        grounded: true,
        citations: Array.from({ length: 60_000 }, (_, i) => ({ chunk_id: `x${i}` })),
      },
    });
    const stages = JSON.stringify({
      ...result('q1', [hit(1, 'c1')]),
      timings_ms: Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`s${i}`, i])),
    });
    for (const text of [tenThousand, manyCitations, stages]) {
      expect(text.length).toBeGreaterThanOrEqual(JSON_SCAN_FROM_CHARS);
      expect(jsonTextPast(text, half)).toBeNull();
    }
  });

  it('a result of 10,000 hits (scanned, then read by the fast reader) and 100 levels deep', () => {
    const value = {
      ...result(
        'q1',
        Array.from({ length: 10_000 }, (_, i) => kebabHit(i)),
      ),
      x: JSON.parse(nested(99)),
    };
    const text = JSON.stringify(value);
    expect(text.length).toBeGreaterThanOrEqual(JSON_SCAN_FROM_CHARS);
    const read = readResultRow('f', 'r', 'q1', text);
    expect(read.hits).toHaveLength(10_000);
    expect(read.hits[9_999]?.chunkId).toBe('c9999');
  });

  it('a text below JSON_SCAN_FROM_CHARS is not scanned: too deep, it is refused after JSON.parse', () => {
    const text = nested(101);
    expect(text.length).toBeLessThan(JSON_SCAN_FROM_CHARS);
    expect(() => readResultRow('f', 'r', 'q1', text)).toThrow(depthMessage(resultWhere('f')));
  });
});
