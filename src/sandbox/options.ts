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
   * Makes the store of the sandbox's states (./store/store.ts StateStore) from the sandbox's bounds
   * and the hook that cancels a dropped state's callbacks; default: a memory store.
   */
  store?: (options: StateStoreOptions) => StateStore;
}
