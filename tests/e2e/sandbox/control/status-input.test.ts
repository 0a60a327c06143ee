/**
 * A record's move through the control API (src/sandbox/control/index.ts, document.ts,
 * operations/update-resource-status.ts), over a tiny hand-written document and declaration whose
 * ticket's status member is a lower-case word by its schema's `pattern`, with no list of values:
 *
 * - the control API is what is under `/_sandbox` (src/sandbox/README.md): a path of the API, or one
 *   that only begins with the same letters, is passed on to the API;
 * - `POST /_sandbox/resources/{resource}/{id}/status` to a status the schema refuses is 400 on
 *   `status`, its detail naming the status, the resource and the schema that refuses it (there is
 *   no list of statuses to offer: the README's "statuses its schema names" are none here);
 * - `POST .../actions/{action}` takes its body as optional (the control document: "The body is
 *   optional"), so a call with no body moves the record whatever Content-Type the client sent (its
 *   415 is for "a body that is not `application/json`", and there is none); a body that is text is
 *   still 415.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { ControlApi } from "../../../../src/sandbox/control/index.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { call } from "../../../helpers/sandbox.js";

/** A declaration's source: a line of one of the provider's documents (the declaration's format). */
const SOURCE = (line: number) => `Pay Service Interface, line ${line}`;
const TICKET_SCHEMA = "#/components/schemas/Ticket";
const CREDENTIAL = "status-input-credential";
/** The header the test's server marks a request with when the control API passed it on. */
const PASSED_ON = "x-passed-on";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Status input (test)", version: "1.0.0" },
  paths: {
    "/v1/tickets/{ticket_id}": {
      get: {
        operationId: "getTicket",
        parameters: [{ name: "ticket_id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: TICKET_SCHEMA } } } } },
      },
    },
  },
  components: {
    schemas: {
      Ticket: {
        type: "object",
        properties: {
          ticket_id: { type: "string" },
          // Any lower-case word: the schema names no statuses.
          status: { type: "string", pattern: "^[a-z]+$" },
        },
      },
    },
  },
};

const declaration = {
  sandbox: 1,
  resources: {
    ticket: {
      source: SOURCE(1),
      schema: TICKET_SCHEMA,
      id: { field: "ticket_id", prefix: "tkt_" },
      status: {
        field: "status",
        initial: "open",
        source: SOURCE(2),
        moves: { close: { from: ["open"], to: "closed", source: SOURCE(3) } },
      },
    },
  },
  operations: { getTicket: { source: SOURCE(4), resource: "ticket", kind: "read", id: "$params.ticket_id" } },
};

const folder = mkdtempSync(join(repoRoot, ".tmp/status-input-"));
const declarationPath = join(folder, "tickets.sandbox.yaml");
// JSON is YAML: the declaration's reader takes it as it is.
writeFileSync(declarationPath, JSON.stringify(declaration, null, 2));
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "status-input@1.0.0" }, doc, { declarationPath, budget: new SandboxBudget() }, "inline");
const control = new ControlApi(engine);

/** The control API behind a node:http server, as the mock hands it a request and its body. */
const server: Server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    control.handle(request, response, Buffer.concat(chunks)).then(
      (handled) => {
        // What the control API passes on goes to the API's mock: here a mark of its own.
        if (!handled) response.writeHead(204, { [PASSED_ON]: "yes" }).end();
      },
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await engine.close();
});

/** A ticket `id` in the credential's state, open. */
async function openTicket(id: string): Promise<void> {
  await engine.store.run(credentialKey(CREDENTIAL), (state: CredentialState) => state.add("ticket", id, { ticket_id: id, status: "open" }));
}

const bearer = { authorization: `Bearer ${CREDENTIAL}` };

describe("a move to a status the resource's schema refuses, where the schema names no statuses", () => {
  it("is 400 on status, naming the status, the resource and the schema that refuses it", async () => {
    await openTicket("tkt_1");
    const answer = await call(base, "POST", "/_sandbox/resources/ticket/tkt_1/status", { body: { status: "Closed!" }, headers: bearer });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe("status");
    expect(answer.body.detail).toContain('"Closed!"');
    expect(answer.body.detail).toContain("ticket");
    expect(answer.body.detail).toContain(TICKET_SCHEMA);
  });

  it("leaves the record where it was, and a status the schema allows moves it", async () => {
    await openTicket("tkt_2");
    await call(base, "POST", "/_sandbox/resources/ticket/tkt_2/status", { body: { status: "Closed!" }, headers: bearer });
    const moved = await call(base, "POST", "/_sandbox/resources/ticket/tkt_2/status", { body: { status: "closed" }, headers: bearer });
    expect([moved.status, moved.body.to, moved.body.changed]).toEqual([200, "closed", true]);
  });
});

describe("an action's optional body", () => {
  it("absent, moves the record whatever Content-Type the call names", async () => {
    await openTicket("tkt_3");
    const answer = await call(base, "POST", "/_sandbox/resources/ticket/tkt_3/actions/close", {
      headers: { ...bearer, "content-type": "text/plain" },
    });
    expect([answer.status, answer.body.to, answer.body.changed]).toEqual([200, "closed", true]);
  });

  it("present as text, is 415", async () => {
    await openTicket("tkt_4");
    const answer = await call(base, "POST", "/_sandbox/resources/ticket/tkt_4/actions/close", {
      headers: { ...bearer, "content-type": "text/plain" },
      raw: "close it",
    });
    expect(answer.status).toBe(415);
  });
});

describe("the control API's paths", () => {
  it("are /_sandbox and what is under it; the API's paths, and /_sandboxes, are passed on", async () => {
    const own = await call(base, "GET", "/_sandbox");
    expect([own.status, own.headers.get(PASSED_ON)]).toEqual([200, null]);
    const clock = await call(base, "GET", "/_sandbox/clock", { headers: bearer });
    expect([clock.status, clock.headers.get(PASSED_ON)]).toEqual([200, null]);
    for (const path of ["/v1/tickets/tkt_1", "/_sandboxes"]) {
      const passed = await call(base, "GET", path, { headers: bearer });
      expect([path, passed.status, passed.headers.get(PASSED_ON)]).toEqual([path, 204, "yes"]);
    }
  });
});
