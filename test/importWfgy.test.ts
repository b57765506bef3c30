/**
 * `evalverdict import wfgy` end to end: WFGY example 08's own files (fixtures/wfgy) imported, aggregated and compared,
 * with every value worked out by hand from WFGY's definitions; bad input of each kind; nothing half-written; a run
 * added beside another; and a property test against a direct computation from random traces.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { claimPhraseFound } from '../src/aggregate/answerChecks.js';
import { round4 } from '../src/numberFormat.js';
import { forEachLineOfPieces } from '../src/load/lines.js';
import { citationsOf } from '../src/import/wfgy/wfgyFiles.js';
import { queryDb, removeTempDirs, runCli, STACK_LINE, tempDir } from './helpers/runDb.js';

afterAll(removeTempDirs);

const FIXTURE = 'fixtures/wfgy';
const QASET = join(FIXTURE, 'eval/qaset.json');
const TRACES = join(FIXTURE, 'runs/trace.jsonl');
const CANDIDATE = join(FIXTURE, 'runs/trace-candidate.jsonl');

type Metrics = Record<string, { value: number | null; n: number }>;

async function importWfgy(args: string[]) {
  return runCli(['import', 'wfgy', ...args]);
}

async function aggregate(db: string, golden: string, run: string): Promise<Metrics> {
  const res = await runCli(['aggregate', db, '--golden', golden, '--run', run, '--json']);
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout).metrics as Metrics;
}

/** No file but `expected` in the directory: no temporary file is left behind. */
function filesIn(dir: string): string[] {
  return readdirSync(dir).sort();
}

const WFGY_METRICS = [
  'answer_precision',
  'over_refusal_rate',
  'under_refusal_rate',
  'attribution_hit_rate',
  'claim_containment',
  'citation_schema_compliance',
] as const;

/** A ratio as the JSON report prints it (4 decimals). */
const ratio = (numerator: number, denominator: number) => round4(numerator / denominator);

const pick = (m: Metrics) => Object.fromEntries(WFGY_METRICS.map((id) => [id, m[id]]));

