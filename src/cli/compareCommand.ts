/** `evalverdict compare`: the CLI face of the pipeline; writes the files it is asked for and maps the verdict to the exit code. */
import { existsSync } from 'node:fs';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { DEFAULT_CONFIG_PATH } from '../gate/config.js';
import { refuseOutputOverInput, refuseSameOutput, writeOutputFiles } from '../write/outputFiles.js';
import { runCompare } from '../pipeline/runCompare.js';
import { unjudgedTemplateFor } from '../pipeline/unjudgedTemplate.js';
import type { CompareInputs, CompareOutputs } from '../pipeline/runCompare.js';
import { summariseWarnings } from '../render/warningText.js';
import { METRIC_FLAGS, metricOptions, parse, wantsHelp, wholeNumber } from './args.js';
import { outputFormat, traceTo } from './io.js';
import { renderReportText } from '../render/text.js';
import { trendTextLines } from '../render/trend.js';
import { compareWithHistory, HISTORY_FLAGS, writeHistoryOut } from './historyFlags.js';
import type { Io } from './io.js';

export const COMPARE_USAGE = `usage: evalverdict compare BASELINE.sqlite CANDIDATE.sqlite --golden golden.yaml
       evalverdict compare --baseline none CANDIDATE.sqlite --golden golden.yaml   (a candidate-only report: min/max gates)
  [--baseline-run ID|a,b,c|all|all:SUITE] [--candidate-run ID|a,b,c|all|all:SUITE] [--config evalverdict.yml]
  [--strict-chunker-version]
  [--format text|markdown|json] [--markdown OUT.md] [--markdown-full OUT.md] [--json OUT.json] [--unjudged OUT.qrels]
  [--seed N] [--permutations N]
  [--k 1,3,5,10] [--mrr-cutoff 10] [--ndcg-gain linear|exponential] [--min-grade 1] [--mean-over default|trec|trec_c]
  [--history main-history.json] [--history-out main-history.json]
Prints the report: plain text on a terminal, the comment-ready Markdown elsewhere (--format chooses). Exit 0 when every error-level gate passes, 1 when one fails, 2 on bad input.
Several runs per side (repeats): per query each metric is the mean over the side's runs, queries whose runs disagree are flaky and set aside (docs/compare.md).
--unjudged writes both runs' top-k hits nobody judged as qrels lines \`QUERY 0 ID -1\` for an assessor (needs graded judgments).
The config defaults to .github/evalverdict.yml when present, else the built-in default (preset retrieval).
--history shows main's last runs (the gated metrics' trend, a change-point mark, queries flaky by history); --history-out writes the history with this run appended (docs/history.md).`;

export async function runCompareCommand(args: string[], io: Io): Promise<number> {
  if (wantsHelp(args, COMPARE_USAGE, io)) return 0;
  const { values, inputs: plain } = compareInputsOf(args);
  const format = outputFormat(values.format, io, COMPARE_USAGE);
  const { inputs, history } = compareWithHistory(plain, values, io);
  const outputs = await runCompare({ ...inputs, trace: traceTo(io) });
  for (const w of summariseWarnings(outputs.warnings)) io.stderr(`warning: ${w}\n`);
  // For tests and benchmarks: how the runs were scored.
  if (process.env.EVALVERDICT_TRACE === '1')
    io.stderr(`evalverdict: scored ${outputs.parallel ? 'in two threads' : 'in one thread'}\n`);
  // All the report files or none (a path that cannot be written: exit 2, naming it).
  const files: Array<[string, string]> = [];
  if (typeof values.markdown === 'string') files.push([values.markdown, outputs.markdown]);
  if (typeof values['markdown-full'] === 'string') files.push([values['markdown-full'], outputs.markdownFull]);
  if (typeof values.json === 'string') files.push([values.json, outputs.json]);
  if (typeof values.unjudged === 'string') files.push([values.unjudged, await unjudgedFile(inputs, outputs, io)]);
  writeOutputFiles(files);
  writeHistoryOut(values['history-out'], history, outputs.report);
  io.stdout(
    format === 'json'
      ? outputs.json
      : format === 'text'
        ? renderReportText(outputs.report, outputs.defs, io.color === true, outputs.context) +
          trendTextLines(outputs.context.trend, new Map(outputs.defs.map((d) => [d.id, d])))
            .map((line) => `${line}\n`)
            .join('')
        : outputs.markdown,
  );
  return outputs.report.verdict === 'fail' ? 1 : 0;
}

/**
 * The `--unjudged` template's text (both runs' unjudged top-k pairs as qrels lines of relevance -1), saying on
 * stderr what it could not list.
 */
