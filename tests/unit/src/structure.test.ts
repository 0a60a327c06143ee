/**
 * The shape of all of src/ that keeps it readable, folder by folder: no import circle among src/'s
 * modules (across folders too; type imports and dynamic `import()` count: a circle of types or of
 * lazy loads is still a circle for a reader), no function longer than 150 lines, no file longer
 * than 600. Each finding names `file:line` and the rule. The mock's own rule (the sandbox attaches
 * through MockHooks alone) is in tests/unit/src/mock/structure.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import {
  circleFindings,
  circles,
  importGraph,
  importsOf,
  lineCount,
  longFiles,
  longFunctions,
  parse,
  sources,
} from "../../helpers/structure.js";

const SRC = join(repoRoot, "src");
const MAX_FUNCTION_LINES = 150;
const MAX_FILE_LINES = 600;

/** A module's folder under src/ (`sandbox/store/x.ts`: `sandbox`), `.` for a module at src/'s top. */
const folderOf = (name: string) => (name.includes("/") ? name.slice(0, name.indexOf("/")) : ".");

describe("the structure walk", () => {
  it("finds a circle when there is one, and none when there is none", () => {
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
  });

  it("reads static, re-exported, type-only and dynamic imports, resolved across folders", () => {
    const file = parse(
      "cli/x.ts",
      [
        'import type { A } from "./a.js";',
        'export { b } from "../mock/b.js";',
        'type C = import("../proxy/c.js").C;',
        'const d = () => import("../d.js");',
        'import ts from "typescript";',
        'import data from "./data.json";',
      ].join("\n"),
    );
    expect(importsOf(file)).toEqual([
      { target: "cli/a.ts", line: 1 },
      { target: "mock/b.ts", line: 2 },
      { target: "proxy/c.ts", line: 3 },
      { target: "d.ts", line: 4 },
      { target: "cli/data.json", line: 6 },
    ]);
  });

  it("names a circle across folders at the import that leaves its first module", () => {
    const files = new Map([
      ["a/x.ts", parse("a/x.ts", '// x\nimport { y } from "../b/y.js";')],
      ["b/y.ts", parse("b/y.ts", 'const x = () => import("../a/x.js");')],
      ["b/z.ts", parse("b/z.ts", 'import type { Y } from "./y.js";')],
    ]);
    expect(circleFindings(files)).toEqual(["a/x.ts:2 import circle: a/x.ts -> b/y.ts -> a/x.ts"]);
  });

  it("names a function over the limit, and a file over the limit, at their first line", () => {
    const body = "  call();\n".repeat(MAX_FUNCTION_LINES);
    const files = new Map([
      [
        "long.ts",
        parse("long.ts", `// head\nfunction f() {\n${body}}\nconst g = () => {\n${"  call();\n".repeat(MAX_FUNCTION_LINES - 2)}};\n`),
      ],
    ]);
    expect(longFunctions(files, MAX_FUNCTION_LINES)).toEqual([
      `long.ts:2 function f: ${MAX_FUNCTION_LINES + 2} lines, over ${MAX_FUNCTION_LINES}`,
    ]);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    const exactly = new Map([["ok.ts", parse("ok.ts", "x;\n".repeat(MAX_FILE_LINES))]]);
    const over = new Map([["big.ts", parse("big.ts", "x;\n".repeat(MAX_FILE_LINES + 1))]]);
    expect(longFiles(exactly, MAX_FILE_LINES)).toEqual([]);
    expect(longFiles(over, MAX_FILE_LINES)).toEqual([
      `big.ts:${MAX_FILE_LINES + 1} file: ${MAX_FILE_LINES + 1} lines, over ${MAX_FILE_LINES}`,
    ]);
  });
});

describe("src/'s structure", () => {
  const files = sources(SRC);
  const folders = [...new Set([...files.keys()].map(folderOf))].sort();

  it("reads every folder of src/ and the imports between them", () => {
    expect(folders).toEqual(expect.arrayContaining([".", "cli", "client", "mock", "proxy", "callbacks", "workflows", "sandbox"]));
    const graph = importGraph(files);
    // The CLI loads the proxy on first use, across folders: a dynamic import the walk must see.
    expect(graph.get("cli/proxy.ts")?.map((i) => i.target)).toContain("proxy/index.ts");
    expect(graph.get("mock/server.ts")?.length).toBeGreaterThan(3);
  });

  const circlesFound = circleFindings(files);
  const long = [...longFunctions(files, MAX_FUNCTION_LINES), ...longFiles(files, MAX_FILE_LINES)];

  it.each(folders)(
    `src/%s: no import circle through it, no function over ${MAX_FUNCTION_LINES} lines, no file over ${MAX_FILE_LINES}`,
    (folder) => {
      const through = circlesFound.filter((finding) =>
        finding
          .slice(finding.indexOf("import circle: ") + "import circle: ".length)
          .split(" -> ")
          .some((name) => folderOf(name) === folder),
      );
      const own = long.filter((finding) => folderOf(finding.slice(0, finding.indexOf(":"))) === folder);
      expect([...through, ...own]).toEqual([]);
    },
  );
});
