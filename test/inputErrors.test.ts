/**
 * User mistakes the CLI must answer with one line naming the file (and table, column, flag) and exit code 2, never
 * a stack trace, and without leaving files half-written: output paths that cannot be written, outputs that exist
 * already (`import trec` without --force), corrupt pages of a run database (in one thread from source, and in the
 * bundle's worker thread), and values the loader used to read silently (chunks.token_estimate, aggregate_json,
 * an empty --min-grade).
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { openRunStream } from '../src/load/runDatabase.js';
import { writeFileAtomically, writeWhole } from '../src/write/outputFiles.js';
import {
  editDb,
  hit,
  queryDb,
  removeTempDirs,
  result,
  runCli,
  spawnCli,
  runNode,
  STACK_LINE,
  tempDir,
  writeGolden,
  writeRunDb,
} from './helpers/runDb.js';
import type { CliResult } from './helpers/runDb.js';
import { CLI_BUNDLE, ensureBuilt } from './helpers/actionRunner.js';

afterAll(removeTempDirs);

function expectInputError(res: CliResult, ...parts: string[]): void {
  expect(res.stderr).not.toMatch(STACK_LINE);
  expect(res.stderr).not.toContain('internal error');
  expect(res.stderr.startsWith('evalverdict: ')).toBe(true);
  expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  for (const part of parts) expect(res.stderr).toContain(part);
  expect(res.status).toBe(2);
}

/** No temporary files left beside the outputs. */
function expectNoTemporaries(dir: string): void {
  expect(readdirSync(dir).filter((f) => f.includes('evalverdict-'))).toEqual([]);
}

const GOLDEN = '- id: q1\n  query: one\n  expected_chunk_ids: [c1]\n';
const smallRun = () => writeRunDb({ runs: [{ runId: 'r1', results: [result('q1', [hit(1, 'c1', 'd1')])] }] });

const QRELS = 'q1 0 d1 1\nq2 0 d2 1\n';
const TREC_RUN = 'q1 Q0 d1 1 0.9 tagX\nq2 Q0 d3 1 0.5 tagX\n';
function trecInputs(dir = tempDir()): { dir: string; qrels: string; run: string } {
  const [qrels, run] = [join(dir, 'qrels.txt'), join(dir, 'run.txt')];
  writeFileSync(qrels, QRELS);
  writeFileSync(run, TREC_RUN);
  return { dir, qrels, run };
}

