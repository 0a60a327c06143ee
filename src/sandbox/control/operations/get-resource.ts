/** GET /_sandbox/resources/{resource}/{id} (getResource): one record of the caller's, rendered by its schema. */
import { type ControlHandler, onState, requireRecord } from "../handler.js";
import { recordView } from "../views.js";

export const getResource: ControlHandler = {
  operationId: "getResource",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const record = requireRecord(call.engine, state, call.param("resource"), call.param("id"));
      return { status: 200, body: recordView(call.engine, record) };
    }),
};
