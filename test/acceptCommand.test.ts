/**
 * The pure half of issue 36's rest: the `/evalgate` command parser, the carry-over rule, the hidden state's
 * encoding (tampered or foreign state is no state) and the run decision with what earlier runs left.
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import { parseCommand } from '../src/action/acceptCommand.js';
import { keepStateLine } from '../src/github/stickyComment.js';
import { acceptedGateOf } from '../src/publish/acceptance.js';
import type { AcceptanceFacts } from '../src/publish/acceptance.js';
import { decideRun } from '../src/publish/acceptanceDecision.js';
import type { RunFacts } from '../src/publish/acceptanceDecision.js';
import { HISTORY_KEPT, carryOver, decodeState, encodeState, worseOf } from '../src/publish/acceptanceState.js';
import type { AcceptanceState, StandingAcceptance } from '../src/publish/acceptanceState.js';

const LABEL = 'evalgate: accept';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

function gate(over: Partial<GateResult>): GateResult {
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

function standing(gates: GateResult[], over: Partial<StandingAcceptance> = {}): StandingAcceptance {
  return {
    by: 'writer',
    at: '2026-11-01T00:00:00Z',
    head_sha: A,
    reason: null,
    via: 'label',
    covers: A,
    gates: gates.map((g) => ({ ...acceptedGateOf(g), worse: worseOf(g) })),
    ...over,
  };
}

function facts(over: Partial<RunFacts> = {}): RunFacts {
  const base: AcceptanceFacts = {
    label: LABEL,
    event: { kind: 'other', name: 'pull_request (synchronize)' },
    labels: [LABEL],
    permission: null,
    headSha: B,
    failing: [gate({})],
    now: '2026-11-02T00:00:00Z',
  };
  return { ...base, prior: null, command: null, ...over };
}

describe('parseCommand', () => {
  it('reads accept with gates and a reason, accept of every gate, and rerun', () => {
    expect(parseCommand('/evalgate accept nDCG@10 -- cheaper reranker')).toEqual({
      kind: 'accept',
      gates: ['nDCG@10'],
      reason: 'cheaper reranker',
    });
    expect(parseCommand('\n  /evalgate accept   -- smaller index -- on purpose\nmore text')).toEqual({
      kind: 'accept',
      gates: [],
      reason: 'smaller index -- on purpose',
    });
    expect(parseCommand('/evalgate accept hit@5 hit@5 recall@10 -- x')).toMatchObject({
      gates: ['hit@5', 'recall@10'],
    });
    expect(parseCommand('/EvalGate rerun')).toEqual({ kind: 'rerun' });
  });

  it('anything else on the first line is no command; a broken one says what is wrong', () => {
    expect(parseCommand('LGTM\n/evalgate accept -- x')).toEqual({ kind: 'none' });
    expect(parseCommand('/evalgateaccept -- x')).toEqual({ kind: 'none' });
    expect(parseCommand(42)).toEqual({ kind: 'none' });
    expect(parseCommand('/evalgate accept nDCG@10 cheaper')).toMatchObject({
      kind: 'malformed',
      problem: /no `-- REASON`/,
    });
    expect(parseCommand('/evalgate accept --')).toMatchObject({ kind: 'malformed', problem: /empty/ });
    expect(parseCommand('/evalgate accept -- '.padEnd(400, 'x'))).toMatchObject({ kind: 'malformed' });
    expect(parseCommand('/evalgate accept <b> -- x')).toMatchObject({ kind: 'malformed', problem: /gate name/ });
    expect(parseCommand('/evalgate rerun now')).toMatchObject({ kind: 'malformed' });
    expect(parseCommand('/evalgate')).toMatchObject({ kind: 'malformed', problem: /no command/ });
    expect(parseCommand('/evalgate merge')).toMatchObject({ kind: 'malformed', problem: /unknown/ });
  });
});

describe('carryOver', () => {
  const accepted = standing([gate({})]);
  it('an equal or smaller drop carries over; a larger one does not', () => {
    expect(carryOver(accepted, [acceptedGateOf(gate({}))])).toEqual({ ok: true });
    expect(carryOver(accepted, [acceptedGateOf(gate({ delta: -0.015 }))])).toEqual({ ok: true });
    expect(carryOver(accepted, [acceptedGateOf(gate({ delta: -0.0201 }))])).toEqual({
      ok: false,
      why: 'nDCG@10 is −0.0201, worse than the accepted −0.0200',
    });
  });

  it('a higher-is-worse gate (max, max_increase) gets worse upward', () => {
    const latency = gate({ metric: 'latency_p95', max_drop: undefined, max: 200, threshold: '≤ 200', candidate: 250 });
    expect(worseOf(latency)).toBe('higher');
    const s = standing([latency]);
    expect(carryOver(s, [acceptedGateOf({ ...latency, candidate: 240 })]).ok).toBe(true);
    expect(carryOver(s, [acceptedGateOf({ ...latency, candidate: 251 })]).ok).toBe(false);
  });

  it('gates the acceptance did not name are not its business: they fail on their own', () => {
    expect(carryOver(accepted, [acceptedGateOf(gate({ metric: 'hit@5' }))])).toEqual({ ok: true });
    // A changed threshold is another gate.
    expect(carryOver(accepted, [acceptedGateOf(gate({ threshold: 'drop ≤ 0.0300' }))])).toEqual({ ok: true });
  });
});

describe('the hidden state line', () => {
  const state: AcceptanceState = {
    current: standing([gate({})]),
    history: [{ event: 'accepted', by: 'writer', at: 'x', head_sha: A, gates: ['nDCG@10'], reason: '--> <!--' }],
  };

  it('round-trips, and no text in it can close the HTML comment', () => {
    const line = encodeState(state);
    expect(line).toMatch(/^<!-- evalgate:acceptance-state [A-Za-z0-9+/=]+ -->$/);
    expect(decodeState(`report\n${line}\n`)).toEqual(state);
    expect(encodeState({ current: null, history: [] })).toBe('');
  });

  it('tampered, foreign or oversized state is no state', () => {
    const line = encodeState(state);
    const b64 = (o: unknown) =>
      `<!-- evalgate:acceptance-state ${Buffer.from(JSON.stringify(o)).toString('base64')} -->`;
    expect(decodeState(line.replace('-->', 'x -->'))).toBeNull();
    expect(decodeState('<!-- evalgate:acceptance-state !!! -->')).toBeNull();
    expect(decodeState(b64({ v: 2, current: null, history: [] }))).toBeNull();
    expect(decodeState(b64({ v: 1, current: { ...state.current, via: 'api' }, history: [] }))).toBeNull();
    const bad = { ...state.current, gates: [{ ...state.current?.gates[0], worse: 'sideways' }] };
    expect(decodeState(b64({ v: 1, current: bad, history: [] }))).toBeNull();
    expect(decodeState(b64({ v: 1, current: null, history: [{ event: 'accepted' }] }))).toBeNull();
  });
});

describe('decideRun', () => {
  it('a worse drop on a new push lapses the acceptance and records it; an equal one carries it over', () => {
    const prior: AcceptanceState = { current: standing([gate({})]), history: [] };
    const worse = decideRun(facts({ prior, failing: [gate({ delta: -0.05 })] }));
    expect(worse.decision).toMatchObject({ kind: 'refused', reason: /no longer covers `bbbbbbb`: nDCG@10 is −0.0500/ });
    expect(worse.state.current).toBeNull();
    expect(worse.state.history.map((h) => h.event)).toEqual(['lapsed']);
    const equal = decideRun(facts({ prior }));
    expect(equal.decision).toMatchObject({ kind: 'accepted', acceptance: { head_sha: A, carried_over_to: B } });
    expect(equal.state.current?.covers).toBe(B);
  });

  it('a label acceptance whose label is gone is withdrawn; a comment acceptance does not need the label', () => {
    const prior: AcceptanceState = { current: standing([gate({})]), history: [] };
    expect(decideRun(facts({ prior, labels: [] })).state.history.map((h) => h.event)).toEqual(['withdrawn']);
    const byComment: AcceptanceState = { current: standing([gate({})], { via: 'comment', reason: 'r' }), history: [] };
    expect(decideRun(facts({ prior: byComment, labels: [] })).decision.kind).toBe('accepted');
  });

  it('a command accepts the named failed gates only, refuses names that are not failing, and checks permission', () => {
    const failing = [gate({}), gate({ metric: 'hit@5', threshold: '≥ 0.99', min: 0.99, max_drop: undefined })];
    const writer = { login: 'm', permission: 'write', roleName: 'maintain' };
    const named = decideRun(
      facts({ failing, command: { by: 'm', gates: ['ndcg@10'], reason: 'r', permission: writer } }),
    );
    expect(named.decision).toMatchObject({ kind: 'accepted', acceptance: { by: 'm', reason: 'r', head_sha: B } });
    if (named.decision.kind === 'accepted')
      expect(named.decision.acceptance.gates.map((g) => g.metric)).toEqual(['nDCG@10']);
    const unknown = decideRun(
      facts({ failing, command: { by: 'm', gates: ['mrr@10'], reason: 'r', permission: writer } }),
    );
    expect(unknown.decision).toMatchObject({ kind: 'refused', reason: /mrr@10 is not among the failed gates/ });
    const reader = { login: 'm', permission: 'read', roleName: 'read' };
    expect(
      decideRun(facts({ failing, command: { by: 'm', gates: [], reason: 'r', permission: reader } })).decision.kind,
    ).toBe('refused');
  });

  it('keeps the last HISTORY_KEPT entries', () => {
    let state: AcceptanceState = { current: null, history: [] };
    for (let i = 0; i < HISTORY_KEPT + 3; i++) {
      const writer = { login: `u${i}`, permission: 'admin', roleName: 'admin' };
      state = decideRun(
        facts({ prior: state, command: { by: `u${i}`, gates: [], reason: 'r', permission: writer } }),
      ).state;
    }
    expect(state.history).toHaveLength(HISTORY_KEPT);
    expect(state.history.at(-1)?.by).toBe(`u${HISTORY_KEPT + 2}`);
  });
});

describe('keepStateLine', () => {
  const line = '<!-- evalgate:acceptance-state eyJ2IjoxfQ== -->';
  it('a new body without a state line keeps the one of the comment it replaces; one with its own keeps its own', () => {
    expect(keepStateLine(`M\nold report\n${line}\n`, 'M\ngreen report\n')).toBe(`M\ngreen report\n${line}\n`);
    expect(keepStateLine('M\nold report\n', 'M\ngreen report\n')).toBe('M\ngreen report\n');
    const own = '<!-- evalgate:acceptance-state bmV3 -->';
    expect(keepStateLine(`M\n${line}\n`, `M\nnew\n${own}\n`)).toBe(`M\nnew\n${own}\n`);
    // Only the exact hidden line counts: a look-alike in the text is not carried.
    expect(keepStateLine('M\n<!-- evalgate:acceptance-state not base64! -->\n', 'M\nx\n')).toBe('M\nx\n');
  });

  it('the kept line goes after exactly one line end, whatever the new body ends with; no previous body keeps none', () => {
    for (const body of ['M\ngreen', 'M\ngreen\n', 'M\ngreen\n\n\n'])
      expect(keepStateLine(`M\nold\n\n${line}\n\n`, body)).toBe(`M\ngreen\n${line}\n`);
    expect(keepStateLine(null, 'M\ngreen\n')).toBe('M\ngreen\n');
    expect(keepStateLine(undefined, 'M\ngreen\n')).toBe('M\ngreen\n');
  });
});
