/** GET /_sandbox/partners/{id} (getPartner, the operator's, hosted mode): one partner and its quotas in force. */
import { type ControlHandler, hostedOf, noSuchPartner } from "../handler.js";

export const getPartner: ControlHandler = {
  operationId: "getPartner",
  access: "hosted",
  handle: async (call) => {
    const id = call.param("id");
    const partner = await hostedOf(call).partners.get(id);
    if (!partner) throw noSuchPartner(id);
    return { status: 200, body: partner };
  },
};
