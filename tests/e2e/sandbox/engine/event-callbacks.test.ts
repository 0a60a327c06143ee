/**
 * The callbacks of an event (src/sandbox/engine/events.ts `eventOf`, `callbackUrlNow`), on a
 * hand-written document and declaration (src/sandbox/README.md, "A declaration": `callbacks` with
 * `url`, `payload` and `codes`) and an engine reduced to what events read (the document, the
 * declaration, a resource by name), without HTTP:
 * - `codes`: the payload's `$event.code` and `$event.codeStatus` are the webhook's `x-status-codes`
 *   entry, also where the webhook's path item is a `$ref` (OpenAPI 3.1 allows one under `webhooks`);
 * - a URL rule that gives no string leaves the callback without URL (logged as skipped);
 * - a resend's URL is its own webhook's rule evaluated on the state now (the record as it is, none if
 *   deleted; the event's change), and the URL the event was raised with where no rule is left (the
 *   resource or the declaration gone).
 */
import { describe, expect, it } from "vitest";
import type { Declaration, ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { type Change, callbackUrlNow, eventOf } from "../../../../src/sandbox/engine/events.js";
import { CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import type { StoredRecord } from "../../../../src/sandbox/store/types.js";

const hookSchema = {
  type: "object",
  properties: { mandate_id: { type: "string" }, code: { type: "integer" }, status: { type: "string" } },
};
const statusCodes = [
  { code: 200, status: "SUCCESS" },
  { code: 409, status: "REVOKED_BY_BANK" },
];
const webhook = (operationId: string) => ({
  post: {
    operationId,
    "x-status-codes": statusCodes,
    requestBody: { content: { "application/json": { schema: hookSchema } } },
    responses: { "200": { description: "ok" } },
  },
});
const doc = {
  openapi: "3.1.0",
  info: { title: "Mandates", version: "1.0.0" },
  paths: {},
  webhooks: {
    mandateRevoked: webhook("mandateRevoked"),
    mandateAudited: { $ref: "#/components/pathItems/MandateAudited" },
  },
  components: {
    pathItems: { MandateAudited: webhook("mandateAudited") },
    schemas: {
      Mandate: {
        type: "object",
        properties: { mandate_id: { type: "string" }, status: { type: "string" }, hook: { type: "string" }, audit: { type: "string" } },
      },
    },
  },
};
const payload = { mandate_id: "$record.mandate_id", code: "$event.code", status: "$event.codeStatus" };
const mandate: ResourceDeclaration = {
  name: "mandate",
  source: "test",
  schema: "#/components/schemas/Mandate",
  singleton: false,
  id: { field: "mandate_id", prefix: "mdt_", digits: false },
  testValues: [],
  status: { field: "status", initial: "ACTIVE", source: "test" },
  callbacks: [
    { webhook: "mandateRevoked", when: ["REVOKED"], url: "$record.hook", codes: { REVOKED: 409 }, payload, source: "test" },
    {
      webhook: "mandateAudited",
      when: "*",
      url: "{$record.audit}?to={$event.to}",
      codes: { REVOKED: 409, ACTIVE: 200 },
      payload,
      source: "test",
    },
  ],
};
const declaration = { path: "mandates.sandbox.yaml", resources: { mandate }, operations: {}, where: () => "" } as unknown as Declaration;
const engineOf = (declared: Declaration | undefined) =>
  ({ doc, declaration: declared, resource: (name: string) => declared!.resources[name] }) as unknown as EngineContext;
const engine = engineOf(declaration);

const HOOK = "http://127.0.0.1:9/revoked";
const AUDIT = "http://127.0.0.1:9/audit";
/** The audit rule's URL for the REVOKED event: the record's `audit` and the event's new status. */
const AUDITED = `${AUDIT}?to=REVOKED`;
function revoked(data: Record<string, unknown> = {}) {
  const state = new CredentialState(credentialKey(`token-of-event-callbacks-${Math.random()}`));
  const record: StoredRecord = state.add("mandate", "mdt_1", { mandate_id: "mdt_1", status: "ACTIVE", hook: HOOK, audit: AUDIT, ...data });
  const after = { ...(record.data as Record<string, unknown>), status: "REVOKED" };
  const change: Change = {
    resource: mandate,
    record,
    data: after,
    from: "ACTIVE",
    to: "REVOKED",
    move: undefined,
    cause: "control",
    ctx: {},
  };
  return { state, record, event: eventOf(engine, state, change) };
}

describe("an event's callbacks", () => {
  it("carry the status's code and the webhook's x-status-codes status, for an inline webhook and for a $ref'd one", () => {
    const { event } = revoked();
    expect(event.callbacks).toEqual([
      { webhook: "mandateRevoked", url: HOOK, payload: { mandate_id: "mdt_1", code: 409, status: "REVOKED_BY_BANK" } },
      { webhook: "mandateAudited", url: AUDITED, payload: { mandate_id: "mdt_1", code: 409, status: "REVOKED_BY_BANK" } },
    ]);
  });

  it("have no URL where the URL rule gives something else than a string", () => {
    for (const hook of [42, { url: HOOK }, [HOOK], true]) {
      const { event } = revoked({ hook });
      expect(event.callbacks[0].url, JSON.stringify(hook)).toBeUndefined();
    }
  });
});

describe("a resend's URL", () => {
  it("is its own webhook's rule evaluated on the record as it is now", () => {
    const { state, record, event } = revoked();
    state.replace(record, {
      ...(record.data as Record<string, unknown>),
      hook: "http://127.0.0.1:9/new-revoked",
      audit: "http://127.0.0.1:9/new-audit",
    });
    const [first, second] = event.callbacks;
    expect(callbackUrlNow(engine, state, event, first)).toBe("http://127.0.0.1:9/new-revoked");
    expect(callbackUrlNow(engine, state, event, second)).toBe("http://127.0.0.1:9/new-audit?to=REVOKED");
  });

  it("has no URL where the rule now gives something else than a string, or reads a record deleted since", () => {
    const { state, record, event } = revoked();
    state.replace(record, { ...(record.data as Record<string, unknown>), hook: 42 });
    expect(callbackUrlNow(engine, state, event, event.callbacks[0])).toBeUndefined();
    state.remove(record);
    expect(callbackUrlNow(engine, state, event, event.callbacks[0])).toBeUndefined();
  });

  it("is the URL the event was raised with where the resource is no longer declared, or the API has no declaration", () => {
    const { state, event } = revoked();
    const withoutMandates = { ...declaration, resources: {} } as unknown as Declaration;
    for (const changed of [engineOf(withoutMandates), engineOf(undefined)]) {
      expect(callbackUrlNow(changed, state, event, event.callbacks[0])).toBe(HOOK);
      expect(callbackUrlNow(changed, state, event, event.callbacks[1])).toBe(AUDITED);
    }
  });
});
