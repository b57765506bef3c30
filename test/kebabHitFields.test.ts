/**
 * Issue 46: kebab's own hit fields (`section_label`, `index_version`, `embedding_model`, `indexed_at`, `stale`,
 * `score_kind`, a citation's `section`) are known keys: no command warns of them, they change no number, and the fast
 * reader keeps kebab's hits on its template path. Truly unknown keys and misspellings are still named, with the same
 * counts by `evalverdict validate` and by compare.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readResultRow } from '../src/load/queryResult.js';
import { templateReadCount } from '../src/load/resultJson.js';
import { runCompare } from '../src/pipeline/runCompare.js';
import { removeTempDirs, result, runCli, writeGolden, writeRunDb } from './helpers/runDb.js';
import type { Json } from './helpers/runDb.js';

afterAll(removeTempDirs);

const KEBAB_HIT_FIELDS = ['section_label', 'index_version', 'embedding_model', 'indexed_at', 'stale', 'score_kind'];
const QUERIES = 300;
const HITS = 5;
const id = (i: number) => `q${String(i).padStart(3, '0')}`;

/** Hit `rank` of query i in kebab's shape: every kebab field, the section label and times differing per hit. */
function kebabHit(i: number, rank: number, withKebabFields = true): Json {
  const doc = `d${(i * 7 + rank * 3) % 40}`;
  const h: Json = {
    rank,
    chunk_id: `${doc}#${rank}`,
    doc_id: doc,
    doc_path: `notes/${doc}.md`,
    heading_path: ['Notes', `Part ${rank}`],
    snippet: `text of ${doc}, part ${rank}`,
    score: 1 / (rank + (i % 3)),
    citation: { kind: 'line', path: `notes/${doc}.md`, start: rank * 10, end: rank * 10 + 9 },
    chunker_version: 'v3',
  };
  if (!withKebabFields) return h;
  (h.citation as Json).section = `Part ${rank} of ${doc}`;
  return {
    ...h,
    section_label: `${doc} › Part ${rank}`,
    index_version: 7,
    embedding_model: 'bge-m3',
    indexed_at: `2026-11-${String(1 + ((i + rank) % 28)).padStart(2, '0')}T08:00:00Z`,
    stale: (i + rank) % 11 === 0,
    score_kind: 'hybrid_rrf',
  };
}

/** A kebab run; `change(i, hit)` edits each hit of query i (a runner's mistake). */
function kebabRun(runId: string, createdAt: string, change: (i: number, h: Json) => Json = (_, h) => h, kebab = true) {
  const results = Array.from({ length: QUERIES }, (_, i) =>
    result(
      id(i),
      Array.from({ length: HITS }, (_, r) => change(i, kebabHit(i, r + 1, kebab))),
    ),
  );
  return { runs: [{ runId, createdAt, results }] };
}

function golden(): string {
  return writeGolden(
    Array.from(
      { length: QUERIES },
      (_, i) => `- id: ${id(i)}\n  query: question ${i}\n  expected_doc_ids: [d${(i * 7 + 6) % 40}]\n`,
    ).join(''),
  );
}

/** Renames `from` to `to` in a hit, in its place among the keys. */
const renamed = (h: Json, from: string, to: string): Json =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k === from ? to : k, v]));

