/**
 * The request examples a reader sends from the portal's console (each operation's named examples in
 * the bundled spec, which the console offers first) stay valid with time: where an API's sandbox
 * declaration reads a member of a create request as the record's deadline (`expiry.at:
 * $request.<member>`), every example of that request sets it at least ten years after today, so a
 * record created from the example is not expired on arrival. The members come from the declarations
 * (specs/<service>/<release>/sandbox.yaml), read here on their own; a time is a `{ seconds }` object,
 * an ISO 8601 string or a number of seconds.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findOperation, jsonRequest, loadDocument } from "../../../../src/document/index.js";
import { loadRegistry } from "../../../../src/registry.js";

interface Declaration {
  resources?: Record<string, { expiry?: { at?: unknown } }>;
  operations?: Record<string, { resource?: string; kind?: string }>;
}

/** Seconds since the epoch of a time as an example may write it; NaN when it is none. */
function seconds(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string") return Date.parse(value) / 1000;
  if (value && typeof value === "object" && "seconds" in value) return Number((value as { seconds: unknown }).seconds);
  return Number.NaN;
}

const at = (value: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), value);

/** Every (API, operation, example, member, value) where a create example sets a declared deadline. */
const deadlines = loadRegistry().flatMap((entry) => {
  const file = join(dirname(entry.rootPath), "sandbox.yaml");
  if (!existsSync(file)) return [];
  const declaration = parse(readFileSync(file, "utf8")) as Declaration;
  const doc = loadDocument(entry.bundlePath);
  return Object.entries(declaration.resources ?? {}).flatMap(([resource, { expiry }]) => {
    if (typeof expiry?.at !== "string" || !expiry.at.startsWith("$request.")) return [];
    const member = expiry.at.slice("$request.".length).split(".");
    return Object.entries(declaration.operations ?? {})
      .filter(([, op]) => op.kind === "create" && op.resource === resource)
      .flatMap(([operationId]) => {
        const op = findOperation(doc, operationId);
        const examples = op ? (jsonRequest(doc, op)?.examples ?? []) : [];
        return examples
          .map((example) => ({
            alias: entry.alias,
            operationId,
            example: example.name,
            member: member.join("."),
            value: at(example.value, member),
          }))
          .filter((found) => found.value !== undefined);
      });
  });
});

describe("the request examples the console sends", () => {
  it("find at least one example that sets a declared deadline (payment initiation's checkout expiry)", () => {
    expect(deadlines.map((d) => `${d.alias} ${d.operationId} ${d.example} ${d.member}`)).toContain(
      "payment-initiation@1.0.0 createCheckout withBank expiry_date_time",
    );
  });

  it("set every declared deadline at least ten years after today", () => {
    const tenYears = Date.now() / 1000 + 10 * 365 * 24 * 3600;
    for (const d of deadlines) {
      const when = seconds(d.value);
      expect(Number.isFinite(when), `${d.alias} ${d.operationId} ${d.example}: ${d.member} is a time`).toBe(true);
      expect(when, `${d.alias} ${d.operationId} ${d.example}: ${d.member} = ${JSON.stringify(d.value)}`).toBeGreaterThan(tenYears);
    }
  });
});
