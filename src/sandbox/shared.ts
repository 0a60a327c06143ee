/**
 * The sandbox as a shared service (DESIGN.md "Round 3", "Local and shared"; documented in
 * docs/guides/shared-sandbox.md): the options that decide it and their environment variables, read
 * in one place. Bound to loopback (the default) the sandbox serves one developer; bound to another
 * interface it is shared: callbacks reach only what the operator allows (./targets.ts), the
 * operations over every credential need the operator's token (./operator.ts), and one memory budget
 * (./store.ts SandboxBudget) bounds every credential's records together.
 */
import { OperatorToken } from "./operator.js";
import { DEFAULT_BUDGET, SandboxBudget } from "./store.js";
import { CALLBACK_ALLOW_ENV, parseCallbackAllow, TargetPolicy } from "./targets.js";

export interface SharedSandboxOptions {
  /** The interface the mock listens on (set by startMock from its `host`): loopback means local. */
  binding?: string;
  /**
   * Shared mode: the callback targets allowed (host names, `*.domain`, IP addresses, CIDR networks).
   * Default: the BANK_API_CONTRACTS_CALLBACK_ALLOW environment variable (comma separated), else none.
   */
  callbackAllow?: string | string[];
  /**
   * The operator's token, which `GET`/`DELETE /_sandbox/state/all` need (sent as
   * `X-Sandbox-Operator-Token`). Default: the BANK_API_CONTRACTS_OPERATOR_TOKEN environment
   * variable; without either, those operations do not exist.
   */
  operatorToken?: string;
  /** The memory budget, shared by every sandbox given the same one. Default: one for the whole process. */
  budget?: SandboxBudget;
}

export interface SharedSettings {
  targets: TargetPolicy;
  operator?: OperatorToken;
  budget: SandboxBudget;
}

/** The settings of a sandbox: the options, else the environment's. Throws a TypeError on a bad allow-list or token. */
export function sharedSettings(options: SharedSandboxOptions, env: NodeJS.ProcessEnv = process.env): SharedSettings {
  return {
    targets: new TargetPolicy({
      binding: options.binding,
      callbackAllow: parseCallbackAllow(options.callbackAllow ?? env[CALLBACK_ALLOW_ENV]),
    }),
    operator: OperatorToken.from(options.operatorToken, env),
    budget: options.budget ?? DEFAULT_BUDGET,
  };
}

export { SandboxBudget };