describe('import wfgy: the fixture in WFGY example 08 format', () => {
  it('imports, aggregates with WFGY definitions and compares under the rag-answers preset', async () => {
    const dir = tempDir();
    const db = join(dir, 'runs.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const first = await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', db, '--golden-out', golden]);
    expect(first.stderr).not.toMatch(STACK_LINE);
    expect(first.status).toBe(0);
    // 12 non-blank lines: q04 twice (both scored, as WFGY's scorer scores every line: the second as q04#2), one
    // line no question has, q09 matched by its qid although its text differs, and q10 never asked.
    expect(first.stdout).toBe(
      `imported 10 of 11 questions (12 trace lines: 11 matched, 1 duplicate, 1 unmatched) into ${db} as run trace\n`,
    );
    expect(first.stderr).toBe(
      [
        `warning: ${TRACES}: 1 more line for 1 question that already had one; each is scored, as WFGY scores every line (results QID#2, QID#3, ...): q04 at line 9`,
        `warning: ${TRACES}: 1 line matches no question of ${QASET} and is skipped: line 10 "What colour is the logo?"`,
        `warning: ${QASET}: 1 question has no trace (no result in the run; WFGY's scorer leaves them out too): q10`,
        '',
      ].join('\n'),
    );
    const goldenLines = readFileSync(golden, 'utf8').trim().split('\n');
    const header = JSON.parse(goldenLines[0]);
    expect(header).toEqual({ profile: 'wfgy', description: `Imported from ${QASET} by evalverdict import wfgy` });
    // q04's second line has a golden copy of q04, right after it.
    expect(goldenLines.map((l) => JSON.parse(l).id).slice(4, 6)).toEqual(['q04', 'q04#2']);
    // The run's time is the newest `ts` of its traces.
    expect(await queryDb(db, 'SELECT run_id, suite, created_at FROM eval_runs')).toEqual([
      ['trace', 'wfgy', '2025-11-26T07:00:11Z'],
    ]);

    // Each line's row (the label WFGY's table prints):
    //   q01 answerable, cites billing#2 (gold), claim phrase in the answer        OK
    //   q02 answerable, cites infra#2, infra#4 (gold), claim not in the answer    OK
    //   q03 answerable, "not in context"                                          OVER_REFUSAL
    //   q04 answerable, first line: cites limits#2 (not gold), no claim phrase    ANS_NO_HIT
    //   q04 answerable, second line: cites limits#1 (gold), claim in the answer   OK
    //   q05 unanswerable, "Not in context"                                        REFUSAL_OK
    //   q06 unanswerable, answers with pricing#1                                  HALLUCINATION
    //   q07 answerable, `citations` field [plans#2], claim in the answer          OK
    //   q08 answerable, no citation list at all, no gold_claim                    ANS_NO_HIT
    //   q09 unanswerable, "  NOT IN CONTEXT \n" (trimmed, case folded)            REFUSAL_OK
    //   q11 answerable, `citations: []`; "trials last 14 days" is a phrase of the claim "Trials last 14 days, no
    //       card needed." (the whole claim is not in the answer)                  ANS_NO_HIT
    // WFGY's rows: answerable 8, unanswerable 3, answered 8 (q01 q02 q04 q04 q06 q07 q08 q11), correct 4 (q01 q02
    // q04's second, q07).
    const base = await aggregate(db, golden, 'trace');
    expect(pick(base)).toEqual({
      answer_precision: { value: ratio(4, 8), n: 8 },
      over_refusal_rate: { value: ratio(1, 8), n: 8 },
      under_refusal_rate: { value: ratio(1, 3), n: 3 },
      attribution_hit_rate: { value: ratio(4, 8), n: 8 },
      claim_containment: { value: ratio(4, 8), n: 8 }, // q01 q04's second, q07 q11
      citation_schema_compliance: { value: ratio(10, 11), n: 11 }, // all but q08; q11's empty list counts
    });
    // EvalVerdict's own citation hit rate counts answered rows only: q01 q02 q04's second, q07 of the 7 answered
    // answerable.
    expect(base.citation_hit_rate).toEqual({ value: ratio(4, 7), n: 7 });

    // The candidate's traces go into the same database beside the baseline, which stays as it was.
    const before = await queryDb(db, "SELECT query_id, result_json FROM eval_query_results WHERE run_id = 'trace'");
    const second = await importWfgy(['--qaset', QASET, '--traces', CANDIDATE, '--out', db, '--golden-out', golden]);
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(/as run trace-candidate \(added to the runs already there\)\n$/);
    expect(await queryDb(db, "SELECT query_id, result_json FROM eval_query_results WHERE run_id = 'trace'")).toEqual(
      before,
    );
    // Every question answered as it should be; claims: q01 q04 q07 q10 q11 (q02's and q03's answers word them
    // otherwise).
    expect(pick(await aggregate(db, golden, 'trace-candidate'))).toEqual({
      answer_precision: { value: 1, n: 8 },
      over_refusal_rate: { value: 0, n: 8 },
      under_refusal_rate: { value: 0, n: 3 },
      attribution_hit_rate: { value: 1, n: 8 },
      claim_containment: { value: ratio(5, 8), n: 8 },
      citation_schema_compliance: { value: 1, n: 11 },
    });

    // WFGY's gates on each run: the baseline fails G1, G2, G4 and G5; the candidate passes all five.
    const config = join(dir, 'gates.yml');
    writeFileSync(config, 'preset: rag-answers\n');
    const compareTo = async (baselineRun: string, candidateRun: string) => {
      const json = join(dir, `${candidateRun}.json`);
      const res = await runCli([
        'compare',
        db,
        db,
        '--golden',
        golden,
        '--baseline-run',
        baselineRun,
        '--candidate-run',
        candidateRun,
        '--config',
        config,
        '--json',
        json,
      ]);
      expect(res.stderr).not.toMatch(STACK_LINE);
      const report = JSON.parse(readFileSync(json, 'utf8'));
      return { status: res.status, report };
    };
    const good = await compareTo('trace', 'trace-candidate');
    expect(good.status).toBe(0);
    expect(good.report.verdict).toBe('pass');
    expect(good.report.options.profile).toBe('wfgy');
    const bad = await compareTo('trace-candidate', 'trace');
    expect(bad.status).toBe(1);
    expect(bad.report.gates.map((g: { metric: string; result: string }) => `${g.metric}:${g.result}`)).toEqual([
      'answer_precision:fail',
      'under_refusal_rate:fail',
      'over_refusal_rate:pass',
      'attribution_hit_rate:fail',
      'citation_schema_compliance:fail',
    ]);
    // WFGY's per-question label, as its report's table changes from the one run to the other, is listed in the
    // answer changes (q04 is its first line in `trace`: limits#2, no gold cited); a change for the worse is an
    // answer regression.
    type Outcome = { query_id: string; answer_changes: string[]; answer_regression: boolean };
    const changed = (bad.report.per_query as Outcome[]).filter((o) => o.answer_changes.length > 0);
    expect(Object.fromEntries(changed.map((o) => [o.query_id, [...o.answer_changes, o.answer_regression]]))).toEqual({
      q03: ['answered -> refused', 'label OK -> OVER_REFUSAL', true],
      q04: ['label OK -> ANS_NO_HIT', true],
      q06: ['refused -> answered (should refuse)', 'label REFUSAL_OK -> HALLUCINATION', true],
      q08: ['label OK -> ANS_NO_HIT', true],
      q11: ['label OK -> ANS_NO_HIT', true],
    });
    const improved = (good.report.per_query as Outcome[]).find((o) => o.query_id === 'q04');
    expect(improved?.answer_changes).toEqual(['label ANS_NO_HIT -> OK']);
    expect(improved?.answer_regression).toBe(false);
  });

  it('the same input gives the same bytes', async () => {
    const outputs = [];
    for (const dir of [tempDir(), tempDir()]) {
      const db = join(dir, 'run.sqlite');
      const golden = join(dir, 'golden.yaml');
      const res = await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', db, '--golden-out', golden]);
      expect(res.status).toBe(0);
      outputs.push([readFileSync(db), readFileSync(golden, 'utf8')] as const);
    }
    expect(Buffer.compare(outputs[0][0], outputs[1][0])).toBe(0);
    expect(outputs[0][1]).toBe(outputs[1][1]);
    expect(outputs[0][1]).toMatch(/^profile: wfgy\n/); // the YAML golden set carries the profile too
  });

  it('--keep first scores the first line of a repeated question; --refusal-token names the refusal', async () => {
    const dir = tempDir();
    const db = join(dir, 'run.sqlite');
    const golden = join(dir, 'golden.jsonl');
    expect(
      (await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', db, '--golden-out', golden, '--keep', 'first']))
        .status,
    ).toBe(0);
    // q04's first line cites limits#2: answered, no hit, no claim phrase. correct 3 of 7 answered.
    const m = await aggregate(db, golden, 'trace');
    expect(m.answer_precision).toEqual({ value: ratio(3, 7), n: 7 });
    expect(m.claim_containment).toEqual({ value: ratio(3, 7), n: 7 });

    const traces = join(dir, 'refusals.jsonl');
    writeFileSync(
      traces,
      [
        JSON.stringify({ q: 'Who founded the company?', answer: 'I cannot answer from the context.' }),
        JSON.stringify({ q: 'How do I rotate an API key?', answer: 'not in context' }),
        '',
      ].join('\n'),
    );
    const db2 = join(dir, 'token.sqlite');
    const res = await importWfgy([
      '--qaset',
      QASET,
      '--traces',
      traces,
      '--out',
      db2,
      '--golden-out',
      golden, // the same golden set: left as it is
      '--refusal-token',
      'I cannot answer from the context.',
    ]);
    expect(res.status).toBe(0);
    const t = await aggregate(db2, golden, 'refusals');
    // q05 refuses with the configured token; q03's "not in context" is an answer now (answerable, no citation).
    expect(t.under_refusal_rate).toEqual({ value: 0, n: 1 });
    expect(t.over_refusal_rate).toEqual({ value: 0, n: 1 });
    expect(t.answer_precision).toEqual({ value: 0, n: 1 });
  });

  it('--citations field ignores the answer text; --citations text ignores the field', async () => {
    const dir = tempDir();
    const traces = join(dir, 't.jsonl');
    writeFileSync(
      traces,
      `${JSON.stringify({ q: 'Does the free plan include SSO?', answer: 'Yes. citations: [plans#9]', citations: ['plans#2'] })}\n${JSON.stringify({ q: 'What is X?' })}\n`,
    );
    const golden = join(dir, 'g.jsonl');
    const values = [];
    for (const from of ['field', 'text', 'auto']) {
      const db = join(dir, `${from}.sqlite`);
      const res = await importWfgy([
        '--qaset',
        QASET,
        '--traces',
        traces,
        '--out',
        db,
        '--golden-out',
        golden,
        '--citations',
        from,
      ]);
      expect(res.status).toBe(0);
      values.push((await aggregate(db, golden, 't')).answer_precision.value);
    }
    expect(values).toEqual([1, 0, 1]);
  });
});

