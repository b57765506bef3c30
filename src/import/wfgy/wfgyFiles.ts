/**
 * WFGY example 08's files -> a run and a golden set: `eval/qaset.json` (a JSON list of
 * `{qid, q, answerable, gold_ids, gold_claim}`) and `runs/trace.jsonl` (one JSON object per line:
 * `{q, chunks: [{id}], answer, citations?}`). A trace line is matched to its question by `qid` when it carries one,
 * else by the exact question text, as WFGY's scorer matches. The refusal is the answer text equal to the refusal
 * token (trimmed, case folded); the citations are the `citations` field when it is a list, else the ids in a
 * `citations: [...]` list inside the answer text. Both as WFGY's scorer reads them (docs/sources/wfgy.md).
 */
import { InputError } from '../../errors.js';
import { describe, FieldError, isObject } from '../../load/json.js';
import { emptyTally, TALLY_FIRST, tallied } from '../../load/lines.js';
import type { Tally } from '../../load/lines.js';
import type { JsonObject } from '../../load/json.js';

export const DEFAULT_REFUSAL_TOKEN = 'not in context';

export interface WfgyOptions {
  /** The answer text (trimmed, case folded) that is a refusal. */
  refusalToken: string;
  /** auto: the `citations` field when it is a list, else the answer text (WFGY's rule); field or text: only that. */
  citationsFrom: 'auto' | 'field' | 'text';
  /**
   * Which lines count when a question has several: all of them, as WFGY's scorer counts every line (the second and
   * later as results `QID#2`, `QID#3`, ... with golden copies of the question), or only the last (a log's newest)
   * or the first.
   */
  keep: 'all' | 'last' | 'first';
}

export const DEFAULT_WFGY_OPTIONS: WfgyOptions = {
  refusalToken: DEFAULT_REFUSAL_TOKEN,
  citationsFrom: 'auto',
  keep: 'all',
};

export interface WfgyQuestion {
  qid: string;
  q: string;
  answerable: boolean;
  goldIds: string[];
  goldClaim: string | null;
  /** Where the item starts in the QA set. */
  line: number;
}

export interface WfgyTraceReport {
  /** Non-blank trace lines read. */
  lines: number;
  /** Lines matched to a question (the kept ones and the duplicates). */
  matched: number;
  /** Lines of a question that already had one: which question, and this line. */
  duplicates: Tally<{ qid: string; line: number }>;
  /** Questions with more than one line. */
  questionsWithDuplicates: number;
  /** Lines that match no question: by unknown qid or by a text no question has. */
  unmatched: Tally<{ line: number; q: string; qid: string | null }>;
  /** Questions no line matched (WFGY leaves them out of every denominator; so does EvalVerdict: no result). */
  missing: Tally<string>;
}

/** One question's kept trace, as the run's result. */
export interface WfgyResult {
  queryId: string;
  /** The result_json object. */
  result: JsonObject;
  line: number;
}

export interface WfgyImport {
  questions: WfgyQuestion[];
  /** The golden set's header and queries, as `--golden-out` writes them. */
  goldenHeader: JsonObject;
  goldenItems: JsonObject[];
  /**
   * One per question that has a trace (with keep `all`, one per line), in QA-set order, each made as it is asked for
   * (a run of many questions is never in memory as objects); may be iterated more than once.
   */
  results: Iterable<WfgyResult>;
  /** How many `results` gives. */
  resultCount: number;
  report: WfgyTraceReport;
  /** The newest `ts` (Unix seconds) of the traces, the run's default time; null when none carries one. */
  newestTs: number | null;
}

// ---------------------------------------------------------------------------------------------------------
// The QA set

/**
 * The questions of a QA set's text. WFGY's scorer requires `qid`, `q` and `answerable` (it fails without them) and
 * reads `gold_ids` as empty when absent; so does this, with messages naming the line.
 */
export function parseQaSet(text: string, source: string): WfgyQuestion[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? lineAt(body, Number(at[1])) : null;
    throw new InputError(`${source}${line !== null ? `:${line}` : ''}: not valid JSON (${message})`);
  }
  if (!Array.isArray(value))
    throw new InputError(`${source}:1: a QA set is a JSON list of questions, got ${describe(value)}`);
  const lines = elementLines(body);
  const byQid = new Map<string, number>();
  return value.map((item, i) => {
    const line = lines[i] ?? 1;
    const question = questionOf(item, source, line);
    const earlier = byQid.get(question.qid);
    if (earlier !== undefined)
      throw new InputError(`${source}:${line}: qid ${JSON.stringify(question.qid)} again (first at line ${earlier})`);
    byQid.set(question.qid, line);
    return question;
  });
}

