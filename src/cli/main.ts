/**
 * The `evalverdict` command line. The only place besides the action entry that reads files, flags and the
 * environment; everything it calls below is the same code the action runs.
 */
import { existsSync } from 'node:fs';
import { buildMetricTable } from '../aggregate/metrics/registry.js';
import { DEFAULT_OPTIONS } from '../aggregate/score.js';
import type { AggregateOptions } from '../aggregate/score.js';
import { InputError, isInputError } from '../errors.js';
import { inertLines, oneLine } from '../inputText.js';
import { formatGolden, goldenFormatOf, isMetricProfile, readGoldenDocument } from '../load/golden.js';
import { refuseExisting, refuseOutputOverInput, refuseSameOutput, writeOutputFiles } from '../write/outputFiles.js';
import { createRunDatabase, saveDatabase } from '../write/writeRunDatabase.js';
import { runAggregate, runAggregateSideBySide, runPerQuery } from '../pipeline/runAggregate.js';
import { runsNamed } from '../pipeline/runLists.js';
import {
  renderAggregateMarkdown,
  renderAggregateText,
  renderSideBySideMarkdown,
  renderSideBySideText,
} from '../render/aggregateText.js';
import { stableJson } from '../stableJson.js';
import { renderMetricTableMarkdown, renderMetricTableText } from '../render/metricDocs.js';
import { renderPerQueryCsv, renderPerQueryMarkdown, renderPerQueryText } from '../render/perQueryTable.js';
import { summariseWarnings } from '../render/warningText.js';
import { suggest } from '../suggest.js';
import { METRIC_FLAGS, metricOptions, parse, wantsHelp } from './args.js';
import { runCompareCommand } from './compareCommand.js';
import { importCommand } from './importCommand.js';
import { validateCommand } from './validateCommand.js';
import { powerCommand } from './powerCommand.js';
import { calibrateCommand } from './calibrateCommand.js';
import { traceTo } from './io.js';
import type { Io } from './io.js';
// Inlined by the bundler: `--version` says what package.json says, with no second place to bump.
import packageJson from '../../package.json' with { type: 'json' };

const USAGE = `usage: evalverdict <command> [options]

commands:
  compare BASELINE.sqlite CANDIDATE.sqlite --golden golden.yaml   compare two runs, apply gates, render the report
  aggregate RUN.sqlite --golden golden.yaml [--run ID] [--json] [--write]   every metric of one run
  aggregate RUN.sqlite --golden golden.yaml --per-query [--format csv]      one row per query of one run
  aggregate RUN.sqlite --golden golden.yaml --run a,b,c | --run all       several runs side by side
  validate RUN.sqlite [--golden golden.yaml] [--run ID]          check a run database against the documented format
  init FILE.sqlite                                                create an empty run database
  import trec --qrels QRELS --run RUN --out OUT.sqlite [--golden-out golden.jsonl] [--force]
  import wfgy --qaset qaset.json --traces trace.jsonl --out OUT.sqlite [--golden-out golden.jsonl]   WFGY example 08's files
  import ckv --fixture queries.yaml --results results.jsonl --out OUT.sqlite [--golden-out golden.jsonl]   ckv's files
  import paperbot --bench bench_v1.json --results results.jsonl --out OUT.sqlite [--golden-out golden.jsonl]   a run per mode
  golden convert IN OUT [--force]                                  a golden set from YAML to JSON Lines or back
  power --golden golden.yaml [--baseline RUN.sqlite] [--config C]  the smallest drop each tested gate detects
  calibrate RUNS.sqlite --golden golden.yaml [--run a,b,c | all]  runs of one commit: noise, detectable drop, a gate config
  metrics                                                         list every metric id with its definition

Run \`evalverdict <command> --help\` for a command's options. Exit codes: 0 ok / gates passed, 1 a gate failed, 2 bad input or usage.`;