describe.concurrent('output paths that cannot be written: PATH: cannot write (reason), exit 2, nothing written', () => {
  it('init into a directory that does not exist', async () => {
    const file = join(tempDir(), 'missing', 'x.sqlite');
    expectInputError(
      await runCli(['init', file]),
      `evalverdict: ${file}: cannot write (no such directory: ${join(file, '..')})`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('init under a parent that is a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain'), 'x');
    const file = join(dir, 'plain', 'x.sqlite');
    expectInputError(
      await runCli(['init', file]),
      `evalverdict: ${file}: cannot write (a parent of it is not a directory)`,
    );
  });

  it('import trec --out into a directory that does not exist', async () => {
    const { qrels, run } = trecInputs();
    const out = join(tempDir(), 'no', 'such', 'o.sqlite');
    expectInputError(
      await runCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out]),
      `evalverdict: ${out}: cannot write (no such directory: `,
    );
  });

  it('import trec --golden-out that cannot be written: neither file is written', async () => {
    const { dir, qrels, run } = trecInputs();
    const out = join(dir, 'o.sqlite');
    const goldenOut = join(dir, 'missing', 'golden.yaml');
    expectInputError(
      await runCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out, '--golden-out', goldenOut]),
      `evalverdict: ${goldenOut}: cannot write (no such directory: `,
    );
    expect(existsSync(out)).toBe(false);
    expectNoTemporaries(dir);
  });

  it('compare --json that cannot be written: no report file is written, nothing on stdout', async () => {
    const dir = tempDir();
    const db = await smallRun();
    const golden = writeGolden(GOLDEN);
    const [markdown, json] = [join(dir, 'r.md'), join(dir, 'missing', 'r.json')];
    // a candidate-only report: a run compared with itself would add its warning to stderr
    const res = await runCli([
      'compare',
      '--baseline',
      'none',
      db,
      '--golden',
      golden,
      '--markdown',
      markdown,
      '--json',
      json,
    ]);
    expectInputError(res, `evalverdict: ${json}: cannot write (no such directory: `);
    expect(res.stdout).toBe('');
    expect(existsSync(markdown)).toBe(false);
    expectNoTemporaries(dir);
  });

  it('compare --markdown-full naming a directory', async () => {
    const dir = tempDir();
    const db = await smallRun();
    const res = await runCli([
      'compare',
      '--baseline',
      'none',
      db,
      '--golden',
      writeGolden(GOLDEN),
      '--markdown-full',
      dir,
    ]);
    expectInputError(res, `evalverdict: ${dir}: cannot write (it is a directory)`);
    expectNoTemporaries(dir);
  });

  it('compare with two report flags naming one file', async () => {
    const db = await smallRun();
    const file = join(tempDir(), 'r.md');
    expectInputError(
      await runCli(['compare', db, db, '--golden', writeGolden(GOLDEN), '--markdown', file, '--json', file]),
      `evalverdict: --markdown and --json name the same file ${file}`,
    );
    // through a symbolic link (an existing target, and one not written yet whose folder is a link)
    const dir = tempDir();
    writeFileSync(join(dir, 'a.md'), 'old');
    symlinkSync(join(dir, 'a.md'), join(dir, 'l.md'));
    expectInputError(
      await runCli([
        'compare',
        db,
        db,
        '--golden',
        writeGolden(GOLDEN),
        '--markdown',
        join(dir, 'a.md'),
        '--markdown-full',
        join(dir, 'l.md'),
      ]),
      `evalverdict: --markdown and --markdown-full name the same file ${join(dir, 'l.md')}`,
    );
    symlinkSync(dir, join(dir, 'same'));
    expectInputError(
      await runCli([
        'compare',
        db,
        db,
        '--golden',
        writeGolden(GOLDEN),
        '--markdown',
        join(dir, 'new.md'),
        '--json',
        join(dir, 'same', 'new.md'),
      ]),
      `evalverdict: --markdown and --json name the same file ${join(dir, 'same', 'new.md')}`,
    );
  });

  it('writeFileAtomically (aggregate --write, saveDatabase) throws the InputError itself', () => {
    const file = join(tempDir(), 'missing', 'run.sqlite');
    expect(() => writeFileAtomically(file, 'x')).toThrow(InputError);
    expect(() => writeFileAtomically(file, 'x')).toThrow(`${file}: cannot write (no such directory: `);
  });

  it('writeWhole writes bytes in pieces (writeFileSync refuses 2 GiB and more, and a run database may be larger)', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    for (const chunk of [1, 7, 999, 1000, 4096]) {
      const file = join(tempDir(), 'out.bin');
      writeWhole(file, bytes, chunk);
      expect(readFileSync(file).equals(Buffer.from(bytes))).toBe(true);
    }
    const empty = join(tempDir(), 'empty.bin');
    writeWhole(empty, new Uint8Array(0), 7);
    expect(readFileSync(empty).length).toBe(0);
  });

  it('aggregate --write on a run database in a read-only directory (not as root, who may write anyway)', async (ctx) => {
    const db = await smallRun();
    const dir = join(db, '..');
    chmodSync(dir, 0o555);
    try {
      try {
        writeFileSync(join(dir, 'probe'), '');
        ctx.skip(); // root: the directory is writable after all
      } catch {
        /* read-only, as wanted */
      }
      const before = readFileSync(db);
      expectInputError(
        await runCli(['aggregate', db, '--golden', writeGolden(GOLDEN), '--write']),
        `evalverdict: ${db}: cannot write (permission denied)`,
      );
      expect(readFileSync(db).equals(before)).toBe(true);
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});

describe.concurrent('import trec refuses existing outputs unless --force', () => {
  it('an existing --out is kept; --force replaces it', async () => {
    const { dir, qrels, run } = trecInputs();
    const out = join(dir, 'o.sqlite');
    writeFileSync(out, 'mine');
    // the bin as a child process: exit 2 with one line, then exit 0 with the file written
    expectInputError(
      await spawnCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out]),
      `evalverdict: ${out}: already exists (import replaces existing files only with --force)`,
    );
    expect(readFileSync(out, 'utf8')).toBe('mine');
    const forced = await spawnCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out, '--force']);
    expect(forced.stderr).toBe('');
    expect(forced.status).toBe(0);
    expect(await queryDb(out, 'SELECT query_id FROM eval_query_results ORDER BY query_id')).toEqual([['q1'], ['q2']]);
  });

  it('an existing --golden-out is kept, and --out is not written either', async () => {
    const { dir, qrels, run } = trecInputs();
    const [out, goldenOut] = [join(dir, 'o.sqlite'), join(dir, 'golden.yaml')];
    writeFileSync(goldenOut, '# mine\n');
    expectInputError(
      await runCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out, '--golden-out', goldenOut]),
      `evalverdict: ${goldenOut}: already exists (import replaces existing files only with --force)`,
    );
    expect(readFileSync(goldenOut, 'utf8')).toBe('# mine\n');
    expect(existsSync(out)).toBe(false);
  });

  it('--out and --golden-out naming one file', async () => {
    const { dir, qrels, run } = trecInputs();
    const out = join(dir, 'o.sqlite');
    expectInputError(
      await runCli(['import', 'trec', '--qrels', qrels, '--run', run, '--out', out, '--golden-out', out, '--force']),
      `evalverdict: --out and --golden-out name the same file ${out}`,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Corrupt pages

function pageSizeOf(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    const size = header.readUInt16BE(16);
    return size === 1 ? 65536 : size;
  } finally {
    closeSync(fd);
  }
}

async function rootPage(file: string, table: string): Promise<number> {
  return Number(
    (await queryDb(file, `SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = '${table}'`))[0][0],
  );
}

function readPage(file: string, page: number): Buffer {
  const size = pageSizeOf(file);
  const bytes = Buffer.alloc(size);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, bytes, 0, size, (page - 1) * size);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Overwrites page `page` (1-based) with 0xFF bytes: no valid b-tree page, so SQLite reports the file malformed. */
function corruptPage(file: string, page: number): void {
  const size = pageSizeOf(file);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(size, 0xff), 0, size, (page - 1) * size);
  } finally {
    closeSync(fd);
  }
}

