/**
 * GET /_sandbox's description (src/sandbox/control/describe.ts) of a tiny hand-written document and
 * declaration, as the wire carries it (JSON: a member without a value is absent), member by member
 * against the control document's SandboxDescription (src/sandbox/openapi.yaml) and the declaration
 * format (src/sandbox/README.md, "A declaration"):
 *
 * - a resource: its name, source, convention, singleton, id member; its status member, initial
 *   status and the statuses its schema names (absent where the schema names none, or there is no
 *   status); its expiry rule; its lifecycle (`final`, empty where none is declared; each action's
 *   `from`, `*` kept as `*`, its source and convention where it has them); each test value with its
 *   one outcome (`action` and `after_seconds` only when it waits, `status`, or `refuse`) and the
 *   member as a partner writes it (`things[].note` for an item of a create with `each`); each
 *   callback, `registrable` only when its URL is the one registered through the control API;
 * - an operation: its method upper case, its path, what the sandbox does (`static` where the
 *   declaration says nothing), its resource and source; its error statuses (400-599): each exact
 *   status it declares, and for a range (`4XX`) or `default` the common statuses a partner can
 *   expect (the table below); its convention; its refusals in the order the engine tries them (its
 *   `refuse` rules, its refusing test values, an update's `status.from`), each with its source, else
 *   the operation's; its item errors; neither list where it has none;
 * - the bounds, by their snake_case names, without the operator's settings; the operator's settings
 *   only when asked for.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe as group, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { describe, errorStatuses } from "../../../../src/sandbox/control/describe.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";

/** The statuses a range or `default` stands for in `error_statuses`: the ones a partner commonly meets. */
const COMMON_4XX = [400, 401, 403, 404, 409, 422, 429];
const COMMON_5XX = [500, 502, 503];

const string = { type: "string" };
const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = (schema: object = { $ref: "#/components/schemas/Thing" }) => ({ description: "ok", content: json(schema) });
const problem = (description: string) => ({ description, content: json({ type: "object", properties: { detail: string } }) });

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Describe rules (test)", version: "1.0.0" },
  paths: {
    "/v1/things": {
      post: {
        operationId: "createThing",
        requestBody: { content: json({ type: "object", properties: { note: string, code: string } }) },
        // Exact statuses only, one of them (418) none of the common ones, and the last one of the range (599).
        responses: { "200": ok(), "400": problem("bad"), "418": problem("teapot"), "599": problem("last") },
      },
      get: {
        operationId: "listThings",
        // A range: its common statuses, beside an exact one it holds (418) and an exact 5xx (504).
        responses: {
          "200": ok({ type: "array", items: { $ref: "#/components/schemas/Thing" } }),
          "4XX": problem("client"),
          "418": problem("teapot"),
          "504": problem("gateway"),
        },
      },
    },
    "/v1/things/{thing_id}": {
      put: {
        operationId: "updateThing",
        parameters: [{ name: "thing_id", in: "path", required: true, schema: string }],
        requestBody: { content: json({ type: "object", properties: { status: string } }) },
        // `default`: every common status, 4xx and 5xx.
        responses: { "200": ok(), default: problem("any error") },
      },
      patch: {
        operationId: "holdThing",
        parameters: [{ name: "thing_id", in: "path", required: true, schema: string }],
        requestBody: { content: json({ type: "object", properties: { status: string } }) },
        // A lower-case range is a range too.
        responses: { "200": ok(), "5xx": problem("server") },
      },
    },
    "/v1/thing-batches": {
      post: {
        operationId: "createThings",
        requestBody: {
          content: json({
            type: "object",
            properties: { things: { type: "array", items: { type: "object", properties: { note: string } } } },
          }),
        },
        responses: { "200": ok({ type: "object" }) },
      },
    },
    "/v1/memos/{memo_id}": {
      get: {
        operationId: "getMemo",
        parameters: [{ name: "memo_id", in: "path", required: true, schema: string }],
        responses: { "200": ok({ $ref: "#/components/schemas/Memo" }) },
      },
    },
    "/v1/loose": {
      post: {
        operationId: "createLoose",
        responses: { "201": ok({ $ref: "#/components/schemas/Loose" }) },
      },
    },
    "/v1/ping": {
      // Not declared: Prism's answer.
      head: { operationId: "ping", responses: { "204": { description: "up" } } },
    },
  },
  webhooks: {
    thingDone: {
      post: {
        operationId: "thingDone",
        requestBody: { content: json({ type: "object" }) },
        responses: { "204": { description: "received" } },
      },
    },
    thingAny: {
      post: {
        operationId: "thingAny",
        requestBody: { content: json({ type: "object" }) },
        responses: { "204": { description: "received" } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        properties: { thing_id: string, status: { type: "string", enum: ["NEW", "HELD", "DONE", "VOID"] }, note: string, hook: string },
      },
      Memo: { type: "object", properties: { memo_id: string, text: string } },
      // A status that takes any string: no `statuses`.
      Loose: { type: "object", properties: { loose_id: string, state: string } },
    },
  },
};

