/** GET /_sandbox/state/all (listStates, the operator's): one line per credential with state, never the credential itself. */
import type { ControlHandler } from "../handler.js";

export const listStates: ControlHandler = {
  operationId: "listStates",
  access: "operator",
  handle: ({ engine }) => ({
    status: 200,
    body: {
      credentials: engine.store.states().map((s) => ({
        credential: s.label,
        records: s.count,
        clock_offset_seconds: Math.round(s.clockOffsetMs / 1000),
        errors: s.errors.length,
        deliveries: s.deliveries.length,
      })),
    },
  }),
};
