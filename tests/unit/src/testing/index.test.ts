/**
 * The testing entry (src/testing, `bank-api-contracts/testing`): the matcher through vitest's
 * `expect.extend`, `startMock` on a free port, `listApis`, and for every registered API a round trip
 * mock -> generated client -> matcher.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiAlias,
  type ContractMatchers,
  type ContractMock,
  listApis,
  type OperationId,
  startMock,
  toMatchContract,
} from "../../../../src/testing/index.js";
import { DEFAULT_PORT_BASE, defaultPort } from "../../../../src/registry.js";
import { jsonRequest, operations, responseContents, successResponse } from "../../../../src/document/index.js";
import { requestParams, wrongTypedBody } from "../../../../src/testing/requests.js";
import { isPortFree } from "../../../helpers/ports.js";
import { bundled, createTestClient, named, registry } from "../../../helpers/registry.js";

declare module "vitest" {
  interface Matchers<T = any> extends ContractMatchers<T> {}
}
expect.extend({ toMatchContract });

const [first] = bundled;
const firstOp = operations(first.doc).find((op) => op.method === "get" && successResponse(op).response.value.content)!;

// The tests read aliases and operationIds from the registry's documents (strings); the entry types
// them as the registry's literals (types.test-d.ts checks those), hence these casts.
const aliasOf = (alias: string) => alias as ApiAlias;
const idOf = (operationId: string) => operationId as OperationId<ApiAlias>;
const firstAlias = aliasOf(first.entry.alias);
const firstId = idOf(firstOp.operationId);

describe("toMatchContract", () => {
  const { status } = successResponse(firstOp);
  const wrong = 12345; // a number: no success response in the registry is a bare number

  it("passes for a body the contract allows, and fails with the violations for one it does not", async () => {
    const result = await createFetchResult(first.entry.alias, firstOp.operationId, status);
    expect(result.data).toMatchContract(firstAlias, firstId, status);
    expect(wrong).not.toMatchContract(firstAlias, firstId, status);
    expect(() => expect(wrong).toMatchContract(firstAlias, firstId, status)).toThrow(
      `expected the body to match the ${first.entry.alias} ${firstOp.operationId} ${status} response; 1 violation(s):\n  $: must be`,
    );
    expect(() => expect(result.data).not.toMatchContract(firstAlias, firstId, status)).toThrow("expected the body not to match");
  });

  it("takes an openapi-fetch result, using (or checking) its response status", () => {
    const body = { anything: true };
    const response = new Response(JSON.stringify(body), { status: 418, headers: { "content-type": "application/json" } });
    const result = { error: body, response };
    expect(() => expect(result).toMatchContract(firstAlias, firstId, status)).toThrow(
      `expected the ${first.entry.alias} ${firstOp.operationId} ${status} response, but the status is 418`,
    );
    expect(() => expect(result).toMatchContract(firstAlias, firstId)).toThrow("status 418 is not declared");
  });

  it("needs the status for a plain body, and an operationId the API has", () => {
    expect(() => expect({}).toMatchContract(firstAlias, firstId)).toThrow("status is required");
    // @ts-expect-error: not an operationId of the API (the run-time check is what is tested)
    expect(() => expect({}).toMatchContract(firstAlias, "noSuchOperation", 200)).toThrow('unknown operationId "noSuchOperation"');
  });
});

/** A real openapi-fetch result from the mock for `operationId`. */
async function createFetchResult(alias: string, operationId: string, status: number) {
  const api = bundled.find((b) => b.entry.alias === alias)!;
  const op = operations(api.doc).find((o) => o.operationId === operationId)!;
  const mock = await startMock(aliasOf(alias));
  try {
    const client = await createTestClient(api.entry, mock.url);
    const params = requestParams(api.doc, op);
    const body = jsonRequest(api.doc, op)?.examples[0]?.value;
    const result = await client[op.method.toUpperCase()](op.path, { params, ...(body === undefined ? {} : { body }) });
    expect(result.response.status).toBe(status);
    return result;
  } finally {
    await mock.close();
  }
}

describe("startMock", () => {
  it("listens on a free port by default, not the API's default port, and close() frees it", async () => {
    const mock = await startMock(firstAlias);
    expect(mock.port).not.toBe(defaultPort(first.entry));
    expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
    expect(mock.operations).toBe(operations(first.doc).length);
    await mock.close();
    expect(await isPortFree(mock.port)).toBe(true);
  });

  it("names the known aliases for an unknown one", async () => {
    // @ts-expect-error: not an alias of the registry (the run-time check is what is tested)
    await expect(startMock("no-such-api@9.9.9")).rejects.toThrow(`known: ${registry.map((e) => e.alias).join(", ")}`);
  });
});

describe("listApis", () => {
  it("lists the registry: alias, service, release, newest flag, default port and spec path", () => {
    expect(listApis()).toEqual(
      registry.map((entry, index) => ({
        alias: entry.alias,
        service: entry.service,
        release: entry.release,
        latest: entry.latest,
        defaultPort: DEFAULT_PORT_BASE + index,
        specPath: entry.bundlePath,
      })),
    );
  });
});

describe("every operation of every API: mock -> generated client -> toMatchContract", () => {
  const mocks = new Map<string, ContractMock>();
  beforeAll(async () => {
    for (const mock of await Promise.all(bundled.map(({ entry }) => startMock(aliasOf(entry.alias))))) mocks.set(mock.alias, mock);
  });
  afterAll(() => Promise.all([...mocks.values()].map((m) => m.close())));

  const cases = bundled.flatMap((api) =>
    operations(api.doc).map((op) => ({ name: `${api.entry.alias} ${op.operationId}`, api, op, status: successResponse(op).status })),
  );

  /** Success responses whose body the source does not show, typed as any JSON value (hand-written, from the sources). */
  const ANY_JSON = new Set(["statement@1.0.0 submitStatementTfa"]);

  it("covers every operation (46 in the sources' endpoint tables)", () => {
    expect(cases).toHaveLength(46);
  });

  it.each(named(cases))("%s: the answer matches; a wrong-typed copy fails naming its field", async (_, { api, op, status }) => {
    const client = await createTestClient(api.entry, mocks.get(api.entry.alias)!.url);
    const params = requestParams(api.doc, op);
    const body = jsonRequest(api.doc, op)?.examples[0]?.value;
    const result = await client[op.method.toUpperCase()](op.path, { params, ...(body === undefined ? {} : { body }) });
    expect(result).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId), status);
    expect(result).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId));

    const media = responseContents(api.doc, successResponse(op).response).find((m) => m.schema);
    if (!media) {
      // No body declared (a gap of the source): any body is a violation.
      expect(() => expect({ unexpected: true }).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId), status)).toThrow(
        "must be empty",
      );
      return;
    }
    if (ANY_JSON.has(`${api.entry.alias} ${op.operationId}`)) {
      // The source shows no response body: the contract accepts any JSON value.
      expect(12345).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId), status);
      return;
    }
    const wrong = wrongTypedBody(api.doc, media.schema!, result.data);
    expect(() => expect(wrong.body).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId), status)).toThrow(
      `expected the body to match the ${api.entry.alias} ${op.operationId} ${status} response`,
    );
    if (wrong.field !== undefined) {
      expect(() => expect(wrong.body).toMatchContract(aliasOf(api.entry.alias), idOf(op.operationId), status)).toThrow(
        new RegExp(`\\$(\\.|\\[")${wrong.field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
    }
  });
});
