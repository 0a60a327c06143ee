/** DELETE /_sandbox/state/all (resetAllStates, the operator's): forgets every credential's state. */
import type { ControlHandler } from "../handler.js";

export const resetAllStates: ControlHandler = {
  operationId: "resetAllStates",
  access: "operator",
  handle: async ({ engine }) => ({ status: 200, body: { reset: await engine.store.resetAll() } }),
};
