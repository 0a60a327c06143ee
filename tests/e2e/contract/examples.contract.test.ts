/**
 * Every example in every bundled spec validates against its schema, independently of Prism
 * (Ajv 2020 + ajv-formats): request and response examples of operations and webhooks, and
 * parameter examples. Prism serves these examples as the mock's data.
 */
import { describe, expect, it } from "vitest";
import { specValidator } from "../../helpers/ajv.js";
import { type Json, operations, parameterContent, requestContents, responseContents } from "../../../src/document/index.js";
import { bundled, named } from "../../helpers/registry.js";

interface ExampleCase {
  name: string;
  validate: (at: string, data: unknown) => { valid: boolean; errors: string };
  schemaAt: string;
  value: Json;
}

const cases: ExampleCase[] = bundled.flatMap(({ entry, doc }) => {
  const { validate } = specValidator(doc);
  return operations(doc, { webhooks: true }).flatMap((op) => {
    const label = `${entry.alias} ${op.operationId}`;
    const request = requestContents(doc, op).flatMap((media) =>
      media.schema
        ? media.examples.map((ex) => ({
            name: `${label} request ${media.mediaType} "${ex.name}"`,
            validate,
            schemaAt: media.schema!.at,
            value: ex.value,
          }))
        : [],
    );
    const responses = Object.entries(op.responses).flatMap(([code, response]) =>
      responseContents(doc, response).flatMap((media) =>
        media.schema
          ? media.examples.map((ex) => ({
              name: `${label} ${code} ${media.mediaType} "${ex.name}"`,
              validate,
              schemaAt: media.schema!.at,
              value: ex.value,
            }))
          : [],
      ),
    );
    const parameters = op.parameters.flatMap((param) => {
      const content = parameterContent(doc, param);
      return content.schema
        ? content.examples.map((ex) => ({
            name: `${label} parameter ${content.mediaType} "${ex.name}"`,
            validate,
            schemaAt: content.schema!.at,
            value: ex.value,
          }))
        : [];
    });
    return [...request, ...responses, ...parameters];
  });
});

describe("every example validates against its schema", () => {
  it.each(named(cases))("%s", (_, { validate, schemaAt, value }) => {
    const result = validate(schemaAt, value);
    expect(result.valid, `${schemaAt}: ${result.errors}`).toBe(true);
  });
});
