/**
 * A list's `advance` in a declaration (src/sandbox/declaration.ts): each listed record takes a named
 * move of its resource's lifecycle (src/sandbox/README.md, "A declaration"), so a resource without
 * one (`status.moves`) has nothing to advance along, and the declaration is refused naming the file,
 * line and member; on the fixture's order, whose lifecycle has `pay`, it loads. On the fixture API
 * shop@1.0.0 (tests/fixtures/mock, tests/fixtures/sandbox/shop.sandbox.yaml).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { loadDeclaration } from "../../../src/sandbox/declaration.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const shopDoc = loadDocument(shop.bundlePath);
const fixture = readFileSync(join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"), "utf8");
const dir = mkdtempSync(join(repoRoot, ".tmp", "declaration-advance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (name: string, text: string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, text);
  return loadDeclaration(path, shopDoc);
};
/** The fixture with listOrders advancing each listed order by `pay`. */
const advancing = fixture.replace("    limit: $params.limit\n", "    limit: $params.limit\n    advance: pay\n");
/** The same order without a lifecycle: its status moves freely, with no named move (and no test value moving it). */
const free = advancing
  .replace(/ {6}moves:\n( {8}.*\n)+/, "")
  .replace(/ {4}testValues:\n( {6}.*\n)+? {4}expiry:/, "    expiry:")
  .replace(/ {8}when: \[PAID\]/, "        when: [CREATED]");

describe("a list's advance", () => {
  it("loads on a resource with a lifecycle", () => {
    expect(advancing).toContain("advance: pay");
    expect(load("with-lifecycle", advancing).operations.listOrders.advance).toBe("pay");
  });

  it("on a resource without a lifecycle is refused, naming the file, line and member", () => {
    expect(free).not.toContain("moves:");
    expect(free).not.toContain("testValues:");
    let error: Error | undefined;
    try {
      load("without-lifecycle", free);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.name).toBe("DeclarationError");
    const line = free.split("\n").findIndex((l) => l.includes("advance: pay")) + 1;
    expect(error?.message).toContain(`without-lifecycle.yaml:${line}:`);
    expect(error?.message).toContain(
      "operations.listOrders.advance: order has no lifecycle (status.moves): a list advances its records by a named move",
    );
  });
});
