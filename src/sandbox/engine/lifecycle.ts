/**
 * Stage 2, the lifecycle: which status changes a record may take. A resource's lifecycle is its
 * declaration's `status.moves` (../declaration-schema.ts): named moves (`pay`, `fail`, `expire`,
 * `cancel`...) from some statuses to one status, and `status.final`, the statuses no move leaves.
 * Operations, expiry, test values, the clock and the control API all move a record through
 * `findMove`: a move the lifecycle does not allow is refused with a MoveRefused naming the moves
 * allowed from the record's status (the control API answers it 409 problem+json). A resource without
 * `moves` moves freely. What a status may be at all is the resource's declared values, else its
 * schema's (`allowsStatus`, `statusValues`).
 */
import { parsePointer, refPointer } from "../../document/index.js";
import type { MoveDeclaration, ResourceDeclaration } from "../declaration.js";
import { isPlainObject, type Json } from "../values.js";
import type { EngineContext } from "./context.js";

/** A move the lifecycle does not allow; `allowed` are the moves from the record's status. */
export class MoveRefused extends Error {
  override readonly name = "MoveRefused";
  constructor(
    readonly resource: string,
    readonly from: string | undefined,
    readonly wanted: string,
    readonly allowed: Array<{ action: string; to: string }>,
    readonly final: boolean,
  ) {
    const moves = allowed.map((m) => `${m.action} (to ${m.to})`).join(", ");
    super(
      `${resource} cannot go from ${from ?? "(no status)"} ${wanted}: ${
        final
          ? `${from} is final, no move leaves it`
          : allowed.length > 0
            ? `the moves allowed from ${from} are ${moves}`
            : `no move leaves ${from}`
      }`,
    );
  }
}

/** True when `status` is final for the resource. */
export const isFinal = (resource: ResourceDeclaration, status: string | undefined): boolean =>
  status !== undefined && (resource.status?.final ?? []).includes(status);

const leaves = (resource: ResourceDeclaration, move: MoveDeclaration, from: string | undefined): boolean =>
  from !== undefined && (move.from === "*" ? !isFinal(resource, from) : move.from.includes(from));

/** The moves allowed from `from` (none from a final status). */
export function movesFrom(resource: ResourceDeclaration, from: string | undefined): MoveDeclaration[] {
  return Object.values(resource.status?.moves ?? {}).filter((move) => leaves(resource, move, from));
}

/**
 * The move that takes a record of `resource` from `from` by `action`, or to `to`: the declared
 * move, `undefined` when the resource declares no lifecycle (any move goes), or a MoveRefused.
 */
export function findMove(
  resource: ResourceDeclaration,
  from: string | undefined,
  wanted: { action: string } | { to: string },
): MoveDeclaration | undefined {
  const moves = resource.status?.moves;
  if (!moves) {
    if ("action" in wanted) throw new MoveRefused(resource.name, from, `by ${wanted.action}`, [], false);
    return undefined;
  }
  const allowed = movesFrom(resource, from);
  const move = "action" in wanted ? allowed.find((m) => m.name === wanted.action) : allowed.find((m) => m.to === wanted.to);
  if (move) return move;
  throw new MoveRefused(
    resource.name,
    from,
    "action" in wanted ? `by ${wanted.action}` : `to ${wanted.to}`,
    allowed.map((m) => ({ action: m.name, to: m.to })),
    isFinal(resource, from),
  );
}

/** Whether `status` is one `resource` may take (its declared values, else its schema). */
export function allowsStatus(engine: EngineContext, resource: ResourceDeclaration, status: string): boolean {
  if (!resource.status) return false;
  if (resource.status.values) return resource.status.values.includes(status);
  return engine.statusChecks.test(`${refPointer(resource.schema)}/properties/${resource.status.field}`, status);
}

/** The statuses a resource names: its declared values, else its schema's enum (undefined: any string the schema allows). */
export function statusValues(engine: EngineContext, resource: ResourceDeclaration): string[] | undefined {
  if (!resource.status) return undefined;
  if (resource.status.values) return resource.status.values;
  const pointer = refPointer(resource.schema)!;
  let node: Json = engine.doc;
  for (const token of [...parsePointer(pointer), "properties", resource.status.field]) node = node?.[token];
  const collect = (schema: Json, depth = 0): string[] | undefined => {
    if (!isPlainObject(schema) || depth > 8) return undefined;
    if (typeof schema.$ref === "string") {
      let target: Json = engine.doc;
      for (const token of parsePointer(refPointer(schema.$ref) ?? "")) target = target?.[token];
      return collect(target, depth + 1);
    }
    if (Array.isArray(schema.enum)) return schema.enum.map(String);
    if (schema.const !== undefined) return [String(schema.const)];
    for (const key of ["anyOf", "oneOf"]) {
      if (!Array.isArray(schema[key])) continue;
      const parts = schema[key].map((s: Json) => collect(s, depth + 1));
      const found = parts.filter(Boolean).flat() as string[];
      return found.length > 0 ? [...new Set(found)] : undefined;
    }
    return undefined;
  };
  return collect(node);
}
