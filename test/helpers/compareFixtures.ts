/**
 * In-memory builders for the compare, gate, Markdown and significance suites: RunData and GoldenSet objects
 * made from plain values (no SQLite), compareAndGate, and hostile text. The GFM checks are in markdownChecks.ts:
 * the Markdown parser they load would cost every suite that imports this module (and every mutant run of
 * `npm run mutate`) a second.
 */
import { goldenFingerprint } from '../../src/load/golden.js';
import { compareRuns } from '../../src/compare/compare.js';
import type { CompareOptions, RunSource } from '../../src/compare/compare.js';
import { InputError } from '../../src/errors.js';
import { parseGateConfig } from '../../src/gate/config.js';
import type { GateConfig } from '../../src/gate/config.js';
import { applyGates } from '../../src/gate/gates.js';
import type { GatedRuns } from '../../src/gate/types.js';
import type {
  Answer,
  ChunkRecord,
  GoldenQuery,
  GoldenSet,
  Hit,
  JudgeScores,
  QueryResult,
  RunData,
} from '../../src/types.js';

// ---------------------------------------------------------------------------------------------------------
// Golden sets

/** A golden query with every optional field empty; `answerable` defaults to true. */
export function goldenQuery(id: string, extra: Partial<GoldenQuery> = {}): GoldenQuery {
  return {
    id,
    query: `query ${id}`,
    lang: null,
    expectedDocIds: null,
    expectedChunkIds: null,
    mustContain: [],
    forbidden: [],
    difficulty: null,
    group: null,
    category: null,
    tags: [],
    answerable: true,
    goldSupports: [],
    requiredSupportGroups: [],
    judgments: new Map(),
    expectedLines: null,
    goldClaim: null,
    recencyConflictRule: null,
    pending: false,
    ...extra,
  };
}

/** A golden query whose one relevant expectation is the chunk `${id}-rel`. */
export function chunkQuery(id: string, extra: Partial<GoldenQuery> = {}): GoldenQuery {
  return goldenQuery(id, { expectedChunkIds: [`${id}-rel`], ...extra });
}

