/**
 * Builds the committed fixtures in fixtures/ from the Cranfield collection in ../shared/datasets/cranfield:
 * two BM25 runs (whole documents vs. passages) and a golden set made from the collection's judgments, written
 * against the passage chunker (expected_chunk_ids = each relevant document's best passage), plus ten synthetic
 * out-of-domain queries of our own (x001..x010) that should be refused.
 *
 *   node --import tsx scripts/build-fixtures.ts [OUT_DIR]     (default: fixtures/)
 *
 * Deterministic: no clock, no randomness, sorted iteration, fixed created_at strings, so building twice gives
 * the same bytes (test/fixtures.test.ts checks that the committed files are up to date).
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomically } from '../src/write/outputFiles.js';
import { createRunDatabase, insertChunks, insertRun, saveDatabase } from '../src/write/writeRunDatabase.js';
import type { ChunkRowInput } from '../src/write/writeRunDatabase.js';
import type { CompareReport, GateResult } from '../src/gate/types.js';
import { runCompare } from '../src/pipeline/runCompare.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DATASET_DIR = resolve(repoRoot, '..', 'shared', 'datasets', 'cranfield');

// ---------------------------------------------------------------------------------------------------------
// Parameters (written into each run's config and into fixtures/README.md)

export const BM25_PARAMS = { k1: 1.2, b: 0.75, k: 1 } as const;
/** Sentences per passage of the candidate's chunker; a lone last sentence joins the passage before it. */
export const PASSAGE_SENTENCES = 3;
export const TOP_K = 10;
/** The extractive answerer refuses when the top hit's BM25 score is below this (one value for both runs). */
export const REFUSAL_THRESHOLD = 13;
/** Hit 2 is cited too when its score is at least this share of hit 1's. */
const SECOND_CITATION_RATIO = 0.85;
/** Snippets: the start of the hit's best sentence for the query, cut at a word boundary. */
const SNIPPET_CHARS = 100;
/** Chunks given to the (pretend) generator as context: they make up prompt_tokens. */
const CONTEXT_CHUNKS = 5;
const PROMPT_OVERHEAD_TOKENS = 64;

const BASELINE = {
  runId: 'baseline-whole-doc',
  chunkerVersion: 'whole-doc-v1',
  indexVersion: 'cranfield-whole-doc-2026-11-01',
  commitHash: '1111111111111111111111111111111111111111',
  createdAt: '2026-11-01T12:00:00Z',
  threshold: REFUSAL_THRESHOLD,
};
const CANDIDATE = {
  runId: 'candidate-passages',
  chunkerVersion: 'passage-v2',
  indexVersion: 'cranfield-passage-2026-11-02',
  commitHash: '2222222222222222222222222222222222222222',
  createdAt: '2026-11-02T12:00:00Z',
  threshold: REFUSAL_THRESHOLD,
};
type RunSpec = typeof BASELINE;

/**
 * Not part of Cranfield: out-of-domain questions we added so the abstention metrics have data. Nothing in the
 * collection answers them (expected_doc_ids: [], "should refuse"); both runs answer or refuse them by the same
 * score-threshold rule as every other query. Some share words with the collection (pressure, flow, wind,
 * stability, temperature), so a lexical retriever can be fooled into answering. Written once, not tuned to
 * an outcome.
 */
export const ADVERSARIAL_QUERIES: ReadonlyArray<{ id: string; text: string }> = [
  { id: 'x001', text: 'what is the recommended daily dose of vitamin d for adults .' },
  { id: 'x002', text: 'who won the football world cup in 1966 .' },
  { id: 'x003', text: 'how do i bake sourdough bread at home .' },
  { id: 'x004', text: 'what is the capital city of australia .' },
  { id: 'x005', text: 'how does blood pressure change with age in healthy adults .' },
  { id: 'x006', text: 'what are the tax rules for capital gains on shares .' },
  { id: 'x007', text: "how is the stability of a bank's balance sheet measured under stress ." },
  { id: 'x008', text: 'what temperature should a turkey be cooked to .' },
  { id: 'x009', text: 'how do wind turbines for household electricity reduce energy bills .' },
  { id: 'x010', text: 'what is the flow rate of the river thames in london .' },
];

// ---------------------------------------------------------------------------------------------------------
// BM25: wink-bm25-text-search, tokenised by wink-nlp-utils (CommonJS, no type declarations: typed here)

interface WinkBM25 {
  defineConfig(cfg: {
    fldWeights: Record<string, number>;
    bm25Params?: { k1?: number; b?: number; k?: number };
  }): boolean;
  definePrepTasks(tasks: Array<(input: string) => string[]>, field?: string): number;
  addDoc(doc: Record<string, string>, id: string): number;
  consolidate(precision?: number): boolean;
  search(text: string, limit?: number): Array<[string, number]>;
  getIDF(): number[];
  getTokens(): Record<string, number>;
}
interface WinkNlpUtils {
  string: { lowerCase(s: string): string; tokenize0(s: string): string[] };
  tokens: { removeWords(t: string[]): string[]; stem(t: string[]): string[] };
}
const require = createRequire(import.meta.url);
const bm25Factory = require('wink-bm25-text-search') as () => WinkBM25;
const nlp = require('wink-nlp-utils') as WinkNlpUtils;

/** Porter2 stem of a token, memoised: a stem depends on the token alone, and a build stems ~940,000 tokens, 7,400 distinct. */
const stems = new Map<string, string>();
function stem(token: string): string {
  let out = stems.get(token);
  if (out === undefined) {
    out = nlp.tokens.stem([token])[0];
    stems.set(token, out);
  }
  return out;
}

/** One tokenisation for documents, passages and queries: lower-case, split, drop stop words, Porter2 stems. */
export function analyse(text: string): string[] {
  return nlp.tokens.removeWords(nlp.string.tokenize0(nlp.string.lowerCase(text))).map(stem);
}

class Bm25Index {
  private readonly engine = bm25Factory();
  private readonly df = new Map<string, number>();
  private idfByToken: Map<string, number> | null = null;
  size = 0;

  constructor() {
    this.engine.defineConfig({ fldWeights: { body: 1 }, bm25Params: { ...BM25_PARAMS } });
    this.engine.definePrepTasks([analyse]);
  }

