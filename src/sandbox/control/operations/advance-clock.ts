/**
 * POST /_sandbox/clock/advance (advanceClock): the caller's clock moved ahead (never more than
 * LIMITS.clockOffsetSeconds ahead of the real time in all), and what falls due by then moved, with
 * its callbacks (delivered twice when asked).
 */
import { tick } from "../../engine/clock.js";
import { LIMITS } from "../../store/limits.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState } from "../handler.js";
import { clockView } from "../views.js";

export const advanceClock: ControlHandler = {
  operationId: "advanceClock",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const seconds: number = call.body.seconds;
      if (state.clockOffsetMs / 1000 + seconds > LIMITS.clockOffsetSeconds) {
        throw new ControlError(
          400,
          `the clock would be more than ${LIMITS.clockOffsetSeconds} seconds ahead of the real time, the sandbox's limit; reset the state to start over`,
          "seconds",
        );
      }
      state.advanceClock(seconds * 1000);
      const moves = tick(call.engine, state, "clock", call.body.deliver_twice === true);
      return {
        status: 200,
        body: {
          clock: clockView(state),
          expired: moves.map((m) => ({
            resource: m.record.resource,
            id: m.record.id,
            ...(m.from === undefined ? {} : { from: m.from }),
            to: m.to,
            deliveries: m.deliveries.map((d) => d.id),
          })),
        },
      };
    }),
};