describe("kebab's documented hit fields", () => {
  it('raise no finding or warning in validate, aggregate or compare, and change no number', async () => {
    const goldenPath = golden();
    const kebab = await writeRunDb(kebabRun('kb', '2026-11-02T00:00:00Z'));
    const plain = await writeRunDb(kebabRun('plain', '2026-11-01T00:00:00Z', undefined, false));
    const validated = await runCli(['validate', kebab, '--golden', goldenPath]);
    expect(validated).toMatchObject({ status: 0, stderr: '' });
    expect(validated.stdout).toBe(`${kebab}: run \`kb\`: ${QUERIES} results checked, no findings\n`);

    const [withFields, without] = await Promise.all(
      [kebab, plain].map((file) => runCli(['aggregate', file, '--golden', goldenPath, '--json'])),
    );
    expect(withFields.stderr).toBe('');
    const metrics = (r: { stdout: string }) => JSON.parse(r.stdout).metrics;
    expect(metrics(withFields)['hit@5'].n).toBe(QUERIES);
    expect(metrics(withFields)).toEqual(metrics(without));

    const out = await runCompare({ baselinePath: plain, candidatePath: kebab, goldenPath });
    expect(out.warnings.filter((w) => 'text' in w)).toEqual([]);
    expect(JSON.parse(out.json)).not.toHaveProperty('runner_warnings');
  });

  it('leave truly unknown keys and misspellings named, with the same counts by validate and compare', async () => {
    const goldenPath = golden();
    const baseline = await writeRunDb(kebabRun('base', '2026-11-01T00:00:00Z'));
    // chunk_id misspelt on every third query, a kebab field misspelt on every seventh, a key no one reads on every fifth
    const candidate = await writeRunDb(
      kebabRun('cand', '2026-11-02T00:00:00Z', (i, h) => {
        let edited = h;
        if (i % 3 === 1) edited = renamed(edited, 'chunk_id', 'chunkId');
        if (i % 7 === 3) edited = renamed(edited, 'section_label', 'section_lable');
        if (i % 5 === 0) edited = { ...edited, rerank_note: 'kept' };
        return edited;
      }),
    );
    const count = (test: (i: number) => boolean) => Array.from({ length: QUERIES }, (_, i) => i).filter(test).length;
    const expected = {
      'hits_top_k[].chunkId': count((i) => i % 3 === 1),
      'hits_top_k[].section_lable': count((i) => i % 7 === 3),
      'hits_top_k[].rerank_note': count((i) => i % 5 === 0),
    };

    const validated = await runCli(['validate', candidate, '--golden', goldenPath, '--format', 'json']);
    expect(validated.status).toBe(1);
    const findings = JSON.parse(validated.stdout).findings as Array<{ field: string; count: number; text: string }>;
    expect(Object.fromEntries(findings.map((f) => [f.field, f.count]))).toEqual(expected);
    expect(findings.find((f) => f.field === 'hits_top_k[].section_lable')?.text).toContain(
      'did you mean `section_label`?',
    );

    const out = await runCompare({ baselinePath: baseline, candidatePath: candidate, goldenPath });
    const runnerWarnings = JSON.parse(out.json).runner_warnings as Array<{
      field: string;
      meant: string;
      queries: number;
    }>;
    expect(runnerWarnings.map((w) => [w.field, w.meant, w.queries])).toEqual([
      ['hits_top_k[].chunkId', 'chunk_id', expected['hits_top_k[].chunkId']],
      ['hits_top_k[].section_lable', 'section_label', expected['hits_top_k[].section_lable']],
    ]);
    // compare's warning lines carry validate's own words and counts, the key no one reads among them
    const lines = out.warnings.map((w) => ('text' in w ? w.text : '')).filter((t) => t !== '');
    for (const f of findings)
      expect(
        lines.some((line) => line.endsWith(`${f.text} (in ${f.count} queries; the first is shown)`)),
        f.field,
      ).toBe(true);
    for (const field of KEBAB_HIT_FIELDS)
      expect(
        lines.some((line) => line.includes(`\`hits_top_k[].${field}\``)),
        field,
      ).toBe(false);
  });

  it('keep kebab runs on the fast reader: hits whose section label and times differ share one template', () => {
    const before = templateReadCount();
    for (let i = 0; i < 50; i++) {
      const text = JSON.stringify(
        result(
          id(i),
          Array.from({ length: 10 }, (_, r) => kebabHit(i, r + 1)),
        ),
      );
      const read = readResultRow('kb.sqlite', 'kb', id(i), text);
      expect(read.hits.map((h) => h.docId)).toEqual(Array.from({ length: 10 }, (_, r) => kebabHit(i, r + 1).doc_id));
    }
    // stale true or false makes at most a few shapes; a template per distinct label or time would read none
    expect(templateReadCount() - before).toBeGreaterThan(400);
  });
});
