/**
 * Bad run databases through the CLI (runMain, what the bin runs, called in this process; the bin as a child process
 * is tested in compare.test.ts, cli.test.ts and inputErrors.test.ts): exit code 2, a message naming file, table,
 * run and query where they apply, and never a stack trace.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { readRunDatabase } from '../src/load/runDatabase.js';
import { runTime } from '../src/time.js';
import { FileBackedBytes } from '../src/load/sqlite.js';
import {
  editDb,
  hit,
  RawResult,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';
import type { CliResult, Json } from './helpers/runDb.js';

afterAll(removeTempDirs);

const GOLDEN = '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n';

function expectInputError(res: CliResult, ...parts: string[]): void {
  expect(res.stderr).not.toMatch(STACK_LINE);
  expect(res.stderr).not.toContain('internal error');
  expect(res.stderr.startsWith('evalverdict: ')).toBe(true);
  for (const part of parts) expect(res.stderr).toContain(part);
  expect(res.status).toBe(2);
  expect(res.stdout).toBe('');
}

/** A run database with run r1 whose q1 result has the given hits (or raw result_json). */
async function dbWith(q1: Json | RawResult, extra: Json[] = []): Promise<string> {
  return writeRunDb({ runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results: [q1, ...extra] }] });
}

async function aggregate(db: string, ...more: string[]): Promise<CliResult> {
  return runCli(['aggregate', db, '--golden', writeGolden(GOLDEN), ...more]);
}

describe.concurrent('schema', () => {
  it('missing table eval_query_results', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.exec('DROP TABLE eval_query_results'));
    expectInputError(await aggregate(db), `${db}: missing table \`eval_query_results\``);
  });

  it('missing table eval_runs', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.exec('DROP TABLE eval_runs'));
    expectInputError(await aggregate(db), `${db}: missing table \`eval_runs\``);
  });

  it('missing column', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.exec('ALTER TABLE eval_query_results RENAME COLUMN result_json TO result'));
    expectInputError(await aggregate(db), `${db}: table \`eval_query_results\` has no column \`result_json\``);
  });
});

describe.concurrent('JSON cells', () => {
  it('malformed result_json', async () => {
    const db = await dbWith(new RawResult('q1', '{"query_id": "q1", "hits_top_k": ['));
    expectInputError(
      await aggregate(db),
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`, column \`result_json\`: malformed JSON (`,
    );
  });

  it('malformed config_snapshot_json', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.run("UPDATE eval_runs SET config_snapshot_json = '{not json' WHERE run_id = 'r1'"));
    expectInputError(
      await aggregate(db),
      `${db}: table \`eval_runs\`, run \`r1\`, column \`config_snapshot_json\`: malformed JSON (`,
    );
  });
});

describe.concurrent('ranks', () => {
  const where = (db: string, q = 'q1') => `${db}: table \`eval_query_results\`, run \`r1\`, query \`${q}\`: `;

  it('missing', async () => {
    // second hit (index 1) has no rank; q0 is fine and sorts first, so the message must name q1
    const db = await dbWith(result('q1', [hit(1, 'c1'), hit(undefined, 'c2')]), [result('q0', [hit(1, 'c1')])]);
    expectInputError(await aggregate(db), `${where(db)}\`hits_top_k[1].rank\` is missing`);
  });

  it('not an integer (1.5)', async () => {
    const db = await dbWith(result('q1', [hit(1.5, 'c1')]));
    expectInputError(await aggregate(db), `${where(db)}\`hits_top_k[0].rank\` must be an integer, got number 1.5`);
  });

  it('below 1', async () => {
    const db = await dbWith(result('q1', [hit(0, 'c1')]));
    expectInputError(await aggregate(db), `${where(db)}\`hits_top_k[0].rank\` must be >= 1, got 0`);
  });

  it('repeated within a query', async () => {
    const db = await dbWith(result('q1', [hit(2, 'c1'), hit(1, 'c2'), hit(2, 'c3')]));
    expectInputError(await aggregate(db), `${where(db)}\`hits_top_k[2].rank\` repeats rank 2 within the query`);
  });
});

describe.concurrent('rows and runs', () => {
  it('a result whose run_id has no eval_runs row', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => {
      d.run(
        "INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES ('ghost', 'q8', '{}'), ('ghost', 'q7', '{}')",
      );
    });
    // the first (by query_id) of ghost's two results is q7
    expectInputError(
      await aggregate(db),
      `${db}: table \`eval_query_results\`, run \`ghost\`, query \`q7\`: the run has no row in \`eval_runs\``,
    );
  });
});

