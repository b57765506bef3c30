/**
 * One run's acceptance decision with what earlier runs left, written for the mutants `npm run mutate` left in
 * src/acceptance/runDecision.ts (issue 44): the label removed, added, or still on; a command's checks in their
 * own words; a standing acceptance carried over, kept, lapsed or withdrawn; one the API could not confirm. Whole
 * decisions and states are compared, so a field dropped or renamed fails. Every value is computed inside its test
 * (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import { acceptedGateOf } from '../src/acceptance/decision.js';
import type { AcceptanceFacts, Permission } from '../src/acceptance/decision.js';
import { decideRun, unconfirmedDecision } from '../src/acceptance/runDecision.js';
import type { AcceptCommand, RunFacts } from '../src/acceptance/runDecision.js';
import { worseOf } from '../src/acceptance/state.js';
import type { AcceptanceState, HistoryEntry, StandingAcceptance } from '../src/acceptance/state.js';

const LABEL = 'evalverdict: accept';
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const THEN = '2026-11-01T00:00:00Z';
const NOW = '2026-11-02T00:00:00Z';
const WRITER: Permission = { login: 'm', permission: 'write', roleName: 'maintain' };

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

const HIT5 = (): GateResult => gate({ metric: 'hit@5', threshold: '≥ 0.9900', min: 0.99, max_drop: undefined });

function standing(over: Partial<StandingAcceptance> = {}): StandingAcceptance {
  return {
    by: 'writer',
    at: THEN,
    head_sha: A,
    reason: null,
    via: 'label',
    source: { kind: 'label', label: LABEL },
    covers: A,
    gates: [gate()].map((g) => ({ ...acceptedGateOf(g), worse: worseOf(g) })),
    ...over,
  };
}

function prior(current: StandingAcceptance | null, history: HistoryEntry[] = []): AcceptanceState {
  return { current, history, shown: [{ sha: A, kind: 'report', since: null }] };
}

function facts(over: Partial<RunFacts> = {}): RunFacts {
  const base: AcceptanceFacts = {
    label: LABEL,
    event: { kind: 'other', name: 'pull_request (synchronize)' },
    labels: [LABEL],
    permission: null,
    headSha: B,
    failing: [gate()],
    now: NOW,
  };
  return { ...base, prior: null, command: null, ...over };
}

function command(over: Partial<AcceptCommand> = {}): AcceptCommand {
  return { by: 'm', commentId: 7, gates: [], reason: 'r', permission: WRITER, ...over };
}

const entry = (event: HistoryEntry['event'], head_sha: string, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  event,
  by: 'writer',
  at: NOW,
  head_sha,
  gates: ['nDCG@10'],
  reason: null,
  ...over,
});

describe('the label removed', () => {
  it('withdraws a standing acceptance, for the head commit', () => {
    const was = prior(standing(), [entry('accepted', A, { at: THEN })]);
    const event = { kind: 'unlabeled' as const, label: LABEL, sender: 'writer' };
    expect(decideRun(facts({ prior: was, event, labels: [] }))).toEqual({
      decision: { kind: 'none' },
      state: { ...was, current: null, history: [entry('accepted', A, { at: THEN }), entry('withdrawn', B)] },
    });
  });

  it('with no head commit known, names the newest commit the acceptance covered', () => {
    const was = prior(standing({ covers: C }));
    const event = { kind: 'unlabeled' as const, label: ` ${LABEL.toUpperCase()} `, sender: 'writer' };
    expect(decideRun(facts({ prior: was, event, labels: [], headSha: null })).state.history).toEqual([
      entry('withdrawn', C),
    ]);
  });

  it('withdraws a comment acceptance too (docs/action.md: "made by label or comment")', () => {
    const byComment = standing({ via: 'comment', source: { kind: 'comment', comment_id: 7 }, reason: 'r' });
    const was = prior(byComment);
    const event = { kind: 'unlabeled' as const, label: LABEL, sender: 'writer' };
    expect(decideRun(facts({ prior: was, event, labels: [] }))).toEqual({
      decision: { kind: 'none' },
      state: { ...was, current: null, history: [entry('withdrawn', B, { reason: 'r' })] },
    });
  });

  it('with no standing acceptance, changes nothing', () => {
    const was = prior(null);
    const event = { kind: 'unlabeled' as const, label: LABEL, sender: 'writer' };
    const run = decideRun(facts({ prior: was, event, labels: [], failing: [] }));
    expect(run.decision).toEqual({ kind: 'none' });
    expect(run.state).toBe(was);
  });

  it('another label removed is not the accept label removed', () => {
    const was = prior(standing({ via: 'comment', source: { kind: 'comment', comment_id: 7 }, reason: 'r' }));
    const event = { kind: 'unlabeled' as const, label: 'bug', sender: 'writer' };
    const run = decideRun(facts({ prior: was, event, labels: [] }));
    expect(run.decision).toMatchObject({ kind: 'accepted' });
    expect(run.state.current?.covers).toBe(B);
  });
});

describe('the label added', () => {
  it('by a writer: a standing acceptance of the failed gates, sourced from the label, in the history', () => {
    const event = { kind: 'labeled' as const, label: LABEL, sender: 'w' };
    const permission: Permission = { login: 'w', permission: 'admin', roleName: 'admin' };
    const was = prior(null);
    const run = decideRun(facts({ prior: was, event, permission, failing: [gate(), HIT5()] }));
    const gates = [gate(), HIT5()].map(acceptedGateOf);
    expect(run.decision).toEqual({
      kind: 'accepted',
      acceptance: { by: 'w', at: NOW, head_sha: B, gates, reason: null },
    });
    expect(run.state).toEqual({
      ...was,
      current: {
        by: 'w',
        at: NOW,
        head_sha: B,
        reason: null,
        via: 'label',
        source: { kind: 'label', label: LABEL },
        covers: B,
        gates: gates.map((g) => ({ ...g, worse: 'lower' })),
      },
      history: [{ event: 'accepted', by: 'w', at: NOW, head_sha: B, gates: ['nDCG@10', 'hit@5'], reason: null }],
    });
  });

  it('by a reader: refused, and the state is left as it was', () => {
    const event = { kind: 'labeled' as const, label: LABEL, sender: 'r' };
    const permission: Permission = { login: 'r', permission: 'read', roleName: 'read' };
    const was = prior(standing());
    const run = decideRun(facts({ prior: was, event, permission }));
    expect(run.decision.kind).toBe('refused');
    expect(run.state).toBe(was);
  });

  it('another label added is no acceptance: a standing one goes on being checked', () => {
    const event = { kind: 'labeled' as const, label: 'bug', sender: 'w' };
    const permission: Permission = { login: 'w', permission: 'admin', roleName: 'admin' };
    const run = decideRun(facts({ prior: prior(standing()), event, permission }));
    expect(run.decision).toMatchObject({ kind: 'accepted', acceptance: { by: 'writer', carried_over_to: B } });
  });
});

describe('no event for the label, nothing standing', () => {
  it('the label decision alone: a label on the pull request from before does not accept a new commit', () => {
    const run = decideRun(facts({ prior: null }));
    expect(run.decision).toEqual({
      kind: 'refused',
      reason:
        'the label `evalverdict: accept` was added for an earlier commit: the earlier acceptance does not cover `bbbbbbb`. Remove the label and add it again to accept this commit.',
    });
    expect(run.state).toEqual({ current: null, history: [], shown: [] });
    expect(decideRun(facts({ prior: null, labels: [] }))).toEqual({
      decision: { kind: 'none' },
      state: { current: null, history: [], shown: [] },
    });
  });
});

describe('a standing acceptance on a later run', () => {
  it('carried over to a new head: the acceptance as made, the state covering the new head', () => {
    const was = prior(standing());
    const run = decideRun(facts({ prior: was }));
    expect(run.decision).toEqual({
      kind: 'accepted',
      acceptance: {
        by: 'writer',
        at: THEN,
        head_sha: A,
        gates: [acceptedGateOf(gate())],
        reason: null,
        carried_over_to: B,
      },
    });
    expect(run.state).toEqual({ ...was, current: { ...standing(), covers: B }, history: [entry('carried over', B)] });
  });

  it('on the commit it already covers: the same acceptance, and the state unchanged', () => {
    const was = prior(standing({ covers: B }));
    const run = decideRun(facts({ prior: was }));
    expect(run.state).toBe(was);
    expect(run.decision).toMatchObject({ kind: 'accepted', acceptance: { head_sha: A, carried_over_to: B } });
    const onItsOwn = prior(standing());
    const same = decideRun(facts({ prior: onItsOwn, headSha: A }));
    expect(same.state).toBe(onItsOwn);
    expect(same.decision).toEqual({
      kind: 'accepted',
      acceptance: { by: 'writer', at: THEN, head_sha: A, gates: [acceptedGateOf(gate())], reason: null },
    });
  });

  it('nothing failing, or no head commit: nothing to accept, the state unchanged', () => {
    const was = prior(standing());
    for (const over of [{ failing: [] }, { headSha: null }]) {
      const run = decideRun(facts({ prior: was, ...over }));
      expect(run.decision).toEqual({ kind: 'none' });
      expect(run.state).toBe(was);
    }
  });

  it('a label acceptance whose label is gone is withdrawn, for the head or else the commit it covers', () => {
    const was = prior(standing({ covers: C }));
    expect(decideRun(facts({ prior: was, labels: ['bug'] }))).toEqual({
      decision: { kind: 'none' },
      state: { ...was, current: null, history: [entry('withdrawn', B)] },
    });
    expect(decideRun(facts({ prior: was, labels: [], headSha: null })).state.history).toEqual([entry('withdrawn', C)]);
  });

  it('the label matches whatever its case and the white space around it', () => {
    const was = prior(standing());
    for (const labels of [[` ${LABEL.toUpperCase()}\t`], ['Evalverdict: Accept']])
      expect(decideRun(facts({ prior: was, labels })).decision.kind, labels[0]).toBe('accepted');
    expect(decideRun(facts({ prior: was, label: `  ${LABEL} ` })).decision.kind).toBe('accepted');
  });
});

describe('a command', () => {
  it('accepts every failed gate when it names none, sourced from its comment', () => {
    const failing = [gate(), HIT5()];
    const was = prior(null);
    const run = decideRun(facts({ prior: was, failing, command: command({ by: 'M' }) }));
    const gates = failing.map(acceptedGateOf);
    expect(run.decision).toEqual({
      kind: 'accepted',
      acceptance: { by: 'M', at: NOW, head_sha: B, gates, reason: 'r' },
    });
    expect(run.state).toEqual({
      ...was,
      current: {
        by: 'M',
        at: NOW,
        head_sha: B,
        reason: 'r',
        via: 'comment',
        source: { kind: 'comment', comment_id: 7 },
        covers: B,
        gates: gates.map((g) => ({ ...g, worse: 'lower' })),
      },
      history: [{ event: 'accepted', by: 'M', at: NOW, head_sha: B, gates: ['nDCG@10', 'hit@5'], reason: 'r' }],
    });
  });

  it('stores 40 gates at most; the decision names them all', () => {
    const failing = Array.from({ length: 41 }, (_, i) => gate({ metric: `m${i}` }));
    const run = decideRun(facts({ failing, command: command() }));
    expect(run.decision.kind === 'accepted' && run.decision.acceptance.gates).toHaveLength(41);
    expect(run.state.current?.gates.map((g) => g.metric)).toEqual(failing.slice(0, 40).map((g) => g.metric));
  });

  it('refuses, in its own words, without the permission of its writer', () => {
    const refused = (over: Partial<AcceptCommand>, factsOver: Partial<RunFacts> = {}) => {
      const was = prior(standing());
      const run = decideRun(facts({ prior: was, command: command(over), ...factsOver }));
      expect(run.state).toBe(was);
      return run.decision;
    };
    expect(refused({ permission: null })).toEqual({
      kind: 'refused',
      reason: 'GitHub did not say what permission @m has on the repository.',
    });
    expect(refused({ permission: { ...WRITER, login: 'other' } })).toEqual({
      kind: 'refused',
      reason: 'GitHub did not say what permission @m has on the repository.',
    });
    expect(refused({ permission: { login: 'm', permission: 'read', roleName: 'triage' } })).toEqual({
      kind: 'refused',
      reason: '@m has read permission on the repository; accepting takes write, maintain or admin.',
    });
    expect(refused({}, { headSha: null })).toEqual({
      kind: 'refused',
      reason: 'the pull request’s head commit is not known.',
    });
  });

  it('with nothing failing accepts nothing, and leaves the state as it was', () => {
    const was = prior(standing());
    const run = decideRun(facts({ prior: was, failing: [], command: command() }));
    expect(run.decision).toEqual({ kind: 'none' });
    expect(run.state).toBe(was);
  });

  it('names every gate that is not failing, once, and says "are" for more than one', () => {
    const run = decideRun(
      facts({ failing: [gate(), gate({ where: { tag: 'x' } })], command: command({ gates: ['a', 'b'] }) }),
    );
    expect(run.decision).toEqual({
      kind: 'refused',
      reason: 'a, b are not among the failed gates (nDCG@10, nDCG@10 (tag=x)); nothing was accepted.',
    });
  });
});

describe('unconfirmedDecision', () => {
  it('a look-up that failed keeps the acceptance from this run only', () => {
    const was = prior(standing());
    const run = unconfirmedDecision(was, standing(), { why: 'GitHub answered 502', definite: false }, B, NOW);
    expect(run).toEqual({
      decision: {
        kind: 'refused',
        reason:
          'the earlier acceptance by @writer (for `aaaaaaa`) could not be confirmed: GitHub answered 502; not applied to this run, asked again on the next.',
      },
      state: was,
    });
    expect(run.state).toBe(was);
  });

  it('a definite no drops it, and the history says so', () => {
    const was = prior(standing(), [entry('accepted', A, { at: THEN })]);
    expect(unconfirmedDecision(was, standing(), { why: 'the comment was deleted', definite: true }, B, NOW)).toEqual({
      decision: {
        kind: 'refused',
        reason:
          'the earlier acceptance by @writer (for `aaaaaaa`) could not be confirmed: the comment was deleted; it is dropped.',
      },
      state: { ...was, current: null, history: [entry('accepted', A, { at: THEN }), entry('unconfirmed', B)] },
    });
  });
});
