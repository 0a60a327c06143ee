/** DELETE /_sandbox/callbacks/{webhook} (deleteCallback): the caller's URL for a webhook forgotten. */
import { type ControlHandler, onState, requireWebhook } from "../handler.js";

export const deleteCallback: ControlHandler = {
  operationId: "deleteCallback",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const webhook = requireWebhook(call.engine, call.param("webhook"));
      return { status: 200, body: { reset: state.deleteCallbackUrl(webhook) ? 1 : 0 } };
    }),
};
