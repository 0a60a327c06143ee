/**
 * The shipped sandbox declarations (specs/<service>/<release>/sandbox.yaml) are read by partners, in
 * the package and through `GET /_sandbox`: their texts (conventions, descriptions, comments) name the
 * provider's documents by title and section, never by the maintainers' shorthand `<document>:<line>`
 * (the `source:` members, which cite files for maintainers, are turned into titles by src/sources.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";

const TITLES = [
  "Pay Service Interface",
  "Payment Initiation, Statement Retrieval and Balance Retrieval Interface",
  "Disbursement and Account Opening Interface",
];

const declarations = readdirSync(join(repoRoot, "specs"), { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith("sandbox.yaml"))
  .map((path) => `specs/${path}`)
  .sort();

it("every API's declaration is checked", () => {
  expect(declarations).toHaveLength(7);
});

it.each(declarations)("%s: texts cite documents by title, not by shorthand", (file) => {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const shorthand = lines.flatMap((line, i) => (/(^|[^\w.])\d{3}:\d+/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
  expect(shorthand).toEqual([]);
  const text = lines.join("\n");
  expect(TITLES.some((title) => text.includes(`${title}, "`))).toBe(true);
});