const SOURCE = (line: number) => `Pay Service Interface, line ${line}`;

const declaration = {
  sandbox: 1,
  resources: {
    thing: {
      source: SOURCE(1),
      convention: "Things are the test's.",
      schema: "#/components/schemas/Thing",
      id: { field: "thing_id", prefix: "thg_" },
      status: {
        field: "status",
        initial: "NEW",
        final: ["DONE", "VOID"],
        source: SOURCE(2),
        moves: {
          finish: { from: ["NEW", "HELD"], to: "DONE", source: SOURCE(3), convention: "Finishing is the test's." },
          hold: { from: ["NEW"], to: "HELD", source: SOURCE(4) },
          cancel: { from: "*", to: "VOID", convention: "Any open thing can be voided." },
        },
      },
      expiry: { hours: 2, to: "VOID", from: ["NEW", "HELD"], source: SOURCE(5) },
      testValues: [
        {
          name: "done_later",
          operation: "createThing",
          member: "$request.note",
          value: "done_later",
          move: "finish",
          after: 5,
          description: "finished 5 s later",
          convention: "the test's",
        },
        {
          name: "held_now",
          operation: "createThing",
          member: "$request.note",
          value: "held_now",
          move: "hold",
          description: "held at once",
          convention: "the test's",
        },
        {
          name: "void_made",
          operation: "createThing",
          member: "$request.note",
          value: "void_made",
          status: "VOID",
          description: "made void",
          convention: "the test's",
        },
        {
          name: "teapot",
          operation: "createThing",
          member: "$request.code",
          value: "teapot",
          refuse: 418,
          detail: "A teapot.",
          source: SOURCE(6),
          description: "refused 418",
          convention: "the test's",
        },
        {
          name: "plain_refusal",
          operation: "createThing",
          member: "$request.code",
          value: "nope",
          refuse: 400,
          detail: "Nope.",
          description: "refused 400",
          convention: "Nope is the test's.",
        },
        {
          name: "batch_held",
          operation: "createThings",
          member: "$item.note",
          value: "held_now",
          move: "hold",
          description: "an item held",
          convention: "the test's",
        },
      ],
      callbacks: [
        { webhook: "thingDone", when: ["DONE"], url: "$callbackUrl", payload: "$view", source: SOURCE(7), convention: "Registered." },
        { webhook: "thingAny", when: "*", url: "$record.hook", payload: "$view", source: SOURCE(8) },
      ],
    },
    memo: { source: SOURCE(10), schema: "#/components/schemas/Memo", id: { field: "memo_id", prefix: "memo_" } },
    loose: {
      source: SOURCE(11),
      schema: "#/components/schemas/Loose",
      id: { field: "loose_id", prefix: "l_" },
      // A lifecycle without final statuses.
      status: { field: "state", initial: "open", source: SOURCE(12), moves: { close: { from: "*", to: "closed", source: SOURCE(13) } } },
    },
  },
  operations: {
    createThing: {
      source: SOURCE(20),
      convention: "Created as asked.",
      resource: "thing",
      kind: "create",
      record: { note: "$request.note" },
      refuse: [
        {
          when: { $eq: ["$request.code", "own"] },
          status: 400,
          detail: "Own source.",
          source: SOURCE(21),
          convention: "Own is the test's.",
        },
        { when: { $eq: ["$request.code", "none"] }, status: 599, detail: "The operation's source.", convention: "None of its own." },
      ],
    },
    listThings: { source: SOURCE(22), resource: "thing", kind: "list" },
    updateThing: {
      source: SOURCE(23),
      resource: "thing",
      kind: "update",
      id: "$params.thing_id",
      status: { value: "$request.status", from: ["HELD"], refuse: 400, source: SOURCE(24), convention: "Only a held thing." },
    },
    holdThing: {
      source: SOURCE(25),
      resource: "thing",
      kind: "update",
      id: "$params.thing_id",
      status: { value: "$request.status", from: ["NEW", "HELD"] },
    },
    createThings: {
      source: SOURCE(26),
      resource: "thing",
      kind: "create",
      each: "$request.things",
      record: { note: "$item.note" },
      reject: [
        {
          when: { $eq: ["$item.note", "dup"] },
          code: "DUPLICATE",
          detail: "A duplicate.",
          source: SOURCE(27),
          convention: "The code is the test's.",
        },
        { when: { $eq: ["$item.note", "bad"] }, code: "BAD", detail: "A bad item.", convention: "Bad is the test's." },
      ],
    },
    getMemo: { source: SOURCE(28), resource: "memo", kind: "read", id: "$params.memo_id" },
    createLoose: { source: SOURCE(29), resource: "loose", kind: "create", record: {} },
  },
};

