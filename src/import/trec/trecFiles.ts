/**
 * TREC files -> a run and a golden set. qrels: `qid iter docno rel`; run: `qid Q0 docno rank score tag`.
 * Like trec_eval we ignore the rank column and order by score descending, ties by docno descending; the
 * stored ranks are then the positions in that order, so every metric sees trec_eval's ranking.
 */
import { InputError } from '../../errors.js';
import type { GoldenSet, Hit, QueryResult, RunData } from '../../types.js';
import { goldenSetOfItems } from '../../load/golden.js';

interface TrecRunLine {
  docno: string;
  score: number;
}

/** Each non-blank line's whitespace-separated fields and its line number. */
function forEachLine(text: string, each: (fields: string[], line: number) => void): void {
  text.split(/\r?\n/).forEach((line, i) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length > 1 || fields[0] !== '') each(fields, i + 1);
  });
}

/** The golden queries of a qrels file: each query's judgments, its id standing for its text. */
function goldenItemsOf(
  text: string,
  source: string,
): Array<{ id: string; query: string; judgments: Record<string, number> }> {
  const qrels = new Map<string, Record<string, number>>();
  forEachLine(text, (fields, line) => {
    if (fields.length !== 4) {
      throw new InputError(
        `${source}:${line}: a qrels line needs 4 fields \`qid iter docno rel\`, got ${fields.length}`,
      );
    }
    const [qid, , docno, relText] = fields;
    const rel = Number(relText);
    if (!Number.isInteger(rel))
      throw new InputError(`${source}:${line}: relevance ${JSON.stringify(relText)} is not an integer`);
    let judgments = qrels.get(qid);
    if (!judgments) qrels.set(qid, (judgments = Object.create(null) as Record<string, number>));
    judgments[docno] = rel;
  });
  return [...qrels].map(([qid, judgments]) => ({ id: qid, query: qid, judgments: { ...judgments } }));
}

function parseTrecRun(text: string, source: string): { tag: string; byQuery: Map<string, TrecRunLine[]> } {
  const byQuery = new Map<string, TrecRunLine[]>();
  const seen = new Map<string, Set<string>>();
  let tag = '';
  forEachLine(text, (fields, line) => {
    // trec_eval reads six fields and ignores anything after them (its test data has such lines).
    if (fields.length < 6) {
      throw new InputError(
        `${source}:${line}: a run line needs 6 fields \`qid Q0 docno rank score tag\`, got ${fields.length}`,
      );
    }
    const [qid, , docno, , scoreText, lineTag] = fields;
    const score = Number(scoreText);
    if (!Number.isFinite(score))
      throw new InputError(`${source}:${line}: score ${JSON.stringify(scoreText)} is not a number`);
    tag ||= lineTag;
    let docs = seen.get(qid);
    if (!docs) seen.set(qid, (docs = new Set()));
    if (docs.has(docno)) throw new InputError(`${source}:${line}: document ${docno} appears twice for query ${qid}`);
    docs.add(docno);
    let list = byQuery.get(qid);
    if (!list) byQuery.set(qid, (list = []));
    list.push({ docno, score });
  });
  return { tag: tag || 'trec', byQuery };
}

/** trec_eval's order: score descending, then docno descending (strcmp). */
const trecOrder = (a: TrecRunLine, b: TrecRunLine): number =>
  a.score !== b.score ? b.score - a.score : a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0;

const hitOf = (l: TrecRunLine, i: number): Hit => ({
  rank: i + 1,
  chunkId: l.docno,
  docId: l.docno,
  docPath: null,
  headingPath: [],
  snippet: null,
  score: l.score,
  citation: null,
  chunkerVersion: null,
});

/** One QueryResult per run query, hits in trec_eval's order with ranks 1..n. */
function resultsFromTrecRun(byQuery: Map<string, TrecRunLine[]>): QueryResult[] {
  return [...byQuery].map(([qid, list]) => ({
    queryId: qid,
    query: qid,
    mode: null,
    hits: [...list].sort(trecOrder).map(hitOf),
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
  }));
}

/** A run and its golden set from TREC files; `goldenItems`: the golden set as `evalverdict import trec` writes it. */
export function runFromTrec(
  qrelsText: string,
  qrelsSource: string,
  runText: string,
  runSource: string,
  createdAt: string,
): { run: RunData; golden: GoldenSet; goldenItems: unknown[] } {
  const goldenItems = goldenItemsOf(qrelsText, qrelsSource);
  const { tag, byQuery } = parseTrecRun(runText, runSource);
  const run: RunData['run'] = {
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
  };
  return {
    goldenItems,
    golden: goldenSetOfItems(goldenItems, qrelsSource),
    run: { source: runSource, run, results: resultsFromTrecRun(byQuery), chunks: null, documents: null },
  };
}
