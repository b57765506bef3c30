/**
 * What the action hands the runner: log lines that cannot be read as workflow commands, and the step's outputs cut
 * to GitHub's documented size. Also the check that the runner's files (event, job summary, outputs) are regular
 * files: a FIFO would block the step for ever, a device (/dev/full) fail in the middle of it.
 */
import { statSync } from 'node:fs';
import * as core from '@actions/core';
import { inertLines } from '../inputText.js';
import type { Env } from './inputs.js';

/** GitHub's documented limit for one step output (1 MB). */
export const OUTPUT_LIMIT_BYTES = 1_000_000;

/**
 * A line for the log: core.info prints it as it is, and text from the inputs (ids, messages quoting them, URLs from
 * the API) must not be read by the runner as a workflow command (core's error, warning and debug escape theirs).
 */
export function info(text: string): void {
  core.info(inertLines(text));
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const RUNNER_FILES = ['GITHUB_EVENT_PATH', 'GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT'] as const;

/** One message per runner file that is set but is not a regular file (checked without opening it). */
export function runnerFileProblems(env: Env): string[] {
  const problems: string[] = [];
  for (const name of RUNNER_FILES) {
    const path = env[name];
    if (!path) continue;
    let kind: string;
    try {
      const stat = statSync(path);
      if (stat.isFile()) continue;
      kind = stat.isFIFO()
        ? 'a FIFO'
        : stat.isDirectory()
          ? 'a directory'
          : stat.isCharacterDevice() || stat.isBlockDevice()
            ? 'a device'
            : stat.isSocket()
              ? 'a socket'
              : 'not a regular file';
    } catch (error) {
      kind = `unreadable (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`;
    }
    problems.push(
      `EvalVerdict: ${name} ${JSON.stringify(path)} is ${kind}; the runner's ${name} must be a regular file`,
    );
  }
  return problems;
}

/**
 * `value` within OUTPUT_LIMIT_BYTES: a JSON output past it becomes `{"truncated":true,...}` (still JSON, naming the
 * report file that holds it all), any other is cut at a character boundary with an ellipsis and the byte count.
 */
export function boundedOutput(value: string, json: { jsonPath: string } | null): string {
  const bytes = Buffer.byteLength(value);
  if (bytes <= OUTPUT_LIMIT_BYTES) return value;
  if (json) return JSON.stringify({ truncated: true, bytes, limit: OUTPUT_LIMIT_BYTES, json_path: json.jsonPath });
  const note = `… (${bytes} bytes, cut to GitHub's ${OUTPUT_LIMIT_BYTES}-byte output limit)`;
  const keep = Buffer.from(value).subarray(0, OUTPUT_LIMIT_BYTES - Buffer.byteLength(note) - 4);
  return `${keep.toString('utf8').replace(/\uFFFD+$/, '')}${note}`;
}

/** Sets every output; a write error (a full disk, /dev/full) is one clear failure message, not a stack trace. */
export function setOutputs(outputs: Array<[string, string]>): string[] {
  for (const [name, value] of outputs) {
    try {
      core.setOutput(name, value);
    } catch (error) {
      return [`EvalVerdict: cannot write the step output \`${name}\` to GITHUB_OUTPUT (${codeOf(error)})`];
    }
  }
  return [];
}

export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? messageOf(error);
}
