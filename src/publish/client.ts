/**
 * The GitHub REST client the publish functions take as a parameter: @actions/github's octokit (base URL
 * from GITHUB_API_URL, the runner's proxy settings) with retries on 5xx (@octokit/plugin-retry: 3 retries,
 * 1 s, 4 s, 9 s apart) and GitHub's recommended throttling (@octokit/plugin-throttling: writes spaced out,
 * rate limits and secondary rate limits waited out a bounded number of times). No @actions/core here: the
 * caller passes a logger. The token is only ever handed to octokit, which redacts it from errors.
 */
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface ClientLogger {
  debug(message: string): void;
  warn(message: string): void;
}

export interface ClientOptions {
  /** e.g. https://api.github.com or https://HOST/api/v3 (GITHUB_API_URL). */
  baseUrl: string;
  log: ClientLogger;
  userAgent?: string;
}

/** How long and how often a rate limit is waited out before the request fails. */
const RATE_LIMIT_MAX_WAIT_S = 60;
const RATE_LIMIT_RETRIES = 1;
const SECONDARY_RATE_LIMIT_RETRIES = 2;

interface LimitedRequest {
  method?: string;
  url?: string;
}

export function createGitHubClient(token: string, options: ClientOptions): GitHubClient {
  const { log } = options;
  const decide =
    (kind: string, retries: number) =>
    (retryAfter: number, request: LimitedRequest, _octokit: unknown, retryCount: number): boolean => {
      const again = retryCount < retries && retryAfter <= RATE_LIMIT_MAX_WAIT_S;
      log.warn(
        `GitHub ${kind} on ${request.method ?? ''} ${request.url ?? ''}: ${again ? `retrying in ${retryAfter} s` : `giving up (retry-after ${retryAfter} s, ${retryCount} retries so far)`}`,
      );
      return again;
    };
  return getOctokit(
    token,
    {
      baseUrl: options.baseUrl,
      userAgent: options.userAgent ?? 'evalgate-action',
      log: {
        debug: (message: string) => log.debug(message),
        info: (message: string) => log.debug(message),
        warn: (message: string) => log.warn(message),
        error: (message: string) => log.warn(message),
      },
      throttle: {
        onRateLimit: decide('rate limit', RATE_LIMIT_RETRIES),
        onSecondaryRateLimit: decide('secondary rate limit', SECONDARY_RATE_LIMIT_RETRIES),
      },
    },
    retry,
    throttling,
  );
}

/** The HTTP status of a failed octokit request, if it was one. */
export function httpStatusOf(error: unknown): number | null {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : null;
}

function responseOf(error: unknown): { headers: Record<string, unknown>; message: string } {
  const e = error as {
    message?: unknown;
    response?: { headers?: Record<string, unknown>; data?: { message?: unknown } };
  } | null;
  const dataMessage = e?.response?.data?.message;
  return {
    headers: e?.response?.headers ?? {},
    message: [typeof e?.message === 'string' ? e.message : '', typeof dataMessage === 'string' ? dataMessage : ''].join(
      ' ',
    ),
  };
}

/**
 * A rate limit (the retries and throttling could not wait it out): 429, or a 403 that says so — the primary limit
 * (`x-ratelimit-remaining: 0`) or a secondary one (`retry-after`, or "secondary rate limit" / "rate limit exceeded"
 * in the message). Not a permission problem: the token may well be allowed to write.
 */
export function isRateLimitError(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status === 429) return true;
  if (status !== 403) return false;
  const { headers, message } = responseOf(error);
  return (
    String(headers['x-ratelimit-remaining'] ?? '') === '0' ||
    headers['retry-after'] !== undefined ||
    /\brate limit/i.test(message)
  );
}

/** A 403 that means the token may not do this (e.g. "Resource not accessible by integration"), not a rate limit. */
export function isPermissionError(error: unknown): boolean {
  return httpStatusOf(error) === 403 && !isRateLimitError(error);
}
