/**
 * The answers the sandbox builds from what an operation declares (src/sandbox/engine/answer.ts), on
 * a tiny hand-written document, as src/sandbox/README.md describes them: a status's answer is its
 * first example (else no body; an undeclared status a problem+json body); a body is shaped to the
 * status's JSON schema; a refusal puts its `detail` in the member the error schema has for a reason
 * (`detail`, `message`, `error_message`, `reason`, `description`, `error`, `title`, in that order,
 * a member that admits a string), keeping the example's other members, and where the schema has no
 * such member, or the status no body, answers the example (or nothing) and keeps the reason beside.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Doc, findOperation, type Operation } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { declaredAnswer, refusalAnswer, shapeAnswer } from "../../../../src/sandbox/engine/answer.js";
import { Refusal } from "../../../../src/sandbox/engine/apply.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";

/** The members that carry a refusal's reason, in the README's order of preference. */
const REASON_MEMBERS = ["detail", "message", "error_message", "reason", "description", "error", "title"];

const string = { type: "string" };
const json = (schema: unknown, extra: Record<string, unknown> = {}) => ({ "application/json": { schema, ...extra } });
/** An error schema with a `code` and the given members. */
const errorSchema = (members: Record<string, unknown>) => ({ type: "object", properties: { code: string, ...members } });
/** An operation `id` answering 200 with a Thing and `responses` besides. */
const operation = (id: string, responses: Record<string, unknown>) => ({
  post: {
    operationId: id,
    responses: { "200": { description: "ok", content: json({ $ref: "#/components/schemas/Thing" }) }, ...responses },
  },
});

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Refusals (test)", version: "1.0.0" },
  paths: {
    // One operation per reason member: its 400 schema has that member alone (and a code).
    ...Object.fromEntries(
      REASON_MEMBERS.map((name) => [
        `/v1/${name}`,
        operation(`by_${name}`, {
          "400": { description: "bad", content: json(errorSchema({ [name]: string }), { example: { code: "E1" } }) },
        }),
      ]),
    ),
    // Every member, written in the reverse order of preference.
    "/v1/all": operation("all", {
      "400": { description: "bad", content: json(errorSchema(Object.fromEntries(REASON_MEMBERS.toReversed().map((n) => [n, string])))) },
    }),
    "/v1/statuses": operation("statuses", {
      // A text body first, then JSON with examples: the JSON one is the answer, its first example.
      "202": {
        description: "accepted",
        content: {
          "text/plain": { schema: string },
          "application/json": { schema: { type: "object" }, examples: { first: { value: { step: 1 } }, second: { value: { step: 2 } } } },
        },
      },
      // A body without an example, and a status without a body.
      "203": { description: "no example", content: json({ type: "object" }) },
      "204": { description: "no body" },
      // A schema-less JSON body.
      "206": { description: "anything", content: { "application/json": {} } },
      // The reason member in a JSON error schema after a text one that has none.
      "400": {
        description: "bad",
        content: {
          "text/plain": { schema: errorSchema({ note: string }) },
          "application/json": { schema: errorSchema({ detail: string }), example: { code: "E1", detail: "an example's reason" } },
        },
      },
      // An error schema with no member for a reason: the example, and the reason beside it.
      "409": { description: "conflict", content: json(errorSchema({ state: string }), { example: { code: "C1", state: "locked" } }) },
      // A reason member that takes no string, or anything, comes after the next that takes a string.
      "422": {
        description: "invalid",
        content: json(
          errorSchema({
            detail: { type: "integer" },
            message: { description: "free text, no type" },
            reason: { $ref: "#/components/schemas/Reason" },
          }),
        ),
      },
      // A JSON error body without a schema: no member to put a reason in.
      "423": { description: "locked", content: { "application/json": { example: { code: "L1" } } } },
      "429": { description: "no body" },
    }),
    // A reason member whose schema is a remote reference (a document that is not bundled).
    "/v1/remote": operation("remote", {
      "400": { description: "bad", content: json(errorSchema({ detail: { $ref: "https://schemas.example.com/reason.json" } })) },
    }),
  },
  components: {
    schemas: {
      Thing: { type: "object", properties: { id: string, at: { type: "string", format: "date-time" } } },
      Reason: { type: "string" },
    },
  },
};

