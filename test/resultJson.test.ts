/**
 * The fast result_json reader (src/load/resultJson.ts) against the reference path (JSON.parse + parseQueryResult):
 * on every text, both give the same QueryResult or the same error message. Texts are read in sequence, so hit
 * templates learnt from one row are tried on the next, as they are when a run is read.
 */
import fc from 'fast-check';
import { InputError } from '../src/errors.js';
import { describe, expect, it } from 'vitest';
import { parseQueryResult, readResultRow } from '../src/load/queryResult.js';
import { RowHit, scanResultJson, templateReadCount } from '../src/load/resultJson.js';
import type { QueryResult } from '../src/types.js';

const FILE = 'run.sqlite';
const RUN = 'r1';
const QUERY = 'q1';
const WHERE = `${FILE}: table \`eval_query_results\`, run \`${RUN}\`, query \`${QUERY}\``;

/** A QueryResult as plain data (a RowHit's fields read through its getters). */
function plain(r: QueryResult): unknown {
  return {
    ...r,
    hits: r.hits.map((h) => ({
      rank: h.rank,
      chunkId: h.chunkId,
      docId: h.docId,
      docPath: h.docPath,
      headingPath: h.headingPath,
      snippet: h.snippet,
      score: h.score,
      citation: h.citation,
      chunkerVersion: h.chunkerVersion,
    })),
  };
}

type Outcome = { ok: unknown } | { error: string };

