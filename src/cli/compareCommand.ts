import { InputError } from '../errors.js';
import type { Io } from './main.js';

export const COMPARE_USAGE = 'usage: evalgate compare BASELINE.sqlite CANDIDATE.sqlite --golden golden.yaml';

export async function runCompareCommand(_args: string[], _io: Io): Promise<number> {
  throw new InputError(`compare is not built yet\n${COMPARE_USAGE}`);
}
