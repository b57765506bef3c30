/**
 * Hand-worked values of the metrics and matching rules that had no test of their value: each database is built
 * from plain objects, read back through the loader and scored with computeAggregate (see aggregate.test.ts).
 * Every expected value, and its denominator `n`, is worked out by hand in the comment next to it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { aggregateOf, answer, hit, removeTempDirs, result } from './helpers/runDb.js';
import type { Json, RunDbInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

// Golden sets of run-level metrics state `answerable: true` (the default): a set with no expectation is refused.

const run = (results: RunDbInput['runs'][number]['results'], extra: Partial<RunDbInput> = {}): RunDbInput => ({
  runs: [{ runId: 'r1', createdAt: '2024-01-01T00:00:00Z', results }],
  ...extra,
});

/** A hit of `path` under `heading` (what gold supports match on). */
const at = (rank: number, chunkId: string, path: string, heading: string[] = [], extra: Json = {}) =>
  hit(rank, chunkId, `doc-${chunkId}`, { doc_path: path, heading_path: heading, ...extra });

/** An answer citing each chunk id in turn. */
const citing = (...ids: string[]) => {
  const markers = ids.map((_, i) => `[${i + 1}]`);
  return answer(
    `see ${markers.join(' ')}`,
    ids.map((id, i) => ({ marker: markers[i], chunk_id: id, citation: {} })),
  );
};

describe('recall_all@k (multi-hop)', () => {
  const golden = `
- id: m1
  query: both hops found, the second at rank 3
  gold_supports: [{rel_path: a.md}, {rel_path: b.md}]
  required_support_groups: [[0], [1]]
- id: m2
  query: second group met by either support, only at rank 7
  gold_supports: [{rel_path: a.md}, {rel_path: b.md}, {rel_path: c.md}]
  required_support_groups: [[0], [1, 2]]
- id: m3
  query: second group never met
  gold_supports: [{rel_path: a.md}, {rel_path: b.md}]
  required_support_groups: [[0], [1]]
- id: m4
  query: supports but no groups
  gold_supports: [{rel_path: a.md}]
- id: m5
  query: no supports at all
  expected_chunk_ids: [x1]
`;
  const results = [
    result('m1', [at(1, 'a1', 'a.md'), at(3, 'b1', 'b.md')]),
    result('m2', [at(1, 'a1', 'a.md'), at(2, 'z1', 'z.md'), at(7, 'c1', 'c.md')]),
    result('m3', [at(1, 'a1', 'a.md'), at(2, 'z1', 'z.md')]),
    result('m4', [at(1, 'a1', 'a.md')]),
    result('m5', [at(1, 'x1', 'x.md')]),
  ];

  it('is 1 only when every group is met within k; queries without groups are not in n', async () => {
    const { json } = await aggregateOf(run(results), golden);
    // n = 3 (m1, m2, m3 have required_support_groups; m4 and m5 have none: null, left out)
    // @1: m1 group [1] first met at rank 3 > 1 -> 0; m2 group [1, 2] at rank 7 -> 0; m3 0 -> 0/3
    expect(json.metrics['recall_all@1']).toEqual({ value: 0, n: 3 });
    // @3: m1 groups met at ranks 1 and 3 <= 3 -> 1; m2 rank 7 > 3 -> 0; m3 -> 0: 1/3 = 0.3333
    expect(json.metrics['recall_all@3']).toEqual({ value: 0.3333, n: 3 });
    // @5: the same, rank 7 > 5: 1/3
    expect(json.metrics['recall_all@5']).toEqual({ value: 0.3333, n: 3 });
    // @10: m2's group [1, 2] met by support 2 (c.md) at rank 7 <= 10 -> 1; m3 still 0: 2/3 = 0.6667
    expect(json.metrics['recall_all@10']).toEqual({ value: 0.6667, n: 3 });
  });

  it('is null (n 0) when no query has groups', async () => {
    // only m4 (supports, no groups) and m5 (no supports): no query is in the denominator
    const { json } = await aggregateOf(run(results.slice(3)), golden.slice(golden.indexOf('- id: m4')));
    expect(json.metrics['recall_all@10']).toStrictEqual({ value: null, n: 0 });
  });
});

