/**
 * POST /_sandbox/resources/{resource}/{id}/actions/{action} (updateResourceWithAction): the record
 * moved by a named move of its lifecycle (404 for a move the resource does not declare, 409 for one
 * not allowed from its status), with the change's event and callbacks.
 */
import { moveStatus } from "../../engine/move.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState, requireRecord } from "../handler.js";
import { moveView } from "../views.js";

export const updateResourceWithAction: ControlHandler = {
  operationId: "updateResourceWithAction",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const { engine, body } = call;
      const record = requireRecord(engine, state, call.param("resource"), call.param("id"));
      const resource = engine.declaration!.resources[record.resource];
      const action = call.param("action");
      const moves = resource.status?.moves ?? {};
      if (!Object.hasOwn(moves, action)) {
        const names = Object.keys(moves);
        throw new ControlError(
          404,
          `${resource.name} has no action "${action}"${names.length > 0 ? `; actions: ${names.join(", ")}` : " (it declares no lifecycle)"}`,
          "action",
        );
      }
      const move = moveStatus(engine, state, record, { action }, { cause: "control", deliverTwice: body?.deliver_twice === true });
      return { status: 200, body: moveView(engine, move) };
    }),
};
