/**
 * Accept by label, the action's half: read the event and the pull request's labels, ask GitHub for the
 * permission of the user who added the label (one call, only on a `labeled` event for the accept label while an
 * error-level gate fails), let src/acceptance/decision.ts decide, and fold the decision into the reports.
 */
import { httpStatusOf } from '../publish/githubClient.js';
import type { CompareReport } from '../gate/types.js';
import { findStickyComments, stickyMarker } from '../publish/stickyComment.js';
import type { IssueComment } from '../publish/stickyComment.js';
import { needsPermission, renderAcceptance } from '../acceptance/decision.js';
import type { AcceptanceDecision, AcceptanceFacts, LabelEvent, Permission } from '../acceptance/decision.js';
import { decideRun, unconfirmedDecision } from '../acceptance/runDecision.js';
import type { AcceptCommand, RunDecision } from '../acceptance/runDecision.js';
import { EMPTY_STATE, decodeState, encodeState, renderHistory, withShown } from '../acceptance/state.js';
import type { AcceptanceState, StandingAcceptance } from '../acceptance/state.js';
import { stableJson } from '../stableJson.js';
import { parseCommand } from './parseCommand.js';
import type { PullRequestTarget, RunContext } from './context.js';
import type { Reports } from './reports.js';
import { info, messageOf } from './runner.js';
import type { GitHubSession } from './session.js';

