/**
 * One run's acceptance decision with what earlier runs left: a new acceptance by label or comment
 * command, a standing one carried over to a new head commit or lapsed (src/acceptance/state.ts has the
 * rule), or withdrawn by removing the label. Pure: returns the decision and the state to write back.
 */
import type { GateResult } from '../gate/types.js';
import { acceptedGateOf, decideAcceptance } from './decision.js';
import type { Acceptance, AcceptanceDecision, AcceptanceFacts, Permission } from './decision.js';
import { EMPTY_STATE, STORED_GATES, carryOver, gateLabel, historyEntry, withHistory, worseOf } from './state.js';
import type { AcceptanceSource, AcceptanceState, StandingAcceptance, StoredGate } from './state.js';

/** `/evalverdict accept [GATE ...] -- REASON`, taken from a user whose permission the API reported. */
export interface AcceptCommand {
  by: string;
  /** The command comment's id: the acceptance's source, confirmed on later runs. */
  commentId: number;
  /** Metric names as typed; empty: every failed gate. */
  gates: string[];
  reason: string;
  permission: Permission | null;
}

export interface RunFacts extends AcceptanceFacts {
  prior: AcceptanceState | null;
  command: AcceptCommand | null;
}

export interface RunDecision {
  decision: AcceptanceDecision;
  state: AcceptanceState;
}

const ACCEPTING = new Set(['admin', 'write']);
const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function standingOf(a: Acceptance, failing: GateResult[], source: AcceptanceSource): StandingAcceptance {
  const gates: StoredGate[] = failing.slice(0, STORED_GATES).map((g) => ({ ...acceptedGateOf(g), worse: worseOf(g) }));
  return { ...a, gates, via: source.kind, source, covers: a.head_sha };
}

function acceptanceOf(s: StandingAcceptance, headSha: string): Acceptance {
  const gates = s.gates.map(({ worse: _worse, ...g }) => g);
  const acceptance: Acceptance = { by: s.by, at: s.at, head_sha: s.head_sha, gates, reason: s.reason };
  return headSha === s.head_sha ? acceptance : { ...acceptance, carried_over_to: headSha };
}

export function decideRun(facts: RunFacts): RunDecision {
  const prior = facts.prior ?? EMPTY_STATE;
  const { event, label } = facts;
  if (event.kind === 'unlabeled' && sameLabel(event.label, label)) {
    if (!prior.current) return { decision: { kind: 'none' }, state: prior };
    const entry = historyEntry('withdrawn', prior.current, facts.headSha ?? prior.current.covers, facts.now);
    return { decision: { kind: 'none' }, state: { ...prior, current: null, history: withHistory(prior, entry) } };
  }
  if (facts.command) return commandDecision(facts, facts.command, prior);
  if (event.kind === 'labeled' && sameLabel(event.label, label)) {
    const decision = decideAcceptance(facts);
    if (decision.kind !== 'accepted') return { decision, state: prior };
    const standing = standingOf(decision.acceptance, facts.failing, { kind: 'label', label: facts.label });
    const entry = historyEntry('accepted', standing, standing.head_sha, facts.now);
    return { decision, state: { ...prior, current: standing, history: withHistory(prior, entry) } };
  }
  if (prior.current) return standingDecision(facts, prior.current, prior);
  return { decision: decideAcceptance(facts), state: prior };
}

/** A standing acceptance on a later run: withdrawn (its label gone), carried over, or lapsed. */
function standingDecision(facts: RunFacts, standing: StandingAcceptance, prior: AcceptanceState): RunDecision {
  const head = facts.headSha;
  if (standing.via === 'label' && !facts.labels.some((l) => sameLabel(l, facts.label))) {
    const entry = historyEntry('withdrawn', standing, head ?? standing.covers, facts.now);
    return { decision: { kind: 'none' }, state: { ...prior, current: null, history: withHistory(prior, entry) } };
  }
  if (facts.failing.length === 0 || !head) return { decision: { kind: 'none' }, state: prior };
  const check = carryOver(standing, facts.failing.map(acceptedGateOf));
  if (!check.ok) {
    const entry = historyEntry('lapsed', standing, head, facts.now);
    const reason = `the earlier acceptance by @${standing.by} (for ${short(standing.head_sha)}) no longer covers ${short(head)}: ${check.why}.`;
    return {
      decision: { kind: 'refused', reason },
      state: { ...prior, current: null, history: withHistory(prior, entry) },
    };
  }
  const decision: AcceptanceDecision = { kind: 'accepted', acceptance: acceptanceOf(standing, head) };
  if (head === standing.covers) return { decision, state: prior };
  const carried = { ...standing, covers: head };
  const entry = historyEntry('carried over', carried, head, facts.now);
  return { decision, state: { ...prior, current: carried, history: withHistory(prior, entry) } };
}

function commandDecision(facts: RunFacts, command: AcceptCommand, prior: AcceptanceState): RunDecision {
  const refuse = (reason: string): RunDecision => ({ decision: { kind: 'refused', reason }, state: prior });
  const permission = command.permission;
  if (!permission || permission.login.toLowerCase() !== command.by.toLowerCase())
    return refuse(`GitHub did not say what permission @${command.by} has on the repository.`);
  if (!ACCEPTING.has(permission.permission))
    return refuse(
      `@${command.by} has ${permission.permission} permission on the repository; accepting takes write, maintain or admin.`,
    );
  if (!facts.headSha) return refuse('the pull request’s head commit is not known.');
  if (facts.failing.length === 0) return { decision: { kind: 'none' }, state: prior };
  const named = command.gates.map((n) => n.toLowerCase());
  const unknown = command.gates.filter((n) => !facts.failing.some((g) => g.metric.toLowerCase() === n.toLowerCase()));
  if (unknown.length > 0)
    return refuse(
      `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the failed gates (${[...new Set(facts.failing.map(gateLabel))].join(', ')}); nothing was accepted.`,
    );
  const chosen =
    named.length === 0 ? facts.failing : facts.failing.filter((g) => named.includes(g.metric.toLowerCase()));
  const acceptance: Acceptance = {
    by: command.by,
    at: facts.now,
    head_sha: facts.headSha,
    gates: chosen.map(acceptedGateOf),
    reason: command.reason,
  };
  const standing = standingOf(acceptance, chosen, { kind: 'comment', comment_id: command.commentId });
  const entry = historyEntry('accepted', standing, standing.head_sha, facts.now);
  return {
    decision: { kind: 'accepted', acceptance },
    state: { ...prior, current: standing, history: withHistory(prior, entry) },
  };
}

function short(sha: string): string {
  return `\`${sha.slice(0, 7)}\``;
}

/**
 * A standing acceptance the API could not confirm (src/action/acceptanceStep.ts asks: the command comment still there,
 * by its author, saying the same; the label event by its author; the author's permission still write or more). A
 * definite no drops it, and the history says so; a failed look-up only keeps it from this run.
 */
export function unconfirmedDecision(
  prior: AcceptanceState,
  standing: StandingAcceptance,
  check: { why: string; definite: boolean },
  headSha: string,
  now: string,
): RunDecision {
  const what = `the earlier acceptance by @${standing.by} (for ${short(standing.head_sha)}) could not be confirmed: ${check.why}`;
  if (!check.definite) {
    const reason = `${what}; not applied to this run, asked again on the next.`;
    return { decision: { kind: 'refused', reason }, state: prior };
  }
  const entry = historyEntry('unconfirmed', standing, headSha, now);
  const reason = `${what}; it is dropped.`;
  return {
    decision: { kind: 'refused', reason },
    state: { ...prior, current: null, history: withHistory(prior, entry) },
  };
}
