/**
 * The published JSON Schemas and EvalVerdict's readers agree (issue 44). One source for the limits: each bound a schema
 * states is a reader's constant, checked here. And the same hostile values go to both, the schema through ajv (a JSON
 * Schema 2020-12 validator, applying it as editors do: `maxLength` in code points, `pattern` with the `u` flag) and the
 * reader as the action and the CLI run it: both refuse or both accept. What JSON Schema cannot state is listed, each
 * case checked to be what the schema lets through, so a new gap shows up as a failure.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { MAX_GATES, parseGateConfig } from '../src/gate/config.js';
import {
  MAX_HISTORY_METRICS,
  MAX_HISTORY_QUERIES,
  MAX_HISTORY_RUNS,
  MAX_HISTORY_TEXT,
  parseHistory,
} from '../src/load/historyFile.js';
import { parseGoldenJsonl } from '../src/load/golden.js';
import { repoRoot } from './shared.js';

const schemaFile = (name: string) => JSON.parse(readFileSync(join(repoRoot, 'schemas', name), 'utf8'));
const historySchema = schemaFile('history.schema.json');
const gateSchema = schemaFile('gate-config.schema.json');
// An unknown keyword (a misspelt `maxItem`) or a malformed schema is an error; ajv's lints of legal schemas (a keyword
// without a `type` beside it, `required` in an `anyOf` branch) are not.
const ajv = new Ajv2020({ strictSchema: true, strictTypes: false, strictRequired: false, allErrors: true });
const schemaAcceptsHistory = ajv.compile(historySchema);
const schemaAcceptsGates = ajv.compile(gateSchema);

/** Whether `read` returns; an InputError (the reader's refusal) is false, anything else a bug. */
function accepts(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch (error) {
    if (error instanceof InputError) return false;
    throw error;
  }
}

const readerAcceptsHistory = (value: unknown) => accepts(() => parseHistory(JSON.stringify(value), 'history.json'));
// JSON is YAML: the config is read from the same text an editor would check.
const readerAcceptsGates = (value: unknown) => accepts(() => parseGateConfig(JSON.stringify(value), 'evalverdict.yml'));

/** The `pattern` a schema's text of at most `max` UTF-16 units carries (see the `text` definition). */
const textPattern = (max: number) => `^(?:[^\\u{10000}-\\u{10FFFF}]{0,${max}}|[\\s\\S]{0,${max / 2}})$`;

const EMOJI = '\u{1F600}'; // one character, two UTF-16 units

type History = Record<string, any>;
function history(change: (h: History) => void = () => {}): History {
  const h: History = {
    schema_version: 1,
    max_runs: 20,
    queries: ['q1', 'q2'],
    runs: [
      {
        run_id: 'r1',
        commit: 'abc123',
        time: '2026-11-22T10:00:00Z',
        golden: `sha256:${'0'.repeat(64)}`,
        metrics: { 'hit@5': 0.5, 'nDCG@10': null },
        outcomes: 'hm',
      },
    ],
  };
  change(h);
  return h;
}

const metricsOf = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, i / n]));
const runsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ ...history().runs[0], run_id: `r${i}` }));

/** Text values at and past the bound, in both units. */
const TEXTS: Array<[string, unknown]> = [
  ['1000 ASCII characters', 'x'.repeat(1000)],
  ['1001 ASCII characters', 'x'.repeat(1001)],
  ['1000 characters é (one unit each)', '\u00e9'.repeat(1000)],
  ['500 emoji (1000 units)', EMOJI.repeat(500)],
  ['501 emoji (1002 units)', EMOJI.repeat(501)],
  ['600 emoji (1200 units, 600 characters)', EMOJI.repeat(600)],
  ['an empty text', ''],
  ['a number', 5],
  ['null', null],
];

/** The text fields of a history, each set to a value. */
const TEXT_FIELDS: Array<[string, (h: History, v: unknown) => void]> = [
  ['run_id', (h, v) => (h.runs[0].run_id = v)],
  ['commit', (h, v) => (h.runs[0].commit = v)],
  ['time', (h, v) => (h.runs[0].time = v)],
  ['golden', (h, v) => (h.runs[0].golden = v)],
  ['a query id', (h, v) => (h.queries[0] = v)],
  [
    'a metric id',
    (h, v) => {
      if (typeof v === 'string') h.runs[0].metrics = { [v]: 1 };
      else h.runs[0].metrics = { [JSON.stringify(v)]: 1 }; // keys are always text
    },
  ],
];