describe('claim_containment', () => {
  it('finds the gold_claim in the answer case-insensitively with white space folded; a refusal counts 0', async () => {
    const golden = `
- id: c1
  query: folded answer
  gold_claim: rate limit is 10 requests
- id: c2
  query: folded claim
  gold_claim: "  Retries  back   off "
- id: c3
  query: not said
  gold_claim: rate limit is 10 requests
- id: c4
  query: refused
  gold_claim: rate limit is 10 requests
- id: c5
  query: retrieval only
  gold_claim: rate limit is 10 requests
- id: c6
  query: no claim
`;
    const { json } = await aggregateOf(
      run([
        result('c1', [], { answer: answer('The RATE  limit\nis 10\trequests per second.') }), // folds to "... rate limit is 10 requests ..." -> 1
        result('c2', [], { answer: answer('On failure, retries back off exponentially.') }), // claim folds to "retries back off" -> 1
        result('c3', [], { answer: answer('The rate limit is 20 requests.') }), // 0
        result('c4', [], { answer: answer('The rate limit is 10 requests, maybe.', [], { grounded: false }) }), // refusal -> 0
        result('c5', []), // no answer object: not answered -> 0
        result('c6', [], { answer: answer('anything') }), // no gold_claim: not in n
      ]),
      golden,
    );
    // c1..c5 have gold_claim: found in c1, c2 -> 2/5 = 0.4
    expect(json.metrics.claim_containment).toEqual({ value: 0.4, n: 5 });
  });
});

describe('recency_conflict_correctness', () => {
  const supports =
    'gold_supports: [{rel_path: docs/old.md, heading_path: [Limits]}, {rel_path: docs/new.md, heading_path: [Limits], newer: true}]';
  const rules: Array<[string, string]> = [
    ['r1', 'cite_newer'],
    ['r2', 'cite_newer'],
    ['r3', 'cite_newer'],
    ['r4', 'cite_both'],
    ['r5', 'acknowledge_both'],
    ['r6', 'acknowledge_both'],
    ['r7', 'cite_newer'],
  ];
  const golden = `${rules
    .map(([id, rule]) => `- id: ${id}\n  query: ${id}\n  ${supports}\n  recency_conflict_rule: ${rule}\n`)
    .join('')}- id: r8\n  query: no rule\n  ${supports}\n`;
  const hits = [at(1, 'old', 'docs/old.md', ['Limits']), at(2, 'new', 'docs/new.md', ['Limits'])];

  it('cite_newer wants the newer support alone, cite_both and acknowledge_both one of each', async () => {
    const { json } = await aggregateOf(
      run([
        result('r1', hits, { answer: citing('new') }), // cite_newer, newer only -> 1
        result('r2', hits, { answer: citing('new', 'old') }), // cite_newer, older cited too -> 0
        result('r3', hits, { answer: citing('old') }), // cite_newer, older only -> 0
        result('r4', hits, { answer: citing('old', 'new') }), // cite_both, both -> 1
        result('r5', hits, { answer: citing('new') }), // acknowledge_both, newer only -> 0
        result('r6', hits, { answer: citing('new', 'old') }), // acknowledge_both, both -> 1
        result('r7', hits, { answer: answer('no', [{ chunk_id: 'new', citation: {} }], { grounded: false }) }), // refused -> 0
        result('r8', hits, { answer: citing('new') }), // no rule: not in n
      ]),
      golden,
    );
    // r1..r7 have a rule: correct r1, r4, r6 -> 3/7 = 0.42857... -> 0.4286
    expect(json.metrics.recency_conflict_correctness).toEqual({ value: 0.4286, n: 7 });
  });
});

describe('answer_precision', () => {
  it('answered queries that are answerable and cite a relevant chunk', async () => {
    const golden =
      ['p1', 'p2', 'p3', 'p5', 'p6'].map((id) => `- id: ${id}\n  query: ${id}\n  expected_chunk_ids: [c1]\n`).join('') +
      `
- id: p4
  query: should refuse, yet the relevant chunk is cited
  answerable: false
  expected_chunk_ids: [c1]
`;
    const hits = [hit(1, 'c1', 'd1'), hit(2, 'c9', 'd9')];
    const { json } = await aggregateOf(
      run([
        result('p1', hits, { answer: citing('c1') }), // relevant citation -> 1
        result('p2', hits, { answer: citing('c9') }), // irrelevant citation -> 0
        result('p3', hits, { answer: answer('no citations') }), // -> 0
        result('p4', hits, { answer: citing('c1') }), // not answerable -> 0
        result('p5', hits, { answer: answer('refused', [{ chunk_id: 'c1', citation: {} }], { grounded: false }) }), // refused: not in n
        result('p6', hits), // no answer: not in n
      ]),
      golden,
    );
    // answered: p1..p4 -> 1/4 = 0.25
    expect(json.metrics.answer_precision).toEqual({ value: 0.25, n: 4 });
  });
});

