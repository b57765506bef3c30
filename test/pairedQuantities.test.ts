/**
 * compare's paired per-query quantities (ComparedRuns.pairedQuantityOf), the cost side a trade will test (issue 49):
 * each side's value of a quantity, over the queries that have it on both sides, in golden-set order.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../src/compare/compare.js';
import { readGoldenFile } from '../src/load/golden.js';
import { deferRunStream, openRunStream, readRunDatabase } from '../src/load/runDatabase.js';

const [BASE, CAND] = ['fixtures/baseline.sqlite', 'fixtures/candidate.sqlite'];

describe('paired quantities', () => {
  it("elapsed_ms on the fixtures: each side's value, the queries with it on both, in golden order", async () => {
    const golden = readGoldenFile('fixtures/golden.yaml');
    const compared = compareRuns(await openRunStream(BASE), await deferRunStream(CAND), golden, {});
    const paired = compared.pairedQuantityOf?.('elapsed_ms');
    const msOf = async (file: string) =>
      new Map((await readRunDatabase(file)).results.map((r) => [r.queryId, r.elapsedMs]));
    const [b, c] = [await msOf(BASE), await msOf(CAND)];
    const both = golden.queries
      .filter((q) => !q.pending)
      .map((q) => [b.get(q.id), c.get(q.id)])
      .filter(([x, y]) => typeof x === 'number' && typeof y === 'number');
    expect(both.length).toBeGreaterThan(200);
    expect([...(paired?.baseline ?? [])]).toEqual(both.map(([x]) => x));
    expect([...(paired?.candidate ?? [])]).toEqual(both.map(([, y]) => y));
  });

  it('a quantity no metric reads: null', async () => {
    const golden = readGoldenFile('fixtures/golden.yaml');
    const compared = compareRuns(await openRunStream(BASE), await deferRunStream(CAND), golden, {});
    expect(compared.pairedQuantityOf?.('no_such_quantity')).toBeNull();
  });
});