const HISTORY_CASES: Array<[string, () => unknown]> = [
  ['the base history', () => history()],
  ...TEXT_FIELDS.flatMap(([field, set]) =>
    TEXTS.map(([what, v]): [string, () => unknown] => [`${field}: ${what}`, () => history((h) => set(h, v))]),
  ),
  ['a run without commit', () => history((h) => delete h.runs[0].commit)],
  ['a run without run_id', () => history((h) => delete h.runs[0].run_id)],
  ['a run without metrics', () => history((h) => delete h.runs[0].metrics)],
  ['a run without outcomes', () => history((h) => delete h.runs[0].outcomes)],
  [`${MAX_HISTORY_METRICS} metrics`, () => history((h) => (h.runs[0].metrics = metricsOf(MAX_HISTORY_METRICS)))],
  [
    `${MAX_HISTORY_METRICS + 1} metrics`,
    () => history((h) => (h.runs[0].metrics = metricsOf(MAX_HISTORY_METRICS + 1))),
  ],
  ['a metric value that is text', () => history((h) => (h.runs[0].metrics = { 'hit@5': '0.5' }))],
  ['a metric value that is an object', () => history((h) => (h.runs[0].metrics = { 'hit@5': { v: 1 } }))],
  ['metrics as a list', () => history((h) => (h.runs[0].metrics = [1]))],
  [
    `${MAX_HISTORY_QUERIES} queries`,
    () =>
      history((h) => {
        h.queries = Array.from({ length: MAX_HISTORY_QUERIES }, (_, i) => `q${i}`);
        h.runs = [];
      }),
  ],
  [
    `${MAX_HISTORY_QUERIES + 1} queries`,
    () =>
      history((h) => {
        h.queries = Array.from({ length: MAX_HISTORY_QUERIES + 1 }, (_, i) => `q${i}`);
        h.runs = [];
      }),
  ],
  [
    `${MAX_HISTORY_RUNS} runs`,
    () =>
      history((h) => {
        h.max_runs = MAX_HISTORY_RUNS;
        h.runs = runsOf(MAX_HISTORY_RUNS);
      }),
  ],
  [
    `${MAX_HISTORY_RUNS + 1} runs`,
    () =>
      history((h) => {
        h.max_runs = MAX_HISTORY_RUNS;
        h.runs = runsOf(MAX_HISTORY_RUNS + 1);
      }),
  ],
  ...[0, 1, MAX_HISTORY_RUNS, MAX_HISTORY_RUNS + 1, 2.5, '20', null].map((n): [string, () => unknown] => [
    `max_runs ${JSON.stringify(n)}`,
    () =>
      history((h) => {
        h.max_runs = n;
        h.runs = [];
      }),
  ]),
  ['schema_version 2', () => history((h) => (h.schema_version = 2))],
  ['no schema_version', () => history((h) => delete h.schema_version)],
  ['no queries', () => history((h) => delete h.queries)],
  ['no runs', () => history((h) => delete h.runs)],
  ['outcomes with another letter', () => history((h) => (h.runs[0].outcomes = 'hx'))],
  ['a run that is a list', () => history((h) => (h.runs[0] = ['r1']))],
  ['a list, not an object', () => []],
  ['a text, not an object', () => 'history'],
];

/** Values the reader refuses and the schema lets through: rules JSON Schema cannot state (or that span fields). */
const HISTORY_GAPS: Array<[string, () => unknown]> = [
  [
    'more runs than max_runs',
    () =>
      history((h) => {
        h.max_runs = 1;
        h.runs = runsOf(2);
      }),
  ],
  ['outcomes of another length than queries', () => history((h) => (h.runs[0].outcomes = 'h'))],
  ['a key the schema does not name, nested past 4 levels', () => history((h) => (h.runs[0].note = [[[1]]]))],
];

