/** GET /_sandbox/events (listEvents): the caller's events kept, oldest first, of one resource or record when asked. */
import { type ControlHandler, onState } from "../handler.js";
import { eventView } from "../views.js";

export const listEvents: ControlHandler = {
  operationId: "listEvents",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const resourceName = call.url.searchParams.get("resource");
      const resourceId = call.url.searchParams.get("resource_id");
      const events = state.events
        .map((kept) => kept.event)
        .filter((e) => (resourceName === null || e.resource === resourceName) && (resourceId === null || e.resourceId === resourceId));
      return { status: 200, body: { events: events.map(eventView) } };
    }),
};
