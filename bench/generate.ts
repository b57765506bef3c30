/**
 * Deterministic generator of benchmark inputs: a run database of N queries x H hits, its golden set, a
 * candidate variant of the run (some ranks shuffled, one config key changed) for `compare`, and the same
 * judgments and rankings as TREC qrels + run files (for trec_eval), optionally imported into a run database of
 * their own with `evalverdict import trec` (the same code path a user takes).
 *
 *   node --import tsx bench/generate.ts --sizes 1kx10,20kx100 [--candidate] [--trec-db] [--force]
 *
 * Everything is derived from a seeded PRNG per query (no clock, no Math.random), so a size always gives the
 * same bytes and the candidate can be generated later without keeping the baseline in memory. Outputs are
 * cached in bench/out/q<N>-h<H>/ and reused while meta.json says they came from this GENERATOR_VERSION.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunDatabase, insertRun, saveDatabase } from '../src/write/writeRunDatabase.js';

/** Bump when the generated content changes: cached outputs of another version are regenerated. */
export const GENERATOR_VERSION = 1;
export const BASE_SEED = 0x5eed2026;
export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const OUT_ROOT = join(BENCH_DIR, 'out');

export interface SizeSpec {
  queries: number;
  hits: number;
}

/** `20kx100`, `100000x10`, `1k*10` -> {queries, hits}. */
export function parseSize(text: string): SizeSpec {
  const m = text
    .trim()
    .toLowerCase()
    .match(/^(\d+(?:\.\d+)?)(k|m)?\s*[x*]\s*(\d+)$/);
  if (!m) throw new Error(`size ${JSON.stringify(text)}: expected QUERIESxHITS such as 10kx10 or 20000x100`);
  const queries = Math.round(Number(m[1]) * (m[2] === 'k' ? 1_000 : m[2] === 'm' ? 1_000_000 : 1));
  const hits = Number(m[3]);
  if (!Number.isInteger(queries) || queries < 1 || !Number.isInteger(hits) || hits < 1)
    throw new Error(`size ${JSON.stringify(text)}: queries and hits must be >= 1`);
  return { queries, hits };
}

export function sizeLabel(s: SizeSpec): string {
  const q = s.queries % 1000 === 0 ? `${s.queries / 1000}k` : String(s.queries);
  return `${q}x${s.hits}`;
}

export function sizeDir(s: SizeSpec, root = OUT_ROOT): string {
  return join(root, `q${s.queries}-h${s.hits}`);
}

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit integer mix (murmur3 finaliser) of several integers: per-query and per-document seeds. */
function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

type Rng = () => number;
const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)];
const chance = (rng: Rng, p: number) => rng() < p;

// ---------------------------------------------------------------------------------------------------------
// A pretend corpus: documents in areas, each with a few chunks. Everything about a document is a function of
// its number, so the same document looks the same in every query and in both runs.

