/**
 * `evalverdict compare --history FILE [--history-out FILE]`: the trend of main's history in the report, and the
 * history with this comparison's candidate appended (docs/compare.md, "Main's history").
 */
import { readHistoryFile } from '../load/historyFile.js';
import type { History } from '../load/historyFile.js';
import type { CompareInputs } from '../pipeline/runCompare.js';
import { historyWithRun, tryHistory, withHistory } from '../pipeline/withHistory.js';
import type { CompareReport } from '../gate/types.js';
import { refuseOutputOverInput } from '../write/outputFiles.js';
import { writeHistoryFile } from '../write/historyWriter.js';
import type { Io } from './io.js';

export const HISTORY_FLAGS = {
  history: { type: 'string' },
  'history-out': { type: 'string' },
} as const;

/**
 * The comparison's inputs with `--history`'s trend; a history that cannot be read is a warning on stderr and the
 * report goes on without it (with --history-out, a new history starts).
 */
export function compareWithHistory(
  inputs: CompareInputs,
  values: { history?: string; 'history-out'?: string },
  io: Io,
): { inputs: CompareInputs; history: History | null } {
  refuseOutputOverInput(
    [['--history-out', values['history-out']]],
    [
      ['baseline database', inputs.baselinePath],
      ['candidate database', inputs.candidatePath],
      ['golden set', inputs.goldenPath],
      ['gate config', inputs.configPath],
    ],
  );
  if (values.history === undefined) return { inputs, history: null };
  const read = tryHistory(() => readHistoryFile(values.history!));
  if (read.problem !== null)
    io.stderr(
      `warning: --history: ${read.problem}; the report has no trend${values['history-out'] ? ', and --history-out starts a new history' : ''}\n`,
    );
  return { inputs: withHistory(inputs, read.history), history: read.history };
}

/** With --history-out: the history with this run appended, written atomically. */
export function writeHistoryOut(path: string | undefined, history: History | null, report: CompareReport): void {
  if (path !== undefined) writeHistoryFile(path, historyWithRun(history, report));
}
