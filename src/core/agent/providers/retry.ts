/** Backoff policy of provider calls, kept apart from the SDK so it is testable with tiny delays. */

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** 429 (rate limit), 529 (overloaded), every 5xx, and status-less network failures are worth retrying. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true;
  return status === 429 || status === 529 || status >= 500;
}

/** Exponential backoff with jitter (50–100 % of the step); a server's retry-after wins when it is larger. */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = step / 2 + Math.random() * (step / 2);
  const delay = retryAfterMs !== undefined ? Math.max(jittered, retryAfterMs) : jittered;
  return Math.round(Math.min(policy.maxDelayMs, delay));
}

/** Parses `retry-after` (seconds or HTTP date) and `retry-after-ms`. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const s = headers.get('retry-after');
  if (!s) return undefined;
  if (Number.isFinite(Number(s))) return Number(s) * 1000;
  const date = Date.parse(s);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A provider failure in a few words, for an agent's status and the dashboard's badge: what a person fixes
 * (the key, the endpoint) comes first. `cause`: a connection failure's code (no HTTP status).
 */
export function briefFailure(f: { status?: number; base: string; cause?: string; type?: string }): string {
  switch (f.status) {
    case undefined:
      return f.type ? `API error (${f.type})` : `cannot reach ${f.base}: ${f.cause ?? 'connection failed'}`;
    case 401:
      return 'API key refused (401)';
    case 403:
      return 'permission denied (403)';
    case 404:
      return 'model or endpoint not found (404)';
    case 429:
      return 'rate limited (429)';
    case 529:
      return '529 overloaded';
    default:
      return `API error ${f.status}`;
  }
}
