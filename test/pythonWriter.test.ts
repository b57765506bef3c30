/**
 * The Python run-database writer (clients/python): its own unittest suite, run here so `npm test` covers it; and
 * the writer against EvalVerdict's reader on one hostile corpus (clients/python/tests/reader_agreement.py): whatever
 * the reader refuses, the writer refuses when it is written, in the reader's words, and whatever the writer writes
 * the reader reads. It needs python3 (3.8 or newer); without one the suite skips and says so, and CI (which has
 * python3) runs it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneLine } from '../src/inputText.js';
import * as json from '../src/load/json.js';
import { MAX_ID_BYTES, readResultRow } from '../src/load/queryResult.js';
import { MAX_VALUE_BYTES, readRunDatabase } from '../src/load/runDatabase.js';
import { RUN_TIME_FORM } from '../src/time.js';
import { repoRoot } from './shared.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
if (!hasPython && process.env.CI) throw new Error('python3 is missing: CI must run the Python writer tests');
if (!hasPython) console.warn('skipping: python3 not found (clients/python tests need it)');

function python(args: string[]) {
  return spawnSync('python3', args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 << 20 });
}

describe.skipIf(!hasPython)('clients/python: the run-database writer', () => {
  it('passes its unittest suite', () => {
    const run = python(['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-v']);
    expect(run.status, run.stderr).toBe(0);
    // unittest prints "Ran N tests" and "OK": a suite that found no test would print "Ran 0 tests".
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
    expect(run.stderr).toMatch(/\nOK\n/);
  });

  it("has the reader's limits: one source, the reader's constants", () => {
    const run = python([
      '-c',
      'import json, sys; sys.path.insert(0, "clients/python"); import evalverdict_writer as w; ' +
        'print(json.dumps([w.MAX_ID_BYTES, w.MAX_VALUE_BYTES, w.MAX_JSON_DEPTH, w.RUN_TIME_FORM, ' +
        'w.JSON_SCAN_FROM_CHARS, w.JSON_VALUE_BOUNDS]))',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const [ids, values, depth, timeForm, scanFrom, bounds] = JSON.parse(run.stdout);
    expect([ids, values, depth, timeForm]).toEqual([MAX_ID_BYTES, MAX_VALUE_BYTES, json.MAX_JSON_DEPTH, RUN_TIME_FORM]);
    // The bounds on a long JSON text (src/load/json.ts), where the reader has them.
    const reader = json as Record<string, unknown>;
    if (reader.JSON_VALUE_BOUNDS !== undefined) {
      expect(scanFrom).toBe(reader.JSON_SCAN_FROM_CHARS);
      expect({ depth, ...bounds }).toEqual(reader.JSON_VALUE_BOUNDS);
    }
  });
});

/** One case of the corpus, as reader_agreement.py prints it. */
interface Case {
  name: string;
  level: 'result' | 'db';
  query_id?: string;
  /** The writer's refusal (`RunFormatError: ...`), or null when it wrote the case. */
  writer: string | null;
  /** The refusal without the run or query it names. */
  detail: string | null;
  /** result_json as written without checks (level result). */
  raw?: string | null;
  /** The database written without checks (level db), null when SQLite could not hold it. */
  db?: string | null;
  /** False where the writer's words cannot be the reader's (it names a Python type the reader never sees). */
  words: boolean;
}

