/**
 * The label decision's and the acceptance lines' edges, written for the mutants `npm run mutate` left in
 * src/acceptance/decision.ts (issue 44): each refusal in its own words, the judged number and its sign, the gate
 * lines' budget at its exact edge, a comment acceptance carried over, and which gates an acceptance covers. Every
 * value is computed inside its test (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import {
  acceptedGateOf,
  acceptedGatePredicate,
  decideAcceptance,
  renderAcceptance,
} from '../src/acceptance/decision.js';
import type { Acceptance, AcceptanceDecision, AcceptanceFacts, AcceptedGate } from '../src/acceptance/decision.js';

const LABEL = 'evalverdict: accept';
const HEAD = 'a'.repeat(40);
const NEXT = 'b'.repeat(40);
const NOW = '2026-11-28T03:00:00Z';

function gate(over: Partial<GateResult> = {}): GateResult {
  return {
    metric: 'nDCG@10',
    level: 'error',
    max_drop: 0.01,
    baseline: 0.3808,
    candidate: 0.3585,
    delta: -0.0222,
    result: 'fail',
    effect: 'fail',
    threshold: 'drop ≤ 0.0100',
    note: '',
    ...over,
  };
}

function facts(over: Partial<AcceptanceFacts> = {}): AcceptanceFacts {
  return {
    label: LABEL,
    event: { kind: 'labeled', label: LABEL, sender: 'writer' },
    labels: [LABEL],
    permission: { login: 'writer', permission: 'write', roleName: 'write' },
    headSha: HEAD,
    failing: [gate()],
    now: NOW,
    ...over,
  };
}

function accepted(over: Partial<Acceptance> = {}): AcceptanceDecision {
  return {
    kind: 'accepted',
    acceptance: { by: 'm', at: NOW, head_sha: HEAD, gates: [acceptedGateOf(gate())], reason: null, ...over },
  };
}

const judgedBy = (over: Partial<AcceptedGate>): AcceptedGate => ({ ...acceptedGateOf(gate()), ...over });

describe('decideAcceptance: labels and refusals', () => {
  it('white space around a label name does not matter, on either side', () => {
    expect(decideAcceptance(facts({ label: `  ${LABEL} ` })).kind).toBe('accepted');
    expect(decideAcceptance(facts({ labels: [` ${LABEL}\t`] })).kind).toBe('accepted');
    const spaced = { kind: 'labeled' as const, label: ` ${LABEL} `, sender: 'writer' };
    expect(decideAcceptance(facts({ event: spaced })).kind).toBe('accepted');
  });

  it('each refusal says what is missing', () => {
    expect(decideAcceptance(facts({ event: { kind: 'labeled', label: LABEL, sender: null } }))).toEqual({
      kind: 'refused',
      reason: 'the `labeled` event does not say who added the label.',
    });
    expect(decideAcceptance(facts({ headSha: null }))).toEqual({
      kind: 'refused',
      reason: 'the event does not name the pull request’s head commit.',
    });
    expect(decideAcceptance(facts({ permission: null }))).toEqual({
      kind: 'refused',
      reason: 'GitHub did not say what permission @writer has on the repository.',
    });
    expect(decideAcceptance(facts({ event: { kind: 'other', name: 'push' }, headSha: null }))).toEqual({
      kind: 'refused',
      reason:
        'the label `evalverdict: accept` was added for an earlier commit: the earlier acceptance does not cover this commit. Remove the label and add it again to accept this commit.',
    });
  });
});

describe('the judged number', () => {
  it('a relative gate without a change (no baseline value) is judged on its value', () => {
    expect(acceptedGateOf(gate({ delta: null })).judged).toBe('value');
    expect(acceptedGateOf(gate({ delta: -0.02 })).judged).toBe('delta');
    expect(acceptedGateOf(gate({ min: 0.9, max_drop: undefined })).judged).toBe('value');
    expect(acceptedGateOf(gate({ max: 0.9, max_drop: undefined })).judged).toBe('value');
  });

  it('a change shows its sign, zero and a rise as +; a stored delta gate without a change shows the value', () => {
    const line = (g: AcceptedGate) =>
      renderAcceptance(accepted({ gates: [g] }), LABEL)
        .split('\n')
        .find((l) => l.startsWith('> - '));
    expect(line(judgedBy({ delta: 0.0123 }))).toBe('> - `nDCG@10` +0.0123; allowed: drop ≤ 0.0100');
    expect(line(judgedBy({ delta: 0 }))).toBe('> - `nDCG@10` +0.0000; allowed: drop ≤ 0.0100');
    expect(line(judgedBy({ delta: -0 }))).toBe('> - `nDCG@10` +0.0000; allowed: drop ≤ 0.0100');
    expect(line(judgedBy({ delta: -0.0222 }))).toBe('> - `nDCG@10` −0.0222; allowed: drop ≤ 0.0100');
    expect(line(judgedBy({ judged: 'delta', delta: null, candidate: 0.3585 }))).toBe(
      '> - `nDCG@10` 0.3585; allowed: drop ≤ 0.0100',
    );
  });
});

describe('renderAcceptance', () => {
  it('one gate is "1 failed gate"', () => {
    expect(renderAcceptance(accepted(), LABEL).split('\n')[1]).toBe(
      '> **EvalVerdict: accepted by @m** on 2026-11-28T03:00:00Z for `aaaaaaa` (label evalverdict: accept): 1 failed gate accepted',
    );
  });

  it('a comment acceptance carried over says so, with its reason', () => {
    expect(renderAcceptance(accepted({ reason: 'cheaper <index>', carried_over_to: NEXT }), LABEL)).toBe(
      [
        '> [!IMPORTANT]',
        '> **EvalVerdict: accepted by @m** on 2026-11-28T03:00:00Z for `aaaaaaa` (comment): 1 failed gate accepted',
        '> - `nDCG@10` −0.0222; allowed: drop ≤ 0.0100',
        '> Reason: cheaper &lt;index&gt;',
        '> Carried over to `bbbbbbb`: no accepted gate is worse than when it was accepted.',
        '> A new push is evaluated afresh: the acceptance carries over only while no accepted gate gets worse.',
        '',
        '',
      ].join('\n'),
    );
  });

  it('gate lines fill 900 characters (each with its line end) and no more', () => {
    // A metric id is a code span of any length: the second gate's id sizes the lines to the budget's edge.
    const lineOf = (metric: string) => `> - \`${metric}\` −0.0222; allowed: drop ≤ 0.0100`;
    const first = 'm'.repeat(400);
    const fill = (extra: number) => 'n'.repeat(900 - (lineOf(first).length + 1) - lineOf('').length + extra);
    const shown = (extra: number) =>
      renderAcceptance(accepted({ gates: [first, fill(extra)].map((metric) => judgedBy({ metric })) }), LABEL)
        .split('\n')
        .filter((l) => l.startsWith('> - '));
    expect(lineOf(first).length + 1 + lineOf(fill(0)).length).toBe(900);
    expect(shown(0)).toEqual([lineOf(first), lineOf(fill(0))]);
    expect(shown(1)).toEqual([lineOf(first), '> - and 1 more (the JSON report lists them)']);
  });
});

describe('acceptedGatePredicate: which gates of the run an acceptance covers', () => {
  it('nothing, unless accepted', () => {
    for (const decision of [{ kind: 'none' }, { kind: 'refused', reason: 'r' }] as AcceptanceDecision[])
      expect(acceptedGatePredicate(decision)(gate())).toBe(false);
  });

  it('a failing error-level gate of the same metric, group (any key order) and threshold', () => {
    const where = { tag: 'x', lang: 'en' };
    const covers = acceptedGatePredicate(accepted({ gates: [acceptedGateOf(gate({ where }))] }));
    expect(covers(gate({ where }))).toBe(true);
    expect(covers(gate({ where: { lang: 'en', tag: 'x' } }))).toBe(true);
    expect(covers(gate({ where: { lang: 'en', tag: 'y' } }))).toBe(false);
    expect(covers(gate())).toBe(false);
    expect(covers(gate({ where, metric: 'hit@5' }))).toBe(false);
    expect(covers(gate({ where, threshold: 'drop ≤ 0.0300' }))).toBe(false);
    expect(covers(gate({ where, level: 'warn' }))).toBe(false);
    expect(covers(gate({ where, effect: 'none' }))).toBe(false);
    expect(covers(gate({ where, level: 'warn', effect: 'none' }))).toBe(false);
    const plain = acceptedGatePredicate(accepted());
    expect(plain(gate())).toBe(true);
    expect(plain(gate({ where: {} }))).toBe(false);
  });
});
