/**
 * Main's history around a comparison, shared by `evalverdict compare --history` and the action: read a
 * history without letting a bad one stop the report (its problem becomes one warning and the report goes on
 * without the trend), the trend and the flaky-by-history queries the comparison is given, and the history with
 * the compared candidate appended.
 */
import { appendRun, emptyHistory, gatedMetrics, trendOf } from '../compare/historyTrend.js';
import type { History } from '../load/historyFile.js';
import type { HistoryTrend } from '../compare/historyTrend.js';
import { isInputError } from '../errors.js';
import type { CompareReport } from '../gate/types.js';
import type { CompareInputs } from './runCompare.js';

/** Metrics the trend shows at most (the newest run's gated ones, in its order). */
const TREND_METRICS = 12;

export type HistoryRead = { history: History; problem: null } | { history: null; problem: string };

/** `read()`'s history, or its input error's message (anything else is a bug and is thrown). */
export function tryHistory(read: () => History): HistoryRead {
  try {
    return { history: read(), problem: null };
  } catch (error) {
    if (!isInputError(error)) throw error;
    return { history: null, problem: error.message };
  }
}

/** The trend of the gated metrics the newest main run recorded, over the newest golden set's runs. */
export function historyTrend(history: History): HistoryTrend {
  const newest = history.runs.at(-1);
  return trendOf(history, Object.keys(newest?.metrics ?? {}).slice(0, TREND_METRICS));
}

/** The comparison's inputs with the trend in its report context and the flaky-by-history queries as knownFlaky. */
export function withHistory<T extends Pick<CompareInputs, 'reportContext' | 'knownFlaky'>>(
  inputs: T,
  history: History | null,
): T {
  if (!history || history.runs.length === 0) return inputs;
  const trend = historyTrend(history);
  return {
    ...inputs,
    reportContext: { ...inputs.reportContext, trend },
    ...(trend.flaky.size > 0 ? { knownFlaky: trend.flaky } : {}),
  };
}

/** `history` (a new one when null) with the report's candidate appended as main's newest run. */
export function historyWithRun(history: History | null, report: CompareReport): History {
  return appendRun(history ?? emptyHistory(), report, gatedMetrics(report));
}