describe.concurrent('files that are not run databases', () => {
  it('not SQLite', async () => {
    const file = join(tempDir(), 'notes.sqlite');
    writeFileSync(file, 'these are plain text notes, not a database\n'.repeat(10));
    expectInputError(await aggregate(file), `${file}: not a SQLite database`);
  });

  it('empty', async () => {
    const file = join(tempDir(), 'empty.sqlite');
    writeFileSync(file, '');
    expectInputError(await aggregate(file), `${file}: the run database is empty (0 bytes)`);
  });

  it('truncated', async () => {
    const results = Array.from({ length: 60 }, (_, i) =>
      result(`q${i}`, [hit(1, 'c1', 'd1', { snippet: 'x'.repeat(300) })]),
    );
    const full = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const bytes = readFileSync(full);
    expect(bytes.length).toBeGreaterThan(8192);
    for (const cut of [bytes.length - 1, Math.floor(bytes.length / 2)]) {
      const file = join(tempDir(), `cut-${cut}.sqlite`);
      writeFileSync(file, bytes.subarray(0, cut));
      expectInputError(await aggregate(file), `${file}: unreadable SQLite database (`);
    }
  });
});

describe.concurrent('golden set', () => {
  it('a duplicate golden id names file:line', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    const golden = writeGolden('- id: q1\n  query: one\n- id: q1\n  query: again\n');
    // the second `id: q1` is on line 3
    expectInputError(
      await runCli(['aggregate', db, '--golden', golden]),
      `${golden}:3: query \`q1\`: duplicate id (first defined at line 1)`,
    );
  });
});