/** The reader's refusal of a case (its message), null when it reads it, undefined when there is nothing to read. */
async function readerVerdict(c: Case): Promise<string | null | undefined> {
  try {
    if (c.level === 'result') {
      if (c.raw === null || c.raw === undefined) return undefined;
      readResultRow('case.sqlite', 'accepted', c.query_id!, c.raw);
    } else {
      if (c.db === null || c.db === undefined) return undefined;
      await readRunDatabase(c.db);
    }
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe.skipIf(!hasPython)('the Python writer and the reader on one hostile corpus', () => {
  let dir: string;
  let cases: Case[];
  let verdicts: Array<string | null | undefined>;
  let written: { accepted_results: string; accepted_runs: string; results: number; runs: string[] };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evalverdict-pywriter-'));
    const run = python(['clients/python/tests/reader_agreement.py', dir]);
    if (run.status !== 0) throw new Error(`reader_agreement.py failed: ${run.stderr}`);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    written = lines.pop();
    cases = lines;
    verdicts = [];
    for (const c of cases) verdicts.push(await readerVerdict(c));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the writer refuses whatever the reader refuses, in the same words', () => {
    const letThrough: string[] = [];
    const otherWords: string[] = [];
    let compared = 0;
    cases.forEach((c, i) => {
      const reader = verdicts[i];
      if (reader === undefined) {
        // Nothing the reader could read (bytes in JSON, a NULL suite): the writer must refuse it too.
        if (c.writer === null) letThrough.push(`${c.name}: SQLite or JSON could not hold it, the writer wrote it`);
        return;
      }
      if (reader === null) return;
      if (c.writer === null) letThrough.push(`${c.name}: the reader says ${reader}`);
      // NaN and Infinity are no JSON: the reader can only call the text malformed; the writer names the field.
      else if (c.words && !/malformed JSON/.test(reader) && compared++ >= 0 && !reader.endsWith(oneLine(c.detail!)))
        otherWords.push(`${c.name}:\n  writer: ${c.detail}\n  reader: ${reader}`);
    });
    expect(letThrough).toEqual([]);
    expect(otherWords).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  });

  it("the corpus holds the issue's cases, each refused by both, and many more", () => {
    const refusedByBoth = (name: string) => {
      const i = cases.findIndex((c) => c.name === name);
      expect(i, name).not.toBe(-1);
      expect(cases[i].writer, name).not.toBeNull();
      expect(verdicts[i], name).toEqual(expect.any(String));
      return cases[i].writer;
    };
    expect(refusedByBoth('full elapsed_ms = nan')).toMatch(/: `elapsed_ms` must be a finite number, got number NaN$/);
    refusedByBoth('full hits_top_k[0].score = inf');
    refusedByBoth('full cost_usd = -inf');
    refusedByBoth('config {"x": NaN}');
    expect(refusedByBoth("run_id b'r1'")).toContain("run_id is a BLOB (x'7231'), not text that result rows can name");
    expect(refusedByBoth("created_at 'yesterday'")).toContain('created_at "yesterday" is not an RFC 3339 time');
    expect(refusedByBoth('full hits_top_k[0].rank = True')).toContain(
      '`hits_top_k[0].rank` must be an integer, got boolean true',
    );
    expect(refusedByBoth('run_id of 600 emoji')).toContain('column `run_id` holds 2400 bytes, more than the 1024');
    refusedByBoth('answer.usage nested 99 lists');
    const both = cases.filter((c, i) => c.writer !== null && typeof verdicts[i] === 'string').length;
    const readerOnly = verdicts.filter((v) => v === null).length;
    expect(both).toBeGreaterThan(1000);
    expect(readerOnly).toBeGreaterThan(1000);
  });

  it('what the writer accepts, the reader reads: every accepted result and every accepted run', async () => {
    const results = await readRunDatabase(written.accepted_results);
    expect(results.results.length).toBe(written.results);
    expect(written.results).toBe(cases.filter((c) => c.level === 'result' && c.writer === null).length);
    expect(written.runs.length).toBeGreaterThan(20);
    // The default pick reads every run's created_at; then each run by its id.
    await expect(readRunDatabase(written.accepted_runs)).resolves.toBeTruthy();
    for (const runId of written.runs) {
      const run = await readRunDatabase(written.accepted_runs, runId);
      expect(run.run.runId).toBe(runId);
      expect(run.results.length).toBe(1);
    }
  });
});
