/**
 * PATCH /_sandbox/partners/{id} (updatePartner, the operator's, hosted mode): a JSON merge patch of
 * the partner's name and quotas (a quota `null` is back to its default); answers the partner.
 */
import { type ControlHandler, hostedOf, noSuchPartner, partnerInput } from "../handler.js";

export const updatePartner: ControlHandler = {
  operationId: "updatePartner",
  access: "hosted",
  handle: async (call) => {
    const id = call.param("id");
    const partner = await partnerInput(() => hostedOf(call).partners.update(id, call.body));
    if (!partner) throw noSuchPartner(id);
    return { status: 200, body: partner };
  },
};
