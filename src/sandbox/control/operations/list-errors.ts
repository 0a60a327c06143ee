/** GET /_sandbox/errors (listErrors): the error rules queued for the caller's next calls. */
import { type ControlHandler, onState } from "../handler.js";
import { errorView } from "../views.js";

export const listErrors: ControlHandler = {
  operationId: "listErrors",
  access: "credential",
  handle: (call) => onState(call, (state) => ({ status: 200, body: { errors: state.errors.map(errorView) } })),
};
