/**
 * `evalgate import wfgy`: WFGY example 08's QA set and traces into a run database and a golden set. The traces are
 * streamed a line at a time; the database and golden set are written together through temporary files, or not at
 * all. A database that exists gets the run added beside its others.
 */
import { basename, extname } from 'node:path';
import { plural } from '../render/reportParts.js';
import { InputError } from '../errors.js';
import { forEachLineOfFile } from '../load/lines.js';
import { DEFAULT_REFUSAL_TOKEN, parseQaSet, WfgyTraceReader } from '../load/wfgy.js';
import type { Tally, WfgyImport, WfgyOptions } from '../load/wfgy.js';
import { parse } from './args.js';
import { importOutputs, nowRfc3339, readText, writeImport } from './importFiles.js';
import type { Io } from './io.js';

export const IMPORT_WFGY_USAGE = `usage: evalgate import wfgy --qaset eval/qaset.json --traces runs/trace.jsonl --out RUN.sqlite
  [--golden-out golden.jsonl] [--run-id ID] [--refusal-token TEXT] [--citations auto|field|text] [--keep last|first]
  [--created-at RFC3339] [--force]
  Matches each trace line to its question by qid, else by the exact question text. A question with several lines
  keeps its last (--keep first: its first); duplicates, unmatched lines and questions without a trace are counted
  on stderr. --out may exist: the run is added to it (a run of the same id only with --force, which replaces it).
  --golden-out (JSON Lines for .jsonl/.ndjson, else YAML) carries \`profile: wfgy\`, so aggregate and compare
  compute WFGY's definitions; an existing one with other content is replaced only with --force.
  --run-id: default the traces file's name without its extension. --refusal-token: default "${DEFAULT_REFUSAL_TOKEN}".
  --created-at: default the newest \`ts\` of the traces (Unix seconds or milliseconds), else now.`;

export async function importWfgyCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${IMPORT_WFGY_USAGE}\n`);
    return 0;
  }
  const { values, positionals } = parse(
    args,
    {
      qaset: { type: 'string' },
      traces: { type: 'string' },
      out: { type: 'string' },
      'golden-out': { type: 'string' },
      'run-id': { type: 'string' },
      'refusal-token': { type: 'string' },
      citations: { type: 'string' },
      keep: { type: 'string' },
      'created-at': { type: 'string' },
      force: { type: 'boolean' },
    },
    IMPORT_WFGY_USAGE,
  );
  if (positionals.length > 0) throw new InputError(`unexpected argument ${positionals[0]}\n${IMPORT_WFGY_USAGE}`);
  const qaset = values.qaset as string | undefined;
  const traces = values.traces as string | undefined;
  if (!qaset || !traces || !values.out)
    throw new InputError(`--qaset, --traces and --out are required\n${IMPORT_WFGY_USAGE}`);
  const options = wfgyOptions(values);
  const outputs = importOutputs(values, IMPORT_WFGY_USAGE, basename(traces, extname(traces)));

  const imported = readWfgy(qaset, traces, options);
  const config = {
    source: 'wfgy',
    qaset,
    traces,
    refusal_token: options.refusalToken,
    citations: options.citationsFrom,
    keep: options.keep,
  };
  const createdAt = outputs.createdAt ?? timeOf(imported.newestTs) ?? nowRfc3339();
  const results = (function* () {
    for (const r of imported.results) yield { queryId: r.queryId, result: r.result };
  })();
  await writeImport(outputs, [{ runId: outputs.runId, suite: 'wfgy', config, createdAt, results }], {
    header: imported.goldenHeader,
    items: imported.goldenItems,
  });
  for (const w of reportWarnings(imported, traces, qaset, options)) io.stderr(`warning: ${w}\n`);
  const { report } = imported;
  io.stdout(
    `imported ${imported.resultCount} of ${imported.questions.length} questions (${report.lines} trace lines: ${report.matched} matched, ${report.duplicates.count} duplicate, ${report.unmatched.count} unmatched) into ${outputs.out} as run ${outputs.runId}${outputs.outExists ? ' (added to the runs already there)' : ''}\n`,
  );
  return 0;
}

function wfgyOptions(values: Record<string, unknown>): WfgyOptions {
  const citations = (values.citations as string | undefined) ?? 'auto';
  if (citations !== 'auto' && citations !== 'field' && citations !== 'text')
    throw new InputError(`--citations: must be auto, field or text, got ${JSON.stringify(citations)}`);
  const keep = (values.keep as string | undefined) ?? 'last';
  if (keep !== 'last' && keep !== 'first')
    throw new InputError(`--keep: must be last or first, got ${JSON.stringify(keep)}`);
  const token = (values['refusal-token'] as string | undefined) ?? DEFAULT_REFUSAL_TOKEN;
  if (token.trim() === '')
    throw new InputError('--refusal-token: the token is empty (every blank answer would refuse)');
  return { refusalToken: token, citationsFrom: citations, keep };
}

/** The QA set (read whole: a few hundred questions) and the traces (streamed). */
function readWfgy(qaset: string, traces: string, options: WfgyOptions): WfgyImport {
  const reader = new WfgyTraceReader(parseQaSet(readText(qaset, 'the QA set'), qaset), traces, qaset, options);
  forEachLineOfFile(traces, (line, n) => reader.line(line, n));
  return reader.finish();
}

/**
 * A trace's `ts` as an RFC 3339 time: Unix seconds, or milliseconds when it is that large (1e11 seconds is the
 * year 5138); null when it is no time of years 1970-9999, which a run's created_at could not hold.
 */
export function timeOf(ts: number | null): string | null {
  if (ts === null || ts < 0) return null;
  const date = new Date(ts >= 1e11 ? ts : ts * 1000);
  if (!Number.isFinite(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

/** What the import left out or chose, for stderr: counts and the first few places. */
function reportWarnings(imported: WfgyImport, traces: string, qaset: string, options: WfgyOptions): string[] {
  const { report } = imported;
  const warnings: string[] = [];
  const more = (t: Tally<unknown>) => (t.count > t.first.length ? `, and ${t.count - t.first.length} more` : '');
  if (report.duplicates.count > 0) {
    const places = report.duplicates.first.map((d) => `${d.qid} at line ${d.line}`).join(', ');
    warnings.push(
      `${traces}: ${plural(report.duplicates.count, 'more line', 'more lines')} for ${plural(report.questionsWithDuplicates, 'question that already had one', 'questions that already had one')}; the ${options.keep} line of each is scored (WFGY's scorer would score every line): ${places}${more(report.duplicates)}`,
    );
  }
  if (report.unmatched.count > 0) {
    const places = report.unmatched.first
      .map((u) => `line ${u.line} ${u.qid !== null ? `qid ${JSON.stringify(u.qid)}` : JSON.stringify(u.q)}`)
      .join(', ');
    warnings.push(
      `${traces}: ${plural(report.unmatched.count, 'line matches', 'lines match')} no question of ${qaset} and ${report.unmatched.count === 1 ? 'is' : 'are'} skipped: ${places}${more(report.unmatched)}`,
    );
  }
  if (report.missing.count > 0) {
    warnings.push(
      `${qaset}: ${plural(report.missing.count, 'question has', 'questions have')} no trace (no result in the run; WFGY's scorer leaves them out too): ${report.missing.first.join(', ')}${more(report.missing)}`,
    );
  }
  return warnings;
}