/** A comment command the action took (src/action/issueComment.ts): what the acceptance step reads of it. */
export interface TakenCommand {
  /** The accept command with the API's word on its author; null for `rerun`. */
  accept: AcceptCommand | null;
  /** The pull request's labels, from the API. */
  labels: string[];
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The event as the accept label sees it; the sender is GitHub's record of who acted, the payload's permission never read. */
export function labelEventOf(ctx: RunContext): LabelEvent {
  const action = ctx.payload.action;
  const label = record(ctx.payload.label)?.name;
  const sender = record(ctx.payload.sender)?.login;
  if (
    ctx.eventName.startsWith('pull_request') &&
    (action === 'labeled' || action === 'unlabeled') &&
    typeof label === 'string'
  )
    return { kind: action, label, sender: typeof sender === 'string' ? sender : null };
  return { kind: 'other', name: `${ctx.eventName}${typeof action === 'string' ? ` (${action})` : ''}` };
}

/** The pull request's labels in the payload; null when the payload has no pull request (workflow_run). */
function labelsOf(ctx: RunContext): string[] | null {
  const pr = record(ctx.payload.pull_request);
  if (!pr) return null;
  const labels = pr.labels;
  return Array.isArray(labels)
    ? labels.map((l) => record(l)?.name).filter((n): n is string => typeof n === 'string')
    : [];
}

/** GET /repos/{owner}/{repo}/pulls/{pull_number}: its labels' names; null when GitHub did not answer. */
async function labelsFromApi(source: StateSource): Promise<string[] | null> {
  const { session, target } = source;
  try {
    const { data } = await session.untilDeadline(
      session.octokit.rest.pulls.get({ owner: target.owner, repo: target.repo, pull_number: target.issueNumber }),
    );
    return (Array.isArray(data.labels) ? data.labels : [])
      .map((l) => (l as { name?: unknown })?.name)
      .filter((n): n is string => typeof n === 'string');
  } catch (error) {
    info(`acceptance: could not read pull request #${target.issueNumber}'s labels: ${messageOf(error)}`);
    return null;
  }
}

/** GET /repos/{owner}/{repo}/collaborators/{username}/permission; 404 (no collaborator) is `none`. */
export async function permissionOf(
  session: GitHubSession,
  target: PullRequestTarget,
  login: string,
): Promise<Permission> {
  try {
    const { data } = await session.untilDeadline(
      session.octokit.rest.repos.getCollaboratorPermissionLevel({
        owner: target.owner,
        repo: target.repo,
        username: login,
      }),
    );
    // Bounded: they go into the comment's refusal line.
    const permission = typeof data.permission === 'string' ? data.permission.slice(0, 40) : 'none';
    const roleName = typeof data.role_name === 'string' ? data.role_name.slice(0, 40) : null;
    // The answer is about the user asked for: a login it does not name is not taken for theirs.
    const answered = typeof data.user?.login === 'string' ? data.user.login : login;
    return { login: answered, permission, roleName };
  } catch (error) {
    if (httpStatusOf(error) === 404) return { login, permission: 'none', roleName: null };
    throw error;
  }
}

/** What the acceptance step found and decided; `listed` is handed to the comment step (no second listing). */
export interface AcceptanceRun {
  decision: AcceptanceDecision;
  state: AcceptanceState;
  listed: Promise<IssueComment[]> | null;
}

/** Where the comment is and whose it is: the acceptance state is read from EvalVerdict's own comment only. */
export interface StateSource {
  session: GitHubSession;
  target: PullRequestTarget;
  commentId: string;
  commentAuthor: string | null;
  /** False for `comment: never`: no comment to keep the state in. */
  readState: boolean;
}

/** What the earlier runs left in our sticky comment, and the listing the comment step awaits. */
export interface PriorComment {
  state: AcceptanceState | null;
  /** GitHub's `updated_at` of our comment; null when there is none (or it could not be read). */
  updatedAt: string | null;
  listed: Promise<IssueComment[]> | null;
}

/**
 * The state earlier runs left in our sticky comment (its author checked by findStickyComments). The listing is
 * handed on to the comment step, which awaits the same promise: one listing per run, and a listing that failed
 * (no state here: nothing carries over) fails the comment step as it would have without this step.
 */
export async function priorComment(source: StateSource): Promise<PriorComment> {
  const { session, target } = source;
  const listed = findStickyComments(session.octokit, {
    owner: target.owner,
    repo: target.repo,
    issueNumber: target.issueNumber,
    marker: stickyMarker(source.commentId),
    commentAuthor: source.commentAuthor,
  });
  listed.catch(() => undefined); // handled where it is awaited
  try {
    const ours = await session.untilDeadline(listed);
    if (ours.length === 0) return { state: null, updatedAt: null, listed };
    const updatedAt = typeof ours[0].updated_at === 'string' ? ours[0].updated_at : null;
    return { state: decodeState(ours[0].body ?? ''), updatedAt, listed };
  } catch (error) {
    info(`acceptance: could not read the earlier EvalVerdict comment (${messageOf(error)}): no earlier acceptance`);
    return { state: null, updatedAt: null, listed };
  }
}

export interface AcceptanceInput {
  label: string;
  /** Null: no pull request, no token, or `comment: never` (then nothing carries over). */
  source: StateSource | null;
  /** A command taken from a pull request comment (src/action/issueComment.ts). */
  taken: TakenCommand | null;
}

/** The decision for this run; a failed permission look-up refuses (and says why), never accepts. */
export async function acceptanceFor(
  report: CompareReport,
  ctx: RunContext,
  input: AcceptanceInput,
): Promise<AcceptanceRun> {
  const event = labelEventOf(ctx);
  const failing = report.gates.filter((g) => g.level === 'error' && g.effect === 'fail');
  const facts: Omit<AcceptanceFacts, 'permission'> = {
    label: input.label,
    event,
    labels: input.taken?.labels ?? labelsOf(ctx) ?? [],
    headSha: ctx.sha,
    failing,
    now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  // Read always (the listing is the comment step's too): the state records which report the comment shows.
  const prior: PriorComment = input.source?.readState
    ? await priorComment(input.source)
    : { state: null, updatedAt: null, listed: null };
  // No pull request in the payload (workflow_run): a standing label acceptance needs the labels from the API.
  if (!input.taken && labelsOf(ctx) === null && prior.state?.current?.via === 'label' && input.source) {
    const labels = await labelsFromApi(input.source);
    if (labels === null) {
      const reason =
        'could not read the pull request’s labels from GitHub: the earlier acceptance is not applied to this run.';
      return shownRun({ kind: 'refused', reason }, prior.state ?? EMPTY_STATE, prior, ctx);
    }
    facts.labels = labels;
  }
  const unconfirmed = await confirmedOrNot(facts, input, prior.state);
  if (unconfirmed) return shownRun(unconfirmed.decision, unconfirmed.state, prior, ctx);
  const sender = needsPermission(facts);
  let permission: Permission | null = null;
  if (sender && input.source) {
    try {
      permission = await permissionOf(input.source.session, input.source.target, sender);
      info(`accept label: @${sender} has ${permission.permission} permission (${permission.roleName ?? 'no role'})`);
    } catch (error) {
      const reason = `could not ask GitHub for @${sender}'s permission: ${messageOf(error)}`;
      return shownRun({ kind: 'refused', reason }, prior.state ?? EMPTY_STATE, prior, ctx);
    }
  }
  const { decision, state } = decideRun({
    ...facts,
    permission,
    prior: prior.state,
    command: input.taken?.accept ?? null,
  });
  return shownRun(decision, state, prior, ctx);
}

/**
 * When this run would apply a standing acceptance (gates fail, no new label event or command), the API is asked
 * whether its source still stands: the run's decision when it does not, null when it does (or none applies).
 */
async function confirmedOrNot(
  facts: Omit<AcceptanceFacts, 'permission'>,
  input: AcceptanceInput,
  prior: AcceptanceState | null,
): Promise<RunDecision | null> {
  const standing = prior?.current;
  const { event, label } = facts;
  const labelEvent = event.kind !== 'other' && sameLabel(event.label, label);
  if (!prior || !standing || !input.source || facts.failing.length === 0 || labelEvent || input.taken?.accept)
    return null;
  // A label acceptance whose label is gone is withdrawn by decideRun: nothing to confirm.
  if (standing.via === 'label' && !facts.labels.some((l) => sameLabel(l, label))) return null;
  const check = await confirmStanding(input.source, standing);
  if (check === null) return null;
  info(`acceptance: the earlier acceptance by @${standing.by} could not be confirmed: ${check.why}`);
  return unconfirmedDecision(prior, standing, check, facts.headSha ?? standing.covers, facts.now);
}

const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** Pages of issue events read at most when confirming a label acceptance. */
const EVENT_PAGES = 10;

/** Why the standing acceptance's source no longer stands (definite), or could not be asked (not); null: it stands. */
async function confirmStanding(
  source: StateSource,
  standing: StandingAcceptance,
): Promise<{ why: string; definite: boolean } | null> {
  const { session, target } = source;
  try {
    const why =
      standing.source.kind === 'comment'
        ? await commentSourceProblem(session, target, standing.source.comment_id, standing)
        : await labelSourceProblem(session, target, standing.source.label, standing.by);
    if (why) return { why, definite: true };
    const permission = await permissionOf(session, target, standing.by);
    if (permission.permission !== 'admin' && permission.permission !== 'write')
      return { why: `@${standing.by} now has ${permission.permission} permission on the repository`, definite: true };
    return null;
  } catch (error) {
    info(`acceptance: confirming the earlier acceptance: ${messageOf(error)}`);
    return { why: 'GitHub did not answer', definite: false };
  }
}

/** The command comment must still exist on this pull request, by the acceptance's author, with the same command. */
async function commentSourceProblem(
  session: GitHubSession,
  target: PullRequestTarget,
  commentId: number,
  standing: StandingAcceptance,
): Promise<string | null> {
  let data: { body?: string | null; user?: { login?: string } | null; issue_url?: string };
  try {
    ({ data } = await session.untilDeadline(
      session.octokit.rest.issues.getComment({ owner: target.owner, repo: target.repo, comment_id: commentId }),
    ));
  } catch (error) {
    if (httpStatusOf(error) === 404) return 'its command comment was deleted';
    throw error;
  }
  if (!String(data.issue_url ?? '').endsWith(`/issues/${target.issueNumber}`))
    return 'its command comment is not on this pull request';
  if (data.user?.login?.toLowerCase() !== standing.by.toLowerCase())
    return `its command comment is not by @${standing.by}`;
  const parsed = parseCommand(data.body);
  if (parsed.kind !== 'accept' || parsed.reason !== standing.reason) return 'its command comment was edited';
  return null;
}

/** A `labeled` event for the label by the acceptance's author must be on the pull request's timeline. */
async function labelSourceProblem(
  session: GitHubSession,
  target: PullRequestTarget,
  label: string,
  by: string,
): Promise<string | null> {
  const where = { owner: target.owner, repo: target.repo, issue_number: target.issueNumber, per_page: 100 };
  let pages = 0;
  for await (const page of session.octokit.paginate.iterator(session.octokit.rest.issues.listEvents, where)) {
    const events = page.data as Array<{ event?: string; actor?: { login?: string } | null; label?: { name?: string } }>;
    const found = events.some(
      (e) =>
        e.event === 'labeled' &&
        typeof e.label?.name === 'string' &&
        sameLabel(e.label.name, label) &&
        e.actor?.login?.toLowerCase() === by.toLowerCase(),
    );
    if (found) return null;
    if (++pages >= EVENT_PAGES) break;
  }
  return `the pull request's timeline has no \`${label.replace(/`/g, '')}\` label added by @${by}`;
}

