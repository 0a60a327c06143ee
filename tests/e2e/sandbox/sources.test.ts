/**
 * What a partner reads of the sandbox names the provider's documents by title (Pay Service
 * Interface; Payment Initiation, Statement Retrieval and Balance Retrieval Interface; Disbursement
 * and Account Opening Interface), never by the file names the declarations cite for maintainers.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { startMock } from "../../../src/mock/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { cite } from "../../../src/sources.js";
import { sandboxControl } from "../../../src/testing/index.js";

const FILE_NAME = /\d{3}_[0-9a-f]{16}\.txt/;
const TITLED =
  /^(Pay Service Interface|Payment Initiation, Statement Retrieval and Balance Retrieval Interface|Disbursement and Account Opening Interface), line \d+$/;

it("cite names a source file's document by its title and keeps the line", () => {
  expect(cite("000_daece66fccfd0511.txt:76")).toBe("Pay Service Interface, line 76");
  expect(cite("see 002_4706a6432e78318c.txt line 91")).toBe("see Disbursement and Account Opening Interface, line 91");
  expect(cite("999_0000000000000000.txt:1")).toBe("999_0000000000000000.txt:1");
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
