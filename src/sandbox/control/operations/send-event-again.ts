/**
 * POST /_sandbox/events/{id}/resend (sendEventAgain): the event's callbacks delivered again with its
 * payload and Idempotency-Key, to the URL each callback's rule gives now (409 when it raised none,
 * or while a delivery of it is pending); `deliver_twice` delivers each twice, as the actions do.
 */
import { callbackUrlNow, send } from "../../engine/events.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState } from "../handler.js";
import { deliveryView, eventView } from "../views.js";

export const sendEventAgain: ControlHandler = {
  operationId: "sendEventAgain",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const id = call.param("id");
      const event = state.findEvent(id);
      if (!event) throw new ControlError(404, `this credential has no event "${id}"`, "id");
      if (event.callbacks.length === 0) throw new ControlError(409, `event ${id} raised no callback: there is nothing to resend`, "id");
      const busy = state.deliveries.some((d) => event.deliveries.includes(d.id) && d.state === "pending");
      if (busy) throw new ControlError(409, `a delivery of event ${id} is still pending; resend it once it is delivered or failed`, "id");
      const times = call.body?.deliver_twice === true ? 2 : 1;
      const deliveries = event.callbacks.map((callback) =>
        send(call.engine, state, event, { ...callback, url: callbackUrlNow(call.engine, state, event, callback) }, times),
      );
      return { status: 200, body: { event: eventView(event), deliveries: deliveries.map(deliveryView) } };
    }),
};