describe('schemas/history.schema.json and the history reader (src/load/historyFile.ts)', () => {
  it("states the reader's bounds: its constants", () => {
    const text = historySchema.$defs.text;
    const run = historySchema.properties.runs.items;
    expect(text.maxLength).toBe(MAX_HISTORY_TEXT);
    expect(text.pattern).toBe(textPattern(MAX_HISTORY_TEXT));
    expect(historySchema.properties.max_runs.maximum).toBe(MAX_HISTORY_RUNS);
    expect(historySchema.properties.runs.maxItems).toBe(MAX_HISTORY_RUNS);
    expect(historySchema.properties.queries.maxItems).toBe(MAX_HISTORY_QUERIES);
    expect(run.properties.metrics.maxProperties).toBe(MAX_HISTORY_METRICS);
    // Every text the reader bounds is the schema's bounded text.
    const texts = [
      historySchema.properties.queries.items,
      ...['run_id', 'commit', 'time', 'golden'].map((k) => run.properties[k]),
      run.properties.metrics.propertyNames,
    ];
    for (const t of texts) expect(t.$ref).toBe('#/$defs/text');
    // What the reader requires of a run, and no more: a run's commit may be left out.
    expect(run.required).toEqual(['run_id', 'time', 'golden', 'metrics', 'outcomes']);
  });

  it.each(HISTORY_CASES)('agrees on %s', (_name, make) => {
    const value = make(); // made here: two of them hold a million query ids
    expect(schemaAcceptsHistory(value)).toBe(readerAcceptsHistory(value));
  });

  it("agrees on the issue's values: a 600-emoji run_id, a 1,001-character metric id, a run without commit", () => {
    const cases = [
      history((h) => (h.runs[0].run_id = EMOJI.repeat(600))),
      history((h) => (h.runs[0].metrics = { ['m'.repeat(1001)]: 1 })),
    ];
    for (const value of cases)
      expect([schemaAcceptsHistory(value), readerAcceptsHistory(value)]).toEqual([false, false]);
    const noCommit = history((h) => delete h.runs[0].commit);
    expect([schemaAcceptsHistory(noCommit), readerAcceptsHistory(noCommit)]).toEqual([true, true]);
  });

  it.each(HISTORY_GAPS)('lets through what only the reader can check: %s', (_name, make) => {
    const value = make();
    expect([schemaAcceptsHistory(value), readerAcceptsHistory(value)]).toEqual([true, false]);
  });

  it('never accepts a text the reader refuses; differs only on 501-999 characters holding one past U+FFFF', () => {
    // Lengths spread up to 1100 (size 'max'), not fast-check's default bias toward short lists.
    const texts = fc
      .array(fc.constantFrom('x', '\u00e9', EMOJI), { maxLength: 1100, size: 'max' })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        const value = history((h) => (h.runs[0].run_id = text));
        const [schema, reader] = [schemaAcceptsHistory(value), readerAcceptsHistory(value)];
        const characters = [...text].length;
        const gap = text.includes(EMOJI) && characters > MAX_HISTORY_TEXT / 2 && text.length <= MAX_HISTORY_TEXT;
        expect(schema && !reader).toBe(false);
        expect(schema === reader).toBe(!gap);
      }),
      // No shrinking: a counterexample of a thousand characters took minutes to shrink.
      { numRuns: 300, endOnFailure: true },
    );
  });
});

type Config = Record<string, any>;
const gatesOf = (n: number) => Array.from({ length: n }, (_, i) => ({ metric: `hit@${(i % 20) + 1}`, min: 0.1 }));
const noiseOf = (metrics: number) => ({
  measured: '2026-11-22T10:00:00Z',
  runs: 3,
  commit: null,
  metrics: Object.fromEntries(
    Array.from({ length: metrics }, (_, i) => [`m${i}`, { sd_diff: 0.1, sd_mean: 0.01, changed: 0.2, detects: null }]),
  ),
});

const TRADE = { margin: 0.05, metric: 'latency_ms', min_gain: 0.25 };

const GATE_CASES: Array<[string, Config | null]> = [
  ['one gate', { gates: gatesOf(1) }],
  [`${MAX_GATES} gates`, { gates: gatesOf(MAX_GATES) }],
  [`${MAX_GATES + 1} gates`, { gates: gatesOf(MAX_GATES + 1) }],
  ['a gate without a threshold', { gates: [{ metric: 'hit@5' }] }],
  ['a gate with only a margin', { gates: [{ metric: 'hit@5', margin: 0.05, significant_only: true }] }],
  ['a gate with a threshold of null', { gates: [{ metric: 'hit@5', min: null }] }],
  ['a gate without a metric', { gates: [{ min: 0.5 }] }],
  ['a gate with an unknown key', { gates: [{ metric: 'hit@5', min: 0.5, mn: 1 }] }],
  ['a where of two groups', { gates: [{ metric: 'hit@5', min: 0.5, where: { tag: 'a', category: 'b' } }] }],
  ['gates: null', { gates: null }],
  ['preset retrieval', { preset: 'retrieval' }],
  ['alpha 0.6', { alpha: 0.6, gates: gatesOf(1) }],
  ['k 1001', { k: 1001, gates: gatesOf(1) }],
  ['an unknown top-level key', { gate: gatesOf(1) }],
  [`noise of ${MAX_GATES} metrics`, { gates: gatesOf(1), noise: noiseOf(MAX_GATES) }],
  [`noise of ${MAX_GATES + 1} metrics`, { gates: gatesOf(1), noise: noiseOf(MAX_GATES + 1) }],
  ['noise of no metric', { gates: gatesOf(1), noise: noiseOf(0) }],
  ['a trade', { gates: [{ metric: 'hit@5', margin: 0.02, trade: TRADE }] }],
  ['a trade of an unknown cost', { gates: [{ metric: 'hit@5', margin: 0.02, trade: { ...TRADE, metric: 'ms' } }] }],
  ['a trade with min_gain 1', { gates: [{ metric: 'hit@5', margin: 0.02, trade: { ...TRADE, min_gain: 1 } }] }],
  ['a trade with margin 0', { gates: [{ metric: 'hit@5', margin: 0.02, trade: { ...TRADE, margin: 0 } }] }],
  [
    'a trade without min_gain',
    { gates: [{ metric: 'hit@5', margin: 0.02, trade: { margin: 0.05, metric: 'cost_usd' } }] },
  ],
  ['a trade with an unknown key', { gates: [{ metric: 'hit@5', margin: 0.02, trade: { ...TRADE, gain: 0.2 } }] }],
];

