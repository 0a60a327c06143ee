/**
 * The definitions src/sandbox/engine/answer.ts makes when it loads, the module loaded as a new
 * instance by each test (tests/helpers/fresh-module.ts) and its exports called: the members of an
 * error schema that carry a refusal's reason, in the order src/sandbox/README.md gives them (`detail`,
 * `message`, `error_message`, `reason`, `description`, `error`, `title`); the 507 of a sandbox bound
 * (docs/guides/sandbox.md: `application/problem+json`, the reason in `detail`); and the titles of the
 * sandbox's own 503 and 429, as the control API's document (src/sandbox/openapi.yaml, responses
 * StoreUnavailable and TooManyRequests) shows them, by which validateAnswer tells them from a status
 * forced through the control API (docs/guides/hosting.md: a rate's 429 is reported
 * `sandbox-rate-limit`). On a tiny hand-written document.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Doc, findOperation, loadDocument, type Operation } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type * as AnswerModule from "../../../../src/sandbox/engine/answer.js";
import { Refusal } from "../../../../src/sandbox/engine/apply.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { LimitError } from "../../../../src/sandbox/store/limits.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";
import { freshModule } from "../../../helpers/fresh-module.js";

/** The members that carry a refusal's reason, in src/sandbox/README.md's order of preference. */
const REASON_MEMBERS = ["detail", "message", "error_message", "reason", "description", "error", "title"];

const string = { type: "string" };
/** An operation answering 200, and 400 with an error schema of `code` and `members` (strings). */
const operation = (id: string, members: string[]) => ({
  post: {
    operationId: id,
    responses: {
      "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
      "400": {
        description: "bad",
        content: {
          "application/json": {
            schema: { type: "object", properties: { code: string, ...Object.fromEntries(members.map((name) => [name, string])) } },
            example: { code: "E1" },
          },
        },
      },
    },
  },
});

// One operation per reason member: its 400 schema has that member and every later one, written in
// the reverse order of preference, so the reason goes into that member only while it is preferred.
const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Answer definitions (test)", version: "1.0.0" },
  paths: Object.fromEntries(
    REASON_MEMBERS.map((name, i) => [`/v1/${name}`, operation(`from_${name}`, REASON_MEMBERS.slice(i).toReversed())]),
  ),
};
const op = (id: string): Operation => findOperation(doc, id)!;

/** The example of a response of the control API's document (src/sandbox/openapi.yaml). */
const control = loadDocument(join(repoRoot, "src/sandbox/openapi.yaml"));
const exampleOf = (response: string) =>
  Object.values<{ value: { title: string } }>(control.components.responses[response].content["application/problem+json"].examples)[0].value;

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
let engine: EngineContext;
beforeAll(() => {
  // The fixture's entry names no declaration for this document; "inline": its validators are made from `doc`.
  engine = createEngine({ ...fixture, alias: "answer-definitions@1.0.0" }, doc, {}, "inline");
});
afterAll(() => engine?.close());

const answerModule = () => freshModule<typeof AnswerModule>("src/sandbox/engine/answer.ts");

describe("a refusal's reason", () => {
  it("goes into the first member of the error schema in the README's order, whatever the schema's order", async () => {
    const { refusalAnswer } = await answerModule();
    const bodies = REASON_MEMBERS.map((name) => refusalAnswer(engine, op(`from_${name}`), new Refusal(400, "Refused.")).body);
    expect(bodies).toHaveLength(7);
    expect(bodies).toEqual(REASON_MEMBERS.map((name) => ({ code: "E1", [name]: "Refused." })));
  });
});

describe("the sandbox's own answers", () => {
  it("a bound reached: 507 application/problem+json, the reason in `detail`", async () => {
    const { limitAnswer } = await answerModule();
    const answer = limitAnswer(new LimitError("the sandbox keeps at most 1000 records"));
    expect(answer.status).toBe(507);
    expect(answer.headers).toEqual({ "Content-Type": "application/problem+json" });
    expect(answer.body).toMatchObject({ status: 507, detail: "the sandbox keeps at most 1000 records" });
  });

  it("a store that cannot keep a request's changes: 503 with the document's title and Retry-After", async () => {
    const { storeAnswer } = await answerModule();
    const answer = storeAnswer(new StoreUnavailable("the sandbox is stopping: its store is closed"));
    expect(answer.status).toBe(503);
    expect(answer.headers?.["Retry-After"]).toBe("1");
    expect(answer.body).toEqual(exampleOf("StoreUnavailable"));
  });

  it("a partner's rate reached: 429 with the document's title and Retry-After, reported as the sandbox's", async () => {
    const { rateLimitAnswer, RATE_LIMIT_TITLE, validateAnswer } = await answerModule();
    const documented = exampleOf("TooManyRequests");
    expect(RATE_LIMIT_TITLE).toBe(documented.title);
    const answer = rateLimitAnswer("this partner's request rate is 10 per second with 50 more within 10 s: retry after 1 s", 1);
    expect(answer.status).toBe(429);
    expect(answer.headers?.["Retry-After"]).toBe("1");
    expect(answer.body).toEqual(documented);
    // A 429 the operation does not declare, told by its title: the sandbox's own, code sandbox-rate-limit.
    const written = { status: 429, headers: { "Content-Type": "application/problem+json" }, body: { ...documented } };
    expect(validateAnswer(engine, "from_detail", written).map((v) => v.code)).toEqual(["sandbox-rate-limit"]);
  });
});
