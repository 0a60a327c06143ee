/**
 * The reference pages' request console ("Test Request"), used as a reader uses it: which APIs have a
 * create and a list to send from their page (`flows`), and the steps a test takes in the console
 * (open an operation's console, type the credential, send and wait for the status). The tests are
 * in site.test.ts, on the one page of each API it opens (with `?port=N` of a sandbox started there).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { slug } from "../../../scripts/docs/guides.js";
import { type Doc, findOperation, loadDocument, type Operation } from "../../../src/document/index.js";
import type { ApiEntry } from "../../../src/registry.js";
import { registry } from "../../helpers/registry.js";
import type { Locator } from "playwright-core";
import type { PageRecord } from "./browser.js";
import { renderedTexts, textMatching } from "./browser.js";

interface Declaration {
  resources: Record<string, { id: { field: string; prefix: string } }>;
  operations: Record<string, { resource: string; kind: string }>;
}

export interface Flow {
  entry: ApiEntry;
  doc: Doc;
  create: Operation;
  list: Operation;
  id: { field: string; prefix: string };
  /** The resource the create makes (the declaration's name, as the control API names it). */
  resource: string;
}

/** Every API whose declaration has a create and a list of one resource, the list taking no required parameter. */
export const flows: Flow[] = registry.flatMap((entry) => {
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
      return [
        {
          entry,
          doc,
          create: createOp,
          list: findOperation(doc, list[0])!,
          id: declaration.resources[create.resource].id,
          resource: create.resource,
        },
      ];
  }
  return [];
});

/** The console dialog's selector. */
export const DIALOG = "[role=dialog]";

/** Scalar's route of an operation (the page's hash) and its section's element id. */
const route = (op: Operation) => `tag/${slug(String(op.value.tags?.[0] ?? "default"))}/${op.method.toUpperCase()}${op.path}`;

/** Opens the operation's console from its section: the dialog. */
export async function openConsole(record: PageRecord, op: Operation) {
  const { page } = record;
  await page.keyboard.press("Escape"); // a console left open by the previous request
  // Closed before the next opens: a click on "Test Request" while the dialog is still closing leaves it hidden.
  await page.locator(DIALOG).waitFor({ state: "hidden" });
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
export async function typeCredential(dialog: Locator, credential: string) {
  const field = dialog.locator("input[id^='scalar-client']:not([type=checkbox])").first();
  await field.fill(credential);
}

/** Sends the console's request and waits for the answer's status; the dialog's text then. */
export async function send(dialog: Locator, status: number): Promise<string> {
  await dialog.getByRole("button", { name: /^Send/ }).first().click();
  return textMatching(dialog.page(), DIALOG, new RegExp(`Status:\\s*${status}\\b`));
}
