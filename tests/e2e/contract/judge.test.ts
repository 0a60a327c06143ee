/**
 * The tests' judge (tests/helpers/ajv.ts) is independent of the product's validator
 * (src/validation/spec.ts): this checks that it rejects what the formats forbid, refuses a format it
 * does not know, and that on every schema-bearing example of every spec the two give the same verdict
 * (a disagreement is named here instead of hiding in a green test).
 */
import { describe, expect, it } from "vitest";
import { operations, parameterContent, requestContents, responseContents } from "../../../src/document/index.js";
import { specValidator as productValidator } from "../../../src/validation/spec.js";
import { specValidator as judge } from "../../helpers/ajv.js";
import { bundled } from "../../helpers/registry.js";

const formats = {
  components: {
    schemas: {
      int32: { type: "integer", format: "int32" },
      int64: { type: "integer", format: "int64" },
      byte: { type: "string", format: "byte" },
      date: { type: "string", format: "date" },
      dateTime: { type: "string", format: "date-time" },
      float: { type: "number", format: "float" },
      unknown: { type: "string", format: "no-such-format" },
    },
  },
};

describe("the judge", () => {
  const { validate } = judge(formats);
  const valid = (name: string, value: unknown) => validate(`/components/schemas/${name}`, value).valid;

  it.each([
    ["int32", 2 ** 31 - 1, true],
    ["int32", 2 ** 31, false],
    ["int32", -(2 ** 31), true],
    ["int32", 1.5, false],
    ["int64", 2 ** 53, true],
    ["int64", 2 ** 63, false],
    ["int64", 1e19, false],
    ["int64", -(2 ** 63), true],
    ["byte", "aGVsbG8=", true],
    ["byte", "not base64!", false],
    ["date", "2024-02-29", true],
    ["date", "2024-02-30", false],
    ["dateTime", "2024-01-01T10:00:00Z", true],
    ["dateTime", "2024-01-01 10:00", false],
    ["float", 1.5, true],
  ] as const)("%s %s -> %s", (name, value, expected) => {
    expect(valid(name, value)).toBe(expected);
  });

  it("refuses a format it does not know instead of passing it", () => {
    expect(() => valid("unknown", "x")).toThrow(/unknown format "no-such-format"/);
  });
});

describe("the judge and the product's validator agree on every example of every spec", () => {
  const rows = bundled.flatMap(({ entry, doc }) => {
    const ours = productValidator(doc);
    const theirs = judge(doc);
    return operations(doc, { webhooks: true }).flatMap((op) => {
      const media = [
        ...requestContents(doc, op),
        ...Object.values(op.responses).flatMap((r) => responseContents(doc, r)),
        ...op.parameters.map((p) => parameterContent(doc, p)),
      ];
      return media.flatMap((m) =>
        m.schema
          ? m.examples.map((ex) => ({
              name: `${entry.alias} ${op.operationId} ${m.mediaType} "${ex.name}"`,
              at: m.schema!.at,
              value: ex.value,
              ours,
              theirs,
            }))
          : [],
      );
    });
  });

  it("covers every API of the registry", () => {
    const apis = new Set(rows.map((r) => r.name.split(" ")[0]));
    expect([...apis].sort()).toEqual(bundled.map((b) => b.entry.alias).sort());
  });

  it("gives one verdict per example", () => {
    const disagreements = rows
      .filter((r) => r.ours.validate(r.at, r.value).valid !== r.theirs.validate(r.at, r.value).valid)
      .map((r) => `${r.name}: product ${r.ours.validate(r.at, r.value).valid ? "accepts" : "rejects"}, judge disagrees`);
    expect(disagreements).toEqual([]);
  });
});