const AREAS = [
  'Billing',
  'Authentication',
  'Deployment',
  'Networking',
  'Storage',
  'Monitoring',
  'Search',
  'Permissions',
  'Webhooks',
  'Exports',
  'Scheduling',
  'Caching',
  'Migrations',
  'Backups',
  'Notifications',
  'Localization',
  'Accessibility',
  'Payments',
  'Reporting',
  'Onboarding',
  'Integrations',
  'Security',
  'Rate limits',
  'Audit log',
] as const;
const AREA_SLUGS = AREAS.map((a) => a.toLowerCase().replace(/\s+/g, '-'));
const SECTIONS = [
  'Overview',
  'Getting started',
  'Configuration',
  'Limits',
  'Troubleshooting',
  'Examples',
  'Reference',
  'FAQ',
  'Migration guide',
  'Best practices',
  'Known issues',
  'Changelog',
] as const;
const WORDS = (
  'the a request token invoice retry queue worker cluster region replica index shard cache key value policy role ' +
  'user account tenant project webhook event payload signature timeout limit quota window backoff schedule cron job ' +
  'export import file bucket object version snapshot restore rollback release build pipeline deploy container image ' +
  'secret certificate rotation expiry session cookie header endpoint route handler latency throughput error status ' +
  'metric alert threshold dashboard log trace span sample filter query field schema migration column table row ' +
  'locale translation currency tax refund charge subscription plan trial seat invite permission scope grant audit ' +
  'is are can must should will returns accepts rejects stores expires retries sends receives creates deletes updates ' +
  'after before when unless until within per each every only also never always by default configured enabled'
).split(' ');
const VERBS = [
  'configure',
  'rotate',
  'debug',
  'limit',
  'export',
  'migrate',
  'monitor',
  'enable',
  'disable',
  'retry',
  'restore',
  'schedule',
] as const;
const NOUNS = [
  'webhook signatures',
  'API tokens',
  'invoices',
  'replicas',
  'the cache',
  'backups',
  'alerts',
  'roles',
  'sessions',
  'exports',
  'jobs',
  'quotas',
] as const;
const KEYWORDS = [
  'idempotency key',
  'exponential backoff',
  'read replica',
  'signing secret',
  'retention period',
  'grace period',
  'dry run',
  'rate limit',
  'cursor pagination',
  'soft delete',
] as const;

interface Doc {
  id: string;
  area: number;
  path: string;
  chunks: number;
}

function docOf(n: number): Doc {
  const h = mix(n, 0xd0c);
  const area = n % AREAS.length;
  return {
    id: `d${String(n).padStart(7, '0')}`,
    area,
    path: `docs/${AREA_SLUGS[area]}/${WORDS[h % WORDS.length]}-${n}.md`,
    chunks: 1 + ((h >>> 8) % 12),
  };
}

function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(rng, WORDS));
  return out.join(' ');
}

