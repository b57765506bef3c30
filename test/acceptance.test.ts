/** The accept-by-label decision (issue 36), pure: facts in, acceptance or the reason for a refusal out. */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../src/gate/types.js';
import {
  acceptedStatusDescription,
  decideAcceptance,
  needsPermission,
  renderAcceptance,
} from '../src/acceptance/decision.js';
import type { AcceptanceFacts } from '../src/acceptance/decision.js';

const LABEL = 'evalverdict: accept';
const HEAD = 'a'.repeat(40);
const NOW = '2026-11-28T03:00:00Z';

function gate(over: Partial<GateResult>): GateResult {
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

const NDCG = gate({});
const HIT5 = gate({ metric: 'hit@5', max_drop: undefined, min: 0.99, candidate: 0.76, threshold: '≥ 0.9900' });

function facts(over: Partial<AcceptanceFacts> = {}): AcceptanceFacts {
  return {
    label: LABEL,
    event: { kind: 'labeled', label: LABEL, sender: 'writer' },
    labels: ['bug', LABEL],
    permission: { login: 'writer', permission: 'write', roleName: 'write' },
    headSha: HEAD,
    failing: [NDCG, HIT5],
    now: NOW,
    ...over,
  };
}

describe('decideAcceptance', () => {
  it('a labeled event by a writer accepts every failed error-level gate, for the head commit', () => {
    expect(decideAcceptance(facts())).toEqual({
      kind: 'accepted',
      acceptance: {
        by: 'writer',
        at: NOW,
        head_sha: HEAD,
        reason: null,
        gates: [
          {
            metric: 'nDCG@10',
            threshold: 'drop ≤ 0.0100',
            judged: 'delta',
            baseline: 0.3808,
            candidate: 0.3585,
            delta: -0.0222,
          },
          {
            metric: 'hit@5',
            threshold: '≥ 0.9900',
            judged: 'value',
            baseline: 0.3808,
            candidate: 0.76,
            delta: -0.0222,
          },
        ],
      },
    });
  });

  it.each([
    ['admin', 'admin', true],
    ['write', 'maintain', true],
    ['write', 'write', true],
    ['read', 'triage', false],
    ['read', 'read', false],
    ['none', null, false],
  ])('permission %s (role %s) accepts: %s', (permission, roleName, accepts) => {
    const d = decideAcceptance(facts({ permission: { login: 'writer', permission, roleName } }));
    expect(d.kind).toBe(accepts ? 'accepted' : 'refused');
  });

  it('a refusal names the user, the permission GitHub reported and what it takes', () => {
    const d = decideAcceptance(facts({ permission: { login: 'writer', permission: 'read', roleName: 'triage' } }));
    expect(d).toEqual({
      kind: 'refused',
      reason:
        '@writer added the label `evalverdict: accept` but has read (triage) permission on the repository; accepting takes write, maintain or admin.',
    });
  });

  it('a permission answer about another user than the sender does not count', () => {
    const d = decideAcceptance(facts({ permission: { login: 'admin-user', permission: 'admin', roleName: 'admin' } }));
    expect(d.kind).toBe('refused');
    expect(decideAcceptance(facts({ permission: null })).kind).toBe('refused');
  });

  it('matches the label case-insensitively, as GitHub names labels', () => {
    const d = decideAcceptance(
      facts({
        event: { kind: 'labeled', label: 'EvalVerdict: Accept', sender: 'writer' },
        labels: ['EvalVerdict: Accept'],
      }),
    );
    expect(d.kind).toBe('accepted');
  });

  it('nothing failing, or the label not on the pull request: nothing to decide', () => {
    expect(decideAcceptance(facts({ failing: [] }))).toEqual({ kind: 'none' });
    expect(decideAcceptance(facts({ labels: ['bug'] }))).toEqual({ kind: 'none' });
    // Removed: the `unlabeled` event's pull request no longer carries it.
    const removed = facts({ event: { kind: 'unlabeled', label: LABEL, sender: 'writer' }, labels: [] });
    expect(decideAcceptance(removed)).toEqual({ kind: 'none' });
  });

  it('on any other event the label does not accept: the acceptance was for an earlier commit', () => {
    for (const event of [
      { kind: 'other' as const, name: 'pull_request (synchronize)' },
      { kind: 'labeled' as const, label: 'bug', sender: 'writer' },
    ]) {
      const d = decideAcceptance(facts({ event }));
      expect(d.kind).toBe('refused');
      expect(d.kind === 'refused' && d.reason).toContain('the earlier acceptance does not cover `aaaaaaa`');
    }
  });

  it('a labeled event without a sender or a head commit refuses', () => {
    expect(decideAcceptance(facts({ event: { kind: 'labeled', label: LABEL, sender: null } })).kind).toBe('refused');
    expect(decideAcceptance(facts({ headSha: null })).kind).toBe('refused');
  });
});

describe('needsPermission', () => {
  it('asks only on a labeled event for the label with a failed gate', () => {
    const { permission: _, ...base } = facts();
    expect(needsPermission(base)).toBe('writer');
    expect(needsPermission({ ...base, failing: [] })).toBeNull();
    expect(needsPermission({ ...base, event: { kind: 'other', name: 'push' } })).toBeNull();
    expect(needsPermission({ ...base, event: { kind: 'labeled', label: 'bug', sender: 'writer' } })).toBeNull();
  });
});

describe('rendering', () => {
  const accepted = decideAcceptance(facts());
  if (accepted.kind !== 'accepted') throw new Error('expected an acceptance');

  it('the comment says who accepted what, when, for which commit; the status says the same in a line', () => {
    expect(renderAcceptance(accepted, LABEL)).toBe(
      [
        '> [!IMPORTANT]',
        '> **EvalVerdict: accepted by @writer** on 2026-11-28T03:00:00Z for `aaaaaaa` (label evalverdict: accept): 2 failed gates accepted',
        '> - `nDCG@10` −0.0222; allowed: drop ≤ 0.0100',
        '> - `hit@5` 0.7600; allowed: ≥ 0.9900',
        '> A new push is evaluated afresh: the acceptance carries over only while no accepted gate gets worse.',
        '',
        '',
      ].join('\n'),
    );
    expect(acceptedStatusDescription(accepted.acceptance)).toBe('accepted by @writer: nDCG@10 −0.0222, hit@5 0.7600');
  });

  it('escapes what it shows: a label and a group from the config cannot inject Markdown or mentions', () => {
    const hostile = gate({ where: { tag: '<img src=x> @all [x](http://evil)' } });
    const d = decideAcceptance(
      facts({
        failing: [hostile],
        label: '**x** @team',
        labels: ['**x** @team'],
        event: { kind: 'labeled', label: '**x** @team', sender: 'writer' },
      }),
    );
    const text = renderAcceptance(d, '**x** @team');
    expect(text).not.toContain('<img');
    expect(text).not.toContain('@all');
    expect(text).not.toContain('@team');
    expect(text).not.toContain('**x**');
    expect(text).not.toContain('[x](http');
    expect(text).toContain('> - `nDCG@10` where tag=&lt;img');
  });

  it('shows five gates at most and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) => gate({ metric: `m${i}` }));
    const d = decideAcceptance(facts({ failing: many }));
    const text = renderAcceptance(d, LABEL);
    expect(text.split('\n').filter((l) => l.startsWith('> - `'))).toHaveLength(5);
    expect(text).toContain('> - and 3 more (the JSON report lists them)');
  });

  it('keeps its gate lines short whatever the config names, so the comment stays under the limit of GitHub', () => {
    const long = Array.from({ length: 5 }, (_, i) =>
      gate({ metric: `m${i}`, where: { tag: '<'.repeat(200) }, threshold: '&'.repeat(200) }),
    );
    const text = renderAcceptance(decideAcceptance(facts({ failing: long })), LABEL);
    expect(text.length).toBeLessThan(1400);
    expect(text).toMatch(/> - and \d more \(the JSON report lists them\)/);
  });

  it('a refusal is one escaped line', () => {
    const d = decideAcceptance(facts({ permission: { login: 'writer', permission: 'read', roleName: 'read' } }));
    expect(renderAcceptance(d, LABEL)).toBe(
      '> [!CAUTION]\n> **Not accepted:** @&#8203;writer added the label evalverdict: accept but has read permission on the repository; accepting takes write, maintain or admin.\n\n',
    );
    expect(renderAcceptance({ kind: 'none' }, LABEL)).toBe('');
  });
});
