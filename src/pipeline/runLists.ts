/**
 * Run options that name several runs of a database (`a,b,c`, `all`, `all:SUITE`): which runs, in the order written,
 * each checked against the database's runs (load/runDatabase.ts, listRunsIn). Messages name the option as the entry
 * spells it (a CLI flag, an action input).
 */
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { listRunsIn } from '../load/runDatabase.js';
import { plural } from '../numberFormat.js';
import { suggest } from '../suggest.js';

/** The runs of each side when a run option names several (`a,b,c`, `all`, `all:SUITE`); null when each names one. */
export interface RunLists {
  /** null: the database's newest run (a side that names no run). */
  baseline: Array<string | null>;
  candidate: Array<string | null>;
}

/** How messages name the run options and the candidate-only choice: the CLI's flags, the action's inputs. */
export interface RunOptionNames {
  baseline: string;
  candidate: string;
  noBaseline: string;
}

/** For a caller that names none (the library). */
export const NEUTRAL_RUN_OPTION_NAMES: RunOptionNames = {
  baseline: 'the baseline run',
  candidate: 'the candidate run',
  noBaseline: 'a candidate-only comparison',
};

/** The databases of a comparison and the runs each side's option names. */
export interface RunSides {
  /** Null: no baseline (a candidate-only comparison). */
  baselinePath: string | null;
  candidatePath: string;
  baselineRun?: string | null;
  candidateRun?: string | null;
  /** How messages name the run options (`--baseline-run`, input `baseline-run`). */
  runOptionNames?: RunOptionNames;
}

/** Each side's runs, or null when each side names one run (or none: the newest). */
export async function repeatedRuns(sides: RunSides): Promise<RunLists | null> {
  const names = sides.runOptionNames ?? NEUTRAL_RUN_OPTION_NAMES;
  const baseline =
    sides.baselinePath !== null && sides.baselineRun
      ? await sideRunsNamed(sides.baselinePath, sides.baselineRun, names.baseline)
      : null;
  const candidate = sides.candidateRun
    ? await sideRunsNamed(sides.candidatePath, sides.candidateRun, names.candidate)
    : null;
  if (baseline === null && candidate === null) return null;
  if (sides.baselinePath === null && candidate !== null && candidate.length > 1)
    throw new InputError(`${names.candidate}: several candidate runs need a baseline (not ${names.noBaseline})`);
  return {
    baseline: sides.baselinePath === null ? [] : (baseline ?? [sides.baselineRun ?? null]),
    candidate: candidate ?? [sides.candidateRun ?? null],
  };
}

/**
 * The runs a side's run option names when it names several: ids separated by commas, `all` (every run of the
 * database, when its runs are of one suite) or `all:SUITE` (every run of that suite), in the order written. Null
 * when it names one run (as runsNamed). Ambiguity, an unknown id or suite, an empty or repeated id: an InputError.
 */
export async function sideRunsNamed(runPath: string, value: string, option: string): Promise<string[] | null> {
  if (value !== 'all' && !value.startsWith('all:') && !value.includes(',')) return null;
  const runs = await listRunsIn(runPath);
  const ids = runs.map((r) => r.id);
  if (ids.includes(value)) return null;
  const suites = [...new Set(runs.map((r) => r.suite))].sort();
  const suiteList = () =>
    suites
      .slice(0, 10)
      .map((s) => `\`${oneLine(s)}\` (${plural(runs.filter((r) => r.suite === s).length, 'run', 'runs')})`)
      .join(', ');
  if (value === 'all') {
    if (suites.length > 1)
      throw new InputError(
        `${runPath}: ${option} all is ambiguous: the database holds runs of ${suites.length} suites (${suiteList()}); ` +
          `name one suite (${option} all:${oneLine(suites[0])}) or the runs (${option} a,b,c)`,
      );
    return ids;
  }
  if (value.startsWith('all:')) {
    const suite = value.slice(4);
    const of = runs.filter((r) => r.suite === suite).map((r) => r.id);
    if (of.length === 0)
      throw new InputError(
        `${runPath}: ${option}: no run of suite \`${oneLine(suite)}\` in \`eval_runs\`${suggest(suite, suites)} (suites: ${suiteList()})`,
      );
    return of;
  }
  return listedRuns(runPath, value, option, ids);
}

/** The ids of a comma list, each checked against the database's (`present`). */
function listedRuns(runPath: string, value: string, option: string, present: string[]): string[] {
  const ids = value.split(',').map((id) => id.trim());
  const listed = () =>
    `(runs: ${present
      .slice(0, 20)
      .map((id) => oneLine(id))
      .join(', ')}${present.length > 20 ? `, and ${present.length - 20} more` : ''})`;
  const seen = new Set<string>();
  for (const id of ids) {
    if (id === '') throw new InputError(`${option}: ${JSON.stringify(value)} has an empty run id ${listed()}`);
    if (seen.has(id)) throw new InputError(`${option}: run \`${oneLine(id)}\` is given twice`);
    seen.add(id);
    if (!present.includes(id))
      throw new InputError(
        `${runPath}: ${option}: no run \`${oneLine(id)}\` in \`eval_runs\`${suggest(id, present)} ${listed()}`,
      );
  }
  return ids;
}

/**
 * The run ids of a database in the order they were written (rowid; by run_id for a table without one), after the
 * reader's checks of the file (a wrong file fails with the reader's message).
 */
export async function runIdsIn(runPath: string): Promise<string[]> {
  return (await listRunsIn(runPath)).map((r) => r.id);
}

/**
 * The runs a `--run` value names when it names several: `all`, or ids separated by commas. Null when it names one
 * run: a value without a comma other than `all`, or the exact id of a run (a run may be called `all` or `a,b`).
 * An id the database does not have, an empty one or one given twice is refused, naming the runs there are.
 */
export async function runsNamed(runPath: string, value: string, option: string): Promise<string[] | null> {
  if (value !== 'all' && !value.includes(',')) return null;
  const present = await runIdsIn(runPath);
  if (present.includes(value)) return null;
  if (value === 'all') return present;
  return listedRuns(runPath, value, option, present);
}
