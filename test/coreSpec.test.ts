/**
 * Coming from the 001 core-metrics runner (../shared/seeds/001-core-eval-metrics-spec.txt) and kebab's (000) nested
 * config: the spellings those writers use for facts EvalVerdict already reads, scored by the spec's own definitions.
 * Every expected value is worked out by hand next to it, naming the spec's section.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readResultRow } from '../src/load/queryResult.js';
import { scanResultJson, templateReadCount } from '../src/load/resultJson.js';
import { aggregateOf, removeTempDirs } from './helpers/runDb.js';
import type { Json, RunDbInput } from './helpers/runDb.js';

afterAll(removeTempDirs);

/** A result_json as the 001 runner writes it: `rel_path`, a `heading_path` text, `references`. */
function coreResult(queryId: string, hits: Json[], extra: Json = {}): Json {
  return { query_id: queryId, query: `question ${queryId}`, hits_top_k: hits, error: null, ...extra };
}

const GOLDEN = `
- id: q1
  query: how do I install on linux?
  vault: work
  gold_supports: [{rel_path: docs/setup.md, heading_path: "Setup > Install"}]
- id: q2
  query: when do I water the garden?
  vault: personal
  gold_supports: [{rel_path: notes/garden.md, heading_path: [Garden]}]
`;

const RUN: RunDbInput = {
  runs: [
    {
      runId: 'core-1',
      config: { embedding: { model: 'bge-m3', dim: 1024 }, chunker: { version: 'md-v3' } },
      results: [
        coreResult(
          'q1',
          [
            { rank: 1, rel_path: 'docs/other.md', heading_path: 'Setup > Install' },
            { rank: 2, rel_path: 'docs/setup.md', heading_path: 'Setup >  Install > Linux ' },
          ],
          {
            answer: {
              answer: 'Run the installer.',
              grounded: true,
              references: [{ rel_path: 'docs/setup.md', heading_path: 'Setup > Install' }],
            },
          },
        ),
        coreResult('q2', [{ rank: 1, rel_path: 'notes/garden.md', heading_path: 'Garden' }], {
          answer: { answer: 'Water at dawn.', grounded: true },
          // Beside the answer, as the runner's API response carries them.
          references: [{ rel_path: 'notes/greenhouse.md', heading_path: 'Garden' }],
        }),
      ],
    },
  ],
};

