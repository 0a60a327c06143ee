/** GET /_sandbox/state (getState): the caller's records, clock, callback URLs, queued errors and delivery count. */
import { type ControlHandler, onState } from "../handler.js";
import { stateView } from "../views.js";

export const getState: ControlHandler = {
  operationId: "getState",
  access: "credential",
  handle: (call) => onState(call, (state) => ({ status: 200, body: stateView(call.engine, state) })),
};