describe('import wfgy: bad input', () => {
  const cases: Array<[string, { qaset?: string; traces?: string; args?: string[] }, RegExp]> = [
    ['a QA set that is not JSON', { qaset: '[\n  {"qid": "q1",\n  oops\n]' }, /^evalverdict: QA:3: not valid JSON/],
    [
      'a QA set that is no list',
      { qaset: '{"qid": "q1"}' },
      /^evalverdict: QA:1: a QA set is a JSON list of questions, got an object/,
    ],
    [
      'a question without answerable',
      { qaset: '[\n {"qid": "q1", "q": "a", "answerable": true},\n {"qid": "q2", "q": "b"}\n]' },
      /^evalverdict: QA:3: question "q2": `answerable` must be true or false, got nothing\n/,
    ],
    [
      'a question without qid',
      { qaset: '[{"q": "a", "answerable": true}]' },
      /^evalverdict: QA:1: a question needs `qid` \(text\), got nothing\n/,
    ],
    [
      'a qid twice',
      { qaset: '[\n{"qid": "q1", "q": "a", "answerable": true},\n{"qid": "q1", "q": "b", "answerable": true}\n]' },
      /^evalverdict: QA:3: qid "q1" again \(first at line 2\)/,
    ],
    [
      'gold_ids that are no list',
      { qaset: '[{"qid": "q1", "q": "a", "answerable": true, "gold_ids": "p1"}]' },
      /^evalverdict: QA:1: question "q1": `gold_ids` must be a list of ids, got "p1"/,
    ],
    [
      'a trace line that is not JSON',
      { traces: '{"q": "a", "answer": "x"}\n{"q": "b", \n' },
      /^evalverdict: TR:2: not valid JSON/,
    ],
    [
      'a trace line that is no object',
      { traces: '\n["q", "a"]\n' },
      /^evalverdict: TR:2: a trace line must be a JSON object, got a list/,
    ],
    [
      'an answer that is not text',
      { traces: '{"q": "a", "answer": {"text": "x"}}\n' },
      /^evalverdict: TR:1: `answer` must be text, got an object/,
    ],
    [
      'chunks that are no list',
      { traces: '{"q": "a", "chunks": "p1#1"}\n' },
      /^evalverdict: TR:1: `chunks` must be a list, got "p1#1"/,
    ],
    [
      'a chunk without id',
      { traces: '{"q": "a", "chunks": [{"doc": "p1"}]}\n' },
      /^evalverdict: TR:1: `chunks\[0\]` must be `\{"id": ...\}`/,
    ],
    [
      'a citation that is no id',
      { traces: '{"q": "a", "citations": [{"id": 1}]}\n' },
      /^evalverdict: TR:1: `citations\[0\]` must be an id/,
    ],
    ['a question that is not text', { traces: '{"q": 7}\n' }, /^evalverdict: TR:1: `q` must be text, got number 7/],
    [
      'a line that is not UTF-8',
      { traces: '{"q": "a"}\n{"q": "\xff"}\n' },
      /^evalverdict: TR:2: the line is not valid UTF-8/,
    ],
    [
      'a question text two questions share, with no qid',
      {
        qaset: '[\n{"qid": "q1", "q": "a", "answerable": true},\n{"qid": "q2", "q": "a", "answerable": false}\n]',
        traces: '{"qid": "q2", "q": "a"}\n{"q": "a"}\n',
      },
      /^evalverdict: TR:2: the question text is that of several questions of QA \(q1 \(line 2\), q2 \(line 3\)\)/,
    ],
    [
      '--keep with another value',
      { args: ['--keep', 'every'] },
      /^evalverdict: --keep: must be all, last or first, got "every"/,
    ],
    [
      '--citations with another value',
      { args: ['--citations', 'both'] },
      /^evalverdict: --citations: must be auto, field or text/,
    ],
    [
      'an empty --refusal-token',
      { args: ['--refusal-token', ' '] },
      /^evalverdict: --refusal-token: the token is empty/,
    ],
    [
      'a --created-at that is no time',
      { args: ['--created-at', 'yesterday'] },
      /^evalverdict: --created-at: "yesterday" is not an RFC 3339 time/,
    ],
  ];
  for (const [name, input, message] of cases) {
    it(`${name}: exit 2, named, and nothing written`, async () => {
      const dir = tempDir();
      const qaset = join(dir, 'qaset.json');
      const traces = join(dir, 'trace.jsonl');
      writeFileSync(qaset, input.qaset ?? '[{"qid": "q1", "q": "a", "answerable": true, "gold_ids": ["p1#1"]}]');
      writeFileSync(traces, Buffer.from(input.traces ?? '{"q": "a", "answer": "citations: [p1#1]"}\n', 'latin1'));
      const out = join(dir, 'run.sqlite');
      const golden = join(dir, 'golden.jsonl');
      const res = await importWfgy([
        '--qaset',
        qaset,
        '--traces',
        traces,
        '--out',
        out,
        '--golden-out',
        golden,
        ...(input.args ?? []),
      ]);
      expect(res.stderr.replaceAll(qaset, 'QA').replaceAll(traces, 'TR')).toMatch(message);
      expect(res.stderr).not.toMatch(STACK_LINE);
      expect(res.status).toBe(2);
      expect(filesIn(dir)).toEqual(['qaset.json', 'trace.jsonl']);
    });
  }

  it('missing flags, and a file that is not there', async () => {
    expect((await importWfgy(['--qaset', QASET, '--out', 'x.sqlite'])).stderr).toMatch(
      /^evalverdict: --qaset, --traces and --out are required/,
    );
    const dir = tempDir();
    const res = await importWfgy([
      '--qaset',
      QASET,
      '--traces',
      join(dir, 'nope.jsonl'),
      '--out',
      join(dir, 'o.sqlite'),
    ]);
    expect(res.stderr).toBe(`evalverdict: ${join(dir, 'nope.jsonl')}: cannot read (no such file)\n`);
    expect(filesIn(dir)).toEqual([]);
  });
});

