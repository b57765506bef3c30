/**
 * The acceptance state's edges, written for the mutants `npm run mutate` left in src/acceptance/state.ts
 * (issue 44): the decoder refuses each malformed field on its own (a state line is untrusted until proven ours),
 * carry-over at its exact edges, which body the comment showed when, and the audit trail's table. Every value is
 * computed inside its test (docs/mutation.md: a value computed while vitest collects the tests never sees a mutant).
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import { acceptedGateOf } from '../src/acceptance/decision.js';
import type { AcceptedGate } from '../src/acceptance/decision.js';
import {
  carryOver,
  decodeState,
  encodeState,
  endsWithStateLine,
  gateKey,
  gateLabel,
  renderHistory,
  shownAt,
  withShown,
  worseOf,
} from '../src/acceptance/state.js';
import type {
  AcceptanceState,
  HistoryEntry,
  ShownReport,
  StandingAcceptance,
  StoredGate,
} from '../src/acceptance/state.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const T0 = '2026-12-01T10:00:00Z';
const T1 = '2026-12-01T10:05:00Z';
const T2 = '2026-12-01T10:09:00Z';

function gate(over: Partial<GateResult> = {}): GateResult {
  return {
    metric: 'nDCG@10',
    level: 'error',
    baseline: 0.4,
    candidate: 0.38,
    delta: -0.02,
    result: 'fail',
    effect: 'fail',
    threshold: 'drop ≤ 0.0100',
    max_drop: 0.01,
    note: '',
    ...over,
  };
}

function stored(over: Partial<StoredGate> = {}): StoredGate {
  return {
    metric: 'nDCG@10',
    threshold: 'drop ≤ 0.0100',
    judged: 'delta',
    baseline: 0.4,
    candidate: 0.38,
    delta: -0.02,
    worse: 'lower',
    ...over,
  };
}

function standing(over: Partial<StandingAcceptance> = {}): StandingAcceptance {
  return {
    by: 'writer',
    at: '2026-11-01T00:00:00Z',
    head_sha: A,
    reason: null,
    via: 'label',
    source: { kind: 'label', label: 'evalverdict: accept' },
    covers: A,
    gates: [stored()],
    ...over,
  };
}

function entry(over: Partial<HistoryEntry> = {}): HistoryEntry {
  return { event: 'accepted', by: 'writer', at: T0, head_sha: A, gates: ['nDCG@10'], reason: 'r', ...over };
}

/** A state line holding exactly this JSON, as a forger could write it. */
function line(json: unknown): string {
  return `<!-- evalverdict:acceptance-state ${Buffer.from(JSON.stringify(json), 'utf8').toString('base64')} -->`;
}

/** The state with its current acceptance (or its one history entry, or its one shown report) replaced. */
const withCurrent = (current: unknown) => line({ v: 1, current, history: [], shown: [] });
const withEntry = (h: unknown) => line({ v: 1, current: null, history: [h], shown: [] });
const withReport = (r: unknown) => line({ v: 1, current: null, history: [], shown: [r] });
const withGate = (g: unknown) => withCurrent({ ...standing(), gates: [g] });

/** An accepted gate judged on its value (a `min` gate) or its change (a relative gate). */
const byValue = (candidate: number | null, worse: 'lower' | 'higher' = 'lower'): StoredGate =>
  stored({ judged: 'value', candidate, worse, threshold: '≥ 0.9000' });
const byDelta = (delta: number | null, worse: 'lower' | 'higher' = 'lower'): StoredGate =>
  stored({ judged: 'delta', delta, worse });
const now = (g: StoredGate): AcceptedGate => {
  const { worse: _worse, ...rest } = g;
  return rest;
};

