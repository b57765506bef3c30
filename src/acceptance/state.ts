/**
 * What an acceptance leaves behind between runs: the standing acceptance with the numbers it was made
 * on, a short history for the audit trail, and which commits' reports the comment showed (so a command binds to
 * the report its writer saw). It travels in EvalVerdict's own sticky comment as one hidden line (base64 JSON, so no
 * text in it can close the HTML comment), always the body's final line, and is only ever read back from there, in
 * a comment the action's own login wrote (src/publish/stickyComment.ts checks the author; no text from an input
 * can contain `<!--`: stickyBody and the error panel neutralise it). Pure: decoding refuses anything that is not
 * exactly the shape written here, and a state that cannot be read is no state (a new push then fails).
 *
 * Carry-over rule: on a new head commit the acceptance still holds when every accepted gate (same metric, group
 * and threshold) that fails there is no worse than when it was accepted: a relative gate's change from the
 * baseline not further on the worse side, an absolute gate's value not further past its bound. Equal carries over;
 * any worse lapses it. A failed gate it did not name is never covered and fails the run on its own.
 */
import type { GateResult } from '../gate/types.js';
import { escapeMarkdownCell } from '../render/escape.js';
import { wherePairs } from '../render/reportParts.js';
import type { Acceptance, AcceptedGate } from './decision.js';

/** Which way a gate's judged number gets worse. */
export type Worse = 'lower' | 'higher';

export interface StoredGate extends AcceptedGate {
  worse: Worse;
}

/**
 * Where an acceptance came from, for the API to confirm on each later run (the state is a cache, not the truth):
 * the command comment, or the label (its `labeled` event by the acceptance's author).
 */
export type AcceptanceSource = { kind: 'comment'; comment_id: number } | { kind: 'label'; label: string };

export interface StandingAcceptance extends Omit<Acceptance, 'gates'> {
  via: 'label' | 'comment';
  source: AcceptanceSource;
  gates: StoredGate[];
  /** The newest head commit it covers (the commit it was made on, or one it carried over to). */
  covers: string;
}

export type HistoryEvent = 'accepted' | 'carried over' | 'lapsed' | 'withdrawn' | 'unconfirmed';

export interface HistoryEntry {
  event: HistoryEvent;
  by: string;
  at: string;
  head_sha: string;
  gates: string[];
  reason: string | null;
}

/**
 * A body the sticky comment showed: the commit it was for, whether it was a report or the error panel, and since
 * when it showed (GitHub's `updated_at` of the comment after that write, read by the next run; null for the body
 * that holds this state line: its time is the comment's own `updated_at`).
 */
export interface ShownReport {
  sha: string;
  kind: 'report' | 'error';
  since: string | null;
}

export interface AcceptanceState {
  current: StandingAcceptance | null;
  history: HistoryEntry[];
  /** Oldest first; the last one is the body this state line ends. */
  shown: ShownReport[];
}

export const EMPTY_STATE: AcceptanceState = { current: null, history: [], shown: [] };

/** History entries kept (oldest dropped first). */
export const HISTORY_KEPT = 10;
/** Shown reports kept (oldest dropped first). */
export const SHOWN_KEPT = 10;
/** Gates a standing acceptance stores at most; more failed gates than this are not accepted (the comment says so). */
export const STORED_GATES = 40;
const STATE_PREFIX = '<!-- evalverdict:acceptance-state ';

export function worseOf(g: GateResult): Worse {
  return g.max !== undefined || g.max_increase !== undefined || g.max_increase_pct !== undefined ? 'higher' : 'lower';
}

/** Gates are the same gate when metric, group and threshold agree (a changed config is a different gate). */
export function gateKey(g: { metric: string; where?: Record<string, string | boolean>; threshold: string }): string {
  // JSON, not joined text: a group value holding `,` or `=` must not pass for another group.
  const where = g.where
    ? Object.keys(g.where)
        .sort()
        .map((k) => [k, g.where?.[k]])
    : [];
  return JSON.stringify([g.metric, where, g.threshold]);
}

export function gateLabel(g: { metric: string; where?: Record<string, string | boolean> }): string {
  return `${g.metric}${g.where ? ` (${wherePairs(g.where)})` : ''}`;
}

/** The number a gate judged: the change for a relative gate, the value for an absolute one. */
function judged(g: { judged: 'delta' | 'value'; delta: number | null; candidate: number | null }): number | null {
  return g.judged === 'delta' ? g.delta : g.candidate;
}

/** Round-off in the stored numbers (they went through JSON) never counts as worse. */
const TOLERANCE = 1e-9;

export type CarryOver = { ok: true } | { ok: false; why: string };

