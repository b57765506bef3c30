// `npm run action:local -- --event EVENT.json --input NAME=VALUE ...`: runs the bundled action (dist/index.js) on
// this machine as the runner would (INPUT_*, GITHUB_*, the event file, GITHUB_OUTPUT), against a stand-in for
// GitHub's REST API on 127.0.0.1 (test/helpers/fakeGitHub.ts, the one the action's tests use), then prints every
// request the action made, with the comment's body and each commit status, and the step's outputs. Nothing
// reaches the network: the stand-in is the only API the action is given, and scripts/action-local-network-guard.mjs
// refuses any other connection. docs/action.md, "Run it locally".
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { FakeGitHub } from '../test/helpers/fakeGitHub.js';
import type { RecordedRequest } from '../test/helpers/fakeGitHub.js';
import { actionDefaults, newestMtime, parseOutputFile } from '../test/helpers/actionRunner.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = join(root, 'dist', 'index.js');
const GUARD = join(root, 'scripts', 'action-local-network-guard.mjs');
/** Not a credential: the stand-in only checks that a token is sent, as GitHub requires one. */
const STAND_IN_TOKEN = 'ghs_localdryrun0000000000000000000000000';
/** How scripts/action-local-network-guard.mjs starts the line it prints for each connection it refuses. */
const REFUSED_MARKER = 'action:local: refused a connection to';
const RUNNER_VARIABLES = /^(GITHUB|RUNNER)_[A-Z_]+$/;
/** Set by this script alone: the stand-in's address and the files it reads back. */
const FIXED_VARIABLES = new Set(['GITHUB_API_URL', 'GITHUB_EVENT_PATH', 'GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY']);

const USAGE = `usage: npm run action:local -- --event EVENT.json --input NAME=VALUE [--input NAME=VALUE ...]
         [--event-name NAME] [--workspace DIR] [--env GITHUB_NAME=VALUE ...]
Runs dist/index.js against a stand-in GitHub API on 127.0.0.1 and prints the requests it made, the comment, the
commit statuses and the outputs. Inputs are action.yml's (defaults filled in); paths are relative to --workspace
(default: the directory the command was run from). docs/action.md, "Run it locally".`;

/** A user's mistake: one line on stderr, exit 2. */
class UsageError extends Error {}

interface Options {
  eventPath: string;
  eventName: string | null;
  workspace: string;
  inputs: Record<string, string>;
  env: Record<string, string>;
}

function parseArgs(argv: string[], cwd: string): Options {
  const options: Options = { eventPath: '', eventName: null, workspace: cwd, inputs: {}, env: {} };
  const pair = (flag: string, text: string): [string, string] => {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: write NAME=VALUE`);
    return [text.slice(0, eq), text.slice(eq + 1)];
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (!['--event', '--event-name', '--workspace', '--input', '--env'].includes(flag))
      throw new UsageError(`unknown argument ${JSON.stringify(flag)}\n${USAGE}`);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--event') options.eventPath = resolve(cwd, value);
    else if (flag === '--event-name') options.eventName = value;
    else if (flag === '--workspace') options.workspace = resolve(cwd, value);
    else if (flag === '--input') {
      const [name, text] = pair(flag, value);
      options.inputs[name] = text;
    } else {
      const [name, text] = pair(flag, value);
      if (!RUNNER_VARIABLES.test(name) || FIXED_VARIABLES.has(name))
        throw new UsageError(
          `--env ${name}: only runner variables (GITHUB_*, RUNNER_*) other than ${[...FIXED_VARIABLES].join(', ')}`,
        );
      options.env[name] = text;
    }
  }
  if (!options.eventPath)
    throw new UsageError(`--event is required (e.g. fixtures/events/pull_request.json)\n${USAGE}`);
  return options;
}

type Payload = Record<string, unknown>;

/** A field some levels down a webhook payload, when each level is an object. */
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Payload)[key] : undefined), value);

function readEvent(path: string): Payload {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--event ${path}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--event ${path}: not JSON (${(error as Error).message})`);
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    throw new UsageError(`--event ${path}: not a webhook payload (a JSON object)`);
  return payload as Payload;
}

/** The event's name, as GITHUB_EVENT_NAME: from the payload's shape unless --event-name says. */
function eventNameOf(payload: Payload, given: string | null, path: string): string {
  if (given) return given;
  if (payload.pull_request) return 'pull_request';
  if (payload.workflow_run) return 'workflow_run';
  if (payload.comment && payload.issue) return 'issue_comment';
  if (typeof payload.ref === 'string' && payload.pusher) return 'push';
  throw new UsageError(`--event ${path}: cannot tell which event it is; say it with --event-name (e.g. push)`);
}

/** action.yml's inputs with their defaults, as the runner passes them. */
function actionInputs(): Record<string, { default?: string; required?: boolean }> {
  const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string; required?: boolean }>;
  };
  return action.inputs;
}

