/**
 * What is wrong with a run database's results against the documented format (docs/run-database.md,
 * schemas/result.schema.json): the checks behind `evalverdict validate` and the warnings of compare and aggregate.
 * Pure: rows go in one at a time, findings come out as data; the entries word and print them.
 */
import { present } from '../load/resultKeys.js';
import { plural } from '../numberFormat.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import { JSON_VALUE_BOUNDS, refuseJsonPastBounds, refuseTooDeepValue } from '../load/json.js';
import type { GoldenQuery, GoldenSet } from '../types.js';
import { checkAgainstSchema } from './schema.js';
import type { SchemaError } from './schema.js';

export type FindingCheck =
  | 'invalid-json'
  | 'unknown-key'
  | 'wrong-value'
  | 'missing-key'
  | 'unmatchable-hit'
  | 'rank-order'
  | 'query-id-mismatch'
  | 'empty-run'
  | 'duplicate-query'
  | 'not-in-golden'
  | 'missing-from-run'
  | 'no-usable-hits';

/** One finding: a mistake of one kind, with the first query that shows it and how many do. */
export interface RunFinding {
  kind: 'run-format';
  check: FindingCheck;
  /** The run database's path. */
  source: string;
  run: string;
  /** The first query (in query_id order) that shows it; null for a finding about the whole run. */
  query: string | null;
  /** The field, list indexes left out (`hits_top_k[].chunk_id`); null when none. */
  field: string | null;
  /** How many queries (or, for golden-set findings, ids) show it. */
  count: number;
  /**
   * Set when only the first `of` results were checked (compare's and aggregate's bound, src/validate/pipelineChecks.ts):
   * `count` is of those. Absent when every row was checked, as `evalverdict validate` checks them.
   */
  of?: number;
  /** What is wrong, without the file, run and query (formatFinding adds them). */
  text: string;
  /**
   * A finding that makes every score of its kind meaningless (no hit of the run can match the golden set): compare and
   * aggregate stop on it (exit 2) rather than report 0.
   */
  blocking: boolean;
}

/**
 * What the checks need of a golden set: its queries (for ids missing either side; absent when only a report of it
 * is at hand), whether it expects hits, and whether a hit's path alone can meet it (gold_supports).
 */
export interface GoldenView {
  source: string;
  queries: readonly GoldenQuery[] | null;
  expectsHits: boolean;
  pathsMatch: boolean;
}

/**
 * A finding that changes what is scored, which the comparison's report names (src/warnings.ts RunnerMistakeWarning):
 * an unknown key with a key it was most likely meant as (a misspelt `doc_id` is never read), or hits that can match
 * nothing. `meant`: that key; null for unmatchable hits.
 */
export interface RunnerMistake {
  finding: RunFinding;
  meant: string | null;
}

export function goldenViewOf(golden: GoldenSet): GoldenView {
  return {
    source: golden.source,
    queries: golden.queries,
    expectsHits: golden.queries.some(expectsHit),
    pathsMatch: golden.queries.some((q) => q.goldSupports.length > 0),
  };
}

/** The checks of one row at a time, whose finding names its first query and counts the others. */
const ROW_CHECKS: ReadonlySet<FindingCheck> = new Set<FindingCheck>([
  'invalid-json',
  'unknown-key',
  'wrong-value',
  'missing-key',
  'unmatchable-hit',
  'rank-order',
  'query-id-mismatch',
]);

/** How many ids a golden-set finding names before `and N more`. */
const FIRST_IDS = 5;

/** Collects the findings of one run's rows, then of the run as a whole (finish). */
export class RunChecker {
  private readonly byKind = new Map<string, RunFinding>();
  /** The key meant, by finding, for the runner mistakes (an unmatchable hit's: null). */
  private readonly mistaken = new Map<RunFinding, string | null>();
  /** The query each finding was last counted for: a mistake in ten hits of one query counts that query once. */
  private readonly lastCounted = new Map<string, string | null>();
  private readonly seen = new Set<string>();
  private readonly duplicates: string[] = [];
  private rows = 0;
  private hits = 0;
  /** Hits with an id (chunk_id or doc_id); with a path only, counted apart (they match gold_supports alone). */
  private hitsWithId = 0;
  private hitsWithPathOnly = 0;
  /** Results with an answer object, and whether some result wrote its hits under another key (`hits`). */
  private answers = 0;
  private misnamedHits = false;

