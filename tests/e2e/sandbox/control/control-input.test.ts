/**
 * What the control API takes (src/sandbox/control/document.ts), against its document
 * (src/sandbox/openapi.yaml) and src/sandbox/README.md ("Bounds": control bodies of 64 KiB): a
 * body of the bound is read and one byte more is 413 Content Too Large; a JSON body is
 * `application/json` (any case, parameters after `;`, spaces around it) or a `+json` type, and
 * nothing else; a query whose parameters break their schemas is 400 naming every one, the first as
 * the field; the document served is the file's text.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTROL_DOCUMENT, checkQuery, parseBody } from "../../../../src/sandbox/control/document.js";
import { ControlError } from "../../../../src/sandbox/control/errors.js";
import { freshModule } from "../../../helpers/fresh-module.js";

/**
 * A new instance of document.ts: its text and its validator are kept once made, so a test of how
 * they are made takes an instance that has made neither yet.
 */
const freshDocument = () => freshModule<typeof import("../../../../src/sandbox/control/document.js")>("src/sandbox/control/document.ts");

/** The README's bound of a control body. */
const BODY_BYTES = 64 * 1024;

/** The ControlError `work` throws (fails when it throws none, or something else). */
function refusal(work: () => unknown): ControlError {
  try {
    work();
  } catch (error) {
    if (error instanceof ControlError) return error;
    throw error;
  }
  throw new Error("no ControlError thrown");
}

/** advanceClock's body `{"seconds":1}`, padded with spaces after it (still JSON) to `bytes`. */
const padded = (bytes: number) => Buffer.from(`{"seconds":1}`.padEnd(bytes, " "));

describe("a control body's size", () => {
  it("is read up to the bound; one byte more is 413 Content Too Large, naming the bound", () => {
    expect(parseBody("application/json", padded(BODY_BYTES), "advanceClock")).toEqual({ seconds: 1 });
    const tooLarge = refusal(() => parseBody("application/json", padded(BODY_BYTES + 1), "advanceClock"));
    expect([tooLarge.status, tooLarge.title, tooLarge.message]).toEqual([413, "Content Too Large", `the body exceeds ${BODY_BYTES} bytes`]);
  });
});

describe("a control body's media type", () => {
  const body = Buffer.from(`{"seconds":1}`);

  it.each([
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    "application/json ; charset=utf-8",
    "  application/json",
    "application/merge-patch+json",
  ])("%j is JSON", (contentType) => {
    expect(parseBody(contentType, body, "advanceClock")).toEqual({ seconds: 1 });
  });

  it("is read as JSON when the request names none", () => {
    expect(parseBody(undefined, body, "advanceClock")).toEqual({ seconds: 1 });
  });

  it.each(["text/plain", "application/vnd.partner+jsonx", "xapplication/vnd.partner+json", "application/x-www-form-urlencoded"])(
    "%j is 415, naming it",
    (contentType) => {
      const refused = refusal(() => parseBody(contentType, body, "advanceClock"));
      expect([refused.status, refused.message]).toEqual([415, `the control API takes application/json bodies, got ${contentType}`]);
    },
  );
});

describe("a control call's query", () => {
  it("is 400 naming every parameter that breaks its schema, the first as the field", () => {
    const url = new URL(`http://127.0.0.1/_sandbox/events?resource=${"r".repeat(101)}&resource_id=${"i".repeat(201)}`);
    const refused = refusal(() => checkQuery("listEvents", url));
    expect([refused.status, refused.field, refused.message]).toEqual([
      400,
      "resource",
      "resource: must NOT have more than 100 characters; resource_id: must NOT have more than 200 characters",
    ]);
  });

  it("of an operation the document does not have is a failure naming the control API", () => {
    expect(() => checkQuery("noSuchOperation", new URL("http://127.0.0.1/_sandbox"))).toThrow(
      /^sandbox control API: unknown operationId "noSuchOperation"/,
    );
  });
});

describe("the control document served", () => {
  it("is the file's text", async () => {
    const { controlDocumentText } = await freshDocument();
    expect(controlDocumentText()).toBe(readFileSync(CONTROL_DOCUMENT, "utf8"));
  });
});
