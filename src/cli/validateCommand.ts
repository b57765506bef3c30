/** `evalverdict validate`: a run database checked against the documented format, before compare reads it. */
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { readGoldenFile } from '../load/golden.js';
import { stableJson } from '../stableJson.js';
import { summariseWarnings } from '../render/warningText.js';
import { checkRunFile } from '../validate/checkRunFile.js';
import { formatFinding, goldenViewOf } from '../validate/findings.js';
import { parse, wantsHelp } from './args.js';
import type { Io } from './io.js';

export const VALIDATE_USAGE = `usage: evalverdict validate RUN.sqlite [--golden golden.yaml] [--run ID] [--format text|json]
  Checks one run (default: the newest) against the documented format (docs/run-database.md, schemas/result.schema.json):
  unknown keys in result_json, its hits, answer and citations (with did-you-mean), hits that can match nothing, ranks
  that are not 1..n, an empty run, a query_id given twice; with --golden, queries missing from either side and a run
  none of whose hits can match the golden set. Exit 0 when clean, 1 with findings, 2 when the file cannot be read.`;

export async function validateCommand(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args, VALIDATE_USAGE, io)) return 0;
  const { values, positionals } = parse(
    args,
    { golden: { type: 'string' }, run: { type: 'string' }, format: { type: 'string' } },
    VALIDATE_USAGE,
  );
  if (positionals.length !== 1) throw new InputError(`expected one run database\n${VALIDATE_USAGE}`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new InputError(`--format must be text or json, got ${JSON.stringify(format)}\n${VALIDATE_USAGE}`);
  const file = positionals[0];
  const golden = typeof values.golden === 'string' ? readGoldenFile(values.golden) : null;
  const { run, rows, findings } = await checkRunFile(file, values.run ?? null, golden && goldenViewOf(golden));
  for (const w of summariseWarnings(golden?.warnings ?? [])) io.stderr(`warning: ${w}\n`);
  if (format === 'json') {
    io.stdout(stableJson({ file, run, rows, golden: golden?.source ?? null, findings }));
  } else {
    for (const f of findings) io.stdout(`${formatFinding(f)}\n`);
    const summary =
      findings.length === 0 ? 'no findings' : `${findings.length} finding${findings.length === 1 ? '' : 's'}`;
    io.stdout(`${file}: run \`${oneLine(run)}\`: ${rows.toLocaleString('en-US')} results checked, ${summary}\n`);
  }
  return findings.length === 0 ? 0 : 1;
}