describe('worseOf and gateKey', () => {
  it('a max_increase or max_increase_pct gate gets worse upward, as a max gate does', () => {
    expect(worseOf(gate({ max_drop: undefined, max_increase: 5 }))).toBe('higher');
    expect(worseOf(gate({ max_drop: undefined, max_increase_pct: 10 }))).toBe('higher');
    expect(worseOf(gate({ max_drop: undefined, max: 200 }))).toBe('higher');
    expect(worseOf(gate({}))).toBe('lower');
  });

  it('the key is metric, group (in key order) and threshold', () => {
    expect(gateKey({ metric: 'm', threshold: 't' })).toBe('["m",[],"t"]');
    expect(gateKey({ metric: 'm', where: { b: '2', a: true }, threshold: 't' })).toBe(
      '["m",[["a",true],["b","2"]],"t"]',
    );
    expect(gateKey({ metric: 'm', where: { a: true, b: '2' }, threshold: 't' })).toBe(
      '["m",[["a",true],["b","2"]],"t"]',
    );
    expect(gateLabel({ metric: 'm', where: { tag: 'x', lang: 'en' } })).toBe('m (tag=x, lang=en)');
    expect(gateLabel({ metric: 'm' })).toBe('m');
  });
});

describe('carryOver at its edges', () => {
  it('a gate of another metric, group or threshold is not covered, however much worse it is', () => {
    const s = standing({ gates: [byDelta(-0.02)] });
    expect(carryOver(s, [now(stored({ metric: 'hit@5', delta: -0.9 }))])).toEqual({ ok: true });
    expect(carryOver(s, [now(stored({ threshold: 'drop ≤ 0.0300', delta: -0.9 }))])).toEqual({ ok: true });
    expect(carryOver(s, [now(stored({ where: { tag: 'x' }, delta: -0.9 }))])).toEqual({ ok: true });
  });

  it('gates match by group whatever the order of its keys; another group is another gate', () => {
    const s = standing({ gates: [stored({ where: { tag: 'x', lang: 'en' } })] });
    const worse = (where: Record<string, string | boolean>) => carryOver(s, [now(stored({ where, delta: -0.5 }))]);
    expect(worse({ lang: 'en', tag: 'x' })).toEqual({
      ok: false,
      why: 'nDCG@10 (lang=en, tag=x) is −0.5000, worse than the accepted −0.0200',
    });
    expect(worse({ lang: 'en', tag: 'y' })).toEqual({ ok: true });
    expect(worse({ lang: 'en' })).toEqual({ ok: true });
    expect(worse({ lang: 'entag=x' })).toEqual({ ok: true });
  });

  it('an empty group is no group', () => {
    const s = standing({ gates: [stored({ where: {} })] });
    expect(carryOver(s, [now(stored({ delta: -0.5 }))])).toEqual({
      ok: false,
      why: 'nDCG@10 is −0.5000, worse than the accepted −0.0200',
    });
  });

  it('a gate without a number, then or now, does not carry over', () => {
    expect(carryOver(standing({ gates: [byValue(0.5)] }), [now(byValue(null))])).toEqual({
      ok: false,
      why: 'nDCG@10 has no number to compare',
    });
    expect(carryOver(standing({ gates: [byValue(null)] }), [now(byValue(0.5))])).toEqual({
      ok: false,
      why: 'nDCG@10 has no number to compare',
    });
    expect(carryOver(standing({ gates: [byDelta(null)] }), [now(byDelta(-0.01))])).toEqual({
      ok: false,
      why: 'nDCG@10 has no number to compare',
    });
  });

  it('round-off up to the tolerance (1e-9) is not worse, on either side; equal is not worse', () => {
    const a = 0.5;
    const lower = standing({ gates: [byValue(a)] });
    expect(carryOver(lower, [now(byValue(a - 1e-9))])).toEqual({ ok: true });
    expect(carryOver(lower, [now(byValue(a - 3e-9))]).ok).toBe(false);
    const higher = standing({ gates: [byValue(a, 'higher')] });
    expect(carryOver(higher, [now(byValue(a))])).toEqual({ ok: true });
    expect(carryOver(higher, [now(byValue(a + 1e-9))])).toEqual({ ok: true });
    expect(carryOver(higher, [now(byValue(a + 3e-9))]).ok).toBe(false);
  });

  it('says the numbers it compared: a value plain, a change with its sign (zero as +)', () => {
    expect(carryOver(standing({ gates: [byValue(0.76)] }), [now(byValue(0.5))])).toEqual({
      ok: false,
      why: 'nDCG@10 is 0.5000, worse than the accepted 0.7600',
    });
    expect(carryOver(standing({ gates: [byDelta(5, 'higher')] }), [now(byDelta(6, 'higher'))])).toEqual({
      ok: false,
      why: 'nDCG@10 is +6.0000, worse than the accepted +5.0000',
    });
    expect(carryOver(standing({ gates: [byDelta(-1, 'higher')] }), [now(byDelta(0, 'higher'))])).toEqual({
      ok: false,
      why: 'nDCG@10 is +0.0000, worse than the accepted −1.0000',
    });
  });

  it('acceptedGateOf of a relative gate judges its delta (the gate a state stores)', () => {
    expect(acceptedGateOf(gate({})).judged).toBe('delta');
  });
});

