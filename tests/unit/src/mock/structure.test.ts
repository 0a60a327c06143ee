/**
 * The shape of src/mock/ that only the mock has: the sandbox attaches through the one declared
 * interface (MockHooks in src/mock/types.ts) without importing the server, and that module imports
 * nothing of the mock, so every stage can import it. The rules every folder of src/ keeps (no import
 * circle, no function over 150 lines, no file over 600) are checked by tests/unit/src/structure.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { importsOf, parse } from "../../../helpers/structure.js";

describe("src/mock's structure", () => {
  it("lets the sandbox attach through MockHooks (types.ts) alone, importing nothing else of the mock", () => {
    const sandbox = readFileSync(join(repoRoot, "src/sandbox/index.ts"), "utf8");
    const fromMock = [...sandbox.matchAll(/from "\.\.\/mock\/([^"]+)"/g)].map((match) => match[1]);
    expect(fromMock).toEqual(["types.js"]);
    expect(sandbox).toMatch(/import type \{ MockHooks \} from "\.\.\/mock\/types\.js"/);
    // The shared types module imports nothing of the mock: every stage can import it.
    const types = parse("types.ts", readFileSync(join(repoRoot, "src/mock/types.ts"), "utf8"));
    expect(importsOf(types).filter((i) => !i.target.startsWith("../"))).toEqual([]);
  });
});
