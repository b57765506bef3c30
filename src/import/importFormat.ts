/**
 * The importer interface: what one format of another system's files (TREC, ckv, PaperBot, WFGY) tells the one
 * `evalverdict import FORMAT` command. A format names its input flags, reads its inputs (detecting their shape where a
 * system writes more than one, streaming JSON Lines through the one line reader in load/lines.ts) and maps them to
 * runs of results and a golden set; the command checks the flags, writes both files or neither, and prints what the
 * format reports. docs/decisions/0009-importer-interface.md.
 */

import { basename, extname } from 'node:path';

/** Flag values as node's parseArgs gives them (no flag of an import is given more than once, but the type says so). */
export type FlagValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** One run to write: its id, row fields and results (an iterable: a large run is made as it is written). */
export interface ImportedRun {
  runId: string;
  suite: string;
  config: Record<string, unknown>;
  createdAt: string;
  results: Iterable<{ queryId: string; result: unknown }>;
}

export interface ImportedGolden {
  header: Record<string, unknown>;
  items: unknown[];
  /** The header's description as a `#` comment in YAML, and no header there (TREC's golden set, as it was). */
  yamlComment?: boolean;
}

/** What a format read: the runs and golden set to write, the warnings for stderr, and the closing line. */
export interface Imported {
  runs: ImportedRun[];
  golden: ImportedGolden;
  warnings: string[];
  /** The line for stdout once both files are written. */
  done: string;
}

/** The output flags every format takes, checked before any input is read (files.ts). */
export interface ImportOutputs {
  out: string;
  goldenOut: string | undefined;
  force: boolean;
  /** --run-id (a format that takes it), or the format's default. */
  runId: string;
  /** --created-at, checked; undefined: the format's default. */
  createdAt: string | undefined;
  /** Whether the run is added to an --out that exists (else --out is new, or replaced). */
  outExists: boolean;
}

export interface ImportFormat {
  name: string;
  /** The format's line in `evalverdict import --help`. */
  summary: string;
  /** `evalverdict import NAME --help`. */
  usage: string;
  /** The flags naming input files, each required: flag and what the file is, for messages. */
  inputs: ReadonlyArray<readonly [flag: string, what: string]>;
  /** The format's other flags, each taking a value (the output flags, OUTPUT_FLAGS, are every format's). */
  options: readonly string[];
  /** The run id when --run-id is not given (the input file's name, without its extension). */
  defaultRunId: (values: FlagValues) => string;
  /** An existing --out is replaced, only with --force, instead of getting the runs added (TREC's rule). */
  replacesOut?: boolean;
  /** A golden set may gain queries (WFGY's repeat copies): an existing one that the new one extends is replaced. */
  goldenGrows?: boolean;
  /** Reads the inputs (only after the output flags are checked) and maps them to runs and a golden set. */
  read: (values: FlagValues, outputs: ImportOutputs) => Imported;
}

/** The flags of every format's output. */
export const OUTPUT_FLAGS = {
  out: { type: 'string' },
  'golden-out': { type: 'string' },
  'created-at': { type: 'string' },
  force: { type: 'boolean' },
} as const;

/** A string flag's value (parseArgs keeps them apart from the booleans only by the declarations). */
export const stringFlag = (values: FlagValues, flag: string): string | undefined => {
  const v = values[flag];
  return typeof v === 'string' ? v : undefined;
};

/** The default run id of a format with one run: the name of the file `flag` names, without its extension. */
export const nameOfFile =
  (flag: string) =>
  (values: FlagValues): string => {
    const file = stringFlag(values, flag) ?? '';
    return basename(file, extname(file));
  };

/** Every flag a format takes, as node's parseArgs declares them. */
export function flagsOf(format: ImportFormat): Record<string, { type: 'string' | 'boolean' }> {
  const flags: Record<string, { type: 'string' | 'boolean' }> = { ...OUTPUT_FLAGS };
  for (const flag of [...format.inputs.map(([name]) => name), ...format.options]) flags[flag] = { type: 'string' };
  return flags;
}

/** A required flag's value; the command checked it is there (a format reads only after that check). */
export function requiredFlag(values: FlagValues, flag: string): string {
  const v = stringFlag(values, flag);
  if (v === undefined) throw new Error(`--${flag} was not checked before the format read it`);
  return v;
}