const GATE_GAPS: Array<[string, Config | null]> = [
  [
    `${MAX_GATES} gates and a preset's 4 (the reader counts them all)`,
    { preset: 'retrieval', gates: gatesOf(MAX_GATES) },
  ],
  ['a primary that is the metric of no gate', { primary: 'mrr@10', gates: gatesOf(1) }],
  ['noise measured at no time', { gates: gatesOf(1), noise: { ...noiseOf(1), measured: 'yesterday' } }],
  ['a document that is null (an empty file is read as no gates)', null],
  ['a trade on a gate without a test', { gates: [{ metric: 'hit@5', min: 0.5, trade: TRADE }] }],
  ['a trade with where', { gates: [{ metric: 'hit@5', margin: 0.02, where: { tag: 'a' }, trade: TRADE }] }],
  ["a trade's margin under the gate's", { gates: [{ metric: 'hit@5', margin: 0.1, trade: TRADE }] }],
];

describe('schemas/gate-config.schema.json and the gate config reader (src/gate/config.ts)', () => {
  it("states the reader's bounds: its constants", () => {
    expect(gateSchema.properties.gates.maxItems).toBe(MAX_GATES);
    // The noise of as many metrics as a config may have gates (src/gate/noise.ts; the cases below check it).
    expect(gateSchema.properties.noise.properties.metrics.maxProperties).toBe(MAX_GATES);
  });

  it.each(GATE_CASES)('agrees on %s', (_name, value) => {
    expect(schemaAcceptsGates(value)).toBe(readerAcceptsGates(value));
  });

  it(`agrees on the issue's ${MAX_GATES + 1} gates: both refuse`, () => {
    const value = { gates: gatesOf(MAX_GATES + 1) };
    expect([schemaAcceptsGates(value), readerAcceptsGates(value)]).toEqual([false, false]);
  });

  it.each(GATE_GAPS)('lets through what only the reader can check: %s', (_name, value) => {
    expect([schemaAcceptsGates(value), readerAcceptsGates(value)]).toEqual([true, false]);
  });
});

describe('schemas/golden-query.schema.json and the golden set reader (src/load/golden.ts)', () => {
  const querySchema = schemaFile('golden-query.schema.json');
  const schemaAcceptsQuery = ajv.compile(querySchema);
  const readerAcceptsQuery = (value: Record<string, unknown>) =>
    accepts(() => parseGoldenJsonl(`${JSON.stringify(value)}\n`, 'golden.jsonl'));

  it("a query's own cutoff (`top_k`): the schema and the reader both take it, and both refuse 0", () => {
    const query = { id: 'q1', query: 'what', expected_doc_ids: ['d1'], top_k: 5 };
    expect([schemaAcceptsQuery(query), readerAcceptsQuery(query)]).toEqual([true, true]);
    expect([schemaAcceptsQuery({ ...query, top_k: 0 }), readerAcceptsQuery({ ...query, top_k: 0 })]).toEqual([
      false,
      false,
    ]);
  });

  it('a key the schema does not know, the reader names too', () => {
    const query = { id: 'q1', query: 'what', expected_doc_ids: ['d1'], top_kk: 5 };
    expect(schemaAcceptsQuery(query)).toBe(false);
    expect(JSON.stringify(parseGoldenJsonl(`${JSON.stringify(query)}\n`, 'golden.jsonl').warnings)).toContain('top_kk');
  });
});