/** The inputs the runner would pass: action.yml's defaults, then the given ones, checked first. */
function inputsWithDefaults(given: Record<string, string>): Record<string, string> {
  const declared = actionInputs();
  for (const name of Object.keys(given))
    if (!(name in declared))
      throw new UsageError(`--input ${name}: action.yml has no such input (${Object.keys(declared).join(', ')})`);
  const missing = Object.entries(declared)
    .filter(([name, input]) => input.required && !(name in given))
    .map(([name]) => name);
  if (missing.length > 0)
    throw new UsageError(`missing required input(s): ${missing.map((m) => `--input ${m}=...`).join(' ')}`);
  for (const name of ['baseline', 'candidate'])
    if (given[name]?.startsWith('artifact:'))
      throw new UsageError(
        `--input ${name}=${given[name]}: a local run has no workflow artifacts to download; give the run ` +
          "database's path (e.g. one fetched with `gh run download`)",
      );
  return { ...actionDefaults(STAND_IN_TOKEN), ...given };
}

function describeRequest(r: RecordedRequest, n: number): string {
  const query = Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : '';
  const head = `--- ${n}. ${r.method} ${r.path}${query} -> ${r.status}`;
  const body = r.body as Record<string, unknown> | undefined;
  if (/\/statuses\/[0-9a-f]+$/i.test(r.path) && body)
    return [
      `${head}: commit status`,
      ...['state', 'context', 'description', 'target_url'].map((k) => `${k}: ${String(body[k] ?? '')}`),
    ].join('\n');
  if (/\/issues\/(\d+\/)?comments(\/\d+)?$/.test(r.path) && typeof body?.body === 'string')
    return `${head}: the comment's body\n${body.body}`;
  if (body !== undefined) return `${head}\n${JSON.stringify(body, null, 2)}`;
  return head;
}

function runBundle(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  // The step's log (annotations, notices) goes to stderr, so stdout is what the action posted and set.
  child.stdout.on('data', (d: Buffer) => process.stderr.write(d));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    process.stderr.write(d);
  });
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 1 : 0), stderr }));
  });
}

async function main(): Promise<number> {
  // npm runs a package script in the package's directory; INIT_CWD is where the command was typed.
  const cwd = process.env.INIT_CWD || process.cwd();
  const options = parseArgs(process.argv.slice(2), cwd);
  const payload = readEvent(options.eventPath);
  const eventName = eventNameOf(payload, options.eventName, options.eventPath);
  const repository = at(payload, 'repository', 'full_name');
  if (typeof repository !== 'string' || !/^[^/\s]+\/[^/\s]+$/.test(repository))
    throw new UsageError(`--event ${options.eventPath}: the payload names no repository (repository.full_name)`);
  if (!existsSync(options.workspace) || !statSync(options.workspace).isDirectory())
    throw new UsageError(`--workspace ${options.workspace}: no such directory`);
  const inputs = inputsWithDefaults(options.inputs);
  if (!existsSync(BUNDLE)) throw new UsageError(`${BUNDLE} is missing: run \`npm run build\` first`);
  if (newestMtime(join(root, 'src')) > statSync(BUNDLE).mtimeMs + 10_000)
    process.stderr.write('note: dist/index.js is older than src/: this runs the bundle as built (`npm run build`)\n');

  const dir = mkdtempSync(join(tmpdir(), 'evalverdict-action-local-'));
  const temp = join(dir, 'runner-temp');
  mkdirSync(temp);
  // A dry run leaves the workspace as it was: the report files go beside the job summary unless asked for.
  if (!('report-path' in options.inputs)) inputs['report-path'] = join(dir, 'evalverdict-report.md');
  const eventPath = join(dir, 'event.json');
  const outputFile = join(dir, 'output');
  const summaryFile = join(dir, 'step_summary.md');
  writeFileSync(eventPath, JSON.stringify(payload));
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');

  const github = await FakeGitHub.start();
  try {
    const sha = String(
      at(payload, 'pull_request', 'merge_commit_sha') ??
        at(payload, 'after') ??
        at(payload, 'workflow_run', 'head_sha'),
    );
    // Only what the runner sets: none of this shell's variables (a token among them) reach the action.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: eventName,
      GITHUB_REPOSITORY: repository,
      GITHUB_REPOSITORY_OWNER: repository.split('/')[0],
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_RUN_ID: '1',
      GITHUB_ACTOR: String(at(payload, 'sender', 'login') ?? ''),
      ...(/^[0-9a-f]{40}$/i.test(sha) ? { GITHUB_SHA: sha } : {}),
      RUNNER_TEMP: temp,
      NO_PROXY: '127.0.0.1,localhost',
      ...options.env,
      GITHUB_API_URL: github.url,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;

    const step = await runBundle(['--import', GUARD, BUNDLE], options.workspace, env);
    const refused = step.stderr.split('\n').filter((line) => line.startsWith(REFUSED_MARKER)).length;
    const out: string[] = [
      '',
      `=== What the action did (${eventName} event of ${repository}, stand-in API ${github.url})`,
      '',
    ];
    github.requests.forEach((r, i) => {
      out.push(describeRequest(r, i + 1), '');
    });
    if (github.requests.length === 0) out.push('(no API request)', '');
    out.push('--- outputs');
    for (const [name, value] of Object.entries(parseOutputFile(readFileSync(outputFile, 'utf8'))))
      out.push(`${name}: ${value}`);
    out.push(
      '',
      `--- the step exited ${step.code}${step.code === 0 ? '' : ' (the job fails)'}`,
      `the job summary and the reports: ${dir}`,
      refused === 0
        ? `network: every request went to the stand-in (${github.requests.length})`
        : `network: ${refused} connection(s) elsewhere refused (named above)`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
    return step.code;
  } finally {
    await github.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`action:local: ${error.message}\n`);
      process.exitCode = 2;
    } else throw error;
  },
);
