/**
 * QueryRecords as compact JSON for the hop between threads (src/load/scoreWorker.ts): each record a tuple in a
 * fixed field order, its golden query as an index. A structured clone of 100,000 records took ~1 s to write and
 * ~2.6 s to read back (one object per field); these tuples take a fraction of that. `decodeRecords` rebuilds the
 * same objects, field for field (test/compare.test.ts checks the round trip).
 */
import type { Answer, AnswerCitation, GoldenQuery, JudgeScores } from '../types.js';
import type { Expectation } from './matching.js';
import type { QueryRecord, ResultSummary } from './score.js';

type Tuple = unknown[];

const KINDS: Expectation['kind'][] = ['id', 'doc', 'support', 'lines'];

function encodeAnswer(a: Answer | null): Tuple | null {
  if (a === null) return null;
  const citations = a.citations.map((c) => [c.marker, c.chunkId, c.path, c.start, c.end]);
  return [a.text, citations, a.grounded, a.refusalReason, a.promptTokens, a.completionTokens, a.latencyMs];
}

function decodeAnswer(t: Tuple | null): Answer | null {
  if (t === null) return null;
  const citations = (t[1] as Tuple[]).map((c): AnswerCitation => ({
    marker: c[0] as string | null, chunkId: c[1] as string | null, path: c[2] as string | null, start: c[3] as number | null, end: c[4] as number | null,
  }));
  return {
    text: t[0] as string, citations, grounded: t[2] as boolean, refusalReason: t[3] as string | null,
    promptTokens: t[4] as number | null, completionTokens: t[5] as number | null, latencyMs: t[6] as number | null,
  };
}

function encodeJudge(j: JudgeScores | null): Tuple | null {
  return j === null ? null : [j.groundedness, j.correctness, j.unsupportedClaims, j.spotCheckGroundedness, j.spotCheckCorrectness];
}

function decodeJudge(t: Tuple | null): JudgeScores | null {
  if (t === null) return null;
  return {
    groundedness: t[0] as number | null, correctness: t[1] as number | null, unsupportedClaims: t[2] as number | null,
    spotCheckGroundedness: t[3] as number | null, spotCheckCorrectness: t[4] as number | null,
  };
}

function encodeResult(r: ResultSummary | null): Tuple | null {
  if (r === null) return null;
  return [
    r.queryId, r.query, r.mode, r.hitCount, encodeAnswer(r.answer), r.elapsedMs, r.error, r.status, r.abstained, r.timingsMs,
    r.costUsd, r.folderMode, r.selectedFolders, encodeJudge(r.judge),
  ];
}

function decodeResult(t: Tuple | null): ResultSummary | null {
  if (t === null) return null;
  return {
    queryId: t[0] as string, query: t[1] as string, mode: t[2] as string | null, hitCount: t[3] as number,
    answer: decodeAnswer(t[4] as Tuple | null), elapsedMs: t[5] as number | null, error: t[6] as string | null,
    status: t[7] as ResultSummary['status'], abstained: t[8] as boolean | null, timingsMs: t[9] as Record<string, number>,
    costUsd: t[10] as number | null, folderMode: t[11] as ResultSummary['folderMode'], selectedFolders: t[12] as string[],
    judge: decodeJudge(t[13] as Tuple | null),
  };
}

/** The records as one JSON text; `goldenIndex` maps each record's golden query to its index in the golden set. */
export function encodeRecords(records: readonly QueryRecord[], goldenIndex: ReadonlyMap<GoldenQuery, number>): string {
  return JSON.stringify(records.map((r) => {
    const v = r.vec;
    const expectations: number[] = [];
    for (const e of r.expectations) expectations.push(e.grade, KINDS.indexOf(e.kind), e.supportIndex);
    return [
      goldenIndex.get(r.golden), encodeResult(r.result), expectations, r.hasExpectations,
      [v.ranks, v.relevant, v.novelRelevant, v.novelGrade, v.expectationFirstRank, v.relevantCount, v.idealGrades, v.firstRelevantRank],
      r.expectedDocFirstRank, r.refused, r.answered, r.citedRelevant, r.citationsResolve, r.groundedText, r.claimFound,
      r.recencyCorrect, r.hitsWithSnippet, r.hitsSnippetMissing, r.scopeMiss,
    ];
  }));
}

/** The records of `encodeRecords`, relinked to `golden` (the same golden set, read by this thread). */
export function decodeRecords(text: string, golden: readonly GoldenQuery[]): QueryRecord[] {
  return (JSON.parse(text) as Tuple[]).map((t) => {
    const flat = t[2] as number[];
    const expectations: Expectation[] = [];
    for (let i = 0; i < flat.length; i += 3) expectations.push({ grade: flat[i], kind: KINDS[flat[i + 1]], supportIndex: flat[i + 2] });
    const v = t[4] as Tuple;
    return {
      golden: golden[t[0] as number],
      result: decodeResult(t[1] as Tuple | null),
      expectations,
      hasExpectations: t[3] as boolean,
      vec: {
        ranks: v[0] as number[], relevant: v[1] as number[], novelRelevant: v[2] as number[], novelGrade: v[3] as number[],
        expectationFirstRank: v[4] as number[], relevantCount: v[5] as number, idealGrades: v[6] as number[], firstRelevantRank: v[7] as number,
      },
      expectedDocFirstRank: t[5] as number[] | null,
      refused: t[6] as boolean | null,
      answered: t[7] as boolean,
      citedRelevant: t[8] as boolean,
      citationsResolve: t[9] as boolean | null,
      groundedText: t[10] as boolean | null,
      claimFound: t[11] as boolean | null,
      recencyCorrect: t[12] as boolean | null,
      hitsWithSnippet: t[13] as number,
      hitsSnippetMissing: t[14] as number,
      scopeMiss: t[15] as boolean | null,
    };
  });
}
