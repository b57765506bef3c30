/**
 * `evalverdict import FORMAT`: the one import command. The format (src/import/formatList.ts) names its input flags and
 * reads its files; this checks the flags, writes the run database and golden set together, and prints what the
 * format reports.
 */
import { InputError } from '../errors.js';
import { importOutputs, writeImport } from '../import/importFiles.js';
import { flagsOf } from '../import/importFormat.js';
import { IMPORT_FORMATS, IMPORT_USAGE } from '../import/formatList.js';
import { suggest } from '../suggest.js';
import { parse, wantsHelp } from './args.js';
import type { Io } from './io.js';

export async function importCommand(args: string[], io: Io): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h') {
    if (name === undefined) throw new InputError(IMPORT_USAGE);
    io.stdout(`${IMPORT_USAGE}\n`);
    return 0;
  }
  const format = IMPORT_FORMATS.find((f) => f.name === name);
  if (format === undefined) {
    const names = IMPORT_FORMATS.map((f) => f.name);
    throw new InputError(`unknown \`import\` subcommand \`${name}\`${suggest(name, names)}\n${IMPORT_USAGE}`);
  }
  if (wantsHelp(rest, format.usage, io)) return 0;
  const { values, positionals } = parse(rest, flagsOf(format), format.usage);
  if (positionals.length > 0) throw new InputError(`unexpected argument ${positionals[0]}\n${format.usage}`);
  const required = [...format.inputs.map(([flag]) => flag), 'out'];
  if (required.some((flag) => !values[flag])) {
    const list = required.map((flag) => `--${flag}`);
    throw new InputError(`${list.slice(0, -1).join(', ')} and ${list.at(-1)} are required\n${format.usage}`);
  }
  const outputs = importOutputs(values, format);
  const imported = format.read(values, outputs);
  await writeImport(outputs, imported.runs, imported.golden, format.goldenGrows);
  for (const w of imported.warnings) io.stderr(`warning: ${w}\n`);
  io.stdout(`${imported.done}${outputs.outExists ? ' (added to the runs already there)' : ''}\n`);
  return 0;
}
