/**
 * The action's inputs, read once from the runner's environment into one typed object. The runner passes
 * input `foo-bar` as `INPUT_FOO-BAR` (upper case, hyphens kept, spaces as underscores), the same rule as
 * @actions/core's getInput. Every error names the input and quotes the value it could not use.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { DEFAULT_CONFIG_PATH } from '../gate/config.js';
import { cutoffFromText, cutoffListFromText } from '../gate/settings.js';
import { DEFAULT_ACCEPT_LABEL } from '../acceptance/decision.js';
import { COMMENT_MODES } from '../publish/commentPolicy.js';
import type { CommentMode } from '../publish/commentPolicy.js';
import { refuseOutputOverInput } from '../write/outputFiles.js';

export const FAIL_ON_LEVELS = ['error', 'warn', 'never'] as const;
/** `auto`: set the commit status when the token may (a refusal is a warning); `true`: a refusal fails the step. */
export const STATUS_MODES = ['auto', 'true', 'false'] as const;
export type StatusMode = (typeof STATUS_MODES)[number];
export type FailOn = (typeof FAIL_ON_LEVELS)[number];
export const IF_NO_BASELINE = ['warn', 'fail', 'skip'] as const;
export type IfNoBaseline = (typeof IF_NO_BASELINE)[number];

/** `baseline: artifact:NAME`: the artifact NAME of the baseline workflow's run for the base (baselineArtifact.ts). */
export interface BaselineArtifactInputs {
  name: string;
  /** Workflow file name or id; null: the running workflow (GITHUB_WORKFLOW_REF). */
  workflow: string | null;
  maxCommits: number;
  /** The archive entry to read instead of its one *.sqlite / *.db file. */
  path: string | null;
  ifNoBaseline: IfNoBaseline;
}

/** `candidate: artifact:NAME` (workflow_run events): the artifact NAME of the run that triggered the workflow. */
export interface CandidateArtifactInputs {
  name: string;
  /** The archive entry to read instead of its one *.sqlite / *.db file. */
  path: string | null;
}

/** Goes into an HTML comment (`<!-- evalverdict:comment-id=ID -->`): no spaces, no `-->`. */
const COMMENT_ID_PATTERN = /^[A-Za-z0-9_.:/-]{1,64}$/;
/** A GitHub login: a user's (letters, digits, hyphens) or a GitHub App's bot (`SLUG[bot]`). */
const COMMENT_AUTHOR_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}(\[bot\])?$/;

export interface ActionInputs {
  /** Absolute paths (relative inputs are taken from the workspace). */
  /** Null for `none` (a candidate-only report) and, until it is downloaded, for `artifact:NAME`. */
  baseline: string | null;
  /** Set for `baseline: artifact:NAME`. */
  baselineArtifact: BaselineArtifactInputs | null;
  /** Where an `artifact:` baseline came from, once it is found (src/action/artifactBaseline/resolveBaseline.ts). */
  baselineFrom?: { source: string; runUrl: string; commitsBehind: number; baseCommitRun: boolean; headSha?: string };
  /** Empty, until it is downloaded, for `artifact:NAME`. */
  candidate: string;
  /** Set for `candidate: artifact:NAME`. */
  candidateArtifact: CandidateArtifactInputs | null;
  golden: string;
  baselineRun: string | null;
  candidateRun: string | null;
  /** Gate config file; exclusive with `gates`. Default .github/evalverdict.yml when it exists (as the CLI). */
  config: string | null;
  /** Inline gate config YAML; exclusive with `config`. */
  gates: string | null;
  /** Empty when none was given (then nothing is published to the PR). */
  githubToken: string;
  comment: CommentMode;
  commentId: string;
  /**
   * The login EvalVerdict's comments are written by, when the token cannot say (GET /user answers 403 for
   * GITHUB_TOKEN and GitHub App installation tokens): e.g. `my-app[bot]`. Null: ask GET /user, and when it
   * will not say, `github-actions[bot]` (the GITHUB_TOKEN's author).
   */
  commentAuthor: string | null;
  failOn: FailOn;
  /** The commit status `evalverdict/<comment-id>` on the commit under test. */
  status: StatusMode;
  strictChunkerVersion: boolean;
  writeAggregate: boolean;
  /** The Markdown report (absolute); the JSON report goes next to it at `jsonPath`. */
  reportPath: string;
  jsonPath: string;
  /** Overrides the pull request taken from the event (for the workflow_run pattern). */
  prNumber: number | null;
  /** Seconds one GitHub API request may take (each attempt; retries get their own). */
  requestTimeoutS: number;
  /** Days after which the baseline run is stale (a warning in the report and an annotation); 0: never. */
  baselineMaxAgeDays: number;
  /** Seconds all the comment's API calls together may take, retries and rate-limit waits included. */
  publishTimeoutS: number;
  /** The label that accepts the failed error-level gates of the head commit it is added on. */
  acceptLabel: string;
  /** `k` and `mrr-cutoff`: the cutoffs the metrics are scored at, as the CLI's `--k` and `--mrr-cutoff`. */
  metricOptions: { ks?: number[]; mrrCutoff?: number };
  workspace: string;
}

