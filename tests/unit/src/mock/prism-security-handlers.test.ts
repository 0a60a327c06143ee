/**
 * src/mock/prism-parts.ts's security handlers, in a module loaded anew (tests/helpers/fresh-module.ts:
 * what it reads from Prism's dist/ as it loads runs in this test): the scheme lookup and the handler
 * of no security are Prism's own functions, from its security handlers' module.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { prismValidateSecurity } from "../../../../src/mock/prism-parts.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const fromPrism = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-http"));
const handlers = fromPrism("@stoplight/prism-http/dist/validator/validators/security/handlers/index.js");

describe("prism-parts' security handlers", () => {
  it("findSecurityHandler and noneSecurityHandler are Prism's", async () => {
    const parts = await freshModule<typeof import("../../../../src/mock/prism-parts.js")>("src/mock/prism-parts.ts");
    expect(parts.findSecurityHandler).toBeTypeOf("function");
    expect(parts.findSecurityHandler).toBe(handlers.findSecurityHandler);
    expect(parts.noneSecurityHandler).toBe(handlers.noneSecurityHandler);
    expect(parts.findSecurityHandler({ type: "http", scheme: "bearer" })._tag).toBe("Right");
    // The same module the shared instance (and Prism's own security check) reads.
    expect(prismValidateSecurity).toBe(fromPrism("@stoplight/prism-http/dist/validator/index.js").validateSecurity);
  });
});