describe('import wfgy: an existing run database and golden set', () => {
  it('a run of the same id is refused unless --force, which replaces that run only', async () => {
    const dir = tempDir();
    const db = join(dir, 'runs.sqlite');
    const golden = join(dir, 'golden.jsonl');
    const base = ['--qaset', QASET, '--out', db, '--golden-out', golden];
    expect((await importWfgy([...base, '--traces', TRACES])).status).toBe(0);
    expect((await importWfgy([...base, '--traces', CANDIDATE])).status).toBe(0);
    const bytes = readFileSync(db);
    const again = await importWfgy([...base, '--traces', CANDIDATE]);
    expect(again.status).toBe(2);
    expect(again.stderr).toBe(
      `evalverdict: ${db}: already holds a run \`trace-candidate\` (choose another --run-id, or --force to replace that run; the other runs are kept)\n`,
    );
    expect(Buffer.compare(readFileSync(db), bytes)).toBe(0);
    expect(filesIn(dir)).toEqual(['golden.jsonl', 'runs.sqlite']);
    // --force: the baseline's traces under the candidate's id; the baseline run is still there.
    const forced = await importWfgy([...base, '--traces', TRACES, '--run-id', 'trace-candidate', '--force']);
    expect(forced.status).toBe(0);
    expect(
      await queryDb(db, 'SELECT run_id, COUNT(*) FROM eval_query_results GROUP BY run_id ORDER BY run_id'),
    ).toEqual([
      ['trace', 11], // q04's two lines: q04 and q04#2
      ['trace-candidate', 11],
    ]);
    expect((await aggregate(db, golden, 'trace-candidate')).answer_precision).toEqual({ value: ratio(4, 8), n: 8 });
  });

  it('an --out that is not a run database, and a golden set with other content, are left alone', async () => {
    const dir = tempDir();
    const notDb = join(dir, 'notes.txt');
    writeFileSync(notDb, 'my notes\n');
    const res = await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', notDb]);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/notes\.txt/);
    expect(readFileSync(notDb, 'utf8')).toBe('my notes\n');

    const golden = join(dir, 'golden.jsonl');
    writeFileSync(golden, '{"id": "mine", "query": "x"}\n');
    const out = join(dir, 'run.sqlite');
    const refused = await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', out, '--golden-out', golden]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/golden\.jsonl: already exists with other content/);
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(golden, 'utf8')).toBe('{"id": "mine", "query": "x"}\n');
    expect(filesIn(dir)).toEqual(['golden.jsonl', 'notes.txt']);
  });
});