export type Env = Record<string, string | undefined>;

export function rawInput(env: Env, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

function quote(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = rawInput(env, name);
  if (value === '') return fallback;
  const lower = value.toLowerCase();
  const match = allowed.find((a) => a === lower);
  if (!match) throw new InputError(`input \`${name}\`: ${quote(value)} is not one of ${allowed.join(', ')}`);
  return match;
}

/** YAML 1.2 core schema booleans, as actions/toolkit's getBooleanInput accepts; empty means `fallback`. */
function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = rawInput(env, name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputError(`input \`${name}\`: ${quote(value)} is not a boolean (use true or false)`);
}

function required(env: Env, name: string): string {
  const value = rawInput(env, name);
  if (value === '') throw new InputError(`input \`${name}\` is required (a path, relative to the workspace)`);
  return value;
}

function optional(env: Env, name: string): string | null {
  const value = rawInput(env, name);
  return value === '' ? null : value;
}

/** Characters actions/upload-artifact refuses in an artifact name. */
const BAD_ARTIFACT_NAME = /[":<>|*?\\/\r\n]/;

/** NAME of an input given as `artifact:NAME`, or null when it is not one. */
function artifactName(env: Env, input: 'baseline' | 'candidate'): string | null {
  const value = rawInput(env, input);
  const m = /^artifact:(.*)$/s.exec(value);
  if (!m) return null;
  const name = m[1].trim();
  if (name === '' || BAD_ARTIFACT_NAME.test(name))
    throw new InputError(
      `input \`${input}\`: ${quote(value)} is not artifact:NAME with an artifact name (no " : < > | * ? \\ / or line breaks)`,
    );
  return name;
}

/** `artifact:NAME` and the inputs that go with it; null for a path or `none`. */
function baselineArtifactInputs(env: Env): BaselineArtifactInputs | null {
  const name = artifactName(env, 'baseline');
  if (name === null) return null;
  const maxText = rawInput(env, 'baseline-max-commits') || '50';
  if (!/^[1-9][0-9]{0,3}$/.test(maxText))
    throw new InputError(`input \`baseline-max-commits\`: ${quote(maxText)} is not a number from 1 to 9999`);
  const workflow = optional(env, 'baseline-workflow');
  if (workflow !== null && !/^([A-Za-z0-9_.-]+\.ya?ml|[1-9][0-9]*)$/.test(workflow))
    throw new InputError(
      `input \`baseline-workflow\`: ${quote(workflow)} is not a workflow file name (e.g. rag-eval.yml, without .github/workflows/) or id`,
    );
  return {
    name,
    workflow,
    maxCommits: Number(maxText),
    path: optional(env, 'baseline-path'),
    ifNoBaseline: oneOf(env, 'if-no-baseline', IF_NO_BASELINE, 'warn'),
  };
}

/** `candidate: artifact:NAME`, or null for a path. */
function candidateArtifactInputs(env: Env): CandidateArtifactInputs | null {
  const name = artifactName(env, 'candidate');
  if (name === null) return null;
  return { name, path: optional(env, 'candidate-path') };
}

/** The JSON report's path: the Markdown path with `.json` for its extension. */
export function jsonPathFor(reportPath: string): string {
  return /\.(md|markdown)$/i.test(reportPath) ? reportPath.replace(/\.(md|markdown)$/i, '.json') : `${reportPath}.json`;
}

/**
 * The inputs and every problem with them, split by what a problem blocks. `publishErrors`: an input the sticky
 * comment itself depends on (`github-token`, `comment`, `comment-id`, `comment-author`, `pr-number`) is unusable,
 * so the action cannot tell which comment is its own or where it goes, and must fail without publishing.
 * `errors`: any other input; the run cannot be evaluated, but the error panel can still replace the comment.
 * Each unusable input gets a harmless stand-in value in `inputs` (never used to evaluate).
 */
export interface InputsRead {
  inputs: ActionInputs;
  publishErrors: string[];
  errors: string[];
  /** False when a report path is one of the input files: then no report file is written (the summary still is). */
  reportFilesWritable: boolean;
}

function commentIdInput(env: Env): string {
  const id = rawInput(env, 'comment-id') || 'default';
  if (!COMMENT_ID_PATTERN.test(id)) {
    throw new InputError(
      `input \`comment-id\`: ${quote(id)} must be 1 to 64 letters, digits or . _ - : / (it goes into a hidden HTML marker)`,
    );
  }
  return id;
}

function commentAuthorInput(env: Env): string | null {
  const login = optional(env, 'comment-author');
  if (login !== null && !COMMENT_AUTHOR_PATTERN.test(login)) {
    throw new InputError(
      `input \`comment-author\`: ${quote(login)} is not a GitHub login (a GitHub App's bot is NAME[bot], e.g. my-app[bot])`,
    );
  }
  return login;
}

function prNumberInput(env: Env): number | null {
  const prText = rawInput(env, 'pr-number');
  if (prText === '') return null;
  if (!/^[1-9][0-9]{0,9}$/.test(prText))
    throw new InputError(`input \`pr-number\`: ${quote(prText)} is not a pull request number`);
  return Number(prText);
}

/** `config` and `gates`, of which at most one may be given. */
function gateConfigInputs(env: Env): [string | null, string | null] {
  const c = optional(env, 'config');
  const g = optional(env, 'gates');
  if (c !== null && g !== null) {
    throw new InputError(
      `inputs \`config\` (${quote(c)}) and \`gates\` are exclusive: give a config file or inline gates, not both`,
    );
  }
  return [c, g];
}

/** A number of seconds, > 0 and at most a day; empty means `fallback`. */
function seconds(env: Env, name: string, fallback: number): number {
  const text = rawInput(env, name);
  if (text === '') return fallback;
  const value = /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value > 0 && value <= 86_400)) {
    throw new InputError(`input \`${name}\`: ${quote(text)} is not a number of seconds (> 0, e.g. 30)`);
  }
  return value;
}

