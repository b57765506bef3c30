/**
 * The comment that replaces the report when a run cannot be evaluated (a missing or bad database, a bad gate
 * config, an internal error), so a report from an earlier commit never stays up as if it were current.
 * Pure: text in, Markdown out.
 */

export interface ErrorPanelInfo {
  /** The error message as the log shows it (an InputError's message names the file and line). */
  message: string;
  /** False for a bug in EvalVerdict rather than in what it was given. */
  inputError: boolean;
  /** The commit that was evaluated, if known. */
  sha?: string | null;
  /** Link to the workflow run's log, if known. */
  runUrl?: string | null;
}

/** A fence longer than any run of backticks in the text, so the message cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

const MAX_MESSAGE = 4_000;
/** A run of characters without white space (an id, a value) longer than this is cut in the panel. */
const MAX_WORD = 120;
const LONG_WORD = new RegExp(`\\S{${MAX_WORD + 1},}`, 'gu');

/**
 * The message as the panel shows it. A message quotes ids and values from the inputs, which a stranger's pull
 * request controls, and a code fence shows `<!--` as it is: an HTML comment opener or closer gets a space inside,
 * so no input can write a hidden line (the acceptance state's, src/acceptance/state.ts) into our comment.
 */
export function panelText(message: string): string {
  const cut =
    message.length > MAX_MESSAGE
      ? `${message.slice(0, MAX_MESSAGE)}\n… (cut; the full message is in the log)`
      : message;
  return cut
    .replace(LONG_WORD, (word) => `${[...word].slice(0, MAX_WORD).join('')}… (${[...word].length} characters)`)
    .replace(/<!--/g, '<!- -')
    .replace(/--!?>/g, (closer) => `- ${closer.slice(1)}`);
}

export function renderErrorPanel(info: ErrorPanelInfo): string {
  const message = panelText(info.message);
  const where = [
    info.sha ? `commit ${info.sha.slice(0, 12)}` : null,
    info.runUrl ? `[workflow run log](${info.runUrl})` : null,
  ]
    .filter((x): x is string => x !== null)
    .join(' · ');
  return [
    '⛔ **EvalVerdict: error — the run could not be evaluated**',
    '',
    info.inputError
      ? 'No gate was checked for this commit. Fix the input below and re-run; this comment will show the report again.'
      : 'No gate was checked for this commit: EvalVerdict hit an internal error (please report it with the log).',
    '',
    fenced(message),
    ...(where ? ['', `<sub>${where}</sub>`] : []),
    '',
  ].join('\n');
}
