/** Argument parsing for the CLI: node's parseArgs, with usage errors as InputError (exit 2). */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { InputError } from '../errors.js';
import { cutoffFromText, cutoffListFromText } from '../gate/settings.js';
import { suggest } from '../suggest.js';
import type { AggregateOptions } from '../aggregate/score.js';
import type { Io } from './io.js';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

/** Whether the arguments ask for help; if so, the usage (a function: built only when asked) is printed. */
export function wantsHelp(args: string[], usage: string | (() => string), io: Io): boolean {
  if (!args.includes('--help') && !args.includes('-h')) return false;
  io.stdout(`${typeof usage === 'string' ? usage : usage()}\n`);
  return true;
}

/** Node's parseArgs, typed by `options` (a string flag's value is `string | undefined`, no casts needed). */
export function parse<const T extends FlagOptions>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify .*$/, '');
    throw new InputError(`${message}${unknownFlagHint(message, options)}\n${usage}`);
  }
}

/** "; did you mean `--golden`?" after node's "Unknown option '--gold'", or '' (no close flag, or another error). */
function unknownFlagHint(message: string, options: FlagOptions): string {
  const flag = /^Unknown option '--([^'=]+)'$/.exec(message)?.[1];
  if (flag === undefined) return '';
  return suggest(
    `--${flag}`,
    [...Object.keys(options), 'help'].map((name) => `--${name}`),
  );
}

export const METRIC_FLAGS = {
  k: { type: 'string' },
  'mrr-cutoff': { type: 'string' },
  'ndcg-gain': { type: 'string' },
  'min-grade': { type: 'string' },
  'mean-over': { type: 'string' },
} as const;

/**
 * A flag's whole number, written in decimal digits (an optional minus sign first): `Number` alone would read "" and
 * "  " as 0, and "0x10" or "1e1" as numbers nobody typed. `what` completes "... is not" in the message.
 */
export function wholeNumber(text: string, flag: string, min: number, what: string): number {
  const n = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new InputError(`--${flag}: ${JSON.stringify(text)} is not ${what}`);
  return n;
}

export function metricOptions(values: Record<string, unknown>): Partial<AggregateOptions> {
  const out: Partial<AggregateOptions> = {};
  if (typeof values.k === 'string') out.ks = cutoffListFromText(values.k, '--k');
  if (typeof values['mrr-cutoff'] === 'string') out.mrrCutoff = cutoffFromText(values['mrr-cutoff'], '--mrr-cutoff');
  const gain = values['ndcg-gain'];
  if (typeof gain === 'string') {
    if (gain !== 'linear' && gain !== 'exponential')
      throw new InputError(`--ndcg-gain: must be linear or exponential, got ${JSON.stringify(gain)}`);
    out.ndcgGain = gain;
  }
  if (typeof values['min-grade'] === 'string') {
    out.minGrade = wholeNumber(values['min-grade'], 'min-grade', -Infinity, 'a whole number');
  }
  const mean = values['mean-over'];
  if (typeof mean === 'string') {
    if (mean !== 'default' && mean !== 'trec' && mean !== 'trec_c')
      throw new InputError(`--mean-over: must be default, trec or trec_c, got ${JSON.stringify(mean)}`);
    out.meanOver = mean;
  }
  return out;
}
