/** A history file (docs/history.md) written atomically: a reader never sees half of one, nor a mix of two. */
import type { History } from '../load/historyFile.js';
import { writeFileAtomically } from './outputFiles.js';

/** The history as its file holds it: one run per line, so a diff of two files shows which runs came and went. */
export function historyText(history: History): string {
  const { runs, ...head } = history;
  const runLines = runs.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  const top = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${top},\n  "runs": [${runs.length > 0 ? `\n${runLines}\n  ` : ''}]\n}\n`;
}

export function writeHistoryFile(path: string, history: History): void {
  writeFileAtomically(path, historyText(history));
}