describe('reading lines from bytes', () => {
  it('gives the same lines wherever the pieces are cut (CRLF, a last line without a break, blank lines)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)),
          { maxLength: 12 },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 7 }),
        (lines, crlf, trailing, piece) => {
          const text = lines.join(crlf ? '\r\n' : '\n') + (trailing && lines.length > 0 ? '\n' : '');
          const bytes = Buffer.from(text, 'utf8');
          let at = 0;
          const got: string[] = [];
          forEachLineOfPieces(
            (buffer) => {
              const n = bytes.copy(buffer, 0, at, Math.min(bytes.length, at + buffer.length));
              at += n;
              return n;
            },
            'x',
            (line) => got.push(line),
            piece,
          );
          expect(got).toEqual(text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'));
        },
      ),
    );
  });

  it('names the first line with a byte that is not UTF-8, wherever the pieces are cut', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => !/[\r\n]/.test(s)),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (lines, which, piece) => {
          const bad = which % lines.length;
          const bytes = Buffer.concat(
            lines.map((l, i) => Buffer.concat([Buffer.from(l), Buffer.from(i === bad ? [0xff, 10] : [10])])),
          );
          let at = 0;
          const read = (buffer: Buffer) => {
            const n = bytes.copy(buffer, 0, at, Math.min(bytes.length, at + buffer.length));
            at += n;
            return n;
          };
          expect(() => forEachLineOfPieces(read, 'x', () => {}, piece)).toThrow(
            `x:${bad + 1}: the line is not valid UTF-8`,
          );
        },
      ),
    );
  });
});

