/**
 * The control API's router (src/sandbox/control/router.ts), built from the control document's
 * operations, and the handlers (src/sandbox/control/operations/): one per operation of the document,
 * none without one.
 */
import { describe, expect, it } from "vitest";
import { operations } from "../../../../../src/document/index.js";
import { controlDocument } from "../../../../../src/sandbox/control/document.js";
import { ControlError } from "../../../../../src/sandbox/control/errors.js";
import { paramReader } from "../../../../../src/sandbox/control/handler.js";
import { HANDLERS } from "../../../../../src/sandbox/control/operations/index.js";
import { allowedAt, controlRoutes, routeOf } from "../../../../../src/sandbox/control/router.js";

const routes = controlRoutes(controlDocument());
const DOCUMENT = "/_sandbox/openapi.yaml";

/** The ControlError a call throws. */
function refusal(call: () => unknown): ControlError {
  try {
    call();
  } catch (error) {
    if (error instanceof ControlError) return error;
    throw error;
  }
  throw new Error("no ControlError thrown");
}

describe("the control API's routes", () => {
  it("are the document's operations, each with a handler of its own, and no handler is for another", () => {
    const documented = operations(controlDocument()).map((op) => op.operationId);
    expect(routes.map((r) => r.operationId)).toEqual(documented);
    expect(HANDLERS.map((h) => h.operationId).sort()).toEqual([...documented].sort());
    expect(new Set(HANDLERS.map((h) => h.operationId)).size).toBe(HANDLERS.length);
  });

  it("give each handler the access its operation's security asks", () => {
    const doc = controlDocument();
    for (const op of operations(doc)) {
      const handler = HANDLERS.find((h) => h.operationId === op.operationId)!;
      const security: Array<Record<string, unknown>> = op.value.security ?? doc.security;
      const schemes = new Set(security.flatMap((s) => Object.keys(s)));
      const open = security.length === 0 || security.some((s) => Object.keys(s).length === 0);
      // The operator's operations of hosted mode are tagged Hosting: they exist only there (404 elsewhere).
      const operator = op.value.tags?.includes("Hosting") ? "hosted" : "operator";
      const expected = open ? "public" : schemes.size === 1 && schemes.has("operatorToken") ? operator : "credential";
      expect([op.operationId, handler.access]).toEqual([op.operationId, expected]);
    }
  });

  const cases: Array<[string, string, string, Record<string, string>]> = [
    ["GET", "/_sandbox", "getSandbox", {}],
    ["GET", "/_sandbox/", "getSandbox", {}],
    ["HEAD", "/_sandbox/openapi.yaml", "getSandboxDocument", {}],
    ["DELETE", "/_sandbox/state/all", "resetAllStates", {}],
    ["POST", "/_sandbox/resources/order/o-1/actions/pay/", "updateResourceWithAction", { resource: "order", id: "o-1", action: "pay" }],
    ["POST", "/_sandbox/events/evt_1/resend", "sendEventAgain", { id: "evt_1" }],
    ["PUT", "/_sandbox/callbacks/order%20Paid", "registerCallback", { webhook: "order Paid" }],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(7));
  it.each(cases)("routes %s %s to %s", (method, path, operationId, params) => {
    const { route, segments } = routeOf(routes, method, path, DOCUMENT);
    expect(route.operationId).toBe(operationId);
    const param = paramReader(segments);
    expect(Object.fromEntries(route.params.map((name) => [name, param(name)]))).toEqual(params);
  });

  it("answers 404 for a path no operation has, 405 with the methods allowed for a method its path does not take", () => {
    const missing = refusal(() => routeOf(routes, "GET", "/_sandbox/nothing", DOCUMENT));
    expect([missing.status, missing.message]).toEqual([
      404,
      "no control operation at /_sandbox/nothing; the control API is described at /_sandbox/openapi.yaml",
    ]);
    expect(refusal(() => routeOf(routes, "GET", "/_sandbox/openapiXyaml", DOCUMENT)).status).toBe(404);
    const wrong = refusal(() => routeOf(routes, "PATCH", "/_sandbox/errors", DOCUMENT));
    expect([wrong.status, wrong.message]).toEqual([405, "PATCH is not allowed on /_sandbox/errors; allowed: GET, POST, DELETE"]);
    expect(allowedAt(routes, "/_sandbox/callbacks/x")).toEqual(["PUT", "DELETE"]);
  });

  it("decodes a path parameter when it is read, 400 naming it when it is not valid percent-encoding", () => {
    const { segments } = routeOf(routes, "GET", "/_sandbox/resources/%E0%A4%A/1", DOCUMENT);
    const param = paramReader(segments);
    expect(param("id")).toBe("1");
    const bad = refusal(() => param("resource"));
    expect([bad.status, bad.message, bad.field]).toEqual([400, "the resource in the path is not valid percent-encoding", "resource"]);
  });
});