describe('citation_schema_compliance', () => {
  it('an answer with a citation, or a refusal, complies; the abstained flag decides refusal', async () => {
    const golden = ['s1', 's2', 's3', 's4', 's5', 's6', 's7']
      .map((id) => `- id: ${id}\n  query: ${id}\n  answerable: true\n`)
      .join('');
    const { json } = await aggregateOf(
      run([
        result('s1', [], { answer: citing('nowhere') }), // a citation (resolving or not) -> 1
        result('s2', [], { answer: answer('uncited') }), // no citation, not a refusal -> 0
        result('s3', [], { answer: answer('cannot say', [], { grounded: false }) }), // refusal -> 1
        result('s4', [], { abstained: true, answer: answer('uncited') }), // abstained (grounded true): a refusal -> 1
        result('s5', [], { abstained: true, answer: answer('') }), // the same -> 1
        result('s6', [], { abstained: false, answer: answer('uncited', [], { grounded: false }) }), // flag says answered -> 0
        result('s7', []), // no answer object: not in n
      ]),
      golden,
    );
    // s1..s6: 4/6 = 0.6667
    expect(json.metrics.citation_schema_compliance).toEqual({ value: 0.6667, n: 6 });
  });
});

describe('error_rate and timeout_rate', () => {
  it('read status, else a non-null error as status error; a missing result is not in n', async () => {
    const ids = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10'];
    const golden = ids.map((id) => `- id: ${id}\n  query: ${id}\n  answerable: true\n`).join('');
    const { json } = await aggregateOf(
      run([
        result('e1', [], { status: 'ok' }), // ok
        result('e2', [], { status: 'error' }), // error
        result('e3', [], { status: 'timeout' }), // timeout
        result('e4', [], { error: 'boom' }), // no status, kebab's error string -> error
        result('e5', [], { status: 'timeout', error: 'deadline exceeded' }), // status wins -> timeout
        result('e6', []), // no status, error null -> ok
        // e7 missing from the run: no result, not in n
        result('e8', [], { status: 'ok', error: 'retried once' }), // status given -> ok
        result('e9', [], { status: 'error', error: 'boom' }), // error
        result('e10', [], { error: '' }), // no status, an empty error string is still non-null -> error
      ]),
      golden,
    );
    // 9 results. The 001 spec's Error Rate is failed / timed out / empty: errors e2, e4, e9, e10 and timeouts e3,
    // e5 -> 6/9 = 0.6667 (no answer here is empty); timeouts alone e3, e5 -> 2/9 = 0.2222
    expect(json.metrics.error_rate).toEqual({ value: 0.6667, n: 9 });
    expect(json.metrics.timeout_rate).toEqual({ value: 0.2222, n: 9 });
  });

  it('001 "Operational Metrics": an empty answer is an error too; a failed result is in the empty rate at 0', async () => {
    const ids = ['o1', 'o2', 'o3', 'o4', 'o5'];
    const golden = ids.map((id) => `- id: ${id}\n  query: ${id}\n  answerable: true\n`).join('');
    const { json } = await aggregateOf(
      run([
        result('o1', [], { answer: answer('fine') }), // ok
        result('o2', [], { answer: answer('  ') }), // returned empty
        result('o3', [], { status: 'timeout' }), // timed out, no answer
        result('o4', [], { status: 'error', error: 'boom' }), // failed, no answer
        result('o5', [], { answer: answer('', [], { grounded: false }) }), // a blank refusal: not empty
      ]),
      golden,
    );
    // Error Rate: o2, o3, o4 of 5 = 0.6. Empty Response Rate: o2 of 5 cases (o3 and o4 count 0) = 0.2.
    expect(json.metrics.error_rate).toEqual({ value: 0.6, n: 5 });
    expect(json.metrics.empty_answer_rate).toEqual({ value: 0.2, n: 5 });
  });
});

describe('empty_answer_rate', () => {
  it('blank answers that are not refusals, over answer objects', async () => {
    const golden = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']
      .map((id) => `- id: ${id}\n  query: ${id}\n  answerable: true\n`)
      .join('');
    const { json } = await aggregateOf(
      run([
        result('a1', [], { answer: answer('') }), // empty -> 1
        result('a2', [], { answer: answer(' \n\t ') }), // white space only -> 1
        result('a3', [], { answer: answer('ok') }), // -> 0
        result('a4', [], { answer: answer('', [], { grounded: false }) }), // blank refusal -> 0
        result('a5', [], { abstained: true, answer: answer('') }), // abstained: a refusal -> 0
        result('a6', []), // no answer object: not in n
      ]),
      golden,
    );
    // a1..a5: 2/5 = 0.4
    expect(json.metrics.empty_answer_rate).toEqual({ value: 0.4, n: 5 });
  });
});