describe('encodeState: any part alone is a state', () => {
  it('a current acceptance alone, a history alone or shown reports alone each make a line that reads back', () => {
    const states: AcceptanceState[] = [
      { current: standing(), history: [], shown: [] },
      { current: null, history: [entry()], shown: [] },
      { current: null, history: [], shown: [{ sha: A, kind: 'report', since: null }] },
      { current: standing(), history: [entry()], shown: [] },
    ];
    for (const state of states) {
      const encoded = encodeState(state);
      expect(encoded).not.toBe('');
      expect(decodeState(`M\nreport\n${encoded}\n`)).toEqual(state);
      expect(endsWithStateLine(`M\nreport\n${encoded}\n`)).toBe(true);
    }
  });

  it('text outside ASCII goes through as UTF-8', () => {
    const state: AcceptanceState = { current: standing({ reason: 'é — ✓' }), history: [], shown: [] };
    expect(decodeState(encodeState(state))?.current?.reason).toBe('é — ✓');
  });
});

describe('the final line', () => {
  it('endsWithStateLine says whether the final line is a state line', () => {
    const state = encodeState({ current: null, history: [entry()], shown: [] });
    expect(endsWithStateLine(`M\n${state}\n\n`)).toBe(true);
    expect(endsWithStateLine(`M\n${state}\r\n`)).toBe(true);
    expect(endsWithStateLine(`M\n${state}\nafter`)).toBe(false);
    expect(endsWithStateLine('M\nreport\n')).toBe(false);
  });

  it('a carriage return inside the final line makes it no state line', () => {
    const state = encodeState({ current: null, history: [entry()], shown: [] });
    const broken = state.replace(' -->', '\r -->');
    expect(decodeState(`M\n${broken}`)).toBeNull();
    expect(endsWithStateLine(`M\n${broken}`)).toBe(false);
  });
});

