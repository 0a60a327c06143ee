/** GET /_sandbox/metrics (getMetrics, the operator's, hosted mode): the Prometheus metrics, in its text format. */
import { type ControlHandler, hostedOf } from "../handler.js";

export const getMetrics: ControlHandler = {
  operationId: "getMetrics",
  access: "hosted",
  handle: async (call) => {
    const { contentType, body } = await hostedOf(call).renderMetrics();
    return { status: 200, text: body, contentType };
  },
};
