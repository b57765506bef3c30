/**
 * Test helpers: build run databases (through src/write/writeRunDatabase.ts) and golden files in a temp dir
 * from plain objects, and run the CLI as a child process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { computeAggregate } from '../../src/aggregate/aggregate.js';
import type { AggregateReport } from '../../src/aggregate/aggregate.js';
import type { AggregateOptions } from '../../src/aggregate/score.js';
import { parseGoldenYaml } from '../../src/load/golden.js';
import { readRunDatabase } from '../../src/load/runDatabase.js';
import { loadSqlJs } from '../../src/load/sqlite.js';
import { createRunDatabase, insertChunks, insertRun, saveDatabase } from '../../src/write/writeRunDatabase.js';
import type { ChunkRowInput } from '../../src/write/writeRunDatabase.js';
import { stableJson } from '../../src/stableJson.js';
import { runMain } from '../../src/cli/main.js';
import { repoRoot } from '../shared.js';
import { CLI_BUNDLE, ensureBuilt, FIXTURE_RUN_FLAGS } from './actionRunner.js';

export type Json = Record<string, unknown>;

const madeDirs: string[] = [];

/** A fresh directory under the OS temp dir; removeTempDirs() deletes every one made so far. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evalverdict-test-'));
  madeDirs.push(dir);
  return dir;
}

/** For `afterAll`: deletes the directories tempDir() made in this test file. */
export function removeTempDirs(): void {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** One entry of `hits_top_k`. `rank` is unknown so tests can store bad ranks. */
export function hit(rank: unknown, chunkId: string | null, docId: string | null = null, extra: Json = {}): Json {
  const h: Json = { chunk_id: chunkId, doc_id: docId, doc_path: null, heading_path: [], snippet: null, ...extra };
  if (rank !== undefined) h.rank = rank;
  return h;
}

/** A `result_json` object in kebab's shape. */
export function result(queryId: string, hits: Json[], extra: Json = {}): Json {
  return {
    query_id: queryId,
    query: `query ${queryId}`,
    mode: 'hybrid',
    hits_top_k: hits,
    answer: null,
    elapsed_ms: null,
    error: null,
    ...extra,
  };
}

/** An answer object: `grounded` defaults to true, citations are given as kebab writes them. */
export function answer(text: string, citations: Json[] = [], extra: Json = {}): Json {
  return { answer: text, citations, grounded: true, ...extra };
}

/** A result_json cell stored verbatim (for malformed JSON). */
export class RawResult {
  constructor(
    readonly queryId: string,
    readonly text: string,
  ) {}
}

export interface RunInput {
  runId: string;
  suite?: string;
  createdAt?: string;
  config?: Json;
  commitHash?: string | null;
  aggregateJson?: string;
  results: Array<Json | RawResult>;
}

export interface ChunkInput {
  chunkId: string;
  docId: string;
  text: string;
  headingPath?: string[];
  spans?: Array<{ path?: string; start_line: number; end_line: number }>;
  tokenEstimate?: number;
  chunkerVersion?: string;
}

export interface RunDbInput {
  runs: RunInput[];
  chunks?: ChunkInput[];
  documents?: Array<{ docId: string; workspacePath: string }>;
}

function resultRows(results: RunInput['results']) {
  return results.map((r) =>
    r instanceof RawResult ? { queryId: r.queryId, result: r.text } : { queryId: String(r.query_id), result: r },
  );
}

/** Writes a run database file (default: `run.sqlite` in a new temp dir) and returns its path. */
export async function writeRunDb(input: RunDbInput, file = join(tempDir(), 'run.sqlite')): Promise<string> {
  const db = await createRunDatabase();
  try {
    for (const run of input.runs) {
      insertRun(
        db,
        {
          runId: run.runId,
          suite: run.suite ?? 'test',
          config: run.config ?? {},
          aggregateJson: run.aggregateJson,
          commitHash: run.commitHash ?? null,
          createdAt: run.createdAt ?? '2024-01-01T00:00:00Z',
        },
        resultRows(run.results),
      );
    }
    if (input.chunks || input.documents) {
      const chunks: ChunkRowInput[] = (input.chunks ?? []).map((c) => ({
        chunkId: c.chunkId,
        docId: c.docId,
        text: c.text,
        headingPath: c.headingPath ?? [],
        spans: c.spans ?? [],
        tokenEstimate: c.tokenEstimate ?? 10,
        chunkerVersion: c.chunkerVersion ?? 'v1',
      }));
      insertChunks(db, chunks, input.documents ?? []);
    }
    saveDatabase(db, file);
  } finally {
    db.close();
  }
  return file;
}

/** Opens a database file, lets `change` edit it with SQL, and saves it back. */
export async function editDb(file: string, change: (db: Database) => void): Promise<void> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    change(db);
    writeFileSync(file, db.export());
  } finally {
    db.close();
  }
}

/** Rows of a query on a database file, as arrays. */
export async function queryDb(file: string, sql: string): Promise<unknown[][]> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}

/** Writes a golden YAML file next to other test files and returns its path. */
export function writeGolden(text: string, dir = tempDir(), name = 'golden.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * Builds the database, reads it back through the loader, scores it against the golden YAML and returns the
 * report as the CLI prints it (stableJson, 4 decimals) parsed back, plus the raw report.
 */
export async function aggregateOf(
  input: RunDbInput,
  goldenYaml: string,
  options: Partial<AggregateOptions> = {},
  runId?: string,
) {
  const file = await writeRunDb(input);
  const run = await readRunDatabase(file, runId);
  const report: AggregateReport = computeAggregate(run, parseGoldenYaml(goldenYaml, 'golden.yaml'), options);
  const text = stableJson(report);
  return {
    report,
    text,
    json: JSON.parse(text) as { metrics: Record<string, { value: number | null; n: number }> } & Json,
    file,
  };
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `evalverdict ARGS` in this process: runMain, the function the bin runs (src/cli/index.ts adds only the process
 * around it), with its output collected. Starting Node and tsx for each command cost ~0.5 s of CPU a call;
 * spawnCli keeps the child process for the tests that are about it (exit status, pipes).
 */
export async function runCli(args: string[], terminal: { tty?: boolean; color?: boolean } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await runMain(args, {
    ...terminal,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/** The built CLI (dist/cli/index.js, the package's bin) with ARGS from the repo root, as a child process. */
export function spawnCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  ensureBuilt();
  return runNode([...FIXTURE_RUN_FLAGS, CLI_BUNDLE, ...args], env);
}

/** `NODE ARGS` from the repo root (NODE: this Node unless given), its exit status and output collected. */
export function runNode(args: string[], env: Record<string, string> = {}, node = process.execPath): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
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

/** A Node stack frame line ("    at fn (file:line)"): must never reach a user for bad input. */
export const STACK_LINE = /^\s+at /m;
