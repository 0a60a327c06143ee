/**
 * Fuzzing the mock (bounded and seeded, a few seconds): for every operation of every registered
 * API, requests generated from the spec's schemas with fast-check. Valid ones must get the
 * operation's 2xx; mutated ones (wrong type, missing required member or parameter, out-of-enum
 * value, oversized string, each only where the schema makes it meaningful) must get the declared
 * 4xx with a violation at the mutated member; broken JSON must get 400; nothing may get a 5xx
 * (a request never answered fails at the suite's test timeout); and afterwards the mock must still
 * answer every operation's spec example (src/testing/requests.ts) with its 2xx.
 * `npm run fuzz` runs the same cases at length (scripts/fuzz.ts).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { specValidator } from "../../helpers/ajv.js";
import { jsonRequest, operations, successResponse } from "../../../src/document/index.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import { bundled, named } from "../../helpers/registry.js";
import { type CaseKind, GOOD, operationModel, type OperationModel, SKIPPED } from "../../../scripts/lib/fuzz/model.js";
import { mocksOfEveryApi } from "../../helpers/mocks.js";

const SEED = 20251121;
/** Runs per operation and kind (valid requests get more). */
const RUNS: Record<CaseKind, number> = {
  valid: 6,
  "wrong-type": 3,
  "missing-required": 3,
  "out-of-enum": 3,
  "oversized-string": 3,
  "broken-json": 2,
};

const mocks = mocksOfEveryApi();

const models = bundled.flatMap((api) => {
  const validator = specValidator(api.doc);
  return operations(api.doc).map((op) => ({
    name: `${api.entry.alias} ${op.operationId}`,
    api,
    model: operationModel(api.entry.alias, api.doc, op, validator),
  }));
});

/** Outcome counts per API and kind, printed at the end. */
const counts = new Map<string, number>();

async function fuzz(model: OperationModel, kind: CaseKind): Promise<number> {
  const url = mocks.get(model.alias)!.url;
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(model.arbitrary(kind), async (c) => {
      fc.pre(c !== undefined); // no site for this kind in this generated value
      const result = await model.run(url, c!);
      const key = `${model.alias}\t${kind}\t${result.outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      fc.pre(!SKIPPED.has(result.outcome));
      sent++;
      expect(GOOD.has(result.outcome), `${result.outcome}: ${result.detail}`).toBe(true);
    }),
    { seed: SEED, numRuns: RUNS[kind], maxSkipsPerRun: 50, endOnFailure: true },
  );
  return sent;
}

describe("fuzzing every operation through the mock", () => {
  it.each(named(models.map((m) => ({ name: m.name, model: m.model }))))("%s", async (_, { model }) => {
    for (const kind of model.kinds) {
      const sent = await fuzz(model, kind);
      // Every kind that applies was really exercised, not skipped away.
      expect(sent, `${kind}: no request sent`).toBeGreaterThan(0);
    }
  });

  it("the mocks still answer every operation's spec example afterwards", async () => {
    // 20 Pay 1.3.0, 8 Pay 1.2.0, 4 payment initiation, 4 statement, 3 balance, 4 disbursement, 3 account opening.
    expect(models).toHaveLength(46);
    for (const { name, api, model } of models) {
      const { op } = model;
      const params = requestParams(api.doc, op);
      const json = jsonRequest(api.doc, op);
      const headers: Record<string, string> = { ...params.header, ...credentialHeaders(api.doc, op) };
      if (json) headers["content-type"] = json.mediaType;
      const response = await fetch(mocks.get(model.alias)!.url + requestUrl(op, params), {
        method: op.method.toUpperCase(),
        headers,
        body: json ? JSON.stringify(json.examples[0].value) : undefined,
      });
      const text = await response.text();
      expect(response.status, `${name}: ${text.slice(0, 300)}`).toBe(successResponse(op).status);
    }
  });
});

afterAll(() => {
  const lines = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key.replaceAll("\t", "  ")}: ${n}`);
  process.stdout.write(`fuzz outcomes (api, kind, outcome: count)\n${lines.join("\n")}\n`);
});
