/**
 * The committed Cranfield fixtures (fixtures/, built by scripts/build-fixtures.ts):
 * - they load, and the golden set is the one story fixtures/README.md tells: written against the passage
 *   chunker (one expected passage per relevant document), expected_doc_ids = the qrels' relevant documents,
 *   no judgments, plus ten synthetic adversarial queries that should be refused;
 * - `runCompare` (the code path of `evalverdict compare`) scores the baseline exactly as TREC doc-level binary
 *   relevance, recomputed here straight from the qrels file and the collection, and the candidate exactly as
 *   passage-level relevance, recomputed here from expected_chunk_ids and the stored hits;
 * - they are up to date: rebuilding into a temp dir gives the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { warningText } from '../src/render/warningText.js';
import { computeAggregate } from '../src/aggregate/aggregate.js';
import type { CompareReport } from '../src/gate/types.js';
import { readGoldenFile } from '../src/load/golden.js';
import { readRunDatabase } from '../src/load/runDatabase.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import type { GoldenSet, RunData } from '../src/types.js';
import { buildFixtures } from '../scripts/build-fixtures.js';
import { repoRoot, sharedPath } from './shared.js';

const cranfield = sharedPath('datasets', 'cranfield');
const fixtures = join(repoRoot, 'fixtures');
const FILES = ['baseline.sqlite', 'candidate.sqlite', 'golden.yaml', 'README.md'];
const K = 10;
const ADVERSARIAL = ['x001', 'x002', 'x003', 'x004', 'x005', 'x006', 'x007', 'x008', 'x009', 'x010'];

/** query id (qNNN by qrels topic position) -> doc id -> grade, read here without the build script's parser. */
function readQrels(file: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const fields = line.replace(/\r$/, '').trim().split(/\s+/);
    if (fields.length < 4) continue;
    const [topic, , docno, grade] = fields;
    const qid = `q${topic.padStart(3, '0')}`;
    if (!out.has(qid)) out.set(qid, new Map());
    out.get(qid)!.set(`cran-${docno.padStart(4, '0')}`, Number(grade));
  }
  return out;
}

/** Doc ids whose <text> in cran.all.1400.xml is empty: not indexed, so without a passage. */
function docsWithoutText(file: string): string[] {
  const out: string[] = [];
  for (const block of readFileSync(file, 'utf8').split('<doc>').slice(1)) {
    const docno = block.match(/<docno>\s*(\d+)\s*<\/docno>/)![1];
    const text = block.match(/<text>([\s\S]*?)<\/text>/)?.[1] ?? '';
    if (text.trim() === '') out.push(`cran-${docno.padStart(4, '0')}`);
  }
  return out.sort();
}

const discount = (rank: number) => 1 / Math.log2(rank + 1);
const idealDcg = (relevant: number) => {
  let sum = 0;
  for (let rank = 1; rank <= Math.min(relevant, K); rank++) sum += discount(rank);
  return sum;
};

interface Means {
  hit: number;
  ndcg: number;
  n: number;
}

/**
 * Baseline as compare scores it: a whole-document hit of a relevant document meets that document's expected
 * passage, a document counts once, binary gains; the ideal holds the relevant documents that have a passage.
 */
function baselineFromQrels(run: RunData, qrels: Map<string, Map<string, number>>, withoutText: Set<string>): Means {
  const byQuery = new Map(run.results.map((r) => [r.queryId, r]));
  let hitSum = 0;
  let ndcgSum = 0;
  let n = 0;
  for (const [qid, judged] of qrels) {
    const relevant = new Set([...judged].filter(([d, g]) => g >= 1 && !withoutText.has(d)).map(([d]) => d));
    if (relevant.size === 0) continue;
    n++;
    const seen = new Set<string>();
    let dcg = 0;
    let hit = 0;
    for (const h of byQuery.get(qid)?.hits ?? []) {
      if (h.rank > K || h.docId === null || seen.has(h.docId) || !relevant.has(h.docId)) continue;
      seen.add(h.docId);
      hit = 1;
      dcg += discount(h.rank);
    }
    hitSum += hit;
    ndcgSum += dcg / idealDcg(relevant.size);
  }
  return { hit: hitSum / n, ndcg: ndcgSum / n, n };
}