const AGGREGATE_USAGE = `usage: evalverdict aggregate RUN.sqlite --golden golden.yaml [--run ID] [--format text|markdown|json] [--json] [--write]
  [--k 1,3,5,10] [--mrr-cutoff 10] [--ndcg-gain linear|exponential] [--min-grade 1] [--mean-over default|trec|trec_c]
  [--per-query [--format text|markdown|csv|json]]   one row per golden query of the run (docs/cli.md)
  [--run a,b,c | --run all]   several runs side by side, the best value of each metric marked`;

/**
 * What the bin runs: main, with a user mistake answered by its message on one line and exit 2 (no stack trace),
 * anything else by `internal error` with the stack and exit 3. Tests call it in process; the entry
 * (src/cli/index.ts) only adds the process around it.
 */
export async function runMain(argv: string[], rawIo: Io): Promise<number> {
  const io: Io = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(inert(text)),
    stderr: (text) => rawIo.stderr(inert(text)),
  };
  try {
    return await main(argv, io);
  } catch (error) {
    if (isInputError(error)) {
      io.stderr(`evalverdict: ${error.message}\n`);
      return 2;
    }
    io.stderr(
      `evalverdict: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 3;
  }
}

/**
 * Text from inputs (ids, keys, queries) reaches the output: a line of it that the Actions runner would read as a
 * workflow command is made inert (src/inputText.ts).
 */
const inert = inertLines;

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command === '--version') {
    io.stdout(`evalverdict ${packageJson.version}\n`);
    return 0;
  }
  switch (command) {
    case 'aggregate':
      return aggregateCommand(rest, io);
    case 'compare':
      return runCompareCommand(rest, io);
    case 'init':
      return initCommand(rest, io);
    case 'import':
      return importCommand(rest, io);
    case 'metrics':
      return metricsCommand(rest, io);
    case 'power':
      return powerCommand(rest, io);
    case 'calibrate':
      return calibrateCommand(rest, io);
    case 'golden':
      return goldenCommand(rest, io);
    case 'validate':
      return validateCommand(rest, io);
    default:
      throw new InputError(`unknown command \`${command}\`${suggest(command, COMMANDS)}\n${USAGE}`);
  }
}

/** What `main` answers, for the suggestion after an unknown command. */
const COMMANDS = [
  'aggregate',
  'compare',
  'validate',
  'init',
  'import',
  'metrics',
  'golden',
  'power',
  'calibrate',
  'help',
  '--help',
  '--version',
];

/** A subcommand other than the one there is (`import trec`, `golden convert`): one line with a suggestion, and usage. */
function unknownSubcommand(command: string, given: string | undefined, known: string, usage: string): InputError {
  if (given === undefined) return new InputError(usage);
  return new InputError(`unknown \`${command}\` subcommand \`${given}\`${suggest(given, [known])}\n${usage}`);
}

/** aggregate's --help: its usage, then every metric it reports, from the metric table (as docs/metrics.md is). */
function aggregateHelp(): string {
  const defs = buildMetricTable(DEFAULT_OPTIONS, ['<stage>']);
  const width = Math.max(...defs.map((d) => d.id.length));
  const lines = defs.map((d) => `  ${d.id.padEnd(width)}  ${d.direction.padEnd(7)}  ${d.definition}`);
  return `${AGGREGATE_USAGE}

metrics at the default k and MRR cutoff, each reported with its denominator n (which way is better: higher, lower,
or neutral for counts; the denominators and the full table: evalverdict metrics, docs/metrics.md):
${lines.join('\n')}`;
}