  constructor(
    readonly source: string,
    readonly run: string,
  ) {}

  /** One row of `eval_query_results`: its query_id and the `result_json` text (or whatever the column held). */
  addRow(queryId: string, resultJson: unknown): void {
    this.countRow(queryId);
    const value = this.parsedRow(queryId, resultJson);
    if (value === null) return;
    for (const error of checkAgainstSchema(value, 'result.schema.json')) {
      if (error.problem === 'unknown-key' && error.path === error.key && error.suggestion.includes('`hits_top_k`'))
        this.misnamedHits = true;
      this.noteSchema(queryId, error);
    }
    this.checkResult(queryId, value);
  }

  /**
   * The row's `result_json` as an object, or null with an invalid-json finding. A text past compare's bounds on a JSON
   * cell (src/load/json.ts) is that finding in compare's words, found before JSON.parse builds what the text holds.
   */
  private parsedRow(queryId: string, resultJson: unknown): Record<string, unknown> | null {
    if (typeof resultJson !== 'string') {
      this.note('invalid-json', queryId, null, '`result_json` must be a JSON object, got no text');
      return null;
    }
    const where = 'column `result_json`';
    const pastBounds = refusal(() => refuseJsonPastBounds(resultJson, JSON_VALUE_BOUNDS, where, 'in one value'));
    if (pastBounds !== null) {
      this.note('invalid-json', queryId, 'result_json', pastBounds);
      return null;
    }
    let value: unknown;
    try {
      value = JSON.parse(resultJson);
    } catch (error) {
      this.note('invalid-json', queryId, null, `\`result_json\` is not JSON (${(error as Error).message})`);
      return null;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const got = Array.isArray(value) ? 'a list' : String(value);
      this.note('invalid-json', queryId, null, `\`result_json\` must be a JSON object, got ${oneLine(got)}`);
      return null;
    }
    const tooDeep = refusal(() => refuseTooDeepValue(resultJson, value, where));
    if (tooDeep !== null) {
      this.note('invalid-json', queryId, 'result_json', tooDeep);
      return null;
    }
    return value as Record<string, unknown>;
  }

  /**
   * A row whose `result_json` is past the length EvalVerdict reads (never fetched): counted as read, and an invalid-json
   * finding worded by `text` (the reader's own words), apart from the texts that are not JSON.
   */
  addOversizedRow(queryId: string, text: string): void {
    this.countRow(queryId);
    this.note('invalid-json', queryId, 'result_json', text);
  }

  private countRow(queryId: string): void {
    this.rows++;
    if (this.seen.has(queryId)) this.duplicates.push(queryId);
    else this.seen.add(queryId);
  }

  private checkResult(queryId: string, result: Record<string, unknown>): void {
    const written = result.query_id;
    if ((typeof written === 'string' || typeof written === 'number') && String(written) !== queryId)
      this.note(
        'query-id-mismatch',
        queryId,
        'query_id',
        `\`result_json.query_id\` is \`${oneLine(String(written))}\`, the row's \`query_id\` is \`${oneLine(queryId)}\` (the row's is the one scored)`,
      );
    if (typeof result.answer === 'object' && result.answer !== null) this.answers++;
    const hits = Array.isArray(result.hits_top_k) ? result.hits_top_k : [];
    const ranks: number[] = [];
    let unmatchable = 0;
    for (const hit of hits) {
      if (typeof hit !== 'object' || hit === null) continue;
      const h = hit as Record<string, unknown>;
      this.hits++;
      if (typeof h.rank === 'number' && Number.isInteger(h.rank) && h.rank >= 1) ranks.push(h.rank);
      if (present(h.chunk_id) || present(h.doc_id)) this.hitsWithId++;
      else if (present(h.doc_path) || present(h.rel_path)) this.hitsWithPathOnly++;
      else unmatchable++;
    }
    if (unmatchable > 0)
      this.note(
        'unmatchable-hit',
        queryId,
        'hits_top_k[]',
        `${unmatchable === 1 ? 'a hit has' : `${unmatchable} hits have`} no \`chunk_id\`, \`doc_id\` or \`doc_path\`: ${unmatchable === 1 ? 'it' : 'they'} can match nothing in the golden set`,
      );
    if (ranks.length === hits.length && !isOneToN(ranks)) {
      const shown = [...ranks].sort((a, b) => a - b).slice(0, 10);
      this.note(
        'rank-order',
        queryId,
        'hits_top_k[].rank',
        `the ranks are ${shown.join(', ')}${ranks.length > 10 ? ', …' : ''}, not 1..${ranks.length}: a gap or a repeat moves every rank-based metric`,
      );
    }
  }

