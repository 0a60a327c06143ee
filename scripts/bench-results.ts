/**
 * bench/RESULTS.md as the bench writes it: one section per part, each with what wrote it (the
 * command, its start and end, the load average at both, the machine), and a head that lists those
 * for every section. A run replaces the sections of the parts it ran and keeps the others, so
 * `npm run bench -- --only client` refreshes the client section without erasing the rest; the
 * file's history is git's.
 *
 * Each section is preceded by a marker line holding its record as JSON:
 *
 *     <!-- bench:part client {"command":"npm run bench -- --only client","started":"...",...} -->
 *     ## 3. Client cost
 *     ...
 *
 * The head (everything before the first marker) is rendered from those records on every write, so
 * it never disagrees with the sections. A file without markers was not written by the bench: it is
 * refused rather than overwritten.
 */

/** What wrote one section. */
export interface SectionRecord {
  /** The command line that measured it, as a maintainer would type it. */
  command: string;
  /** ISO 8601 instants of the part's start and end. */
  started: string;
  ended: string;
  /** The 1-minute load average at the part's start and end. */
  load: [number, number];
  /** Cores, CPU model, OS and Node version. */
  machine: string;
  /** The APIs measured (aliases). */
  apis: string[];
  /** The part threw: the section says so. */
  failed?: true;
}

export interface Section {
  part: string;
  record: SectionRecord;
  /** The Markdown of the section, from its `## ` heading on, without a trailing newline. */
  body: string;
}

/** The command line that runs these options, as a maintainer would type it (`--out` left out). */
export function commandLine(
  given: { only?: string[]; duration: number; loadDuration: number; apis?: string[] },
  defaults: { duration: number; loadDuration: number },
): string {
  const args = [
    ...(given.only ? ["--only", given.only.join(",")] : []),
    ...(given.duration !== defaults.duration ? ["--duration", String(given.duration)] : []),
    ...(given.loadDuration !== defaults.loadDuration ? ["--load-duration", String(given.loadDuration)] : []),
    ...(given.apis ? ["--apis", given.apis.join(",")] : []),
  ];
  return args.length ? `npm run bench -- ${args.join(" ")}` : "npm run bench";
}

const MARKER = /^<!-- bench:part ([a-z][a-z0-9-]*) (\{.*\}) -->$/;

/** An error naming the file and the line. */
export class ResultsFileError extends Error {}

/**
 * The sections of a results file's text, in file order. `file` names the file in errors. An empty
 * text has none; a text without any marker, or with a broken one, is an error naming the line.
 */
export function parseResults(text: string, file: string, parts: readonly string[]): Section[] {
  if (text.trim() === "") return [];
  const lines = text.split("\n");
  const sections: Section[] = [];
  let current: { part: string; record: SectionRecord; lines: string[] } | undefined;
  const close = () => {
    if (current) sections.push({ part: current.part, record: current.record, body: current.lines.join("\n").trim() });
  };
  lines.forEach((line, index) => {
    const at = `${file}:${index + 1}`;
    if (!line.startsWith("<!-- bench:part")) {
      current?.lines.push(line);
      return;
    }
    const match = MARKER.exec(line);
    if (!match) throw new ResultsFileError(`${at}: a bench:part marker must read <!-- bench:part <part> {json} -->`);
    const [, part, json] = match;
    if (!parts.includes(part)) throw new ResultsFileError(`${at}: unknown part "${part}"; known: ${parts.join(", ")}`);
    if (sections.some((s) => s.part === part) || current?.part === part) throw new ResultsFileError(`${at}: part "${part}" appears twice`);
    let record: SectionRecord;
    try {
      record = JSON.parse(json) as SectionRecord;
    } catch (error) {
      throw new ResultsFileError(`${at}: the record of part "${part}" is not JSON (${(error as Error).message})`);
    }
    const problem = recordProblem(record);
    if (problem) throw new ResultsFileError(`${at}: the record of part "${part}" ${problem}`);
    close();
    current = { part, record, lines: [] };
  });
  close();
  if (sections.length === 0) {
    throw new ResultsFileError(`${file}:1: not written by the bench (no "<!-- bench:part" marker); move it away or pass --out`);
  }
  return sections;
}

/** What is wrong with a parsed record, or undefined. */
function recordProblem(record: unknown): string | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return "is not an object";
  const r = record as Record<string, unknown>;
  for (const key of ["command", "started", "ended", "machine"] as const) {
    if (typeof r[key] !== "string") return `has no string "${key}"`;
  }
  if (!Array.isArray(r.load) || r.load.length !== 2 || !r.load.every((n) => typeof n === "number")) return 'has no "load" [start, end]';
  if (!Array.isArray(r.apis) || !r.apis.every((a) => typeof a === "string")) return 'has no "apis" list';
  return undefined;
}

/**
 * The sections after a run: those of `fresh` replace the ones of the same part in `existing`, the
 * others are kept; ordered as `parts` lists them. A failed part keeps its earlier section when
 * there is one (the run's exit code and output say it failed; nothing measured before is lost).
 */
export function mergeSections(existing: readonly Section[], fresh: readonly Section[], parts: readonly string[]): Section[] {
  const byPart = new Map(existing.map((s) => [s.part, s]));
  for (const section of fresh) {
    if (section.record.failed && byPart.has(section.part)) continue;
    byPart.set(section.part, section);
  }
  return parts.flatMap((part) => byPart.get(part) ?? []);
}

const minute = (iso: string) => iso.slice(0, 16).replace("T", " ");
const clock = (iso: string) => iso.slice(11, 16);
const title = (body: string) => /^## (.+)$/m.exec(body)?.[1].trim() ?? "";

/** The whole file: the head (rendered from the records) and every section under its marker. */
export function renderResults(sections: readonly Section[]): string {
  const rows = sections.map(({ part, record, body }) => {
    const ended = record.started.slice(0, 10) === record.ended.slice(0, 10) ? clock(record.ended) : minute(record.ended);
    return [
      `${title(body) || part}${record.failed ? " (**failed**)" : ""}`,
      `\`${record.command}\``,
      `${minute(record.started)}-${ended}`,
      `${record.load[0].toFixed(2)} / ${record.load[1].toFixed(2)}`,
      record.machine,
    ];
  });
  const head = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (scripts/bench.ts), never by hand: a run replaces the sections of the parts it",
    "measured and keeps the others (`--only <parts>` picks parts), so each section says below which command wrote it",
    "and when. Every figure is a ratio to a ceiling or baseline measured side by side in the same run, since other work",
    "on the machine slows both alike; the load average (1 minute) at the part's start and end says how busy it was.",
    "Earlier results are in this file's git history.",
    "",
    "| section | command | written (UTC) | load average, start / end | machine |",
    "|---|---|---|---|---|",
    ...rows.map((cells) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`),
  ].join("\n");
  // `>` written as \u003e, so that no text of a record can close the comment.
  const body = sections.map(
    ({ part, record, body }) => `<!-- bench:part ${part} ${JSON.stringify(record).replaceAll(">", "\\u003e")} -->\n${body}`,
  );
  return `${[head, ...body].join("\n\n")}\n`;
}
