/**
 * Every row of the test-value table in docs/guides/sandbox-test-values.md, run as a partner would: the
 * operation's example request with the row's value, sent with a fresh credential; after the row's
 * delay on the sandbox clock, the new record has the row's status (or the answer has the row's HTTP
 * status). The table and the declarations must agree: each row is a declared test value (or a
 * declared refusal), and every declared test value has its row.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../src/document/index.js";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi, repoRoot } from "../../../src/registry.js";
import { declarationOf } from "../../../src/sandbox/declaration.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { api, exampleBody, future, send } from "./cases.js";

interface Row {
  alias: string;
  operationId: string;
  member: string;
  value: string;
  outcome: string;
  seconds: number;
}

function tableRows(): Row[] {
  const lines = readFileSync(join(repoRoot, "docs/guides/sandbox-test-values.md"), "utf8").split("\n");
  const marker = lines.findIndex((line) => line.startsWith("<!-- tests/e2e/sandbox/test-values.test.ts"));
  if (marker === -1) throw new Error("docs/guides/sandbox-test-values.md has no test-value table marker");
  const rows: Row[] = [];
  for (const line of lines.slice(marker + 3)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1] ?? "";
    const [member, ...value] = code(cells[2]).split(": ");
    const when = cells[4];
    rows.push({
      alias: code(cells[0]),
      operationId: code(cells[1]),
      member,
      value: value.join(": ").replace(/^"(.*)"$/, "$1"),
      outcome: code(cells[3]),
      seconds: when === "at once" ? 0 : Number(/^(\d+) s later$/.exec(when)?.[1] ?? Number.NaN),
    });
  }
  return rows;
}

const rows = tableRows();

/** `body` with `path` (dotted; `name[]` for every element of a list) set to `value`. */
function setMember(body: any, path: string, value: string): any {
  const [head, ...rest] = path.split(".");
  const out = { ...(body ?? {}) };
  if (head.endsWith("[]")) {
    const name = head.slice(0, -2);
    out[name] = (out[name] as any[]).map((item) => setMember(item, rest.join("."), value));
  } else out[head] = rest.length === 0 ? value : setMember(out[head], rest.join("."), value);
  return out;
}

const mocks = new Map<string, Promise<MockServer>>();
const mockOf = (alias: string) => {
  if (!mocks.has(alias)) mocks.set(alias, startMock(findApi(alias), { port: 0, sandbox: true }));
  return mocks.get(alias)!;
};
afterAll(async () => {
  for (const mock of mocks.values()) await (await mock).close();
});

it("the table lists every declared test value, and each row is one", () => {
  const declared: string[] = [];
  for (const alias of new Set(rows.map((r) => r.alias))) {
    const entry = findApi(alias);
    const declaration = declarationOf(entry, loadDocument(entry.bundlePath))!;
    for (const resource of Object.values(declaration.resources))
      for (const value of resource.testValues) declared.push(`${alias} ${value.operation} ${value.value}`);
  }
  expect(rows.length).toBeGreaterThanOrEqual(declared.length);
  for (const row of rows) {
    expect(Number.isNaN(row.seconds), `${row.alias} ${row.operationId}: the When cell`).toBe(false);
    expect(row.member && row.value && row.outcome, JSON.stringify(row)).toBeTruthy();
  }
  // Each declared value appears in the table (the operation and the value the declaration compares with).
  for (const entry of declared) {
    expect(
      rows.some((r) => `${r.alias} ${r.operationId} ${r.value}` === entry),
      `${entry} has no row in docs/guides/sandbox-test-values.md`,
    ).toBe(true);
  }
});

describe.each(rows.map((r) => [`${r.alias} ${r.operationId} ${r.member}: ${r.value}`, r] as const))("%s", (_, row) => {
  it(`gives ${row.outcome}${row.seconds > 0 ? ` ${row.seconds} s later` : ""}`, async () => {
    const mock = await mockOf(row.alias);
    const credential = `values-${randomUUID()}`;
    const control = sandboxControl(mock.url, credential);
    const { doc, op } = api(row.alias);
    const body = setMember(future(exampleBody(doc, op(row.operationId))), row.member, row.value);
    const answer = await send(mock.url, row.alias, row.operationId, { credential, body });
    if (/^\d{3}$/.test(row.outcome)) {
      expect(answer.status).toBe(Number(row.outcome));
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    const resource = (await control.describe()).operations.find((o) => o.operation_id === row.operationId)!.resource!;
    const record = (await control.state()).resources[resource]!.at(-1)!;
    if (row.seconds > 0) {
      expect(record.status).not.toBe(row.outcome);
      await control.advanceClock(row.seconds);
    }
    expect((await control.record(resource, record.id)).status).toBe(row.outcome);
    // A moved record has the test value's event; a record created in its status (disbursement) has none.
    const events = await control.events({ resource, resourceId: record.id });
    if (events.length > 0) expect(events.at(-1)).toMatchObject({ to: row.outcome, cause: expect.stringMatching(/^test value /) });
  });
});
