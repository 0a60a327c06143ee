/**
 * A state a store brought in from elsewhere (a durable store's states loaded at start, or a copy
 * refreshed because another instance changed it): what it has due without a request is taken into
 * this process's schedulers (its queued deliveries, its scheduled moves), and the latency or drop
 * rules it holds are armed (until one is, the mock does not ask the sandbox about its requests). The
 * memory store never needs it: its states are made, and scheduled, here.
 */
import type { CredentialState } from "../store/state.js";
import { armWake } from "./clock.js";
import type { EngineContext } from "./context.js";

export function resume(engine: EngineContext, state: CredentialState): void {
  engine.deliverer.watch(state);
  armWake(engine, state);
  if (state.errors.some((rule) => rule.latencyMs || rule.drop)) engine.transportArmed = true;
}