describe('decodeState refuses each malformed field on its own', () => {
  it('JSON that is null, or not the version written here, is no state', () => {
    expect(decodeState(`<!-- evalverdict:acceptance-state ${Buffer.from('null').toString('base64')} -->`)).toBeNull();
    expect(decodeState(`<!-- evalverdict:acceptance-state ${Buffer.from('{"v":1').toString('base64')} -->`)).toBeNull();
    expect(decodeState(line({ v: 1, current: null, history: {}, shown: [] }))).toBeNull();
    expect(decodeState(line({ v: 1, current: null, history: [], shown: {} }))).toBeNull();
  });

  it('no current acceptance is a state; a current that is no acceptance is not', () => {
    const state: AcceptanceState = { current: null, history: [], shown: [{ sha: A, kind: 'report', since: T0 }] };
    expect(decodeState(line({ v: 1, ...state }))).toEqual(state);
    for (const current of [false, 0, 'x', [], {}])
      expect(decodeState(withCurrent(current)), String(current)).toBeNull();
  });

  it('keeps the last 10 history entries and the last 10 shown reports of a longer state', () => {
    const history = Array.from({ length: 12 }, (_, i) => entry({ by: `u${i}` }));
    const shown = Array.from({ length: 12 }, (_, i) => ({ sha: `s${i}`, kind: 'report', since: T0 }));
    const decoded = decodeState(line({ v: 1, current: null, history, shown }));
    expect(decoded?.history.map((h) => h.by)).toEqual(history.slice(2).map((h) => h.by));
    expect(decoded?.shown.map((r) => r.sha)).toEqual(shown.slice(2).map((r) => r.sha));
  });

  it('shown reports: each field checked', () => {
    const ok: ShownReport = { sha: A, kind: 'report', since: T0 };
    expect(decodeState(withReport(ok))?.shown).toEqual([ok]);
    expect(decodeState(withReport({ ...ok, kind: 'error' }))?.shown).toEqual([{ ...ok, kind: 'error' }]);
    expect(decodeState(withReport({ ...ok, since: null }))?.shown).toEqual([{ ...ok, since: null }]);
    expect(decodeState(withReport({ ...ok, sha: 'f'.repeat(64) }))?.shown).toHaveLength(1);
    for (const bad of [
      null,
      { ...ok, sha: 7 },
      { ...ok, sha: 'f'.repeat(65) },
      { ...ok, kind: 'comment' },
      { ...ok, kind: 'Report' },
      { ...ok, since: 'yesterday' },
      { ...ok, since: 1733047200000 },
      { ...ok, since: `${T0}${' '.repeat(30)}` },
    ])
      expect(decodeState(withReport(bad)), JSON.stringify(bad)).toBeNull();
    // One bad report among good ones spoils the state.
    expect(decodeState(line({ v: 1, current: null, history: [], shown: [ok, { ...ok, kind: 'x' }] }))).toBeNull();
  });

  it('history entries: each field checked', () => {
    const ok = entry();
    expect(decodeState(withEntry(ok))?.history).toEqual([ok]);
    expect(decodeState(withEntry({ ...ok, reason: null }))?.history).toEqual([{ ...ok, reason: null }]);
    const forty = Array.from({ length: 40 }, (_, i) => `m${i}`);
    expect(decodeState(withEntry({ ...ok, gates: forty }))?.history[0].gates).toEqual(forty);
    for (const event of ['accepted', 'carried over', 'lapsed', 'withdrawn', 'unconfirmed'])
      expect(decodeState(withEntry({ ...ok, event }))?.history[0].event).toBe(event);
    for (const bad of [
      null,
      { ...ok, event: 'forged' },
      { ...ok, by: 7 },
      { ...ok, by: 'u'.repeat(101) },
      { ...ok, at: 't'.repeat(41) },
      { ...ok, head_sha: 'f'.repeat(65) },
      { ...ok, reason: 7 },
      { ...ok, reason: 'r'.repeat(1001) },
      { ...ok, gates: 'nDCG@10' },
      { ...ok, gates: [...forty, 'm40'] },
      { ...ok, gates: ['nDCG@10', 7] },
      { ...ok, gates: ['g'.repeat(401)] },
    ])
      expect(decodeState(withEntry(bad)), JSON.stringify(bad)?.slice(0, 80)).toBeNull();
    expect(decodeState(line({ v: 1, current: null, history: [ok, { ...ok, by: 7 }], shown: [] }))).toBeNull();
  });

  it('fields at their longest are taken', () => {
    const longest = standing({
      by: 'u'.repeat(100),
      at: 't'.repeat(40),
      head_sha: 'f'.repeat(64),
      covers: 'e'.repeat(64),
      reason: 'r'.repeat(1000),
      gates: [stored({ metric: 'm'.repeat(200), threshold: 't'.repeat(400), where: { k: 'v'.repeat(400) } })],
    });
    expect(decodeState(withCurrent(longest))?.current).toEqual(longest);
  });

  it('the current acceptance: each field checked', () => {
    for (const bad of [
      { by: 7 },
      { by: 'u'.repeat(101) },
      { at: 't'.repeat(41) },
      { at: null },
      { head_sha: 'f'.repeat(65) },
      { covers: 'e'.repeat(65) },
      { covers: 7 },
      { reason: 7 },
      { reason: 'r'.repeat(1001) },
      { gates: 'all' },
      { gates: Array.from({ length: 41 }, () => stored()) },
    ])
      expect(decodeState(withCurrent({ ...standing(), ...bad })), JSON.stringify(bad).slice(0, 80)).toBeNull();
    const forty = standing({ gates: Array.from({ length: 40 }, (_, i) => stored({ metric: `m${i}` })) });
    expect(decodeState(withCurrent(forty))?.current?.gates).toHaveLength(40);
  });

  it('an acceptance is by label or by comment, and its source is of the same kind', () => {
    const byComment = standing({ via: 'comment', source: { kind: 'comment', comment_id: 7 }, reason: 'r' });
    expect(decodeState(withCurrent(byComment))?.current).toEqual(byComment);
    expect(decodeState(withCurrent(standing()))?.current).toEqual(standing());
    for (const bad of [
      { via: 'api', source: { kind: 'api', label: 'x' } },
      { via: 'label', source: { kind: 'comment', comment_id: 7 } },
      { via: 'label', source: { kind: 'comment', label: 'evalverdict: accept' } },
      { via: 'comment', source: { kind: 'label', label: 'evalverdict: accept' } },
      { via: 'label', source: null },
      { via: 'comment', source: null },
      { via: 'label', source: { kind: 'label', label: 'l'.repeat(101) } },
      { via: 'label', source: { kind: 'label' } },
    ])
      expect(decodeState(withCurrent({ ...standing(), ...bad })), JSON.stringify(bad)).toBeNull();
  });

  it('a comment source names a positive safe integer id', () => {
    const withId = (comment_id: unknown) =>
      withCurrent(standing({ via: 'comment', source: { kind: 'comment', comment_id } as never, reason: 'r' }));
    expect(decodeState(withId(1))?.current?.source).toEqual({ kind: 'comment', comment_id: 1 });
    expect(decodeState(withId(2 ** 53 - 1))?.current?.source).toEqual({ kind: 'comment', comment_id: 2 ** 53 - 1 });
    for (const bad of ['7', 0, -1, 1.5, 2 ** 53, null]) expect(decodeState(withId(bad)), String(bad)).toBeNull();
  });

  it('stored gates: each field checked', () => {
    const ok = stored();
    expect(decodeState(withGate(ok))?.current?.gates).toEqual([ok]);
    const fine: StoredGate[] = [
      byValue(0.5),
      byDelta(5, 'higher'),
      stored({ baseline: null, candidate: null, delta: null }),
      stored({ where: { tag: 'x' } }),
      stored({ where: { flagged: true } }),
      stored({ where: {} }),
    ];
    for (const g of fine) expect(decodeState(withGate(g))?.current?.gates, JSON.stringify(g)).toEqual([g]);
    for (const bad of [
      null,
      { ...ok, metric: 7 },
      { ...ok, metric: 'm'.repeat(201) },
      { ...ok, threshold: 7 },
      { ...ok, threshold: 't'.repeat(401) },
      { ...ok, judged: 'both' },
      { ...ok, worse: 'sideways' },
      { ...ok, baseline: 'x' },
      { ...ok, baseline: 'x', candidate: 1, delta: 1 },
      { ...ok, candidate: '0.5' },
      { ...ok, delta: true },
      { ...ok, where: null },
      { ...ok, where: 'tag=x' },
      { ...ok, where: ['x'] },
      { ...ok, where: { tag: 5 } },
      { ...ok, where: { tag: 'x', n: 5 } },
      { ...ok, where: { tag: 'v'.repeat(401) } },
    ])
      expect(decodeState(withGate(bad)), JSON.stringify(bad)?.slice(0, 80)).toBeNull();
    expect(decodeState(withCurrent({ ...standing(), gates: [ok, { ...ok, judged: 'x' }] }))).toBeNull();
  });

  it('a number past what a double holds (1e999 reads as Infinity) is no number', () => {
    const text = JSON.stringify({ v: 1, current: standing(), history: [], shown: [] }).replace(
      '"baseline":0.4',
      '"baseline":1e999',
    );
    expect(text).toContain('1e999');
    expect(decodeState(`<!-- evalverdict:acceptance-state ${Buffer.from(text).toString('base64')} -->`)).toBeNull();
  });
});

