/**
 * The reader's look at every row (load/queryResult.ts, RowNotice): the keys the result schema does not know, named as
 * validate names them, on each path of the fast reader (a generic hit, a template learnt from one, a member skipped
 * before the hits, the members after them) and on the slow one. Run in a fresh process (vitest.config.ts): the
 * template path is read off the fast reader's counters and its templates, which other files' rows would fill.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { templateReadCount } from '../src/load/resultJson.js';
import { openRunStream } from '../src/load/runDatabase.js';
import { hit, removeTempDirs, result, writeRunDb } from './helpers/runDb.js';
import type { Json } from './helpers/runDb.js';

afterAll(removeTempDirs);

describe("the reader's notice", () => {
  it("the reader's notice names keys as validate does, on each path of the fast reader and on the slow one", async () => {
    const keysOf = async (rows: Json[]) => {
      const stream = await openRunStream(await writeRunDb({ runs: [{ runId: 'r', results: rows }] }), 'r');
      stream.forEachResult(() => {});
      stream.release?.();
      return [...(stream.notice?.unknownKeys ?? [])].sort();
    };
    const odd = (i: number) =>
      hit(1, `c${i}`, `d${i}`, { ranking_note: 'same', citation: { path: 'a.md', start: 1, lines: 2 } });
    // a generic hit's key and a citation's, and a member skipped before the hits (its key first in the row)
    expect(await keysOf([{ zz_before: 1, ...result('q1', [odd(1)]) }])).toEqual(
      ['hits_top_k[].citation.lines', 'hits_top_k[].ranking_note', 'zz_before'].sort(),
    );
    // the same hit shape again, in another run: read by the template learnt above, whose keys it notes
    const reads = templateReadCount();
    expect(await keysOf([result('q2', [odd(2)]), result('q3', [odd(3)])])).toEqual([
      'hits_top_k[].citation.lines',
      'hits_top_k[].ranking_note',
    ]);
    expect(templateReadCount()).toBeGreaterThan(reads);
    // a member after the hits (parsed by JSON.parse) and the answer's own key
    expect(
      await keysOf([result('q4', [hit(1, 'c4', 'd4')], { answer: { answer: 'a', citationz: [] }, zz_after: 1 })]),
    ).toEqual(['answer.citationz', 'zz_after']);
    // the slow path: a hit with both doc_path and rel_path is left to it, and its misspelt key noted there
    expect(
      await keysOf([result('q5', [{ rank: 1, chunk_id: 'c5', doc_path: 'a.md', rel_path: 'a.md', docId: 'd5' }])]),
    ).toEqual(['hits_top_k[].docId']);
  });

  it("notes a hit that can match nothing by validate's rule, on the values as written", async () => {
    const unmatchable = async (hits: Json[]) => {
      const stream = await openRunStream(
        await writeRunDb({ runs: [{ runId: 'r', results: [result('q1', hits)] }] }),
        'r',
      );
      stream.forEachResult(() => {});
      stream.release?.();
      return stream.notice?.unmatchableHit;
    };
    expect(await unmatchable([hit(1, 'c1', 'd1')])).toBe(false);
    expect(await unmatchable([{ rank: 1, score: 0.5 }])).toBe(true);
    expect(await unmatchable([{ rank: 1, chunk_id: '', doc_id: null }])).toBe(true);
    // a `false` id: the reader would read the text "false", validate counts no id
    expect(await unmatchable([{ rank: 1, chunk_id: false }])).toBe(true);
    // an empty doc_path beside rel_path: validate counts the path, and so does the notice
    expect(await unmatchable([{ rank: 1, doc_path: '', rel_path: 'a.md' }])).toBe(false);
    expect(await unmatchable([{ rank: 1, doc_id: 7 }])).toBe(false);
  });
});
