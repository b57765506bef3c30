/**
 * PaperBot's document evidence bench -> a golden set and one run per retrieval mode: the bench JSON
 * (`bench_v1.json`: `{version, papers, cases: [{case_id, query, query_type, top_k, judgments: [{paper_id,
 * chunk_ref, relevance}], expected_paper_ids, expected_chunk_refs}]}`) and the evidence hits of each mode, one JSON
 * object per line: `{"case_id", "mode": "fts_only" | "embedding_only" | "hybrid" | ..., "hits": [{"chunk_ref",
 * "paper_id", "score"}], "latency_ms"}`. docs/sources/paperbot.md.
 */
import { InputError } from '../../errors.js';
import { describe, FieldError, isObject } from '../../load/json.js';
import { emptyTally, neitherHitsNorError, tallied, unknownKeys } from '../../load/lines.js';
import type { Tally } from '../../load/lines.js';
import type { JsonObject } from '../../load/json.js';

export interface PaperbotCase {
  caseId: string;
  query: string;
  queryType: string | null;
  /** The case's own cutoff: hits past it are not its evidence. Null: none given (PaperBot then cuts at 5). */
  topK: number | null;
  judgments: Map<string, number>;
  expectedPaperIds: string[];
  expectedChunkRefs: string[];
  line: number;
}

export interface PaperbotBench {
  version: string;
  cases: PaperbotCase[];
  warnings: string[];
}

/** PaperBot's cutoff for a case without `top_k` (its loader: `int(row.get("top_k") or 5)`). */
export const PAPERBOT_DEFAULT_TOP_K = 5;

const id = (v: unknown): string | null =>
  (typeof v === 'string' && v !== '') || typeof v === 'number' ? String(v) : null;

/** The bench's cases, checked; messages name the line where the case starts. */
export function parsePaperbotBench(text: string, source: string): PaperbotBench {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new InputError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value))
    throw new InputError(`${source}:1: the bench is an object with \`cases\`, got ${describe(value)}`);
  const warnings: string[] = [];
  const version = typeof value.version === 'string' ? value.version : '';
  if (version !== 'v1')
    warnings.push(`${source}: bench version ${JSON.stringify(value.version ?? null)} is not v1; read as v1`);
  if (!Array.isArray(value.cases))
    throw new InputError(`${source}: \`cases\` must be a list, got ${describe(value.cases)}`);
  // A case's line: where its `case_id` key is (cases are objects with one each; papers have none).
  const lines: number[] = [];
  for (const m of text.matchAll(/"case_id"\s*:/g)) lines.push(lineAt(text, m.index ?? 0));
  const seen = new Map<string, number>();
  const cases = value.cases.map((c, i) => {
    const line = lines[i] ?? 1;
    const parsed = caseOf(c, `${source}:${line}`);
    const earlier = seen.get(parsed.caseId);
    if (earlier !== undefined)
      throw new InputError(
        `${source}:${line}: case_id ${JSON.stringify(parsed.caseId)} again (first at line ${earlier})`,
      );
    seen.set(parsed.caseId, line);
    return { ...parsed, line };
  });
  return { version, cases, warnings };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function caseOf(c: unknown, at: string): Omit<PaperbotCase, 'line'> {
  if (!isObject(c)) throw new InputError(`${at}: each case must be an object, got ${describe(c)}`);
  const caseId = id(c.case_id);
  if (caseId === null) throw new InputError(`${at}: a case needs \`case_id\`, got ${describe(c.case_id)}`);
  const who = `${at}: case ${JSON.stringify(caseId)}`;
  if (typeof c.query !== 'string' || c.query.trim() === '')
    throw new InputError(`${who}: \`query\` must be the query's text, got ${describe(c.query)}`);
  const queryType = c.query_type ?? null;
  if (queryType !== null && typeof queryType !== 'string')
    throw new InputError(`${who}: \`query_type\` must be text, got ${describe(queryType)}`);
  const topK = c.top_k ?? null;
  if (topK !== null && !(typeof topK === 'number' && Number.isInteger(topK) && topK >= 1))
    throw new InputError(`${who}: \`top_k\` must be a whole number >= 1, got ${describe(topK)}`);
  const judgments = new Map<string, number>();
  const rawJudgments = c.judgments ?? [];
  if (!Array.isArray(rawJudgments))
    throw new InputError(`${who}: \`judgments\` must be a list, got ${describe(rawJudgments)}`);
  rawJudgments.forEach((j, n) => {
    const ref = isObject(j) ? id(j.chunk_ref) : null;
    const relevance = isObject(j) ? j.relevance : undefined;
    if (ref === null)
      throw new InputError(
        `${who}: \`judgments[${n}]\` needs \`chunk_ref\` (paper_id:section:index), got ${describe(j)}`,
      );
    if (!(typeof relevance === 'number' && Number.isInteger(relevance) && relevance >= 0 && relevance <= 3))
      throw new InputError(`${who}: \`judgments[${n}].relevance\` must be a grade 0..3, got ${describe(relevance)}`);
    if (judgments.has(ref)) throw new InputError(`${who}: \`judgments\` grade ${ref} twice`);
    judgments.set(ref, relevance);
  });
  const list = (key: string): string[] => {
    const v = c[key] ?? [];
    if (!Array.isArray(v)) throw new InputError(`${who}: \`${key}\` must be a list, got ${describe(v)}`);
    return v.map((x, n) => {
      const s = id(x);
      if (s === null) throw new InputError(`${who}: \`${key}[${n}]\` must be an id, got ${describe(x)}`);
      return s;
    });
  };
  return {
    caseId,
    query: c.query,
    queryType,
    topK,
    judgments,
    expectedPaperIds: list('expected_paper_ids'),
    expectedChunkRefs: list('expected_chunk_refs'),
  };
}

