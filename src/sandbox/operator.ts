/**
 * The sandbox operator's token: the operations over every credential's state
 * (`GET` and `DELETE /_sandbox/state/all`) exist only when a token is configured, and answer only a
 * call that carries it in the `X-Sandbox-Operator-Token` header. The token comes from the
 * BANK_API_CONTRACTS_OPERATOR_TOKEN environment variable or the `operatorToken` option (the CLI's
 * `--operator-token-file <path>`): never from a command line, where other users of the machine
 * could read it. It is compared in constant time (SHA-256 of both sides, then timingSafeEqual), and
 * never logged or shown.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export const OPERATOR_TOKEN_ENV = "BANK_API_CONTRACTS_OPERATOR_TOKEN";
export const OPERATOR_HEADER = "x-sandbox-operator-token";
/** Shortest token accepted: a guessable token would open every partner's state. */
export const OPERATOR_TOKEN_MIN_LENGTH = 16;

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

export class OperatorToken {
  private readonly hash: Buffer;

  constructor(token: string) {
    if (token.length < OPERATOR_TOKEN_MIN_LENGTH)
      throw new TypeError(`the sandbox operator token must have at least ${OPERATOR_TOKEN_MIN_LENGTH} characters`);
    this.hash = digest(token);
  }

  /** The token configured by `option`, else by the environment variable; undefined when neither gives one. */
  static from(option: string | undefined, env: NodeJS.ProcessEnv = process.env): OperatorToken | undefined {
    const value = (option ?? env[OPERATOR_TOKEN_ENV] ?? "").trim();
    return value === "" ? undefined : new OperatorToken(value);
  }

  /** True when `given` is the token; the time taken does not depend on where they differ. */
  matches(given: string | string[] | undefined): boolean {
    const value = Array.isArray(given) ? given[0] : given;
    if (typeof value !== "string") return false;
    return timingSafeEqual(digest(value.trim()), this.hash);
  }

  /** Never shows the token. */
  toJSON(): string {
    return "[operator token]";
  }
}
