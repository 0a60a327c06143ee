/**
 * The sandbox's declarations, and what a partner reads of them, name the provider's documents by
 * title (Pay Service Interface; Payment Initiation, Statement Retrieval and Balance Retrieval
 * Interface; Disbursement and Account Opening Interface) and a line, never by a file name.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { startMock } from "../../../src/mock/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { readFileSync } from "node:fs";
import { declarationPath } from "../../../src/sandbox/declaration-file.js";
import { sandboxControl } from "../../../src/testing/index.js";

const FILE_NAME = /\d{3}_[0-9a-f]{16}\.txt/;
const TITLED_IN_TEXT =
  /source: "(Pay Service Interface|Payment Initiation, Statement Retrieval and Balance Retrieval Interface|Disbursement and Account Opening Interface), line \d+"/;
const TITLED =
  /^(Pay Service Interface|Payment Initiation, Statement Retrieval and Balance Retrieval Interface|Disbursement and Account Opening Interface), line \d+$/;

it.each(loadRegistry().map((entry) => [entry.alias, entry] as const))("%s: the declaration cites documents by title only", (_, entry) => {
  const text = readFileSync(declarationPath(entry), "utf8");
  expect(text).not.toMatch(FILE_NAME);
  expect(text).toMatch(TITLED_IN_TEXT);
});

it.each(loadRegistry().map((entry) => [entry.alias]))("%s: GET /_sandbox cites the documents by title", async (alias) => {
  const mock = await startMock(alias, { port: 0, sandbox: true });
  try {
    const description = await sandboxControl(mock.url, `sources-${randomUUID()}`).describe();
    const text = JSON.stringify(description);
    expect(text).not.toMatch(FILE_NAME);
    const sources = [...text.matchAll(/"source":"([^"]*)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(source).toMatch(TITLED);
  } finally {
    await mock.close();
  }
});
