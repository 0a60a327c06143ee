/**
 * The shape of src/mock/ that keeps its server readable: no module of
 * the folder imports another in a circle (type imports count: a circle of types is still a circle
 * for a reader), no function is longer than 150 lines, and the sandbox attaches through the one
 * declared interface (MockHooks in src/mock/types.ts) without importing the server.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";

const MOCK = join(repoRoot, "src/mock");
const MAX_FUNCTION_LINES = 150;

function sources(dir: string): Map<string, ts.SourceFile> {
  const files = new Map<string, ts.SourceFile>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
    files.set(name, ts.createSourceFile(name, readFileSync(join(dir, name), "utf8"), ts.ScriptTarget.Latest, true));
  }
  return files;
}

/** The modules of the same folder a file imports or re-exports from (`./x.js`), type-only ones included. */
function localImports(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    if (specifier && ts.isStringLiteral(specifier) && /^\.\/[^/]+\.js$/.test(specifier.text)) {
      found.push(specifier.text.slice(2).replace(/\.js$/, ".ts"));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every import circle among `graph`'s modules, each as the path that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const walk = (name: string) => {
    state.set(name, "open");
    stack.push(name);
    for (const next of graph.get(name) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(name, "done");
  };
  for (const name of graph.keys()) if (!state.has(name)) walk(name);
  return found;
}

/** Functions (declarations, expressions, arrows, methods) longer than `max` lines, as `file:line name (n lines)`. */
function longFunctions(files: Map<string, ts.SourceFile>, max: number): string[] {
  const found: string[] = [];
  for (const [name, file] of files) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const label = "name" in node && node.name ? node.name.getText(file) : "(anonymous)";
        if (end - start + 1 > max) found.push(`${name}:${start + 1} ${label} (${end - start + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe("src/mock's structure", () => {
  const files = sources(MOCK);

  it("finds a circle when there is one (the walk itself)", () => {
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", ["a.ts"]],
          ["d.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
          ["c.ts", ["a.ts", "b.ts"]],
        ]),
      ),
    ).toEqual([]);
    const parsed = ts.createSourceFile(
      "x.ts",
      'import type { A } from "./a.js";\nexport { b } from "./b.js";\ntype C = import("./c.js").C;',
      ts.ScriptTarget.Latest,
      true,
    );
    expect(localImports(parsed)).toEqual(["a.ts", "b.ts", "c.ts"]);
  });

  it("has no import circle", () => {
    const graph = new Map([...files].map(([name, file]) => [name, localImports(file).filter((target) => files.has(target))]));
    expect(graph.get("server.ts")?.length).toBeGreaterThan(3);
    expect(circles(graph)).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = ts.createSourceFile(
      "long.ts",
      `function f() {\n${"  call();\n".repeat(MAX_FUNCTION_LINES)}}\n`,
      ts.ScriptTarget.Latest,
      true,
    );
    expect(longFunctions(new Map([["long.ts", long]]), MAX_FUNCTION_LINES)).toEqual([`long.ts:1 f (${MAX_FUNCTION_LINES + 2} lines)`]);
    expect(longFunctions(files, MAX_FUNCTION_LINES)).toEqual([]);
  });

  it("lets the sandbox attach through MockHooks (types.ts) alone, importing nothing else of the mock", () => {
    const sandbox = readFileSync(join(repoRoot, "src/sandbox/index.ts"), "utf8");
    const fromMock = [...sandbox.matchAll(/from "\.\.\/mock\/([^"]+)"/g)].map((match) => match[1]);
    expect(fromMock).toEqual(["types.js"]);
    expect(sandbox).toMatch(/import type \{ MockHooks \} from "\.\.\/mock\/types\.js"/);
    // The shared types module imports nothing of the mock: every stage can import it.
    expect(localImports(files.get("types.ts")!)).toEqual([]);
  });
});