  private noteSchema(queryId: string, error: SchemaError): void {
    const field = error.pattern;
    const text =
      error.problem === 'unknown-key'
        ? `unknown key \`${oneLine(field)}\` in \`result_json\` (ignored)${error.suggestion}`
        : error.problem === 'missing-key'
          ? `\`${oneLine(field)}\` is missing`
          : `\`${oneLine(error.path)}\` ${error.detail}`;
    // One mistake in every row is one finding: keyed by its field (and, for a wrong value, not by the value).
    const finding = this.note(error.problem, queryId, field, text);
    if (error.meant !== undefined && !this.mistaken.has(finding)) this.mistaken.set(finding, error.meant);
  }

  private note(check: FindingCheck, queryId: string | null, field: string | null, text: string): RunFinding {
    const key = `${check}\u0000${field ?? ''}`;
    const known = this.byKind.get(key);
    if (known !== undefined) {
      if (this.lastCounted.get(key) !== queryId) known.count++;
      this.lastCounted.set(key, queryId);
      return known;
    }
    this.lastCounted.set(key, queryId);
    const found: RunFinding = {
      kind: 'run-format',
      check,
      source: this.source,
      run: this.run,
      query: queryId,
      field,
      count: 1,
      text,
      blocking: false,
    };
    this.byKind.set(key, found);
    if (check === 'unmatchable-hit') this.mistaken.set(found, null);
    return found;
  }

  /** Whether a row read so far shows a runner mistake (RunnerMistake): a misspelt key, or a hit that matches nothing. */
  hasRunnerMistake(): boolean {
    return this.mistaken.size > 0;
  }

  /** The runner mistakes of the rows read, in the order first seen, their counts as they stand. */
  runnerMistakes(): RunnerMistake[] {
    return [...this.byKind.values()]
      .filter((f) => this.mistaken.has(f))
      .map((finding) => ({ finding, meant: this.mistaken.get(finding)! }));
  }

  /** Rows read so far. */
  get rowCount(): number {
    return this.rows;
  }

  /** Whether some hit read so far can match `golden`: one with an id, or with a path when it has gold_supports. */
  hasUsableHit(golden: GoldenView | null): boolean {
    if (this.hitsWithId > 0) return true;
    return this.hitsWithPathOnly > 0 && (golden === null || golden.pathsMatch);
  }

  /**
   * Every finding, the run-level ones (empty run, duplicates, golden set) after the row-level ones; when not
   * `complete`, the row-level ones say of how many results they count (`of`).
   */
  finish(golden: GoldenView | null, complete = true): RunFinding[] {
    const found = [...this.byKind.values()].map((f) => (complete ? f : { ...f, of: this.rows }));
    const run = (check: FindingCheck, text: string, count: number, query: string | null, blocking = false) =>
      found.push({
        kind: 'run-format',
        check,
        source: this.source,
        run: this.run,
        query,
        field: null,
        count,
        text,
        blocking,
      });
    if (this.rows === 0) run('empty-run', 'the run has no rows in `eval_query_results`', 0, null);
    if (this.duplicates.length > 0)
      run(
        'duplicate-query',
        `${plural(this.duplicates.length, 'query_id has', 'query_ids have')} more than one row (only the last one read is scored): ${firstIds(this.duplicates)}`,
        this.duplicates.length,
        this.duplicates[0],
      );
    if (golden !== null) this.goldenFindings(golden, complete, run);
    return found;
  }

