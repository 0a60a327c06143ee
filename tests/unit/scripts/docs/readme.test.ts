/**
 * README.md is the front page: at most 15 KB, and it points at every guide of docs/guides/ that is
 * there. (Its quick start is run from a fresh project by tests/e2e/package/quickstart.test.ts, which
 * also checks its links inside the packed tarball.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

describe("README.md", () => {
  it("is at most 15 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it("links every guide in docs/guides/", () => {
    const guides = readdirSync(join(repoRoot, "docs/guides")).filter((f) => f.endsWith(".md"));
    expect(guides.length).toBeGreaterThan(0);
    for (const guide of guides) expect(readme, guide).toContain(`](docs/guides/${guide})`);
  });
});
