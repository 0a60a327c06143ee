/**
 * The sandbox's callback delivery policy: the retry policy (bounded attempts, an exponential backoff,
 * a timeout per attempt; the sandbox's own, the sources do not show the provider's) and the URLs
 * nothing is sent to (not http(s), with userinfo, or under a domain reserved for examples).
 */
export interface RetryPolicy {
  /** Attempts per delivery, the first included (1-10). */
  attempts: number;
  /** Wait before the second attempt, ms; doubled for each later one (1-60000). */
  baseDelayMs: number;
  /** Longest wait between attempts, ms (1-60000). */
  maxDelayMs: number;
  /** Timeout of one attempt, ms (100-30000). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 4000, timeoutMs: 5000 };

const clamp = (value: number | undefined, min: number, max: number, fallback: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.min(max, Math.max(min, Math.round(value)));

/** The policy with every value inside its bounds. */
export function boundedRetry(policy: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    attempts: clamp(policy.attempts, 1, 10, DEFAULT_RETRY.attempts),
    baseDelayMs: clamp(policy.baseDelayMs, 1, 60_000, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: clamp(policy.maxDelayMs, 1, 60_000, DEFAULT_RETRY.maxDelayMs),
    timeoutMs: clamp(policy.timeoutMs, 100, 30_000, DEFAULT_RETRY.timeoutMs),
  };
}

/** The wait before attempt `n` (2, 3, ...). */
export const backoff = (policy: RetryPolicy, n: number) => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 2));

/** `url` without userinfo, for the log; undefined when it is not an http(s) URL. */
export function displayUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** True when an http(s) URL carries userinfo (`user:pass@`). */
export function hasUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    return false;
  }
}

/**
 * True for a host under the domains RFC 2606 reserves for examples (example.com, .net, .org and
 * the .example and .invalid TLDs): the specs' example URLs use them, and they never resolve, so the
 * sandbox does not try (no DNS lookup, no retries).
 */
export function isExampleHost(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    return /(^|\.)example\.(com|net|org)$/.test(host) || /\.(example|invalid)$/.test(host) || host === "example" || host === "invalid";
  } catch {
    return false;
  }
}
