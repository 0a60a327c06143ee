/**
 * The shape of src/sandbox/ beyond the rules every folder of src/ keeps (no import circle, no long
 * function or file: tests/unit/src/structure.test.ts): the store is below everything (it imports no
 * stage, handler or delivery), every request reaches a state through StateStore (the memory store is
 * made in one place), the engine's context imports no stage, no stage imports the pipeline, each
 * control handler is reachable alone (it imports no other handler), and the declaration check's
 * code (start.ts CHECKER_MODULES, whose bytes decide whether a check is run again) is every module of
 * the sandbox that the check imports.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { CHECKER_MODULES } from "../../../../src/sandbox/start.js";

const SANDBOX = join(repoRoot, "src/sandbox");

/** Every .ts module under `dir`, by its path relative to src/sandbox. */
function modules(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...modules(path));
    else if (name.endsWith(".ts")) found.push(relative(SANDBOX, path));
  }
  return found;
}

/** The modules a module imports or re-exports from by a relative path (type imports included), relative to src/sandbox. */
function imports(module: string): string[] {
  const file = join(SANDBOX, module);
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal as ts.Expression;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith(".")) {
      found.push(relative(SANDBOX, resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts"))));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = modules(SANDBOX);
const graph = new Map(all.map((module) => [module, imports(module)]));
const under = (folder: string) => all.filter((module) => module.startsWith(`${folder}/`));

/** The modules `module` imports, directly or not, within src/sandbox. */
function closure(module: string): Set<string> {
  const seen = new Set<string>();
  const walk = (at: string) => {
    for (const next of graph.get(at) ?? []) {
      if (seen.has(next) || next.startsWith("..")) continue;
      seen.add(next);
      walk(next);
    }
  };
  walk(module);
  return seen;
}

describe("src/sandbox's structure", () => {
  it("reads the imports of the folder, type imports and re-exports included (the walk itself)", () => {
    expect(graph.get("index.ts")).toEqual(expect.arrayContaining(["control/index.ts", "engine/run.ts", "../mock/types.ts"]));
    expect(graph.get("engine/move.ts")).toEqual(expect.arrayContaining(["store/types.ts", "engine/events.ts"]));
    expect(closure("engine/run.ts").has("store/state.ts")).toBe(true);
    expect(under("control/operations").length).toBeGreaterThan(10);
  });

  it("keeps the store below everything: no module of store/ imports the engine, the control API or the delivery", () => {
    for (const module of under("store"))
      expect([module, [...closure(module)].filter((m) => /^(engine|control|delivery)\//.test(m))]).toEqual([module, []]);
  });

  it("reaches states through StateStore alone: the memory store is made in the engine's context, nowhere else", () => {
    const users = all.filter((module) => !module.startsWith("store/") && graph.get(module)!.includes("store/memory.ts"));
    expect(users).toEqual(["engine/context.ts"]);
  });

  it("keeps the engine's stages functions of its context: the context imports no stage, no stage imports the pipeline or the maker", () => {
    expect(graph.get("engine/context.ts")!.filter((m) => m.startsWith("engine/"))).toEqual([]);
    const tops = ["engine/run.ts", "engine/create.ts"];
    for (const module of under("engine").filter((m) => !tops.includes(m)))
      expect([module, graph.get(module)!.filter((m) => tops.includes(m))]).toEqual([module, []]);
  });

  it("has each control handler reachable alone: no handler imports another", () => {
    const handlers = under("control/operations").filter((m) => m !== "control/operations/index.ts");
    for (const module of handlers)
      expect([module, [...closure(module)].filter((m) => m.startsWith("control/operations/"))]).toEqual([module, []]);
  });

  it("names every module of the sandbox the declaration check imports in the code that decides whether it runs again", () => {
    const checker = new Set(CHECKER_MODULES.filter((m) => m.startsWith("./")).map((m) => `${m.slice(2)}.ts`));
    const needed = new Set([...closure("declaration.ts"), "declaration.ts", "start.ts"]);
    expect([...checker].sort()).toEqual([...needed].sort());
  });
});
