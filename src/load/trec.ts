/**
 * TREC files -> a run and a golden set. qrels: `qid iter docno rel`; run: `qid Q0 docno rank score tag`.
 * Like trec_eval we ignore the rank column and order by score descending, ties by docno descending; the
 * stored ranks are then the positions in that order, so every metric sees trec_eval's ranking.
 */
import { InputError } from '../errors.js';
import type { GoldenSet, QueryResult, RunData } from '../types.js';
import { goldenSetOfItems } from './golden.js';

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function parseQrels(text: string, source: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  lines(text).forEach((line, i) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === '') return;
    if (fields.length !== 4)
      throw new InputError(
        `${source}:${i + 1}: a qrels line needs 4 fields \`qid iter docno rel\`, got ${fields.length}`,
      );
    const [qid, , docno, relText] = fields;
    const rel = Number(relText);
    if (!Number.isInteger(rel))
      throw new InputError(`${source}:${i + 1}: relevance ${JSON.stringify(relText)} is not an integer`);
    let q = qrels.get(qid);
    if (!q) qrels.set(qid, (q = new Map()));
    q.set(docno, rel);
  });
  return qrels;
}

export interface TrecRunLine {
  docno: string;
  score: number;
}

export function parseTrecRun(text: string, source: string): { tag: string; byQuery: Map<string, TrecRunLine[]> } {
  const byQuery = new Map<string, TrecRunLine[]>();
  const seen = new Map<string, Set<string>>();
  let tag = '';
  lines(text).forEach((line, i) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length === 1 && fields[0] === '') return;
    // trec_eval reads six fields and ignores anything after them (its test data has such lines).
    if (fields.length < 6)
      throw new InputError(
        `${source}:${i + 1}: a run line needs 6 fields \`qid Q0 docno rank score tag\`, got ${fields.length}`,
      );
    const [qid, , docno, , scoreText, lineTag] = fields;
    const score = Number(scoreText);
    if (!Number.isFinite(score))
      throw new InputError(`${source}:${i + 1}: score ${JSON.stringify(scoreText)} is not a number`);
    tag ||= lineTag;
    let docs = seen.get(qid);
    if (!docs) seen.set(qid, (docs = new Set()));
    if (docs.has(docno)) throw new InputError(`${source}:${i + 1}: document ${docno} appears twice for query ${qid}`);
    docs.add(docno);
    let list = byQuery.get(qid);
    if (!list) byQuery.set(qid, (list = []));
    list.push({ docno, score });
  });
  return { tag: tag || 'trec', byQuery };
}

/** trec_eval's order: score descending, then docno descending (strcmp). */
export function trecOrder(a: TrecRunLine, b: TrecRunLine): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0;
}

/** The golden queries of a qrels file: each query's judgments, its id standing for its text. */
export function goldenItemsFromQrels(
  qrels: Map<string, Map<string, number>>,
): Array<{ id: string; query: string; judgments: Record<string, number> }> {
  return [...qrels].map(([qid, judgments]) => ({ id: qid, query: qid, judgments: Object.fromEntries(judgments) }));
}

export function goldenFromQrels(qrels: Map<string, Map<string, number>>, source: string): GoldenSet {
  return goldenSetOfItems(goldenItemsFromQrels(qrels), source);
}

/** One QueryResult per run query, hits in trec_eval's order with ranks 1..n. */
export function resultsFromTrecRun(byQuery: Map<string, TrecRunLine[]>): QueryResult[] {
  const results: QueryResult[] = [];
  for (const [qid, list] of byQuery) {
    const sorted = [...list].sort(trecOrder);
    results.push({
      queryId: qid,
      query: qid,
      mode: null,
      hits: sorted.map((l, i) => ({
        rank: i + 1,
        chunkId: l.docno,
        docId: l.docno,
        docPath: null,
        headingPath: [],
        snippet: null,
        score: l.score,
        citation: null,
        chunkerVersion: null,
      })),
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
    });
  }
  return results;
}

/** A run and its golden set from TREC files; `goldenItems`: the golden set as `evalgate import trec` writes it. */
export function runFromTrec(
  qrelsText: string,
  qrelsSource: string,
  runText: string,
  runSource: string,
  createdAt: string,
): { run: RunData; golden: GoldenSet; goldenItems: unknown[] } {
  const goldenItems = goldenItemsFromQrels(parseQrels(qrelsText, qrelsSource));
  const { tag, byQuery } = parseTrecRun(runText, runSource);
  return {
    goldenItems,
    golden: goldenSetOfItems(goldenItems, qrelsSource),
    run: {
      source: runSource,
      run: {
        runId: tag,
        suite: 'trec',
        commitHash: null,
        createdAt,
        config: { source: 'trec', run_file: runSource },
        chunkerVersion: null,
        embeddingModel: null,
        indexVersion: null,
        judgeModel: null,
        judgePromptVersion: null,
      },
      results: resultsFromTrecRun(byQuery),
      chunks: null,
      documents: null,
    },
  };
}
