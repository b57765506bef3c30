/**
 * A history's text checked before it is parsed (issue 44): src/load/json.ts's jsonTextPast scans the characters
 * outside strings, and src/load/historyFile.ts refuses past its bounds at once. Before, JSON.parse built whatever the
 * 32 MiB held and the depth was checked on the value after: 32 MiB of nested brackets took seconds of CPU and
 * gigabytes. The work is bounded here by the CPU time of the reading process (process.cpuUsage), not the wall clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyHistory } from '../src/compare/historyTrend.js';
import type { History } from '../src/load/historyFile.js';
import { MAX_HISTORY_BYTES, parseHistory, readHistoryFile } from '../src/load/historyFile.js';
import { jsonTextPast, nestedDeeperThan } from '../src/load/json.js';
import type { JsonTextBounds } from '../src/load/json.js';
import { historyText } from '../src/write/historyWriter.js';

const scratch = mkdtempSync(join(tmpdir(), 'evalverdict-history-bounds-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** CPU time (user + system) `run` took in this process, in ms. */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The message `run` threw, and the CPU it took. */
function refusal(run: () => unknown): { message: string; ms: number } {
  let message = '(nothing thrown)';
  const ms = cpuMs(() => {
    try {
      run();
    } catch (error) {
      message = (error as Error).message;
    }
  });
  return { message, ms };
}

/** `unit` repeated to fill `bytes` between `open` and `close`. */
function filled(open: string, unit: string, close: string, bytes = MAX_HISTORY_BYTES): Buffer {
  const times = Math.floor((bytes - open.length - close.length) / unit.length);
  return Buffer.concat([Buffer.from(open), Buffer.alloc(times * unit.length, unit), Buffer.from(close)]);
}

// The scan stops at the fifth byte; what is left is turning the bytes into text. A bound well above that and far
// below what JSON.parse of such a file costs (docs/history.md has both).
const CPU_BOUND_MS = 400;

describe('a history of 32 MiB of nested brackets: refused at once, before JSON.parse', () => {
  const half = MAX_HISTORY_BYTES / 2;
  const deep = Buffer.concat([Buffer.alloc(half, '['), Buffer.alloc(half, ']')]);
  const depthMessage = (where: string) =>
    `${where}: the history nests deeper than 4 levels, which no history file does`;

  it('as the bytes the action takes from the baseline artifact', () => {
    expect(deep.length).toBe(MAX_HISTORY_BYTES); // at the size cap, not over it
    const { message, ms } = refusal(() => parseHistory(deep, "the baseline artifact's evalverdict-history.json"));
    expect(message).toBe(depthMessage("the baseline artifact's evalverdict-history.json"));
    expect(ms).toBeLessThan(CPU_BOUND_MS);
  });

  it('as a file (`evalverdict history`, `compare --history`, the action without an artifact)', () => {
    const file = join(scratch, 'deep.json');
    writeFileSync(file, deep);
    const { message, ms } = refusal(() => readHistoryFile(file));
    expect(message).toBe(depthMessage(file));
    expect(ms).toBeLessThan(CPU_BOUND_MS);
  });

  it('as text, and objects as arrays are', () => {
    const text = `${'{"a":'.repeat(half / 5)}1${'}'.repeat(half / 5)}`;
    const { message, ms } = refusal(() => parseHistory(text, 'f'));
    expect(message).toBe(depthMessage('f'));
    expect(ms).toBeLessThan(CPU_BOUND_MS);
  });
});

describe('32 MiB of small values, shallow: refused by count before JSON.parse', () => {
  const cases: Array<[string, Buffer, string]> = [
    ['empty lists', filled('[', '[],', '[]]'), 'f: the history holds more than 1000 lists and objects'],
    ['empty objects', filled('[', '{},', '{}]'), 'f: the history holds more than 1000 lists and objects'],
    ['keys of one object', filled('{', '"":0,', '"":0}'), "f: the history's objects hold more than 20000 keys"],
    ['numbers', filled('[', '0,', '0]'), 'f: the history holds more than 1100000 values'],
    ['empty strings', filled('[', '"",', '""]'), 'f: the history holds more than 1100000 values'],
  ];
  it.each(cases)('%s', (_what, bytes, message) => {
    expect(bytes.length).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    const refused = refusal(() => parseHistory(bytes, 'f'));
    expect(refused.message).toBe(`${message}, which no history file does`);
    expect(refused.ms).toBeLessThan(CPU_BOUND_MS);
  });
});

