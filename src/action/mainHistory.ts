/**
 * Main's history in the action (docs/action.md "Main's history"). Input `history-file` (a file name,
 * relative to the workspace) turns it on. The previous history travels inside the baseline artifact, beside the
 * run database, so reading it costs no extra download: on a pull request it gives the comment its trend; on a push
 * to the default branch this run is appended and the file written at `history-file`, for the upload step to put
 * into this commit's artifact. Without an `artifact:` baseline the file at `history-file` is read, if it exists.
 * A history that cannot be read is one warning: the report goes on without the trend (and a push starts anew).
 */
import { existsSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import * as core from '@actions/core';
import { InputError } from '../errors.js';
import { inertLines, oneLine } from '../inputText.js';
import { MAX_HISTORY_BYTES, parseHistory, readHistoryFile } from '../load/historyFile.js';
import type { History } from '../load/historyFile.js';
import { sizeText } from '../load/regularFile.js';
import type { CompareReport } from '../gate/types.js';
import { historyWithRun, tryHistory } from '../pipeline/withHistory.js';
import { refuseOutputOverInput } from '../write/outputFiles.js';
import { writeHistoryFile } from '../write/historyWriter.js';
import type { RunContext } from './context.js';
import { rawInput } from './inputs.js';
import type { ActionInputs, Env } from './inputs.js';
import { extractZipEntry, listZipEntries } from './artifactBaseline/zipArchive.js';
import type { ZipLimits } from './artifactBaseline/zipArchive.js';

/** The history's entry as the baseline artifact carries it: its bytes, or why it could not be taken. */
export type ArtifactHistory = { bytes: Buffer; entry: string } | { problem: string };

/**
 * The entry of the baseline archive that is the history file (named `name`, at the archive's top or in a folder):
 * null when there is none. Checked like every entry (listZipEntries), capped at MAX_HISTORY_BYTES before it is
 * inflated; a problem with it is returned, not thrown, since the run database beside it is still good.
 */
export function historyFromArchive(
  zip: Buffer,
  where: string,
  name: string,
  limits: ZipLimits,
): ArtifactHistory | null {
  try {
    const matches = listZipEntries(zip, where, limits).filter((e) => e.name === name || e.name.endsWith(`/${name}`));
    if (matches.length === 0) return null;
    if (matches.length > 1)
      return { problem: `${where}: ${matches.length} entries named ${JSON.stringify(oneLine(name))}, expected one` };
    const [entry] = matches;
    if (entry.size > MAX_HISTORY_BYTES)
      return {
        problem: `${where}: entry ${JSON.stringify(oneLine(entry.name))} is ${sizeText(entry.size)}, more than the ${sizeText(MAX_HISTORY_BYTES)} a history may be`,
      };
    return { bytes: extractZipEntry(zip, entry, where), entry: entry.name };
  } catch (error) {
    if (error instanceof InputError) return { problem: error.message };
    throw error;
  }
}

export interface HistorySettings {
  /** Absolute path of `history-file`. */
  path: string;
  /** The file name looked for in the baseline artifact. */
  entryName: string;
  /** This run is a push to the repository's default branch: it appends and writes the history. */
  records: boolean;
}

/** `history-file`, resolved; null when it is not set. A path over one of the inputs is refused. */
export function historySettings(env: Env, inputs: ActionInputs, ctx: RunContext): HistorySettings | null {
  const value = rawInput(env, 'history-file');
  if (value === '') return null;
  if (/[\\/]$/.test(value)) throw new InputError(`input \`history-file\`: ${JSON.stringify(value)} is a directory`);
  const path = isAbsolute(value) ? value : resolve(inputs.workspace, value);
  refuseOutputOverInput(
    [['input `history-file`', path]],
    [
      ['input `baseline`', inputs.baseline],
      ['input `candidate`', inputs.candidateArtifact ? null : inputs.candidate],
      ['input `golden`', inputs.golden],
      ['gate config', inputs.config],
      ['input `report-path`', inputs.reportPath],
      ['the JSON report', inputs.jsonPath],
    ],
  );
  return { path, entryName: basename(path), records: pushToDefaultBranch(ctx) };
}

/** A push whose ref is the repository's default branch (`repository.default_branch` of the push payload). */
export function pushToDefaultBranch(ctx: RunContext): boolean {
  if (ctx.eventName !== 'push') return false;
  const repository = ctx.payload.repository as { default_branch?: unknown } | undefined;
  const branch = repository?.default_branch;
  return typeof branch === 'string' && branch !== '' && ctx.payload.ref === `refs/heads/${branch}`;
}

/**
 * The previous history: the baseline artifact's entry when the baseline came from one, else the file at
 * `history-file` if it exists. A problem is a warning, and no history.
 */
export function previousHistory(
  settings: HistorySettings,
  fromArtifact: ArtifactHistory | null | undefined,
): History | null {
  let read: ReturnType<typeof tryHistory>;
  if (fromArtifact === undefined) {
    if (!existsSync(settings.path)) {
      core.info(`history-file: no history at ${settings.path} yet`);
      return null;
    }
    read = tryHistory(() => readHistoryFile(settings.path));
  } else if (fromArtifact === null) {
    core.info(`history-file: the baseline artifact holds no ${settings.entryName}; no trend this time`);
    return null;
  } else if ('problem' in fromArtifact) read = { history: null, problem: fromArtifact.problem };
  else {
    const { bytes, entry } = fromArtifact;
    read = tryHistory(() => parseHistory(bytes, `the baseline artifact's ${entry}`));
  }
  if (read.problem !== null) {
    core.warning(
      inertLines(
        `history-file: ${oneLine(read.problem)}; the report has no trend${settings.records ? ', and this run starts a new history' : ''}`,
      ),
      { title: 'EvalVerdict: unreadable history' },
    );
    return null;
  }
  core.info(`history-file: ${read.history.runs.length} earlier main runs read`);
  return read.history;
}

/**
 * On a push to the default branch: the history with this run appended (the previous one as it was when the run
 * could not be evaluated, so the chain goes on), written atomically at `history-file`. Returns failure messages.
 */
export function recordHistory(
  settings: HistorySettings,
  previous: History | null,
  report: CompareReport | null,
): string[] {
  if (!settings.records) return [];
  const next = report ? historyWithRun(previous, report) : previous;
  if (!next) return [];
  try {
    writeHistoryFile(settings.path, next);
    core.info(`history-file: ${next.runs.length} main runs written to ${settings.path}`);
    return [];
  } catch (error) {
    return [`EvalVerdict: history-file: ${error instanceof Error ? error.message : String(error)}`];
  }
}