describe('cost and token totals', () => {
  it('sum cost_usd and answer.usage, each over the results that carry it', async () => {
    const golden = ['t1', 't2', 't3', 't4'].map((id) => `- id: ${id}\n  query: ${id}\n  answerable: true\n`).join('');
    const { json } = await aggregateOf(
      run([
        result('t1', [], {
          cost_usd: 0.0125,
          answer: answer('a', [], { usage: { prompt_tokens: 800, completion_tokens: 60, latency_ms: 900 } }),
        }),
        result('t2', [], { cost_usd: 0.0075, answer: answer('b', [], { usage: { prompt_tokens: 1200 } }) }),
        result('t3', [], { answer: answer('c') }), // no cost, no usage
        result('t4', [], { cost_usd: 0 }), // a zero cost is a value; no answer
      ]),
      golden,
    );
    // prompt: 800 + 1200 = 2000 over t1, t2; completion: 60 over t1 alone
    expect(json.metrics.prompt_tokens_total).toEqual({ value: 2000, n: 2 });
    expect(json.metrics.completion_tokens_total).toEqual({ value: 60, n: 1 });
    // cost: 0.0125 + 0.0075 + 0 = 0.02 over t1, t2, t4
    expect(json.metrics.cost_usd_total).toEqual({ value: 0.02, n: 3 });
  });
});

describe('chunk token statistics', () => {
  const golden = '- id: q1\n  query: q1\n  answerable: true\n';

  it('min, mean, nearest-rank p95 and max of chunks.token_estimate, compared as numbers', async () => {
    // 5, 10, ..., 100 (20 chunks) stored scrambled; as text "10" < "100" < "15" < ... < "5" would sort otherwise
    const tokens = [35, 100, 5, 60, 15, 90, 40, 75, 20, 95, 50, 10, 85, 30, 65, 45, 80, 25, 70, 55];
    const chunks = tokens.map((t, i) => ({ chunkId: `k${i}`, docId: 'd1', text: `chunk ${i}`, tokenEstimate: t }));
    const { json } = await aggregateOf(run([result('q1', [])], { chunks }), golden);
    expect(json.metrics.chunk_tokens_min).toEqual({ value: 5, n: 20 });
    // (5 + 100) * 20 / 2 = 1050; 1050 / 20 = 52.5
    expect(json.metrics.chunk_tokens_mean).toEqual({ value: 52.5, n: 20 });
    // nearest rank: ceil(0.95 * 20) = 19th smallest = 95 (not the max)
    expect(json.metrics.chunk_tokens_p95).toEqual({ value: 95, n: 20 });
    expect(json.metrics.chunk_tokens_max).toEqual({ value: 100, n: 20 });
  });

  it('p95 of 21 chunks is the 20th; without a chunks table every statistic is null', async () => {
    const chunks = Array.from({ length: 21 }, (_, i) => ({
      chunkId: `k${i}`,
      docId: 'd1',
      text: 't',
      tokenEstimate: i + 1,
    }));
    const { json } = await aggregateOf(run([result('q1', [])], { chunks }), golden);
    // 1..21: ceil(0.95 * 21) = ceil(19.95) = 20th smallest = 20; mean 231 / 21 = 11
    expect(json.metrics.chunk_tokens_p95).toEqual({ value: 20, n: 21 });
    expect(json.metrics.chunk_tokens_mean).toEqual({ value: 11, n: 21 });
    const none = await aggregateOf(run([result('q1', [])]), golden);
    for (const id of ['chunk_tokens_min', 'chunk_tokens_mean', 'chunk_tokens_p95', 'chunk_tokens_max']) {
      expect(none.json.metrics[id]).toStrictEqual({ value: null, n: 0 });
    }
  });
});