async function aggregateCommand(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args, aggregateHelp, io)) return 0;
  const { values, positionals } = parse(
    args,
    {
      golden: { type: 'string' },
      run: { type: 'string' },
      json: { type: 'boolean' },
      format: { type: 'string' },
      write: { type: 'boolean' },
      'per-query': { type: 'boolean' },
      ...METRIC_FLAGS,
    },
    AGGREGATE_USAGE,
  );
  if (positionals.length !== 1) throw new InputError(`expected one run database\n${AGGREGATE_USAGE}`);
  const golden = values.golden;
  if (!golden) throw new InputError(`--golden is required\n${AGGREGATE_USAGE}`);
  const file = positionals[0];
  const options = { ...DEFAULT_OPTIONS, ...metricOptions(values) };
  const format = values.json === true ? 'json' : (values.format ?? 'text');
  const runs = typeof values.run === 'string' ? await runsNamed(file, values.run, '--run') : null;
  if (runs !== null) {
    if (values['per-query'] === true || values.write === true)
      throw new InputError(
        `--run ${values.run} names several runs: --per-query and --write take one run\n${AGGREGATE_USAGE}`,
      );
    return sideBySideCommand(file, golden, runs, options, format, io);
  }
  if (values['per-query'] === true) {
    if (values.write === true)
      throw new InputError(`--per-query writes nothing: leave out --write\n${AGGREGATE_USAGE}`);
    return perQueryCommand(file, golden, values.run, options, format, io);
  }
  const { report, defs, runId, warnings, parallel } = await runAggregate({
    runPath: file,
    goldenPath: golden,
    runId: values.run,
    options,
    write: values.write === true,
    trace: traceTo(io),
  });
  for (const w of summariseWarnings(warnings)) io.stderr(`warning: ${w}\n`);
  // For tests and benchmarks: how the run was scored.
  if (process.env.EVALVERDICT_TRACE === '1')
    io.stderr(`evalverdict: scored ${parallel ? 'in two threads' : 'in one thread'}\n`);
  if (values.write) io.stderr(`wrote aggregate_json of run ${oneLine(runId)} into ${file}\n`);
  if (format === 'json') io.stdout(stableJson(report));
  else if (format === 'markdown') io.stdout(renderAggregateMarkdown(report, defs));
  else if (format === 'text') io.stdout(renderAggregateText(report, defs));
  else
    throw new InputError(`--format must be text, markdown or json, got ${JSON.stringify(format)}\n${AGGREGATE_USAGE}`);
  return 0;
}

/** `aggregate --run a,b,c` or `--run all`: the runs side by side, the best value of each metric marked. */
async function sideBySideCommand(
  runPath: string,
  goldenPath: string,
  runIds: string[],
  options: AggregateOptions,
  format: string,
  io: Io,
): Promise<number> {
  if (!['text', 'markdown', 'json'].includes(format))
    throw new InputError(
      `--format must be text, markdown or json for several runs, got ${JSON.stringify(format)}\n${AGGREGATE_USAGE}`,
    );
  const { report, defs, warnings } = await runAggregateSideBySide({ runPath, goldenPath, runIds, options });
  for (const w of summariseWarnings(warnings)) io.stderr(`warning: ${w}\n`);
  if (format === 'json') io.stdout(stableJson(report));
  else if (format === 'markdown') io.stdout(renderSideBySideMarkdown(report, defs));
  else io.stdout(renderSideBySideText(report, defs));
  return 0;
}

/** `aggregate --per-query`: every golden query's row of one run (docs/cli.md). */
async function perQueryCommand(
  runPath: string,
  goldenPath: string,
  runId: string | undefined,
  options: AggregateOptions,
  format: string,
  io: Io,
): Promise<number> {
  if (!['text', 'markdown', 'csv', 'json'].includes(format))
    throw new InputError(
      `--format must be text, markdown, csv or json with --per-query, got ${JSON.stringify(format)}\n${AGGREGATE_USAGE}`,
    );
  const { report, warnings } = await runPerQuery({ runPath, goldenPath, runId, options });
  for (const w of summariseWarnings(warnings)) io.stderr(`warning: ${w}\n`);
  if (format === 'json') io.stdout(stableJson(report));
  else if (format === 'csv') io.stdout(renderPerQueryCsv(report));
  else if (format === 'markdown') io.stdout(renderPerQueryMarkdown(report));
  else io.stdout(renderPerQueryText(report));
  return 0;
}