/** The last leaf of a table whose root is an interior page (its right-most pointer: the rows inserted last). */
function lastLeaf(file: string, root: number): number {
  const page = readPage(file, root);
  expect(page[0]).toBe(0x05); // an interior table b-tree page
  return page.readUInt32BE(8);
}

const ids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, '0')}`);
const manyGolden = ids
  .map((id) => `- id: ${id}\n  query: "question ${id}"\n  expected_chunk_ids: ["${id}-rel"]\n`)
  .join('');
/** 60 results of ~2 KB each (one or two per page), with chunks and documents: every table spans pages of its own. */
function manyResults(runId: string, file: string): Promise<string> {
  return writeRunDb(
    {
      runs: [
        {
          runId,
          config: { chunker_version: 'v1' },
          results: ids.map((id) =>
            result(id, [hit(1, `${id}-rel`, 'd1', { snippet: 's'.repeat(2000), chunker_version: 'v1' })]),
          ),
        },
      ],
      chunks: ids.map((id) => ({ chunkId: `${id}-rel`, docId: 'd1', text: `text of ${id} `.repeat(20) })),
      documents: [{ docId: 'd1', workspacePath: 'docs/d1.md' }],
    },
    file,
  );
}

const corruptMessage = (file: string, table: string) =>
  `evalverdict: ${file}: table \`${table}\`: unreadable SQLite database (database disk image is malformed)`;

describe.concurrent('a corrupt page: FILE: table `T`: unreadable SQLite database (...), exit 2 (one thread, from source)', () => {
  for (const table of ['chunks', 'documents', 'eval_runs', 'eval_query_results']) {
    it(`in table ${table}`, async () => {
      const db = await manyResults('r1', join(tempDir(), 'run.sqlite'));
      corruptPage(db, await rootPage(db, table));
      const golden = writeGolden(manyGolden);
      expectInputError(await runCli(['aggregate', db, '--golden', golden]), corruptMessage(db, table));
      expectInputError(await runCli(['compare', db, db, '--golden', golden]), corruptMessage(db, table));
    });
  }

  it('in a result row the first reads do not touch (met while stepping the results)', async () => {
    const db = await manyResults('r1', join(tempDir(), 'run.sqlite'));
    corruptPage(db, lastLeaf(db, await rootPage(db, 'eval_query_results')));
    // The schema, run row, orphan check and index tables read fine; the rows fail as they are stepped.
    const stream = await openRunStream(db);
    try {
      expect(() => stream.forEachResult(() => undefined)).toThrow(InputError);
      expect(() => stream.forEachResult(() => undefined)).toThrow(
        corruptMessage(db, 'eval_query_results').slice('evalverdict: '.length),
      );
    } finally {
      stream.release?.();
    }
    expectInputError(
      await runCli(['aggregate', db, '--golden', writeGolden(manyGolden)]),
      corruptMessage(db, 'eval_query_results'),
    );
  });
});

