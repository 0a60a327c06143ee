/** GET /_sandbox/clock (getClock): the caller's sandbox clock and its offset from the real time. */
import { type ControlHandler, onState } from "../handler.js";
import { clockView } from "../views.js";

export const getClock: ControlHandler = {
  operationId: "getClock",
  access: "credential",
  handle: (call) => onState(call, (state) => ({ status: 200, body: clockView(state) })),
};