function reference(text: string): Outcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // As the loader throws it: an InputError, one line (the input's control characters escaped).
    return {
      error: new InputError(`${WHERE}, column \`result_json\`: malformed JSON (${(error as Error).message})`).message,
    };
  }
  try {
    return { ok: plain(parseQueryResult(value, QUERY, WHERE)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function fast(text: string): Outcome {
  try {
    return { ok: plain(readResultRow(FILE, RUN, QUERY, text)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function agree(text: string): void {
  expect(fast(text), text).toStrictEqual(reference(text));
}

const hit = (rank: number, extra: Record<string, unknown> = {}) => ({
  rank,
  chunk_id: `d${rank}#c1`,
  doc_id: `d${rank}`,
  doc_path: `docs/d${rank}.md`,
  heading_path: ['Guide', 'Setup'],
  snippet: 'Set the timeout in config.yaml.',
  score: 10 - rank / 10,
  citation: { kind: 'line', path: `docs/d${rank}.md`, start: rank, end: rank + 5 },
  chunker_version: 'v2',
  ...extra,
});
const result = (hits: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    query_id: QUERY,
    query: 'how do I set the request timeout for uploads?',
    mode: 'hybrid',
    hits_top_k: hits,
    answer: {
      answer: 'Set timeout.',
      citations: [{ marker: '[1]', citation: { path: 'docs/d1.md', start: 1, end: 3 } }],
      grounded: true,
    },
    elapsed_ms: 120,
    timings_ms: { retrieve: 40 },
    error: null,
    status: 'ok',
    ...extra,
  });

describe('the fast reader of result_json', () => {
  it('reads the common shape through templates, and falls back where it must', () => {
    const common = result([hit(1), hit(2), hit(3)]);
    expect(scanResultJson(common)).not.toBeNull();
    const read = readResultRow(FILE, RUN, QUERY, common);
    expect(read.hits[0]).toBeInstanceOf(RowHit);
    expect(read.hits.map((h) => h.rank)).toEqual([1, 2, 3]);
    expect(read.hits[1].citation).toEqual({ kind: 'line', path: 'docs/d2.md', start: 2, end: 7 });
    expect(read.hits[2].headingPath).toEqual(['Guide', 'Setup']);
    agree(common);
    // Not the common shape: the reference path reads these, and the fast one steps aside.
    for (const text of [
      result([hit(1), hit(1)]), // repeated rank
      result([{ ...hit(1), rank: '1' }]), // rank of the wrong type
      result([hit(1, { chunk_id: 7 })]), // an id as a number (the reference path makes it "7")
      '{"hits_top_k":[{"rank":1,"rank":2}]}', // a key given twice
      `${common} x`, // text after the object
      common.replace('"Set timeout."', '"Set\ttimeout."'), // a raw control character in a string
    ]) {
      expect(scanResultJson(text), text).toBeNull();
      agree(text);
    }
  });

  it('agrees with the reference on hand-picked edge cases', () => {
    const cases = [
      '{}',
      '[]',
      'null',
      '"x"',
      '',
      ' ',
      '{"hits_top_k":null}',
      '{"hits_top_k":[]}',
      '{"hits_top_k":{}}',
      '{"hits_top_k":[{}]}',
      '{"hits_top_k":[{"rank":0}]}',
      '{"hits_top_k":[{"rank":-1}]}',
      '{"hits_top_k":[{"rank":1.5}]}',
      '{"hits_top_k":[{"rank":1e0}]}',
      '{"hits_top_k":[{"rank":1.0}]}',
      '{"hits_top_k":[{"rank":1e999}]}',
      '{"hits_top_k":[{"rank":2},{"rank":1}]}',
      '{"hits_top_k":[{"rank":2},{"rank":1},{"rank":2}]}',
      '{"hits_top_k":[{"rank":1,"score":1e999}]}',
      '{"hits_top_k":[{"rank":1,"score":-0}]}',
      '{"hits_top_k":[{"rank":1,"citation":{}}]}',
      '{"hits_top_k":[{"rank":1,"citation":{"path":null,"start":1}}]}',
      '{"hits_top_k":[{"rank":1,"citation":{"path":"a","start":null,"end":3}}]}',
      '{"hits_top_k":[{"rank":1,"citation":{"path":"a","start":2}}]}',
      '{"hits_top_k":[{"rank":1,"citation":{"path":"a","start":2,"end":"3"}}]}',
      '{"hits_top_k":[{"rank":1,"citation":{"path":1,"start":2}}]}',
      '{"hits_top_k":[{"rank":1,"citation":[]}]}',
      '{"hits_top_k":[{"rank":1,"heading_path":[]}]}',
      '{"hits_top_k":[{"rank":1,"heading_path":["a",1]}]}',
      '{"hits_top_k":[{"rank":1,"heading_path":"a"}]}',
      '{"hits_top_k":[{"rank":1,"heading_path":[ "a" , "b" ]}]}',
      '{"hits_top_k":[{"rank":1,"chunk_id":"a\\"b","doc_id":"\\u0064"}]}',
      '{"hits_top_k":[{"r\\u0061nk":1}]}',
      '{"hits_top_k":[{"rank":1,"snippet":"\\ud800"}]}',
      '{"hits_top_k":[{"rank":1,"snippet":"\\x"}]}',
      '{"hits_top_k":[{"rank":1,"extra":{"a":[1,{"b":null}]}}]}',
      '{"hits_top_k":[{"rank":1,}]}',
      '{"hits_top_k":[{"rank":1}],}',
      '{"hits_top_k":[{"rank":01}]}',
      '{"hits_top_k":[{"rank":1,"score":.5}]}',
      '{"hits_top_k":[{"rank":1,"score":1.}]}',
      '{"hits_top_k":[{"rank":1,"score":1e}]}',
      '{"hits_top_k":[{"rank":1,"score":-}]}',
      '{"hits_top_k":[{"rank":1,"score":NaN}]}',
      '{"hits_top_k":[{"rank":1,"chunk_id":tru}]}',
      '{"hits_top_k":[{"rank":1,"chunk_id":true}]}',
      '{"query":"a","query":"b"}',
      '{"__proto__":{"x":1},"query":"q"}',
      '{"status":"done"}',
      '{"status":"ok","error":"boom"}',
      '{"scope":{"folder_mode":"on","selected_folders":["docs/"]}}',
      '{"timings_ms":{"a":1,"b":"2"}}',
      '{"judge":{"groundedness":4}}',
      '{"answer":{"answer":"x","citations":"no","grounded":true}}',
      ' \n{ "hits_top_k" : [ { "rank" : 1 } ] } \t',
      '{"query":"\u2028é😀"}',
      '{"query":"a"}\u0000',
      '\uFEFF{}',
      '{"hits_top_k":[{"rank":1}]',
      '{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}',
    ];
    for (const text of cases) agree(text);
  });

  it('reads the members after the hits in one parse, and steps aside where JSON.parse would keep a later one', () => {
    const after = [
      '{"hits_top_k":[{"rank":1}],"answer":{"answer":"x","citations":[],"grounded":true},"elapsed_ms":5}',
      '{"query":"q","hits_top_k":[] , "judge": {"groundedness": 4}, "query_id": "q1" } ',
      '{"hits_top_k":[{"rank":1}],"query":"\\u0041\\n","timings_ms":{"a":1,"b":2}}',
      '{"hits_top_k":[{"rank":1}],"__proto__":{"query":"x"},"status":"timeout"}',
      '{"hits_top_k":[{"rank":1}],"answer":{"answer":"x","citations":"no","grounded":true}}', // an error, from the slow path
    ];
    for (const text of after) {
      expect(scanResultJson(text), text).not.toBeNull();
      agree(text);
    }
    const stepAside = [
      '{"hits_top_k":[{"rank":1}],"hits_top_k":[{"rank":2}]}', // JSON.parse keeps the second list
      '{"hits_top_k":[{"rank":1}],"hits\\u005ftop_k":null}', // the same key, escaped
      '{"query":"a","hits_top_k":[],"query":"b"}', // a key before and after the hits
      '{"hits_top_k":[{"rank":1}],}',
      '{"hits_top_k":[{"rank":1}],"query":"a"} x',
      '{"hits_top_k":[{"rank":1}],"query":"a\u0001"}',
      '{"hits_top_k":[{"rank":1}],"query":"a"',
      '{"hits_top_k":[{"rank":1}],"query":"a"}}',
    ];
    for (const text of stepAside) {
      expect(scanResultJson(text), text).toBeNull();
      agree(text);
    }
  });

  /** A JSON value of a hit field: mostly the right type, sometimes not (the reference path's errors must come through). */
  const scalar = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...'ab/#. "\\\t\n\u0001é😀'), maxLength: 12 }) },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.integer({ min: -3, max: 40 }) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.boolean() },
  );
  const hitArb = fc.record(
    {
      rank: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: scalar }),
      chunk_id: scalar,
      doc_id: scalar,
      doc_path: scalar,
      snippet: scalar,
      chunker_version: scalar,
      heading_path: fc.oneof(
        fc.array(fc.oneof({ weight: 9, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: scalar }), {
          maxLength: 3,
        }),
        scalar,
      ),
      score: fc.oneof(
        { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
        { weight: 1, arbitrary: scalar },
      ),
      citation: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record(
            {
              kind: fc.constant('line'),
              path: scalar,
              start: fc.oneof(fc.integer({ min: 0, max: 99 }), scalar),
              end: fc.oneof(fc.integer({ min: 0, max: 99 }), scalar),
            },
            { requiredKeys: [] },
          ),
        },
        { weight: 1, arbitrary: scalar },
      ),
      extra: scalar,
    },
    { requiredKeys: ['rank'] },
  );
  const resultArb = fc.record(
    {
      query_id: fc.constant(QUERY),
      query: scalar,
      mode: scalar,
      hits_top_k: fc.oneof(
        { weight: 9, arbitrary: fc.array(hitArb, { maxLength: 5 }) },
        { weight: 1, arbitrary: scalar },
      ),
      answer: fc.oneof(
        fc.constant(null),
        fc.record({
          answer: scalar,
          citations: fc.array(fc.record({ chunk_id: scalar }), { maxLength: 2 }),
          grounded: fc.boolean(),
        }),
      ),
      elapsed_ms: scalar,
      error: scalar,
      status: fc.constantFrom('ok', 'error', 'timeout', 'done', null),
      abstained: fc.oneof(fc.boolean(), scalar),
    },
    { requiredKeys: ['hits_top_k'] },
  );
  /** The same value written several ways: compact, indented, with keys reordered. */
  const textArb = fc.tuple(resultArb, fc.constantFrom(0, 1, 2), fc.boolean()).map(([value, indent, reverse]) => {
    const order = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(order);
      if (v === null || typeof v !== 'object') return v;
      const entries = Object.entries(v).map(([k, x]) => [k, order(x)] as const);
      return Object.fromEntries(reverse ? entries.reverse() : entries);
    };
    return JSON.stringify(order(value), null, indent === 0 ? undefined : indent === 1 ? 1 : '\t');
  });

  it('agrees with the reference on generated texts, read one after another', () => {
    fc.assert(
      fc.property(fc.array(textArb, { minLength: 1, maxLength: 6 }), (texts) => {
        for (const text of texts) agree(text);
      }),
      { numRuns: 600, seed: 20261122 },
    );
  });

  it('agrees with the reference on mutated texts (malformed JSON is never accepted)', () => {
    const mutation = fc.tuple(
      textArb,
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.constantFrom('delete', 'insert', 'replace'),
          fc.constantFrom(...'"\\,:{}[]01-.e ntf\u0000\u001fx'),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    );
    fc.assert(
      fc.property(mutation, ([text, edits]) => {
        let t = text;
        for (const [at, kind, ch] of edits) {
          const i = t.length === 0 ? 0 : at % t.length;
          t =
            kind === 'delete'
              ? t.slice(0, i) + t.slice(i + 1)
              : kind === 'insert'
                ? t.slice(0, i) + ch + t.slice(i)
                : t.slice(0, i) + ch + t.slice(i + 1);
        }
        agree(text);
        agree(t);
      }),
      { numRuns: 1500, seed: 20261123 },
    );
  });

  /**
   * Runs whose hits share a shape (the same keys in the same order, the same fields null, the same layout) with
   * values that vary, and now and then break the shape (a null, an escape, another type, an exponent): the
   * templates learnt from one hit are tried on the next, and every row must still read as the reference reads it.
   */
  const HIT_FIELDS = [
    'rank',
    'chunk_id',
    'doc_id',
    'doc_path',
    'heading_path',
    'snippet',
    'score',
    'citation',
    'chunker_version',
    'section_label', // kebab's, like indexed_at: values of a template, never read
    'indexed_at',
    'extra',
  ] as const;
  const text = fc.string({ unit: fc.constantFrom(...'abc/#. -_]['), maxLength: 14 });
  const oddText = fc.string({ unit: fc.constantFrom(...'a"\\\t\u0001é😀'), maxLength: 4 });
  const shapeArb = fc.record({
    keys: fc.shuffledSubarray(
      [...HIT_FIELDS].filter((k) => k !== 'rank'),
      { minLength: 0 },
    ),
    rankAt: fc.nat(),
    nulls: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    citationKeys: fc.shuffledSubarray(['kind', 'path', 'start', 'end', 'section'], { minLength: 0 }),
    indent: fc.constantFrom(0, 0, 0, 2),
  });
  /** One value of `field` in the shape's kind: null where the shape has null, else a value (now and then an odd one). */
  function valueArb(field: string, isNull: boolean, citationKeys: string[]): fc.Arbitrary<unknown> {
    const odd = fc.oneof(
      fc.constant(null),
      oddText,
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant([]),
    );
    const usual = ((): fc.Arbitrary<unknown> => {
      switch (field) {
        case 'heading_path':
          return fc.array(text, { maxLength: 3 });
        case 'score':
          return fc.oneof(
            fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
            fc.integer(),
            fc.constantFrom(1e21, 5e-324, -0),
          );
        case 'citation':
          return fc.record(
            Object.fromEntries(
              citationKeys.map((k) => [
                k,
                k === 'kind'
                  ? fc.constant('line')
                  : k === 'path' || k === 'section'
                    ? text
                    : fc.integer({ min: 0, max: 500 }),
              ]),
            ),
          );
        case 'extra':
          return fc.oneof(fc.integer(), fc.constant({ nested: [1, 2] }));
        default:
          return text;
      }
    })();
    if (isNull) return fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: usual });
    return fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: odd });
  }
  const runArb = shapeArb.chain((shape) => {
    const keys: string[] = [...shape.keys];
    keys.splice(shape.rankAt % (keys.length + 1), 0, 'rank');
    const hitOf = (rank: number) =>
      fc
        .tuple(...keys.filter((k) => k !== 'rank').map((k, i) => valueArb(k, shape.nulls[i], shape.citationKeys)))
        .map((values) => {
          const h: Record<string, unknown> = {};
          let v = 0;
          for (const k of keys) h[k] = k === 'rank' ? rank : values[v++];
          return h;
        });
    const rowArb = fc
      .integer({ min: 1, max: 8 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => hitOf(i + 1))));
    return fc.tuple(fc.array(rowArb, { minLength: 1, maxLength: 4 }), fc.constant(shape.indent));
  });

  it('agrees with the reference on runs of hits that share a shape (the template path)', () => {
    const before = templateReadCount();
    fc.assert(
      fc.property(runArb, fc.nat(), ([rows, indent], at) => {
        for (const hits of rows) {
          const text = JSON.stringify({ query: 'q', hits_top_k: hits }, null, indent || undefined);
          agree(text);
          // A raw control character (JSON forbids them in strings; JSON.stringify never writes one) in the last hit.
          const from = text.lastIndexOf('{');
          const i = from + (at % (text.length - from));
          agree(`${text.slice(0, i)}\u0001${text.slice(i + 1)}`);
        }
      }),
      { numRuns: 400, seed: 20261124 },
    );
    // Most hits of such runs are read through a template.
    expect(templateReadCount() - before).toBeGreaterThan(1000);
  });

  it('keeps learnt templates honest when hits of a run change shape', () => {
    // The same keys with values that switch between null and a value, a citation that loses its path, an extra
    // key: each hit must read as the reference reads it, whatever template the previous row left behind.
    const rows = [
      result([hit(1), hit(2)]),
      result([hit(1, { chunker_version: null }), hit(2)]),
      result([hit(1, { citation: { kind: 'line', path: null, start: 3, end: 4 } }), hit(2, { citation: null })]),
      result([hit(1, { citation: { kind: 'line', path: 'x.md', start: 3, end: null } }), hit(2, { heading_path: [] })]),
      result([hit(1, { heading_path: ['A', 'B', 'C'] }), hit(2, { snippet: '' })]),
      result([hit(1, { snippet: 'with "quotes" and \\ backslash' }), hit(2, { extra: 1 }), hit(3, { extra: 2 })]),
      result([hit(1, { rank: 10 }), hit(2, { score: 1e300 }), hit(3, { score: -1.5e-7 })]),
      result([hit(1), hit(2)]),
      result([hit(1), hit(2, { snippet: 'tab:X' })]).replace('tab:X', 'tab:\t'),
      result([hit(1), hit(2, { doc_path: 'nul:X' })]).replace('nul:X', 'nul:\u0000'),
    ];
    for (const text of rows) agree(text);
  });
});