function questionOf(item: unknown, source: string, line: number): WfgyQuestion {
  const at = `${source}:${line}`;
  if (!isObject(item)) throw new InputError(`${at}: each question must be an object, got ${describe(item)}`);
  const qid = item.qid;
  if (typeof qid !== 'string' && typeof qid !== 'number')
    throw new InputError(`${at}: a question needs \`qid\` (text), got ${describe(qid)}`);
  const id = String(qid);
  const who = `${at}: question ${JSON.stringify(id)}`;
  if (typeof item.q !== 'string')
    throw new InputError(`${who}: \`q\` must be the question's text, got ${describe(item.q)}`);
  if (typeof item.answerable !== 'boolean')
    throw new InputError(`${who}: \`answerable\` must be true or false, got ${describe(item.answerable)}`);
  const gold = item.gold_ids ?? [];
  if (!Array.isArray(gold)) throw new InputError(`${who}: \`gold_ids\` must be a list of ids, got ${describe(gold)}`);
  const goldIds = gold.map((g, j) => {
    if (typeof g === 'string' || typeof g === 'number') return String(g);
    throw new InputError(`${who}: \`gold_ids[${j}]\` must be an id (text), got ${describe(g)}`);
  });
  const claim = item.gold_claim ?? null;
  if (claim !== null && typeof claim !== 'string')
    throw new InputError(`${who}: \`gold_claim\` must be text, got ${describe(claim)}`);
  return { qid: id, q: item.q, answerable: item.answerable, goldIds, goldClaim: claim, line };
}

/** The 1-based line of character `index` of `text`. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line where each element of a valid JSON list starts (JSON.parse keeps no positions). */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92)
        i++; // an escape: the next character is part of it (never a raw line break in JSON)
      else if (c === 34) inString = false;
      continue;
    }
    if (depth === 1 && expectElement && c > 32 && c !== 44 && c !== 93) {
      lines.push(line);
      expectElement = false;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 44 && depth === 1) expectElement = true;
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Traces

/** WFGY's pattern for a citation list inside the answer text. */
const CITATIONS_IN_TEXT = /citations\s*:\s*\[([^\]]*)\]/i;

/**
 * The cited ids of a trace as WFGY's scorer reads them, and whether it carries a list at all (WFGY's compliance
 * counts an empty list): the `citations` field when it is a list (never the text then), else the text's list.
 */
export function citationsOf(
  answer: string,
  field: unknown,
  from: WfgyOptions['citationsFrom'],
): { ids: string[]; listed: boolean } {
  if (from !== 'text' && Array.isArray(field)) {
    const ids = field.map((x, i) => {
      if (typeof x === 'string' || typeof x === 'number') return String(x).trim();
      throw new FieldError(`citations[${i}]`, `\`citations[${i}]\` must be an id (text), got ${describe(x)}`);
    });
    return { ids, listed: true };
  }
  if (from === 'field') return { ids: [], listed: false };
  const m = CITATIONS_IN_TEXT.exec(answer);
  if (!m) return { ids: [], listed: false };
  return { ids: m[1].split(/[, \t\r\n]+/).filter((s) => s !== ''), listed: true };
}

/** WFGY's refusal: the answer text, trimmed and case folded, is the refusal token. */
export function isRefusalText(answer: string, token: string): boolean {
  return answer.trim().toLowerCase() === token.trim().toLowerCase();
}

/** The query id of a question's n-th line (1-based) under keep `all`: the first is the question's own. */
export const repeatId = (qid: string, n: number): string => (n === 1 ? qid : `${qid}#${n}`);

/**
 * Reads trace lines one at a time (`object`, from forEachJsonObjectOfFile), keeping for each question only the
 * text of the lines that count (a few hundred bytes each), then `finish` gives the import. The QA set is checked
 * first (parseQaSet).
 */
export class WfgyTraceReader {
  private readonly byQid = new Map<string, number>();
  /** Question text -> its index, or -1 when two questions share it (a match by text is then refused). */
  private readonly byText = new Map<string, number>();
  /**
   * Per question, the texts of the lines that count so far and their numbers: flat strings, which cost the collector
   * less than parsed objects while a later line may still replace one. finish parses the kept ones again.
   */
  private readonly kept: Array<Array<{ text: string; line: number }> | undefined>;
  private readonly linesOf: Uint32Array;
  private newestTs: number | null = null;
  private readonly report: WfgyTraceReport = {
    lines: 0,
    matched: 0,
    duplicates: emptyTally(),
    questionsWithDuplicates: 0,
    unmatched: emptyTally(),
    missing: emptyTally(),
  };