/** About 80 characters of text, cut at a word boundary. */
function snippet(rng: Rng): string {
  let text = words(rng, 18);
  if (text.length > 80) text = text.slice(0, text.lastIndexOf(' ', 80));
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

// ---------------------------------------------------------------------------------------------------------
// One query: golden entry, baseline result, candidate result

interface GoldenEntry {
  id: string;
  query: string;
  category: string;
  difficulty: string;
  tags: string[];
  answerable: boolean;
  judgments: Array<[string, number]>;
  expectedDocIds: string[];
  expectedChunkIds: string[] | null;
  mustContain: string[] | null;
  forbidden: string[] | null;
  goldClaim: string | null;
  goldSupports: Array<{ rel_path: string; heading_path: string[] }> | null;
  requiredSupportGroups: number[][] | null;
  pending: boolean;
}

interface HitJson {
  rank: number;
  chunk_id: string;
  doc_id: string;
  doc_path: string;
  heading_path: string[];
  snippet: string;
  score: number;
  citation: { kind: 'line'; path: string; start: number; end: number };
  chunker_version: string;
}

interface ResultJson {
  query_id: string;
  query: string;
  mode: string;
  hits_top_k: HitJson[];
  answer: null | {
    answer: string;
    citations: Array<{
      marker: string;
      citation: { kind: 'line'; path: string; start: number; end: number };
      chunk_id: string;
    }>;
    grounded: boolean;
    refusal_reason: string | null;
    usage: { prompt_tokens: number; completion_tokens: number; latency_ms: number };
  };
  elapsed_ms: number;
  timings_ms: Record<string, number>;
  error: string | null;
  status: 'ok' | 'error';
  cost_usd?: number;
  scope?: { folder_mode: 'on' | 'off'; selected_folders: string[] };
  judge?: {
    groundedness: number;
    correctness: number;
    unsupported_claims: string[];
    spot_check?: { groundedness: number; correctness: number };
  };
}

export interface QueryData {
  golden: GoldenEntry;
  result: ResultJson;
}

const CATEGORIES = ['what', 'how', 'why', 'yes-no', 'compare'] as const;
const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
const TAGS = ['short-query', 'long-query', 'multi-hop', 'numeric', 'code', 'recent'] as const;

export function queryId(i: number): string {
  return `q${String(i + 1).padStart(6, '0')}`;
}

function scoresFor(rng: Rng, n: number): number[] {
  const out: number[] = new Array(n);
  let s = 24 + rng() * 6;
  for (let i = 0; i < n; i++) {
    out[i] = Math.round(s * 10_000) / 10_000;
    s -= 0.01 + rng() * 0.35;
  }
  return out;
}

function makeHit(rng: Rng, doc: Doc, rank: number, score: number, chunkNo: number): HitJson {
  const start = (chunkNo - 1) * 40 + 1 + int(rng, 10);
  return {
    rank,
    chunk_id: `${doc.id}#c${String(chunkNo).padStart(2, '0')}`,
    doc_id: doc.id,
    doc_path: doc.path,
    heading_path: [AREAS[doc.area], SECTIONS[(chunkNo - 1) % SECTIONS.length]],
    snippet: snippet(rng),
    score,
    citation: { kind: 'line', path: doc.path, start, end: start + 8 + int(rng, 30) },
    chunker_version: 'v2',
  };
}

/** The baseline run's result and the golden entry of query `i`. */
export function makeQuery(i: number, spec: SizeSpec, seed = BASE_SEED): QueryData {
  const rng = prng(mix(seed, spec.queries, spec.hits, i));
  const id = queryId(i);
  const numDocs = Math.max(5_000, spec.queries * 4);
  const perArea = Math.floor(numDocs / AREAS.length);
  const area = int(rng, AREAS.length);
  const docInArea = () => docOf(area + AREAS.length * int(rng, perArea));
  const anyDoc = () => docOf(int(rng, perArea * AREAS.length));

  const query = `how do I ${pick(rng, VERBS)} ${pick(rng, NOUNS)} in ${AREAS[area].toLowerCase()} when ${words(rng, 3 + int(rng, 6))}?`;
  const answerable = !chance(rng, 0.05);
  const pending = chance(rng, 0.01);

  // Judgments: 1..6 relevant documents of the query's area (grades 1..3) and 0..3 judged not relevant.
  const used = new Set<string>();
  const relevant: Array<{ doc: Doc; grade: number; chunk: number }> = [];
  const judgedOut: Doc[] = [];
  if (answerable) {
    const nRel = 1 + Math.floor(rng() * rng() * 6);
    while (relevant.length < nRel) {
      const d = docInArea();
      if (used.has(d.id)) continue;
      used.add(d.id);
      relevant.push({ doc: d, grade: 1 + Math.floor(rng() * rng() * 3), chunk: 1 + int(rng, d.chunks) });
    }
    const nOut = int(rng, 4);
    while (judgedOut.length < nOut) {
      const d = docInArea();
      if (used.has(d.id)) continue;
      used.add(d.id);
      judgedOut.push(d);
    }
  }
  const withChunkIds = answerable && chance(rng, 0.4);

  // Ranking: each relevant document is found with p = 0.75 near the top (exponential position); judged-out
  // documents show up half the time; the rest are other documents, mostly of the same area. Distinct documents.
  const error = chance(rng, 0.003);
  const n = error ? 0 : spec.hits;
  const slots: Array<{ doc: Doc; chunk: number } | null> = new Array(n).fill(null);
  const place = (doc: Doc, chunk: number, at: number) => {
    for (let p = at; p < n; p++)
      if (slots[p] === null) {
        slots[p] = { doc, chunk };
        return;
      }
  };
  if (n > 0) {
    for (const r of relevant) {
      if (!chance(rng, 0.75)) continue;
      const at = Math.floor(-Math.log(1 - rng()) * 3 * r.grade ** -0.5);
      if (at < n) place(r.doc, withChunkIds && chance(rng, 0.7) ? r.chunk : 1 + int(rng, r.doc.chunks), at);
    }
    for (const d of judgedOut) if (chance(rng, 0.5)) place(d, 1 + int(rng, d.chunks), int(rng, n));
    const inHits = new Set(slots.filter((s) => s !== null).map((s) => s!.doc.id));
    for (let p = 0; p < n; p++) {
      if (slots[p] !== null) continue;
      let d: Doc;
      do d = chance(rng, 0.7) ? docInArea() : anyDoc();
      while (inHits.has(d.id) || used.has(d.id));
      inHits.add(d.id);
      slots[p] = { doc: d, chunk: 1 + int(rng, d.chunks) };
    }
  }
  const scores = scoresFor(rng, n);
  const hits = slots.map((s, p) => makeHit(rng, s!.doc, p + 1, scores[p], s!.chunk));

  const keyword = pick(rng, KEYWORDS);
  const mustContain = answerable && chance(rng, 0.3) ? [keyword] : null;
  const forbidden = chance(rng, 0.05) ? ['deprecated endpoint'] : null;
  const goldClaim =
    answerable && chance(rng, 0.1)
      ? `${keyword} ${pick(rng, ['is required', 'defaults to 30 days', 'is optional', 'applies per tenant'])}`
      : null;
  let goldSupports: GoldenEntry['goldSupports'] = null;
  let requiredSupportGroups: number[][] | null = null;
  if (answerable && chance(rng, 0.2)) {
    goldSupports = relevant.slice(0, 2).map((r) => ({ rel_path: r.doc.path, heading_path: [AREAS[r.doc.area]] }));
    if (goldSupports.length === 2 && chance(rng, 0.5)) requiredSupportGroups = [[0], [1]];
  }

  // Answer on 60% of queries: cites one or two of the top three hits; 10% refusals (more on unanswerable ones).
  let answer: ResultJson['answer'] = null;
  let judge: ResultJson['judge'];
  let cost: number | undefined;
  if (n > 0 && chance(rng, 0.6)) {
    const refuse = answerable ? chance(rng, 0.1) : chance(rng, 0.7);
    const latency = 400 + int(rng, 2500);
    const usage = {
      prompt_tokens: 600 + int(rng, 1800),
      completion_tokens: refuse ? 12 + int(rng, 20) : 40 + int(rng, 300),
      latency_ms: latency,
    };
    if (refuse) {
      answer = {
        answer: 'I could not find this in the documentation.',
        citations: [],
        grounded: false,
        refusal_reason: 'low_confidence',
        usage,
      };
    } else {
      const cited = hits
        .slice(0, Math.min(3, n))
        .filter((_, k) => k === 0 || chance(rng, 0.35))
        .slice(0, 2);
      const parts = [`To ${query.slice(9, 40).trim()}, ${words(rng, 8)}`];
      if (mustContain && chance(rng, 0.85)) parts.push(`use the ${keyword}`);
      if (goldClaim && chance(rng, 0.6)) parts.push(goldClaim);
      if (forbidden && chance(rng, 0.1)) parts.push('call the deprecated endpoint');
      answer = {
        answer: `${parts.join('; ')} ${cited.map((_, k) => `[${k + 1}]`).join(' ')}.`,
        citations: cited.map((h, k) => ({ marker: `[${k + 1}]`, citation: { ...h.citation }, chunk_id: h.chunk_id })),
        grounded: true,
        refusal_reason: null,
        usage,
      };
      if (chance(rng, 0.3)) {
        judge = {
          groundedness: int(rng, 6),
          correctness: int(rng, 6),
          unsupported_claims: chance(rng, 0.2) ? ['an unsupported claim'] : [],
        };
        if (chance(rng, 0.15)) judge.spot_check = { groundedness: int(rng, 6), correctness: int(rng, 6) };
      }
    }
    cost = Math.round((usage.prompt_tokens * 0.15 + usage.completion_tokens * 0.6) / 1000) / 1000;
  }

  const embed = 5 + int(rng, 30);
  const retrieve = 10 + int(rng, 120);
  const rerank = 20 + int(rng, 200);
  const timings: Record<string, number> = { embed, retrieve, rerank };
  if (answer) timings.generate = answer.usage.latency_ms;
  const result: ResultJson = {
    query_id: id,
    query,
    mode: 'hybrid',
    hits_top_k: hits,
    answer,
    elapsed_ms: error ? 30_000 : embed + retrieve + rerank + (answer?.usage.latency_ms ?? 0) + int(rng, 20),
    timings_ms: error ? {} : timings,
    error: error ? 'upstream timeout after 30000 ms' : null,
    status: error ? 'error' : 'ok',
  };
  if (cost !== undefined) result.cost_usd = cost;
  if (chance(rng, 0.2))
    result.scope = {
      folder_mode: 'on',
      selected_folders: [`docs/${AREA_SLUGS[chance(rng, 0.85) ? area : int(rng, AREAS.length)]}`],
    };
  if (judge) result.judge = judge;

  const tags = [pick(rng, TAGS)];
  if (chance(rng, 0.3)) tags.push(pick(rng, TAGS));
  return {
    golden: {
      id,
      query,
      category: pick(rng, CATEGORIES),
      difficulty: pick(rng, DIFFICULTIES),
      tags: [...new Set(tags)],
      answerable,
      judgments: [
        ...relevant.map((r): [string, number] => [r.doc.id, r.grade]),
        ...judgedOut.map((d): [string, number] => [d.id, 0]),
      ],
      expectedDocIds: relevant.map((r) => r.doc.id),
      expectedChunkIds: withChunkIds ? relevant.map((r) => `${r.doc.id}#c${String(r.chunk).padStart(2, '0')}`) : null,
      mustContain,
      forbidden,
      goldClaim,
      goldSupports,
      requiredSupportGroups,
      pending,
    },
    result,
  };
}

/**
 * The candidate's result for query `i`: the baseline's hits with some positions swapped (35% of queries swap two of
 * the top 10, 10% move their first relevant-looking hit to rank 1, 8% swap two anywhere), ranks and scores
 * rewritten so ranks stay 1..H and scores descending; 3% flip the answer's grounded flag; latencies move +-20%.
 */
export function makeCandidate(base: QueryData, i: number, spec: SizeSpec, seed = BASE_SEED): ResultJson {
  const rng = prng(mix(seed ^ 0xca4d, spec.queries, spec.hits, i));
  const r = base.result;
  const hits = r.hits_top_k.slice();
  const n = hits.length;
  const swap = (a: number, b: number) => {
    const t = hits[a];
    hits[a] = hits[b];
    hits[b] = t;
  };
  if (n > 1) {
    if (chance(rng, 0.35)) swap(int(rng, Math.min(n, 10)), int(rng, Math.min(n, 10)));
    if (chance(rng, 0.1)) {
      const judged = new Set(base.golden.expectedDocIds);
      const k = hits.findIndex((h) => judged.has(h.doc_id));
      if (k > 0) swap(0, k);
    }
    if (chance(rng, 0.08)) swap(int(rng, n), int(rng, n));
  }
  const scores = scoresFor(rng, n);
  const out: ResultJson = {
    ...r,
    hits_top_k: hits.map((h, p) => ({ ...h, rank: p + 1, score: scores[p] })),
    elapsed_ms: Math.round(r.elapsed_ms * (0.8 + rng() * 0.4)),
    timings_ms: Object.fromEntries(
      Object.entries(r.timings_ms).map(([k, v]) => [k, Math.round(v * (0.8 + rng() * 0.4))]),
    ),
  };
  if (r.answer && chance(rng, 0.03)) {
    out.answer = {
      ...r.answer,
      grounded: !r.answer.grounded,
      refusal_reason: r.answer.grounded ? 'low_confidence' : null,
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Writers

/** Buffered, synchronous text output to `file` through a temporary sibling (renamed on close). */
class TextOut {
  private fd: number;
  private buf: string[] = [];
  private size = 0;
  private readonly tmp: string;

  constructor(private readonly file: string) {
    this.tmp = `${file}.tmp`;
    this.fd = openSync(this.tmp, 'w');
  }

  write(text: string): void {
    this.buf.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buf.length > 0) writeSync(this.fd, this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.file);
  }
}

const yamlString = (s: string) => JSON.stringify(s);
const yamlList = (xs: string[]) => `[${xs.map(yamlString).join(', ')}]`;

function goldenYaml(g: GoldenEntry): string {
  const lines = [
    `- id: ${g.id}`,
    `  query: ${yamlString(g.query)}`,
    `  category: ${g.category}`,
    `  difficulty: ${g.difficulty}`,
    `  tags: ${yamlList(g.tags)}`,
  ];
  if (!g.answerable) lines.push('  answerable: false', '  expected_doc_ids: []');
  else {
    lines.push(`  judgments: {${g.judgments.map(([d, grade]) => `${d}: ${grade}`).join(', ')}}`);
    lines.push(`  expected_doc_ids: ${yamlList(g.expectedDocIds)}`);
  }
  if (g.expectedChunkIds) lines.push(`  expected_chunk_ids: ${yamlList(g.expectedChunkIds)}`);
  if (g.mustContain) lines.push(`  must_contain: ${yamlList(g.mustContain)}`);
  if (g.forbidden) lines.push(`  forbidden: ${yamlList(g.forbidden)}`);
  if (g.goldClaim) lines.push(`  gold_claim: ${yamlString(g.goldClaim)}`);
  if (g.goldSupports) {
    lines.push('  gold_supports:');
    for (const s of g.goldSupports)
      lines.push(`    - {rel_path: ${yamlString(s.rel_path)}, heading_path: ${yamlList(s.heading_path)}}`);
  }
  if (g.requiredSupportGroups)
    lines.push(`  required_support_groups: [${g.requiredSupportGroups.map((x) => `[${x.join(', ')}]`).join(', ')}]`);
  if (g.pending) lines.push('  pending: true');
  return `${lines.join('\n')}\n`;
}

/** The YAML item's fields, in its order, as one JSON object a line. */
function goldenJsonLine(g: GoldenEntry): string {
  const q: Record<string, unknown> = {
    id: g.id,
    query: g.query,
    category: g.category,
    difficulty: g.difficulty,
    tags: g.tags,
  };
  if (!g.answerable) Object.assign(q, { answerable: false, expected_doc_ids: [] });
  else Object.assign(q, { judgments: Object.fromEntries(g.judgments), expected_doc_ids: g.expectedDocIds });
  if (g.expectedChunkIds) q.expected_chunk_ids = g.expectedChunkIds;
  if (g.mustContain) q.must_contain = g.mustContain;
  if (g.forbidden) q.forbidden = g.forbidden;
  if (g.goldClaim) q.gold_claim = g.goldClaim;
  if (g.goldSupports)
    q.gold_supports = g.goldSupports.map((s) => ({ rel_path: s.rel_path, heading_path: s.heading_path }));
  if (g.requiredSupportGroups) q.required_support_groups = g.requiredSupportGroups;
  if (g.pending) q.pending = true;
  return `${JSON.stringify(q)}\n`;
}

const CONFIG = {
  chunker_version: 'v2',
  embedding_model: 'bge-small-en-v1.5',
  index_version: 'bench-index-2026-11-01',
  judge_model: 'judge-large-2026-10',
  judge_prompt_version: 'judge-v3',
  reranker: 'cross-encoder-mini',
  top_k: 0,
};

export interface Artifacts {
  dir: string;
  baseline: string;
  /** The golden set as JSON Lines (what the bench measures), and the same queries as YAML (older bundles, YAML costs). */
  golden: string;
  goldenYaml: string;
  qrels: string;
  trecRun: string;
  candidate: string;
  trecDb: string;
  trecGolden: string;
  trecGoldenYaml: string;
}

export function artifactsOf(spec: SizeSpec, root = OUT_ROOT): Artifacts {
  const dir = sizeDir(spec, root);
  return {
    dir,
    baseline: join(dir, 'baseline.sqlite'),
    golden: join(dir, 'golden.jsonl'),
    goldenYaml: join(dir, 'golden.yaml'),
    qrels: join(dir, 'qrels.txt'),
    trecRun: join(dir, 'run.trec'),
    candidate: join(dir, 'candidate.sqlite'),
    trecDb: join(dir, 'trec.sqlite'),
    trecGolden: join(dir, 'trec-golden.jsonl'),
    trecGoldenYaml: join(dir, 'trec-golden.yaml'),
  };
}

interface Meta {
  version: number;
  queries: number;
  hits: number;
  seed: number;
  totalHits: number;
  /** Seconds each artifact took to generate. */
  seconds: Record<string, number>;
}

function readMeta(dir: string): Meta | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Meta;
  } catch {
    return null;
  }
}

function writeMeta(dir: string, meta: Meta): void {
  const tmp = join(dir, 'meta.json.tmp');
  const out = openSync(tmp, 'w');
  writeSync(out, `${JSON.stringify(meta, null, 2)}\n`);
  closeSync(out);
  renameSync(tmp, join(dir, 'meta.json'));
}

async function writeBaseline(spec: SizeSpec, a: Artifacts, seed: number): Promise<number> {
  const golden = new TextOut(a.goldenYaml);
  const goldenJsonl = new TextOut(a.golden);
  const qrels = new TextOut(a.qrels);
  const run = new TextOut(a.trecRun);
  golden.write(
    `# Benchmark golden set: ${spec.queries} queries, generated by bench/generate.ts (version ${GENERATOR_VERSION}, seed ${seed}); do not edit.\n`,
  );
  let totalHits = 0;
  function* rows() {
    for (let i = 0; i < spec.queries; i++) {
      const q = makeQuery(i, spec, seed);
      golden.write(goldenYaml(q.golden));
      goldenJsonl.write(goldenJsonLine(q.golden));
      for (const [doc, grade] of q.golden.judgments) qrels.write(`${q.golden.id} 0 ${doc} ${grade}\n`);
      for (const h of q.result.hits_top_k)
        run.write(`${q.golden.id} Q0 ${h.doc_id} ${h.rank} ${h.score.toFixed(4)} bench-baseline\n`);
      totalHits += q.result.hits_top_k.length;
      yield { queryId: q.golden.id, result: JSON.stringify(q.result) };
    }
  }
  const db = await createRunDatabase();
  try {
    insertRun(
      db,
      {
        runId: 'bench-baseline',
        suite: 'bench',
        config: { ...CONFIG, top_k: spec.hits },
        commitHash: '1'.repeat(40),
        createdAt: '2026-11-01T12:00:00Z',
      },
      rows(),
    );
    saveDatabase(db, a.baseline);
  } finally {
    db.close();
  }
  golden.close();
  goldenJsonl.close();
  qrels.close();
  run.close();
  return totalHits;
}

async function writeCandidate(spec: SizeSpec, a: Artifacts, seed: number): Promise<void> {
  function* rows() {
    for (let i = 0; i < spec.queries; i++) {
      const base = makeQuery(i, spec, seed);
      yield { queryId: base.golden.id, result: JSON.stringify(makeCandidate(base, i, spec, seed)) };
    }
  }
  const db = await createRunDatabase();
  try {
    insertRun(
      db,
      {
        runId: 'bench-candidate',
        suite: 'bench',
        config: {
          ...CONFIG,
          top_k: spec.hits,
          embedding_model: 'bge-base-en-v1.5',
          index_version: 'bench-index-2026-11-02',
        },
        commitHash: '2'.repeat(40),
        createdAt: '2026-11-02T12:00:00Z',
      },
      rows(),
    );
    saveDatabase(db, a.candidate);
  } finally {
    db.close();
  }
}

/** The TREC files imported by evalverdict's own `import trec` (src/cli/main.ts), into trec.sqlite + trec-golden.yaml. */
async function writeTrecDb(a: Artifacts): Promise<void> {
  const { main } = await import('../src/cli/main.js');
  const err: string[] = [];
  const code = await main(
    [
      'import',
      'trec',
      '--qrels',
      a.qrels,
      '--run',
      a.trecRun,
      '--out',
      a.trecDb,
      '--golden-out',
      a.trecGolden,
      '--created-at',
      '2026-11-01T12:00:00Z',
    ],
    {
      stdout: () => {},
      stderr: (t) => {
        err.push(t);
      },
    },
  );
  if (code !== 0) throw new Error(`evalverdict import trec failed (${code}): ${err.join('')}`);
  const { formatGolden, readGoldenDocument } = await import('../src/load/golden.js');
  const out = new TextOut(a.trecGoldenYaml);
  out.write(formatGolden(readGoldenDocument(a.trecGolden), 'yaml'));
  out.close();
}

export interface EnsureOptions {
  candidate?: boolean;
  trecDb?: boolean;
  force?: boolean;
  seed?: number;
  root?: string;
  log?: (line: string) => void;
}

/** Generates whatever of the size's artifacts is missing (or everything, with `force`); returns their paths. */
export async function ensureGenerated(
  spec: SizeSpec,
  options: EnsureOptions = {},
): Promise<Artifacts & { meta: Meta }> {
  const seed = options.seed ?? BASE_SEED;
  const log = options.log ?? (() => {});
  const a = artifactsOf(spec, options.root);
  mkdirSync(a.dir, { recursive: true });
  let meta = readMeta(a.dir);
  const fresh =
    !options.force &&
    meta !== null &&
    meta.version === GENERATOR_VERSION &&
    meta.seed === seed &&
    meta.queries === spec.queries &&
    meta.hits === spec.hits;
  if (!fresh)
    meta = { version: GENERATOR_VERSION, queries: spec.queries, hits: spec.hits, seed, totalHits: 0, seconds: {} };
  const m = meta!;
  const timed = async (name: string, fn: () => Promise<void>) => {
    const t0 = performance.now();
    log(`generating ${sizeLabel(spec)} ${name} ...`);
    await fn();
    m.seconds[name] = Math.round((performance.now() - t0) / 10) / 100;
    log(`generated ${sizeLabel(spec)} ${name} in ${m.seconds[name]} s`);
    writeMeta(a.dir, m);
  };
  const have = (...files: string[]) => files.every((f) => existsSync(f));
  if (!fresh || !m.seconds.baseline || !have(a.baseline, a.golden, a.goldenYaml, a.qrels, a.trecRun)) {
    m.seconds = {};
    await timed('baseline', async () => {
      m.totalHits = await writeBaseline(spec, a, seed);
    });
  }
  if (options.candidate && (!m.seconds.candidate || !have(a.candidate)))
    await timed('candidate', () => writeCandidate(spec, a, seed));
  if (options.trecDb && (!m.seconds.trec_db || !have(a.trecDb, a.trecGolden, a.trecGoldenYaml)))
    await timed('trec_db', () => writeTrecDb(a));
  return { ...a, meta: m };
}

export function fileMb(file: string): number {
  return existsSync(file) ? statSync(file).size / 1e6 : 0;
}

// ---------------------------------------------------------------------------------------------------------
// Command line

async function cli(argv: string[]): Promise<void> {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '1kx10' },
      candidate: { type: 'boolean' },
      'trec-db': { type: 'boolean' },
      force: { type: 'boolean' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node --import tsx bench/generate.ts [--sizes 1kx10,10kx100,...] [--candidate] [--trec-db] [--force] [--seed N]\n',
    );
    return;
  }
  for (const text of values.sizes!.split(',')) {
    const spec = parseSize(text);
    const a = await ensureGenerated(spec, {
      candidate: values.candidate,
      trecDb: values['trec-db'],
      force: values.force,
      seed: values.seed !== undefined ? Number(values.seed) : undefined,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(
      `${sizeLabel(spec)}: ${a.meta.totalHits} hits, ${a.dir} (baseline ${fileMb(a.baseline).toFixed(1)} MB, golden ${fileMb(a.golden).toFixed(1)} MB)\n`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
