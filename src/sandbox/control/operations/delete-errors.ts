/** DELETE /_sandbox/errors (deleteErrors): every error rule queued for the caller cleared. */
import { type ControlHandler, onState } from "../handler.js";

export const deleteErrors: ControlHandler = {
  operationId: "deleteErrors",
  access: "credential",
  handle: (call) => onState(call, (state) => ({ status: 200, body: { reset: state.clearErrorRules() } })),
};
