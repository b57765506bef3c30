/**
 * Shared pieces of the source systems' own definitions (docs/golden-sets.md, "Metric profiles"). Each override
 * sits beside the declaration it changes, in its family's module; these are the parts several of them repeat.
 */
import type { ProfileOverride } from './types.js';
/** WFGY reports 0.0 for an empty denominator and gates on it: its metrics under the wfgy profile. */
export declare const wfgyZero: (denominator: string) => ProfileOverride;
