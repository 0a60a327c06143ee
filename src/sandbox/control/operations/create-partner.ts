/**
 * POST /_sandbox/partners (createPartner, the operator's, hosted mode): issues a credential to a new
 * partner; the answer shows it this once (only its hash is kept).
 */
import { type ControlHandler, hostedOf, partnerInput } from "../handler.js";

export const createPartner: ControlHandler = {
  operationId: "createPartner",
  access: "hosted",
  handle: async (call) => ({ status: 201, body: await partnerInput(() => hostedOf(call).partners.issue(call.body)) }),
};
