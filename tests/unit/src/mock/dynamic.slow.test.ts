/**
 * Every operation of every registered API answers `Prefer: dynamic=true` with data that validates
 * against its own schema. It starts every API's mock, so it runs in the full tier (`*.slow.test.ts`,
 * tests/README.md); the dynamic answer's rules on a fixture are in dynamic.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  isJsonMediaType,
  jsonRequest,
  loadDocument,
  operations,
  responseContents,
  successResponse,
} from "../../../../src/document/index.js";
import { findApi } from "../../../../src/registry.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../../src/testing/requests.js";
import { specValidator } from "../../../helpers/ajv.js";
import { DYNAMIC_TRIES as TRIES, dynamic, mocksOfEveryApi } from "../../../helpers/mocks.js";
import { bundled, named } from "../../../helpers/registry.js";

describe("every operation of the registry: a dynamic answer validates against its own schema", () => {
  const mocks = mocksOfEveryApi();

  const cases = bundled.flatMap((api) => operations(api.doc).map((op) => ({ name: `${api.entry.alias} ${op.operationId}`, api, op })));

  it("covers the 46 operations of the seven APIs", () => {
    // 20 Pay 1.3.0, 8 Pay 1.2.0, 4 payment initiation, 4 statement, 3 balance, 4 disbursement, 3 account opening.
    expect(cases).toHaveLength(46);
  });

  it.each(named(cases))("%s", async (_, { api, op }) => {
    const params = requestParams(api.doc, op);
    const json = jsonRequest(api.doc, op);
    const headers: Record<string, string> = { ...params.header, ...credentialHeaders(api.doc, op) };
    if (json) headers["content-type"] = "application/json";
    const url = mocks.get(api.entry.alias)!.url + requestUrl(op, params);
    const expected = successResponse(op);
    const schema = responseContents(api.doc, expected.response).find((m) => isJsonMediaType(m.mediaType))?.schema;
    const validator = specValidator(api.doc);
    for (let i = 0; i < 3; i++) {
      const answer = await dynamic(url, {
        method: op.method.toUpperCase(),
        headers,
        body: json ? JSON.stringify(json.examples[0].value) : undefined,
      });
      expect(answer.status).toBe(expected.status);
      expect(answer.violations, "the mock served an answer that breaks its own schema").toBeNull();
      if (schema) {
        const result = validator.validate(schema.at, answer.body);
        expect(result.valid, `${schema.at}: ${result.errors}`).toBe(true);
      }
    }
  });

  it("generates the supported-bank map of Pay 1.3.0 (integer-code keys) instead of falling back to the example", async () => {
    const doc = loadDocument(findApi("pay@1.3.0").bundlePath);
    const example = doc.paths["/v1/supported-banks"].get.responses["200"].content["application/json"].examples.indonesia.value;
    const answers = [];
    for (let i = 0; i < TRIES; i++) {
      answers.push(await dynamic(`${mocks.get("pay@1.3.0")!.url}/v1/supported-banks`, { headers: { authorization: "Bearer t" } }));
    }
    for (const answer of answers) {
      expect(answer.violations).toBeNull();
      for (const key of Object.keys(answer.body)) expect(key).toMatch(/^-?[0-9]+$/);
    }
    expect(answers.some((a) => JSON.stringify(a.body) !== JSON.stringify(example))).toBe(true);
  });
});
