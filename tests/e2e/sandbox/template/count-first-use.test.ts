/**
 * `$count` (src/sandbox/template/index.ts: "`$count`", the number of records) in a template
 * evaluated for the first time. A template is compiled on its first use and kept per string
 * (src/sandbox/template/compile.ts), so a template another test or a declaration used already
 * reads a compiled form made before; these are new to the process each time the file runs (a
 * declaration loaded later brings its own templates): alone, with a path, and in text.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { evaluate, type TemplateContext } from "../../../../src/sandbox/template/index.js";

/** A text no template of this process has used before. */
const fresh = (text: string) => `${text} (${randomUUID()})`;

const three: TemplateContext = { records: [{ id: "a" }, { id: "b" }, { id: "c" }] };

describe("$count first used", () => {
  it("in text is the number of records, 0 for none, and nothing without records", () => {
    const template = fresh("{$count} record(s)");
    expect(evaluate(template, three)).toBe(template.replace("{$count}", "3"));
    expect(evaluate(fresh("{$count} record(s)"), { records: [] })).toMatch(/^0 record\(s\) /);
    expect(evaluate(fresh("{$count} record(s)"), {})).toMatch(/^ record\(s\) /);
  });

  it("in a member's text of an object template is the number of records", () => {
    expect(evaluate({ total: "$count", label: fresh("{$count} listed") }, three)).toEqual({
      total: 3,
      label: expect.stringMatching(/^3 listed \(/),
    });
  });

  it("in text after other references reads its own root", () => {
    const template = fresh("{$id}: {$count} of {$status}");
    expect(evaluate(template, { ...three, id: "list_1", status: "open" })).toMatch(/^list_1: 3 of open /);
  });
});