async function initCommand(args: string[], io: Io): Promise<number> {
  const usage =
    'usage: evalverdict init FILE.sqlite   (creates an empty run database with eval_runs, eval_query_results, documents, chunks)';
  if (wantsHelp(args, usage, io)) return 0;
  const { positionals } = parse(args, {}, usage);
  if (positionals.length !== 1) throw new InputError(usage);
  if (existsSync(positionals[0]))
    throw new InputError(`${positionals[0]}: already exists; init only creates new files`);
  const db = await createRunDatabase();
  saveDatabase(db, positionals[0]);
  db.close();
  io.stdout(`created ${positionals[0]}\n`);
  return 0;
}

async function goldenCommand(args: string[], io: Io): Promise<number> {
  const usage = `usage: evalverdict golden convert IN OUT [--force]
  Writes the golden set IN in the format OUT's name says (.jsonl or .ndjson: JSON Lines; else YAML), with the same
  queries, so the same scores. The fingerprint (the SHA-256 of the file's bytes) changes: reports against OUT name
  a new one. Refuses an existing OUT unless --force is given.`;
  if (wantsHelp(args, usage, io)) return 0;
  const { values, positionals } = parse(args, { force: { type: 'boolean' } }, usage);
  if (positionals[0] !== 'convert') throw unknownSubcommand('golden', positionals[0], 'convert', usage);
  if (positionals.length !== 3) throw new InputError(usage);
  const [, input, output] = positionals;
  refuseSameOutput([
    ['IN', input],
    ['OUT', output],
  ]);
  refuseOutputOverInput([['OUT', output]], [['golden set IN', input]]);
  if (values.force !== true) refuseExisting([output], 'golden convert replaces an existing file only with --force');
  const doc = readGoldenDocument(input);
  writeOutputFiles([[output, formatGolden(doc, goldenFormatOf(output))]]);
  io.stdout(`converted ${doc.items.length} queries from ${input} to ${output}\n`);
  return 0;
}

async function metricsCommand(args: string[], io: Io): Promise<number> {
  const usage =
    'usage: evalverdict metrics [--k 1,3,5,10] [--mrr-cutoff 10] [--profile evalverdict|wfgy|paperbot] [--format text|markdown|json] [--json]';
  if (wantsHelp(args, usage, io)) return 0;
  const flags = {
    ...METRIC_FLAGS,
    json: { type: 'boolean' },
    format: { type: 'string' },
    profile: { type: 'string' },
  } as const;
  const { values } = parse(args, flags, usage);
  // A golden set's profile (its own definitions of some metrics: docs/golden-sets.md), to read before scoring.
  const profile = values.profile ?? 'evalverdict';
  if (!isMetricProfile(profile))
    throw new InputError(`--profile must be evalverdict, wfgy or paperbot, got ${JSON.stringify(profile)}\n${usage}`);
  const options = { ...DEFAULT_OPTIONS, ...metricOptions(values), profile };
  const defs = buildMetricTable(options, ['<stage>']);
  const format = values.json === true ? 'json' : (values.format ?? 'text');
  if (format !== 'text' && format !== 'markdown' && format !== 'json')
    throw new InputError(`--format must be text, markdown or json, got ${JSON.stringify(format)}\n${usage}`);
  if (format === 'json') {
    io.stdout(
      stableJson(
        defs.map(({ id, family, direction, unit, definition, denominator }) => ({
          id,
          family,
          direction,
          unit,
          definition,
          denominator,
        })),
      ),
    );
  } else {
    io.stdout(format === 'markdown' ? renderMetricTableMarkdown(defs) : renderMetricTableText(defs));
  }
  return 0;
}
