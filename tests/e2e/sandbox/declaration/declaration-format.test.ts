/**
 * The declaration's format check as a fresh process makes it (src/sandbox/declaration.ts compiles
 * DECLARATION_SCHEMA once per process, at the first declaration it checks): here on a new instance
 * of the module (tests/helpers/fresh-module.ts), so the compilation happens in this test whatever
 * ran before, and the other files of the worker keep the modules they share. It accepts the
 * fixture's declaration and reports every problem of a file, not only the first. On the fixture API
 * shop@1.0.0.
 */
import { describe, expect, it } from "vitest";
import { freshModule } from "../../../helpers/fresh-module.js";
import { declarations, edit, fixture, shopDoc } from "./declarations.js";

const { write } = declarations("declaration-format");

/** declaration.ts loaded afresh (a new instance of it alone): its schema not compiled yet. */
async function freshLoader() {
  return (await freshModule<typeof import("../../../../src/sandbox/declaration.js")>("src/sandbox/declaration.ts")).loadDeclaration;
}

describe("the format check, compiled afresh", () => {
  it("accepts the fixture's declaration and reports every problem of a broken one", async () => {
    const loadDeclaration = await freshLoader();
    expect(Object.keys(loadDeclaration(write(fixture).path, shopDoc).operations)).toHaveLength(5);
    const broken = write(edit(fixture, ["sandbox: 1\n", "sandbox: 1\ncolour: red\n"], ["kind: read", "kind: fetch"]));
    expect(() => loadDeclaration(broken.path, shopDoc)).toThrow(
      /colour: is not a member of a sandbox declaration.*\n.*operations\.getOrder\.kind: must be one of/s,
    );
  });
});