/** Whether `standing` covers the failed gates of a new commit (`now`, each with what the gate judged). */
export function carryOver(standing: StandingAcceptance, now: AcceptedGate[]): CarryOver {
  const accepted = new Map(standing.gates.map((g) => [gateKey(g), g]));
  for (const g of now) {
    const was = accepted.get(gateKey(g));
    // A failed gate the acceptance did not name is not covered, and fails the run on its own.
    if (!was) continue;
    const a = judged(was);
    const b = judged(g);
    if (a === null || b === null) return { ok: false, why: `${gateLabel(g)} has no number to compare` };
    const worse = was.worse === 'lower' ? b < a - TOLERANCE : b > a + TOLERANCE;
    if (worse)
      return {
        ok: false,
        why: `${gateLabel(g)} is ${formatNumber(b, g.judged)}, worse than the accepted ${formatNumber(a, g.judged)}`,
      };
  }
  return { ok: true };
}

function formatNumber(x: number, kind: 'delta' | 'value'): string {
  const text = Math.abs(x).toFixed(4);
  return kind === 'delta' ? `${x < 0 ? '−' : '+'}${text}` : text;
}

export function historyEntry(event: HistoryEvent, a: StandingAcceptance, headSha: string, at: string): HistoryEntry {
  return { event, by: a.by, at, head_sha: headSha, gates: a.gates.map(gateLabel), reason: a.reason };
}

export function withHistory(state: AcceptanceState, ...entries: HistoryEntry[]): HistoryEntry[] {
  return [...state.history, ...entries].slice(-HISTORY_KEPT);
}

/** The hidden line, or '' for an empty state. */
export function encodeState(state: AcceptanceState): string {
  if (!state.current && state.history.length === 0 && state.shown.length === 0) return '';
  const json = JSON.stringify({ v: 1, current: state.current, history: state.history, shown: state.shown });
  return `${STATE_PREFIX}${Buffer.from(json, 'utf8').toString('base64')} -->`;
}

/** Exactly a state line, whole: the prefix, base64 and the closer, nothing before or after. */
const STATE_LINE = new RegExp(`^${STATE_PREFIX}([A-Za-z0-9+/=]{1,200000}) -->$`);

/** The body's final line (trailing blank lines and white space aside): the one place a state line is read from. */
export function finalLine(body: string): string {
  const trimmed = body.replace(/\s+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('\n') + 1).replace(/\r$/, '');
}

/** Whether the body ends with a state line (a look-alike anywhere else never counts). */
export function endsWithStateLine(body: string): boolean {
  return STATE_LINE.test(finalLine(body));
}

/** The body's state line, when its final line is one; else null. */
export function stateLineOf(body: string | null | undefined): string | null {
  const last = finalLine(body ?? '');
  return STATE_LINE.test(last) ? last : null;
}

/**
 * The state in a comment body EvalVerdict wrote, or null when there is none or it is not ours to read. Only the
 * final line is read: a state line anywhere else in the body is text, not state.
 */
export function decodeState(body: string): AcceptanceState | null {
  const m = STATE_LINE.exec(finalLine(body));
  if (!m) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8'));
  } catch {
    return null;
  }
  const o = parsed as Record<string, unknown> | null;
  if (o?.v !== 1 || !Array.isArray(o.history) || !Array.isArray(o.shown)) return null;
  const current = o.current === null ? null : standingOf(o.current);
  if (current === undefined) return null;
  const history = o.history.map(historyOf);
  const shown = o.shown.map(shownOf);
  if (history.some((h) => h === null) || shown.some((r) => r === null)) return null;
  return {
    current,
    history: (history as HistoryEntry[]).slice(-HISTORY_KEPT),
    shown: (shown as ShownReport[]).slice(-SHOWN_KEPT),
  };
}

function shownOf(v: unknown): ShownReport | null {
  const r = v as Record<string, unknown> | null;
  if (!r || !isText(r.sha, 64) || (r.kind !== 'report' && r.kind !== 'error')) return null;
  if (!(r.since === null || (isText(r.since, 40) && Number.isFinite(Date.parse(r.since))))) return null;
  return { sha: r.sha, kind: r.kind, since: r.since };
}

/**
 * The state with this run's body recorded as shown. `previousAt` is GitHub's `updated_at` of the comment being
 * replaced (null: no comment yet), which dates the body the prior state line ended. The same commit and kind again
 * (a rerun) adds nothing, so an unchanged report leaves the comment unchanged.
 */
export function withShown(
  state: AcceptanceState,
  previousAt: string | null,
  body: { sha: string; kind: 'report' | 'error' },
): AcceptanceState {
  const shown = state.shown.map((r, i) =>
    i === state.shown.length - 1 && r.since === null ? { ...r, since: previousAt } : r,
  );
  const last = shown.at(-1);
  if (last && last.sha === body.sha && last.kind === body.kind) return state;
  const dated = shown.filter((r) => r.since !== null);
  return { ...state, shown: [...dated, { ...body, since: null }].slice(-SHOWN_KEPT) };
}

