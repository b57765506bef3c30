/**
 * Issue 46, "a comparison where most of one side's hits cannot match says so in the verdict line": when more than half
 * of a run's results have hits with no chunk_id, doc_id or doc_path (a runner's misspelt key), the Markdown's and the
 * text report's verdict lines name it, and the JSON's runner_warnings say `most_results`. Half or fewer: the warning
 * lines alone, as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/pipeline/runCompare.js';
import { renderReportText } from '../src/render/text.js';
import { hit, removeTempDirs, result, writeGolden, writeRunDb } from './helpers/runDb.js';

afterAll(removeTempDirs);

const QUERIES = 40;
const id = (i: number) => `q${String(i).padStart(2, '0')}`;

function golden(): string {
  return writeGolden(
    Array.from(
      { length: QUERIES },
      (_, i) => `- id: ${id(i)}\n  query: question ${i}\n  expected_doc_ids: [d${i}]\n`,
    ).join(''),
  );
}

/** Query i retrieves `d<i>` first; where `typo(i)`, its hits name the document under `docId`, which is not read. */
async function runDb(runId: string, typo: (i: number) => boolean, createdAt: string): Promise<string> {
  const hits = (i: number) =>
    typo(i) ? [{ rank: 1, docId: `d${i}`, score: 0.9 }] : [hit(1, `c${i}`, `d${i}`), hit(2, 'c-x', 'd-x')];
  return writeRunDb({
    runs: [{ runId, createdAt, results: Array.from({ length: QUERIES }, (_, i) => result(id(i), hits(i))) }],
  });
}

async function compareTypos(baselineTypo: (i: number) => boolean, candidateTypo: (i: number) => boolean) {
  const goldenPath = golden();
  const baselinePath = await runDb('base', baselineTypo, '2026-11-01T00:00:00Z');
  const candidatePath = await runDb('cand', candidateTypo, '2026-11-02T00:00:00Z');
  const out = await runCompare({ baselinePath, candidatePath, goldenPath });
  const verdictMd = out.markdown.split('\n').find((l) => l.startsWith('> **EvalVerdict:'))!;
  const text = renderReportText(out.report, out.defs, false, out.context).trimEnd().split('\n');
  return { out, verdictMd, text, json: JSON.parse(out.json) };
}

const clean = () => false;

describe('the verdict line names a run most of whose results have hits that can match nothing', () => {
  it('31 of 40 candidate results: in the Markdown verdict, both text verdict lines, and most_results in the JSON', async () => {
    // the typo on every query but q00..q08: 31 of 40
    const { verdictMd, text, json } = await compareTypos(clean, (i) => i >= 9);
    const clause =
      'most results of the candidate run cand (31 of 40) have hits that can match nothing in the golden set';
    expect(verdictMd).toContain(` · ⚠️ ${clause}`);
    expect(text[0]).toContain(` · ${clause}`);
    expect(text.at(-1)).toBe(text[0]);
    // the warning line below names the field, as before
    expect(
      text.some((l) => l.startsWith('warning: the candidate run cand has an unknown key hits_top_k[].docId')),
    ).toBe(true);
    const byCheck = Object.fromEntries(
      json.runner_warnings.map((w: { check: string; most_results: boolean }) => [w.check, w.most_results]),
    );
    expect(byCheck).toEqual({ 'unknown-key': true, 'unmatchable-hit': true });
  });

  it('exactly half (20 of 40): the warning lines only, most_results false', async () => {
    const { verdictMd, text, json, out } = await compareTypos(clean, (i) => i % 2 === 1);
    expect(verdictMd).not.toContain('most results');
    expect(text[0]).not.toContain('most results');
    expect(out.markdown).toContain('in 20 of its 40 results: they can match nothing in the golden set');
    expect(json.runner_warnings.map((w: { most_results: boolean }) => w.most_results)).toEqual([false, false]);
  });

  it("the baseline's mistake is named as the baseline's; a run id from the inputs is escaped", async () => {
    const goldenPath = golden();
    const baselinePath = await runDb('base|@team', (i) => i >= 5, '2026-11-01T00:00:00Z');
    const candidatePath = await runDb('cand', clean, '2026-11-02T00:00:00Z');
    const out = await runCompare({ baselinePath, candidatePath, goldenPath });
    expect(out.markdown).toContain(
      '⚠️ most results of the baseline run base\\|@&#8203;team (35 of 40) have hits that can match nothing in the golden set',
    );
    const text = renderReportText(out.report, out.defs, false, out.context);
    expect(text.split('\n')[0]).toContain('most results of the baseline run base|@team (35 of 40)');
  });

  it('no mistake: no clause, no runner_warnings', async () => {
    const { verdictMd, text, json } = await compareTypos(clean, clean);
    expect(verdictMd).not.toContain('⚠️');
    expect(text[0]).not.toContain('most results');
    expect(json).not.toHaveProperty('runner_warnings');
  });
});
