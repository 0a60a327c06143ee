/**
 * Which requests the sandbox's control API is asked about (src/sandbox/index.ts `mayIntercept`): every
 * target that may name `/_sandbox` however it is written, every request once a latency or drop rule
 * is queued, and no other (an API request then goes straight to Prism's judging).
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { findApi, loadRegistry } from "../../../../src/registry.js";
import { createSandbox } from "../../../../src/sandbox/index.js";

describe("mayIntercept", () => {
  const entry = findApi("pay@1.3.0", loadRegistry());
  const sandbox = createSandbox(entry, loadDocument(entry.bundlePath));
  const asks = (url: string) => sandbox.hooks.mayIntercept!({ url } as IncomingMessage);

  it.each(["/_sandbox", "/_sandbox/state", "/v1/../_sandbox/state", "http://localhost/_sandbox/errors", "\\_sandbox", "//_sandbox"])(
    "asks the control API about %s",
    (url) => expect(asks(url)).toBe(true),
  );

  it.each(["/v1/invoice", "/v2/invoices?limit=5", "/"])("passes %s straight to the API while no transport rule is queued", (url) =>
    expect(asks(url)).toBe(false),
  );

  it("asks about every request once a latency or drop rule is queued", () => {
    sandbox.engine.transportArmed = true;
    try {
      expect(asks("/v1/invoice")).toBe(true);
    } finally {
      sandbox.engine.transportArmed = false;
      sandbox.close();
    }
  });
});