describe('the 001 runner’s result_json, read as written', () => {
  it('§1/§2: rel_path and an "A > B" heading_path match gold supports by path and heading prefix', async () => {
    const { json } = await aggregateOf(RUN, GOLDEN);
    const m = json.metrics;
    // q1: rank 1 is another file; rank 2 is docs/setup.md under Setup > Install > Linux, which starts with the
    // gold heading Setup > Install (§1 "starts with", spaces normalised): first match at rank 2.
    // q2: rank 1 is notes/garden.md under Garden: first match at rank 1.
    expect(m['hit@1']).toEqual({ value: 0.5, n: 2 }); // Recall_any@1: (0 + 1) / 2
    expect(m['hit@3']).toEqual({ value: 1, n: 2 }); // Recall_any@3: (1 + 1) / 2
    expect(m['mrr@10']).toEqual({ value: 0.75, n: 2 }); // §2 MRR: (1/2 + 1/1) / 2
  });

  it('§5: references [{rel_path, heading_path}], in the answer or beside it, are the cited references', async () => {
    const { json } = await aggregateOf(RUN, GOLDEN);
    const m = json.metrics;
    // §5 Attribution Hit Rate: q1 cites docs/setup.md > Setup > Install, which matches its gold support (1); q2 cites
    // notes/greenhouse.md, not notes/garden.md (0). Both answerable: (1 + 0) / 2.
    expect(m.attribution_hit_rate).toEqual({ value: 0.5, n: 2 });
    // Without a chunks table a citation resolves when a hit of the query carries its path: q1's does (rank 2),
    // q2's notes/greenhouse.md does not: 1 of 2 grounded answers.
    expect(m.citation_coverage).toEqual({ value: 0.5, n: 2 });
  });

  it('Breakdown Metrics, "Vault": a golden `vault` is a breakdown of its own', async () => {
    const { json } = await aggregateOf(RUN, GOLDEN);
    const vault = (json.breakdowns as Record<string, Record<string, Record<string, { value: number }>>>).vault;
    expect(Object.keys(vault)).toEqual(['personal', 'work']);
    expect(vault.work['hit@1'].value).toBe(0); // q1 alone
    expect(vault.personal['hit@1'].value).toBe(1); // q2 alone
  });

  it('a golden set without vaults keeps the report’s shape: no `vault` breakdown', async () => {
    const { json } = await aggregateOf(RUN, GOLDEN.replace(/ {2}vault: \w+\n/g, ''));
    expect(Object.keys(json.breakdowns as Json)).toEqual(['answerable', 'category', 'difficulty', 'tag']);
  });

  it('a reference by path and heading resolves to the chunk of that path whose heading starts with it', async () => {
    const golden = `
- id: q1
  query: how do I install on linux?
  gold_supports: [{rel_path: docs/setup.md, heading_path: "Setup > Install"}]
`;
    const input: RunDbInput = {
      runs: [
        {
          runId: 'core-1',
          results: [
            coreResult(
              'q1',
              [{ rank: 1, chunk_id: 'c1', rel_path: 'docs/setup.md', heading_path: 'Setup > Install' }],
              {
                answer: {
                  answer: 'Run the installer.',
                  references: [
                    { rel_path: 'docs/setup.md', heading_path: 'Setup > Install' },
                    { rel_path: 'docs/setup.md', heading_path: 'Setup > Uninstall' },
                  ],
                },
              },
            ),
          ],
        },
      ],
      chunks: [{ chunkId: 'c1', docId: 'd1', text: 'run it', headingPath: ['Setup', 'Install', 'Linux'] }],
      documents: [{ docId: 'd1', workspacePath: 'docs/setup.md' }],
    };
    const { json } = await aggregateOf(input, golden);
    // The first reference resolves to c1 (Setup > Install > Linux starts with Setup > Install); the second names a
    // section no chunk of docs/setup.md has, so the answer is not covered: 0 of 1.
    expect(json.metrics.citation_coverage).toEqual({ value: 0, n: 1 });
    const one = { ...input, runs: [{ ...input.runs[0] }] };
    const answer = (one.runs[0].results[0] as Json).answer as Json;
    one.runs[0].results = [
      { ...(one.runs[0].results[0] as Json), answer: { ...answer, references: [(answer.references as Json[])[0]] } },
    ];
    expect((await aggregateOf(one, golden)).json.metrics.citation_coverage).toEqual({ value: 1, n: 1 });
  });
});

describe("kebab's nested config_snapshot_json", () => {
  it('embedding.model is the run’s embedding model; chunker.version its chunker version', async () => {
    const { json } = await aggregateOf(RUN, GOLDEN);
    const run = json.run as Json;
    expect(run.embedding_model).toBe('bge-m3');
    expect(run.chunker_version).toBe('md-v3');
  });

  it('a top-level key wins over the nested one; a nested object is no value', async () => {
    const input = {
      runs: [
        { ...RUN.runs[0], config: { embedding_model: 'flat', embedding: { model: 'nested' }, index_version: {} } },
      ],
    };
    const run = (await aggregateOf(input, GOLDEN)).json.run as Json;
    expect(run.embedding_model).toBe('flat');
    expect(run.index_version).toBeNull();
  });
});

describe('the fast reader and the slow path agree on the 001 spellings', () => {
  const row = (heading: unknown, pathKey = 'rel_path') =>
    JSON.stringify({
      query: 'q',
      hits_top_k: [
        { rank: 1, chunk_id: 'a', [pathKey]: 'docs/a.md', heading_path: heading },
        { rank: 2, chunk_id: 'b', [pathKey]: 'docs/b.md', heading_path: heading },
      ],
      answer: null,
      error: null,
    });

  it('reads rel_path and a heading text through templates, splitting the text at `>`', () => {
    const before = templateReadCount();
    const text = row('Guide > Setup');
    expect(scanResultJson(text)).not.toBeNull();
    const read = readResultRow('run.sqlite', 'r1', 'q1', text);
    expect(templateReadCount()).toBeGreaterThan(before); // the second hit was read by the first one's template
    expect(read.hits.map((h) => [h.docPath, h.headingPath])).toEqual([
      ['docs/a.md', ['Guide', 'Setup']],
      ['docs/b.md', ['Guide', 'Setup']],
    ]);
    const slow = readResultRow('run.sqlite', 'r1', 'q1', text.replace('"query":"q"', '"query":"q","query":"q"'));
    expect(slow.hits.map((h) => [h.docPath, h.headingPath])).toEqual(read.hits.map((h) => [h.docPath, h.headingPath]));
  });

  it('doc_path wins over rel_path when a hit has both (either reader)', () => {
    const text = JSON.stringify({
      hits_top_k: [{ rank: 1, doc_path: 'docs/doc.md', rel_path: 'docs/rel.md' }],
      answer: null,
    });
    expect(readResultRow('run.sqlite', 'r1', 'q1', text).hits[0].docPath).toBe('docs/doc.md');
    const reversed = JSON.stringify({ hits_top_k: [{ rank: 1, rel_path: 'docs/rel.md', doc_path: 'docs/doc.md' }] });
    expect(readResultRow('run.sqlite', 'r1', 'q1', reversed).hits[0].docPath).toBe('docs/doc.md');
  });

  it('references that are not a list are refused, naming the field', () => {
    const text = JSON.stringify({ hits_top_k: [], answer: { answer: 'x', references: 'docs/a.md' } });
    expect(() => readResultRow('run.sqlite', 'r1', 'q1', text)).toThrow(
      /query `q1`: `answer.references` must be a list, got "docs\/a.md"/,
    );
  });
});

