/**
 * `compare --unjudged FILE`: the compared runs read again (only when asked) for their unjudged top-k hits, matched
 * as the comparison matched them, and the TREC qrels template of those pairs (src/compare/unjudgedPairs.ts).
 */
import type { GoldenSet, RunStream } from '../types.js';
import { InputError } from '../errors.js';
import { oneLine } from '../inputText.js';
import type { Comparison } from '../compare/types.js';
import { unjudgedHitsOf, unjudgedTemplate } from '../compare/unjudgedPairs.js';
import { mergedChunks } from '../compare/compare.js';
import type { UnjudgedHits, UnjudgedMatching, UnjudgedTemplate } from '../compare/unjudgedPairs.js';
import { openRunStream } from '../load/runDatabase.js';
import type { CompareInputs } from './runCompare.js';

export interface UnjudgedOutput extends UnjudgedTemplate {
  /** The cutoff: the largest k in use (the report's `options.ks`). */
  k: number;
  /** Unjudged hits with neither chunk_id nor doc_id (no qrels line can name them). */
  unnamed: number;
}

/**
 * The template of both runs' unjudged pairs in their top k (the largest k in use), from the runs the report
 * compared. A golden set without graded judgments (`judgments:`) judges no hit and leaves none unjudged:
 * refused, so that an empty file is never mistaken for "everything judged".
 */
export async function unjudgedTemplateFor(
  inputs: Pick<CompareInputs, 'baselinePath' | 'candidatePath' | 'goldenPath'>,
  report: Pick<Comparison, 'baseline' | 'candidate' | 'options' | 'chunker_version_match'>,
  golden: GoldenSet,
): Promise<UnjudgedOutput> {
  if (!golden.queries.some((q) => q.judgments.size > 0))
    throw new InputError(
      `--unjudged: ${oneLine(inputs.goldenPath)} has no graded judgments (\`judgments:\`), so no hit is judged or unjudged (judged@k is not computed); leave out --unjudged`,
    );
  const k = Math.max(...report.options.ks);
  const runs: Array<[string, string]> = [];
  if (inputs.baselinePath !== null && report.baseline) runs.push([inputs.baselinePath, report.baseline.run_id]);
  runs.push([inputs.candidatePath, report.candidate.run_id]);
  const sides =
    report.chunker_version_match === 'exact' ? await eachExact(runs, golden, k) : await bothFallback(runs, golden, k);
  const template = unjudgedTemplate(sides.map((s) => s.hits));
  return { ...template, k, unnamed: sides.reduce((n, s) => n + s.unnamed, 0) };
}

type Side = { hits: UnjudgedHits; unnamed: number };

/** Exact matching: one run in memory at a time, each against its own chunk table. */
async function eachExact(runs: Array<[string, string]>, golden: GoldenSet, k: number): Promise<Side[]> {
  const sides: Side[] = [];
  for (const [path, runId] of runs) {
    const run = await openRunStream(path, runId);
    try {
      sides.push(unjudgedHitsOf(run, golden, k, { chunkMatch: 'exact', referenceChunks: null }));
    } finally {
      run.release?.();
    }
  }
  return sides;
}

/** The chunker versions differ: both runs' chunk tables, as compareRuns' fallback scoring reads them. */
async function bothFallback(runs: Array<[string, string]>, golden: GoldenSet, k: number): Promise<Side[]> {
  const streams: RunStream[] = [];
  try {
    for (const [path, runId] of runs) streams.push(await openRunStream(path, runId));
    const merged = streams.length === 2 ? mergedChunks(streams[0], streams[1]) : new Map(streams[0].chunks ?? []);
    const matching: UnjudgedMatching = { chunkMatch: 'fallback_doc_span', referenceChunks: merged };
    return streams.map((run) => unjudgedHitsOf(run, golden, k, matching));
  } finally {
    for (const run of streams) run.release?.();
  }
}
