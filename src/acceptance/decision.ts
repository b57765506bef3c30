/**
 * Accepting a regression on purpose, the label's decision and the words every acceptance is shown in. Pure: the
 * action gathers the facts (the event, the pull request's labels, the permission GitHub reports for the user who
 * acted) and this decides.
 *
 * A `labeled` event for the accept label, by a user whose permission on the repository (asked of the API, never
 * read from the event) is write, maintain or admin, accepts the failing error-level gates of that event's head
 * commit. Whether it carries over to a later push, and the comment commands, are acceptanceDecision.ts's.
 */
import { formatValue } from '../numberFormat.js';
import type { GateResult } from '../gate/types.js';
import { escapeMarkdownText, metricCode } from '../render/escape.js';
import { whereText } from '../render/reportParts.js';

export const DEFAULT_ACCEPT_LABEL = 'evalverdict: accept';

/** Repository roles that may accept (GitHub's `permission` is `write` for maintain, `admin` for admin). */
const ACCEPTING_PERMISSIONS = new Set(['admin', 'write']);

/** The event, as far as the accept label is concerned. */
export type LabelEvent =
  | { kind: 'labeled'; label: string; sender: string | null }
  | { kind: 'unlabeled'; label: string; sender: string | null }
  | { kind: 'other'; name: string };

/** What GitHub said of a user's permission (GET .../collaborators/{username}/permission); null: not asked. */
export interface Permission {
  login: string;
  /** `admin`, `write`, `read` or `none` (a user who is no collaborator answers 404: `none`). */
  permission: string;
  /** e.g. `maintain`, `triage`, a custom role; for messages only. */
  roleName: string | null;
}

export interface AcceptanceFacts {
  /** The accept label's name (input `accept-label`). */
  label: string;
  event: LabelEvent;
  /** The pull request's labels at the event (its payload). */
  labels: string[];
  permission: Permission | null;
  /** The commit under test: the pull request's head of this event. */
  headSha: string | null;
  /** The failed error-level gates of the commit under test. */
  failing: GateResult[];
  /** ISO time of the decision. */
  now: string;
}

