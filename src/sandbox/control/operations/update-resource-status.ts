/**
 * POST /_sandbox/resources/{resource}/{id}/status (updateResourceStatus): the record moved to a
 * status its resource may take, along its lifecycle (409 with the moves allowed otherwise), with the
 * change's event and callbacks.
 */
import { allowsStatus, statusValues } from "../../engine/lifecycle.js";
import { moveStatus } from "../../engine/move.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState, requireRecord } from "../handler.js";
import { moveView } from "../views.js";

export const updateResourceStatus: ControlHandler = {
  operationId: "updateResourceStatus",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const { engine, body } = call;
      const record = requireRecord(engine, state, call.param("resource"), call.param("id"));
      const resource = engine.declaration!.resources[record.resource];
      if (!resource.status) throw new ControlError(400, `${resource.name} has no status to move`, "resource");
      const status: string = body.status;
      if (!allowsStatus(engine, resource, status)) {
        const values = statusValues(engine, resource);
        throw new ControlError(
          400,
          `"${status}" is not a status of ${resource.name}${values ? `; allowed: ${values.join(", ")}` : ` (${resource.schema} does not allow it)`}`,
          "status",
        );
      }
      const move = moveStatus(engine, state, record, status, { cause: "control", deliverTwice: body.deliver_twice === true });
      return { status: 200, body: moveView(engine, move) };
    }),
};