const [tiny] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
// The fixture's entry names no declaration for this document; "inline": its validators are made from `doc`.
const engine = createEngine({ ...tiny, alias: "refusals@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());
const op = (id: string): Operation => findOperation(doc, id)!;
const statuses = op("statuses");

describe("a status's answer as the operation declares it", () => {
  it("is the first example of the media type that has one, with its Content-Type", () => {
    expect(declaredAnswer(engine, statuses, 202)).toEqual({
      status: 202,
      headers: { "Content-Type": "application/json" },
      body: { step: 1 },
    });
  });

  it("has no body where the status declares no example or no content", () => {
    expect(declaredAnswer(engine, statuses, 203)).toEqual({ status: 203 });
    expect(declaredAnswer(engine, statuses, 204)).toEqual({ status: 204 });
  });

  it("is a problem+json body on a status the operation does not declare, when there is a detail", () => {
    expect(declaredAnswer(engine, statuses, 418)).toEqual({ status: 418 });
    expect(declaredAnswer(engine, statuses, 418, "no teapot here")).toEqual({
      status: 418,
      headers: { "Content-Type": "application/problem+json" },
      body: { type: "about:blank", title: "I'm a Teapot", status: 418, detail: "no teapot here" },
    });
  });
});

describe("a body shaped to the status's schema", () => {
  it("keeps only the members the schema declares", () => {
    expect(shapeAnswer(engine, op("all"), 200, { id: "t_1", secret: "kept out" })).toEqual({ id: "t_1" });
  });

  it("is the body as it is under a JSON media type without a schema", () => {
    expect(shapeAnswer(engine, statuses, 206, { any: ["thing"] })).toEqual({ any: ["thing"] });
  });

  it("is nothing where the status declares no body, or is not declared", () => {
    expect(shapeAnswer(engine, statuses, 204, { id: "t_1" })).toBeUndefined();
    expect(shapeAnswer(engine, statuses, 418, { id: "t_1" })).toBeUndefined();
  });
});

describe("a refusal's answer", () => {
  const refused = (id: string, status: number, detail?: string) =>
    refusalAnswer(engine, op(id), new Refusal(status, detail, "Pay Service Interface, line 1"));

  it.each(REASON_MEMBERS)("puts the reason in %s where the error schema has that member, beside the example's members", (name) => {
    expect(refused(`by_${name}`, 400, "In sandbox only m-1 is valid.")).toEqual({
      status: 400,
      headers: { "Content-Type": "application/json" },
      body: { code: "E1", [name]: "In sandbox only m-1 is valid." },
    });
  });

  it("prefers the members in the README's order, whatever the schema's order", () => {
    expect(refused("all", 400, "Refused.")).toEqual({
      status: 400,
      headers: { "Content-Type": "application/json" },
      body: { detail: "Refused." },
    });
  });

  it("takes the JSON error schema, the example's reason replaced", () => {
    expect(refused("statuses", 400, "Refused.")).toEqual({
      status: 400,
      headers: { "Content-Type": "application/json" },
      body: { code: "E1", detail: "Refused." },
    });
  });

  it("skips a member that admits no string, or any type, for the next that takes a string (through $ref)", () => {
    expect(refused("statuses", 422, "Refused.")).toEqual({
      status: 422,
      headers: { "Content-Type": "application/json" },
      body: { reason: "Refused." },
    });
  });

  it("answers the example and keeps the reason beside it where the schema has no member for it", () => {
    const reason = { detail: "Refused.", source: "Pay Service Interface, line 1", convention: "the sandbox's own status" };
    expect(refusalAnswer(engine, statuses, new Refusal(409, reason.detail, reason.source, reason.convention))).toEqual({
      status: 409,
      headers: { "Content-Type": "application/json" },
      body: { code: "C1", state: "locked" },
      reason,
    });
    expect(refused("statuses", 423, "Refused.")).toEqual({
      status: 423,
      headers: { "Content-Type": "application/json" },
      body: { code: "L1" },
      reason: { detail: "Refused.", source: "Pay Service Interface, line 1" },
    });
  });

  it("has no body, the reason beside, where the status declares none", () => {
    expect(refused("statuses", 429, "Slow down.")).toEqual({
      status: 429,
      reason: { detail: "Slow down.", source: "Pay Service Interface, line 1" },
    });
  });

  it("is the declared answer, nothing beside, without a detail", () => {
    expect(refused("statuses", 409)).toEqual({
      status: 409,
      headers: { "Content-Type": "application/json" },
      body: { code: "C1", state: "locked" },
    });
    expect(refused("statuses", 429)).toEqual({ status: 429 });
  });

  it("is a problem+json body with the reason on a status the operation does not declare", () => {
    expect(refused("statuses", 402, "Pay first.")).toEqual({
      status: 402,
      headers: { "Content-Type": "application/problem+json" },
      body: { type: "about:blank", title: "Payment Required", status: 402, detail: "Pay first." },
    });
  });

  it("names the member whose schema cannot be read", () => {
    expect(() => refused("remote", 400, "Refused.")).toThrow(
      /^\/paths\/~1v1~1remote\/post\/responses\/400\/content\/application~1json\/schema\/properties\/detail: only local \$refs/,
    );
  });
});