/** Candidate at passage level: a hit counts when its chunk_id is an expected chunk id of the query. */
function candidateFromGolden(run: RunData, golden: GoldenSet): Means {
  const byQuery = new Map(run.results.map((r) => [r.queryId, r]));
  let hitSum = 0;
  let ndcgSum = 0;
  let n = 0;
  for (const q of golden.queries) {
    const expected = new Set(q.expectedChunkIds ?? []);
    if (expected.size === 0) continue;
    n++;
    const seen = new Set<string>();
    let dcg = 0;
    let hit = 0;
    for (const h of byQuery.get(q.id)?.hits ?? []) {
      if (h.rank > K || h.chunkId === null || seen.has(h.chunkId) || !expected.has(h.chunkId)) continue;
      seen.add(h.chunkId);
      hit = 1;
      dcg += discount(h.rank);
    }
    hitSum += hit;
    ndcgSum += dcg / idealDcg(expected.size);
  }
  return { hit: hitSum / n, ndcg: ndcgSum / n, n };
}

describe.skipIf(!cranfield)('Cranfield fixtures', () => {
  let baseline: RunData;
  let candidate: RunData;
  let golden: GoldenSet;
  let report: CompareReport;
  let qrels: Map<string, Map<string, number>>;
  beforeAll(async () => {
    baseline = await readRunDatabase(join(fixtures, 'baseline.sqlite'));
    candidate = await readRunDatabase(join(fixtures, 'candidate.sqlite'));
    golden = readGoldenFile(join(fixtures, 'golden.yaml'));
    qrels = readQrels(join(cranfield!, 'cranqrel.trec.txt'));
    ({ report } = await runCompare({
      baselinePath: join(fixtures, 'baseline.sqlite'),
      candidatePath: join(fixtures, 'candidate.sqlite'),
      goldenPath: join(fixtures, 'golden.yaml'),
      // The README's quick start: the gates of fixtures/evalverdict.yml (the README below states its verdict).
      configPath: join(fixtures, 'evalverdict.yml'),
    }));
  });

  it('load: two runs of 235 queries over different chunkers, a golden set of 225 Cranfield + 10 adversarial queries', () => {
    expect(golden.warnings.map(warningText)).toEqual([]);
    expect(golden.queries).toHaveLength(235);
    const cran = golden.queries.filter((q) => /^q\d{3}$/.test(q.id));
    const adversarial = golden.queries.filter((q) => !/^q\d{3}$/.test(q.id));
    expect(cran).toHaveLength(225);
    expect(adversarial.map((q) => q.id)).toEqual(ADVERSARIAL);
    for (const q of adversarial) {
      expect(q.answerable).toBe(false);
      expect(q.expectedDocIds).toEqual([]);
      expect(q.expectedChunkIds).toBeNull();
      expect(q.category).toBe('adversarial');
    }
    expect(cran.every((q) => q.answerable && q.category !== 'adversarial')).toBe(true);
    // one chunk-level expectation per relevant document: no judgments beside the expected passages
    expect(golden.queries.every((q) => q.judgments.size === 0)).toBe(true);

    for (const [run, version] of [
      [baseline, 'whole-doc-v1'],
      [candidate, 'passage-v2'],
    ] as const) {
      expect(run.run.chunkerVersion).toBe(version);
      expect(run.results.map((r) => r.queryId).sort()).toEqual(golden.queries.map((q) => q.id).sort());
      for (const r of run.results) {
        if (/^q/.test(r.queryId)) expect(r.hits).toHaveLength(K);
        else expect(r.hits.length).toBeLessThanOrEqual(K);
        for (const h of r.hits) {
          expect(h.chunkerVersion).toBe(version);
          expect(run.chunks!.get(h.chunkId!)!.text).toContain(h.snippet!);
        }
      }
      const refusals = run.results.filter((r) => r.answer && !r.answer.grounded).length;
      expect(refusals).toBeGreaterThan(0);
      expect(refusals).toBeLessThan(235);
    }
  });

  it("golden: expected_doc_ids are the qrels' relevant documents, one expected passage for each that has text", () => {
    const withoutText = docsWithoutText(join(cranfield!, 'cran.all.1400.xml'));
    expect(withoutText).toEqual(['cran-0471', 'cran-0995']);
    const relevantWithoutText: string[] = [];
    for (const q of golden.queries.filter((x) => x.answerable)) {
      const relevant = [...qrels.get(q.id)!]
        .filter(([, g]) => g >= 1)
        .map(([d]) => d)
        .sort();
      expect([...q.expectedDocIds!].sort(), q.id).toEqual(relevant);
      const passageDocs = q.expectedChunkIds!.map((id) => {
        const chunk = candidate.chunks!.get(id);
        expect(chunk, id).toBeDefined();
        return chunk!.docId;
      });
      expect(passageDocs.sort(), q.id).toEqual(relevant.filter((d) => !withoutText.includes(d)));
      for (const d of relevant) if (withoutText.includes(d)) relevantWithoutText.push(`${q.id}:${d}`);
    }
    // the one relevant document without text (hence without a passage): named in fixtures/README.md
    expect(relevantWithoutText).toEqual(['q125:cran-0995']);
  });

  it('compare: the chunker versions differ, so expected passages are matched through the span fallback', () => {
    expect(report.chunker_version_match).toBe('fallback_doc_span');
    expect(report.golden.queries).toBe(235);
    expect(report.golden.shared).toBe(235);
    expect(report.metrics['hit@10'].n).toBe(225);
    expect(report.metrics.refusal_correctness.n).toBe(10);
    // the README states the compare headline the build computed with the same code path
    expect(readFileSync(join(fixtures, 'README.md'), 'utf8')).toContain(
      `**verdict: ${report.verdict}** (exit code ${report.verdict === 'fail' ? 1 : 0})`,
    );
  });

  it("baseline: compare's hit@10 and nDCG@10 equal doc-level binary relevance recomputed from the TREC qrels", () => {
    expect(qrels.size).toBe(225);
    const withoutText = new Set(docsWithoutText(join(cranfield!, 'cran.all.1400.xml')));
    const trec = baselineFromQrels(baseline, qrels, withoutText);
    expect(trec.n).toBe(225);
    expect(report.metrics['hit@10'].n_baseline).toBe(trec.n);
    expect(report.metrics['hit@10'].baseline).toBeCloseTo(trec.hit, 12);
    expect(report.metrics['nDCG@10'].baseline).toBeCloseTo(trec.ndcg, 12);
  });

  it("candidate: compare's hit@10 and nDCG@10 equal passage-level relevance recomputed from expected_chunk_ids", () => {
    const passage = candidateFromGolden(candidate, golden);
    expect(passage.n).toBe(225);
    expect(report.metrics['hit@10'].n).toBe(passage.n);
    expect(report.metrics['hit@10'].candidate).toBeCloseTo(passage.hit, 12);
    expect(report.metrics['nDCG@10'].candidate).toBeCloseTo(passage.ndcg, 12);
  });

  it("alone, the baseline's expected passages are in no chunks table: their documents stand for them", () => {
    // The golden set names passage-v2 chunks; the baseline's table holds whole-doc-v1 ones only, so every expected
    // passage is gone and each query's expected_doc_ids are its expectations (kebab's doc_id criterion): hit@10 is
    // then the doc-level hit rate recomputed from the qrels, and recall@10 is recall_doc@10.
    const alone = computeAggregate(baseline, golden);
    expect(alone.options.chunk_match).toBe('exact');
    expect(alone.chunk_match_queries).toEqual({
      exact: 10, // x001..x010: nothing expected
      fallback_doc_span: 0,
      fallback_doc: 0,
      fallback_expected_doc: 225,
    });
    const trec = baselineFromQrels(baseline, qrels, new Set(docsWithoutText(join(cranfield!, 'cran.all.1400.xml'))));
    expect(alone.metrics['hit@10'].value).toBeCloseTo(trec.hit, 12);
    expect(alone.metrics['recall@10'].value).toBeCloseTo(alone.metrics['recall_doc@10'].value!, 12);
    // The candidate's own table holds every expected passage: exact, no counts.
    expect(computeAggregate(candidate, golden).chunk_match_queries).toBeUndefined();
  });

  it("span fallback: with the candidate's chunks the baseline meets the expected passages by span", () => {
    const fallback = computeAggregate(baseline, golden, {
      chunkMatch: 'fallback_doc_span',
      referenceChunks: candidate.chunks,
    });
    expect(fallback.metrics['hit@10'].value).toBeCloseTo(report.metrics['hit@10'].baseline!, 12);
    expect(fallback.metrics['nDCG@10'].value).toBeCloseTo(report.metrics['nDCG@10'].baseline!, 12);
    expect(fallback.metrics['hit@10'].value!).toBeGreaterThan(0.5);
  });

  it('is up to date: rebuilding gives the committed bytes (else run: node --import tsx scripts/build-fixtures.ts)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'evalverdict-fixtures-'));
    try {
      await buildFixtures(out, cranfield!);
      for (const file of FILES) {
        const fresh = readFileSync(join(out, file));
        const committed = readFileSync(join(fixtures, file));
        expect(
          fresh.equals(committed),
          `fixtures/${file} is out of date: run node --import tsx scripts/build-fixtures.ts`,
        ).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
