/** GET /_sandbox/callbacks (listCallbacks): the callback URLs registered for the caller (without userinfo). */
import { type ControlHandler, onState } from "../handler.js";
import { callbacksView } from "../views.js";

export const listCallbacks: ControlHandler = {
  operationId: "listCallbacks",
  access: "credential",
  handle: (call) => onState(call, (state) => ({ status: 200, body: { callbacks: callbacksView(state) } })),
};
