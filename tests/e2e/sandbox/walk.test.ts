/**
 * Every operation of every API in sandbox mode, with answers built from state: each declared create
 * runs with the spec's example, then every operation is called (its id parameter set to a created
 * record's id, where the declaration says the id comes from), then, for every status its resource's
 * lifecycle reaches, a fresh record is taken there by the shortest path of actions and read back. No answer may carry an sl-violation: every answer
 * built from state validates against the operation's response schema.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { operations } from "../../../src/document/index.js";
import { startMock } from "../../../src/mock/index.js";
import { declarationOf } from "../../../src/sandbox/declaration.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { bundled } from "../../helpers/registry.js";
import { exampleBody, future, send } from "./cases.js";

/** Operations of the seven APIs, paths x methods (20 + 8 + 4 + 4 + 3 + 4 + 3). */
const EXPECTED_OPERATIONS = 46;

it("walks every operation of the registry", () => {
  expect(bundled.reduce((n, { doc }) => n + operations(doc).length, 0)).toBe(EXPECTED_OPERATIONS);
});

type ResourceDescription = Awaited<ReturnType<ReturnType<typeof sandboxControl>["describe"]>>["resources"][number];

/** Each status the resource's lifecycle reaches from `start`, with the shortest path of actions to it. */
function reachable(resource: ResourceDescription, start: string): Map<string, string[]> {
  const found = new Map<string, string[]>([[start, []]]);
  const final = new Set(resource.lifecycle?.final ?? []);
  const queue = [start];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const move of resource.lifecycle?.actions ?? []) {
      const leaves = move.from === "*" ? !final.has(from) : (move.from as string[]).includes(from);
      if (!leaves || found.has(move.to)) continue;
      found.set(move.to, [...found.get(from)!, move.action]);
      queue.push(move.to);
    }
  }
  return found;
}

const tail = (ref: string | undefined, root: string) => (ref?.startsWith(root) ? ref.slice(root.length) : undefined);

describe.each(bundled.map((b) => [b.entry.alias, b] as const))("%s", (alias, { entry, doc }) => {
  it("answers every operation from state with no sl-violations, in every status", async () => {
    const declaration = declarationOf(entry, doc);
    const mock = await startMock(entry, { port: 0, sandbox: true });
    let credential = `walk-${randomUUID()}`;
    let control = sandboxControl(mock.url, credential);
    const problems: string[] = [];
    const check = (what: string, answer: { status: number; violations: unknown[] }) => {
      if (answer.status < 200 || answer.status >= 300) problems.push(`${what}: status ${answer.status}`);
      if (answer.violations.length > 0) problems.push(`${what}: ${JSON.stringify(answer.violations)}`);
    };
    try {
      const all = operations(doc);
      const declared = (id: string) => declaration?.operations[id];
      for (const op of all.filter((o) => declared(o.operationId)?.kind === "create")) {
        check(`create ${op.operationId}`, await send(mock.url, alias, op.operationId, { credential, body: future(exampleBody(doc, op)) }));
      }
      const state = await control.state();
      // Where the walk of statuses has put a fresh record: the id the readers ask for.
      const current: Record<string, string> = {};
      const idOf = (resource: string) => current[resource] ?? state.resources[resource]?.[0]?.id;
      const request = async (operationId: string) => {
        const op = all.find((o) => o.operationId === operationId)!;
        const d = declared(operationId);
        const body = exampleBody(doc, op);
        const path: Record<string, string> = {};
        const query: Record<string, string> = {};
        let id = d ? idOf(d.resource) : undefined;
        if (d?.status?.from && id !== undefined) {
          // An update that moves only from some statuses: a record in the first of them, fresh if this one has moved on.
          const wanted = d.status.from[0];
          const status = (await control.record(d.resource, id)).status!;
          if (status !== wanted) {
            const resource = (await control.describe()).resources.find((r) => r.name === d.resource)!;
            let path = reachable(resource, status).get(wanted);
            if (!path) {
              const create = all.find(
                (o) => declared(o.operationId)?.kind === "create" && declared(o.operationId)?.resource === d.resource,
              )!;
              await send(mock.url, alias, create.operationId, { credential, body: future(exampleBody(doc, create)) });
              const record = (await control.state()).resources[d.resource]!.at(-1)!;
              id = current[d.resource] = record.id;
              path = reachable(resource, record.status!).get(wanted) ?? [];
            }
            for (const action of path) await control.act(d.resource, id, action);
          }
        }
        if (d && id !== undefined) {
          const refs = [d.id, ...(d.filter ?? []).filter((f) => f.notFound).map((f) => f.value as string)];
          for (const ref of refs) {
            const param = tail(ref, "$params.");
            const member = tail(ref, "$request.");
            if (param) (op.parameters.some((p) => p.value.in === "path" && p.value.name === param) ? path : query)[param] = id;
            if (member && body && typeof body === "object") body[member] = id;
          }
        }
        return send(mock.url, alias, operationId, { credential, path, query, body });
      };
      // The creates ran above (twice, a reference the service keeps unique would error item by item).
      const ordered = [
        ...all.filter((o) => !["create", "delete"].includes(declared(o.operationId)?.kind ?? "")),
        ...all.filter((o) => declared(o.operationId)?.kind === "delete"),
      ];
      for (const op of ordered) check(op.operationId, await request(op.operationId));

      const description = await control.describe();
      for (const resource of description.resources.filter((r) => r.status_field)) {
        const readers = Object.values(declaration!.operations).filter(
          (o) => o.resource === resource.name && (o.kind === "read" || o.kind === "list"),
        );
        // Every status the lifecycle reaches from where each create leaves a record, each on a fresh
        // record (under a fresh credential) by the shortest path of actions.
        const creates = all.filter(
          (o) => declared(o.operationId)?.kind === "create" && declared(o.operationId)?.resource === resource.name,
        );
        const seen = new Set<string>();
        for (const create of creates) {
          const fresh = async () => {
            credential = `walk-${randomUUID()}`;
            control = sandboxControl(mock.url, credential);
            check(
              `create ${create.operationId}`,
              await send(mock.url, alias, create.operationId, { credential, body: future(exampleBody(doc, create)) }),
            );
            const record = (await control.state()).resources[resource.name]?.at(-1);
            if (record) current[resource.name] = record.id;
            return record;
          };
          const first = await fresh();
          if (!first) {
            problems.push(`${resource.name}: ${create.operationId} made no record to move`);
            continue;
          }
          for (const [status, path] of reachable(resource, first.status!)) {
            if (seen.has(status)) continue;
            seen.add(status);
            const { id } = (await fresh())!;
            for (const action of path) await control.act(resource.name, id, action);
            expect((await control.record(resource.name, id)).status).toBe(status);
            for (const reader of readers) check(`${reader.operationId} in ${status}`, await request(reader.operationId));
          }
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
