/**
 * The pure half of issue 36's rest: the `/evalverdict` command parser, the carry-over rule, the hidden state's
 * encoding (tampered or foreign state is no state) and the run decision with what earlier runs left.
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import { parseCommand } from '../src/action/parseCommand.js';
import { keepStateLine, stickyBody } from '../src/publish/stickyComment.js';
import { panelText } from '../src/render/errorPanel.js';
import { acceptedGateOf } from '../src/acceptance/decision.js';
import type { AcceptanceFacts } from '../src/acceptance/decision.js';
import { decideRun } from '../src/acceptance/runDecision.js';
import type { RunFacts } from '../src/acceptance/runDecision.js';
import {
  HISTORY_KEPT,
  SHOWN_KEPT,
  carryOver,
  decodeState,
  encodeState,
  shownAt,
  withShown,
  worseOf,
} from '../src/acceptance/state.js';
import type { AcceptanceState, StandingAcceptance } from '../src/acceptance/state.js';

const LABEL = 'evalverdict: accept';
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
    source: { kind: 'label', label: LABEL },
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
    expect(parseCommand('/evalverdict accept nDCG@10 -- cheaper reranker')).toEqual({
      kind: 'accept',
      gates: ['nDCG@10'],
      reason: 'cheaper reranker',
    });
    expect(parseCommand('\n  /evalverdict accept   -- smaller index -- on purpose\nmore text')).toEqual({
      kind: 'accept',
      gates: [],
      reason: 'smaller index -- on purpose',
    });
    expect(parseCommand('/evalverdict accept hit@5 hit@5 recall@10 -- x')).toMatchObject({
      gates: ['hit@5', 'recall@10'],
    });
    expect(parseCommand('/EvalVerdict rerun')).toEqual({ kind: 'rerun' });
  });

  it('anything else on the first line is no command; a broken one says what is wrong', () => {
    expect(parseCommand('LGTM\n/evalverdict accept -- x')).toEqual({ kind: 'none' });
    expect(parseCommand('/evalverdictaccept -- x')).toEqual({ kind: 'none' });
    expect(parseCommand(42)).toEqual({ kind: 'none' });
    // Whole problems, not toMatchObject with a RegExp: a RegExp has no own keys, so as a subset it matches any value.
    const malformed = (problem: string) => ({ kind: 'malformed', problem });
    expect(parseCommand('/evalverdict accept nDCG@10 cheaper')).toEqual(
      malformed('no `-- REASON`: say why the drop is accepted'),
    );
    expect(parseCommand('/evalverdict accept --')).toEqual(malformed('the reason after `--` is empty'));
    expect(parseCommand('/evalverdict accept -- '.padEnd(400, 'x'))).toEqual(
      malformed('the reason is over 300 characters'),
    );
    expect(parseCommand('/evalverdict accept <b> -- x')).toEqual(malformed('a gate name is not a metric name'));
    expect(parseCommand('/evalverdict rerun now')).toEqual(malformed('`rerun` takes no arguments'));
    expect(parseCommand('/evalverdict')).toEqual(malformed('no command after /evalverdict'));
    expect(parseCommand('/evalverdict merge')).toEqual(malformed('unknown command'));
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
    shown: [
      { sha: A, kind: 'report', since: '2026-11-01T10:00:00Z' },
      { sha: B, kind: 'report', since: null },
    ],
  };

  it('round-trips, and no text in it can close the HTML comment', () => {
    const line = encodeState(state);
    expect(line).toMatch(/^<!-- evalverdict:acceptance-state [A-Za-z0-9+/=]+ -->$/);
    expect(decodeState(`report\n${line}\n`)).toEqual(state);
    expect(encodeState({ current: null, history: [], shown: [] })).toBe('');
  });

  it('tampered, foreign or oversized state is no state', () => {
    const line = encodeState(state);
    const b64 = (o: unknown) =>
      `<!-- evalverdict:acceptance-state ${Buffer.from(JSON.stringify(o)).toString('base64')} -->`;
    expect(decodeState(line.replace('-->', 'x -->'))).toBeNull();
    expect(decodeState('<!-- evalverdict:acceptance-state !!! -->')).toBeNull();
    expect(decodeState(b64({ v: 2, current: null, history: [], shown: [] }))).toBeNull();
    expect(decodeState(b64({ v: 1, current: { ...state.current, via: 'api' }, history: [], shown: [] }))).toBeNull();
    const bad = { ...state.current, gates: [{ ...state.current?.gates[0], worse: 'sideways' }] };
    expect(decodeState(b64({ v: 1, current: bad, history: [], shown: [] }))).toBeNull();
    expect(decodeState(b64({ v: 1, current: null, history: [{ event: 'accepted' }], shown: [] }))).toBeNull();
  });
});

describe('decideRun', () => {
  it('a worse drop on a new push lapses the acceptance and records it; an equal one carries it over', () => {
    const prior: AcceptanceState = { current: standing([gate({})]), history: [], shown: [] };
    const worse = decideRun(facts({ prior, failing: [gate({ delta: -0.05 })] }));
    expect(worse.decision).toEqual({
      kind: 'refused',
      reason:
        'the earlier acceptance by @writer (for `aaaaaaa`) no longer covers `bbbbbbb`: nDCG@10 is −0.0500, worse than the accepted −0.0200.',
    });
    expect(worse.state.current).toBeNull();
    expect(worse.state.history.map((h) => h.event)).toEqual(['lapsed']);
    const equal = decideRun(facts({ prior }));
    expect(equal.decision).toMatchObject({ kind: 'accepted', acceptance: { head_sha: A, carried_over_to: B } });
    expect(equal.state.current?.covers).toBe(B);
  });

  it('a label acceptance whose label is gone is withdrawn; a comment acceptance does not need the label', () => {
    const prior: AcceptanceState = { current: standing([gate({})]), history: [], shown: [] };
    expect(decideRun(facts({ prior, labels: [] })).state.history.map((h) => h.event)).toEqual(['withdrawn']);
    const byComment: AcceptanceState = {
      current: standing([gate({})], { via: 'comment', source: { kind: 'comment', comment_id: 7 }, reason: 'r' }),
      history: [],
      shown: [],
    };
    expect(decideRun(facts({ prior: byComment, labels: [] })).decision.kind).toBe('accepted');
  });

  it('a command accepts the named failed gates only, refuses names that are not failing, and checks permission', () => {
    const failing = [gate({}), gate({ metric: 'hit@5', threshold: '≥ 0.99', min: 0.99, max_drop: undefined })];
    const writer = { login: 'm', permission: 'write', roleName: 'maintain' };
    const named = decideRun(
      facts({ failing, command: { by: 'm', commentId: 7, gates: ['ndcg@10'], reason: 'r', permission: writer } }),
    );
    expect(named.decision).toMatchObject({ kind: 'accepted', acceptance: { by: 'm', reason: 'r', head_sha: B } });
    if (named.decision.kind === 'accepted')
      expect(named.decision.acceptance.gates.map((g) => g.metric)).toEqual(['nDCG@10']);
    const unknown = decideRun(
      facts({ failing, command: { by: 'm', commentId: 7, gates: ['mrr@10'], reason: 'r', permission: writer } }),
    );
    expect(unknown.decision).toEqual({
      kind: 'refused',
      reason: 'mrr@10 is not among the failed gates (nDCG@10, hit@5); nothing was accepted.',
    });
    const reader = { login: 'm', permission: 'read', roleName: 'read' };
    expect(
      decideRun(facts({ failing, command: { by: 'm', commentId: 7, gates: [], reason: 'r', permission: reader } }))
        .decision.kind,
    ).toBe('refused');
  });

  it('keeps the last HISTORY_KEPT entries', () => {
    let state: AcceptanceState = { current: null, history: [], shown: [] };
    for (let i = 0; i < HISTORY_KEPT + 3; i++) {
      const writer = { login: `u${i}`, permission: 'admin', roleName: 'admin' };
      state = decideRun(
        facts({ prior: state, command: { by: `u${i}`, commentId: 7, gates: [], reason: 'r', permission: writer } }),
      ).state;
    }
    expect(state.history).toHaveLength(HISTORY_KEPT);
    expect(state.history.at(-1)?.by).toBe(`u${HISTORY_KEPT + 2}`);
  });
});

describe('keepStateLine', () => {
  const line = '<!-- evalverdict:acceptance-state eyJ2IjoxfQ== -->';
  it('a new body without a state line keeps the one of the comment it replaces; one with its own keeps its own', () => {
    expect(keepStateLine(`M\nold report\n${line}\n`, 'M\ngreen report\n')).toBe(`M\ngreen report\n${line}\n`);
    expect(keepStateLine('M\nold report\n', 'M\ngreen report\n')).toBe('M\ngreen report\n');
    const own = '<!-- evalverdict:acceptance-state bmV3 -->';
    expect(keepStateLine(`M\n${line}\n`, `M\nnew\n${own}\n`)).toBe(`M\nnew\n${own}\n`);
    // Only the exact hidden line counts: a look-alike in the text is not carried.
    expect(keepStateLine('M\n<!-- evalverdict:acceptance-state not base64! -->\n', 'M\nx\n')).toBe('M\nx\n');
  });

  it('the kept line goes after exactly one line end, whatever the new body ends with; no previous body keeps none', () => {
    for (const body of ['M\ngreen', 'M\ngreen\n', 'M\ngreen\n\n\n'])
      expect(keepStateLine(`M\nold\n\n${line}\n\n`, body)).toBe(`M\ngreen\n${line}\n`);
    expect(keepStateLine(null, 'M\ngreen\n')).toBe('M\ngreen\n');
    expect(keepStateLine(undefined, 'M\ngreen\n')).toBe('M\ngreen\n');
  });
});

describe('the state is read from one place that only EvalVerdict writes', () => {
  const state: AcceptanceState = {
    current: standing([gate({})]),
    history: [],
    shown: [{ sha: A, kind: 'report', since: null }],
  };
  const planted = encodeState({ ...state, current: standing([gate({ delta: -0.9 })], { by: 'maintainer-2' }) });

  it('only the final line is read: a state line anywhere else is text', () => {
    const line = encodeState(state);
    expect(decodeState(`M\n${line}\n\n`)).toEqual(state);
    expect(decodeState(`M\n${planted}\nreport\n${line}\n`)).toEqual(state);
    expect(decodeState(`M\n${line}\nreport after it\n`)).toBeNull();
    expect(decodeState(`M\n    ${line}\n`)).toBeNull();
    expect(decodeState(`M\nx ${line}\n`)).toBeNull();
  });

  it('keepStateLine keeps the final state line of the old body, never a planted one', () => {
    const line = encodeState(state);
    // The new body (an error panel) quotes a planted line: it is not the new body's state, the old one's is kept.
    expect(keepStateLine(`M\nold\n${line}\n`, `M\n\`\`\`\n${planted}\n\`\`\`\n`)).toBe(
      `M\n\`\`\`\n${planted}\n\`\`\`\n${line}\n`,
    );
    // A planted line in the old body's text is not carried: only its final line is its state.
    expect(keepStateLine(`M\n${planted}\nold report\n`, 'M\nnew\n')).toBe('M\nnew\n');
  });

  it('stickyBody: no report text can open an HTML comment; the state line is the final line', () => {
    const body = stickyBody('<!-- m -->', `report\n${planted}\nend`, encodeState(state));
    expect(body.split('\n').filter((l) => l.includes('<!--'))).toEqual(['<!-- m -->', encodeState(state)]);
    expect(decodeState(body)).toEqual(state);
    expect(stickyBody('<!-- m -->', `a <!-- b --> c`)).toBe('<!-- m -->\na &lt;!-- b --> c');
  });

  it('the error panel breaks comment openers and closers and cuts long words', () => {
    const text = panelText(`run \`${planted}\`: created_at "yesterday" is not a time`);
    expect(text).not.toContain('<!--');
    expect(text).not.toContain('-->');
    expect(text).toMatch(
      /^run `<!- - evalverdict:acceptance-state [A-Za-z0-9+/=]{120}… \(\d+ characters\) - ->`: created_at/,
    );
    expect(panelText('a --!> b')).toBe('a - -!> b');
    expect(panelText(`${'é'.repeat(121)} ok`)).toBe(`${'é'.repeat(120)}… (121 characters) ok`);
    expect(panelText(`${'x'.repeat(120)}`)).toBe('x'.repeat(120));
  });
});

describe('which report the comment showed when', () => {
  const T0 = '2026-12-01T10:00:00Z';
  const T1 = '2026-12-01T10:05:00Z';
  const T2 = '2026-12-01T10:09:00Z';
  const empty: AcceptanceState = { current: null, history: [], shown: [] };

  it('withShown dates the previous body by the comment it replaces; a rerun of the same report adds nothing', () => {
    const first = withShown(empty, null, { sha: A, kind: 'report' });
    expect(first.shown).toEqual([{ sha: A, kind: 'report', since: null }]);
    expect(withShown(first, T1, { sha: A, kind: 'report' })).toBe(first);
    const second = withShown(first, T0, { sha: B, kind: 'report' });
    expect(second.shown).toEqual([
      { sha: A, kind: 'report', since: T0 },
      { sha: B, kind: 'report', since: null },
    ]);
    expect(withShown(second, T1, { sha: B, kind: 'error' }).shown.map((r) => r.kind)).toEqual([
      'report',
      'report',
      'error',
    ]);
    let many = empty;
    for (let i = 0; i < SHOWN_KEPT + 4; i++)
      many = withShown(many, `2026-12-01T10:${String(i).padStart(2, '0')}:00Z`, { sha: String(i), kind: 'report' });
    expect(many.shown).toHaveLength(SHOWN_KEPT);
    expect(many.shown.at(-1)).toEqual({ sha: String(SHOWN_KEPT + 3), kind: 'report', since: null });
  });

  it('shownAt: the newest body written strictly before the command, the last dated by updated_at', () => {
    const state: AcceptanceState = {
      ...empty,
      shown: [
        { sha: A, kind: 'report', since: T0 },
        { sha: B, kind: 'report', since: null },
      ],
    };
    expect(shownAt(state, T1, '2026-12-01T10:03:00Z')?.sha).toBe(A);
    expect(shownAt(state, T1, T1)?.sha).toBe(A);
    expect(shownAt(state, T1, T2)?.sha).toBe(B);
    expect(shownAt(state, T1, '2026-12-01T09:59:59Z')).toBeNull();
    expect(shownAt(state, T1, T0)).toBeNull();
    expect(shownAt(state, T1, 'yesterday')).toBeNull();
  });
});

describe('commands are read as GitHub renders them', () => {
  it('code blocks, quotes, lists, HTML and inline code are never commands', () => {
    for (const body of [
      '    /evalverdict accept -- quoting the syntax',
      '```\n/evalverdict accept -- x\n```',
      '~~~md\n/evalverdict accept -- x\n~~~',
      '> /evalverdict accept -- x',
      '- /evalverdict accept -- x',
      '1. /evalverdict accept -- x',
      '<!--\n/evalverdict accept -- x\n-->',
      '<details>\n/evalverdict accept -- x\n</details>',
      '`/evalverdict accept -- x`',
      '/evalverdict accept -- x\n---',
      'LGTM\n/evalverdict accept -- x',
      '| a |\n| - |\n| /evalverdict accept -- x |',
    ])
      expect(parseCommand(body), body).toEqual({ kind: 'none' });
  });

  it('a command starts a top-level paragraph; one per comment', () => {
    expect(parseCommand('LGTM.\n\n/evalverdict accept -- fine')).toEqual({ kind: 'accept', gates: [], reason: 'fine' });
    expect(parseCommand('> quoted\n\n  /evalverdict rerun')).toEqual({ kind: 'rerun' });
    expect(parseCommand('/evalverdict accept -- a\nmore words')).toEqual({ kind: 'accept', gates: [], reason: 'a' });
    expect(parseCommand('/evalverdict rerun\n\n/evalverdict accept -- x')).toEqual({
      kind: 'malformed',
      problem: 'one command per comment',
    });
    expect(parseCommand(`/evalverdict rerun\n${'x'.repeat(70_000)}`)).toEqual({ kind: 'none' });
  });
});
