/**
 * The step's one GitHub client under its one deadline: `publish-timeout` bounds every API call
 * of the step together (the look-ups, the artifact downloads, the statuses and the comment), each request also
 * bounded by `request-timeout`. Past the deadline every request in flight is aborted and later ones fail at once.
 */
import * as core from '@actions/core';
import { createGitHubClient } from '../publish/githubClient.js';
import type { GitHubClient } from '../publish/githubClient.js';
import { baselineClientOf } from './artifactBaseline/findArtifact.js';
import type { BaselineClient } from './artifactBaseline/findArtifact.js';
import type { RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';

/** How long the earlier comment may still be marked stale once the deadline has passed. */
export const STALE_GRACE_MS = 10_000;

/**
 * The grace for marking the earlier comment stale: STALE_GRACE_MS, or `request-timeout` or `publish-timeout` when
 * shorter (a short budget asks for a short step).
 */
export function graceMs(inputs: ActionInputs): number {
  return Math.min(STALE_GRACE_MS, inputs.requestTimeoutS * 1000, inputs.publishTimeoutS * 1000);
}

export interface GitHubSession {
  octokit: GitHubClient;
  /** The artifact and pull-request look-ups, over the same client; downloads under `request-timeout`. */
  lookup: BaselineClient;
  token: string;
  expired(): boolean;
  /**
   * `work` settled, or rejected at the deadline at once: the client's retries and rate-limit waits (timers of up to a
   * minute) are left behind, and the entry ends the process when the step is done.
   */
  untilDeadline<T>(work: Promise<T>): Promise<T>;
  /** A client for one last call after the deadline (marking the earlier comment stale), bounded by STALE_GRACE_MS. */
  graceClient(): GitHubClient;
  /** Scoring is API-free: the deadline's clock stops while it runs (a request in flight is still cut by its own). */
  pause(): void;
  resume(): void;
  /** Stops the deadline's timer (the step's API work is over). */
  close(): void;
}

function deadlineBound(client: BaselineClient, untilDeadline: <T>(work: Promise<T>) => Promise<T>): BaselineClient {
  return {
    request: (route, params) => untilDeadline(client.request(route, params)),
    download: (url, maxBytes) => untilDeadline(client.download(url, maxBytes)),
  };
}

/** The step's API work passed `publish-timeout`. */
export class PublishDeadlineError extends Error {
  override readonly name = 'PublishDeadlineError';
}

/** `work` settled, or rejected after `ms` (the grace after the deadline), whichever is first. */
export function withinMs<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export function openSession(token: string, inputs: ActionInputs, ctx: RunContext): GitHubSession {
  const deadline = new AbortController();
  let remainingMs = inputs.publishTimeoutS * 1000;
  let startedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const resume = () => {
    if (timer !== undefined || deadline.signal.aborted) return;
    startedAt = Date.now();
    timer = setTimeout(() => deadline.abort(), remainingMs);
    timer.unref();
  };
  const pause = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    remainingMs = Math.max(0, remainingMs - (Date.now() - startedAt));
  };
  resume();
  const requestTimeoutMs = inputs.requestTimeoutS * 1000;
  const clientUntil = (signal: AbortSignal) =>
    createGitHubClient(token, {
      baseUrl: ctx.apiUrl,
      log: { debug: (m) => core.debug(m), warn: (m) => core.warning(m) },
      requestTimeoutMs,
      signal,
    });
  const octokit = clientUntil(deadline.signal);
  const expiredError = () =>
    new PublishDeadlineError(
      `the publish deadline (input \`publish-timeout\`: ${inputs.publishTimeoutS} s) has passed`,
    );
  const untilDeadline = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined); // raced away: its rejection is not an unhandled one
    if (deadline.signal.aborted) return Promise.reject(expiredError());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(expiredError());
      deadline.signal.addEventListener('abort', onAbort, { once: true });
      work.then(resolve, reject).finally(() => deadline.signal.removeEventListener('abort', onAbort));
    });
  };
  return {
    octokit,
    lookup: deadlineBound(
      baselineClientOf(octokit, fetch, { timeoutMs: requestTimeoutMs, signal: deadline.signal }),
      untilDeadline,
    ),
    token,
    expired: () => deadline.signal.aborted,
    untilDeadline,
    graceClient: () => clientUntil(AbortSignal.timeout(graceMs(inputs))),
    pause,
    resume,
    close: pause,
  };
}