const folder = mkdtempSync(join(repoRoot, ".tmp/describe-rules-"));
const declarationPath = join(folder, "describe.sandbox.yaml");
// JSON is YAML: the declaration's reader takes it as it is.
writeFileSync(declarationPath, JSON.stringify(declaration, null, 2));
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
// A memory budget of its own, at the default size: the process's (DEFAULT_BUDGET) also counts what
// the other files of the same worker left in their sandboxes, and its use is asserted below.
const engine = createEngine({ ...fixture, alias: "describe-rules@1.0.0" }, doc, { declarationPath, budget: new SandboxBudget() }, "inline");
afterAll(() => engine.close());

/**
 * The description as the answer's body carries it, made in the test that reads it (a mutation
 * tester sees the test that runs the code, not one that runs as the file loads).
 */
const wire = (operator?: boolean) => JSON.parse(JSON.stringify(operator === undefined ? describe(engine) : describe(engine, operator)));
const described = () => wire();
const resource = (name: string) => described().resources.find((r: { name: string }) => r.name === name);
const operation = (id: string) => described().operations.find((o: { operation_id: string }) => o.operation_id === id);

group("a resource's description", () => {
  it("has its status, statuses, expiry, lifecycle, test values and callbacks", () => {
    expect(resource("thing")).toEqual({
      name: "thing",
      source: SOURCE(1),
      convention: "Things are the test's.",
      singleton: false,
      id_field: "thing_id",
      status_field: "status",
      initial_status: "NEW",
      statuses: ["NEW", "HELD", "DONE", "VOID"],
      expiry: { to: "VOID", from: ["NEW", "HELD"], source: SOURCE(5) },
      lifecycle: {
        final: ["DONE", "VOID"],
        actions: [
          { action: "finish", from: ["NEW", "HELD"], to: "DONE", source: SOURCE(3), convention: "Finishing is the test's." },
          { action: "hold", from: ["NEW"], to: "HELD", source: SOURCE(4) },
          { action: "cancel", from: "*", to: "VOID", convention: "Any open thing can be voided." },
        ],
      },
      test_values: [
        {
          name: "done_later",
          operation_id: "createThing",
          member: "note",
          value: "done_later",
          action: "finish",
          after_seconds: 5,
          description: "finished 5 s later",
        },
        { name: "held_now", operation_id: "createThing", member: "note", value: "held_now", action: "hold", description: "held at once" },
        { name: "void_made", operation_id: "createThing", member: "note", value: "void_made", status: "VOID", description: "made void" },
        { name: "teapot", operation_id: "createThing", member: "code", value: "teapot", refuse: 418, description: "refused 418" },
        { name: "plain_refusal", operation_id: "createThing", member: "code", value: "nope", refuse: 400, description: "refused 400" },
        {
          name: "batch_held",
          operation_id: "createThings",
          member: "things[].note",
          value: "held_now",
          action: "hold",
          description: "an item held",
        },
      ],
      callbacks: [
        { webhook: "thingDone", when: ["DONE"], url: "$callbackUrl", registrable: true, source: SOURCE(7), convention: "Registered." },
        { webhook: "thingAny", when: "*", url: "$record.hook", registrable: false, source: SOURCE(8) },
      ],
    });
  });

  it("without a status, expiry, lifecycle, test values or callbacks has none of them", () => {
    expect(resource("memo")).toEqual({ name: "memo", source: SOURCE(10), singleton: false, id_field: "memo_id", callbacks: [] });
  });

  it("whose schema names no statuses lists none, and a lifecycle without final statuses has an empty `final`", () => {
    expect(resource("loose")).toEqual({
      name: "loose",
      source: SOURCE(11),
      singleton: false,
      id_field: "loose_id",
      status_field: "state",
      initial_status: "open",
      lifecycle: { final: [], actions: [{ action: "close", from: "*", to: "closed", source: SOURCE(13) }] },
      callbacks: [],
    });
  });
});

