/**
 * `evalverdict import trec`: a TREC qrels file and a run file into a new run database (the run named by the run's
 * tag) and a golden set. Unlike the other formats, an --out that exists is replaced, and only with --force.
 */
import type { Hit } from '../../types.js';
import { runFromTrec } from './trecFiles.js';
import { readText } from '../importFiles.js';
import { nowRfc3339 } from '../../time.js';
import { requiredFlag } from '../importFormat.js';
import type { FlagValues, ImportFormat, ImportOutputs, Imported } from '../importFormat.js';

const USAGE = `usage: evalverdict import trec --qrels QRELS --run RUN --out OUT.sqlite [--golden-out golden.jsonl] [--created-at RFC3339] [--force]
  The golden set is written as JSON Lines when its name ends in .jsonl or .ndjson, else as YAML.
  Refuses an --out or --golden-out that already exists unless --force is given (then replaces it).`;

/** A hit as the run database stores it. */
const storedHit = (h: Hit) => ({
  rank: h.rank,
  chunk_id: h.chunkId,
  doc_id: h.docId,
  doc_path: null,
  heading_path: [],
  snippet: null,
  score: h.score,
});

function read(values: FlagValues, outputs: ImportOutputs): Imported {
  const qrels = requiredFlag(values, 'qrels');
  const runFile = requiredFlag(values, 'run');
  const createdAt = outputs.createdAt ?? nowRfc3339();
  const { run, goldenItems } = runFromTrec(
    readText(qrels, 'the qrels file'),
    qrels,
    readText(runFile, 'the run file'),
    runFile,
    createdAt,
  );
  const results = run.results.map((r) => ({
    queryId: r.queryId,
    result: {
      query_id: r.queryId,
      query: r.query,
      mode: 'trec',
      answer: null,
      elapsed_ms: null,
      error: null,
      hits_top_k: r.hits.map(storedHit),
    },
  }));
  const hits = run.results.reduce((n, r) => n + r.hits.length, 0);
  return {
    runs: [{ runId: run.run.runId, suite: run.run.suite, config: run.run.config, createdAt, results }],
    golden: {
      header: { description: `Imported from ${qrels} by evalverdict import trec` },
      items: goldenItems,
      yamlComment: true,
    },
    warnings: [],
    done: `imported ${run.results.length} queries (${hits} hits) into ${outputs.out} as run ${run.run.runId}`,
  };
}

export const TREC_FORMAT: ImportFormat = {
  name: 'trec',
  summary: 'a TREC qrels file and run file (trec_eval ranking: score descending, ties by docno descending)',
  usage: USAGE,
  inputs: [
    ['qrels', '--qrels file'],
    ['run', '--run file'],
  ],
  options: [],
  // The run id is the run's tag, read from the file.
  defaultRunId: () => 'trec',
  replacesOut: true,
  read,
};