/** A whole number of days, 0 to 3650; empty means `fallback`. */
function days(env: Env, name: string, fallback: number): number {
  const text = rawInput(env, name);
  if (text === '') return fallback;
  if (!/^[0-9]{1,4}$/.test(text) || Number(text) > 3650)
    throw new InputError(`input \`${name}\`: ${quote(text)} is not a whole number of days (0 to 3650; 0: no limit)`);
  return Number(text);
}

/** `k` (`1,3,5,10,20`) and `mrr-cutoff` (`10`), as the CLI's `--k` and `--mrr-cutoff`; empty: the defaults. */
function metricOptionsInputs(env: Env): ActionInputs['metricOptions'] {
  const out: ActionInputs['metricOptions'] = {};
  const k = rawInput(env, 'k');
  if (k !== '') out.ks = cutoffListFromText(k, 'input `k`');
  const cutoff = rawInput(env, 'mrr-cutoff');
  if (cutoff !== '') out.mrrCutoff = cutoffFromText(cutoff, 'input `mrr-cutoff`');
  return out;
}

/** A GitHub label name: 1 to 50 characters, no line breaks. */
function acceptLabelInput(env: Env): string {
  const label = rawInput(env, 'accept-label') || DEFAULT_ACCEPT_LABEL;
  if (label.length > 50 || /[\r\n]/.test(label))
    throw new InputError(`input \`accept-label\`: ${quote(label)} is not a label name (1 to 50 characters, one line)`);
  return label;
}

export const DEFAULT_BASELINE_MAX_AGE_DAYS = 7;
export const DEFAULT_REQUEST_TIMEOUT_S = 30;
export const DEFAULT_PUBLISH_TIMEOUT_S = 120;

function reportPathInput(env: Env): string {
  const text = rawInput(env, 'report-path');
  if (/[\\/]$/.test(text))
    throw new InputError(
      `input \`report-path\`: ${quote(text)} is a directory; give a file name such as evalverdict-report.md`,
    );
  return text || 'evalverdict-report.md';
}

type Attempt = <T>(into: string[], read: () => T, fallback: T) => T;

/** Reads one input; an InputError goes into `into` and the fallback stands in for the value. */
const attempt: Attempt = (into, read, fallback) => {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    into.push(error.message);
    return fallback;
  }
};

/** What publishing needs, read first, so that every other mistake can be shown on the comment. */
function publishInputs(env: Env, publishErrors: string[]) {
  return {
    comment: attempt(publishErrors, () => oneOf(env, 'comment', COMMENT_MODES, 'always'), 'never' as CommentMode),
    commentId: attempt(publishErrors, () => commentIdInput(env), 'default'),
    commentAuthor: attempt(publishErrors, () => commentAuthorInput(env), null),
    prNumber: attempt(publishErrors, () => prNumberInput(env), null),
    requestTimeoutS: attempt(
      publishErrors,
      () => seconds(env, 'request-timeout', DEFAULT_REQUEST_TIMEOUT_S),
      DEFAULT_REQUEST_TIMEOUT_S,
    ),
    publishTimeoutS: attempt(
      publishErrors,
      () => seconds(env, 'publish-timeout', DEFAULT_PUBLISH_TIMEOUT_S),
      DEFAULT_PUBLISH_TIMEOUT_S,
    ),
  };
}