group("an operation's description", () => {
  it("lists every operation of the API, path by path and methods in OpenAPI's order, method upper case, `static` where nothing is declared", () => {
    expect(
      described().operations.map((o: Record<string, unknown>) => [o.operation_id, o.method, o.path, o.sandbox, o.resource, o.source]),
    ).toEqual([
      ["listThings", "GET", "/v1/things", "list", "thing", SOURCE(22)],
      ["createThing", "POST", "/v1/things", "create", "thing", SOURCE(20)],
      ["updateThing", "PUT", "/v1/things/{thing_id}", "update", "thing", SOURCE(23)],
      ["holdThing", "PATCH", "/v1/things/{thing_id}", "update", "thing", SOURCE(25)],
      ["createThings", "POST", "/v1/thing-batches", "create", "thing", SOURCE(26)],
      ["getMemo", "GET", "/v1/memos/{memo_id}", "read", "memo", SOURCE(28)],
      ["createLoose", "POST", "/v1/loose", "create", "loose", SOURCE(29)],
      ["ping", "HEAD", "/v1/ping", "static", undefined, undefined],
    ]);
    // An operation the declaration does not name has no resource, source or rules.
    expect(operation("ping")).toEqual({ operation_id: "ping", method: "HEAD", path: "/v1/ping", sandbox: "static", error_statuses: [] });
  });

  it("has the error statuses it declares: exact ones all, a range's or default's common ones", () => {
    expect(operation("createThing").error_statuses).toEqual([400, 418, 599]);
    expect(operation("listThings").error_statuses).toEqual([400, 401, 403, 404, 409, 418, 422, 429, 504]);
    expect(operation("updateThing").error_statuses).toEqual([...COMMON_4XX, ...COMMON_5XX]);
    expect(operation("holdThing").error_statuses).toEqual(COMMON_5XX);
    expect(operation("createThings").error_statuses).toEqual([]);
    // errorStatuses of an operation the API does not have: none.
    expect(errorStatuses(engine, "noSuchOperation")).toEqual([]);
  });

  it("lists its refusals in the order they are tried, each with its own source or the operation's", () => {
    expect(operation("createThing")).toEqual({
      operation_id: "createThing",
      method: "POST",
      path: "/v1/things",
      sandbox: "create",
      resource: "thing",
      source: SOURCE(20),
      error_statuses: [400, 418, 599],
      convention: "Created as asked.",
      refusals: [
        { status: 400, detail: "Own source.", source: SOURCE(21), convention: "Own is the test's." },
        { status: 599, detail: "The operation's source.", source: SOURCE(20), convention: "None of its own." },
        { status: 418, detail: "A teapot.", source: SOURCE(6), convention: "the test's" },
        { status: 400, detail: "Nope.", source: SOURCE(20), convention: "Nope is the test's." },
      ],
    });
  });

  it("lists an update's move refused by its status: its status (409 unless declared), the statuses it moves from, its source", () => {
    expect(operation("updateThing").refusals).toEqual([
      { status: 400, detail: "updateThing moves a thing only from HELD", source: SOURCE(24), convention: "Only a held thing." },
    ]);
    expect(operation("holdThing").refusals).toEqual([
      { status: 409, detail: "holdThing moves a thing only from NEW, HELD", source: SOURCE(25) },
    ]);
  });

  it("lists a create's item errors with their codes and sources; an operation without rules lists neither", () => {
    expect(operation("createThings")).toEqual({
      operation_id: "createThings",
      method: "POST",
      path: "/v1/thing-batches",
      sandbox: "create",
      resource: "thing",
      source: SOURCE(26),
      error_statuses: [],
      item_errors: [
        { code: "DUPLICATE", detail: "A duplicate.", source: SOURCE(27), convention: "The code is the test's." },
        { code: "BAD", detail: "A bad item.", convention: "Bad is the test's." },
      ],
    });
    expect(Object.keys(operation("getMemo")).sort()).toEqual([
      "error_statuses",
      "method",
      "operation_id",
      "path",
      "resource",
      "sandbox",
      "source",
    ]);
  });
});

