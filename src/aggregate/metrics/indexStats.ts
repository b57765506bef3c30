/** The index family: properties of the run's documents and chunks tables, not of queries (never broken down). */
import { nearestRankPercentile } from '../answerChecks.js';
import type { RunMeta } from '../../types.js';
import type { MetricDecl, MetricFamily, MetricValue } from './types.js';

const chunkTokens = (run: RunMeta) =>
  Float64Array.from([...(run.chunks?.values() ?? [])].map((c) => c.tokenEstimate)).sort();

/** Documents with no row in `chunks`; null without both tables. */
function documentsWithoutChunks(run: RunMeta): number | null {
  if (!run.documents || !run.chunks) return null;
  const withChunks = new Set([...run.chunks.values()].map((c) => c.docId));
  return [...run.documents.keys()].filter((d) => !withChunks.has(d)).length;
}

const tableSize = (size: number | undefined): MetricValue =>
  size === undefined ? { value: null, n: 0 } : { value: size, n: size };

/** One statistic of the sorted chunk token estimates. */
const chunkTokenStat = (id: string, label: string, pick: (s: Float64Array) => number | null): MetricDecl => ({
  id,
  direction: 'neutral',
  unit: 'tokens',
  definition: `${label} chunks.token_estimate`,
  denominator: 'chunks',
  runLevel: (run) => {
    const s = chunkTokens(run);
    return { value: pick(s), n: s.length };
  },
});

const INDEX_METRICS: MetricDecl[] = [
  {
    id: 'documents',
    direction: 'neutral',
    unit: 'count',
    definition: 'rows in `documents`',
    denominator: 'run databases with a documents table',
    runLevel: (run) => tableSize(run.documents?.size),
  },
  {
    id: 'documents_without_chunks',
    direction: 'lower',
    unit: 'count',
    definition: 'documents with no row in `chunks`',
    denominator: 'run databases with documents and chunks tables',
    runLevel: (run) => {
      const without = documentsWithoutChunks(run);
      return without === null ? { value: null, n: 0 } : { value: without, n: run.documents!.size };
    },
  },
  {
    id: 'documents_without_chunks_rate',
    direction: 'lower',
    unit: 'ratio',
    definition: "documents with no row in `chunks` / documents (the 001 spec's No Chunks Generated Rate)",
    denominator: 'documents, in run databases with documents and chunks tables',
    runLevel: (run) => {
      const without = documentsWithoutChunks(run);
      if (without === null || run.documents!.size === 0) return { value: null, n: 0 };
      return { value: without / run.documents!.size, n: run.documents!.size };
    },
  },
  {
    id: 'chunks_skipped_rate',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "chunks the indexer skipped (e.g. over the context limit) / chunks it attempted, from `config_snapshot_json.index_stats` (the 001 spec's Chunks Skipped Due to Context)",
    denominator: 'chunks attempted, in runs whose config snapshot has index_stats',
    runLevel: (run) => {
      const stats = run.run.chunkIndexing;
      if (!stats || stats.attempted === 0) return { value: null, n: stats?.attempted ?? 0 };
      return { value: stats.skipped / stats.attempted, n: stats.attempted };
    },
  },
  {
    id: 'chunks',
    direction: 'neutral',
    unit: 'count',
    definition: 'rows in `chunks`',
    denominator: 'run databases with a chunks table',
    runLevel: (run) => tableSize(run.chunks?.size),
  },
  chunkTokenStat('chunk_tokens_min', 'smallest', (s) => (s.length ? s[0] : null)),
  chunkTokenStat('chunk_tokens_mean', 'mean', (s) => (s.length ? s.reduce((a, b) => a + b, 0) / s.length : null)),
  chunkTokenStat('chunk_tokens_p95', '95th percentile (nearest rank) of', (s) => nearestRankPercentile(s, 95)),
  chunkTokenStat('chunk_tokens_max', 'largest', (s) => (s.length ? s[s.length - 1] : null)),
];

export const indexFamily: MetricFamily = { family: 'index', declare: () => INDEX_METRICS };
