/**
 * askPrism (src/mock/answer.ts) when Prism's pipeline throws, on a stand-in of Prism's engine: only
 * the errors prism-http's negotiation throws for a malformed Accept (content-type's parse: a
 * TypeError "invalid media type", "invalid parameter format" or "argument string is required") of a
 * request that has an Accept become Prism's 406 (DEVIATIONS malformedAccept); any other error, or
 * one of those without an Accept to blame, is thrown as it is.
 */
import { describe, expect, it } from "vitest";
import { askPrism } from "../../../../src/mock/answer.js";
import type { MockContext } from "../../../../src/mock/context.js";
import type { Element } from "../../../../src/mock/types.js";

/** A context whose Prism throws `error` for every request. */
const throwing = (error: unknown) =>
  ({
    operations: [],
    prism: {
      request: () => async () => {
        throw error;
      },
    },
  }) as unknown as MockContext;

const input = (headers: Record<string, string>) =>
  ({ method: "get", url: { path: "/v1/order/o-1", query: {} }, headers, body: undefined }) as unknown as Element;

describe("askPrism when Prism throws", () => {
  it("content-type's TypeError for a malformed Accept: Prism's 406, naming the Accept's entries", async () => {
    for (const message of ["invalid media type", "invalid parameter format", "argument string is required"]) {
      const result = await askPrism(throwing(new TypeError(message)), input({ accept: "nonsense,text/csv;x" }), {});
      expect(result._tag).toBe("Left");
      const left = (result as { left: { status: number; detail: string; name: string } }).left;
      expect(left.status).toBe(406);
      expect(left.name).toBe("https://stoplight.io/prism/errors#NOT_ACCEPTABLE");
      expect(left.detail).toBe("Unable to find content for nonsense,text/csv;x");
    }
  });

  it("a TypeError of another kind, with an Accept: thrown as it is", async () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'contents')");
    await expect(askPrism(throwing(error), input({ accept: "application/json" }), {})).rejects.toBe(error);
  });

  it("an error that is no TypeError, even with a malformed Accept's message: thrown as it is", async () => {
    const error = new Error("invalid media type");
    await expect(askPrism(throwing(error), input({ accept: "nonsense" }), {})).rejects.toBe(error);
  });

  it("a malformed Accept's TypeError for a request without Accept: thrown as it is", async () => {
    const error = new TypeError("invalid media type");
    await expect(askPrism(throwing(error), input({}), {})).rejects.toBe(error);
    await expect(askPrism(throwing(error), input({ accept: "" }), {})).rejects.toBe(error);
  });
});