describe("WFGY's text rules, by hand", () => {
  it('claim containment: any phrase of 5+ letters, digits, hyphens and spaces of the claim', () => {
    // "X is a constrained mapping." -> one phrase "x is a constrained mapping": the whole of it must appear.
    expect(claimPhraseFound('X is a constrained mapping.', 'So x is a constrained mapping, see p1.')).toBe(true);
    expect(claimPhraseFound('X is a constrained mapping.', 'x is a mapping')).toBe(false);
    // A comma ends a phrase: "paris" is one phrase of its own, so an answer naming Paris contains the claim.
    expect(claimPhraseFound('Paris, the capital of France.', 'It is Paris.')).toBe(true);
    // A phrase of 4 characters does not count ("rome" before the comma); " the city" trimmed is "the city".
    expect(claimPhraseFound('Rome, the city', 'rome')).toBe(false);
    expect(claimPhraseFound('Rome, the city', 'The City of Rome')).toBe(true);
    // Hyphens and digits belong to phrases; other characters end them, and case does not matter.
    expect(claimPhraseFound('Uses e-mail 2FA!', 'uses e-mail 2fa')).toBe(true);
    expect(claimPhraseFound('', 'anything')).toBe(false);
  });

  it('citations: the field when it is a list, else the text; an empty list is still a list', () => {
    expect(citationsOf('- citations: [p1#1, p2#1]', undefined, 'auto')).toEqual({
      ids: ['p1#1', 'p2#1'],
      listed: true,
    });
    expect(citationsOf('Citations : [ a  b,c ]', null, 'auto')).toEqual({ ids: ['a', 'b', 'c'], listed: true });
    expect(citationsOf('citations: []', undefined, 'auto')).toEqual({ ids: [], listed: true });
    expect(citationsOf('no list here', undefined, 'auto')).toEqual({ ids: [], listed: false });
    expect(citationsOf('citations: [p9]', [' p1 ', 2], 'auto')).toEqual({ ids: ['p1', '2'], listed: true });
    expect(citationsOf('citations: [p9]', [], 'auto')).toEqual({ ids: [], listed: true });
    expect(citationsOf('citations: [p9]', ['p1'], 'text')).toEqual({ ids: ['p9'], listed: true });
    expect(citationsOf('citations: [p9]', 'p1', 'field')).toEqual({ ids: [], listed: false });
  });
});

/**
 * WFGY example 08's scorer as its document defines it, over trace objects already matched to their questions by
 * text: one row per line, the rates with 0.0 for an empty denominator. Written from the definitions, for the
 * property below.
 */