/** The run's outcome, its state recording that the comment now shows this commit's report. */
function shownRun(
  decision: AcceptanceDecision,
  state: AcceptanceState,
  prior: PriorComment,
  ctx: RunContext,
): AcceptanceRun {
  const shown = ctx.sha ? withShown(state, prior.updatedAt, { sha: ctx.sha, kind: 'report' }) : state;
  return { decision, state: shown, listed: prior.listed };
}

/**
 * A run that could not be evaluated: no decision, the earlier acceptances kept, and the error panel recorded as
 * what the comment shows (a command written under it accepts nothing).
 */
export async function errorRun(ctx: RunContext, source: StateSource | null): Promise<AcceptanceRun> {
  const prior: PriorComment = source?.readState
    ? await priorComment(source)
    : { state: null, updatedAt: null, listed: null };
  const state = prior.state ?? EMPTY_STATE;
  const shown = ctx.sha ? withShown(state, prior.updatedAt, { sha: ctx.sha, kind: 'error' }) : state;
  return { decision: { kind: 'none' }, state: shown, listed: prior.listed };
}

/** Room the body keeps under GitHub's 65,536 characters for the marker line. */
const BODY_LIMIT = 65_536 - 200;

/**
 * The reports with the decision: its lines before the comment and the full report, the history after them,
 * `acceptance` in the JSON, and the hidden state line, which the comment step writes as the body's final line. A
 * comment that would not fit loses the history table first, then the state line (a new push then fails again:
 * never accepts more than it should).
 */
export function withAcceptance(reports: Reports, run: AcceptanceRun, label: string): Reports {
  const { decision, state } = run;
  const lines = renderAcceptance(decision, label);
  const history = renderHistory(state);
  const stateLine = encodeState(state);
  let comment = `${lines}${reports.comment}${history}`;
  if (comment.length + stateLine.length > BODY_LIMIT) comment = `${lines}${reports.comment}`;
  const fits = comment.length + stateLine.length <= BODY_LIMIT;
  const withState = { ...reports, comment, stateLine: fits ? stateLine : '' };
  if (decision.kind === 'none' && !history) return withState;
  const json = JSON.parse(reports.json) as Record<string, unknown>;
  if (decision.kind !== 'none') json.acceptance = decision.kind === 'accepted' ? decision.acceptance : null;
  if (decision.kind === 'refused') json.acceptance_refused = decision.reason;
  return { ...withState, full: lines + reports.full + history, json: stableJson(json) };
}
