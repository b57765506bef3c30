/**
 * Accept by label, the action's half (issue 36): read the event and the pull request's labels, ask GitHub for the
 * permission of the user who added the label (one call, only on a `labeled` event for the accept label while an
 * error-level gate fails), let src/publish/acceptance.ts decide, and fold the decision into the reports.
 */
import { httpStatusOf } from '../github/client.js';
import type { CompareReport } from '../gate/types.js';
import { decideAcceptance, needsPermission, renderAcceptance } from '../publish/acceptance.js';
import type { AcceptanceDecision, AcceptanceFacts, LabelEvent, Permission } from '../publish/acceptance.js';
import { stableJson } from '../render/json.js';
import type { PullRequestTarget, RunContext } from './context.js';
import type { Reports } from './reports.js';
import { info, messageOf } from './runner.js';
import type { GitHubSession } from './session.js';

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

function labelsOf(ctx: RunContext): string[] {
  const labels = record(ctx.payload.pull_request)?.labels;
  return Array.isArray(labels)
    ? labels.map((l) => record(l)?.name).filter((n): n is string => typeof n === 'string')
    : [];
}

/** GET /repos/{owner}/{repo}/collaborators/{username}/permission; 404 (no collaborator) is `none`. */
async function permissionOf(session: GitHubSession, target: PullRequestTarget, login: string): Promise<Permission> {
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

/** The decision for this run; a failed permission look-up refuses (and says why), never accepts. */
export async function acceptanceFor(
  report: CompareReport,
  ctx: RunContext,
  label: string,
  target: PullRequestTarget | null,
  session: GitHubSession | null,
): Promise<AcceptanceDecision> {
  const facts: Omit<AcceptanceFacts, 'permission'> = {
    label,
    event: labelEventOf(ctx),
    labels: labelsOf(ctx),
    headSha: ctx.sha,
    failing: report.gates.filter((g) => g.level === 'error' && g.effect === 'fail'),
    now: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  const sender = needsPermission(facts);
  let permission: Permission | null = null;
  if (sender && target && session) {
    try {
      permission = await permissionOf(session, target, sender);
      info(`accept label: @${sender} has ${permission.permission} permission (${permission.roleName ?? 'no role'})`);
    } catch (error) {
      return { kind: 'refused', reason: `could not ask GitHub for @${sender}'s permission: ${messageOf(error)}` };
    }
  }
  return decideAcceptance({ ...facts, permission });
}

/** The reports with the decision: its lines before the comment and the full report, `acceptance` in the JSON. */
export function withAcceptance(reports: Reports, decision: AcceptanceDecision, label: string): Reports {
  if (decision.kind === 'none') return reports;
  const lines = renderAcceptance(decision, label);
  const json = JSON.parse(reports.json) as Record<string, unknown>;
  json.acceptance = decision.kind === 'accepted' ? decision.acceptance : null;
  if (decision.kind === 'refused') json.acceptance_refused = decision.reason;
  return { ...reports, comment: lines + reports.comment, full: lines + reports.full, json: stableJson(json) };
}
