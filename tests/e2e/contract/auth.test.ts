/**
 * Credentials, on every operation of every API (the schemes from tests/helpers/auth.ts, written by
 * hand from the sources): the generated client sends its credential in its header, and only there,
 * asking a credential function on every request; the mock answers the client 2xx, and 401 when the
 * credential travels in the other scheme's header.
 */
import { describe, expect, it } from "vitest";
import { jsonRequest, operations, successResponse } from "../../../src/document/index.js";
import { requestParams, sendExample } from "../../../src/testing/requests.js";
import { recordingFetch, SOURCE_AUTH } from "../../helpers/auth.js";
import { bundled, named } from "../../helpers/registry.js";
import { mocksOfEveryApi } from "../../helpers/mocks.js";

const mocks = mocksOfEveryApi();

const cases = bundled.flatMap((api) => {
  const row = SOURCE_AUTH.find(([alias]) => alias === api.entry.alias);
  if (!row) throw new Error(`${api.entry.alias} has no row in SOURCE_AUTH (tests/helpers/auth.ts)`);
  const [, factories, auth] = row;
  return operations(api.doc).map((op) => ({ name: `${api.entry.alias} ${op.operationId}`, api, op, factory: factories[0], auth }));
});

it("covers every operation of every API (46 in the sources' endpoint tables)", () => {
  expect(cases).toHaveLength(46);
});

describe.each(named(cases))("%s", (_, { api, op, factory, auth }) => {
  const call = async (baseUrl: string, credential: string | (() => string), fetch?: (request: Request) => Promise<Response>) => {
    const module = (await import(api.entry.clientPath)) as Record<string, (options: object) => Record<string, Function>>;
    const client = module[factory]({ baseUrl, [auth.option]: credential, fetch });
    const body = jsonRequest(api.doc, op)?.examples[0]?.value;
    return client[op.method.toUpperCase()](op.path, { params: requestParams(api.doc, op), ...(body === undefined ? {} : { body }) });
  };

  it("the client sends the credential in its header only, asking a function each time", async () => {
    const { fetch, requests } = recordingFetch();
    let n = 0;
    const credential = () => `credential-${++n}`;
    await call("https://api.example.test", credential, fetch);
    await call("https://api.example.test", credential, fetch);
    expect(requests.map((r) => r.headers.get(auth.header))).toEqual([auth.value("credential-1"), auth.value("credential-2")]);
    const other = auth.header === "authorization" ? "x-api-key" : "authorization";
    expect(requests.map((r) => r.headers.get(other))).toEqual([null, null]);
    expect(requests[0].url).not.toContain("credential-1");
  });

  it("the mock answers the client's request, and refuses the credential in the other scheme's header", async () => {
    const mock = mocks.get(api.entry.alias)!;
    const { response } = await call(mock.url, "any-credential");
    expect(response.status).toBe(successResponse(op).status);

    const other: Record<string, string> =
      auth.header === "authorization" ? { "x-api-key": "any-credential" } : { authorization: "Bearer any-credential" };
    const refused = await sendExample(mock.url, api.doc, op, { credentials: false, headers: other });
    expect(refused.status).toBe(401);
  });
});
