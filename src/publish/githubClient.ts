/**
 * The GitHub REST client the publish functions take as a parameter: @actions/github's octokit (base URL
 * from GITHUB_API_URL, the runner's proxy settings) with retries on 5xx (@octokit/plugin-retry: 3 retries,
 * 1 s, 4 s, 9 s apart) and GitHub's recommended throttling (@octokit/plugin-throttling: writes spaced out,
 * rate limits and secondary rate limits waited out a bounded number of times). No @actions/core here: the
 * caller passes a logger. The token is only ever handed to octokit; error messages are cleared of it and of
 * anything shaped like a GitHub token (redactTokens). Every answer is bounded in time and size (timedFetch).
 */
import { getOctokit } from '@actions/github';
import { defaults } from '@actions/github/lib/utils';
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
  /** Milliseconds one attempt of a request may take, its answer's body included (default 30 s). */
  requestTimeoutMs?: number;
  /** Aborts every request in flight and every later one (the caller's overall deadline). */
  signal?: AbortSignal;
  /** Largest answer body read (default MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number;
}

/** A request that got no (whole) answer in time, or was cut by the caller's deadline. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
}

/** An answer that says it is JSON and is not. */
export class MalformedAnswerError extends Error {
  override readonly name = 'MalformedAnswerError';
}

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * Largest answer body read from GitHub's API (a page of 100 comments of 65,536 characters is at most ~26 MB): a
 * larger one is refused before it is parsed, so a misbehaving server or proxy cannot fill the memory.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Tokens GitHub issues (personal, OAuth, user-to-server, installation, refresh, fine-grained) by their prefixes. */
const TOKEN_SHAPES = /\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_[A-Za-z0-9_]{16,})/g;

/**
 * `text` without the token and without anything shaped like a GitHub token: an API error message may quote what it
 * was sent, and it reaches the comment, the job summary and the outputs, which the runner's log masking does not cover.
 */
export function redactTokens(text: string, token = ''): string {
  const cut = token.length >= 8 ? text.split(token).join('***') : text;
  return cut.replace(TOKEN_SHAPES, '***');
}

/**
 * The body of `response`, at most `maxBytes` bytes (else a MalformedAnswerError, before anything is parsed): read as
 * it streams, so a 600 MB answer costs at most the cap.
 */
async function boundedBody(response: Response, maxBytes: number, where: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const tooLarge = (bytes: string) => {
    const error = new MalformedAnswerError(
      `${where}: the answer (HTTP ${response.status}) is ${bytes} bytes, over the ${maxBytes}-byte cap`,
    );
    // Named as an abort, octokit hands it on as it is, and the retry plugin does not read the same answer again.
    Object.defineProperty(error, 'name', { value: 'AbortError' });
    return error;
  };
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(String(declared));
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw tooLarge(`more than ${maxBytes}`);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * @actions/github's fetch (with the runner's proxy settings), each call cut after `timeoutMs` or when `deadline`
 * aborts: a server that accepts and never answers would otherwise hold the step for ever. The message says which.
 * The body is read under the same clock and under MAX_ANSWER_BYTES; octokit parses it (once).
 */
function timedFetch(base: Fetch, timeoutMs: number, deadline: AbortSignal | undefined, maxBytes: number): Fetch {
  return async (url, init = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signals = [timeout, ...(init.signal ? [init.signal] : []), ...(deadline ? [deadline] : [])];
    const where = `${init.method ?? 'GET'} ${String(url).replace(/\?.*$/, '')}`;
    const cut = () =>
      deadline?.aborted
        ? new RequestTimeoutError(`${where}: cut off by the publish deadline`)
        : new RequestTimeoutError(`${where}: no answer within ${timeoutMs / 1000} s`);
    let response: Response;
    let body: Uint8Array;
    try {
      response = await base(url, { ...init, signal: AbortSignal.any(signals) });
      // A server that sends its headers and then trickles is cut too.
      body = await boundedBody(response, maxBytes, where);
    } catch (error) {
      if (timeout.aborted || deadline?.aborted) throw cut();
      throw error;
    }
    const copy = new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // octokit reads the page's own address from it (the comment pages' loop check compares them).
    Object.defineProperty(copy, 'url', { value: response.url || String(url) });
    return copy;
  };
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
  const octokit = getOctokit(
    token,
    {
      baseUrl: options.baseUrl,
      userAgent: options.userAgent ?? 'evalverdict-action',
      request: {
        fetch: timedFetch(
          (defaults.request?.fetch ?? fetch) as Fetch,
          options.requestTimeoutMs ?? 30_000,
          options.signal,
          options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
        ),
      },
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
  guardAnswers(octokit, token);
  return octokit;
}

/**
 * Two checks on every answer: a JSON answer that did not parse (octokit hands it on as a string, which callers would
 * meet as `Cannot use 'in' operator`) or an HTML page where JSON was due is a MalformedAnswerError; and an error's
 * message is cleared of the token and of token-shaped text before anyone reads it.
 */
function guardAnswers(octokit: GitHubClient, token: string): void {
  octokit.hook.after('request', (response, options) => {
    const data: unknown = response.data;
    const type = String(response.headers['content-type'] ?? '');
    const json = /\bjson\b/i.test(type) || (typeof data === 'string' && data !== '');
    if (json && typeof data === 'string' && response.status !== 204 && response.status < 300) {
      const where = `${options.method} ${String(response.url || options.url).replace(/\?.*$/, '')}`;
      const bytes = Buffer.byteLength(data);
      throw new MalformedAnswerError(
        /\bjson\b/i.test(type)
          ? `${where}: the answer (HTTP ${response.status}, ${bytes} bytes) is not valid JSON`
          : `${where}: the answer (HTTP ${response.status}, ${type || 'no content type'}, ${bytes} bytes) is not JSON`,
      );
    }
  });
  octokit.hook.error('request', (error) => {
    const e = error as { message?: unknown; response?: { data?: unknown } };
    if (typeof e.message === 'string') e.message = redactTokens(e.message, token);
    const data = e.response?.data;
    if (typeof data === 'string' && e.response) e.response.data = redactTokens(data, token);
    else if (data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
      const body = data as { message: string };
      body.message = redactTokens(body.message, token);
    }
    throw error;
  });
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

/**
 * Whether a failed request ran out of time (RequestTimeoutError): octokit wraps what fetch throws in a RequestError
 * (status 500) that keeps the message and the cause.
 */
export function isTimeout(error: unknown): boolean {
  return causes(error).some((e) => e instanceof RequestTimeoutError);
}

/** Whether a failed request's answer claimed to be JSON and was not (MalformedAnswerError). */
export function isMalformedAnswer(error: unknown): boolean {
  return causes(error).some((e) => e instanceof MalformedAnswerError);
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && chain.length < 10; e = (e as { cause?: unknown }).cause) {
    chain.push(e);
  }
  return chain;
}
