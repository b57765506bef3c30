/**
 * Docs that cannot drift: every fenced `sh` block of README.md, docs/ and fixtures/README.md that names `evalverdict`
 * runs, line by line, with `evalverdict` the built CLI (dist/cli/index.js, what `npx evalverdict` runs), in a scratch
 * directory holding a copy of fixtures/ and the files the doc's text names (SETUP). Each command must exit as
 * EXPECTED says, 0 when it says nothing; a command shown that fails is a test failure.
 *
 * A new command in the docs needs nothing here when it exits 0 on the fixtures. Otherwise: end its line with a
 * comment `# exits N` (the doc then says it too), or add it to EXPECTED (exact text, with the output it must
 * print); files it names that fixtures/ does not hold go into SETUP under the doc's path.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../src/load/sqlite.js';
import { ACTION_NODE, CLI_BUNDLE, ensureBuilt, FIXTURE_RUN_FLAGS } from './helpers/actionRunner.js';
import { repoRoot } from './shared.js';

interface DocSetup {
  /** Directories the reader's repository has (the docs write into eval/ without making it). */
  dirs?: string[];
  /** Scratch path -> repository path, copied before the doc's first command. */
  copy?: Record<string, string>;
  /** Scratch path -> run databases whose one run is stored under a new run id (the ids the doc's text uses). */
  merge?: Record<string, Array<{ from: string; runId: string }>>;
  /** Commands run first (each must exit 0): the files an earlier step of the reader's would have made. */
  before?: string[];
}

const SETUP: Record<string, DocSetup> = {
  // The adoption section's databases: the fixtures' two runs in one file, named as a team would name them; and for
  // its repeats, one file a side holding its run three times.
  'README.md': {
    copy: { 'eval/golden.yaml': 'fixtures/golden.yaml' },
    merge: {
      'eval/runs.sqlite': [
        { from: 'fixtures/baseline.sqlite', runId: 'main' },
        { from: 'fixtures/candidate.sqlite', runId: 'my-change' },
      ],
      'eval/main.sqlite': ['main-1', 'main-2', 'main-3'].map((runId) => ({ from: 'fixtures/baseline.sqlite', runId })),
      'eval/my-change.sqlite': ['my-change-1', 'my-change-2', 'my-change-3'].map((runId) => ({
        from: 'fixtures/candidate.sqlite',
        runId,
      })),
    },
  },
  // calibrate's A/A database: the fixtures' baseline run stored three times (no noise, as the doc says).
  'docs/cli.md': {
    merge: {
      'nightly.sqlite': [
        { from: 'fixtures/baseline.sqlite', runId: 'nightly-1' },
        { from: 'fixtures/baseline.sqlite', runId: 'nightly-2' },
        { from: 'fixtures/baseline.sqlite', runId: 'nightly-3' },
      ],
    },
  },
  'docs/sources/kebab.md': {
    copy: { 'eval/golden.yaml': 'fixtures/golden.yaml' },
    merge: {
      'kb.sqlite': [
        { from: 'fixtures/baseline.sqlite', runId: 'A' },
        { from: 'fixtures/candidate.sqlite', runId: 'B' },
        { from: 'fixtures/candidate.sqlite', runId: 'RUN_ID' },
      ],
    },
  },
  'docs/sources/core-spec.md': {
    copy: { 'golden.yaml': 'fixtures/core-spec/golden.yaml' },
    merge: {
      'runs.sqlite': [
        { from: 'fixtures/core-spec/baseline.sqlite', runId: '2026-11-20-a' },
        { from: 'fixtures/core-spec/candidate.sqlite', runId: '2026-11-26-a' },
      ],
    },
  },
  'docs/sources/ckv.md': {
    dirs: ['eval'],
    copy: {
      'testdata/queries.yaml': 'fixtures/ckv/testdata/queries.yaml',
      'baseline.jsonl': 'fixtures/ckv/results/baseline.jsonl',
      'candidate.jsonl': 'fixtures/ckv/results/candidate.jsonl',
    },
  },
  'docs/sources/paperbot.md': {
    dirs: ['eval'],
    copy: {
      'evals/fixtures/document_evidence/bench_v1.json': 'fixtures/paperbot/bench_v1.json',
      'results.jsonl': 'fixtures/paperbot/results.jsonl',
    },
    before: [
      'evalverdict import paperbot --bench fixtures/paperbot/bench_v1.json --results fixtures/paperbot/results.jsonl --out runs.sqlite --golden-out golden.jsonl',
    ],
  },
  'docs/sources/wfgy.md': {
    copy: {
      'eval/qaset.json': 'fixtures/wfgy/eval/qaset.json',
      'runs/trace.jsonl': 'fixtures/wfgy/runs/trace.jsonl',
      'runs/trace-candidate.jsonl': 'fixtures/wfgy/runs/trace-candidate.jsonl',
    },
  },
};