describe('what the scan does not refuse', () => {
  const run = (i: number, outcomes: string) => ({
    run_id: `main-${i} [[[[[ {{{{ "quoted" \\ \\" ]]]] :,:,`,
    commit: null,
    time: `2026-11-0${i + 1}T00:00:00Z`,
    golden: 'g"[{',
    metrics: { 'hit@5': 0.5, '[[[[': null, '\\"{{{{': 1 },
    outcomes,
  });

  it('brackets, braces, quotes, backslashes, colons and commas inside strings: read as before', () => {
    const history: History = {
      ...emptyHistory(50),
      queries: ['[[[[[[', '"{{{{{{"', '\\', '\\"[[[[', ':,:,:,'],
      runs: Array.from({ length: 50 }, (_, i) => run(i % 9, 'hm-hm')),
    };
    const text = historyText(history);
    expect(parseHistory(text, 'f')).toEqual(history);
    expect(parseHistory(Buffer.from(text), 'f')).toEqual(history);
  });

  it('a history of 50 runs of 100,000 queries, each with 200 metrics', () => {
    const queries = Array.from({ length: 100_000 }, (_, i) => `q${i}`);
    const metrics = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`m${i}`, i / 7]));
    const history: History = {
      ...emptyHistory(50),
      queries,
      runs: Array.from({ length: 50 }, (_, i) => ({ ...run(i % 9, 'h'.repeat(100_000)), metrics })),
    };
    expect(parseHistory(historyText(history), 'f')).toEqual(history);
  });

  it('4 levels, the most a history nests, even beside an unknown field; 5 are refused', () => {
    const valid = historyText(emptyHistory());
    expect(parseHistory(valid.replace('{', '{"extra": [[[1]]],'), 'f')).toEqual(emptyHistory());
    expect(() => parseHistory(valid.replace('{', '{"extra": [[[[1]]]],'), 'f')).toThrow(/nests deeper than 4/);
  });

  it('text that is not JSON: JSON.parse says so, unless it nests too deep first', () => {
    expect(() => parseHistory('{"schema_version": 1, "queries": "[[[[[[', 'f')).toThrow(/^f: the history is not JSON/);
    expect(() => parseHistory('{"a": x', 'f')).toThrow(/^f: the history is not JSON/);
    expect(() => parseHistory('[[[[[', 'f')).toThrow(/^f: the history nests deeper than 4 levels/);
  });
});

describe('jsonTextPast agrees with the parsed value', () => {
  const unbounded: JsonTextBounds = { depth: Infinity, containers: Infinity, keys: Infinity, commas: Infinity };
  const nasty = fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', '\\"', '\\\\', 'a', 'é', '\u2028', '\n');
  const text = fc.array(nasty, { maxLength: 8 }).map((parts) => parts.join(''));
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  })).value;

  /** Containers, keys and commas counted on the value: the oracle. */
  function counts(value: unknown): { containers: number; keys: number; commas: number } {
    const total = { containers: 0, keys: 0, commas: 0 };
    const walk = (v: unknown): void => {
      if (typeof v !== 'object' || v === null) return;
      const children = Array.isArray(v) ? v : Object.values(v);
      total.containers++;
      if (!Array.isArray(v)) total.keys += children.length;
      total.commas += Math.max(0, children.length - 1);
      children.forEach(walk);
    };
    walk(value);
    return total;
  }

  it('depth as nestedDeeperThan, and the counts, for any JSON value, compact or indented', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 2), (value, indent) => {
        const serialised = JSON.stringify(value, null, indent);
        for (let limit = 0; limit <= 6; limit++) {
          const past = jsonTextPast(serialised, { ...unbounded, depth: limit });
          expect(past === 'depth').toBe(nestedDeeperThan(value, limit));
        }
        const { containers, keys, commas } = counts(value);
        for (const [bound, count] of [
          ['containers', containers],
          ['keys', keys],
          ['commas', commas],
        ] as const) {
          expect(jsonTextPast(serialised, { ...unbounded, [bound]: count })).toBeNull();
          if (count > 0) expect(jsonTextPast(serialised, { ...unbounded, [bound]: count - 1 })).toBe(bound);
        }
      }),
      { numRuns: 500, seed: 44 },
    );
  });
});