describe('matching edge cases', () => {
  it('expected_lines overlap is inclusive: ranges touching at one line match, one line apart do not', async () => {
    const lines = (id: string, file: string, start: number, end: number) =>
      `- id: ${id}\n  query: ${id}\n  expected_lines: {file: ${file}, line_range: [${start}, ${end}]}\n`;
    const golden =
      lines('l1', 'src/x.py', 10, 20) +
      lines('l2', 'src/x.py', 10, 19) +
      lines('l3', 'src/x.py', 30, 40) +
      lines('l4', 'src/x.py', 31, 40) +
      lines('l5', 'src/other.py', 20, 30);
    // every query's only hit cites src/x.py lines 20-30
    const cited = [hit(1, 'c1', 'd1', { citation: { kind: 'line', path: 'src/x.py', start: 20, end: 30 } })];
    const { json } = await aggregateOf(run(['l1', 'l2', 'l3', 'l4', 'l5'].map((id) => result(id, cited))), golden);
    // l1 [10,20] touches at 20 -> 1; l2 [10,19] ends a line before -> 0; l3 [30,40] touches at 30 -> 1;
    // l4 [31,40] starts a line after -> 0; l5 overlaps but in another file -> 0: hit@1 = 2/5 = 0.4
    expect(json.metrics['hit@1']).toEqual({ value: 0.4, n: 5 });
  });

  it('a ranked hit meets a gold support whose heading segments differ only in spaces (trimmed, runs collapsed)', async () => {
    const golden = `
- id: h1
  query: spaces in the support
  gold_supports: [{rel_path: docs/guide.md, heading_path: ["  Getting   started  ", Install]}]
- id: h2
  query: spaces in the hit
  gold_supports: [{rel_path: docs/guide.md, heading_path: [Getting started]}]
- id: h3
  query: spaces removed is another heading
  gold_supports: [{rel_path: docs/guide.md, heading_path: [Getting started]}]
- id: h4
  query: the hit's heading is shorter than the support's
  gold_supports: [{rel_path: docs/guide.md, heading_path: [Getting started, Install]}]
`;
    const { json } = await aggregateOf(
      run([
        result('h1', [at(1, 'g1', 'docs/guide.md', ['Getting started', 'Install', 'Linux'])]), // prefix after folding -> 1
        result('h2', [at(1, 'g1', 'docs/guide.md', [' Getting \t started '])]), // -> 1
        result('h3', [at(1, 'g1', 'docs/guide.md', ['Gettingstarted'])]), // -> 0
        result('h4', [at(1, 'g1', 'docs/guide.md', ['Getting started'])]), // -> 0
      ]),
      golden,
    );
    // no answers, so only the ranked hits can match: 2/4 = 0.5
    expect(json.metrics['hit@1']).toEqual({ value: 0.5, n: 4 });
  });

  const snippetGolden = ['k1', 'k2', 'k3']
    .map(
      (id) =>
        `- id: ${id}\n  query: ${id}\n  gold_supports: [{rel_path: docs/a.md, heading_path: [Setup], snippets: [Rate Limit]}]\n`,
    )
    .join('');

  it("a support's snippets are looked for case-insensitively in the chunk's text from the chunks table", async () => {
    const { json } = await aggregateOf(
      run(
        [
          result('k1', [at(1, 'c1', 'docs/a.md', ['Setup'])]), // c1's text "The RATE LIMIT is 10 per second." -> 1
          result('k2', [at(1, 'c2', 'docs/a.md', ['Setup'], { snippet: 'the rate limit' })]), // c2's text has none; its chunk text wins over the snippet -> 0
          result('k3', [at(1, 'c3', 'docs/a.md', ['Setup'], { snippet: 'the rate LIMIT' })]), // c3 not in chunks: the snippet -> 1
        ],
        {
          chunks: [
            { chunkId: 'c1', docId: 'doc-c1', text: 'The RATE LIMIT is 10 per second.' },
            { chunkId: 'c2', docId: 'doc-c2', text: 'Nothing about limits.' },
          ],
        },
      ),
      snippetGolden,
    );
    // 2/3 = 0.6667
    expect(json.metrics['hit@1']).toEqual({ value: 0.6667, n: 3 });
  });

  it("without a chunks table, a support's snippets are looked for in the hit's snippet", async () => {
    const { json } = await aggregateOf(
      run([
        result('k1', [at(1, 'c1', 'docs/a.md', ['Setup'], { snippet: 'See the RATE limit section' })]), // -> 1
        result('k2', [at(1, 'c2', 'docs/a.md', ['Setup'], { snippet: 'No limits here' })]), // -> 0
        result('k3', [at(1, 'c3', 'docs/a.md', ['Setup'])]), // no snippet, no chunk text -> 0
      ]),
      snippetGolden,
    );
    // 1/3 = 0.3333
    expect(json.metrics['hit@1']).toEqual({ value: 0.3333, n: 3 });
  });
});