describe('withShown and shownAt', () => {
  it('only the last body, when still undated, takes the replaced comment’s time', () => {
    const state: AcceptanceState = {
      current: null,
      history: [],
      shown: [
        { sha: A, kind: 'report', since: T0 },
        { sha: B, kind: 'report', since: null },
      ],
    };
    expect(withShown(state, T1, { sha: 'c', kind: 'report' }).shown).toEqual([
      { sha: A, kind: 'report', since: T0 },
      { sha: B, kind: 'report', since: T1 },
      { sha: 'c', kind: 'report', since: null },
    ]);
    // A last body already dated (a state from elsewhere) keeps its date.
    const dated: AcceptanceState = { ...state, shown: [{ sha: A, kind: 'report', since: T0 }] };
    expect(withShown(dated, T1, { sha: B, kind: 'report' }).shown).toEqual([
      { sha: A, kind: 'report', since: T0 },
      { sha: B, kind: 'report', since: null },
    ]);
  });

  it('an undated body that is not the last is dropped: when it showed is not known', () => {
    const state: AcceptanceState = {
      current: null,
      history: [],
      shown: [
        { sha: A, kind: 'report', since: null },
        { sha: B, kind: 'report', since: null },
      ],
    };
    expect(withShown(state, T1, { sha: 'c', kind: 'error' }).shown).toEqual([
      { sha: B, kind: 'report', since: T1 },
      { sha: 'c', kind: 'error', since: null },
    ]);
    // No comment before (previousAt null): the body it replaces is not dated, and goes.
    expect(withShown(state, null, { sha: 'c', kind: 'error' }).shown).toEqual([
      { sha: 'c', kind: 'error', since: null },
    ]);
  });

  it('shownAt of a time that is no time is null', () => {
    const state: AcceptanceState = { current: null, history: [], shown: [{ sha: A, kind: 'report', since: T0 }] };
    expect(shownAt(state, T2, T1)?.sha).toBe(A);
    expect(shownAt(state, T2, 'not a time')).toBeNull();
  });
});