/**
 * The golden queries: graded judgments by chunk_ref, the expected chunks and papers, query_type as category, and the
 * case's `top_k` (where nDCG's ideal ranking is cut under the paperbot profile).
 */
export function paperbotGoldenItems(bench: PaperbotBench): JsonObject[] {
  return bench.cases.map((c) => {
    const item: JsonObject = { id: c.caseId, query: c.query };
    if (c.judgments.size > 0) item.judgments = Object.fromEntries(c.judgments);
    if (c.expectedChunkRefs.length > 0) item.expected_chunk_ids = c.expectedChunkRefs;
    if (c.expectedPaperIds.length > 0) item.expected_doc_ids = c.expectedPaperIds;
    if (c.queryType !== null) item.category = c.queryType;
    if (c.topK !== null) item.top_k = c.topK;
    return item;
  });
}

export interface PaperbotResultsReport {
  lines: number;
  duplicates: Tally<{ id: string; mode: string; line: number }>;
  unknown: Tally<{ id: string; line: number }>;
  /** Per mode, the cases it has no line for. */
  missing: Map<string, string[]>;
  /** Hits past their case's top_k, left out. */
  hitsBeyondTopK: number;
  /** Keys no line or hit has that are not near one (a near one is refused), and on how many lines. */
  otherKeys: Map<string, number>;
}

/** The keys of a result line, and of a hit (strict: a near miss such as `hit` is refused). */
const LINE_KEYS = new Set(['case_id', 'mode', 'hits', 'evidence_hits', 'latency_ms', 'error']);
const HIT_KEYS = new Set(['chunk_ref', 'paper_id', 'score']);

/** Reads result lines one at a time (`object`), keeping per mode each case's last line as its result_json. */
export class PaperbotResultsReader {
  private readonly index = new Map<string, number>();
  /** Per mode (in order of first appearance), per case, the kept result. */
  private readonly byMode = new Map<string, Array<JsonObject | undefined>>();
  readonly report: PaperbotResultsReport = {
    lines: 0,
    duplicates: emptyTally(),
    unknown: emptyTally(),
    missing: new Map(),
    hitsBeyondTopK: 0,
    otherKeys: new Map(),
  };

  constructor(private readonly bench: PaperbotBench) {
    bench.cases.forEach((c, i) => {
      this.index.set(c.caseId, i);
    });
  }

  object(r: JsonObject, lineNumber: number): void {
    this.report.lines++;
    this.countOthers(unknownKeys(r, LINE_KEYS, ''));
    const caseId = id(r.case_id);
    if (caseId === null) throw new FieldError('case_id', `a result needs \`case_id\`, got ${describe(r.case_id)}`);
    if (typeof r.mode !== 'string' || r.mode === '')
      throw new FieldError(
        'mode',
        `a result needs \`mode\` (fts_only, embedding_only, hybrid, ...), got ${describe(r.mode)}`,
      );
    const error = r.error ?? null;
    if (error !== null && typeof error !== 'string')
      throw new FieldError('error', `\`error\` must be text, got ${describe(error)}`);
    const key = r.hits !== undefined ? 'hits' : 'evidence_hits';
    // A line with neither is a runner's mistake, not an empty result: refused rather than scored as 0.
    if (r[key] === undefined && error === null)
      throw neitherHitsNorError(`case ${JSON.stringify(caseId)}`, r, ['hits', 'evidence_hits', 'error']);
    const hits = this.hitsOf(r[key] ?? [], key);
    const latency = r.latency_ms ?? null;
    if (latency !== null && !(typeof latency === 'number' && Number.isFinite(latency) && latency >= 0))
      throw new FieldError('latency_ms', `\`latency_ms\` must be a number >= 0, got ${describe(latency)}`);
    const i = this.index.get(caseId);
    if (i === undefined) {
      tallied(this.report.unknown, () => ({ id: caseId, line: lineNumber }));
      return;
    }
    this.keep(i, r.mode, lineNumber, error === null ? hits : [], latency, error);
  }

