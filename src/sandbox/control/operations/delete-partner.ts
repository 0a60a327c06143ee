/**
 * DELETE /_sandbox/partners/{id} (deletePartner, the operator's, hosted mode): the partner's
 * credential is refused from the next request on (its state stays until reset); answers the partner
 * as it was.
 */
import { type ControlHandler, hostedOf, noSuchPartner } from "../handler.js";

export const deletePartner: ControlHandler = {
  operationId: "deletePartner",
  access: "hosted",
  handle: async (call) => {
    const id = call.param("id");
    const { partners } = hostedOf(call);
    const partner = await partners.get(id);
    if (!partner || !(await partners.revoke(id))) throw noSuchPartner(id);
    return { status: 200, body: partner };
  },
};
