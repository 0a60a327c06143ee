/**
 * POST /_sandbox/errors (createError): a status (any 400-599), a Retry-After, a latency (at most
 * MAX_LATENCY_MS) or a dropped connection (before the request is processed, or after: `true` is
 * "before") queued for the next calls of one of the API's operations (at most LIMITS.errorRules
 * rules a credential).
 */
import { newId } from "../../ids.js";
import { LIMITS, MAX_LATENCY_MS } from "../../store/limits.js";
import type { ErrorRule } from "../../store/types.js";
import { ControlError } from "../errors.js";
import { type ControlHandler, onState } from "../handler.js";
import { errorView } from "../views.js";

export const createError: ControlHandler = {
  operationId: "createError",
  access: "credential",
  handle: (call) =>
    onState(call, (state) => {
      const { engine, body } = call;
      const operationId: string = body.operation_id;
      if (!engine.operation(operationId)) {
        throw new ControlError(
          400,
          `"${operationId}" is not an operation of ${engine.entry.alias}; operations: ${engine.operations.map((o) => o.operationId).join(", ")}`,
          "operation_id",
        );
      }
      const drop: ErrorRule["drop"] = body.drop === true || body.drop === "before" ? "before" : body.drop === "after" ? "after" : undefined;
      if (body.status === undefined && body.latency_ms === undefined && drop === undefined) {
        throw new ControlError(400, 'say what to force: a status, latency_ms, or drop ("before" or "after")', "status");
      }
      if (drop !== undefined && body.status !== undefined)
        throw new ControlError(400, "a dropped connection answers no status: give drop or status, not both", "drop");
      if (state.errors.length >= LIMITS.errorRules) {
        throw new ControlError(
          409,
          `${LIMITS.errorRules} error rules are queued for this credential, the limit; clear them with DELETE /_sandbox/errors`,
        );
      }
      const rule: ErrorRule = {
        id: newId("err_"),
        operationId,
        status: (body.status as number | undefined) ?? 0,
        remaining: (body.count as number | undefined) ?? 1,
        ...(body.retry_after === undefined ? {} : { retryAfter: body.retry_after as number }),
        ...(body.latency_ms === undefined ? {} : { latencyMs: Math.min(MAX_LATENCY_MS, body.latency_ms as number) }),
        ...(drop === undefined ? {} : { drop }),
      };
      state.addErrorRule(rule);
      if (rule.latencyMs || rule.drop) engine.transportArmed = true;
      return { status: 201, body: errorView(rule) };
    }),
};