/** Further bad input, checked in process (the exit-2 mapping of InputError is covered above). */
describe('more bad input (in process)', () => {
  async function loadError(file: string, runId?: string): Promise<string> {
    try {
      await readRunDatabase(file, runId);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as Error).message;
    }
    throw new Error('expected an InputError');
  }

  it('result_json that is not an object', async () => {
    const db = await dbWith(new RawResult('q1', '[1, 2]'));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`result_json\` must be a JSON object, got a list`,
    );
  });

  it('a field of the wrong type inside the answer', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')], { answer: { answer: 'x', citations: [], grounded: 'yes' } }));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`answer.grounded\` must be true or false, got "yes"`,
    );
  });

  it('a judge score off the 0-5 scale (a 1-10 judge would move the means without a sign)', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')], { judge: { groundedness: 4, correctness: 8 } }));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`judge.correctness\` must be a score from 0 to 5, got 8`,
    );
    const spot = await dbWith(
      result('q1', [hit(1, 'c1')], { judge: { groundedness: 5, spot_check: { groundedness: -1 } } }),
    );
    expect(await loadError(spot)).toBe(
      `${spot}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`judge.spot_check.groundedness\` must be a score from 0 to 5, got -1`,
    );
    // the ends of the scale are scores
    const ends = await dbWith(
      result('q1', [hit(1, 'c1')], {
        judge: { groundedness: 0, correctness: 5, spot_check: { groundedness: 0.5, correctness: 5 } },
      }),
    );
    expect((await readRunDatabase(ends)).results[0].judge).toMatchObject({
      groundedness: 0,
      correctness: 5,
      spotCheckGroundedness: 0.5,
      spotCheckCorrectness: 5,
    });
  });

  it('a negative time, cost or token count, and timings_ms that is not an object', async () => {
    const cases: Array<[Json, string]> = [
      [{ elapsed_ms: -3 }, '`elapsed_ms` must be a number >= 0, got -3'],
      [{ timings_ms: { retrieval: 5, generation: -1 } }, '`timings_ms.generation` must be a number >= 0, got -1'],
      [{ cost_usd: -0.5 }, '`cost_usd` must be a number >= 0, got -0.5'],
      [
        { answer: { answer: 'x', citations: [], grounded: true, usage: { prompt_tokens: 10, completion_tokens: -2 } } },
        '`answer.usage.completion_tokens` must be a number >= 0, got -2',
      ],
      [{ timings_ms: [5, 7] }, '`timings_ms` must be an object of stage: milliseconds, got a list'],
    ];
    for (const [extra, message] of cases) {
      const db = await dbWith(result('q1', [hit(1, 'c1')], extra));
      expect(await loadError(db)).toBe(`${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: ${message}`);
    }
  });

  it('a null rank counts as missing', async () => {
    const db = await dbWith(result('q1', [hit(null, 'c1')]));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`hits_top_k[0].rank\` is missing`,
    );
  });

  it('a created_at that is not a time', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.run("UPDATE eval_runs SET created_at = 'yesterday'"));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_runs\`, run \`r1\`: created_at "yesterday" is not an RFC 3339 time (such as 2026-11-22T10:00:00Z; without a zone, UTC)`,
    );
    // what Date.parse would take but is no RFC 3339 time: refused too
    for (const text of [
      'Sun Nov 22 2026',
      '1',
      '2026-11-22T10:00:00 GMT',
      '2026-02-30T00:00:00Z',
      '2026-11-22T24:00:00Z',
    ]) {
      await editDb(db, (d) => d.run('UPDATE eval_runs SET created_at = ?', [text]));
      expect(await loadError(db)).toContain(`created_at ${JSON.stringify(text)} is not an RFC 3339 time`);
    }
  });

  it('created_at: the instant, the same in every time zone (a time without a zone is UTC, as SQLite writes CURRENT_TIMESTAMP)', () => {
    expect(runTime('2026-11-22T10:00:00Z')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(runTime('2026-11-22 10:00:00')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(runTime('2026-11-22t10:00')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(runTime('2026-11-22')).toBe(Date.UTC(2026, 10, 22));
    expect(runTime('2026-11-22T11:30:00+01:30')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(runTime('2026-11-22T08:00:00-02:00')).toBe(Date.UTC(2026, 10, 22, 10));
    // fractions below a millisecond still order two runs
    expect(runTime('2026-11-22T10:00:00.0000015Z')! > runTime('2026-11-22T10:00:00.000001Z')!).toBe(true);
    expect(runTime('2026-11-22T10:00:00.25Z')).toBe(Date.UTC(2026, 10, 22, 10) + 250);
    expect(runTime('2016-12-31T23:59:60Z')).toBe(Date.UTC(2016, 11, 31, 23, 59, 59)); // a leap second
    expect(runTime('2026-11-22T11:00:00+0100')).toBe(Date.UTC(2026, 10, 22, 10)); // Python's %z
    expect(runTime('0050-01-01T00:00:00Z')).toBe(new Date('0050-01-01T00:00:00Z').getTime()); // the year 50, not 1950
    expect(runTime('0050-01-01T00:00:00Z')! < runTime('1950-01-01T00:00:00Z')!).toBe(true);
    for (const text of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-11-22T10:00:00+25:00',
      '2026-11-22T10:00:00.Z',
      '20261122T100000Z',
      '2026-11-22Z',
    ])
      expect(runTime(text)).toBeNull();
  });

  it("the newest run does not depend on the machine's time zone", async () => {
    // b-utc is newer (09:30 UTC) than a-local (written without a zone, so 09:00 UTC) wherever EvalVerdict runs
    const db = await writeRunDb({
      runs: [
        { runId: 'a-local', createdAt: '2026-11-22 09:00:00', results: [result('q1', [hit(1, 'c1')])] },
        { runId: 'b-utc', createdAt: '2026-11-22T09:30:00Z', results: [result('q1', [hit(1, 'c1')])] },
      ],
    });
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles']) {
        process.env.TZ = tz;
        expect((await readRunDatabase(db)).run.runId).toBe('b-utc');
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('a database whose newest state is not in its file alone: a write-ahead log with frames, a hot rollback journal', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    // The first 32 + 24 bytes of a -wal: its header (magic, version, page size, checkpoint, salts, checksums) and a
    // first frame carrying the header's salts (the log's current generation: committed changes may be there).
    const wal = Buffer.alloc(32 + 24 + 4096);
    wal.writeUInt32BE(0x377f0682, 0);
    wal.writeUInt32BE(3007000, 4);
    wal.writeUInt32BE(4096, 8);
    wal.writeUInt32BE(0x1234, 16);
    wal.writeUInt32BE(0x5678, 20);
    wal.writeUInt32BE(2, 32);
    wal.writeUInt32BE(0x1234, 32 + 8);
    wal.writeUInt32BE(0x5678, 32 + 12);
    writeFileSync(`${db}-wal`, wal);
    expect(await loadError(db)).toBe(
      `${db}: its write-ahead log ${db}-wal may hold changes that are not in the database file yet (a program has it open, or was not closed); close the program or checkpoint the log first: sqlite3 "${db}" "PRAGMA wal_checkpoint(TRUNCATE)"`,
    );
    expectInputError(await aggregate(db, '--write'), `${db}-wal may hold changes`);
    // SQLite keeps the log beside the file a symbolic link points at
    const link = join(tempDir(), 'link.sqlite');
    symlinkSync(db, link);
    expect(await loadError(link)).toContain(`${link}: its write-ahead log ${db}-wal may hold changes`);
    // a frame of an earlier generation (other salts), or an empty log: nothing of the log is current
    wal.writeUInt32BE(0x9999, 32 + 8);
    writeFileSync(`${db}-wal`, wal);
    expect((await readRunDatabase(db)).run.runId).toBe('r1');
    writeFileSync(`${db}-wal`, '');
    expect((await readRunDatabase(db)).run.runId).toBe('r1');
    // a rollback journal that starts with the journal's magic is hot; one whose header was zeroed (journal_mode
    // PERSIST after a commit) is not
    writeFileSync(
      `${db}-journal`,
      Buffer.concat([Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]), Buffer.alloc(504)]),
    );
    expect(await loadError(db)).toContain(
      `${db}: its rollback journal ${db}-journal is hot (a write was interrupted, or is under way)`,
    );
    writeFileSync(`${db}-journal`, Buffer.alloc(512));
    expect((await readRunDatabase(db)).run.runId).toBe('r1');
  });

  it('a write-ahead log made by SQLite: refused while it holds changes the file lacks, read once they are all in the file', async () => {
    // Copied while SQLite's writer had them open (test/fixtures/wal/make.py): each case is a database and its -wal.
    const copy = (name: string) => {
      const db = join(tempDir(), 'run.sqlite');
      for (const suffix of ['', '-wal'])
        writeFileSync(
          `${db}${suffix}`,
          readFileSync(join(import.meta.dirname, 'fixtures', 'wal', name, `run.sqlite${suffix}`)),
        );
      return db;
    };
    const refused = (db: string) =>
      `${db}: its write-ahead log ${db}-wal may hold changes that are not in the database file yet`;
    // the log holds the tables and the run, the file none of it
    const notCheckpointed = copy('not-checkpointed');
    expect(await loadError(notCheckpointed)).toContain(refused(notCheckpointed));
    // after PRAGMA wal_checkpoint: the same frames, every one of them in the file: the file alone is the database
    const checkpointed = copy('checkpointed');
    const read = await readRunDatabase(checkpointed);
    expect(read.run.runId).toBe('r1');
    expect(read.results.map((r) => r.queryId)).toEqual(['q1']);
    expect((await aggregate(checkpointed, '--json')).status).toBe(0);
    // ... but not replaced: SQLite would lay the log's pages over the new file on its next open
    const before = readFileSync(checkpointed);
    expectInputError(
      await aggregate(checkpointed, '--write'),
      `${checkpointed}: cannot write into it while its write-ahead log ${checkpointed}-wal holds frames`,
    );
    expect(readFileSync(checkpointed).equals(before)).toBe(true);
    // ... and refused before the run is scored, not after (EVALVERDICT_TRACE=1 names each phase as it ends)
    const traced = await spawnCli(['aggregate', checkpointed, '--golden', writeGolden(GOLDEN), '--write'], {
      EVALVERDICT_TRACE: '1',
    });
    expectInputError(traced, 'cannot write into it while its write-ahead log');
    expect(traced.stderr).not.toMatch(/golden set read|scored/);
    // a page of the file that differs from the log's last committed version of it: refused
    const edited = copy('checkpointed');
    const bytes = readFileSync(edited);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(edited, bytes);
    expect(await loadError(edited)).toContain(refused(edited));
    // a write after the checkpoint: the log restarted with new salts and holds it (its older frames no longer count)
    const after = copy('after-checkpoint');
    expect(await loadError(after)).toContain(refused(after));
    // ... unless its commit frame's checksum is broken: SQLite stops reading the log there, so nothing of it is
    // committed and the file is the database (q2 is not in it)
    const wal = readFileSync(`${after}-wal`);
    const secondFrame = 32 + (24 + 1024);
    expect(wal.readUInt32BE(secondFrame + 4)).toBeGreaterThan(0); // the commit frame
    wal[secondFrame + 24 + 100] ^= 0xff;
    writeFileSync(`${after}-wal`, wal);
    expect((await readRunDatabase(after)).results.map((r) => r.queryId)).toEqual(['q1']);
  });

  it('a write-ahead log with big-endian checksums (magic 0x377f0683, as a big-endian machine writes it) is read as SQLite reads it', async () => {
    // The fixtures were written on a little-endian machine. Rewritten here with the other magic and every checksum
    // recomputed over big-endian words (SQLite's walChecksumBytes, written out again for the test), a checkpointed
    // log must still be found to be all in the file.
    const toBigEndian = (wal: Buffer, pageSize: number): Buffer => {
      const out = Buffer.from(wal);
      const sum = (from: number, to: number, s: [number, number]): [number, number] => {
        let [s1, s2] = s;
        for (let i = from; i < to; i += 8) {
          s1 = (s1 + out.readUInt32BE(i) + s2) >>> 0;
          s2 = (s2 + out.readUInt32BE(i + 4) + s1) >>> 0;
        }
        return [s1, s2];
      };
      out.writeUInt32BE(0x377f0683, 0);
      let s = sum(0, 24, [0, 0]);
      out.writeUInt32BE(s[0], 24);
      out.writeUInt32BE(s[1], 28);
      for (let frame = 32; frame + 24 + pageSize <= out.length; frame += 24 + pageSize) {
        s = sum(frame + 24, frame + 24 + pageSize, sum(frame, frame + 8, s));
        out.writeUInt32BE(s[0], frame + 16);
        out.writeUInt32BE(s[1], frame + 20);
      }
      return out;
    };
    const copy = (name: string, edit: (wal: Buffer) => Buffer) => {
      const db = join(tempDir(), 'run.sqlite');
      const dir = join(import.meta.dirname, 'fixtures', 'wal', name);
      writeFileSync(db, readFileSync(join(dir, 'run.sqlite')));
      writeFileSync(`${db}-wal`, edit(readFileSync(join(dir, 'run.sqlite-wal'))));
      return db;
    };
    const pageSizeOf = (wal: Buffer) => wal.readUInt32BE(8);
    const checkpointed = copy('checkpointed', (wal) => toBigEndian(wal, pageSizeOf(wal)));
    expect(readFileSync(`${checkpointed}-wal`).readUInt32BE(0)).toBe(0x377f0683);
    expect((await readRunDatabase(checkpointed)).run.runId).toBe('r1');
    // the same log with its little-endian checksums left under the big-endian magic: SQLite would stop at the header
    // (its checksum fails), so nothing can be shown to be in the file, and EvalVerdict refuses as it did before looking
    const mixed = copy('checkpointed', (wal) => {
      const out = Buffer.from(wal);
      out.writeUInt32BE(0x377f0683, 0);
      return out;
    });
    expect(await loadError(mixed)).toContain(
      `${mixed}: its write-ahead log ${mixed}-wal may hold changes that are not in the database file yet`,
    );
    // a big-endian log holding changes the file lacks: refused, which it is only when its frames' checksums verify
    // (a frame whose checksum fails ends the log, and a log with no valid commit is no reason to refuse)
    const notCheckpointed = copy('not-checkpointed', (wal) => toBigEndian(wal, pageSizeOf(wal)));
    expect(await loadError(notCheckpointed)).toContain(
      `${notCheckpointed}: its write-ahead log ${notCheckpointed}-wal may hold changes`,
    );
  });

  it('a file shorter than a SQLite header', async () => {
    const file = join(tempDir(), 'tiny.sqlite');
    writeFileSync(file, 'SQLite format 3\u0000');
    expect(await loadError(file)).toBe(
      `${file}: not a SQLite database (the file does not start with the SQLite header)`,
    );
  });

  it('the same rank in two different queries is fine', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]), [result('q2', [hit(1, 'c1')])]);
    expect((await readRunDatabase(db)).results.map((r) => r.hits[0].rank)).toEqual([1, 1]);
  });

  it('missing column in an optional table that is present', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    await editDb(db, (d) => d.exec('DROP TABLE chunks; CREATE TABLE chunks (chunk_id TEXT, doc_id TEXT, text TEXT)'));
    // first required column missing, in the order chunk_id, doc_id, text, heading_path_json, ...
    expect(await loadError(db)).toBe(`${db}: table \`chunks\` has no column \`heading_path_json\``);
  });

  it('a rank that is a string', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1'), hit('2', 'c2')]));
    expect(await loadError(db)).toBe(
      `${db}: table \`eval_query_results\`, run \`r1\`, query \`q1\`: \`hits_top_k[1].rank\` must be an integer, got "2"`,
    );
  });

  it('a run id that is not in the database', async () => {
    const db = await dbWith(result('q1', [hit(1, 'c1')]));
    expect(await loadError(db, 'nope')).toBe(`${db}: no run \`nope\` in \`eval_runs\` (runs: r1)`);
  });

  it('a missing file', async () => {
    const file = join(tempDir(), 'absent.sqlite');
    expect(await loadError(file)).toBe(`${file}: cannot read the run database (no such file)`);
  });
});

