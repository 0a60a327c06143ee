/**
 * The gap report (`npm run report:gaps`): counts every x-unspecified per API, and the README's status
 * table carries the same counts, so a count only changes with a README change someone reviews.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { currentStatus, README, readmeWithStatus } from "../../../scripts/report-gaps.js";

describe("report:gaps", () => {
  it("the README status table is current (run `npm run report:gaps -- --write-readme` after a spec change)", () => {
    const readme = readFileSync(README, "utf8");
    expect(readmeWithStatus(readme, currentStatus().table)).toBe(readme);
  });

  it("writes one row per API with its auth, operation, webhook and gap counts, and the total (a fixture registry, counted by hand)", () => {
    // tests/fixtures/mock: shop has 6 operations, 1 webhook and one x-unspecified (a 400's error body),
    // bearer auth; vault has 1 operation, no webhook, no gap, an x-api-key header.
    const { table } = currentStatus(loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml")));
    const rows = table.split("\n").filter((line) => line.startsWith("| `") || line.startsWith("| **"));
    expect(rows).toEqual([
      "| `shop@1.0.0` | [`generated/shop/1.0.0/openapi.yaml`](generated/shop/1.0.0/openapi.yaml) | `Authorization: Bearer` | 6 | 1 | 1 | http://127.0.0.1:4010 |",
      "| `vault@1.0.0` | [`generated/vault/1.0.0/openapi.yaml`](generated/vault/1.0.0/openapi.yaml) | `x-api-key` header | 1 | 0 | 0 | http://127.0.0.1:4011 |",
      "| **total** | | | | | **1** | |",
    ]);
  });
});
