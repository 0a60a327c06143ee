/** GET /_sandbox/deliveries (listDeliveries): the caller's delivery log, every attempt of each, of one webhook when asked. */
import { type ControlHandler, onState } from "../handler.js";
import { deliveryView } from "../views.js";

export const listDeliveries: ControlHandler = {
  operationId: "listDeliveries",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const webhook = call.url.searchParams.get("webhook");
      const entries = state.deliveries.filter((d) => webhook === null || d.webhook === webhook);
      return { status: 200, body: { deliveries: entries.map(deliveryView) } };
    }),
};