export function goldenSet(queries: GoldenQuery[]): GoldenSet {
  return {
    source: 'golden.yaml',
    queries,
    fingerprint: goldenFingerprint(JSON.stringify(queries.map((q) => q.id))),
    warnings: [],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Runs

export function mkHit(
  rank: number,
  chunkId: string | null,
  docId: string | null = null,
  extra: Partial<Hit> = {},
): Hit {
  return {
    rank,
    chunkId,
    docId,
    docPath: null,
    headingPath: [],
    snippet: null,
    score: null,
    citation: null,
    chunkerVersion: null,
    ...extra,
  };
}

export function mkAnswer(text: string, extra: Partial<Answer> = {}): Answer {
  return {
    text,
    citations: [],
    grounded: true,
    refusalReason: null,
    promptTokens: null,
    completionTokens: null,
    latencyMs: null,
    ...extra,
  };
}

export function judgeScores(extra: Partial<JudgeScores>): JudgeScores {
  return {
    groundedness: null,
    correctness: null,
    unsupportedClaims: null,
    spotCheckGroundedness: null,
    spotCheckCorrectness: null,
    ...extra,
  };
}

export function queryResult(queryId: string, hits: Hit[], extra: Partial<QueryResult> = {}): QueryResult {
  return {
    queryId,
    query: `query ${queryId}`,
    mode: 'hybrid',
    hits,
    answer: null,
    elapsedMs: null,
    error: null,
    status: 'ok',
    abstained: null,
    timingsMs: {},
    costUsd: null,
    folderMode: null,
    selectedFolders: [],
    judge: null,
    ...extra,
  };
}

/**
 * A result whose relevant chunk `${queryId}-rel` sits at `rank` among `depth` hits (null: not retrieved);
 * the other hits are filler chunks that match nothing.
 */
export function rankedResult(
  queryId: string,
  rank: number | null,
  extra: Partial<QueryResult> = {},
  depth = 10,
): QueryResult {
  const hits: Hit[] = [];
  for (let r = 1; r <= depth; r++) {
    hits.push(
      r === rank ? mkHit(r, `${queryId}-rel`, `doc-${queryId}`) : mkHit(r, `${queryId}-filler-${r}`, `filler-${r}`),
    );
  }
  return queryResult(queryId, hits, extra);
}

export interface RunOptions {
  /** config_snapshot_json; chunker_version, embedding_model, index_version, judge_model and judge_prompt_version are read from it as the loader does. */
  config?: Record<string, unknown>;
  suite?: string;
  commitHash?: string | null;
  createdAt?: string;
  chunks?: ChunkRecord[];
  documents?: Array<{ docId: string; workspacePath: string }>;
}

export function runData(runId: string, results: QueryResult[], options: RunOptions = {}): RunData {
  const config = options.config ?? {};
  const str = (key: string) => (config[key] === undefined || config[key] === null ? null : String(config[key]));
  return {
    source: `${runId}.sqlite`,
    run: {
      runId,
      suite: options.suite ?? 'suite',
      commitHash: options.commitHash ?? null,
      createdAt: options.createdAt ?? '2026-01-01T00:00:00Z',
      config,
      chunkerVersion: str('chunker_version'),
      embeddingModel: str('embedding_model'),
      indexVersion: str('index_version'),
      judgeModel: str('judge_model'),
      judgePromptVersion: str('judge_prompt_version'),
    },
    results,
    chunks: options.chunks ? new Map(options.chunks.map((c) => [c.chunkId, c])) : null,
    documents: options.documents ? new Map(options.documents.map((d) => [d.docId, d])) : null,
  };
}

export function chunk(
  chunkId: string,
  docId: string,
  spans: Array<[number, number]>,
  chunkerVersion: string,
  path: string | null = null,
): ChunkRecord {
  return {
    chunkId,
    docId,
    text: `text of ${chunkId}`,
    headingPath: [],
    spans: spans.map(([start, end]) => ({ path, start, end })),
    tokenEstimate: 10,
    chunkerVersion,
  };
}

/** A gate config from YAML text, as `--config gates.yml` would give it. */
export function gates(yaml: string): GateConfig {
  return parseGateConfig(yaml, 'gates.yml');
}

export const NO_GATES: GateConfig = parseGateConfig('', 'none');

/** The message of the InputError that parsing `yaml` as the gate config `source` throws. */
export function gateConfigError(yaml: string, source = 'gates.yml'): string {
  try {
    parseGateConfig(yaml, source);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.message;
  }
  throw new Error(`no InputError for ${JSON.stringify(yaml)}`);
}

/** compareRuns, then applyGates, as the pipeline runs them: the gated report and its metric table. */
export function compareAndGate(
  baseline: RunSource,
  candidate: RunSource,
  golden: GoldenSet,
  config: GateConfig,
  options: Partial<CompareOptions> = {},
): GatedRuns {
  return applyGates(compareRuns(baseline, candidate, golden, { ...options, alpha: config.alpha }), config);
}

// ---------------------------------------------------------------------------------------------------------
// Hostile text: every way we know to break a table, open HTML, fake our marker, link or notify

export const HOSTILE: string[] = [
  '| broken | table |',
  '</details><details open><summary>pwned</summary>',
  '<!-- evalverdict:report -->',
  '<script>alert(1)</script><img src=x onerror=alert(1)>',
  '<br><sub>fake</sub>',
  'ping @octocat and @github/security-team',
  '@admin',
  '[click](https://evil.example) ![img](https://evil.example/x.png)',
  'https://evil.example www.evil.example _www.evil.example (www.x.example) WWW.X.EXAMPLE -http://a.example HTTPS://B.EXAMPLE',
  '<https://autolink.example> mail a@b.example mailto:c@d.example',
  '[ref]: https://ref.example',
  '`code` **bold** _em_ ~~strike~~ $x$ [^1]',
  'line one\n\n# heading\n| a | b |\n|---|---|\n| c | d |',
  'back\\slash \\| and trailing \\',
  '&lt;details&gt; &#124; &#64;user &amp;',
  '\u202eevil bidi\u2066 \u0000nul\u001b[31m',
  'a\u2028b\u2029c\r\nd',
];

/** Hostile text number `i` (cycling), tagged so each occurrence is distinct. */
export function hostile(i: number): string {
  return `${HOSTILE[i % HOSTILE.length]} #${i}`;
}
