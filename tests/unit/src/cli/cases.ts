/**
 * Per registered API: the first operation whose success response has a JSON example and a typed
 * property, with that example and a copy of it where the property has the wrong type. Shared by
 * the `validate` and `proxy` tests.
 */
import { type Json, type Operation, operations, responseContents, successResponse } from "../../../../src/document/index.js";
import { wrongTypedBody } from "../../../../src/testing/requests.js";
import { type BundledApi, bundled } from "../../../helpers/registry.js";

export interface ContractCase {
  name: string;
  api: BundledApi;
  alias: string;
  op: Operation;
  operationId: string;
  status: number;
  valid: Json;
  invalid: Json;
  /** The property whose type is wrong in `invalid`. */
  field: string;
}

export const contractCases: ContractCase[] = bundled.flatMap((api) => {
  const { entry, doc } = api;
  for (const op of operations(doc)) {
    const { status, response } = successResponse(op);
    const media = responseContents(doc, response).find((m) => /json/.test(m.mediaType) && m.schema && m.examples.length > 0);
    if (!media) continue;
    let wrong;
    try {
      wrong = wrongTypedBody(doc, media.schema!, media.examples[0].value);
    } catch {
      continue; // this schema constrains no type
    }
    if (wrong.field === undefined) continue;
    const name = `${entry.alias} ${op.operationId} ${status}`;
    return [
      {
        name,
        api,
        alias: entry.alias,
        op,
        operationId: op.operationId,
        status,
        valid: media.examples[0].value,
        invalid: wrong.body,
        field: wrong.field,
      },
    ];
  }
  return [];
});

/** `$.name`, or `$["odd-name"]`, as the validator writes a top-level property. */
export const propertyPath = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `$.${name}` : `$[${JSON.stringify(name)}]`);
