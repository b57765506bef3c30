/**
 * The step's one GitHub client (issue 31) under its one deadline (issue 35): `publish-timeout` bounds every API call
 * of the step together (the look-ups, the artifact downloads, the statuses and the comment), each request also
 * bounded by `request-timeout`. Past the deadline every request in flight is aborted and later ones fail at once.
 */
import * as core from '@actions/core';
import { createGitHubClient } from '../github/client.js';
import type { GitHubClient } from '../github/client.js';
import { baselineClientOf } from './baselineArtifact.js';
import type { BaselineClient } from './baselineArtifact.js';
import type { RunContext } from './context.js';
import type { ActionInputs } from './inputs.js';

/** How long the earlier comment may still be marked stale once the deadline has passed. */
export const STALE_GRACE_MS = 10_000;

export interface GitHubSession {
  octokit: GitHubClient;
  /** The artifact and pull-request look-ups, over the same client; downloads under `request-timeout`. */
  lookup: BaselineClient;
  token: string;
  expired(): boolean;
  /** A client for one last call after the deadline (marking the earlier comment stale), bounded by STALE_GRACE_MS. */
  graceClient(): GitHubClient;
  /** Scoring is API-free: the deadline's clock stops while it runs (a request in flight is still cut by its own). */
  pause(): void;
  resume(): void;
  /** Stops the deadline's timer (the step's API work is over). */
  close(): void;
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
  return {
    octokit,
    lookup: baselineClientOf(octokit, fetch, { timeoutMs: requestTimeoutMs, signal: deadline.signal }),
    token,
    expired: () => deadline.signal.aborted,
    graceClient: () => clientUntil(AbortSignal.timeout(Math.min(STALE_GRACE_MS, requestTimeoutMs))),
    pause,
    resume,
    close: pause,
  };
}
