/** GET /_sandbox/partners (listPartners, the operator's, hosted mode): every partner, oldest first, never a credential. */
import { type ControlHandler, hostedOf } from "../handler.js";

export const listPartners: ControlHandler = {
  operationId: "listPartners",
  access: "hosted",
  handle: async (call) => ({ status: 200, body: { partners: await hostedOf(call).partners.list() } }),
};
