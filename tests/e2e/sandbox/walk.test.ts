/**
 * Every operation of every API in sandbox mode, with answers built from state: each declared create
 * runs with the spec's example, then every operation is called (its id parameter set to a created
 * record's id, where the declaration says the id comes from), then every record is moved through
 * every status its resource allows and read back. No answer may carry an sl-violation: every answer
 * built from state validates against the operation's response schema.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { operations } from "../../../src/document/index.js";
import { startMock } from "../../../src/mock/index.js";
import { declarationOf } from "../../../src/sandbox/declaration.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { bundled } from "../../helpers/registry.js";
import { exampleBody, send } from "./cases.js";

/** Operations of the seven APIs, paths x methods (20 + 8 + 4 + 4 + 3 + 4 + 3). */
const EXPECTED_OPERATIONS = 46;

it("walks every operation of the registry", () => {
  expect(bundled.reduce((n, { doc }) => n + operations(doc).length, 0)).toBe(EXPECTED_OPERATIONS);
});

const tail = (ref: string | undefined, root: string) => (ref?.startsWith(root) ? ref.slice(root.length) : undefined);

describe.each(bundled.map((b) => [b.entry.alias, b] as const))("%s", (alias, { entry, doc }) => {
  it("answers every operation from state with no sl-violations, in every status", async () => {
    const declaration = declarationOf(entry, doc);
    const mock = await startMock(entry, { port: 0, sandbox: true });
    const credential = `walk-${randomUUID()}`;
    const control = sandboxControl(mock.url, credential);
    const problems: string[] = [];
    const check = (what: string, answer: { status: number; violations: unknown[] }) => {
      if (answer.status < 200 || answer.status >= 300) problems.push(`${what}: status ${answer.status}`);
      if (answer.violations.length > 0) problems.push(`${what}: ${JSON.stringify(answer.violations)}`);
    };
    try {
      const all = operations(doc);
      const declared = (id: string) => declaration?.operations[id];
      for (const op of all.filter((o) => declared(o.operationId)?.kind === "create")) {
        check(`create ${op.operationId}`, await send(mock.url, alias, op.operationId, { credential, body: exampleBody(doc, op) }));
      }
      const state = await control.state();
      const idOf = (resource: string) => state.resources[resource]?.[0]?.id;
      const request = async (operationId: string) => {
        const op = all.find((o) => o.operationId === operationId)!;
        const d = declared(operationId);
        const body = exampleBody(doc, op);
        const path: Record<string, string> = {};
        const query: Record<string, string> = {};
        const id = d ? idOf(d.resource) : undefined;
        if (d && id !== undefined) {
          const refs = [d.id, ...(d.filter ?? []).filter((f) => f.notFound).map((f) => f.value as string)];
          for (const ref of refs) {
            const param = tail(ref, "$params.");
            const member = tail(ref, "$request.");
            if (param) (op.parameters.some((p) => p.value.in === "path" && p.value.name === param) ? path : query)[param] = id;
            if (member && body && typeof body === "object") body[member] = id;
          }
          if (d.status?.from) await control.setStatus(d.resource, id, d.status.from[0]);
        }
        return send(mock.url, alias, operationId, { credential, path, query, body });
      };
      const ordered = [
        ...all.filter((o) => declared(o.operationId)?.kind !== "delete"),
        ...all.filter((o) => declared(o.operationId)?.kind === "delete"),
      ];
      for (const op of ordered) check(op.operationId, await request(op.operationId));

      const description = await control.describe();
      for (const resource of description.resources.filter((r) => r.status_field)) {
        const id = (await control.state()).resources[resource.name]?.[0]?.id;
        if (id === undefined) {
          problems.push(`${resource.name}: no record to move`);
          continue;
        }
        const readers = Object.values(declaration!.operations).filter(
          (o) => o.resource === resource.name && (o.kind === "read" || o.kind === "list"),
        );
        for (const status of resource.statuses ?? [resource.initial_status!, "SANDBOX_ANY_STATUS"]) {
          await control.setStatus(resource.name, id, status);
          for (const reader of readers) check(`${reader.operationId} in ${status}`, await request(reader.operationId));
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