describe('renderHistory: the audit trail', () => {
  it('no history shows nothing', () => {
    expect(renderHistory({ current: null, history: [], shown: [] })).toBe('');
  });

  it('a table of who accepted what, when, for which commit and why', () => {
    const state: AcceptanceState = {
      current: null,
      history: [
        entry({ gates: ['a', 'b', 'c'], reason: null }),
        entry({ event: 'lapsed', by: 'm|x', head_sha: '<b>123456789', gates: ['a', 'b', 'c', 'd'] }),
      ],
      shown: [],
    };
    expect(renderHistory(state)).toBe(
      [
        '',
        '<details><summary>Acceptances on this pull request</summary>',
        '',
        '| When | What | Who | Commit | Gates | Reason |',
        '| --- | --- | --- | --- | --- | --- |',
        '| 2026-12-01T10:00:00Z | accepted | @writer | `aaaaaaa` | a, b, c | — |',
        '| 2026-12-01T10:00:00Z | lapsed | @m\\|x | `b1234` | a, b, c, … | r |',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
  });

  it('shows the last five of a longer history and says so', () => {
    const history = Array.from({ length: 7 }, (_, i) => entry({ by: `u${i}` }));
    const text = renderHistory({ current: null, history, shown: [] });
    expect(text).toContain('<summary>Acceptances on this pull request (the last 5)</summary>');
    expect(text.split('\n').filter((l) => l.startsWith('| 2026'))).toEqual(
      ['u2', 'u3', 'u4', 'u5', 'u6'].map(
        (by) => `| 2026-12-01T10:00:00Z | accepted | @${by} | \`aaaaaaa\` | nDCG@10 | r |`,
      ),
    );
    const five = renderHistory({ current: null, history: history.slice(0, 5), shown: [] });
    expect(five).toContain('<summary>Acceptances on this pull request</summary>');
  });
});

describe('gateKey keeps groups apart', () => {
  it('{tag: x, lang: en} and {lang: "en,tag=x"} are two gates: a failing one does not lapse the other', () => {
    const a = gateKey({ metric: 'nDCG@10', where: { tag: 'x', lang: 'en' }, threshold: 'drop ≤ 0.0100' });
    const b = gateKey({ metric: 'nDCG@10', where: { lang: 'en,tag=x' }, threshold: 'drop ≤ 0.0100' });
    expect(a).not.toBe(b);
    expect(gateKey({ metric: 'm', where: { b: '1', a: '2' }, threshold: 't' })).toBe(
      gateKey({ metric: 'm', where: { a: '2', b: '1' }, threshold: 't' }),
    );
  });
});
