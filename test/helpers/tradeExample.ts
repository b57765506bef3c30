/**
 * The example of docs/gates.md, "Trades" (and "Slices"): a pull request that drops the reranker. 600 golden queries
 * in three categories; the candidate moves the relevant document from rank 1 to 2 on about 8% of queries (nDCG@10
 * about −0.036), loses it on 6 multi-hop questions, and answers in about half the time. Seeded: the same runs every
 * time. test/trades.test.ts checks that the docs quote what the code renders for them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../src/stats/random.js';
import { hit, result, writeGolden, writeRunDb } from './runDb.js';

export const EXAMPLE_CONFIG = `slices: category
gates:
  - metric: hit@5
    margin: 0.05
    per_slice: true
  - metric: nDCG@10
    margin: 0.02
    trade: {margin: 0.06, metric: latency_ms, min_gain: 0.25}
`;

const N = 600;
const category = (i: number) => (i < 300 ? 'factual' : i < 480 ? 'multi_hop' : 'recency');
const id = (i: number) => `q${String(i).padStart(3, '0')}`;

/** Writes golden.yaml, main-reranker.sqlite, pr-no-reranker.sqlite and evalverdict.yml into `dir`. */
export async function writeTradeExample(
  dir: string,
): Promise<{ goldenPath: string; baselinePath: string; candidatePath: string; configPath: string }> {
  const r = seededRandom(49);
  const z = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const baseRank = Array.from({ length: N }, () => (r() < 0.7 ? 1 : r() < 0.6 ? 2 + Math.floor(r() * 3) : null));
  const candRank = baseRank.map((b) => (b === 1 && r() < 0.085 ? 2 : b === 2 && r() < 0.05 ? 1 : b));
  // Multi-hop questions lose their document on 6 queries: too few to show overall, a slice's question.
  let lost = 0;
  for (let i = 300; i < 480 && lost < 6; i += 7) {
    if (candRank[i] !== null) {
      candRank[i] = null;
      lost++;
    }
  }
  const baseMs = Array.from({ length: N }, () => Math.exp(Math.log(420) + 0.5 * z()));
  const candMs = baseMs.map((m) => m * 0.5 * Math.exp(0.25 * z()));
  const hits = (i: number, rank: number | null) =>
    Array.from({ length: 10 }, (_, k) =>
      k + 1 === rank ? hit(k + 1, `c${i}`, `d${i}`) : hit(k + 1, `f${i}-${k}`, `f${i}-${k}`),
    );
  const goldenPath = writeGolden(
    Array.from(
      { length: N },
      (_, i) => `- id: ${id(i)}\n  query: question ${i}\n  category: ${category(i)}\n  expected_doc_ids: [d${i}]\n`,
    ).join(''),
    dir,
  );
  const run = (runId: string, ranks: Array<number | null>, ms: number[], createdAt: string, commitHash: string) =>
    writeRunDb(
      {
        runs: [
          {
            runId,
            createdAt,
            commitHash,
            results: Array.from({ length: N }, (_, i) =>
              result(id(i), hits(i, ranks[i]), { elapsed_ms: Math.round(ms[i]) }),
            ),
          },
        ],
      },
      join(dir, `${runId}.sqlite`),
    );
  const baselinePath = await run(
    'main-reranker',
    baseRank,
    baseMs,
    '2026-12-01T00:00:00Z',
    'a1b2c3d4e5f6'.repeat(3).slice(0, 40),
  );
  const candidatePath = await run(
    'pr-no-reranker',
    candRank,
    candMs,
    '2026-12-02T00:00:00Z',
    'f6e5d4c3b2a1'.repeat(4).slice(0, 40),
  );
  const configPath = join(dir, 'evalverdict.yml');
  writeFileSync(configPath, EXAMPLE_CONFIG);
  return { goldenPath, baselinePath, candidatePath, configPath };
}
