/**
 * Runs the bundled action (dist/index.js) as the GitHub runner does: a child process with the runner's environment
 * (INPUT_* with hyphens kept and action.yml's defaults filled in, GITHUB_EVENT_PATH holding the event payload,
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, ...) against a stand-in API (test/helpers/fakeGitHub.ts). Shared by every
 * end-to-end action test file, so they build the environment and read the outputs one way.
 *
 * The bundle is not built here: `npm run build` first (CI does; a build takes ~25 s and rewrites all of dist/,
 * including the CLI bundle other test files run while this one would be building). ensureBuilt() stops with that
 * instruction when dist/index.js is missing or older than the newest file under src/.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { EOL } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from '../shared.js';
import { childUsage, USAGE_PROBE } from './childUsage.js';

export const BUNDLE = join(repoRoot, 'dist', 'index.js');
/** The CLI as the package's bin runs it (`npx evalverdict`), built with the action bundle. */
export const CLI_BUNDLE = join(repoRoot, 'dist', 'cli', 'index.js');
/**
 * Node flags for a bundle run on the Cranfield fixtures: V8's optimising compile of sql.js's hot WebAssembly costs
 * more CPU than it saves on databases this small, with the same results, and V8's helper threads (collector,
 * compilers) cost CPU the suite, already using every core, has no spare of (bench/README.md, "The test suite's own
 * speed"). Not for the runs whose time and memory are bounds under test (hostile corpora, actionBounds).
 */
export const FIXTURE_RUN_FLAGS = ['--liftoff-only', '--single-threaded'];
/**
 * On the small fixtures the action's end-to-end tests run on, the optimising compile of the JavaScript does not pay
 * either; on the full fixtures it does (--no-opt there costs wall time).
 */
export const SMALL_RUN_FLAGS = [...FIXTURE_RUN_FLAGS, '--no-opt'];
export const OWNER = 'octocat';
export const REPO = 'Hello-World';
/** The Node that runs the bundles: the runner's (24) when .ci/run provides it, else the one running the tests. */
export const ACTION_NODE = process.env.EVALVERDICT_ACTION_NODE || process.execPath;

/** The newest modification time of any file under `dir` (is a bundle older than its sources?). */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

let builtChecked = false;
/** The bundles under test must be current: build them first (`npm run build`), as CI does. Checked once a worker. */
export function ensureBuilt(): void {
  if (builtChecked) return;
  for (const bundle of [BUNDLE, CLI_BUNDLE])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` before the bundle tests`);
  // A few seconds of slack: a fresh clone writes src/ and dist/ in whatever order.
  if (newestMtime(join(repoRoot, 'src')) > statSync(BUNDLE).mtimeMs + 10_000) {
    throw new Error(`${BUNDLE} is older than src/: run \`npm run build\` before the bundle tests`);
  }
  builtChecked = true;
}

/** action.yml's input defaults, as the runner passes them (expressions filled in with `token`). */
export function actionDefaults(token: string): Record<string, string> {
  const action = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  const out: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, as action.yml writes it
    out[name] = String(input.default ?? '').replace('${{ github.token }}', token);
  }
  return out;
}

/** The runner's GITHUB_OUTPUT format: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
export function parseOutputFile(text: string): Record<string, string> {
  const lines = text.split(EOL);
  const out: Record<string, string> = {};
  let i = 0;
  while (i < lines.length) {
    if (lines[i] === '' && i === lines.length - 1) break;
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (!m) throw new Error(`GITHUB_OUTPUT line ${i + 1} is not name<<delimiter: ${JSON.stringify(lines[i])}`);
    const [, name, delimiter] = m;
    if (name in out) throw new Error(`output ${name} set twice`);
    const value: string[] = [];
    i++;
    while (lines[i] !== delimiter) {
      if (i >= lines.length) throw new Error(`output ${name}: no closing delimiter`);
      value.push(lines[i++]);
    }
    out[name] = value.join(EOL);
    i++;
  }
  return out;
}

export interface BundleRunSetup {
  /** A directory of its own for this run (workspace and runner temp go under it). */
  dir: string;
  apiUrl: string;
  eventName: string;
  payload: unknown;
  /** Every input, defaults included (the runner passes them all). */
  inputs: Record<string, string>;
  /** Runner variables to set or override (GITHUB_SHA, GITHUB_WORKFLOW_REF, ...). */
  env?: Record<string, string>;
  /** Files to write into the workspace first (path relative to it -> content). */
  files?: Record<string, string>;
  /** The directory linked in as the workspace's `fixtures/`: the committed one unless given (test/helpers/smallFixtures.ts). */
  fixtures?: string;
  /**
   * A hang guard: kill the step (SIGKILL) past this many seconds of wall time, and say so in `hung`. Never a bound
   * a test asserts (the wall clock grows on a busy machine): bound the step's `cpuSeconds` instead.
   */
  limitSeconds?: number;
}

export interface BundleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  /** The step's wall time, for logs only: no test asserts it (the house rule). */
  ms: number;
  /** The step's CPU time (user + system, every thread: test/helpers/maxRss.mjs), in seconds. */
  cpuSeconds: number;
  /** The step's peak memory (test/helpers/maxRss.mjs), in MB. */
  maxRssMb: number;
  /** Killed by the hang guard (`limitSeconds`). */
  hung: boolean;
}

/** Lays out a workspace (fixtures/ linked in) and the runner's files, then runs dist/index.js in it. */
export async function runActionBundle(setup: BundleRunSetup): Promise<BundleRun> {
  const workspace = join(setup.dir, 'workspace');
  const temp = join(setup.dir, 'runner-temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(temp);
  symlinkSync(setup.fixtures ?? join(repoRoot, 'fixtures'), join(workspace, 'fixtures'));
  for (const [name, content] of Object.entries(setup.files ?? {})) {
    mkdirSync(join(workspace, name, '..'), { recursive: true });
    writeFileSync(join(workspace, name), content);
  }
  const eventPath = join(temp, 'event.json');
  const outputFile = join(temp, 'output');
  const summaryFile = join(temp, 'step_summary');
  writeFileSync(eventPath, JSON.stringify(setup.payload));
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: setup.dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: setup.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_API_URL: setup.apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: workspace,
    GITHUB_SHA: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
    GITHUB_RUN_ID: '1658821493',
    RUNNER_TEMP: temp,
    NO_PROXY: '127.0.0.1,localhost',
    ...setup.env,
  };
  for (const [name, value] of Object.entries(setup.inputs))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const started = performance.now();
  const run = await spawnCollect(
    ACTION_NODE,
    [...SMALL_RUN_FLAGS, '--import', USAGE_PROBE, BUNDLE],
    workspace,
    env,
    setup.limitSeconds,
  );
  const usage = childUsage(run.stderr);
  return {
    code: run.code,
    stdout: run.stdout,
    stderr: usage.stderr,
    ms: performance.now() - started,
    cpuSeconds: usage.cpuSeconds,
    maxRssMb: usage.maxRssMb,
    hung: run.hung,
    workspace,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
  };
}

function spawnCollect(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  limitSeconds?: number,
): Promise<{ code: number | null; stdout: string; stderr: string; hung: boolean }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let hung = false;
  const timer =
    limitSeconds === undefined
      ? undefined
      : setTimeout(() => {
          hung = true;
          child.kill('SIGKILL');
        }, limitSeconds * 1000);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}