/**
 * The bounds as src/sandbox/README.md ("Bounds") states them, by their names in `limits`; the
 * operator's settings (the eviction window, the memory budget, the callback queues) are not among them.
 */
const BOUNDS = {
  credentials: 1000,
  records: 1000,
  bytes: 16 * 1024 * 1024,
  record_bytes: 256 * 1024,
  error_rules: 20,
  error_count: 100,
  delivery_log: 200,
  attempts_logged: 20,
  advance_seconds: 400 * 24 * 3600,
  clock_offset_seconds: 10 * 366 * 24 * 3600,
  control_body_bytes: 64 * 1024,
  url_length: 2048,
};

group("the sandbox's description", () => {
  it("has the bounds by their snake_case names, the operator's settings left out", () => {
    expect(described().limits).toEqual(BOUNDS);
  });

  it("has the memory budget and its use, the sharing mode and the retry policy (README's defaults)", () => {
    expect(described().memory).toEqual({ budget_bytes: 256 * 1024 * 1024, used_bytes: 0, credentials: 0, queued_callbacks: 0 });
    expect(described().sharing).toEqual({ mode: "local", operator_token: false });
    expect(described().retry).toEqual({ attempts: 5, base_delay_ms: 250, max_delay_ms: 4000, timeout_ms: 5000 });
  });

  it("has the API, the declaration, the webhooks, and no operator's settings unless asked for", () => {
    expect(described().alias).toBe("describe-rules@1.0.0");
    expect(described().declaration).toMatch(/^\.tmp\/describe-rules-[^/]+\/describe\.sandbox\.yaml$/);
    expect(described().webhooks).toEqual(["thingDone", "thingAny"]);
    expect(described().settings).toBeUndefined();
    expect(wire(false).settings).toBeUndefined();
    expect(wire(true).settings).toEqual({
      callback_allow: [],
      memory_budget_bytes: 256 * 1024 * 1024,
      evict_idle_seconds: 600,
      delivery_queue: 200,
      delivery_queue_total: 500,
    });
  });
});