/**
 * What the comment showed at `time` (a command's `created_at`), given the comment's `updated_at`: the newest body
 * written before that second. Null when none was (the command came before any report this state knows of).
 */
export function shownAt(state: AcceptanceState, updatedAt: string, time: string): ShownReport | null {
  const t = Date.parse(time);
  if (!Number.isFinite(t)) return null;
  let seen: ShownReport | null = null;
  for (const r of state.shown) {
    const since = Date.parse(r.since ?? updatedAt);
    // Strictly before: a body written in the command's own second may not have been on the writer's screen.
    if (Number.isFinite(since) && since < t) seen = r;
  }
  return seen;
}

const isText = (v: unknown, max = 2000): v is string => typeof v === 'string' && v.length <= max;
const isNumberOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

function storedGateOf(v: unknown): StoredGate | null {
  const g = v as Record<string, unknown> | null;
  if (!g || !isText(g.metric, 200) || !isText(g.threshold, 400)) return null;
  if (g.judged !== 'delta' && g.judged !== 'value') return null;
  if (g.worse !== 'lower' && g.worse !== 'higher') return null;
  if (![g.baseline, g.candidate, g.delta].every(isNumberOrNull)) return null;
  const where = g.where;
  if (where !== undefined) {
    if (!where || typeof where !== 'object' || Array.isArray(where)) return null;
    if (!Object.values(where).every((x) => isText(x, 400) || typeof x === 'boolean')) return null;
  }
  return g as unknown as StoredGate;
}

/** A standing acceptance, or undefined when the value is not one. */
function standingOf(v: unknown): StandingAcceptance | undefined {
  const a = v as Record<string, unknown> | null;
  if (!a || !isText(a.by, 100) || !isText(a.at, 40) || !isText(a.head_sha, 64) || !isText(a.covers, 64))
    return undefined;
  if (a.via !== 'label' && a.via !== 'comment') return undefined;
  if (!sourceOk(a.source, a.via)) return undefined;
  if (!(a.reason === null || isText(a.reason, 1000))) return undefined;
  if (!Array.isArray(a.gates) || a.gates.length > STORED_GATES) return undefined;
  const gates = a.gates.map(storedGateOf);
  if (gates.some((g) => g === null)) return undefined;
  return a as unknown as StandingAcceptance;
}

/** A source of the kind the acceptance was made by: a comment's id, or the label's name. */
function sourceOk(v: unknown, via: 'label' | 'comment'): boolean {
  const s = v as Record<string, unknown> | null;
  if (!s || s.kind !== via) return false;
  return via === 'comment'
    ? typeof s.comment_id === 'number' && Number.isSafeInteger(s.comment_id) && s.comment_id > 0
    : isText(s.label, 100);
}

const HISTORY_EVENTS: HistoryEvent[] = ['accepted', 'carried over', 'lapsed', 'withdrawn', 'unconfirmed'];

function historyOf(v: unknown): HistoryEntry | null {
  const h = v as Record<string, unknown> | null;
  if (!h || !HISTORY_EVENTS.includes(h.event as HistoryEvent)) return null;
  if (!isText(h.by, 100) || !isText(h.at, 40) || !isText(h.head_sha, 64)) return null;
  if (!(h.reason === null || isText(h.reason, 1000))) return null;
  if (!Array.isArray(h.gates) || h.gates.length > STORED_GATES || !h.gates.every((g) => isText(g, 400))) return null;
  return h as unknown as HistoryEntry;
}

/** History rows shown in the comment (the hidden state keeps HISTORY_KEPT). */
const SHOWN_HISTORY = 5;

/** The audit trail under the report: who accepted what, when, for which commit, and why; escaped; '' for none. */
export function renderHistory(state: AcceptanceState): string {
  if (state.history.length === 0) return '';
  const shown = state.history.slice(-SHOWN_HISTORY);
  const rows = shown.map((h) => {
    const gates = escapeMarkdownCell(h.gates.slice(0, 3).join(', ') + (h.gates.length > 3 ? ', …' : ''), 120);
    return `| ${escapeMarkdownCell(h.at, 30)} | ${h.event} | @${escapeMarkdownCell(h.by, 40)} | \`${h.head_sha.slice(0, 7).replace(/[^0-9a-f]/gi, '')}\` | ${gates} | ${escapeMarkdownCell(h.reason, 120)} |`;
  });
  const more = state.history.length > shown.length ? ` (the last ${shown.length})` : '';
  return [
    '',
    `<details><summary>Acceptances on this pull request${more}</summary>`,
    '',
    '| When | What | Who | Commit | Gates | Reason |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '</details>',
    '',
  ].join('\n');
}
