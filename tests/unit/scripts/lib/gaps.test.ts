/**
 * The open-questions collector (scripts/lib/gaps.ts): pointers, readable places and texts on a small
 * document, and, over the registry, one entry per `x-unspecified:` line of each bundled spec.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collectApiGaps, collectGaps, collectRegistryGaps } from "../../../../scripts/lib/gaps.js";
import { pointer } from "../../../../src/document/index.js";
import type { ApiEntry } from "../../../../src/registry.js";
import { registry } from "../../../helpers/registry.js";

describe("collectGaps", () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "T", version: "1.0.0", "x-unspecified": "  Rate limits are not shown.  " },
    servers: [{ url: "https://{host}", "x-unspecified": "The real host is not given." }],
    tags: [{ name: "Invoices", "x-unspecified": "Roles are not shown." }],
    paths: {
      "/v1/a~b/{id}": {
        get: {
          operationId: "getThing",
          parameters: [{ name: "id", in: "path", schema: { type: "string", "x-unspecified": "The id format is not shown." } }],
        },
      },
    },
    webhooks: {
      paid: {
        post: {
          operationId: "notifyPaid",
          requestBody: { content: { "application/json": { schema: { "x-unspecified": ["payload", "not shown"] } } } },
        },
      },
    },
    components: { schemas: { Error: { type: "object", "x-unspecified": "The error body is not shown." } } },
  };

  it("finds every x-unspecified in document order, with an escaped JSON pointer, a readable place and the trimmed text", () => {
    expect(collectGaps(doc)).toEqual([
      { pointer: "/info", where: "info", text: "Rate limits are not shown." },
      { pointer: "/servers/0", where: "server https://{host}", text: "The real host is not given." },
      { pointer: "/tags/0", where: "tag Invoices", text: "Roles are not shown." },
      {
        pointer: "/paths/~1v1~1a~0b~1{id}/get/parameters/0/schema",
        where: "GET /v1/a~b/{id} (getThing) › parameters › 0 › schema",
        text: "The id format is not shown.",
      },
      {
        pointer: "/webhooks/paid/post/requestBody/content/application~1json/schema",
        where: "POST webhook paid (notifyPaid) › requestBody › content › application/json › schema",
        text: '["payload","not shown"]',
      },
      { pointer: "/components/schemas/Error", where: "schema Error", text: "The error body is not shown." },
    ]);
  });

  it("returns nothing for a document without gaps or for a non-object", () => {
    expect(collectGaps({ openapi: "3.1.0", paths: {} })).toEqual([]);
    expect(collectGaps(null)).toEqual([]);
    expect(collectGaps("text")).toEqual([]);
  });

  it("builds RFC 6901 pointers", () => {
    expect(pointer()).toBe("");
    expect(pointer("paths", "/a/b", "get")).toBe("/paths/~1a~1b/get");
    expect(pointer("x", "~/")).toBe("/x/~0~1");
  });
});

describe("collectRegistryGaps", () => {
  it("lists, for every registered API, one gap per `x-unspecified:` key in its bundled spec", () => {
    const all = collectRegistryGaps(registry);
    expect(all.map((g) => g.alias)).toEqual(registry.map((e) => e.alias));
    for (const [i, entry] of registry.entries()) {
      const lines = readFileSync(entry.bundlePath, "utf8").match(/^[ \t-]*x-unspecified:/gm) ?? [];
      expect(all[i].gaps.length, entry.alias).toBe(lines.length);
      for (const gap of all[i].gaps) {
        expect(gap.pointer, entry.alias).toMatch(/^(\/[^/]*)*$/);
        expect(gap.text.length, `${entry.alias} ${gap.pointer}`).toBeGreaterThan(0);
      }
    }
  });

  it("names the API and the file when a bundled spec is missing", () => {
    const entry = { ...registry[0], alias: "ghost@9.9.9", bundlePath: "/nonexistent/generated/ghost/9.9.9/openapi.yaml" } as ApiEntry;
    expect(() => collectApiGaps(entry)).toThrow(
      /ghost@9\.9\.9: cannot read the bundled spec \/nonexistent\/generated\/ghost\/9\.9\.9\/openapi\.yaml/,
    );
  });
});
