import type { ReportWarning, Warning } from '../warnings.js';
import type { ReportContext } from './reportContext.js';
/**
 * Warnings as the entries print them: the first `limit` as they are, then one line for the rest. A golden set
 * with a different unknown key in each of 100,000 queries would otherwise print 100,000 lines (and the action would
 * raise as many annotations, of which GitHub shows ten). The unknown-key warnings of a golden file read in two
 * halves are merged into one per key first, as one thread gives them.
 */
export declare function summariseWarnings(warnings: readonly Warning[], limit?: number): string[];
/** One warning as a line of plain text. */
export declare function warningText(w: Warning): string;
/** How an output shows what in a warning is not prose: a setting or fingerprint, a commit, text from the inputs. */
export interface WarningStyle {
    code: (text: string) => string;
    commit: (sha: string) => string;
    input: (text: string) => string;
}
/**
 * A report warning in words, as every output says it: plain by default (the text report, stderr, annotations); the
 * comment gives its own `style` and makes a sentence of it (markdown.ts, markdownWarning).
 */
export declare function reportWarningText(w: ReportWarning, style?: WarningStyle): string;
/**
 * What the verdict line adds when most results of a run have hits that can match nothing (mostlyUnmatchable): one
 * clause per such run, or null. The warning below it names the same mistake with its field.
 */
export declare function verdictCaveatText(context: ReportContext, style?: WarningStyle): string | null;