describe('001 "Judge Reliability Spot-Check", "Performance Metrics" (judge tokens), "Indexing Coverage Metrics"', () => {
  const golden = `
- id: q1
  query: one
  answerable: true
- id: q2
  query: two
  answerable: true
- id: q3
  query: three
  answerable: true
`;
  const judged = (id: string, judge: Json) => coreResult(id, [], { answer: { answer: 'x' }, judge });
  const input: RunDbInput = {
    runs: [
      {
        runId: 'r1',
        results: [
          // 5 vs 3: more than 1 point apart, a disagreement
          judged('q1', {
            groundedness: 5,
            spot_check: { groundedness: 3 },
            usage: { prompt_tokens: 900, completion_tokens: 40 },
          }),
          // 4 vs 5, 2 vs 2: within 1 point, agreement
          judged('q2', {
            groundedness: 4,
            correctness: 2,
            spot_check: { groundedness: 5, correctness: 2 },
            usage: { prompt_tokens: 1100, completion_tokens: 60 },
          }),
          // no spot check; no usage
          judged('q3', { groundedness: 4 }),
        ],
      },
    ],
    chunks: [
      { chunkId: 'c1', docId: 'd1', text: 'a' },
      { chunkId: 'c2', docId: 'd1', text: 'b' },
      { chunkId: 'c3', docId: 'd2', text: 'c' },
    ],
    documents: [
      { docId: 'd1', workspacePath: 'a.md' },
      { docId: 'd2', workspacePath: 'b.pdf' },
      { docId: 'd3', workspacePath: 'c.pdf' },
      { docId: 'd4', workspacePath: 'd.go' },
    ],
  };

  it('judge_reliability: {disagreement_rate, spot_check_n} as metrics.json carries it: 1 disagreement in 2 spot checks', async () => {
    const { json } = await aggregateOf(input, golden);
    expect(json.judge_reliability).toEqual({ disagreement_rate: 0.5, spot_check_n: 2 });
  });

  it('no spot check at all: no judge_reliability object', async () => {
    const none = structuredClone(input);
    none.runs[0].results = [judged('q1', { groundedness: 5 })];
    expect((await aggregateOf(none, golden)).json.judge_reliability).toBeUndefined();
  });

  it('judge tokens: the sums of judge.usage (900 + 1100, 40 + 60), over the 2 results that report them', async () => {
    const m = (await aggregateOf(input, golden)).json.metrics;
    expect(m.judge_prompt_tokens_total).toEqual({ value: 2000, n: 2 });
    expect(m.judge_completion_tokens_total).toEqual({ value: 100, n: 2 });
    expect(m.prompt_tokens_total).toEqual({ value: null, n: 0 }); // the answering model's, not the judge's
  });

  it('No Chunks Generated Rate: documents d3 and d4 have no chunk, 2 of 4', async () => {
    const m = (await aggregateOf(input, golden)).json.metrics;
    expect(m.documents_without_chunks).toEqual({ value: 2, n: 4 });
    expect(m.documents_without_chunks_rate).toEqual({ value: 0.5, n: 4 });
  });
});

