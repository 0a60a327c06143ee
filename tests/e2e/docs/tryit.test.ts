/**
 * The reference pages' request console ("Test Request"), used as a reader uses it, against sandboxes
 * started here on free ports (the page opened with `?port=N`, which puts that server first): for
 * every API whose sandbox declaration has a `create` and a `list` operation (at least three), the
 * create is sent from its page with a credential typed into the console, the answer shown is the
 * sandbox's (a new id), then the list is sent from the same page and shows that id: the record is
 * there. On the control API's page, an error rule is queued and then listed. A request without the
 * credential shows the 401 and its `sl-violations` header (the mocks' CORS exposes it). Nothing is
 * requested outside the machine but the site and the sandbox (./setup.ts aborts anything else).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slug } from "../../../scripts/docs/guides.js";
import { type Doc, findOperation, loadDocument, type Operation, securitySchemes } from "../../../src/document/index.js";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { type ApiEntry, repoRoot } from "../../../src/registry.js";
import { registry } from "../../helpers/registry.js";
import type { Locator } from "playwright-core";
import type { PageRecord } from "./browser.js";
import { renderedTexts, SCREENSHOTS, textMatching } from "./browser.js";
import { type DocsSite, release, useDocsSite } from "./setup.js";

interface Declaration {
  resources: Record<string, { id: { field: string; prefix: string } }>;
  operations: Record<string, { resource: string; kind: string }>;
}

interface Flow {
  entry: ApiEntry;
  doc: Doc;
  create: Operation;
  list: Operation;
  id: { field: string; prefix: string };
}

/** Every API whose declaration has a create and a list of one resource, the list taking no required parameter. */
const flows: Flow[] = registry.flatMap((entry) => {
  let declaration: Declaration;
  try {
    declaration = parse(readFileSync(join(dirname(entry.rootPath), "sandbox.yaml"), "utf8")) as Declaration;
  } catch {
    return [];
  }
  const doc = loadDocument(entry.bundlePath);
  const ops = Object.entries(declaration.operations ?? {});
  for (const [createId, create] of ops.filter(([, op]) => op.kind === "create")) {
    const list = ops.find(
      ([id, op]) =>
        op.kind === "list" &&
        op.resource === create.resource &&
        !(findOperation(doc, id)?.value.parameters ?? []).some((p: { required?: boolean }) => p.required) &&
        !findOperation(doc, id)?.value.requestBody,
    );
    const createOp = findOperation(doc, createId);
    if (list && createOp)
      return [{ entry, doc, create: createOp, list: findOperation(doc, list[0])!, id: declaration.resources[create.resource].id }];
  }
  return [];
});

let site: DocsSite;
const sandboxes = new Map<string, MockServer>();
beforeAll(async () => {
  site = await useDocsSite();
  for (const alias of new Set([...flows.map((f) => f.entry.alias), "pay@1.3.0"]))
    sandboxes.set(alias, await startMock(alias, { sandbox: true, port: 0 }));
}, 600_000);
afterAll(async () => {
  await Promise.all([...sandboxes.values()].map((s) => s.close()));
  await release();
});

/** The console dialog's selector. */
const DIALOG = "[role=dialog]";

/** Scalar's route of an operation (the page's hash) and its section's element id. */
const route = (op: Operation) => `tag/${slug(String(op.value.tags?.[0] ?? "default"))}/${op.method.toUpperCase()}${op.path}`;

/** Opens the operation's console from its section: the dialog. */
async function openConsole(record: PageRecord, op: Operation) {
  const { page } = record;
  await page.keyboard.press("Escape"); // a console left open by the previous request
  // The operation's route, and its section once rendered (waited for in the page).
  await renderedTexts(page, [`api-1/${route(op)}`], route(op));
  const section = page.locator(`[id="api-1/${route(op)}"]`);
  await section
    .getByRole("button", { name: /test request/i })
    .first()
    .click();
  const dialog = page.locator(DIALOG);
  await dialog.waitFor();
  await textMatching(page, DIALOG, new RegExp(`Server:\\s*\\S*${op.path.replace(/[{}]/g, "\\$&")}`));
  return dialog;
}

/** Types the credential into the console's authentication field (a bearer token or an API key). */
async function typeCredential(dialog: Locator, credential: string) {
  const field = dialog.locator("input[id^='scalar-client']:not([type=checkbox])").first();
  await field.fill(credential);
}

/** Sends the console's request and waits for the answer's status; the dialog's text then. */
async function send(dialog: Locator, status: number): Promise<string> {
  await dialog.getByRole("button", { name: /^Send/ }).first().click();
  return textMatching(dialog.page(), DIALOG, new RegExp(`Status:\\s*${status}\\b`));
}

