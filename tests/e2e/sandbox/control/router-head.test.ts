/**
 * HEAD on the control API (src/sandbox/control/router.ts: "HEAD answered as GET"): a path that
 * takes GET answers HEAD as its GET; a path that takes no GET does not take HEAD either, and
 * answers 405 with the methods it takes, as any other method it does not take. A path's characters
 * are taken as they are: the `.` of `/_sandbox/openapi.yaml` is a dot.
 */
import { describe, expect, it } from "vitest";
import { controlDocument } from "../../../../src/sandbox/control/document.js";
import { ControlError } from "../../../../src/sandbox/control/errors.js";
import { controlRoutes, routeOf } from "../../../../src/sandbox/control/router.js";

const DOCUMENT = "/_sandbox/openapi.yaml";
/** The routes, made in the test that uses them (a mutation tester sees the test that runs the code). */
const routesNow = () => controlRoutes(controlDocument());

describe("HEAD on the control API", () => {
  it("is the GET of a path that takes GET", () => {
    const routes = routesNow();
    expect(routeOf(routes, "HEAD", "/_sandbox/clock", DOCUMENT).route.operationId).toBe("getClock");
    expect(routeOf(routes, "HEAD", "/_sandbox/errors", DOCUMENT).route.operationId).toBe("listErrors");
  });

  it.each([
    ["/_sandbox/clock/advance", "POST"],
    ["/_sandbox/callbacks/invoicePaid", "PUT, DELETE"],
    ["/_sandbox/resources/invoice/inv_1/status", "POST"],
  ])("on %s, which takes no GET, is 405 naming what it takes (%s)", (path, allowed) => {
    const routes = routesNow();
    let refused: unknown;
    try {
      routeOf(routes, "HEAD", path, DOCUMENT);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ControlError);
    expect([(refused as ControlError).status, (refused as ControlError).message]).toEqual([
      405,
      `HEAD is not allowed on ${path}; allowed: ${allowed}`,
    ]);
  });
});

describe("a route's path", () => {
  it("takes its characters as they are: the document's path is routed, a path with another character for its dot is not", () => {
    const routes = routesNow();
    expect(routeOf(routes, "HEAD", "/_sandbox/openapi.yaml", DOCUMENT).route.operationId).toBe("getSandboxDocument");
    expect(() => routeOf(routes, "GET", "/_sandbox/openapiXyaml", DOCUMENT)).toThrow(/^no control operation at \/_sandbox\/openapiXyaml/);
  });
});