describe('001 "Chunks Skipped Due to Context": index_stats in the config snapshot', () => {
  const golden = '- id: q1\n  query: one\n  answerable: true\n';
  const withStats = (index_stats: Json): RunDbInput => ({
    runs: [{ runId: 'r1', config: { index_stats }, results: [coreResult('q1', [])] }],
  });

  it('5 skipped of 45 embedded + 5: 5 / 50 = 0.1 over 50 chunks; attempted, when given, is the denominator', async () => {
    const rate = async (stats: Json) => (await aggregateOf(withStats(stats), golden)).json.metrics.chunks_skipped_rate;
    expect(await rate({ chunks_embedded: 45, chunks_skipped: 5 })).toEqual({ value: 0.1, n: 50 });
    expect(await rate({ chunks_attempted: 80, chunks_embedded: 75, chunks_skipped: 4 })).toEqual({
      value: 0.05,
      n: 80,
    });
    expect(await rate({ chunks_embedded: 45 })).toEqual({ value: null, n: 0 }); // nothing says what was skipped
    expect(
      (await aggregateOf({ runs: [{ runId: 'r1', results: [coreResult('q1', [])] }] }, golden)).json.metrics
        .chunks_skipped_rate,
    ).toEqual({ value: null, n: 0 });
  });

  it('a count that is no count, or more skipped than attempted: refused, naming the run and the field', async () => {
    await expect(aggregateOf(withStats({ chunks_attempted: 3, chunks_skipped: 4 }), golden)).rejects.toThrow(
      /run `r1`, column `config_snapshot_json`, `index_stats`: `chunks_skipped` \(4\) is more than `chunks_attempted` \(3\)/,
    );
    await expect(aggregateOf(withStats({ chunks_skipped: -1, chunks_attempted: 3 }), golden)).rejects.toThrow(
      /`index_stats`: `chunks_skipped` must be a count \(a whole number >= 0\), got number -1/,
    );
  });
});

describe('001 recency/conflict "acknowledge_both - must acknowledge conflict and cite both"', () => {
  const golden = `
- id: q1
  query: which policy is current?
  recency_conflict_rule: acknowledge_both
  gold_supports: [{rel_path: old.md, newer: false}, {rel_path: new.md, newer: true}]
- id: q2
  query: which policy is current, said?
  recency_conflict_rule: acknowledge_both
  gold_supports: [{rel_path: old.md, newer: false}, {rel_path: new.md, newer: true}]
- id: q3
  query: which policy is current, unsaid?
  recency_conflict_rule: acknowledge_both
  gold_supports: [{rel_path: old.md, newer: false}, {rel_path: new.md, newer: true}]
`;
  const both = [
    { rel_path: 'old.md', heading_path: [] },
    { rel_path: 'new.md', heading_path: [] },
  ];
  const hits = [
    { rank: 1, rel_path: 'old.md' },
    { rank: 2, rel_path: 'new.md' },
  ];
  const input: RunDbInput = {
    runs: [
      {
        runId: 'r1',
        results: [
          // cites both but says it did not acknowledge the conflict: 0
          coreResult('q1', hits, { answer: { answer: 'x', references: both, conflict_acknowledged: false } }),
          // cites both and acknowledges it (beside the answer): 1
          coreResult('q2', hits, { answer: { answer: 'x', references: both }, conflict_acknowledged: true }),
          // cites both, says nothing: judged by its citations, 1
          coreResult('q3', hits, { answer: { answer: 'x', references: both } }),
        ],
      },
    ],
  };

  it('a result saying conflict_acknowledged: false fails though it cites both: (0 + 1 + 1) / 3', async () => {
    const { json } = await aggregateOf(input, golden);
    expect(json.metrics.recency_conflict_correctness.n).toBe(3);
    expect(json.metrics.recency_conflict_correctness.value).toBeCloseTo(2 / 3, 4);
  });
});

describe('001 "Coverage by Doc Type": documents without chunks per type', () => {
  it('md 1 of 1 chunked, pdf 1 of 2, go 0 of 1', async () => {
    const input: RunDbInput = {
      runs: [{ runId: 'r1', results: [coreResult('q1', [])] }],
      chunks: [
        { chunkId: 'c1', docId: 'd1', text: 'a' },
        { chunkId: 'c2', docId: 'd2', text: 'b' },
      ],
      documents: [
        { docId: 'd1', workspacePath: 'notes/a.md' },
        { docId: 'd2', workspacePath: 'papers/B.PDF' },
        { docId: 'd3', workspacePath: 'papers/c.pdf' },
        { docId: 'd4', workspacePath: 'src/d.go' },
      ],
    };
    const { json } = await aggregateOf(input, '- id: q1\n  query: one\n  answerable: true\n');
    expect(json.coverage_by_doc_type).toEqual({
      go: { documents: 1, without_chunks: 1, without_chunks_rate: 1 },
      md: { documents: 1, without_chunks: 0, without_chunks_rate: 0 },
      pdf: { documents: 2, without_chunks: 1, without_chunks_rate: 0.5 },
    });
  });
});
