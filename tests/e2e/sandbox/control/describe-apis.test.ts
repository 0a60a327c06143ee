/**
 * GET /_sandbox's description (src/sandbox/control/describe.ts) of every API of the registry, as the
 * wire carries it, against what the partners' guides promise it lists:
 *
 * - docs/guides/sandbox-test-values.md: "`GET /_sandbox` lists every row of this table with its
 *   operation, member and value": each row is one test value of its API, with the member as a
 *   partner writes it (`disbursements[].description` for an item of a list), `after_seconds` only
 *   for a value that waits ("5 s later"), and one outcome: the row's HTTP status (`refuse`), or the
 *   row's status (`status`, or an `action` of the lifecycle that moves to it); no value without its
 *   row;
 * - docs/guides/sandbox.md, "Refusals": each operation's `refusals` (status) and `item_errors`
 *   (code) list the table's rules;
 * - the per-API table of tests/e2e/sandbox/cases.ts (written from the source documents): the
 *   resource and the statuses a test meets, the callback and whether its URL is the one registered through
 *   the control API (`registrable`), an error status the operation declares; and the declaration,
 *   `specs/<service>/<release>/sandbox.yaml`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe as group, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { describe } from "../../../../src/sandbox/control/describe.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { CASES } from "../cases.js";

type Json = any;

const engines = loadRegistry().map((entry) => createEngine(entry, loadDocument(entry.bundlePath)));
afterAll(() => {
  for (const engine of engines) engine.close();
});
/**
 * Each API's description as the answer's body carries it, made in the test that reads it (a mutation
 * tester sees the test that runs the code, not one that runs as the file loads).
 */
const describeAll = () =>
  new Map<string, Json>(engines.map((engine) => [engine.entry.alias, JSON.parse(JSON.stringify(describe(engine)))]));
const of = (described: Map<string, Json>, alias: string): Json => {
  const found = described.get(alias);
  if (!found) throw new Error(`no API ${alias} in the registry`);
  return found;
};

/** The cells of a Markdown table's rows, from the line after `header` to the first line that is not a row. */
function tableAfter(file: string, header: RegExp): string[][] {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const at = lines.findIndex((line) => header.test(line));
  if (at === -1) throw new Error(`${file}: no table whose header matches ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}
const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

group("the test values (docs/guides/sandbox-test-values.md)", () => {
  const rows = tableAfter("docs/guides/sandbox-test-values.md", /^\| API \| Operation \| Send \| Outcome \| When \|$/).map((cells) => {
    const [member, ...value] = codes(cells[2])[0].split(": ");
    return {
      alias: codes(cells[0])[0],
      operation: codes(cells[1])[0],
      member,
      value: value.join(": ").replace(/^"(.*)"$/, "$1"),
      outcome: codes(cells[3])[0],
      seconds: cells[4] === "at once" ? 0 : Number(/^(\d+) s later$/.exec(cells[4])?.[1]),
    };
  });

  it("has the guide's rows", () => {
    expect(rows).toHaveLength(27);
    expect(new Set(rows.map((row) => row.alias))).toEqual(new Set(engines.map((engine) => engine.entry.alias)));
  });

  it("each row is a test value of its API: operation, member as a partner writes it, value, delay and outcome", () => {
    const described = describeAll();
    for (const row of rows) {
      const resources: Json[] = of(described, row.alias).resources;
      const owner = resources.find((r) => r.test_values?.some((v: Json) => v.value === row.value && v.operation_id === row.operation));
      const value = owner?.test_values.find((v: Json) => v.value === row.value && v.operation_id === row.operation);
      const where = `${row.alias} ${row.operation} ${row.value}`;
      expect(value, where).toBeDefined();
      expect(value.member, where).toBe(row.member);
      expect(value.after_seconds, where).toBe(row.seconds === 0 ? undefined : row.seconds);
      const outcomes = ["action", "status", "refuse"].filter((key) => key in value);
      expect(outcomes, where).toHaveLength(1);
      if (/^\d{3}$/.test(row.outcome)) expect(value.refuse, where).toBe(Number(row.outcome));
      else if (value.status !== undefined) expect(value.status, where).toBe(row.outcome);
      else {
        const action = owner.lifecycle.actions.find((a: Json) => a.action === value.action);
        expect(action?.to, where).toBe(row.outcome);
      }
    }
  });

  it("every test value an API lists has its row", () => {
    for (const [alias, description] of describeAll()) {
      const listed = description.resources.flatMap((r: Json) =>
        (r.test_values ?? []).map((v: Json) => `${v.operation_id} ${v.member}: ${v.value}`),
      );
      const table = rows.filter((row) => row.alias === alias).map((row) => `${row.operation} ${row.member}: ${row.value}`);
      expect(listed.sort(), alias).toEqual(table.sort());
    }
  });
});

group("the refusals (docs/guides/sandbox.md)", () => {
  const rows = tableAfter("docs/guides/sandbox.md", /^\| API \| Operation \| Refused when \| Answer \|/);

  it("each rule of an API is listed with its operation: a request's refusal by its status, an item's error by its code", () => {
    // The rows of one API (the others hold for every API: an unknown id, a bound reached).
    const ofAnApi = rows.filter((cells) => codes(cells[0]).length === 1);
    expect(ofAnApi).toHaveLength(12);
    const described = describeAll();
    for (const cells of ofAnApi) {
      const [alias] = codes(cells[0]);
      const status = Number(/^`(\d{3})`/.exec(cells[3])?.[1]);
      const code = /\(`([A-Z_]+)`\)/.exec(cells[3])?.[1];
      for (const operationId of codes(cells[1])) {
        const operation = of(described, alias).operations.find((o: Json) => o.operation_id === operationId);
        const where = `${alias} ${operationId} ${cells[3]}`;
        if (code === undefined)
          expect(
            operation.refusals?.map((r: Json) => r.status),
            where,
          ).toContain(status);
        else
          expect(
            operation.item_errors?.map((r: Json) => r.code),
            where,
          ).toContain(code);
      }
    }
  });
});

group("each API's resource, callback and errors (tests/e2e/sandbox/cases.ts)", () => {
  it("lists the declaration, the resource with the statuses a test meets, the callback and whether its URL is registered", () => {
    const described = describeAll();
    expect(CASES.map((c) => c.alias).sort()).toEqual([...described.keys()].sort());
    for (const c of CASES) {
      const description = of(described, c.alias);
      const [service, release] = c.alias.split("@");
      expect(description.declaration, c.alias).toBe(`specs/${service}/${release}/sandbox.yaml`);
      const resource = description.resources.find((r: Json) => r.name === c.resource);
      expect(resource?.statuses, c.alias).toEqual(expect.arrayContaining([c.initialStatus, c.moveTo]));
      if (c.callback) {
        const callback = resource.callbacks.find((cb: Json) => cb.webhook === c.callback!.webhook);
        expect(callback?.registrable, c.alias).toBe(c.callback.register === "control");
        expect(description.webhooks, c.alias).toContain(c.callback.webhook);
      }
      const operation = description.operations.find((o: Json) => o.operation_id === c.error.operationId);
      expect(operation?.error_statuses, c.alias).toContain(c.error.status);
    }
  });
});
