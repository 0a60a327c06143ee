/**
 * Release changelogs (specs/<service>/CHANGELOG.md, `npm run changelog`): committed and current, and
 * the Pay changelog names at least the changes the source document itself states between releases
 * 1.2.0 and 1.3.0.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildChangelogs } from "../../../scripts/changelog.js";
import { deprecatedElements, renderChangelog } from "../../../scripts/lib/changelog.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { readLock } from "../../../scripts/lib/release-lock.js";

let expected: Map<string, string>;
beforeAll(async () => {
  expected = await buildChangelogs(loadRegistry());
}, 120_000);

const section = (markdown: string, release: string) => {
  const start = markdown.indexOf(`## ${release}\n`);
  expect(start, `section ## ${release}`).toBeGreaterThanOrEqual(0);
  const next = markdown.indexOf("\n## ", start + 4);
  return markdown.slice(start, next < 0 ? undefined : next);
};
const linesOf = (text: string, heading: string) => {
  const start = text.indexOf(`### ${heading}\n`);
  if (start < 0) return [];
  const end = text.indexOf("\n### ", start + 4);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split("\n")
    .filter((l) => l.startsWith("- "));
};

describe("changelogs", () => {
  it("one per service of the registry, committed and up to date", () => {
    const services = new Set(loadRegistry().map((e) => e.service));
    expect(expected.size).toBe(services.size);
    for (const [path, content] of expected) {
      expect(readFileSync(path, "utf8"), `${relative(repoRoot, path)} is stale: run \`npm run changelog\``).toBe(content);
    }
  });

  it("renders a correction recorded in the lock under its release (a fixture lock with one correction)", () => {
    const [entry] = loadRegistry().filter((e) => e.alias === "balance@1.0.0");
    const lock = {
      releases: {
        "balance@1.0.0": {
          hash: "sha256:x",
          parts: {},
          corrections: [
            {
              date: "2026-11-23",
              reason: "Status meanings removed: the source does not state them",
              from: "sha256:0123456789abcdef0123",
              to: "sha256:fedcba9876543210fedc",
            },
          ],
        },
      },
    };
    const markdown = renderChangelog("balance", [entry], [], lock, new Map([[entry.alias, { paths: {} }]]));
    expect(section(markdown, "1.0.0")).toContain(
      "### Corrections to this release\n\n- 2026-11-23: Status meanings removed: the source does not state them (contract 0123456789ab → fedcba987654)\n",
    );
    expect(renderChangelog("balance", [entry], [], { releases: {} }, new Map([[entry.alias, { paths: {} }]]))).not.toContain("Corrections");
  });

  it("every correction in releases.lock.yaml is listed under its release", () => {
    for (const entry of loadRegistry()) {
      const content = [...expected].find(([path]) => path.includes(`/specs/${entry.service}/`))![1];
      for (const c of readLock().releases[entry.alias]?.corrections ?? []) {
        expect(section(content, entry.release)).toContain(`- ${c.date}: ${c.reason}`);
      }
    }
  });
});

describe("Pay 1.2.0 -> 1.3.0 names what the source states", () => {
  let release: string;
  let breaking: string[];
  beforeAll(() => {
    const pay = [...expected].find(([path]) => path.endsWith("/specs/pay/CHANGELOG.md"));
    expect(pay, "specs/pay/CHANGELOG.md").toBeDefined();
    release = section(pay![1], "1.3.0");
    breaking = linesOf(release, "Breaking changes");
  });

  it.each(["start", "end", "urls[].created", "urls[].paid_date", "expiry"])(
    "timestamp %s: string to {seconds, nanos}, breaking",
    (field) => {
      const line = breaking.find((l) => l.includes(`field \`${field}\`: type string (date-time) → object {seconds, nanos}`));
      expect(line, `breaking line for ${field}`).toBeDefined();
      expect(line).toContain("**Breaking**");
    },
  );

  it("the operations 1.3.0 adds: templates, status update, problem reports, platform merchants, sub-merchants, deletion of destination accounts", () => {
    const added = linesOf(release, "Added operations").join("\n");
    for (const id of [
      "createTemplate",
      "listTemplates",
      "updateTemplate",
      "updateInvoiceStatus",
      "reportInvoice",
      "listSignupRequests",
      "approveSignupRequest",
      "denySignupRequest",
      "listSubMerchants",
      "unlinkSubMerchant",
      "createSubMerchantSignup",
      "deleteDepositAccount",
    ]) {
      expect(added).toContain(`(\`${id}\`): new operation. Not breaking`);
    }
    expect(release).toContain("- `invoicePaid` added. Not breaking");
  });

  it("the new payment method: payment_method on invoice creation", () => {
    expect(linesOf(release, "Other changes").join("\n")).toContain("(`createInvoice`): request field `payment_method` added. Not breaking");
  });

  it("the Flagged status", () => {
    expect(breaking.join("\n")).toMatch(/field `urls\[\]\.status`: values added: [^.]*`Flagged`/);
  });

  it("the fields 1.3.0 deprecates: active_url_count, accounts, summary, short_code and message", () => {
    const deprecated = linesOf(release, "Deprecated").join("\n");
    for (const field of ["active_url_count", "summary", "message"])
      expect(deprecated).toMatch(new RegExp(`field \`${field}\`: deprecated`));
    expect(deprecated).toContain("field `short_code` added, already deprecated");
    const inventory = linesOf(release, "Deprecated in 1.3.0 (still served)").join("\n");
    for (const field of ["active_url_count", "accounts", "summary", "short_code", "message"]) expect(inventory).toContain(`.${field}\``);
  });

  it("every listed change carries a verdict and a reason", () => {
    for (const line of release.split("\n").filter((l) => l.startsWith("- `") && l.includes("): "))) {
      expect(line).toMatch(/(\*\*Breaking\*\*|Not breaking): \S/);
    }
  });
});

describe("deprecatedElements", () => {
  it("names deprecated properties, parameters and operations readably", () => {
    const doc = {
      paths: { "/v1/x": { get: { deprecated: true, parameters: [{ name: "q", deprecated: true }] } } },
      components: {
        schemas: { A: { properties: { old: { deprecated: true }, list: { items: { properties: { gone: { deprecated: true } } } } } } },
      },
    };
    expect(deprecatedElements(doc)).toEqual(["GET /v1/x", "GET /v1/x.parameter", "schemas.A.old", "schemas.A.list[].gone"]);
  });
});
