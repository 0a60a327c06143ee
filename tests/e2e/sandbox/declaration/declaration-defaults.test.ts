/**
 * What a sandbox declaration holds for the members it leaves out (src/sandbox/declaration.ts, the
 * format in src/sandbox/README.md "A declaration"): no callbacks, no test values, not a singleton;
 * and a schema that is not a reference into the API's document is refused even in a declaration
 * read without the format's check (trusted bytes). On the fixture API shop@1.0.0.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bytesHash } from "../../../../src/sandbox/declaration-file.js";
import { DeclarationError, loadDeclaration, trustDeclaration } from "../../../../src/sandbox/declaration.js";
import { declarations, edit, fixture, linesBetween, shopDoc } from "./declarations.js";

const { write, load } = declarations("declaration-defaults");

describe("a resource that leaves members out", () => {
  it("has no callbacks, no test values, and is not a singleton", () => {
    const text = edit(
      fixture,
      [linesBetween(fixture, "    testValues:\n", "    expiry:\n"), ""],
      [linesBetween(fixture, "    callbacks:\n", "operations:\n"), ""],
    );
    const order = load(text).resources.order;
    expect(order.callbacks).toEqual([]);
    expect(order.testValues).toEqual([]);
    expect(order.singleton).toBe(false);
  });
});

describe("a trusted declaration", () => {
  it("whose schema is not a reference into the document is still refused, naming the member", () => {
    const { path, shown } = write(edit(fixture, ['schema: "#/components/schemas/Order"', "schema: components/schemas/Order"]));
    const doc = structuredClone(shopDoc);
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    let error: unknown;
    try {
      loadDeclaration(path, doc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeclarationError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${shown.replaceAll(".", "\\.")}: invalid sandbox declaration:\n {2}${shown.replaceAll(".", "\\.")}:6:\\d+ resources\\.order\\.schema: components/schemas/Order is not a schema of the API's document$`,
      ),
    );
  });
});
