/**
 * The guides' rendering (scripts/docs/guides.ts): whatever Markdown files docs/guides/ holds, in
 * reading order; links rewritten so that each resolves on the site (or in the repository); GitHub's
 * heading anchors; raw HTML shown as text and the tests' marker comments dropped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findGuides, renderGuideHtml, repositoryFiles, siteLink, slug } from "../../../../scripts/docs/guides.js";

const tmp = mkdtempSync(join(tmpdir(), "docs-guides-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const context = {
  guides: new Set(["quick-start", "clients"]),
  changelogs: new Set(["pay"]),
  repositoryFiles: "https://github.com/owner/repo/blob/main/",
};

describe("guides", () => {
  it("finds every Markdown file, the known ones in reading order and any other after them by name", () => {
    const dir = join(tmp, "guides");
    mkdirSync(dir);
    for (const [name, text] of [
      ["zeta.md", "# Zeta\n\nLast, by name.\n"],
      ["alpha.md", "No heading here.\n"],
      ["installing.md", "# Installing\n\n<!-- a marker -->\nInstall [the package](x.md) with `npm`.\n\n```sh\nnpm i\n```\n"],
      ["quick-start.md", "# Quick start\n\nFrom nothing to a call.\n"],
      ["notes.txt", "not a guide"],
      ["README.md", "# The guides\n\nThe folder's index.\n"],
    ])
      writeFileSync(join(dir, name), text);
    const guides = findGuides(dir);
    expect(guides.map((g) => g.name)).toEqual(["quick-start", "installing", "alpha", "zeta"]);
    expect(guides.map((g) => g.title)).toEqual(["Quick start", "Installing", "alpha", "Zeta"]);
    expect(guides[1]).toMatchObject({ page: "guides/installing.html", summary: "Install the package with npm." });
    expect(findGuides(join(tmp, "missing"))).toEqual([]);
  });

  it("points links at the site's pages, or at the repository for what the site does not hold", () => {
    expect(siteLink("clients.md#retries", context)).toBe("clients.html#retries");
    expect(siteLink("README.md#start", context)).toBe("index.html#start");
    expect(siteLink("sandbox.md", context)).toBe("https://github.com/owner/repo/blob/main/docs/guides/sandbox.md");
    expect(siteLink("../../specs/pay/CHANGELOG.md", context)).toBe("../changelogs/pay.html");
    expect(siteLink("../../bench/RESULTS.md", context)).toBe("https://github.com/owner/repo/blob/main/bench/RESULTS.md");
    expect(siteLink("../../CONTRIBUTING.md#performance-internals", context)).toBe(
      "https://github.com/owner/repo/blob/main/CONTRIBUTING.md#performance-internals",
    );
    for (const kept of ["https://example.com/x", "#here", "mailto:a@example.com"]) expect(siteLink(kept, context)).toBe(kept);
  });

  it("renders GitHub's heading anchors, shows raw HTML as text and drops comments", () => {
    expect(slug("Pay 1.2.0, for partners still on it")).toBe("pay-120-for-partners-still-on-it");
    expect(slug("In a CI that is not Node (Python, Java, Go)")).toBe("in-a-ci-that-is-not-node-python-java-go");
    const html = renderGuideHtml(
      "# Title\n\n## Same\n\n## Same\n\n<!-- tests/e2e/x.test.ts runs this -->\n<script>alert(1)</script>\n\nSee [clients](clients.md) and [the quick start](quick-start.md#same).\n",
      context,
    );
    expect(html).toContain('<h2 id="same">Same</h2>');
    expect(html).toContain('<h2 id="same-1">Same</h2>');
    expect(html).not.toContain("tests/e2e/x.test.ts");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="clients.html">clients</a>');
    expect(html).toContain('<a href="quick-start.html#same">the quick start</a>');
  });

  it("reads the repository's address from package.json", () => {
    expect(repositoryFiles({ repository: { url: "git+https://github.com/owner/repo.git" } })).toBe(
      "https://github.com/owner/repo/blob/main/",
    );
    expect(() => repositoryFiles({})).toThrow(/not an https URL/);
  });
});