  constructor(
    private readonly questions: WfgyQuestion[],
    private readonly source: string,
    private readonly qaSource: string,
    private readonly options: WfgyOptions = DEFAULT_WFGY_OPTIONS,
  ) {
    questions.forEach((q, i) => {
      this.byQid.set(q.qid, i);
      this.byText.set(q.q, this.byText.has(q.q) ? -1 : i);
    });
    this.kept = new Array(questions.length);
    this.linesOf = new Uint32Array(questions.length);
  }

  /** One trace line (blank lines are skipped by the line reader, as WFGY's scorer skips them). */
  object(p: JsonObject, lineNumber: number, text: string): void {
    this.report.lines++;
    // WFGY: `p.get("q") or p.get("question") or ""`.
    const q = textField(p, 'q') || textField(p, 'question') || '';
    const rawQid = p.qid;
    if (rawQid !== undefined && rawQid !== null && typeof rawQid !== 'string' && typeof rawQid !== 'number')
      throw new FieldError('qid', `\`qid\` must be text, got ${describe(rawQid)}`);
    const qid = rawQid === undefined || rawQid === null ? null : String(rawQid);
    // Every line is checked, also one a later line replaces; only the kept lines become results (in finish).
    textField(p, 'answer');
    if (this.options.citationsFrom !== 'text') checkCitationField(p.citations);
    checkChunks(p.chunks);
    const ts = p.ts;
    if (typeof ts === 'number' && Number.isFinite(ts) && (this.newestTs === null || ts > this.newestTs))
      this.newestTs = ts;
    const index = this.questionOf(qid, q, lineNumber);
    if (index === undefined) {
      tallied(this.report.unmatched, () => ({ line: lineNumber, q, qid }));
      return;
    }
    this.report.matched++;
    this.keep(index, text, lineNumber);
  }

  private questionOf(qid: string | null, q: string, lineNumber: number): number | undefined {
    if (qid !== null) return this.byQid.get(qid);
    const index = this.byText.get(q);
    if (index !== -1) return index;
    const twins = this.questions.filter((x) => x.q === q).map((x) => `${x.qid} (line ${x.line})`);
    throw new InputError(
      `${this.source}:${lineNumber}: the question text is that of several questions of ${this.qaSource} (${twins.join(', ')}) and the line carries no \`qid\` to tell them apart`,
    );
  }

  private keep(index: number, text: string, lineNumber: number): void {
    const kept = (this.kept[index] ??= []);
    if (this.linesOf[index]++ > 0) {
      if (this.linesOf[index] === 2) this.report.questionsWithDuplicates++;
      const duplicates = this.report.duplicates;
      // Inline, without tallied's closure: most lines of a long log repeat a question.
      if (duplicates.count++ < TALLY_FIRST) duplicates.first.push({ qid: this.questions[index].qid, line: lineNumber });
      if (this.options.keep === 'first') return;
      if (this.options.keep === 'last') kept.length = 0;
    }
    kept.push({ text, line: lineNumber });
  }

  /** The id of a question's n-th line, refused when the QA set has a question of that id already. */
  private freeId(q: WfgyQuestion, n: number): string {
    const id = repeatId(q.qid, n);
    if (n > 1 && this.byQid.has(id))
      throw new InputError(
        `${this.qaSource}:${this.questions[this.byQid.get(id)!].line}: qid ${JSON.stringify(id)} is also the id of question ${JSON.stringify(q.qid)}'s line ${n} in ${this.source}; score one line per question with --keep last`,
      );
    return id;
  }

  /** A kept line as a result of query `queryId` (its question's own id, or a repeat's). */
  private resultOf(question: WfgyQuestion, queryId: string, text: string, line: number): WfgyResult {
    const p = JSON.parse(text) as JsonObject;
    const answer = (p.answer as string | null | undefined) ?? '';
    const { ids, listed } = citationsOf(answer, p.citations, this.options.citationsFrom);
    const refusal = isRefusalText(answer, this.options.refusalToken);
    const answerObject: JsonObject = { answer };
    // Only a list the trace carries is written: WFGY's compliance tells "no list" from an empty one.
    if (listed) answerObject.citations = ids.map((id) => ({ chunk_id: id }));
    answerObject.grounded = !refusal;
    return {
      queryId,
      line,
      result: {
        query_id: queryId,
        query: question.q,
        mode: 'wfgy',
        hits_top_k: hitsOf(p.chunks),
        answer: answerObject,
        abstained: refusal,
        elapsed_ms: null,
        error: null,
      },
    };
  }