  add(id: string, text: string): void {
    this.engine.addDoc({ body: text }, id);
    for (const t of new Set(analyse(text))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.size++;
  }

  consolidate(): void {
    this.engine.consolidate();
    const idf = this.engine.getIDF();
    this.idfByToken = new Map(Object.entries(this.engine.getTokens()).map(([t, i]) => [t, idf[i]]));
  }

  /** Every chunk with a positive score, best first; equal scores by chunk id ascending. */
  searchAll(query: string): Array<{ id: string; score: number }> {
    return this.engine
      .search(query, this.size)
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Postings a query touches (sum of document frequencies of its tokens): the "work" behind the fake timings. */
  postings(query: string): number {
    let n = 0;
    for (const t of analyse(query)) n += this.df.get(t) ?? 0;
    return n;
  }

  idf(token: string): number {
    return this.idfByToken!.get(token) ?? 0;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading the collection

export interface CranDoc {
  docno: number;
  docId: string;
  path: string;
  title: string;
  /** Sentences of <text>, one per line of the virtual document file `path`. */
  lines: string[];
}
export interface CranQuery {
  /** 1-based position in cran.qry.xml: the qrels' topic id. */
  position: number;
  num: number;
  id: string;
  text: string;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
export const docIdOf = (docno: number | string) => `cran-${String(docno).padStart(4, '0')}`;
export const queryIdOf = (position: number | string) => `q${String(position).padStart(3, '0')}`;

function field(block: string, tag: string): string {
  const m = block.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`));
  return m ? m[1] : '';
}

/** Sentences end with a free-standing "." (the collection writes "word ." ); "1.5" and "n.y." stay whole. */
export function splitSentences(text: string): string[] {
  const flat = squash(text);
  if (flat === '') return [];
  return flat
    .split(/(?<= \.) /)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function readDocuments(datasetDir: string): CranDoc[] {
  const xml = readFileSync(join(datasetDir, 'cran.all.1400.xml'), 'utf8').replace(/\r\n?/g, '\n');
  const docs: CranDoc[] = [];
  for (const m of xml.matchAll(/<doc>([\s\S]*?)<\/doc>/g)) {
    const docno = Number(squash(field(m[1], 'docno')));
    if (!Number.isInteger(docno)) throw new Error(`cran.all.1400.xml: bad <docno> in ${m[1].slice(0, 80)}`);
    docs.push({
      docno,
      docId: docIdOf(docno),
      path: `cranfield/${String(docno).padStart(4, '0')}.txt`,
      title: squash(field(m[1], 'title')),
      lines: splitSentences(field(m[1], 'text')),
    });
  }
  return docs.sort((a, b) => a.docno - b.docno);
}

export function readQueries(datasetDir: string): CranQuery[] {
  const xml = readFileSync(join(datasetDir, 'cran.qry.xml'), 'utf8').replace(/\r\n?/g, '\n');
  return [...xml.matchAll(/<top>([\s\S]*?)<\/top>/g)].map((m, i) => ({
    position: i + 1,
    num: Number(squash(field(m[1], 'num'))),
    id: queryIdOf(i + 1),
    text: squash(field(m[1], 'title')),
  }));
}

/** topic position -> docno -> grade. CRLF and runs of spaces between fields are both fine. */
export function readQrels(datasetDir: string): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  const text = readFileSync(join(datasetDir, 'cranqrel.trec.txt'), 'utf8');
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '') continue;
    const [topic, , docno, grade] = line.split(/\s+/).map(Number);
    if (![topic, docno, grade].every(Number.isInteger))
      throw new Error(`cranqrel.trec.txt: bad line ${JSON.stringify(raw)}`);
    let judged = out.get(topic);
    if (!judged) out.set(topic, (judged = new Map()));
    judged.set(docno, grade);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Chunkers

interface Chunk extends ChunkRowInput {
  doc: CranDoc;
  startLine: number;
  endLine: number;
}

function makeChunk(doc: CranDoc, chunkId: string, startLine: number, endLine: number, chunkerVersion: string): Chunk {
  const text = doc.lines.slice(startLine - 1, endLine).join('\n');
  return {
    chunkId,
    docId: doc.docId,
    text,
    headingPath: [doc.title],
    spans: [{ path: doc.path, start_line: startLine, end_line: endLine }],
    tokenEstimate: text.split(/\s+/).filter((t) => t !== '').length,
    chunkerVersion,
    doc,
    startLine,
    endLine,
  };
}

/** whole-doc-v1: one chunk per document, spanning all its lines. */
function wholeDocChunks(docs: CranDoc[]): Chunk[] {
  return docs.map((d) => makeChunk(d, `${d.docId}#doc`, 1, d.lines.length, BASELINE.chunkerVersion));
}

/** passage-v2: windows of PASSAGE_SENTENCES sentences (lines); a lone last sentence joins the window before. */
function passageChunks(docs: CranDoc[]): Chunk[] {
  const out: Chunk[] = [];
  for (const d of docs) {
    const starts: number[] = [];
    for (let s = 1; s <= d.lines.length; s += PASSAGE_SENTENCES) starts.push(s);
    if (starts.length > 1 && d.lines.length - starts[starts.length - 1] + 1 === 1) starts.pop();
    starts.forEach((s, i) => {
      const end = i + 1 < starts.length ? starts[i + 1] - 1 : d.lines.length;
      out.push(makeChunk(d, `${d.docId}#p${String(i + 1).padStart(2, '0')}`, s, end, CANDIDATE.chunkerVersion));
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// One run: retrieval, an extractive answer, fake but work-derived timings

const round1 = (x: number) => Math.round(x * 10) / 10;
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const countTokens = (s: string) => s.split(/\s+/).filter((t) => t !== '').length;

function snippetOf(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > 40 ? cut.slice(0, space) : cut).trimEnd();
}

interface RunOutput {
  results: Array<{ queryId: string; result: unknown }>;
  refusals: number;
  /** Ids of the queries the answerer refused. */
  refused: Set<string>;
  ranked: Map<string, Array<{ id: string; score: number }>>;
}

function runQueries(
  spec: RunSpec,
  chunks: Chunk[],
  index: Bm25Index,
  queries: ReadonlyArray<{ id: string; text: string }>,
): RunOutput {
  const byId = new Map(chunks.map((c) => [c.chunkId, c]));
  const results: RunOutput['results'] = [];
  const ranked: RunOutput['ranked'] = new Map();
  let refusals = 0;
  const refused = new Set<string>();
  for (const q of queries) {
    const all = index.searchAll(q.text);
    ranked.set(q.id, all);
    const top = all.slice(0, TOP_K).map((r) => ({ ...r, chunk: byId.get(r.id)! }));
    const queryTokens = new Set(analyse(q.text));
    const hits = top.map((r, i) => ({
      rank: i + 1,
      chunk_id: r.chunk.chunkId,
      doc_id: r.chunk.docId,
      doc_path: r.chunk.doc.path,
      heading_path: r.chunk.headingPath,
      snippet: snippetOf(r.chunk.doc.lines[bestLine(r.chunk, queryTokens, index) - 1]),
      score: round4(r.score),
      citation: { kind: 'line', path: r.chunk.doc.path, start: r.chunk.startLine, end: r.chunk.endLine },
      chunker_version: r.chunk.chunkerVersion,
    }));

    const retrievalMs = round1(1.5 + index.postings(q.text) / 120 + index.size / 2000);
    const topScore = top.length > 0 ? top[0].score : 0;
    let answer: Record<string, unknown>;
    let generationMs = 0;
    if (topScore < spec.threshold) {
      refusals++;
      refused.add(q.id);
      answer = {
        answer: '',
        citations: [],
        grounded: false,
        refusal_reason: 'low retrieval score',
        usage: { prompt_tokens: 0, completion_tokens: 0, latency_ms: 0 },
      };
    } else {
      const cited = [top[0]];
      if (top.length > 1 && top[1].score >= SECOND_CITATION_RATIO * topScore) cited.push(top[1]);
      const parts: string[] = [];
      const citations = cited.map((r, i) => {
        const line = bestLine(r.chunk, queryTokens, index);
        parts.push(`${r.chunk.doc.lines[line - 1]} [${i + 1}]`);
        return {
          marker: `[${i + 1}]`,
          citation: { kind: 'line', path: r.chunk.doc.path, start: line, end: line },
          chunk_id: r.chunk.chunkId,
        };
      });
      const text = parts.join(' ');
      const promptTokens =
        PROMPT_OVERHEAD_TOKENS +
        countTokens(q.text) +
        top.slice(0, CONTEXT_CHUNKS).reduce((n, r) => n + r.chunk.tokenEstimate, 0);
      const completionTokens = countTokens(text);
      generationMs = round1(180 + promptTokens * 0.12 + completionTokens * 9);
      answer = {
        answer: text,
        citations,
        grounded: true,
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, latency_ms: generationMs },
      };
    }
    results.push({
      queryId: q.id,
      result: {
        query_id: q.id,
        query: q.text,
        mode: 'bm25',
        hits_top_k: hits,
        answer,
        elapsed_ms: round1(retrievalMs + generationMs + 0.7),
        error: null,
        status: 'ok',
        timings_ms: { retrieval: retrievalMs, generation: generationMs },
      },
    });
  }
  return { results, refusals, refused, ranked };
}

/** The chunk line (sentence) with the highest summed IDF of distinct query tokens; first such line on ties. */
function bestLine(chunk: Chunk, queryTokens: Set<string>, index: Bm25Index): number {
  let best = chunk.startLine;
  let bestScore = -1;
  for (let line = chunk.startLine; line <= chunk.endLine; line++) {
    let score = 0;
    for (const t of new Set(analyse(chunk.doc.lines[line - 1]))) if (queryTokens.has(t)) score += index.idf(t);
    if (score > bestScore) {
      bestScore = score;
      best = line;
    }
  }
  return best;
}

function buildIndex(chunks: Chunk[]): Bm25Index {
  const index = new Bm25Index();
  for (const c of chunks) index.add(c.chunkId, c.text);
  index.consolidate();
  return index;
}

function runConfig(spec: RunSpec): Record<string, unknown> {
  return {
    chunker_version: spec.chunkerVersion,
    embedding_model: 'bm25-okapi',
    index_version: spec.indexVersion,
    dataset: 'cranfield-1400',
    retriever: {
      kind: 'bm25',
      library: 'wink-bm25-text-search',
      k1: BM25_PARAMS.k1,
      b: BM25_PARAMS.b,
      idf_k: BM25_PARAMS.k,
      top_k: TOP_K,
      tokenizer: 'wink-nlp-utils: lowerCase, tokenize0, removeWords, stem (porter2)',
      ...(spec === CANDIDATE ? { passage_sentences: PASSAGE_SENTENCES } : {}),
    },
    answerer: {
      kind: 'extractive',
      refusal_threshold: spec.threshold,
      second_citation_ratio: SECOND_CITATION_RATIO,
    },
  };
}

async function writeRun(
  file: string,
  spec: RunSpec,
  chunks: Chunk[],
  docs: CranDoc[],
  results: RunOutput['results'],
): Promise<void> {
  const db = await createRunDatabase();
  try {
    insertRun(
      db,
      {
        runId: spec.runId,
        suite: 'cranfield',
        config: runConfig(spec),
        commitHash: spec.commitHash,
        createdAt: spec.createdAt,
      },
      results,
    );
    insertChunks(
      db,
      chunks.map(({ doc: _doc, startLine: _s, endLine: _e, ...row }) => row),
      docs.map((d) => ({ docId: d.docId, workspacePath: d.path })),
    );
    db.exec('VACUUM');
    saveDatabase(db, file);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Golden set

const QUESTION_FORMS: Array<[RegExp, string]> = [
  [/^(what|which)\b/, 'what'],
  [/^how\b/, 'how'],
  [/^why\b/, 'why'],
  [/^(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|must|may)\b/, 'yes-no'],
];

function categoryOf(text: string): string {
  for (const [re, name] of QUESTION_FORMS) if (re.test(text)) return name;
  return 'statement';
}

function difficultyOf(relevant: number): string {
  return relevant <= 4 ? 'few-relevant' : relevant <= 9 ? 'some-relevant' : 'many-relevant';
}

function lengthTagOf(text: string): string {
  const n = countTokens(text.replace(/ [.,?]/g, ''));
  return n <= 10 ? 'short-query' : n <= 20 ? 'medium-query' : 'long-query';
}

const yamlString = (s: string) => JSON.stringify(s);

interface GoldenSummary {
  text: string;
  /** Relevant (grade >= 1) qrels lines: the expected_doc_ids of all queries. */
  relevantDocs: number;
  expectedChunks: number;
  /** `qNNN:cran-NNNN` for relevant documents without text, hence without a passage. */
  relevantWithoutPassage: string[];
  categories: Map<string, number>;
  /** Per Cranfield query: its expected passages and relevant documents. */
  expected: Map<string, { chunks: Set<string>; docs: Set<string> }>;
}

/**
 * The golden set, written against passage-v2. Per Cranfield query: expected_doc_ids = the documents with a
 * grade >= 1 (binarised), expected_chunk_ids = each such document's best passage for the query; no judgments
 * (they would be a second chunk-level expectation per document). Then the synthetic adversarial queries.
 */
function goldenYaml(
  queries: CranQuery[],
  qrels: Map<number, Map<number, number>>,
  passages: Chunk[],
  passageRanks: RunOutput['ranked'],
): GoldenSummary {
  const passagesOfDoc = new Map<string, Chunk[]>();
  for (const c of passages) {
    let list = passagesOfDoc.get(c.docId);
    if (!list) passagesOfDoc.set(c.docId, (list = []));
    list.push(c);
  }
  const lines = [
    '# Golden set for the Cranfield fixtures: built by scripts/build-fixtures.ts, do not edit by hand (see fixtures/README.md).',
    '# Written against the passage-v2 chunker. q001..q225: one query per cran.qry.xml position (q001 = position 1 = qrels',
    '# topic 1). expected_doc_ids: the documents the qrels judge relevant (grade >= 1; grades binarised, grade 0 dropped).',
    '# expected_chunk_ids: per relevant document with text, its passage-v2 passage with the highest BM25 score for the query.',
    '# No judgments: the expected passages are the relevance expectations; expected_doc_ids drive recall_doc@k.',
    `# ${ADVERSARIAL_QUERIES[0].id}..${ADVERSARIAL_QUERIES[ADVERSARIAL_QUERIES.length - 1].id}: synthetic out-of-domain queries added by us (not part of Cranfield), expected_doc_ids: [] = should refuse.`,
  ];
  let relevantDocs = 0;
  let expectedChunks = 0;
  const relevantWithoutPassage: string[] = [];
  const categories = new Map<string, number>();
  const expected: GoldenSummary['expected'] = new Map();
  const countCategory = (c: string) => categories.set(c, (categories.get(c) ?? 0) + 1);
  for (const q of queries) {
    const judged = [...(qrels.get(q.position) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
    const relevant = judged.filter(([, g]) => g >= 1).map(([d]) => docIdOf(d));
    const scores = new Map((passageRanks.get(q.id) ?? []).map((r) => [r.id, r.score]));
    const expectedChunkIds: string[] = [];
    for (const docId of relevant) {
      const candidates = passagesOfDoc.get(docId) ?? [];
      if (candidates.length === 0) {
        relevantWithoutPassage.push(`${q.id}:${docId}`);
        continue;
      }
      // Highest score; ties (including "no query term at all") go to the earliest passage.
      let best = candidates[0];
      for (const c of candidates) if ((scores.get(c.chunkId) ?? 0) > (scores.get(best.chunkId) ?? 0)) best = c;
      expectedChunkIds.push(best.chunkId);
    }
    if (relevant.length === 0 || expectedChunkIds.length === 0) {
      // Not the case in Cranfield; a query without an expected passage would silently fall back to doc-level relevance.
      throw new Error(`${q.id}: no relevant document with text in the qrels`);
    }
    relevantDocs += relevant.length;
    expected.set(q.id, { chunks: new Set(expectedChunkIds), docs: new Set(relevant) });
    expectedChunks += expectedChunkIds.length;
    const category = categoryOf(q.text);
    countCategory(category);
    lines.push(`- id: ${q.id}`);
    lines.push(`  query: ${yamlString(q.text)}`);
    lines.push(`  category: ${category}`);
    lines.push(`  difficulty: ${difficultyOf(relevant.length)}`);
    lines.push(`  tags: [${lengthTagOf(q.text)}]`);
    lines.push(`  expected_doc_ids: [${relevant.join(', ')}]`);
    lines.push(`  expected_chunk_ids: [${expectedChunkIds.map(yamlString).join(', ')}]`);
    lines.push(`  notes: ${yamlString(`cran.qry.xml <num> ${q.num}, qrels topic ${q.position}`)}`);
  }
  for (const q of ADVERSARIAL_QUERIES) {
    countCategory('adversarial');
    lines.push(`- id: ${q.id}`);
    lines.push(`  query: ${yamlString(q.text)}`);
    lines.push('  category: adversarial');
    lines.push(`  tags: [${lengthTagOf(q.text)}, synthetic]`);
    lines.push('  expected_doc_ids: []');
    lines.push(
      `  notes: ${yamlString('synthetic out-of-domain query added for these fixtures (not part of Cranfield): should refuse')}`,
    );
  }
  return { text: `${lines.join('\n')}\n`, relevantDocs, expectedChunks, relevantWithoutPassage, categories, expected };
}

// ---------------------------------------------------------------------------------------------------------
// README

/** Stored hits of a run: the top k of each query (fewer when fewer chunks score above 0). */
const hitCount = (ranked: RunOutput['ranked']) =>
  [...ranked.values()].reduce((n, r) => n + Math.min(r.length, TOP_K), 0);

/** Queries whose grade-0 document is among the run's top-k hits. */
function zeroGradeInTop(
  queries: CranQuery[],
  qrels: Map<number, Map<number, number>>,
  ranked: RunOutput['ranked'],
  chunks: Chunk[],
): number {
  const docOf = new Map(chunks.map((c) => [c.chunkId, c.docId]));
  let n = 0;
  for (const q of queries) {
    const zero = new Set([...(qrels.get(q.position) ?? [])].filter(([, g]) => g === 0).map(([d]) => docIdOf(d)));
    if ((ranked.get(q.id) ?? []).slice(0, TOP_K).some((r) => zero.has(docOf.get(r.id)!))) n++;
  }
  return n;
}

/** Counts as whole numbers, milliseconds to 0.1, ratios to 4 decimals. */
const decimalsOf = (metric: string) =>
  /^(regressions|losses|wins|answer_regressions)$|_total$/.test(metric) ? 0 : metric.endsWith('_ms') ? 1 : 4;
const fmt = (x: number | null | undefined, metric: string) =>
  x === null || x === undefined ? '–' : x.toFixed(decimalsOf(metric));
const fmtDelta = (x: number | null | undefined, metric: string) => {
  if (x === null || x === undefined) return '–';
  const text = Math.abs(x).toFixed(decimalsOf(metric));
  return Number(text) === 0 ? text : `${x > 0 ? '+' : '−'}${text}`;
};
interface Crowding {
  hits: number;
  /** Hits whose document is already listed higher in the same top k. */
  repeatedDoc: number;
  /** Hits that are a passage of a relevant document other than its expected one. */
  otherPassage: number;
  /** Mean distinct documents per top k. */
  distinctDocs: number;
}

/** How the candidate's top-k lists are made up (Cranfield queries only). */
function crowdingOf(ranked: RunOutput['ranked'], chunks: Chunk[], expected: GoldenSummary['expected']): Crowding {
  const docOf = new Map(chunks.map((c) => [c.chunkId, c.docId]));
  let hits = 0;
  let repeatedDoc = 0;
  let otherPassage = 0;
  let distinct = 0;
  for (const [qid, exp] of [...expected].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const seen = new Set<string>();
    for (const r of (ranked.get(qid) ?? []).slice(0, TOP_K)) {
      const doc = docOf.get(r.id)!;
      hits++;
      if (seen.has(doc)) repeatedDoc++;
      seen.add(doc);
      if (exp.docs.has(doc) && !exp.chunks.has(r.id)) otherPassage++;
    }
    distinct += seen.size;
  }
  return { hits, repeatedDoc, otherPassage, distinctDocs: distinct / expected.size };
}

const fmtP = (p: number | null | undefined) =>
  p === null || p === undefined ? '–' : p < 0.0001 ? '< 0.0001' : p.toFixed(4);
const list = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** A gate's threshold in words, from its numbers (not the renderer's text, which may change wording). */
function thresholdOf(g: GateResult): string {
  const parts: string[] = [];
  if (g.min !== undefined) parts.push(`≥ ${fmt(g.min, g.metric)}`);
  if (g.max !== undefined) parts.push(`≤ ${fmt(g.max, g.metric)}`);
  if (g.max_drop !== undefined) parts.push(`drop ≤ ${fmt(g.max_drop, g.metric)}`);
  if (g.max_increase !== undefined) parts.push(`increase ≤ ${fmt(g.max_increase, g.metric)}`);
  if (g.max_drop_pct !== undefined) parts.push(`drop ≤ ${g.max_drop_pct}%`);
  if (g.max_increase_pct !== undefined) parts.push(`increase ≤ ${g.max_increase_pct}%`);
  if (parts.length === 0 && g.margin !== undefined) parts.push(`margin ${fmt(g.margin, g.metric)}`);
  return `${parts.join(', ')}${g.significant_only ? ' if significant' : ''}`;
}

/** The compare section of the README: what the quick start's `evalverdict compare` (fixtures/evalverdict.yml) says. */
function compareSection(
  report: CompareReport,
  cranfieldQueries: number,
  categories: Map<string, number>,
  crowding: Crowding,
): string {
  const gateRows = report.gates.map((g) => {
    return `| \`${g.metric}\` | ${g.level} | ${thresholdOf(g)} | ${fmt(g.baseline, g.metric)} | ${fmt(g.candidate, g.metric)} | ${fmtDelta(g.delta, g.metric)} | ${fmtP(g.p_value)} | **${g.result}** |`;
  });
  const headline = [
    'hit@1',
    'hit@10',
    'mrr@10',
    'nDCG@10',
    'recall@10',
    'MAP',
    'recall_doc@10',
    'attribution_hit_rate',
    'over_refusal_rate',
    'refusal_correctness',
    'under_refusal_rate',
    'latency_p50_ms',
    'prompt_tokens_total',
  ];
  const metricRows = headline
    .filter((id) => report.metrics[id])
    .map((id) => {
      const m = report.metrics[id];
      return `| \`${id}\` | ${fmt(m.baseline, id)} | ${fmt(m.candidate, id)} | ${fmtDelta(m.delta, id)} | ${m.n} | ${fmtP(m.p_value)} |`;
    });
  const lowerIsBetter = new Set(['over_refusal_rate', 'under_refusal_rate', 'latency_p50_ms', 'prompt_tokens_total']);
  const moved = (better: boolean) =>
    headline
      .filter((id) => {
        const d = report.metrics[id]?.delta;
        if (d === null || d === undefined || Number(fmtDelta(d, id)) === 0) return false;
        return d > 0 !== lowerIsBetter.has(id) ? better : !better;
      })
      .map((id) => {
        const m = report.metrics[id];
        const sig =
          m.p_value !== null
            ? ` (p ${fmtP(m.p_value).replace(/^(?!<)/, '= ')}${m.significant ? ', significant' : ''})`
            : '';
        return `\`${id}\` ${fmt(m.baseline, id)} → ${fmt(m.candidate, id)}${sig}`;
      });
  const better = moved(true);
  const worse = moved(false);
  const rd = report.metrics['recall_doc@10'];
  const c = report.counts;
  const failing = report.gates.filter((g) => g.effect === 'fail').map((g) => `\`${g.metric}\``);
  const warning = report.gates.filter((g) => g.effect === 'warn').map((g) => `\`${g.metric}\``);
  const byCategory = Object.entries(report.breakdowns.category ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([name, m]) =>
        `| ${name} | ${categories.get(name) ?? 0} | ${fmt(m['hit@10']?.baseline, 'hit@10')} → ${fmt(m['hit@10']?.candidate, 'hit@10')} | ${fmt(m['nDCG@10']?.baseline, 'nDCG@10')} → ${fmt(m['nDCG@10']?.candidate, 'nDCG@10')} | ${fmt(m.refusal_correctness?.baseline, 'refusal_correctness')} → ${fmt(m.refusal_correctness?.candidate, 'refusal_correctness')} |`,
    );
  const exit = report.verdict === 'fail' ? 1 : 0;
  return `## What \`evalverdict compare\` says

    npx evalverdict compare fixtures/baseline.sqlite fixtures/candidate.sqlite --golden fixtures/golden.yaml --config fixtures/evalverdict.yml

(\`fixtures/evalverdict.yml\`: tested gates on hit@5, mrr@10, nDCG@10 and recall@10 with margins 0.1, 0.1, 0.005 and
0.01, each passing when its 90% interval of the paired change rules out a drop of its margin and failing when the
interval shows the drop beyond it, α = ${report.alpha} split over the four; see docs/gates.md). The p column is each
gate's one-sided p of a drop before the split. The numbers below are computed by the build from the files it just
wrote, with the same code path as that command. Under the built-in default (margin 0.1 on all four) the same real
drops pass.

- **verdict: ${report.verdict}** (exit code ${exit})${failing.length > 0 ? `: failing gate${failing.length === 1 ? '' : 's'} ${list(failing)}` : ''}${warning.length > 0 ? `; warning${warning.length === 1 ? '' : 's'} from ${list(warning)}` : ''}.
- \`chunker_version_match: ${report.chunker_version_match}\`: the chunker versions differ, so an expected passage is
  also met by a hit of the same document whose span covers ≥ 50% of the passage's span. The baseline's
  whole-document hits meet their document's expected passage that way; the candidate meets them exactly.
- Per query, each of the ${report.per_query.length} queries once by the rank of its first relevant hit in the top ${TOP_K}: **${c.win} wins, ${c.loss} losses,
  ${c.draw} draws, ${c.regression} regressions** (an expected hit the baseline found is missed by the candidate). Among these
  queries, ${c.answer_regression} are also answer regressions (counted apart, not added). The draws include the
  ${report.golden.queries - cranfieldQueries} adversarial queries, which have nothing to find.

| gate | level | threshold | baseline | candidate | delta | p | result |
| --- | --- | --- | --- | --- | --- | --- | --- |
${gateRows.join('\n')}

| metric | baseline | candidate | delta | n | p |
| --- | --- | --- | --- | --- | --- |
${metricRows.join('\n')}

Reading it (latency and tokens are derived from the work done, see above, not measured):

- better in the candidate: ${better.length > 0 ? better.join('; ') : 'none of these'};
- worse in the candidate: ${worse.length > 0 ? worse.join('; ') : 'none of these'}.

Counting any passage of a relevant document as found (\`recall_doc@10\`, which reads expected_doc_ids) gives
${fmt(rd?.baseline, 'recall_doc@10')} → ${fmt(rd?.candidate, 'recall_doc@10')} against \`recall@10\` ${fmt(report.metrics['recall@10']?.baseline, 'recall@10')} → ${fmt(report.metrics['recall@10']?.candidate, 'recall@10')}${
    rd &&
    rd.delta !== null &&
    report.metrics['recall@10']?.delta != null &&
    Math.abs(rd.delta - report.metrics['recall@10'].delta!) < 0.005
      ? `: the candidate's recall loss is about which documents reach its top ${TOP_K}, not about asking for the right passage`
      : ''
  }. On the Cranfield queries its top ${TOP_K}s hold ${crowding.distinctDocs.toFixed(2)} distinct documents on average (the baseline's: always ${TOP_K}):
${crowding.repeatedDoc} of its ${crowding.hits} hits are a further passage of a document listed higher, and ${crowding.otherPassage} are a passage of a
relevant document other than the expected one, which earns nothing.

By category (hit@10, nDCG@10, refusal_correctness; baseline → candidate):

| category | queries | hit@10 | nDCG@10 | refusal_correctness |
| --- | --- | --- | --- | --- |
${byCategory.join('\n')}
`;
}

function readme(facts: {
  docs: number;
  skipped: number[];
  queries: number;
  adversarial: number;
  judgments: number;
  grades: Map<number, number>;
  gradeAbove1: string[];
  baselineChunks: number;
  candidateChunks: number;
  baselineRefused: Set<string>;
  candidateRefused: Set<string>;
  relevantDocs: number;
  expectedChunks: number;
  relevantWithoutPassage: string[];
  zeroInBaselineTop: number;
  baselineMB: string;
  candidateMB: string;
  compare: string;
  baselineHits: number;
  candidateHits: number;
}): string {
  const grades = [...facts.grades]
    .sort(([a], [b]) => a - b)
    .map(([g, n]) => `${n} × grade ${g}`)
    .join(', ');
  const isX = (id: string) => ADVERSARIAL_QUERIES.some((q) => q.id === id);
  const refusalLine = (name: string, refused: Set<string>) => {
    const over = [...refused].filter((id) => !isX(id)).length;
    const right = [...refused].filter(isX).length;
    return `${name}: ${over} of the ${facts.queries} Cranfield queries refused (over-refusals), ${right} of the ${facts.adversarial} adversarial ones refused (${facts.adversarial - right} answered)`;
  };
  const withoutPassage = facts.relevantWithoutPassage.map((x) => x.replace(':', ': '));
  return `# Fixtures: Cranfield

Two run databases and a golden set built from the Cranfield collection, for tests, examples and benchmarks:

| file | what |
| --- | --- |
| \`baseline.sqlite\` | run \`${BASELINE.runId}\`: BM25 over **whole documents**, chunker_version \`${BASELINE.chunkerVersion}\` (one chunk per document, ${facts.baselineChunks} chunks), created_at ${BASELINE.createdAt}, commit ${BASELINE.commitHash.slice(0, 7)}… |
| \`candidate.sqlite\` | run \`${CANDIDATE.runId}\`: BM25 over **passages**, chunker_version \`${CANDIDATE.chunkerVersion}\` (${PASSAGE_SENTENCES} sentences per passage, ${facts.candidateChunks} chunks), created_at ${CANDIDATE.createdAt}, commit ${CANDIDATE.commitHash.slice(0, 7)}… |
| \`golden.yaml\` | the golden set, written against the passage chunker: the ${facts.queries} Cranfield queries with their relevant documents and expected passages, plus ${facts.adversarial} synthetic out-of-domain queries of ours that should be refused |

Do not edit them by hand. Rebuild with

    node --import tsx scripts/build-fixtures.ts

which reads \`../shared/datasets/cranfield/\` (beside the repo root) and writes the same bytes every time;
\`test/fixtures.test.ts\` fails when the committed files are out of date.

\`core-spec/\` is another writer's worked example, not Cranfield: the 001 core-metrics runner's two run databases
over a small notes vault, in the runner's own spellings, and its golden set, built by
\`scripts/build-core-spec-fixture.ts\` and scored in \`test/coreSpecFixture.test.ts\` (docs/sources/core-spec.md).

## Source and credit

The Cranfield collection: ${facts.docs} aeronautics abstracts, ${facts.queries} queries and relevance judgments, made at the
College of Aeronautics, Cranfield, in the 1960s by Cyril Cleverdon and colleagues (the Cranfield experiments,
the origin of test-collection evaluation in information retrieval). We use the TREC-formatted copy published
in the oussbenk/cranfield-trec-dataset repository. From the collection: the documents' text, the queries and
the judgments. **Added by us**: the ${facts.adversarial} adversarial queries \`${ADVERSARIAL_QUERIES[0].id}\`…\`${ADVERSARIAL_QUERIES[ADVERSARIAL_QUERIES.length - 1].id}\` (below), the passages, the
expected passages, the categories, difficulties and tags, and everything in the runs (hits, answers, timings).

## How they were built

- **Documents**: \`doc_id\` \`cran-NNNN\` (docno, zero-padded), \`workspace_path\` \`cranfield/NNNN.txt\`, a virtual file
  whose lines are the sentences of \`<text>\` (a sentence ends at a free-standing \`.\`). Chunks carry
  \`source_spans\` in those lines, \`heading_path\` = [title], \`token_estimate\` = whitespace tokens.
  Document${facts.skipped.length === 1 ? '' : 's'} ${facts.skipped.map(String).join(' and ')} ${facts.skipped.length === 1 ? 'has' : 'have'} no text in the collection and ${facts.skipped.length === 1 ? 'is' : 'are'} not indexed.
- **Chunk ids**: \`cran-NNNN#doc\` (whole-doc-v1) and \`cran-NNNN#pKK\` (passage-v2; passage KK covers sentences
  ${PASSAGE_SENTENCES}·(KK−1)+1 … ${PASSAGE_SENTENCES}·KK, a lone last sentence joining the passage before it). Both chunks tables describe
  the whole index (every indexed document).
- **Queries**: the ${facts.queries} Cranfield queries and the ${facts.adversarial} adversarial ones, run the same way by both runs.
- **Retrieval**: BM25 from [wink-bm25-text-search](https://www.npmjs.com/package/wink-bm25-text-search),
  k1 = ${BM25_PARAMS.k1}, b = ${BM25_PARAMS.b}, idf = ln((N − n + 0.5)/(n + 0.5) + ${BM25_PARAMS.k}), one field (the chunk text). The same
  tokenisation for chunks, passages and queries (wink-nlp-utils: lower-case, \`tokenize0\`, stop words
  removed, Porter2 stems). Top ${TOP_K} hits per query (fewer only when fewer chunks share a term with the query); equal scores are ordered by chunk id. Scores are stored
  rounded to 4 decimals. Each index has its own IDF, so scores of the two runs are not comparable. A hit's
  snippet is the start (≤ ${SNIPPET_CHARS} characters, cut at a word) of the chunk's sentence with the highest summed IDF of
  query tokens; its citation spans the whole chunk.
- **Answers**: extractive, no language model. When the top hit's score is below the refusal threshold
  (**${REFUSAL_THRESHOLD}**, the same for both runs and every query) the answer is a refusal (\`grounded: false\`,
  \`refusal_reason: "low retrieval score"\`). ${refusalLine('Baseline', facts.baselineRefused)}; ${refusalLine('candidate', facts.candidateRefused)}.
  Otherwise the answer is the sentence of hit 1 with the highest summed IDF of query terms, cited as \`[1]\`
  (a one-line citation), plus the same from hit 2 as \`[2]\` when hit 2 scores at least ${SECOND_CITATION_RATIO} × hit 1.
  The threshold is in raw BM25 score, and each index has its own IDF and length normalisation, so the one
  rule refuses different queries in the two runs.
- **Timings** are not measured: they are derived from the work done, so they are deterministic and differ
  between runs. retrieval = 1.5 + postings/120 + chunks/2000 ms (postings: the document frequencies of the
  query's tokens summed), generation = 180 + 0.12·prompt_tokens + 9·completion_tokens ms (0 for refusals),
  prompt_tokens = ${PROMPT_OVERHEAD_TOKENS} + query tokens + tokens of the top ${CONTEXT_CHUNKS} chunks, elapsed = retrieval + generation + 0.7 ms.

## The golden set

It is written against the **passage** chunker (\`${CANDIDATE.chunkerVersion}\`): the expectations are passages.

- \`id\`: \`qNNN\` by **position** in cran.qry.xml, which is the topic id the qrels use (the \`<num>\` values
  skip numbers: position 3 is \`<num> 4\`; \`notes\` gives both).
- \`expected_chunk_ids\` (${facts.expectedChunks} in all): for each relevant document, its passage-v2 passage with the highest BM25
  score for the query (ties: the earliest passage). These are the relevance expectations: one per relevant
  document, so in compare a document counts once. Relevant documents without text have no passage and no
  expected chunk id (${withoutPassage.join(', ')}); they are not in the index, so no run can retrieve them.
- \`expected_doc_ids\`: the relevant documents (${facts.relevantDocs} in all, those without text included). They drive
  \`recall_doc@k\` and keep the set readable by kebab; they do not define relevance here, because every query
  has expected passages (see docs/metrics.md, "Matching").
- No \`judgments\`. The qrels hold ${facts.judgments} judgments: ${grades}. Cranfield relevance is binary apart from
  one grade-3 judgment (${facts.gradeAbove1.join(', ')}), so grades were **binarised**: grade ≥ 1 = relevant.
  The grade-0 judgments (each query has exactly one) are **dropped**: a grade-0 expectation is never relevant
  at the default \`--min-grade 1\` and gains nothing in nDCG, so it affects no metric. (They are often strong
  lexical matches: the grade-0 document is in the baseline's top ${TOP_K} for ${facts.zeroInBaselineTop} of the ${facts.queries} queries.)
  Listing the documents as \`judgments\` beside their expected passages would make each relevant document two
  chunk-level expectations, and nDCG and MAP could never reach 1.
- \`category\`: the question form (what / how / why / yes-no / statement), \`adversarial\` for ours;
  \`difficulty\`: by number of relevant documents (few-relevant ≤ 4, some-relevant 5–9, many-relevant ≥ 10; none
  for the adversarial queries); \`tags\`: query length in words (short-query ≤ 10, medium-query ≤ 20,
  long-query), plus \`synthetic\` on ours.
- **Adversarial queries (added by us, not Cranfield)**: ${facts.adversarial} out-of-domain questions, \`expected_doc_ids: []\`
  ("should refuse"), \`category: adversarial\`, written once and not tuned to an outcome. Some share words with
  the collection (pressure, flow, wind, stability, temperature), so a lexical retriever can be led to answer
  them. Both runs answer or refuse them by the score-threshold rule above; they feed \`refusal_correctness\`
  and \`under_refusal_rate\`, and have no retrieval expectations, so they are outside the retrieval means.
${ADVERSARIAL_QUERIES.map((q) => `  - \`${q.id}\` ${q.text.replace(/ \.$/, '')} — baseline ${facts.baselineRefused.has(q.id) ? 'refuses' : 'answers'}, candidate ${facts.candidateRefused.has(q.id) ? 'refuses' : 'answers'}`).join('\n')}

In \`compare\` the chunker versions differ, so matching uses the span fallback: the baseline's whole-document
hit of a relevant document meets that document's expected passage (a whole-document span covers 100% of a
passage span), so for the baseline this is doc-level binary relevance, exactly TREC's; the candidate meets
the passages by chunk id. A different passage of a relevant document is not a match: the candidate is
judged on finding the right passage. Aggregating the baseline alone (no reference run, exact matching)
finds none of the expected passages: pass \`compare\` both runs, or use a golden set of documents.

${facts.compare}
## Sizes

baseline.sqlite ${facts.baselineMB} MiB, candidate.sqlite ${facts.candidateMB} MiB (VACUUMed, default 4 KiB pages). Most of it is data, not
slack: the collection's text (in both, ~1.4 MB), the chunk rows' titles and spans, and the hits with snippets and citations
(${facts.baselineHits} in the baseline, ${facts.candidateHits} in the candidate, ~1.1 MB each). Other page sizes (512 B … 64 KiB, tried with the sqlite3 shell)
bring neither file below 3 MB, and the candidate is smallest at the default; the files keep every hit field
and every index row rather than shrink further.
`;
}

// ---------------------------------------------------------------------------------------------------------

export interface BuildSummary {
  files: string[];
  baselineRefusals: number;
  candidateRefusals: number;
  baselineChunks: number;
  candidateChunks: number;
  verdict: string;
}

/** Builds baseline.sqlite, candidate.sqlite, golden.yaml and README.md into `outDir`. */
export async function buildFixtures(outDir: string, datasetDir: string = DEFAULT_DATASET_DIR): Promise<BuildSummary> {
  mkdirSync(outDir, { recursive: true });
  const allDocs = readDocuments(datasetDir);
  const docs = allDocs.filter((d) => d.lines.length > 0);
  const skipped = allDocs.filter((d) => d.lines.length === 0).map((d) => d.docno);
  const queries = readQueries(datasetDir);
  const qrels = readQrels(datasetDir);
  const runQueriesList = [...queries.map((q) => ({ id: q.id, text: q.text })), ...ADVERSARIAL_QUERIES];

  const baselineChunks = wholeDocChunks(docs);
  const candidateChunks = passageChunks(docs);
  const baseline = runQueries(BASELINE, baselineChunks, buildIndex(baselineChunks), runQueriesList);
  const candidate = runQueries(CANDIDATE, candidateChunks, buildIndex(candidateChunks), runQueriesList);

  const files = {
    baseline: join(outDir, 'baseline.sqlite'),
    candidate: join(outDir, 'candidate.sqlite'),
    golden: join(outDir, 'golden.yaml'),
    readme: join(outDir, 'README.md'),
  };
  await writeRun(files.baseline, BASELINE, baselineChunks, docs, baseline.results);
  await writeRun(files.candidate, CANDIDATE, candidateChunks, docs, candidate.results);
  const golden = goldenYaml(queries, qrels, candidateChunks, candidate.ranked);
  writeFileAtomically(files.golden, golden.text);

  // What the quick-start command says about the files just written (fixtures/evalverdict.yml, default options).
  const { report } = await runCompare({
    baselinePath: files.baseline,
    candidatePath: files.candidate,
    goldenPath: files.golden,
    configPath: fileURLToPath(new URL('../fixtures/evalverdict.yml', import.meta.url)),
  });

  const grades = new Map<number, number>();
  const gradeAbove1: string[] = [];
  let judgments = 0;
  for (const [topic, judged] of [...qrels].sort(([a], [b]) => a - b)) {
    for (const [docno, g] of [...judged].sort(([a], [b]) => a - b)) {
      grades.set(g, (grades.get(g) ?? 0) + 1);
      if (g > 1) gradeAbove1.push(`${queryIdOf(topic)}: ${docIdOf(docno)} grade ${g}`);
      judgments++;
    }
  }
  writeFileAtomically(
    files.readme,
    readme({
      docs: allDocs.length,
      skipped,
      queries: queries.length,
      adversarial: ADVERSARIAL_QUERIES.length,
      judgments,
      grades,
      gradeAbove1,
      baselineChunks: baselineChunks.length,
      candidateChunks: candidateChunks.length,
      baselineRefused: baseline.refused,
      candidateRefused: candidate.refused,
      relevantDocs: golden.relevantDocs,
      expectedChunks: golden.expectedChunks,
      relevantWithoutPassage: golden.relevantWithoutPassage,
      zeroInBaselineTop: zeroGradeInTop(queries, qrels, baseline.ranked, baselineChunks),
      baselineMB: (statSync(files.baseline).size / 2 ** 20).toFixed(2),
      candidateMB: (statSync(files.candidate).size / 2 ** 20).toFixed(2),
      baselineHits: hitCount(baseline.ranked),
      candidateHits: hitCount(candidate.ranked),
      compare: compareSection(
        report,
        queries.length,
        golden.categories,
        crowdingOf(candidate.ranked, candidateChunks, golden.expected),
      ),
    }),
  );
  return {
    files: Object.values(files),
    baselineRefusals: baseline.refusals,
    candidateRefusals: candidate.refusals,
    baselineChunks: baselineChunks.length,
    candidateChunks: candidateChunks.length,
    verdict: report.verdict,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? join(repoRoot, 'fixtures'));
  const summary = await buildFixtures(outDir);
  for (const f of summary.files) console.log(`${f}\t${statSync(f).size} bytes`);
  console.log(
    `chunks: baseline ${summary.baselineChunks}, candidate ${summary.candidateChunks}; refusals: baseline ${summary.baselineRefusals}, candidate ${summary.candidateRefusals}; compare verdict: ${summary.verdict}`,
  );
}
