/**
 * GET /_sandbox/state/all (listStates, the operator's): one line per credential with state (a
 * durable store's stored ones too), never the credential itself.
 */
import type { ControlHandler } from "../handler.js";

export const listStates: ControlHandler = {
  operationId: "listStates",
  access: "operator",
  handle: async ({ engine }) => ({
    status: 200,
    body: {
      credentials: (await engine.store.summaries()).map((s) => ({
        credential: s.label,
        records: s.records,
        clock_offset_seconds: Math.round(s.clockOffsetMs / 1000),
        errors: s.errors,
        deliveries: s.deliveries,
      })),
    },
  }),
};