export interface AcceptedGate {
  metric: string;
  where?: Record<string, string | boolean>;
  threshold: string;
  /** Which number the gate judged: the change from the baseline, or the candidate's value (`min`, `max`). */
  judged: 'delta' | 'value';
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

/** What the JSON report records (`acceptance`). */
export interface Acceptance {
  by: string;
  at: string;
  head_sha: string;
  gates: AcceptedGate[];
  /** The reason given with a comment command; null for a label. */
  reason: string | null;
  /** Set when a later head commit is covered by this acceptance (the carry-over rule: acceptanceState.ts). */
  carried_over_to?: string;
}

export type AcceptanceDecision =
  | { kind: 'none' }
  | { kind: 'accepted'; acceptance: Acceptance }
  | { kind: 'refused'; reason: string };

const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether the facts need the API's answer for the label's sender (a `labeled` event for the label with failing gates). */
export function needsPermission(facts: Omit<AcceptanceFacts, 'permission'>): string | null {
  const { event } = facts;
  if (facts.failing.length === 0 || event.kind !== 'labeled' || !sameLabel(event.label, facts.label)) return null;
  return event.sender;
}

export function decideAcceptance(facts: AcceptanceFacts): AcceptanceDecision {
  const { event, label, failing } = facts;
  if (failing.length === 0) return { kind: 'none' };
  const present = facts.labels.some((l) => sameLabel(l, label));
  if (!present) return { kind: 'none' };
  if (event.kind !== 'labeled' || !sameLabel(event.label, label))
    return {
      kind: 'refused',
      reason: `the label \`${label}\` was added for an earlier commit: the earlier acceptance does not cover ${shortSha(facts.headSha)}. Remove the label and add it again to accept this commit.`,
    };
  if (!event.sender) return { kind: 'refused', reason: 'the `labeled` event does not say who added the label.' };
  if (!facts.headSha) return { kind: 'refused', reason: 'the event does not name the pull request’s head commit.' };
  const permission = facts.permission;
  if (!permission || permission.login.toLowerCase() !== event.sender.toLowerCase())
    return { kind: 'refused', reason: `GitHub did not say what permission @${event.sender} has on the repository.` };
  if (!ACCEPTING_PERMISSIONS.has(permission.permission)) {
    const role =
      permission.roleName && permission.roleName !== permission.permission ? ` (${permission.roleName})` : '';
    return {
      kind: 'refused',
      reason: `@${event.sender} added the label \`${label}\` but has ${permission.permission}${role} permission on the repository; accepting takes write, maintain or admin.`,
    };
  }
  return {
    kind: 'accepted',
    acceptance: {
      by: event.sender,
      at: facts.now,
      head_sha: facts.headSha,
      gates: failing.map(acceptedGateOf),
      reason: null,
    },
  };
}

export function acceptedGateOf(g: GateResult): AcceptedGate {
  return {
    metric: g.metric,
    ...(g.where ? { where: g.where } : {}),
    threshold: g.threshold,
    judged: g.delta !== null && g.min === undefined && g.max === undefined ? 'delta' : 'value',
    baseline: g.baseline,
    candidate: g.candidate,
    delta: g.delta,
  };
}

function shortSha(sha: string | null): string {
  return sha ? `\`${sha.slice(0, 7)}\`` : 'this commit';
}

/** `−0.0222` (a relative gate's delta) or `0.8000` (an absolute gate's value). */
function judgedText(g: AcceptedGate): string {
  return g.judged === 'delta' && g.delta !== null ? formatSigned(g.delta) : formatValue(g.candidate);
}

/** `nDCG@10 −0.0222`, plain text (the status description). */
function gateText(g: AcceptedGate): string {
  return `${g.metric}${whereText(g.where)} ${judgedText(g)}`;
}

function formatSigned(x: number): string {
  return `${x >= 0 ? '+' : '−'}${formatValue(Math.abs(x))}`;
}

/** The commit status's description (cut to 140 characters by the status call). */
export function acceptedStatusDescription(acceptance: Acceptance): string {
  return `accepted by @${acceptance.by}: ${acceptance.gates.map((g) => gateText(g)).join(', ')}`;
}

/** Gate lines shown in the comment at most; the JSON report has them all. */
const SHOWN_GATES = 5;
/**
 * Characters the gate lines may take: the report is cut 1,536 characters under GitHub's comment limit
 * (GITHUB_COMMENT_LIMIT), which the marker and these lines share.
 */
const GATE_LINES_BUDGET = 900;

/** The lines the comment starts with (before the report), escaped; empty for `none`. */
export function renderAcceptance(decision: AcceptanceDecision, label: string): string {
  if (decision.kind === 'none') return '';
  if (decision.kind === 'refused')
    return [
      `> [!CAUTION]`,
      `> **Not accepted:** ${escapeMarkdownText(decision.reason.replace(/`/g, ''), 200)}`,
      '',
      '',
    ].join('\n');
  const a = decision.acceptance;
  // Escaping can multiply a long group or threshold: the lines stay within GATE_LINES_BUDGET characters.
  const lines: string[] = [];
  let used = 0;
  for (const g of a.gates.slice(0, SHOWN_GATES)) {
    // The group cut at 74 characters: 80 with the "where " before it, as the threshold.
    const line = `> - ${metricCode(g.metric)}${whereText(g.where, (pairs) => escapeMarkdownText(pairs, 74))} ${judgedText(g)}; allowed: ${escapeMarkdownText(g.threshold, 80)}`;
    if (used + line.length > GATE_LINES_BUDGET) break;
    lines.push(line);
    used += line.length + 1;
  }
  if (a.gates.length > lines.length)
    lines.push(`> - and ${a.gates.length - lines.length} more (the JSON report lists them)`);
  const n = a.gates.length;
  const how = a.reason === null ? `label ${escapeMarkdownText(label, 60)}` : 'comment';
  const carried = a.carried_over_to
    ? [`> Carried over to ${shortSha(a.carried_over_to)}: no accepted gate is worse than when it was accepted.`]
    : [];
  return [
    `> [!IMPORTANT]`,
    `> **EvalVerdict: accepted by @${escapeMarkdownText(a.by, 40)}** on ${escapeMarkdownText(a.at, 30)} for ${shortSha(a.head_sha)} (${how}): ${n} failed ${n === 1 ? 'gate' : 'gates'} accepted`,
    ...lines,
    ...(a.reason === null ? [] : [`> Reason: ${escapeMarkdownText(a.reason, 300)}`]),
    ...carried,
    '> A new push is evaluated afresh: the acceptance carries over only while no accepted gate gets worse.',
    '',
    '',
  ].join('\n');
}

/** Whether a gate of this run is covered by the accepted decision (same metric, group and threshold). */
export function acceptedGatePredicate(decision: AcceptanceDecision): (g: GateResult) => boolean {
  if (decision.kind !== 'accepted') return () => false;
  const keys = new Set(decision.acceptance.gates.map(keyOf));
  return (g) => g.level === 'error' && g.effect === 'fail' && keys.has(keyOf(g));
}

function keyOf(g: { metric: string; where?: Record<string, string | boolean>; threshold: string }): string {
  const where = g.where ? JSON.stringify(Object.entries(g.where).sort(([a], [b]) => a.localeCompare(b))) : '';
  return `${g.metric}|${where}|${g.threshold}`;
}
