/** DELETE /_sandbox/state (resetState): forgets the caller's state and cancels its queued callbacks. */
import { type ControlHandler, onState } from "../handler.js";

export const resetState: ControlHandler = {
  operationId: "resetState",
  access: "credential",
  handle: async (call) => {
    await onState(call, () => ({ status: 200, body: undefined }));
    await call.engine.store.resetState(call.key);
    return { status: 200, body: { reset: 1 } };
  },
};