interface Expectation {
  exit: number;
  /** What the text around the command says it prints. */
  stdout?: RegExp[];
}

/** Commands (as shown, continuation lines joined) that exit other than 0 on the fixtures, or print what is stated. */
const EXPECTED: Record<string, Expectation> = {
  // README: "the verdict is fail and the command exits 1"; fixtures/evalverdict.yml's nDCG@10 and recall@10 margins are
  // exceeded; Markdown into a pipe.
  'npm ci && npx evalverdict compare fixtures/baseline.sqlite fixtures/candidate.sqlite --golden fixtures/golden.yaml --config fixtures/evalverdict.yml':
    { exit: 1, stdout: [/^> \[!CAUTION\]/m, /nDCG@10/, /recall@10/] },
  // The fixtures' two runs under the default gates: "their drops are real but within the margin 0.1, so the gates
  // pass, each with a note, and the command exits 0".
  'npx evalverdict compare eval/runs.sqlite eval/runs.sqlite --golden eval/golden.yaml --baseline-run main --candidate-run my-change':
    { exit: 0, stdout: [/a real drop of 0\.0222, within the margin 0\.1000/] },
  // README's validate: the fixtures' candidate run has no finding.
  'npx evalverdict validate eval/runs.sqlite --golden eval/golden.yaml --run my-change': {
    exit: 0,
    stdout: [/run `my-change`: \d+ results checked, no findings/],
  },
  // README's repeats: three copies a side, so the same gates pass, and the Repeats line names the runs compared.
  'npx evalverdict compare eval/main.sqlite eval/my-change.sqlite --golden eval/golden.yaml --baseline-run main-1,main-2,main-3 --candidate-run all':
    {
      exit: 0,
      stdout: [
        /^Repeats: baseline 3 runs \(main-1, main-2, main-3\), candidate 3 runs \(my-change-1, my-change-2, my-change-3\)/m,
        /a real drop of 0\.0222, within the margin 0\.1000/,
      ],
    },
  // paperbot.md's --fail-under: "exit 1 when it fails"; the fixtures' hybrid mode is under recall@10 0.9.
  'evalverdict compare --baseline none runs.sqlite --candidate-run hybrid --golden golden.jsonl --config gates.yml': {
    exit: 1,
    stdout: [/recall@10/],
  },
  // cli.md's calibrate: three identical runs, so no noise, and the config alone with --format yaml.
  'evalverdict calibrate nightly.sqlite --golden fixtures/golden.yaml': {
    exit: 0,
    stdout: [/^3 runs of commit 111111111111/m, /^hit@5 {10}225 {2}0\.7733 {2}0\.0000 ±0\.0000 {4}0\.0000 ±0\.0000/m],
  },
  'evalverdict calibrate nightly.sqlite --golden fixtures/golden.yaml --run nightly-1,nightly-2 --metrics hit@5,nDCG@10 --format yaml':
    { exit: 0, stdout: [/^# Suggested by evalverdict calibrate from 2 runs/, /^ {4}nDCG@10: \{ sd_diff: 0\.0000/m] },
};

/** The README's quick start installs first; here the package is the checkout, so the install is left out. */
const REWRITES: Array<[RegExp, string]> = [
  [/^npm ci && /, ''],
  [/\bnpx evalverdict\b/, 'evalverdict'],
];

interface DocCommand {
  doc: string;
  line: number;
  text: string;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/**
 * docs/action.md's local run of the action needs the checkout (npm, scripts/, dist/), not a scratch directory:
 * test/actionLocal.test.ts runs it from the repository root, as the doc says.
 */
const RUN_FROM_CHECKOUT = /^npm run action:local\b/;

/** The commands of each `sh` block that names evalverdict, continuation lines joined, blank lines dropped. */
function shCommands(doc: string, markdown: string): DocCommand[] {
  const commands: DocCommand[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```sh\s*$/.exec(lines[i]);
    if (!open) continue;
    const block: DocCommand[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) {
      const text = lines[j].slice(open[1].length);
      const previous = block.at(-1);
      if (previous?.text.endsWith('\\')) previous.text = `${previous.text.slice(0, -1).trimEnd()} ${text.trim()}`;
      else if (text.trim() !== '' && !text.trimStart().startsWith('#')) block.push({ doc, line: j + 1, text });
    }
    if (block.some((c) => /\bevalverdict\b/.test(c.text)))
      commands.push(...block.filter((c) => !RUN_FROM_CHECKOUT.test(c.text.trimStart())));
    i = j;
  }
  return commands;
}

/** `# exits N` at the end of a command's line, else EXPECTED, else 0. */
function expectationOf(command: string): Expectation {
  const stated = /#\s*exits (\d+)\s*$/.exec(command);
  if (stated) return { exit: Number(stated[1]) };
  return EXPECTED[command.replace(/\s+#.*$/, '')] ?? { exit: 0 };
}

let shims: string;
let scratchRoot: string;

function run(command: string, cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  let shell = command;
  for (const [pattern, replacement] of REWRITES) shell = shell.replace(pattern, replacement);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', shell], {
      cwd,
      env: { ...process.env, PATH: `${shims}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A copy of `from` with its one run renamed `runId`, merged into `into` (created from the first). */
async function mergeRun(into: Database | null, from: string, runId: string): Promise<Database> {
  const SQL = await loadSqlJs();
  const source = new SQL.Database(readFileSync(join(repoRoot, from)));
  const [oldId] = source.exec('SELECT run_id FROM eval_runs')[0].values[0] as string[];
  if (!into) {
    source.run('UPDATE eval_runs SET run_id = ? WHERE run_id = ?', [runId, oldId]);
    source.run('UPDATE eval_query_results SET run_id = ? WHERE run_id = ?', [runId, oldId]);
    return source;
  }
  for (const table of ['eval_runs', 'eval_query_results']) {
    const { columns, values } = source.exec(`SELECT * FROM ${table}`)[0];
    const at = columns.indexOf('run_id');
    const insert = into.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    for (const row of values) insert.run(row.map((v, k) => (k === at ? runId : v)));
    insert.free();
  }
  source.close();
  return into;
}

async function prepare(doc: string): Promise<string> {
  const dir = mkdtempSync(join(scratchRoot, `${doc.replace(/\W+/g, '-')}-`));
  cpSync(join(repoRoot, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  const setup = SETUP[doc] ?? {};
  for (const made of setup.dirs ?? []) mkdirSync(join(dir, made), { recursive: true });
  for (const [to, from] of Object.entries(setup.copy ?? {})) {
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    cpSync(join(repoRoot, from), join(dir, to));
  }
  for (const [to, runs] of Object.entries(setup.merge ?? {})) {
    let db = await mergeRun(null, runs[0].from, runs[0].runId);
    for (const { from, runId } of runs.slice(1)) db = await mergeRun(db, from, runId);
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    writeFileSync(join(dir, to), db.export());
    db.close();
  }
  for (const command of setup.before ?? []) {
    const result = await run(command, dir);
    if (result.status !== 0) throw new Error(`${doc} setup: ${command} exited ${result.status}: ${result.stderr}`);
  }
  return dir;
}

const docs = ['README.md', ...markdownFiles('docs'), 'fixtures/README.md'];
const byDoc = docs
  .map((doc) => ({ doc, commands: shCommands(doc, readFileSync(join(repoRoot, doc), 'utf8')) }))
  .filter((d) => d.commands.length > 0);

beforeAll(() => {
  ensureBuilt();
  scratchRoot = mkdtempSync(join(tmpdir(), 'evalverdict-doc-commands-'));
  shims = join(scratchRoot, 'bin');
  mkdirSync(shims);
  // `evalverdict` as the package's bin runs it: dist/cli/index.js (with FIXTURE_RUN_FLAGS: the docs use the fixtures).
  const shim = join(shims, 'evalverdict');
  writeFileSync(shim, `#!/bin/sh\nexec '${ACTION_NODE}' ${FIXTURE_RUN_FLAGS.join(' ')} '${CLI_BUNDLE}' "$@"\n`);
  chmodSync(shim, 0o755);
});

afterAll(() => {
  if (scratchRoot) rmSync(scratchRoot, { recursive: true, force: true });
});

describe('every evalverdict command shown in the docs runs on the fixtures and exits as stated', () => {
  it('finds the commands of README.md and of each source doc', () => {
    const found = new Set(byDoc.map((d) => d.doc));
    for (const doc of ['README.md', ...Object.keys(SETUP)]) expect(found, doc).toContain(doc);
    // Every setup and expectation belongs to a command still shown: a stale entry means the docs moved on.
    const shown = new Set(byDoc.flatMap((d) => d.commands.map((c) => c.text.replace(/\s+#.*$/, ''))));
    expect(Object.keys(EXPECTED).filter((c) => !shown.has(c))).toEqual([]);
  });

  it.concurrent.each(byDoc)('$doc', async ({ doc, commands }) => {
    const dir = await prepare(doc);
    for (const command of commands) {
      const expected = expectationOf(command.text);
      const result = await run(command.text, dir);
      const where = `${doc}:${command.line}: ${command.text}\n${result.stderr.slice(0, 2000)}`;
      expect(result.status, where).toBe(expected.exit);
      for (const pattern of expected.stdout ?? []) expect(result.stdout, where).toMatch(pattern);
      expect(result.stderr, where).not.toMatch(/^\s+at /m);
    }
  });
});
