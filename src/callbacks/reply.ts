/**
 * The receiver's answers (a JSON body with its status and headers: 400 with the violations, 503
 * with Retry-After), and the time limit every hook and store call runs within.
 */
import type { ContractViolation } from "../validation/contract.js";
import type { CallbackReply, HandlerSettings } from "./types.js";

/** A body over `maxBodyBytes`: answered 413, the rest not read. */
export class BodyTooLarge extends Error {}
/** A hook or a store call past its time limit. */
export class TimedOut extends Error {}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): CallbackReply {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

/** 400 listing what is wrong with the delivery. */
export const invalid = (context: HandlerSettings, violations: ContractViolation[]): CallbackReply =>
  json(400, {
    error: `invalid ${context.info.name} callback for ${context.entry.alias}`,
    violations: violations.map(({ in: where, path, message }) => ({ in: where, path, message })),
  });

/** 503 with Retry-After (whole seconds, at least one): the provider retries. */
export const retryLater = (error: string, retryAfterMs = 1000): CallbackReply =>
  json(503, { error }, { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });

/** `promise`, or a TimedOut rejection after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
