/**
 * What src/sandbox/control/document.ts makes as it loads and on its first check (its prefix, its
 * document, its validator, the keywords whose findings name no wrong value), each on a new instance
 * of the module made in the test that reads it: the instance the test files share made them before
 * any test ran, and keeps its validator once made.
 *
 * - the control API is under `/_sandbox` (src/sandbox/README.md, "The control API");
 * - its document is the one shipped at CONTROL_DOCUMENT, and a check of an operation it does not
 *   have fails naming the control API;
 * - a body the control document's ErrorRuleRequest refuses for a wrong value beside members another
 *   branch of its schema would want (`drop: false` alone: "at least one of `status`, `latency_ms`
 *   and `drop: true`") names the wrong value's member, not the first member missing.
 */
import { describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { CONTROL_DOCUMENT } from "../../../../src/sandbox/control/document.js";
import { ControlError } from "../../../../src/sandbox/control/errors.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const freshDocument = () => freshModule<typeof import("../../../../src/sandbox/control/document.js")>("src/sandbox/control/document.ts");

describe("a new instance of the control document's module", () => {
  it("puts the control API under /_sandbox", async () => {
    const { CONTROL_PREFIX } = await freshDocument();
    expect(CONTROL_PREFIX).toBe("/_sandbox");
  });

  it("reads the document shipped at CONTROL_DOCUMENT", async () => {
    const { controlDocument } = await freshDocument();
    expect(controlDocument()).toBe(loadDocument(CONTROL_DOCUMENT));
  });

  it("fails its first check of an operation the document does not have, naming the control API", async () => {
    const { checkQuery } = await freshDocument();
    expect(() => checkQuery("noSuchOperation", new URL("http://127.0.0.1/_sandbox"))).toThrow(
      /^sandbox control API: unknown operationId "noSuchOperation"/,
    );
  });

  it("names the member whose value is wrong, not one an alternative of the schema wanted", async () => {
    const { parseBody } = await freshDocument();
    let refused: unknown;
    try {
      parseBody("application/json", Buffer.from(JSON.stringify({ operation_id: "getPing", drop: false })), "createError");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ControlError);
    const { status, field, message } = refused as ControlError;
    expect([status, field]).toEqual([400, "drop"]);
    // The members the other branches wanted are still named in the detail.
    expect(message).toMatch(/status: is required/);
    expect(message).toMatch(/latency_ms: is required/);
  });
});
