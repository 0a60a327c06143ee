/**
 * GET /_sandbox/health (getHealth, no credential): in hosted mode 200 when ready, 503 while starting
 * or draining (what a load balancer reads); a local or shared sandbox that answers is ready.
 */
import type { ControlHandler } from "../handler.js";

export const getHealth: ControlHandler = {
  operationId: "getHealth",
  access: "public",
  handle: ({ hosted }) => (hosted ? hosted.healthAnswer() : { status: 200, body: { status: "ready" } }),
};