  /**
   * The import. `copiesAlready`: per qid, the golden copies (`QID#N`) a golden set written before already holds; they
   * are kept, so runs with fewer repeats share one golden set with runs with more.
   */
  finish(copiesAlready: ReadonlyMap<string, number> = new Map()): WfgyImport {
    let resultCount = 0;
    this.questions.forEach((q, i) => {
      const kept = this.kept[i];
      if (kept !== undefined) resultCount += kept.length;
      else tallied(this.report.missing, () => q.qid);
    });
    const reader = this;
    const results = {
      *[Symbol.iterator](): Iterator<WfgyResult> {
        for (let i = 0; i < reader.questions.length; i++) {
          const q = reader.questions[i];
          const kept = reader.kept[i] ?? [];
          for (let n = 0; n < kept.length; n++)
            yield reader.resultOf(q, repeatId(q.qid, n + 1), kept[n].text, kept[n].line);
        }
      },
    };
    const goldenItems = this.questions.flatMap((q, i) => {
      const copies = Math.max(this.kept[i]?.length ?? 0, copiesAlready.get(q.qid) ?? 0, 1);
      return Array.from({ length: copies }, (_, n) => goldenItemOf(q, this.freeId(q, n + 1)));
    });
    return {
      questions: this.questions,
      goldenHeader: goldenHeaderOf(this.qaSource),
      goldenItems,
      results,
      resultCount,
      report: this.report,
      newestTs: this.newestTs,
    };
  }
}

/** A text field of a trace: absent or null is null; anything but text is refused. */
function textField(p: JsonObject, key: string): string | null {
  const v = p[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new FieldError(key, `\`${key}\` must be text, got ${describe(v)}`);
  return v;
}

/** A `citations` field that is a list must hold ids (text or numbers); anything else is not a list WFGY reads. */
function checkCitationField(field: unknown): void {
  if (!Array.isArray(field)) return;
  for (let i = 0; i < field.length; i++) {
    const x = field[i];
    if (typeof x !== 'string' && typeof x !== 'number')
      throw new FieldError(`citations[${i}]`, `\`citations[${i}]\` must be an id (text), got ${describe(x)}`);
  }
}

/** `chunks`: absent, or a list of `{id}` (or ids); see hitsOf. */
function checkChunks(chunks: unknown): void {
  if (chunks === undefined || chunks === null) return;
  if (!Array.isArray(chunks)) throw new FieldError('chunks', `\`chunks\` must be a list, got ${describe(chunks)}`);
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    const id = isObject(c) ? c.id : c;
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new FieldError(
        `chunks[${i}]`,
        `\`chunks[${i}]\` must be \`{"id": ...}\` with a text id, got ${describe(c)}`,
      );
  }
}

/** The retrieved chunks (checked by checkChunks), in order, as hits ranked 1..n: `[{id}]` (an id alone is read too). */
function hitsOf(chunks: unknown): JsonObject[] {
  if (!Array.isArray(chunks)) return [];
  return chunks.map((c, i) => {
    const id = (isObject(c) ? c.id : c) as string | number;
    const hit: JsonObject = { rank: i + 1, chunk_id: String(id), doc_id: null };
    const score = isObject(c) ? c.score : undefined;
    if (typeof score === 'number' && Number.isFinite(score)) hit.score = score;
    return hit;
  });
}

/** The golden header an import writes: the WFGY metric profile (docs/golden-sets.md) and where it came from. */
export function goldenHeaderOf(qaSource: string): JsonObject {
  return { profile: 'wfgy', description: `Imported from ${qaSource} by evalverdict import wfgy` };
}

/** A question as a golden query (`id`: its own, or a repeat's): its gold ids are the expected chunks. */
function goldenItemOf(q: WfgyQuestion, id: string): JsonObject {
  const item: JsonObject = { id, query: q.q, answerable: q.answerable, expected_chunk_ids: q.goldIds };
  // WFGY reads an empty claim as none (`if not gold_claim`).
  if (q.goldClaim) item.gold_claim = q.goldClaim;
  return item;
}
