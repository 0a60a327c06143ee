/**
 * The options of a sandbox (src/mock/index.ts `startMock` with `sandbox: { ... }`): the shared
 * sandbox's settings (./shared.ts), where the declaration and the registry are, the delivery retry
 * policy, and the store its states live in.
 */
import type { RetryPolicy } from "./delivery/policy.js";
import type { SharedSandboxOptions } from "./shared.js";
import type { StateStore, StateStoreOptions } from "./store/store.js";

export interface SandboxOptions extends SharedSandboxOptions {
  /** Declaration to use instead of `sandbox.yaml` beside the API's root spec. */
  declarationPath?: string;
  /** Registry the API is looked up in when callbacks are sent (default: the package's own). */
  registry?: string;
  /** Callback delivery retries (bounded, see ./delivery/policy.ts). */
  retry?: Partial<RetryPolicy>;
  /** fetch used to deliver callbacks (tests). */
  fetch?: typeof fetch;
  /**
   * Where the sandbox's states live: a store address (`memory`, `file:<dir>`, `postgres://...`;
   * ./store/open.ts), opened when the mock starts; or a maker of the store (./store/store.ts
   * StateStore) from the sandbox's bounds and hooks (tests). Default: the environment variable
   * BANK_API_CONTRACTS_SANDBOX_STORE, else `memory`.
   */
  store?: string | ((options: StateStoreOptions) => StateStore);
}