describe('run databases are read from disk, not loaded whole (src/load/sqlite.ts FileBackedBytes)', () => {
  it('any byte range equals the file, across read-ahead windows; a whole-length slice is the object itself', async () => {
    const results = Array.from({ length: 1200 }, (_, i) =>
      result(`q${i}`, [hit(1, `c${i}`, 'd1', { snippet: `snippet ${i} `.repeat(200) })]),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    const onDisk = readFileSync(file);
    expect(onDisk.length).toBeGreaterThan(2 << 20); // bigger than two read-ahead windows
    const bytes = new FileBackedBytes(file);
    try {
      expect(bytes.length).toBe(onDisk.length);
      expect(bytes.slice(0, bytes.length)).toBe(bytes);
      const window = 1 << 20;
      const ranges: Array<[number, number]> = [
        [0, 100],
        [4096, 8192],
        [window - 10, window + 10],
        [onDisk.length - 4096, onDisk.length],
        [123, 3 * window],
        [window + 5, window + 4101],
        [50, 60],
      ];
      for (const [from, to] of ranges)
        expect(Buffer.from(bytes.subarray(from, to)).equals(onDisk.subarray(from, to)), `${from}-${to}`).toBe(true);
      // Reads as an index walk and a table scan mix them (near, far, a page back, the file's end): windows are
      // evicted and their memory reused, and every read still equals the file.
      let seed = 20261122;
      const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
      let at = 0;
      for (let i = 0; i < 3000; i++) {
        const kind = next(4);
        at =
          kind === 0
            ? next(onDisk.length)
            : kind === 1
              ? Math.max(0, at - 4096)
              : kind === 2
                ? onDisk.length - 1 - next(5000)
                : Math.min(onDisk.length - 1, at + 4096);
        const to = Math.min(onDisk.length, at + 1 + next(kind === 0 ? 70000 : 4096));
        if (!Buffer.from(bytes.subarray(at, to)).equals(onDisk.subarray(at, to)))
          expect.fail(`read ${i}: ${at}-${to} differs from the file`);
      }
      expect(Buffer.from(bytes.slice(10, 20) as Uint8Array).equals(onDisk.subarray(10, 20))).toBe(true);
      // A write loads the file once; later reads see it.
      bytes.set([1, 2, 3], 5000);
      expect([...bytes.subarray(4999, 5004)]).toEqual([onDisk[4999], 1, 2, 3, onDisk[5003]]);
      expect(Buffer.from(bytes.subarray(0, 4999)).equals(onDisk.subarray(0, 4999))).toBe(true);
    } finally {
      bytes.close();
    }
  });

  it('a database of several read-ahead windows opened this way reads every result (--write: test/cli.test.ts)', async () => {
    const results = Array.from({ length: 300 }, (_, i) =>
      result(`q${String(i).padStart(3, '0')}`, [hit(1, `c${i}`, 'd1', { snippet: 'y'.repeat(2000) })]),
    );
    const file = await writeRunDb({ runs: [{ runId: 'r1', results }] });
    expect(readFileSync(file).length).toBeGreaterThan(1 << 20);
    const run = await readRunDatabase(file);
    expect(run.results.map((r) => r.queryId)).toEqual(results.map((r) => r.query_id));
    expect(run.results.every((r) => r.hits[0].snippet === 'y'.repeat(2000))).toBe(true);
  });
});