describe("a corrupt page read in the bundle's worker thread (dist/cli/index.js): exit 2 naming file and table", () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runNode([CLI_BUNDLE, ...args], { EVALVERDICT_TRACE: '1', ...env });
  let dir: string;
  let golden: string;
  let baseline: string;

  beforeAll(async () => {
    ensureBuilt(); // the bundle must be current (`npm run build`); this test does not build
    dir = tempDir();
    golden = writeGolden(manyGolden, dir);
    baseline = await manyResults('base', join(dir, 'base.sqlite'));
  });

  it("compare: the candidate's results, scored in the worker", async () => {
    const candidate = await manyResults('cand', join(dir, 'cand.sqlite'));
    corruptPage(candidate, lastLeaf(candidate, await rootPage(candidate, 'eval_query_results')));
    // EVALVERDICT_WORKERS=2: the worker whatever the size (by default only for a candidate of 64 MiB or more).
    const res = await cli(['compare', baseline, candidate, '--golden', golden], { EVALVERDICT_WORKERS: '2' });
    expect(res.stderr).toContain('worker started'); // the two-thread path
    expect(res.stderr).toContain('run tables read'); // this thread read the candidate's tables: the rows failed in the worker
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stderr).not.toContain('internal error');
    expect(res.stderr).toContain(corruptMessage(candidate, 'eval_query_results'));
    expect(res.status).toBe(2);
  });

  it("compare: the candidate's chunks", async () => {
    const candidate = await manyResults('cand', join(dir, 'cand-chunks.sqlite'));
    corruptPage(candidate, await rootPage(candidate, 'chunks'));
    const res = await cli(['compare', baseline, candidate, '--golden', golden], { EVALVERDICT_WORKERS: '2' });
    expect(res.stderr).toContain('worker started');
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stderr).toContain(corruptMessage(candidate, 'chunks'));
    expect(res.status).toBe(2);
  });

  it("aggregate in two threads: the upper half of the results, the worker's", async () => {
    const run = await manyResults('agg', join(dir, 'agg.sqlite'));
    corruptPage(run, lastLeaf(run, await rootPage(run, 'eval_query_results')));
    // aggregate splits only a JSON Lines golden set between threads
    const goldenLines = writeGolden(
      ids
        .map((id) => `${JSON.stringify({ id, query: `question ${id}`, expected_chunk_ids: [`${id}-rel`] })}\n`)
        .join(''),
      dir,
      'golden.jsonl',
    );
    const res = await cli(['aggregate', run, '--golden', goldenLines], { EVALVERDICT_WORKERS: '2' });
    expect(res.stderr).toContain('worker started');
    expect(res.stderr).not.toMatch(STACK_LINE);
    expect(res.stderr).not.toContain('internal error');
    expect(res.stderr).toContain(corruptMessage(run, 'eval_query_results'));
    expect(res.status).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Values the loader used to take silently

describe.concurrent('values refused instead of read silently', () => {
  it('chunks.token_estimate that is not a number names file, table, chunk and column', async () => {
    const db = await writeRunDb({
      runs: [{ runId: 'r1', results: [result('q1', [hit(1, 'c1', 'd1')])] }],
      chunks: [{ chunkId: 'c1', docId: 'd1', text: 't' }],
    });
    await editDb(db, (d) => d.run("UPDATE chunks SET token_estimate = 'many'"));
    expectInputError(
      await runCli(['aggregate', db, '--golden', writeGolden(GOLDEN)]),
      `evalverdict: ${db}: table \`chunks\`, chunk \`c1\`, column \`token_estimate\`: must be a number >= 0, got "many"`,
    );
  });

  it('eval_runs.aggregate_json that is malformed JSON names the column', async () => {
    const db = await smallRun();
    await editDb(db, (d) => d.run("UPDATE eval_runs SET aggregate_json = '{bad'"));
    expectInputError(
      await runCli(['aggregate', db, '--golden', writeGolden(GOLDEN)]),
      `evalverdict: ${db}: table \`eval_runs\`, run \`r1\`, column \`aggregate_json\`: malformed JSON (`,
    );
  });

  it('an empty --min-grade (or --seed) is a usage error, not 0', async () => {
    const db = await smallRun();
    const golden = writeGolden(GOLDEN);
    expectInputError(
      await runCli(['aggregate', db, '--golden', golden, '--min-grade', '']),
      'evalverdict: --min-grade: "" is not a whole number',
    );
    expectInputError(
      await runCli(['aggregate', db, '--golden', golden, '--min-grade', ' ']),
      'evalverdict: --min-grade: " " is not a whole number',
    );
    expectInputError(
      await runCli(['compare', db, db, '--golden', golden, '--seed', '']),
      'evalverdict: --seed: "" is not a whole number >= 0',
    );
  });
});