function wfgyScores(
  questions: Array<{ qid: string; q: string; answerable: boolean; gold_ids: string[]; gold_claim?: string }>,
  traces: Array<{ q: string; answer: string; citations?: string[] }>,
) {
  const byText = new Map(questions.map((g) => [g.q, g]));
  const rows = [];
  for (const p of traces) {
    const g = byText.get(p.q);
    if (!g) continue;
    const refusal = p.answer.trim().toLowerCase() === 'not in context';
    let cited: string[] = [];
    if (Array.isArray(p.citations)) cited = p.citations.map((x) => String(x).trim());
    else {
      const m = /citations\s*:\s*\[([^\]]*)\]/i.exec(p.answer);
      if (m) cited = m[1].split(/[, \t\r\n]+/).filter(Boolean);
    }
    const hit = cited.some((id) => g.gold_ids.includes(id));
    const claim = (g.gold_claim ?? '').toLowerCase();
    const phrases = (claim.match(/[a-z0-9][a-z0-9\-\s]{4,}/g) ?? []).map((s) => s.trim());
    const contain = claim !== '' && phrases.some((s) => s.length >= 5 && p.answer.toLowerCase().includes(s));
    rows.push({ answerable: g.answerable, refusal, hit, contain });
  }
  const pos = rows.filter((r) => r.answerable);
  const neg = rows.filter((r) => !r.answerable);
  const answered = rows.filter((r) => !r.refusal);
  const rate = (part: number, all: number) => (all === 0 ? 0 : part / all);
  return {
    answer_precision: rate(answered.filter((r) => r.answerable && r.hit).length, answered.length),
    over_refusal_rate: rate(pos.filter((r) => r.refusal).length, pos.length),
    under_refusal_rate: rate(neg.filter((r) => !r.refusal).length, neg.length),
    attribution_hit_rate: rate(pos.filter((r) => !r.refusal && r.hit).length, pos.length),
    claim_containment: rate(pos.filter((r) => !r.refusal && r.contain).length, pos.length),
  };
}

