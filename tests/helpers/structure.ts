/**
 * The parsing behind the structure tests (tests/unit/src/structure.test.ts over all of src/,
 * tests/unit/src/mock/structure.test.ts for the mock's own rule): a folder's TypeScript modules
 * parsed with the TypeScript compiler, the modules each one imports (static, re-exports, type-only,
 * dynamic `import()` and `import("...")` types), the import circles among them, and the functions
 * and files longer than a limit. Every finding names `file:line`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import ts from "typescript";

/** Parsed modules by path relative to the folder they were read from (posix separators). */
export type Sources = Map<string, ts.SourceFile>;

/** Parses `text` as the module `name` (for the walk's own tests). */
export const parse = (name: string, text: string): ts.SourceFile => ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);

/** Every `.ts` module under `dir`, its subfolders included (no `.d.ts`), by posix path relative to `dir`. */
export function sources(dir: string): Sources {
  const files: Sources = new Map();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".d.ts")) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path).split(sep).join("/");
    files.set(name, parse(name, readFileSync(path, "utf8")));
  }
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** One import of a module: the module it names (resolved against the importer, `.js` read as `.ts`) and the line it is on. */
export interface Import {
  target: string;
  line: number;
}

/**
 * The relative modules `file` imports or re-exports from (`./x.js`, `../y/z.js`), type-only ones,
 * dynamic `import()` calls and `import("...")` types included, each resolved to a path relative to
 * the same folder `file`'s name is relative to.
 */
export function importsOf(file: ts.SourceFile): Import[] {
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) specifier = node.argument.literal;
    if (specifier && ts.isStringLiteralLike(specifier) && /^\.\.?\//.test(specifier.text)) {
      const target = posix.normalize(posix.join(dirname(file.fileName), specifier.text)).replace(/\.js$/, ".ts");
      found.push({ target, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Each module's imports of modules among `files` (imports of anything else, JSON or outside the folder, left out). */
export function importGraph(files: Sources): Map<string, Import[]> {
  return new Map([...files].map(([name, file]) => [name, importsOf(file).filter((i) => files.has(i.target))]));
}

/** Every import circle of `graph` (module -> the modules it imports), each as the path that closes it. */
export function circles(graph: Map<string, string[]>): string[][] {
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

/** The import circles of `files`, each as `file:line` of the import that leaves its first module and the rule. */
export function circleFindings(files: Sources): string[] {
  const graph = importGraph(files);
  const targets = new Map([...graph].map(([name, imports]) => [name, [...new Set(imports.map((i) => i.target))]]));
  return circles(targets).map((path) => {
    const line = graph.get(path[0])!.find((i) => i.target === path[1])!.line;
    return `${path[0]}:${line} import circle: ${path.join(" -> ")}`;
  });
}

/** Functions (declarations, expressions, arrows, methods, accessors) longer than `max` lines, as `file:line name: n lines, over max`. */
export function longFunctions(files: Sources, max: number): string[] {
  const found: string[] = [];
  for (const [name, file] of files) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const label = "name" in node && node.name ? node.name.getText(file) : "(anonymous)";
        const lines = end - start + 1;
        if (lines > max) found.push(`${name}:${start + 1} function ${label}: ${lines} lines, over ${max}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** The lines of a text as an editor numbers them: a final newline ends the last line, it starts none. */
export const lineCount = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

/** Files longer than `max` lines, as `file:line (the first line over) file: n lines, over max`. */
export function longFiles(files: Sources, max: number): string[] {
  const found: string[] = [];
  for (const [name, file] of files) {
    const lines = lineCount(file.text);
    if (lines > max) found.push(`${name}:${max + 1} file: ${lines} lines, over ${max}`);
  }
  return found;
}
