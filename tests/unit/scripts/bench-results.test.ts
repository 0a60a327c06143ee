/**
 * bench/RESULTS.md as the bench writes it (scripts/bench-results.ts): a run's sections merged into
 * the file, each part's own replaced and the others kept, the head listing the command, time and load
 * average of every section; a file the bench did not write refused, naming the file and line, before
 * `npm run bench` measures anything.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../scripts/bench.js";
import {
  commandLine,
  mergeSections,
  parseResults,
  ResultsFileError,
  renderResults,
  type Section,
  type SectionRecord,
} from "../../../scripts/bench-results.js";
import { scriptInProcess } from "../../helpers/cli.js";

const PARTS = ["throughput", "findings", "sandbox", "client", "pipeline"];
const MACHINE = "2 cores (Test CPU), Linux 6.1, Node v20.0.0";

const record = (command: string, started: string, ended: string, load: [number, number], extra: Partial<SectionRecord> = {}) => ({
  command,
  started,
  ended,
  load,
  machine: MACHINE,
  apis: ["pay@1.3.0", "balance@1.0.0"],
  ...extra,
});

const section = (part: string, body: string, rec: SectionRecord): Section => ({ part, body, record: rec });

const fullRun: Section[] = [
  section(
    "throughput",
    "## 1. Mock throughput\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    record("npm run bench", "2026-11-20T10:00:00.000Z", "2026-11-20T10:20:00.000Z", [1.5, 2.25]),
  ),
  section(
    "sandbox",
    "## 1b. Sandbox mode\n\nsandbox 2.00x",
    record("npm run bench", "2026-11-20T10:20:00.000Z", "2026-11-20T10:30:00.000Z", [2.25, 2]),
  ),
  section(
    "client",
    "## 3. Client cost\n\nclient 0.90x",
    record("npm run bench", "2026-11-20T10:30:00.000Z", "2026-11-20T10:40:00.000Z", [2, 1.75]),
  ),
];

describe("the results file", () => {
  it("renders a head row per section (title, command, time, load, machine) and each section under its marker", () => {
    const text = renderResults(fullRun);
    expect(text.startsWith("# Benchmark results\n")).toBe(true);
    expect(text).toContain(
      `| 1. Mock throughput | \`npm run bench\` | 2026-11-20 10:00-10:20 | 1.50 / 2.25 | ${MACHINE} |\n| 1b. Sandbox mode | \`npm run bench\` | 2026-11-20 10:20-10:30 | 2.25 / 2.00 |`,
    );
    expect(text).toMatch(/^<!-- bench:part client \{.*\} -->\n## 3\. Client cost\n\nclient 0\.90x\n$/m);
    expect(text.endsWith("client 0.90x\n")).toBe(true);
  });

  it("reads back what it writes", () => {
    expect(parseResults(renderResults(fullRun), "RESULTS.md", PARTS)).toEqual(fullRun);
  });

  it("--only: a run's section replaces its part's and keeps the others, in the parts' order", () => {
    const onlyClient = section(
      "client",
      "## 3. Client cost\n\nclient 1.01x",
      record("npm run bench -- --only client", "2026-11-21T08:00:00.000Z", "2026-11-21T08:05:00.000Z", [0.5, 1]),
    );
    const onlyFindings = section(
      "findings",
      "## Findings\n\nfindings table",
      record("npm run bench -- --only findings", "2026-11-21T09:00:00.000Z", "2026-11-21T09:03:00.000Z", [0.75, 0.8]),
    );
    const before = parseResults(renderResults(fullRun), "RESULTS.md", PARTS);
    const after = parseResults(renderResults(mergeSections(before, [onlyClient, onlyFindings], PARTS)), "RESULTS.md", PARTS);
    expect(after.map((s) => s.part)).toEqual(["throughput", "findings", "sandbox", "client"]);
    expect(after[0]).toEqual(fullRun[0]);
    expect(after[2]).toEqual(fullRun[1]);
    expect(after[1]).toEqual(onlyFindings);
    expect(after[3]).toEqual(onlyClient);
    const text = renderResults(after);
    expect(text).toContain("| 3. Client cost | `npm run bench -- --only client` | 2026-11-21 08:00-08:05 | 0.50 / 1.00 |");
    expect(text).toContain("| 1. Mock throughput | `npm run bench` | 2026-11-20 10:00-10:20 | 1.50 / 2.25 |");
    expect(text).not.toContain("client 0.90x");
  });

  it("a failed part keeps the section measured before, and says it failed where there was none", () => {
    const failedClient = section(
      "client",
      "## client\n\n**Failed**: boom",
      record("npm run bench -- --only client,pipeline", "2026-11-22T08:00:00.000Z", "2026-11-22T08:01:00.000Z", [1, 1], { failed: true }),
    );
    const failedPipeline = { ...failedClient, part: "pipeline", body: "## pipeline\n\n**Failed**: boom" };
    const merged = mergeSections(fullRun, [failedClient, failedPipeline], PARTS);
    expect(merged.find((s) => s.part === "client")).toEqual(fullRun[2]);
    expect(merged.find((s) => s.part === "pipeline")).toEqual(failedPipeline);
    expect(renderResults(merged)).toContain("| pipeline (**failed**) | `npm run bench -- --only client,pipeline` |");
  });

  it("names the end's date when a part runs past midnight", () => {
    const late = section(
      "sandbox",
      "## 1b. Sandbox mode\n\nx",
      record("npm run bench", "2026-11-20T23:50:00.000Z", "2026-11-21T00:10:00.000Z", [1, 1]),
    );
    expect(renderResults([late])).toContain("| 2026-11-20 23:50-2026-11-21 00:10 |");
  });

  it("keeps a record's text from closing its marker comment", () => {
    const odd = section(
      "client",
      "## 3. Client cost",
      record("npm run bench -- --apis a-->b", "2026-11-20T10:00:00.000Z", "2026-11-20T10:01:00.000Z", [1, 1]),
    );
    const text = renderResults([odd]);
    const marker = text.split("\n").find((line) => line.startsWith("<!-- bench:part"))!;
    expect(marker.indexOf("-->")).toBe(marker.length - 3);
    expect(parseResults(text, "RESULTS.md", PARTS)[0].record.command).toBe("npm run bench -- --apis a-->b");
  });

  it("an empty file has no sections", () => {
    expect(parseResults("", "RESULTS.md", PARTS)).toEqual([]);
    expect(parseResults("\n\n", "RESULTS.md", PARTS)).toEqual([]);
  });

  it.each([
    ["# Benchmark results\n\nStitched by hand.\n", 'bench/RESULTS.md:1: not written by the bench (no "<!-- bench:part" marker)'],
    ["# R\n\n<!-- bench:part client -->\n## 3\n", "bench/RESULTS.md:3: a bench:part marker must read <!-- bench:part <part> {json} -->"],
    [
      '# R\n\n<!-- bench:part typo {"a":1} -->\n',
      'bench/RESULTS.md:3: unknown part "typo"; known: throughput, findings, sandbox, client, pipeline',
    ],
    ["# R\n<!-- bench:part client {nope} -->\n", 'bench/RESULTS.md:2: the record of part "client" is not JSON'],
    ['# R\n<!-- bench:part client {"command":"x"} -->\n', 'bench/RESULTS.md:2: the record of part "client" has no string "started"'],
  ])("refuses a file the bench did not write, naming the line: %j", (text, message) => {
    expect(() => parseResults(text, "bench/RESULTS.md", PARTS)).toThrow(ResultsFileError);
    expect(() => parseResults(text, "bench/RESULTS.md", PARTS)).toThrow(message);
  });

  it("refuses a part that appears twice", () => {
    const twice = renderResults([fullRun[2], { ...fullRun[2] }].map((s, i) => ({ ...s, body: `## ${i}` })));
    expect(() => parseResults(twice, "R.md", PARTS)).toThrow(/^R\.md:\d+: part "client" appears twice$/);
  });
});

describe("the command a section records", () => {
  const defaults = { duration: 5, loadDuration: 20 };
  it.each([
    [{ duration: 5, loadDuration: 20 }, "npm run bench"],
    [{ only: ["sandbox"], duration: 5, loadDuration: 20 }, "npm run bench -- --only sandbox"],
    [{ only: ["throughput", "findings"], duration: 2, loadDuration: 20 }, "npm run bench -- --only throughput,findings --duration 2"],
    [{ duration: 5, loadDuration: 10, apis: ["statement@1.0.0"] }, "npm run bench -- --load-duration 10 --apis statement@1.0.0"],
  ])("%j: %s", (given, expected) => {
    expect(commandLine(given, defaults)).toBe(expected);
  });
});

describe("npm run bench and a report it did not write", () => {
  it("refuses it before measuring: one line naming the file and line, the hint, exit 2, the file untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-results-"));
    try {
      const out = join(dir, "RESULTS.md");
      const handWritten = "# Benchmark results\n\nStitched by hand from partial runs.\n";
      writeFileSync(out, handWritten);
      const result = await scriptInProcess(main, ["--only", "typecheck", "--out", out]);
      expect(result.code).toBe(2);
      expect(result.stderr).toHaveLength(2);
      expect(result.stderr[0]).toMatch(
        /^error: .*RESULTS\.md:1: not written by the bench \(no "<!-- bench:part" marker\); move it away or pass --out$/,
      );
      expect(result.stderr[1]).toBe("(add --help for usage)");
      expect(readFileSync(out, "utf8")).toBe(handWritten);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
