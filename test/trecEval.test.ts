/**
 * trec_eval's own test data: our per-query and mean values must equal trec_eval's printed values (4 decimals).
 * Inputs and expected outputs are read from ../shared/peer-tests/trec_eval at test time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMetricTable } from '../src/aggregate/metrics/registry.js';
import { meanOf } from '../src/aggregate/perQueryValues.js';
import { DEFAULT_OPTIONS, scoreRun } from '../src/aggregate/score.js';
import type { AggregateOptions, MeanOver } from '../src/aggregate/score.js';
import { runFromTrec } from '../src/import/trec/trecFiles.js';
import { sharedPath } from './shared.js';

const dir = sharedPath('peer-tests', 'trec_eval');

type Expected = Map<string, Map<string, number>>; // measure -> qid|all -> value

function readExpected(file: string): Expected {
  const out: Expected = new Map();
  for (const line of readFileSync(join(dir!, file), 'utf8').split('\n')) {
    const [measure, qid, value] = line.split('\t').map((s) => s.trim());
    if (!value || measure === 'runid') continue;
    if (!out.has(measure)) out.set(measure, new Map());
    out.get(measure)!.set(qid, Number(value));
  }
  return out;
}

/** trec_eval measure name -> our metric id. */
function ourId(measure: string): string | null {
  let m: RegExpMatchArray | null;
  if (measure === 'map') return 'MAP';
  if (measure === 'recip_rank') return 'rr';
  if (measure === 'bpref') return 'bpref';
  if ((m = measure.match(/^P_(\d+)$/))) return `P@${m[1]}`;
  if ((m = measure.match(/^recall_(\d+)$/))) return `recall@${m[1]}`;
  if ((m = measure.match(/^ndcg_cut_(\d+)$/))) return `nDCG@${m[1]}`;
  if ((m = measure.match(/^success_(\d+)$/))) return `hit@${m[1]}`;
  return null;
}

function check(qrelsFile: string, runFile: string, expectedFile: string, meanOver: MeanOver, minGrade = 1) {
  const expected = readExpected(expectedFile);
  const ks = new Set<number>();
  for (const measure of expected.keys()) {
    const id = ourId(measure);
    const k = id?.match(/@(\d+)$/)?.[1];
    if (k) ks.add(Number(k));
  }
  const { run, golden } = runFromTrec(
    readFileSync(join(dir!, qrelsFile), 'utf8'),
    qrelsFile,
    readFileSync(join(dir!, runFile), 'utf8'),
    runFile,
    '2000-01-01T00:00:00Z',
  );
  const options: AggregateOptions = { ...DEFAULT_OPTIONS, ks: [...ks].sort((a, b) => a - b), meanOver, minGrade };
  const scored = scoreRun(run, golden, options);
  const defs = new Map(buildMetricTable(options).map((d) => [d.id, d]));
  let compared = 0;
  for (const [measure, byQuery] of expected) {
    const id = ourId(measure);
    if (!id) continue;
    const def = defs.get(id)!;
    for (const [qid, value] of byQuery) {
      const actual =
        qid === 'all'
          ? meanOf(scored.records, def.perQuery!).value
          : def.perQuery!(scored.records.find((r) => r.golden.id === qid)!);
      expect({ measure, qid, value: Number((actual ?? NaN).toFixed(4)) }).toEqual({ measure, qid, value });
      compared++;
    }
  }
  return compared;
}

describe.skipIf(!dir)("trec_eval's test suite", () => {
  it('matches out.test.aq per query and in the mean (trec_eval -m all_trec -q)', () => {
    expect(check('qrels.test', 'results.test', 'out.test.aq', 'trec')).toBe(132);
  });
  it('matches out.test.a means', () => {
    expect(check('qrels.test', 'results.test', 'out.test.a', 'trec')).toBe(33);
  });
  it('matches out.test.aqc with -c on a truncated run (--mean-over trec_c)', () => {
    expect(check('qrels.test', 'results.trunc', 'out.test.aqc', 'trec_c')).toBe(132);
  });
  it('matches out.test.aql with -l2 (--min-grade 2) on graded qrels', () => {
    expect(check('qrels.rel_level', 'results.test', 'out.test.aql', 'trec', 2)).toBe(132);
  });
  it('matches out.test.meas_params cutoffs (P 3,5,7; recall 20,2000; ndcg_cut 10,20,23; success 2,5,20)', () => {
    expect(check('qrels.test', 'results.test', 'out.test.meas_params', 'trec')).toBe(44);
  });
});
