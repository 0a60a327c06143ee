/**
 * GET /_sandbox (getSandbox): what this sandbox simulates (../describe.ts), without a credential;
 * the operator's settings for a call with the operator's token, and 401 for a token that is not it.
 */
import { OPERATOR_HEADER } from "../../operator.js";
import { describe } from "../describe.js";
import { ControlError } from "../errors.js";
import type { ControlCall, ControlHandler } from "../handler.js";

/** Whether a call carries the operator's token; a token that does not match answers 401, as the operations over every credential do. */
function asOperator({ engine, request }: ControlCall): boolean {
  const given = request.headers[OPERATOR_HEADER];
  const operator = engine.operator;
  if (given === undefined || !operator) return false;
  if (!operator.matches(given)) throw new ControlError(401, `the token in ${OPERATOR_HEADER} is not the sandbox operator's`);
  return true;
}

export const getSandbox: ControlHandler = {
  operationId: "getSandbox",
  access: "public",
  handle: (call) => ({ status: 200, body: describe(call.engine, asOperator(call)) }),
};