async function onPage<T>(path: string, sandbox: MockServer, work: (record: PageRecord) => Promise<T>): Promise<T> {
  const record = await site.page([sandbox.url]);
  try {
    await record.page.goto(new URL(`${path}?port=${sandbox.port}`, site.server.url).href);
    await record.page.locator("[id^='api-1/tag/']").first().waitFor({ state: "attached" });
    const result = await work(record);
    await record.settled();
    expect(record.foreign(), `${path}: requests to hosts other than the site and the sandbox`).toEqual(
      record.foreign().filter((url) => url.startsWith(sandbox.url)),
    );
    expect(
      record.errors.filter((e) => !/HTTP 401|status of 401/.test(e)),
      `${path}: errors`,
    ).toEqual([]);
    return result;
  } finally {
    await record.close();
  }
}

describe("the reference pages' request console, against a running sandbox", () => {
  it("finds at least three APIs whose sandbox creates and lists a record", () => {
    expect(flows.map((f) => f.entry.alias).length).toBeGreaterThanOrEqual(3);
  });

  it.concurrent.each(flows.map((f) => [f.entry.alias, f] as const))(
    "%s: the create sent from the page makes a record, and the list sent from the page shows it",
    async (alias, flow) => {
      const sandbox = sandboxes.get(alias)!;
      const credential = `docs-console-${flow.entry.service}`;
      const page = `apis/${flow.entry.service}/${flow.entry.release}/index.html`;
      await onPage(page, sandbox, async (record) => {
        const created = await openConsole(record, flow.create);
        // The console's first server is the sandbox named by ?port=.
        expect(await created.textContent()).toContain(`${sandbox.url}${flow.create.path}`);
        await typeCredential(created, credential);
        const answer = await send(created, Number(Object.keys(flow.create.value.responses).find((s) => /^2/.test(s))));
        const id = new RegExp(`"${flow.id.field}":\\s*"(${flow.id.prefix}[^"]+)"`).exec(answer)?.[1];
        expect(id, `${alias}: the id of the record in the console's answer`).toBeDefined();
        await record.page.screenshot({ path: join(SCREENSHOTS, `console-${flow.entry.service}-${flow.entry.release}-create.png`) });

        const listed = await openConsole(record, flow.list);
        const field = listed.locator("input[id^='scalar-client']:not([type=checkbox])").first();
        if ((await field.inputValue()) !== credential) await typeCredential(listed, credential);
        expect(await send(listed, 200), `${alias}: the list shows the record created from the page`).toContain(id);
        await record.page.screenshot({ path: join(SCREENSHOTS, `console-${flow.entry.service}-${flow.entry.release}-list.png`) });
      });
      // Read back outside the browser too: the sandbox holds it for that credential.
      const schemes = securitySchemes(flow.doc, flow.list);
      const header = schemes.some((s) => s.type === "apiKey")
        ? { [schemes.find((s) => s.type === "apiKey")!.parameter!]: credential }
        : { authorization: `Bearer ${credential}` };
      const state = await fetch(`${sandbox.url}/_sandbox/state`, { headers: header });
      expect(state.status).toBe(200);
    },
    300_000,
  );

  it("the control API's page queues an error rule on a sandbox, then lists it", async () => {
    const sandbox = sandboxes.get("pay@1.3.0")!;
    const control = loadDocument(join(repoRoot, "src/sandbox/openapi.yaml"));
    await onPage("sandbox/index.html", sandbox, async (record) => {
      const queue = await openConsole(record, findOperation(control, "createError")!);
      await typeCredential(queue, "docs-console-control");
      const answer = await send(queue, 201);
      const id = /"id":\s*"([^"]+)"/.exec(answer)?.[1];
      expect(id, "the queued rule's id in the console's answer").toBeDefined();
      const list = await openConsole(record, findOperation(control, "listErrors")!);
      const field = list.locator("input[id^='scalar-client']:not([type=checkbox])").first();
      if ((await field.inputValue()) !== "docs-console-control") await typeCredential(list, "docs-console-control");
      expect(await send(list, 200)).toContain(id);
      await record.page.screenshot({ path: join(SCREENSHOTS, "console-sandbox-control.png") });
    });
  }, 300_000);

  it("a request that breaks the contract shows its status and the sl-violations header in the console", async () => {
    const sandbox = sandboxes.get("pay@1.3.0")!;
    const pay = flows.find((f) => f.entry.alias === "pay@1.3.0") ?? flows[0];
    await onPage(`apis/${pay.entry.service}/${pay.entry.release}/index.html`, sandbox, async (record) => {
      const dialog = await openConsole(record, pay.list);
      await typeCredential(dialog, ""); // no credential: the contract's 401
      await send(dialog, 401);
      await dialog
        .getByText(/Response Headers/)
        .first()
        .click();
      // The header as the mock sent it: Prism's finding for the missing credential.
      const shown = await textMatching(record.page, DIALOG, /sl-violations/i, 30_000);
      expect(shown).toMatch(/sl-violations\s*\[\{"location":\["request"\],"severity":"Error","code":401/i);
      await record.page.screenshot({ path: join(SCREENSHOTS, "console-sl-violations.png") });
    });
  }, 300_000);
});
