/**
 * What the declaration tests of this folder share: the fixture API shop@1.0.0 (tests/fixtures/mock)
 * and its declaration (tests/fixtures/sandbox/shop.sandbox.yaml), edits of it written to a scratch
 * folder under .tmp/ (removed after the file's tests), and the check that a problem is refused as
 * `file:line:col member: message` at the line expected.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, expect } from "vitest";
import { type Doc, loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { type Declaration, DeclarationError, loadDeclaration } from "../../../../src/sandbox/declaration.js";
import { type SpecValidator, specValidator } from "../../../../src/validation/spec.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
export const shopDoc: Doc = loadDocument(shop.bundlePath);
export const fixture = readFileSync(join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"), "utf8");

/** `text` with each `from` replaced by its `to`; throws when a `from` is not in it (a case that changes nothing tests nothing). */
export function edit(text: string, ...pairs: Array<[string, string]>): string {
  let out = text;
  for (const [from, to] of pairs) {
    if (from === "" || !out.includes(from)) throw new Error(`the declaration has no ${JSON.stringify(from)}`);
    out = out.replace(from, to);
  }
  return out;
}

/** The part of `text` from the line holding `start` up to the line holding `end` (left out). */
export const linesBetween = (text: string, start: string, end: string) => text.slice(text.indexOf(start), text.indexOf(end));

/** 1-based line of the first line of `text` holding `needle` (a list: the first line holding each part, in turn, from the previous one's). */
export function lineOf(text: string, needle: string | string[]): number {
  const lines = text.split("\n");
  let index = 0;
  for (const part of [needle].flat()) {
    index = lines.findIndex((l, i) => i >= index && l.includes(part));
    if (index < 0) throw new Error(`no line holds ${JSON.stringify(needle)}`);
  }
  return index + 1;
}

/** One status check per document, given to every load (compiling the document's schemas once, as a start does). */
const validators = new WeakMap<Doc, SpecValidator>();
function validatorOf(doc: Doc): SpecValidator {
  let validator = validators.get(doc);
  if (!validator) validators.set(doc, (validator = specValidator(doc)));
  return validator;
}

/** A scratch folder for one test file's declarations, and what loads them. */
export function declarations(name: string) {
  const dir = mkdtempSync(join(repoRoot, ".tmp", `${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;

  /** Writes a declaration; its path, and the name an error shows it by (relative to the package). */
  const write = (text: string) => {
    const path = join(dir, `case-${++files}.yaml`);
    writeFileSync(path, text);
    return { path, shown: relative(repoRoot, path) };
  };
  const load = (text: string, doc: Doc = shopDoc): Declaration => loadDeclaration(write(text).path, doc, validatorOf(doc));

  /** Refusals by document and text: a text checked for several problems is loaded once. */
  const refused = new WeakMap<Doc, Map<string, { message: string; shown: string }>>();
  /** The DeclarationError's message loading `text` against `doc` throws, and the file's name in it. */
  const refusal = (text: string, doc: Doc = shopDoc): { message: string; shown: string } => {
    const known = refused.get(doc)?.get(text);
    if (known) return known;
    const { path, shown } = write(text);
    try {
      loadDeclaration(path, doc, validatorOf(doc));
    } catch (error) {
      expect(error).toBeInstanceOf(DeclarationError);
      const found = { message: (error as Error).message, shown };
      if (!refused.has(doc)) refused.set(doc, new Map());
      refused.get(doc)?.set(text, found);
      return found;
    }
    throw new Error("the declaration loaded");
  };

  /** Asserts the problem `member: message` (and what the message may add in parentheses) is refused at the line of `needle`. */
  const expectProblem = (text: string, needle: string | string[], member: string, message: string, doc: Doc = shopDoc) => {
    const { message: got, shown } = refusal(text, doc);
    const lines = got.split("\n").map((l) => l.trim());
    expect(lines[0]).toBe(`${shown}: invalid sandbox declaration:`);
    const wanted = `${member}: ${message}`;
    const found = lines.find((l) => l.endsWith(` ${wanted}`) || l.includes(` ${wanted} (`));
    expect(found, `${wanted} in\n${got}`).toBeDefined();
    expect(found?.startsWith(`${shown}:${lineOf(text, needle)}:`), `${found} at the line of ${JSON.stringify(needle)}`).toBe(true);
  };

  return { write, load, refusal, expectProblem };
}