  private hitsOf(raw: unknown, key: string): JsonObject[] {
    if (!Array.isArray(raw)) throw new FieldError(key, `\`${key}\` must be a list, got ${describe(raw)}`);
    return raw.map((h, i) => {
      if (isObject(h)) this.countOthers(unknownKeys(h, HIT_KEYS, `${key}[${i}]`));
      return hitOf(h, i, key);
    });
  }

  private keep(
    i: number,
    mode: string,
    lineNumber: number,
    hits: JsonObject[],
    latency: number | null,
    error: string | null,
  ): void {
    let kept = this.byMode.get(mode);
    if (!kept) this.byMode.set(mode, (kept = new Array(this.bench.cases.length)));
    const c = this.bench.cases[i];
    if (kept[i] !== undefined) tallied(this.report.duplicates, () => ({ id: c.caseId, mode, line: lineNumber }));
    const topK = c.topK ?? PAPERBOT_DEFAULT_TOP_K;
    if (hits.length > topK) this.report.hitsBeyondTopK += hits.length - topK;
    kept[i] = {
      query_id: c.caseId,
      query: c.query,
      mode,
      hits_top_k: hits.slice(0, topK),
      answer: null,
      elapsed_ms: latency,
      error,
    };
  }

  private countOthers(keys: string[]): void {
    for (const key of keys) this.report.otherKeys.set(key, (this.report.otherKeys.get(key) ?? 0) + 1);
  }

  /** Per mode, in order of first appearance: its kept results in case order. */
  finish(): Array<{ mode: string; results: Array<{ queryId: string; result: JsonObject }> }> {
    return [...this.byMode].map(([mode, kept]) => {
      const results: Array<{ queryId: string; result: JsonObject }> = [];
      const missing: string[] = [];
      this.bench.cases.forEach((c, i) => {
        const r = kept[i];
        if (r !== undefined) results.push({ queryId: c.caseId, result: r });
        else missing.push(c.caseId);
      });
      if (missing.length > 0) this.report.missing.set(mode, missing);
      return { mode, results };
    });
  }
}

/**
 * PaperBot's report JSON (`output/reports/document_evidence_bench_v1.json`: `{config, cases: [{case_id, mode,
 * latency_ms, ranked_chunk_refs, ...scores}], summary}`): each case row read as a result line whose hits are its
 * `ranked_chunk_refs` (already cut at the case's top_k by PaperBot). The scores beside them are not read: EvalVerdict
 * scores the refs itself.
 */
export function readPaperbotReport(value: unknown, source: string, reader: PaperbotResultsReader): void {
  if (!isObject(value) || !Array.isArray(value.cases))
    throw new InputError(`${source}: PaperBot's report is an object with \`cases\` (a list), got ${describe(value)}`);
  value.cases.forEach((row, i) => {
    const at = `${source}: cases[${i}]`;
    if (!isObject(row)) throw new InputError(`${at}: must be an object, got ${describe(row)}`);
    const refs = row.ranked_chunk_refs;
    if (!Array.isArray(refs))
      throw new InputError(`${at}: \`ranked_chunk_refs\` must be a list of chunk refs, got ${describe(refs)}`);
    const line = {
      case_id: row.case_id,
      mode: row.mode,
      latency_ms: row.latency_ms,
      hits: refs.map((ref) => ({ chunk_ref: ref })),
    };
    try {
      reader.object(line, i + 1);
    } catch (error) {
      if (error instanceof FieldError)
        throw new InputError(`${at}: ${error.message.replace('hits[', 'ranked_chunk_refs[')}`);
      throw error;
    }
  });
}

/** An evidence hit `{chunk_ref, paper_id?, score?}` at position i as a ranked hit. */
function hitOf(h: unknown, i: number, key: string): JsonObject {
  const at = `${key}[${i}]`;
  const ref = isObject(h) ? id(h.chunk_ref) : null;
  if (!isObject(h) || ref === null)
    throw new FieldError(at, `\`${at}\` needs \`chunk_ref\` (paper_id:section:index), got ${describe(h)}`);
  // chunk_ref is paper_id:section:index: the paper is its first part when the hit does not say.
  const paper = id(h.paper_id) ?? ref.split(':')[0];
  const hit: JsonObject = { rank: i + 1, chunk_id: ref, doc_id: paper };
  if (typeof h.score === 'number' && Number.isFinite(h.score)) hit.score = h.score;
  return hit;
}
