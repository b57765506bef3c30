/**
 * The settings scoring and testing share: the cutoffs (`k`, `mrr_cutoff`) and the level (`alpha`). Each is bounded
 * here once, whichever door it comes in by (the gate config, a CLI flag, an action input), with the bounds of the
 * gate-config schema (schemas/gate-config.schema.json), the one source; then resolved once (config.ts,
 * settingsOf) and passed down: scoring and the comparison take them as options, and the gates read the level the
 * comparison was tested at.
 */
import gateConfigSchema from '../../schemas/gate-config.schema.json' with { type: 'json' };
import { InputError } from '../errors.js';
import { valueText } from '../inputText.js';

const { k: kSchema, mrr_cutoff: cutoffSchema, alpha: alphaSchema } = gateConfigSchema.properties;

/** A cutoff's bounds (k's and mrr_cutoff's are the same; the schema test holds them together). */
export const CUTOFF_MIN = cutoffSchema.minimum;
export const CUTOFF_MAX = cutoffSchema.maximum;
/** alpha is above ALPHA_ABOVE and at most ALPHA_MAX: a tested gate's interval is two-sided at 1 - 2 alpha. */
export const ALPHA_ABOVE = alphaSchema.exclusiveMinimum;
export const ALPHA_MAX = alphaSchema.maximum;
export const DEFAULT_ALPHA = 0.05;

/** The schema's own k bounds, for the test that holds them to mrr_cutoff's. */
export const K_SCHEMA_BOUNDS = [kSchema.anyOf[0].minimum, kSchema.anyOf[0].maximum] as const;

/** The words every refusal of a cutoff ends with. */
export const CUTOFF_WORDS = `a whole number ${CUTOFF_MIN}-${CUTOFF_MAX}`;

export function isCutoff(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= CUTOFF_MIN && (value as number) <= CUTOFF_MAX;
}

export function isAlpha(value: unknown): value is number {
  return typeof value === 'number' && value > ALPHA_ABOVE && value <= ALPHA_MAX;
}

/**
 * One cutoff as typed (a flag's or an input's text): decimal digits only, so "", "0x10" and "1e1" are refused rather
 * than read as numbers nobody typed. `name` opens the message (`--mrr-cutoff`, input `mrr-cutoff`).
 */
export function cutoffFromText(text: string, name: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!isCutoff(n)) throw new InputError(`${name}: ${valueText(text)} is not ${CUTOFF_WORDS}`);
  return n;
}

/** A comma list of cutoffs as typed (`1,3,5,10,20`): each as cutoffFromText, repeats dropped, in order. */
export function cutoffListFromText(text: string, name: string): number[] {
  const ks = text.split(',').map((part) => {
    const n = /^\d+$/.test(part.trim()) ? Number(part.trim()) : Number.NaN;
    if (!isCutoff(n))
      throw new InputError(`${name}: ${valueText(text)} is not ${CUTOFF_WORDS} or a comma list of them`);
    return n;
  });
  return [...new Set(ks)].sort((a, b) => a - b);
}
