/**
 * What the tests that judge the mock's validation against Prism's own share: an HTTP operation made
 * by hand, in the shape @stoplight/http-spec gives; the request element the mock's route stage
 * makes; and an Either's outcome as plain data, to compare the two.
 */
import { requestElement } from "../../src/mock/route.js";
import type { Element, Operation } from "../../src/mock/types.js";

/** A Prism HTTP operation made by hand: POST /v1/things with `request` and `security`. */
export const operation = (request: Record<string, unknown>, security: unknown[][] = []) =>
  ({
    id: "hand-made",
    method: "post",
    path: "/v1/things",
    responses: [{ id: "r", code: "200", contents: [], headers: [] }],
    servers: [],
    security,
    request,
  }) as unknown as Operation;

export const JSON_HEADERS = { "content-type": "application/json", "content-length": "2" };

/** The element the route stage makes; `body` only when given (no member at all otherwise). */
export const elementOf = (target: string, headers: Record<string, string>, ...body: unknown[]) =>
  ({ ...requestElement("POST", target, headers, 0), ...(body.length > 0 ? { body: body[0] } : {}) }) as Element;

/** An Either's tag and, for a Left, its findings as plain data. */
export const outcome = (either: { _tag: string; left?: unknown }) =>
  either._tag === "Left" ? { tag: "Left", findings: JSON.parse(JSON.stringify(either.left)) } : { tag: "Right" };