  private goldenFindings(
    golden: GoldenView,
    complete: boolean,
    run: (check: FindingCheck, text: string, count: number, query: string | null, blocking?: boolean) => void,
  ): void {
    const goldenIds = new Set(golden.queries?.map((q) => q.id));
    const extra = golden.queries === null ? [] : [...this.seen].filter((id) => !goldenIds.has(id));
    if (extra.length > 0)
      run(
        'not-in-golden',
        `${plural(extra.length, 'query is', 'queries are')} not in the golden set ${golden.source} (not scored): ${firstIds(extra)}`,
        extra.length,
        extra[0],
      );
    // Rows left unread (a partial check) are no evidence of a missing query.
    const missing = !complete
      ? []
      : (golden.queries ?? []).filter((q) => !q.pending && !this.seen.has(q.id)).map((q) => q.id);
    if (missing.length > 0)
      run(
        'missing-from-run',
        `${plural(missing.length, 'query', 'queries')} of the golden set ${golden.source} ${missing.length === 1 ? 'has' : 'have'} no result (each a miss): ${firstIds(missing)}`,
        missing.length,
        null,
      );
    const pathsMatch = golden.pathsMatch;
    // A run of answers without hits (a generation-only run, WFGY's traces without chunks) is a shape of its own;
    // hits without ids, hits under another key, or a run with neither hits nor answers is a runner's mistake.
    // An empty run is no silent 0: every query counts as missing, in every report.
    const mistaken = this.hits > 0 || this.misnamedHits || this.answers === 0;
    if (golden.expectsHits && this.rows > 0 && !this.hasUsableHit(golden) && mistaken) {
      const why =
        this.hits === 0
          ? 'no result has a hit in `hits_top_k`'
          : `none of its ${this.hits.toLocaleString('en-US')} hits has a \`chunk_id\` or \`doc_id\`${pathsMatch ? ' or a path' : ''}`;
      run(
        'no-usable-hits',
        `${why}, while the golden set ${golden.source} expects hits: every retrieval metric would be 0, which says nothing about retrieval`,
        this.rows,
        null,
        true,
      );
    }
  }
}

/** A golden query that a retrieved hit can meet: an expected id, a judged-relevant id or a gold support. */
function expectsHit(q: GoldenQuery): boolean {
  if (q.pending) return false;
  if ((q.expectedChunkIds?.length ?? 0) > 0 || (q.expectedDocIds?.length ?? 0) > 0 || q.goldSupports.length > 0)
    return true;
  for (const grade of q.judgments.values()) if (grade > 0) return true;
  return false;
}

function isOneToN(ranks: number[]): boolean {
  const sorted = [...ranks].sort((a, b) => a - b);
  return sorted.every((rank, i) => rank === i + 1);
}

function firstIds(ids: string[]): string {
  const shown = ids.slice(0, FIRST_IDS).map((id) => `\`${oneLine(id)}\``);
  return `${shown.join(', ')}${ids.length > FIRST_IDS ? `, and ${(ids.length - FIRST_IDS).toLocaleString('en-US')} more` : ''}`;
}

/**
 * A finding as one line: `FILE: run \`R\`, query \`Q\`: what (in N queries)`. The entries print it; the data stays
 * in the warning list until then.
 */
export function formatFinding(f: RunFinding): string {
  const ofRows = ROW_CHECKS.has(f.check) && f.query !== null;
  const where = `${f.source}: run \`${oneLine(f.run)}\`${ofRows ? `, query \`${oneLine(f.query!)}\`` : ''}`;
  const count = f.count.toLocaleString('en-US');
  const shown = f.count > 1 ? '; the first is shown' : '';
  // A partial check says of how many results it counts: the rest were not read.
  const more = !ofRows
    ? ''
    : f.of !== undefined
      ? ` (in ${count} of the first ${f.of.toLocaleString('en-US')} results${shown})`
      : f.count > 1
        ? ` (in ${count} queries${shown})`
        : '';
  return `${where}: ${f.text}${more}`;
}

/** compare's reason for refusing a JSON cell (an InputError `check` throws), as a finding's text; null: none. */
function refusal(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.message;
  }
}