describe('property: import then aggregate gives what WFGY computes from the traces', () => {
  const ids = ['p1#1', 'p1#2', 'p2#1', 'p3#1'];
  // Few words, of 1 to 9 characters, so claims and answers share phrases of 4, 5 and more characters often.
  const words = ['alpha', 'beta', 'gamma-ray', 'is', 'X', 'the x', 'b2'];
  const sentence = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 3 }).map((w) => w.join(' '));
  const question = fc.record({
    answerable: fc.boolean(),
    gold_ids: fc.subarray(ids, { maxLength: 2 }),
    // Phrases end at punctuation: one to three of them.
    gold_claim: fc.option(
      fc
        .array(fc.tuple(sentence, fc.constantFrom('.', ', ', '; ', '!')), { minLength: 1, maxLength: 3 })
        .map((parts) => parts.map(([s, p]) => `${s}${p}`).join('')),
      { nil: undefined },
    ),
  });
  const trace = fc.record({
    question: fc.nat({ max: 20 }),
    refusal: fc.constantFrom(null, 'not in context', ' Not In Context ', 'NOT IN CONTEXT\t'),
    text: sentence,
    cited: fc.subarray([...ids, 'p9#9'], { maxLength: 3 }),
    how: fc.constantFrom('text', 'field', 'none', 'empty'),
  });

  it('answer precision, over- and under-refusal, citation hit rate, claim containment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(question, { minLength: 1, maxLength: 6 }),
        fc.array(trace, { maxLength: 10 }),
        async (qs, ts) => {
          const questions = qs.map((q, i) => ({ qid: `q${i + 1}`, q: `Question ${i + 1}?`, ...q }));
          const traces = ts.map((t) => {
            // An index past the questions is a line no question has.
            const q =
              t.question % (questions.length + 1) < questions.length
                ? questions[t.question % (questions.length + 1)].q
                : 'Unknown?';
            if (t.refusal !== null) return { q, answer: t.refusal };
            if (t.how === 'field') return { q, answer: t.text, citations: t.cited };
            if (t.how === 'none') return { q, answer: t.text };
            return { q, answer: `${t.text}\n- citations: [${t.how === 'empty' ? '' : t.cited.join(', ')}]` };
          });
          const dir = tempDir();
          const qaset = join(dir, 'qaset.json');
          const traceFile = join(dir, 'trace.jsonl');
          writeFileSync(qaset, JSON.stringify(questions, null, 1));
          writeFileSync(traceFile, traces.map((t) => `${JSON.stringify({ ts: 1700000000, ...t })}\n`).join(''));
          const db = join(dir, 'run.sqlite');
          const golden = join(dir, 'golden.jsonl');
          const res = await importWfgy(['--qaset', qaset, '--traces', traceFile, '--out', db, '--golden-out', golden]);
          expect(res.status).toBe(0);
          // By default every line is scored, a repeated question's too: WFGY's scorer on all the lines.
          const got = await aggregate(db, golden, 'trace');
          for (const [id, value] of Object.entries(wfgyScores(questions, traces)))
            expect([id, got[id].value]).toEqual([id, round4(value)]);
          // --keep last scores one line per question, its last: WFGY's scorer on those lines.
          const kept = await importWfgy([
            ...['--qaset', qaset, '--traces', traceFile, '--out', db, '--run-id', 'last', '--keep', 'last'],
          ]);
          expect(kept.status).toBe(0);
          const last = new Map(traces.map((t) => [t.q, t]));
          const gotLast = await aggregate(db, golden, 'last');
          for (const [id, value] of Object.entries(wfgyScores(questions, [...last.values()])))
            expect([id, gotLast[id].value]).toEqual([id, round4(value)]);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('the wfgy profile in the golden header', () => {
  it('an empty denominator is 0 under wfgy, null under evalverdict; YAML headers carry it too', async () => {
    const dir = tempDir();
    const qaset = join(dir, 'qa.json');
    writeFileSync(
      qaset,
      '[{"qid": "a", "q": "A?", "answerable": true, "gold_ids": ["x"], "gold_claim": "alpha beta"}]',
    );
    const traces = join(dir, 'refused.jsonl');
    writeFileSync(traces, '{"q": "A?", "answer": "not in context"}\n');
    const db = join(dir, 'r.sqlite');
    const yaml = join(dir, 'golden.yaml');
    expect((await importWfgy(['--qaset', qaset, '--traces', traces, '--out', db, '--golden-out', yaml])).status).toBe(
      0,
    );
    // One answerable question, refused: nothing answered and no unanswerable question.
    const wfgy = await aggregate(db, yaml, 'refused');
    expect(wfgy.answer_precision).toEqual({ value: 0, n: 0 });
    expect(wfgy.under_refusal_rate).toEqual({ value: 0, n: 0 });
    expect(wfgy.over_refusal_rate).toEqual({ value: 1, n: 1 });
    expect(wfgy.attribution_hit_rate).toEqual({ value: 0, n: 1 });
    expect(wfgy.claim_containment).toEqual({ value: 0, n: 1 });
    expect(wfgy.citation_hit_rate).toEqual({ value: null, n: 0 }); // EvalVerdict's own metric keeps its rule
    // The same golden set without its profile line: EvalVerdict's definitions.
    const plain = join(dir, 'plain.yaml');
    writeFileSync(plain, readFileSync(yaml, 'utf8').replace(/^profile: wfgy\n/m, ''));
    const own = await aggregate(db, plain, 'refused');
    expect(own.answer_precision).toEqual({ value: null, n: 0 });
    expect(own.under_refusal_rate).toEqual({ value: null, n: 0 });
    expect(own.claim_containment).toEqual({ value: 0, n: 1 }); // over queries with a gold_claim; a refusal is 0
  });

  it('an unknown profile is an error naming the line, in JSON Lines and in YAML', async () => {
    const dir = tempDir();
    const db = join(dir, 'r.sqlite');
    const golden = join(dir, 'g.jsonl');
    expect((await importWfgy(['--qaset', QASET, '--traces', TRACES, '--out', db, '--golden-out', golden])).status).toBe(
      0,
    );
    const badJsonl = join(dir, 'bad.jsonl');
    writeFileSync(badJsonl, readFileSync(golden, 'utf8').replace('"profile":"wfgy"', '"profile":"WFGY"'));
    const a = await runCli(['aggregate', db, '--golden', badJsonl, '--run', 'trace']);
    expect(a.status).toBe(2);
    expect(a.stderr).toBe(
      `evalverdict: ${badJsonl}:1: header \`profile\` must be one of "evalverdict", "wfgy", "paperbot", got "WFGY"\n`,
    );
    const badYaml = join(dir, 'bad.yaml');
    writeFileSync(badYaml, 'description: x\nprofile: ckv\nqueries:\n  - id: q01\n    query: a\n');
    const b = await runCli(['aggregate', db, '--golden', badYaml, '--run', 'trace']);
    expect(b.status).toBe(2);
    expect(b.stderr).toBe(
      `evalverdict: ${badYaml}:2: header \`profile\` must be one of "evalverdict", "wfgy", "paperbot", got "ckv"\n`,
    );
  });
});

describe("the run's time from the traces' ts", () => {
  it('seconds, milliseconds, and values that are no time', async () => {
    const { timeOf } = await import('../src/import/wfgy/wfgyImport.js');
    expect(timeOf(1764140411)).toBe('2025-11-26T07:00:11Z');
    expect(timeOf(1764140411.25)).toBe('2025-11-26T07:00:11.250Z');
    expect(timeOf(1764140411000)).toBe('2025-11-26T07:00:11Z'); // milliseconds
    expect(timeOf(-1)).toBe(null);
    expect(timeOf(1e15)).toBe(null); // past the year 9999
    expect(timeOf(null)).toBe(null);
  });
});
