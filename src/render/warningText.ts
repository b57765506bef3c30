/**
 * Warnings worded for the terminal and the action's annotations (src/warnings.ts holds them as data). The report's
 * own have one wording for every output: the comment passes its Markdown style to reportWarningText.
 */
import { CAPS_TEXT } from '../aggregate/score.js';
import { plural } from '../numberFormat.js';
import { oneLine } from '../inputText.js';
import { suggest } from '../suggest.js';
import { mergeWarnings } from '../warnings.js';
import type { ReportWarning, RunnerMistakeWarning, UnknownKeyWarning, Warning } from '../warnings.js';
import { mostlyUnmatchable } from './reportWarnings.js';
import type { ReportContext } from './reportContext.js';

/**
 * Warnings as the entries print them: the first `limit` as they are, then one line for the rest. A golden set
 * with a different unknown key in each of 100,000 queries would otherwise print 100,000 lines (and the action would
 * raise as many annotations, of which GitHub shows ten). The unknown-key warnings of a golden file read in two
 * halves are merged into one per key first, as one thread gives them.
 */
export function summariseWarnings(warnings: readonly Warning[], limit = 10): string[] {
  // A warning is one line: ids and keys quoted in it show their control characters escaped.
  const merged = mergeWarnings(warnings).map((w) => oneLine(warningText(w)));
  if (merged.length <= limit + 1) return merged;
  return [
    ...merged.slice(0, limit),
    `... and ${(merged.length - limit).toLocaleString('en-US')} more warnings like these`,
  ];
}

/** One warning as a line of plain text. */
export function warningText(w: Warning): string {
  if (w.kind === 'note') return w.text;
  if (w.kind === 'unknown_key') return unknownKeyText(w);
  return reportWarningText(w);
}

const inQueries = (n: number): string => `in ${n.toLocaleString('en-US')} ${n === 1 ? 'query' : 'queries'}`;

function unknownKeyText(w: UnknownKeyWarning): string {
  const at = `${w.source}:${w.line}`;
  if (w.map === null)
    return `${at}: unknown key \`${w.key}\` ${inQueries(w.count)} (ignored)${suggest(w.key, w.known)}`;
  return `${at}: \`${w.map}\`: unknown key \`${w.key}\` ${inQueries(w.count)} (ignored; its keys are ${w.known.join(', ')})${suggest(w.key, w.known)}`;
}

/** How an output shows what in a warning is not prose: a setting or fingerprint, a commit, text from the inputs. */
export interface WarningStyle {
  code: (text: string) => string;
  commit: (sha: string) => string;
  input: (text: string) => string;
}

const PLAIN: WarningStyle = { code: (text) => text, commit: (sha) => sha.slice(0, 12), input: (text) => text };

/**
 * A report warning in words, as every output says it: plain by default (the text report, stderr, annotations); the
 * comment gives its own `style` and makes a sentence of it (markdown.ts, markdownWarning).
 */
export function reportWarningText(w: ReportWarning, style: WarningStyle = PLAIN): string {
  switch (w.kind) {
    case 'stale_baseline':
      return `the baseline run is ${w.age} old, past ${style.code('baseline-max-age')} (${plural(w.maxAgeDays, 'day', 'days')})`;
    case 'baseline_behind':
      return `the baseline is not the base commit's own run but one ${plural(w.commitsBehind, 'commit', 'commits')} behind it: changes made in between count as this pull request's`;
    case 'swapped_runs':
      return `the baseline run was created ${w.age} after the candidate: are the two the wrong way round?`;
    case 'candidate_commit':
      return `the candidate run was made at ${style.commit(w.candidate)}, not at the commit this workflow evaluated (${style.commit(w.head)})`;
    case 'missing_results':
      return `${plural(w.count, 'query has', 'queries have')} no result in the candidate (${w.leftOut ? `left out of its means: ${style.code('--mean-over trec')}` : 'counted as misses'})`;
    case 'added_results':
      return `${plural(w.count, 'query has', 'queries have')} a result only in the candidate`;
    case 'unknown_results':
      return `the ${w.side} has results for ${plural(w.count, 'query', 'queries')} not in the golden set (not scored)`;
    case 'duplicate_results':
      return `the ${w.side} has more than one result for ${plural(w.count, 'query', 'queries')} (the last one read is scored)`;
    case 'capped_results':
      return `the ${w.side} has ${plural(w.count, 'query', 'queries')} with more than ${CAPS_TEXT}: only the first are scored`;
    case 'other_golden_set':
      return `the ${w.side} run's stored aggregate was computed on another golden set (${style.code(w.recorded.slice(0, 19))}): both runs are scored here on ${style.code(w.fingerprint.slice(0, 19))}`;
    case 'judge_differs':
      return 'judge model or prompt differs: judge scores are shown, not gated';
    case 'pending':
      return `${plural(w.count, 'query is', 'queries are')} pending (not gated)`;
    case 'same_run':
      return `the baseline and the candidate are the same run (${style.input(w.runId)}: ${w.why}): every difference is 0, and the gates pass by construction`;
    case 'runner_mistake':
      return runnerMistakeText(w, style);
  }
}

/** A field of plain key characters, shown as code; any other is text from the inputs, escaped as such. */
const PLAIN_FIELD = /^[\w.[\]-]+$/;

/** A runner's mistake with its count of the run's results (RunnerMistakeWarning). */
function runnerMistakeText(w: RunnerMistakeWarning, style: WarningStyle): string {
  const where = `the ${w.side} run ${style.input(w.run)} has`;
  const count = `in ${w.queries.toLocaleString('en-US')} of its ${plural(w.results, 'result', 'results')}`;
  if (w.check === 'unmatchable-hit')
    return `${where} hits with no ${style.code('chunk_id')}, ${style.code('doc_id')} or ${style.code('doc_path')} ${count}: they can match nothing in the golden set`;
  const field = PLAIN_FIELD.test(w.field) ? style.code(w.field) : style.input(w.field);
  return `${where} an unknown key ${field} ${count} (ignored${w.meant === null ? '' : `; did you mean ${style.code(w.meant)}?`})`;
}

/**
 * What the verdict line adds when most results of a run have hits that can match nothing (mostlyUnmatchable): one
 * clause per such run, or null. The warning below it names the same mistake with its field.
 */
export function verdictCaveatText(context: ReportContext, style: WarningStyle = PLAIN): string | null {
  const runs = mostlyUnmatchable(context);
  if (runs.length === 0) return null;
  return runs
    .map(
      (m) =>
        `most results of the ${m.side} run ${style.input(m.run)} (${m.queries.toLocaleString('en-US')} of ${m.results.toLocaleString('en-US')}) have hits that can match nothing in the golden set`,
    )
    .join('; ');
}
