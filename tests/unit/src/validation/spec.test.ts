/**
 * The product's schema validator (src/validation/spec.ts): `test`, the yes/no check the sandbox runs
 * on its own answers and statuses, gives the verdict `check` gives (Ajv with every finding) for every
 * response schema of every API, on its examples and on values that break them.
 */
import { describe, expect, it } from "vitest";
import { operations, responseContents } from "../../../../src/document/index.js";
import { specValidator } from "../../../../src/validation/spec.js";
import { bundled } from "../../../helpers/registry.js";

/** Values that break most schemas in a different way each, and the example with one member changed. */
function variants(example: unknown): unknown[] {
  const out: unknown[] = [example, 12345, "text", null, [], {}, [example]];
  if (example !== null && typeof example === "object" && !Array.isArray(example)) {
    for (const key of Object.keys(example)) {
      out.push({ ...example, [key]: 12345 }, { ...example, [key]: "not-a-date-or-enum" }, { ...example, [key]: undefined });
    }
  }
  return out;
}

describe("specValidator test", () => {
  for (const { entry, doc } of bundled) {
    it(`${entry.alias}: gives check's verdict on every response schema, valid and broken values`, () => {
      const validator = specValidator(doc);
      let valid = 0;
      let invalid = 0;
      for (const op of operations(doc, { webhooks: true })) {
        for (const response of Object.values(op.responses)) {
          for (const media of responseContents(doc, response)) {
            if (!media.schema) continue;
            for (const example of media.examples) {
              for (const value of variants(example.value)) {
                const verdict = validator.check(media.schema.at, value).length === 0;
                expect([op.operationId, media.schema.at, value, validator.test(media.schema.at, value)]).toEqual([
                  op.operationId,
                  media.schema.at,
                  value,
                  verdict,
                ]);
                if (verdict) valid++;
                else invalid++;
              }
            }
          }
        }
      }
      // Both verdicts were given, many times over (a registry without examples would prove nothing).
      expect(valid).toBeGreaterThan(5);
      expect(invalid).toBeGreaterThan(20);
    });
  }
});

describe("specValidator test on a schema Ajv refuses", () => {
  const doc = { openapi: "3.1.0", components: { schemas: { Bad: { type: 12 }, Good: { type: "string" } } } };

  it("throws as check does (the schema is checked against the meta-schema first), and names a missing pointer", () => {
    const validator = specValidator(doc);
    expect(() => validator.test("/components/schemas/Bad", "x")).toThrow(/schema is invalid/);
    expect(() => validator.check("/components/schemas/Bad", "x")).toThrow(/schema is invalid/);
    expect(() => validator.test("/components/schemas/Missing", "x")).toThrow("no schema at /components/schemas/Missing");
    expect([validator.test("/components/schemas/Good", "x"), validator.test("/components/schemas/Good", 1)]).toEqual([true, false]);
  });
});

describe("specValidator test's formats, each remembering its last string", () => {
  const doc = {
    openapi: "3.1.0",
    components: {
      schemas: {
        Times: {
          type: "object",
          properties: {
            a: { type: "string", format: "date-time" },
            b: { type: "string", format: "date-time" },
            d: { type: "string", format: "date" },
          },
        },
      },
    },
  };
  const at = "/components/schemas/Times";

  it("gives each string its own verdict: a repeated time checked once, a changed one checked again, in any order", () => {
    const validator = specValidator(doc);
    const good = "2026-11-26T10:00:00.000Z";
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ a: good, b: good, d: "2026-11-26" }, true],
      [{ a: good, b: "2026-02-30T10:00:00Z", d: "2026-11-26" }, false], // no 30 February
      [{ a: good, b: good, d: "2026-02-30" }, false],
      [{ a: "2026-02-30T10:00:00Z", b: good, d: "2026-11-26" }, false],
      [{ a: good, b: good, d: "2026-11-26" }, true],
      [{ a: "2026-11-26T25:00:00Z", b: "2026-11-26T25:00:00Z", d: "2026-11-26" }, false],
      [{ a: good, b: good, d: "2024-02-29" }, true], // a leap day
    ];
    for (const [value, verdict] of cases) {
      expect([value, validator.test(at, value)]).toEqual([value, verdict]);
      expect([value, validator.check(at, value).length === 0]).toEqual([value, verdict]);
    }
  });
});