async function unjudgedFile(inputs: CompareInputs, outputs: CompareOutputs, io: Io): Promise<string> {
  const template = await unjudgedTemplateFor(inputs, outputs.report, outputs.golden);
  const first = template.skipped[0];
  if (first)
    io.stderr(
      `warning: --unjudged: ${template.skipped.length} unjudged pair(s) left out, their ids cannot be a qrels field (empty or with whitespace; first: query \`${oneLine(first.queryId)}\`, id \`${oneLine(first.id)}\`)\n`,
    );
  if (template.unnamed > 0)
    io.stderr(
      `warning: --unjudged: ${template.unnamed} unjudged hit(s) in the top ${template.k} have neither chunk_id nor doc_id and are not listed\n`,
    );
  return template.text;
}

const COMPARE_FLAGS = {
  golden: { type: 'string' },
  baseline: { type: 'string' },
  'baseline-run': { type: 'string' },
  'candidate-run': { type: 'string' },
  config: { type: 'string' },
  'strict-chunker-version': { type: 'boolean' },
  markdown: { type: 'string' },
  'markdown-full': { type: 'string' },
  json: { type: 'string' },
  unjudged: { type: 'string' },
  format: { type: 'string' },
  seed: { type: 'string' },
  permutations: { type: 'string' },
  ...METRIC_FLAGS,
  ...HISTORY_FLAGS,
} as const;

type CompareValues = ReturnType<typeof parse<typeof COMPARE_FLAGS>>['values'];

/** The flags, checked, and what the pipeline is asked to compare. */
function compareInputsOf(args: string[]): { values: CompareValues; inputs: CompareInputs } {
  const { values, positionals } = parse(args, COMPARE_FLAGS, COMPARE_USAGE);
  checkRuns(values, positionals);
  const [baselinePath, candidatePath = baselinePath] = positionals;
  const whole = (flag: 'seed' | 'permutations', min: number) => {
    const text = values[flag];
    return text === undefined ? undefined : wholeNumber(text, flag, min, `a whole number >= ${min}`);
  };
  const outputs: Array<[string, string | undefined]> = [
    ['--markdown', values.markdown],
    ['--markdown-full', values['markdown-full']],
    ['--json', values.json],
    ['--unjudged', values.unjudged],
  ];
  refuseSameOutput(outputs);
  const seed = whole('seed', 0);
  const permutations = whole('permutations', 100);
  const inputs: CompareInputs = {
    baselinePath: values.baseline !== undefined ? null : baselinePath,
    candidatePath,
    goldenPath: values.golden!,
    baselineRun: values['baseline-run'],
    candidateRun: values['candidate-run'],
    runOptionNames: { baseline: '--baseline-run', candidate: '--candidate-run', noBaseline: '--baseline none' },
    configPath: values.config ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : null),
    strictChunkerVersion: values['strict-chunker-version'] === true,
    options: {
      ...metricOptions(values),
      ...(seed !== undefined ? { seed } : {}),
      ...(permutations !== undefined ? { permutations } : {}),
    },
    fullReportHint:
      values['markdown-full'] !== undefined ? `\`${values['markdown-full']}\`` : 'the `--markdown-full` file',
  };
  refuseOutputOverInput(outputs, [
    ['baseline database', inputs.baselinePath],
    ['candidate database', inputs.candidatePath],
    ['golden set', inputs.goldenPath],
    ['gate config', inputs.configPath],
  ]);
  return { values, inputs };
}

/** Which runs the positionals and run flags name: refused when they name none, or too many. */
function checkRuns(values: CompareValues, positionals: string[]): void {
  const noBaseline = values.baseline !== undefined;
  if (noBaseline && values.baseline !== 'none')
    throw new InputError(
      `--baseline takes \`none\` (a candidate-only report); a baseline database is the first argument\n${COMPARE_USAGE}`,
    );
  if (noBaseline && (positionals.length !== 1 || values['baseline-run'] !== undefined))
    throw new InputError(`with --baseline none, give one candidate database (and no --baseline-run)\n${COMPARE_USAGE}`);
  if (positionals.length < 1 || positionals.length > 2) {
    throw new InputError(
      `expected BASELINE.sqlite and CANDIDATE.sqlite (or one database with --baseline-run and --candidate-run)\n${COMPARE_USAGE}`,
    );
  }
  if (!values.golden) throw new InputError(`--golden is required\n${COMPARE_USAGE}`);
  if (!noBaseline && positionals.length === 1 && (!values['baseline-run'] || !values['candidate-run'])) {
    throw new InputError(`with one database, name both runs with --baseline-run and --candidate-run\n${COMPARE_USAGE}`);
  }
}
