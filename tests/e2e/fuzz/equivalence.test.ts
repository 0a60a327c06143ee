/**
 * The mock's HTTP layer (src/mock/server.ts) answers exactly as Prism's own server
 * (@stoplight/prism-http-server, which it replaced for speed): for fuzzed valid and invalid
 * requests of every operation and for the routing, credential, content-type and preference cases,
 * the status, headers (all but Date and connection headers) and body are the same. Each request is
 * also sent twice to the mock, so that the second answer comes from its response cache and must
 * equal the first.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeMocks, type MockServer, startMocks } from "../../../src/mock/index.js";
import { specValidator } from "../../helpers/ajv.js";
import { operations } from "../../../src/document/index.js";
import { bundled, named } from "../../helpers/registry.js";
import { operationModel } from "../../../scripts/lib/fuzz/model.js";
import { startStockPrism } from "../../../scripts/lib/stock-prism.js";

const SEED = 7;
const mocks = new Map<string, MockServer>();
const stock = new Map<string, { url: string; close: () => Promise<void> }>();

beforeAll(async () => {
  for (const mock of await startMocks(
    bundled.map((api) => api.entry),
    { freePorts: true },
  ))
    mocks.set(mock.alias, mock);
  for (const api of bundled) {
    stock.set(api.entry.alias, await startStockPrism(api.entry.bundlePath));
  }
}, 60_000);

afterAll(async () => {
  await closeMocks([...mocks.values()]);
  await Promise.all([...stock.values()].map((s) => s.close()));
});

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function answer(base: string, r: Request) {
  const response = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body, signal: AbortSignal.timeout(5000) });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive"].includes(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
}

async function expectSame(alias: string, r: Request) {
  const theirs = await answer(stock.get(alias)!.url, r);
  const ours = await answer(mocks.get(alias)!.url, r);
  const again = await answer(mocks.get(alias)!.url, r);
  const what = `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${(r.body ?? "").slice(0, 200)}`;
  expect(ours, what).toEqual(theirs);
  expect(again, `${what} (second time, from the cache)`).toEqual(ours);
}

const models = bundled.flatMap((api) => {
  const validator = specValidator(api.doc);
  return operations(api.doc).map((op) => ({
    name: `${api.entry.alias} ${op.operationId}`,
    model: operationModel(api.entry.alias, api.doc, op, validator),
  }));
});

describe("the mock answers as Prism's own server", () => {
  it("generates dynamic data on request (Prefer: dynamic=true)", async () => {
    const { model } = models.find(({ model }) => model.op.method === "get" && Object.keys(model.op.responses).some((c) => /^2/.test(c)))!;
    const valid = model.request(fc.sample(model.arbitrary("valid"), { seed: SEED, numRuns: 1 })[0]!);
    const answers = await Promise.all(
      [1, 2].map(async () => {
        const response = await fetch(mocks.get(model.alias)!.url + valid.path, { headers: { ...valid.headers, prefer: "dynamic=true" } });
        return { status: response.status, body: await response.text() };
      }),
    );
    expect(answers[0].status, `${model.alias} ${model.op.operationId}`).toBeLessThan(300);
    if (answers[0].body.length > 2) expect(answers[0].body, "two generated answers are the same").not.toBe(answers[1].body);
  });

  it.each(named(models))("%s: fuzzed requests of every kind", async (_, { model }) => {
    for (const kind of model.kinds) {
      for (const c of fc.sample(model.arbitrary(kind), { seed: SEED, numRuns: 2 })) {
        if (c) await expectSame(model.alias, model.request(c));
      }
    }
  });

  it.each(named(models))("%s: credentials, routing, content type, preferences, CORS", async (_, { model }) => {
    const valid = model.request(fc.sample(model.arbitrary("valid"), { seed: SEED, numRuns: 1 })[0]!);
    const { authorization, "x-api-key": _key, ...anonymous } = valid.headers;
    const cases: Request[] = [
      { ...valid, headers: anonymous },
      { ...valid, path: `${valid.path.split("?")[0]}/no-such-thing` },
      { ...valid, method: valid.method === "DELETE" ? "PATCH" : "DELETE", body: undefined },
      { ...valid, headers: { ...valid.headers, prefer: "code=404" } },
      { ...valid, headers: { ...valid.headers, prefer: "code=abc" } },
      { ...valid, headers: { ...valid.headers, origin: "https://partner.example", "access-control-expose-headers": "sl-violations" } },
      {
        method: "OPTIONS",
        path: valid.path,
        headers: { origin: "https://partner.example", "access-control-request-method": valid.method },
      },
      ...(valid.body === undefined ? [] : [{ ...valid, headers: { ...valid.headers, "content-type": "text/plain" } }]),
    ];
    for (const r of cases) await expectSame(model.alias, r);
  });
});