/**
 * Before anything is read or written: a report path naming an input (`report-path: candidate.sqlite`) would replace
 * it with the report. False (and the mistake in `errors`) when it does.
 */
function reportFilesWritable(inputs: ActionInputs, errors: string[]): boolean {
  return attempt(
    errors,
    () => {
      refuseOutputOverInput(
        [
          ['input `report-path`', inputs.reportPath],
          ['the JSON report (beside `report-path`)', inputs.jsonPath],
        ],
        [
          ['input `baseline`', inputs.baseline],
          ['input `candidate`', inputs.candidateArtifact ? null : inputs.candidate],
          ['input `golden`', inputs.golden],
          ['gate config', inputs.config],
        ],
      );
      return true;
    },
    false,
  );
}

/** Whether a run input names several runs (repeats: `a,b,c`, `all`, `all:SUITE`; docs/compare.md). */
const namesSeveralRuns = (value: string) => value === 'all' || value.startsWith('all:') || value.includes(',');

/** `candidate-run`: one run or several; `write-aggregate` stores one run's aggregate, so not with several. */
function candidateRunInput(env: Env): string | null {
  const value = optional(env, 'candidate-run');
  let writes = false;
  try {
    writes = boolean(env, 'write-aggregate', false);
  } catch {
    // the write-aggregate input reports its own error
  }
  if (value !== null && writes && namesSeveralRuns(value))
    throw new InputError(
      `input \`candidate-run\` names several runs (${oneLine(value)}) and \`write-aggregate\` stores one run's ` +
        'aggregate: give one run id, or leave out write-aggregate',
    );
  return value;
}

export function readInputs(env: Env = process.env): InputsRead {
  const workspace = resolve(env.GITHUB_WORKSPACE || process.cwd());
  const path = (p: string) => (isAbsolute(p) ? p : resolve(workspace, p));
  const publishErrors: string[] = [];
  const errors: string[] = [];
  const publish = publishInputs(env, publishErrors);
  const [config, gates] = attempt(errors, () => gateConfigInputs(env), [null, null]);
  const reportPath = path(attempt(errors, () => reportPathInput(env), 'evalverdict-report.md'));
  const baselineArtifact = attempt(errors, () => baselineArtifactInputs(env), null);
  const candidateArtifact = attempt(errors, () => candidateArtifactInputs(env), null);
  const noneOrPath = (value: string) => (value.trim() === 'none' || value.startsWith('artifact:') ? null : path(value));
  const inputs: ActionInputs = {
    ...publish,
    baseline: noneOrPath(attempt(errors, () => required(env, 'baseline'), '')),
    baselineArtifact,
    candidate: candidateArtifact ? '' : path(attempt(errors, () => required(env, 'candidate'), '')),
    candidateArtifact,
    golden: path(attempt(errors, () => required(env, 'golden'), '')),
    baselineRun: optional(env, 'baseline-run'),
    candidateRun: attempt(errors, () => candidateRunInput(env), null),
    config:
      config !== null
        ? path(config)
        : gates === null && existsSync(path(DEFAULT_CONFIG_PATH))
          ? path(DEFAULT_CONFIG_PATH)
          : null,
    gates,
    githubToken: rawInput(env, 'github-token'),
    failOn: attempt(errors, () => oneOf(env, 'fail-on', FAIL_ON_LEVELS, 'error'), 'error' as FailOn),
    status: attempt(errors, () => oneOf(env, 'status', STATUS_MODES, 'auto'), 'auto' as StatusMode),
    strictChunkerVersion: attempt(errors, () => boolean(env, 'strict-chunker-version', false), false),
    writeAggregate: attempt(errors, () => boolean(env, 'write-aggregate', false), false),
    reportPath,
    jsonPath: jsonPathFor(reportPath),
    metricOptions: attempt(errors, () => metricOptionsInputs(env), {}),
    acceptLabel: attempt(errors, () => acceptLabelInput(env), DEFAULT_ACCEPT_LABEL),
    baselineMaxAgeDays: attempt(
      errors,
      () => days(env, 'baseline-max-age', DEFAULT_BASELINE_MAX_AGE_DAYS),
      DEFAULT_BASELINE_MAX_AGE_DAYS,
    ),
    workspace,
  };
  return { inputs, publishErrors, errors, reportFilesWritable: reportFilesWritable(inputs, errors) };
}

/** The inputs, or the first problem with them as an InputError. */
export function getInputs(env: Env = process.env): ActionInputs {
  const { inputs, publishErrors, errors } = readInputs(env);
  const [first] = [...publishErrors, ...errors];
  if (first !== undefined) throw new InputError(first);
  return inputs;
}
