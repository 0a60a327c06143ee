/**
 * The written documentation checked as code, in process: the partners' guides (docs/guides/*.md),
 * the README, CONTRIBUTING.md, the decision records (docs/adr/) and the folder READMEs a contributor
 * follows. Read with marked (the parser the docs site renders them with):
 *
 * - every relative link resolves to a file of the repository, and every anchor to a heading of its
 *   target (GitHub's anchors, as the site renders them);
 * - a guide links only what the package ships beside it (other guides, the services' changelogs), or
 *   an absolute URL that is not a placeholder;
 * - every command of a shell block that runs `bank-api-contracts` names a command and options the
 *   CLI has and aliases the registry has, and every `npm run <script>` a script of package.json;
 * - every guide is at most 15 KB and opens with the paragraph that says what it teaches.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import type { Command } from "commander";
import { Lexer, type Token, type Tokens } from "marked";
import { describe, expect, it } from "vitest";
import { slug } from "../../../scripts/docs/guides.js";
import { createProgram } from "../../../src/cli/index.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";

const GUIDES = "docs/guides";
const guideFiles = readdirSync(join(repoRoot, GUIDES))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `${GUIDES}/${f}`);
const adrFiles = readdirSync(join(repoRoot, "docs/adr"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/adr/${f}`);
/** Every document checked: the guides, then what maintainers read. */
const DOCUMENTS = [
  ...guideFiles,
  "README.md",
  "CONTRIBUTING.md",
  ...adrFiles,
  "scripts/README.md",
  "src/README.md",
  "tests/README.md",
  "specs/README.md",
];

const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

/** Every token of a document, nested ones included (links inside tables, lists, emphasis). */
function walk(tokens: Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    const t = token as Token & {
      tokens?: Token[];
      items?: Token[];
      header?: Array<{ tokens: Token[] }>;
      rows?: Array<Array<{ tokens: Token[] }>>;
    };
    if (t.tokens) walk(t.tokens, visit);
    if (t.items) walk(t.items, visit);
    if (t.header) for (const cell of t.header) walk(cell.tokens, visit);
    if (t.rows) for (const row of t.rows) for (const cell of row) walk(cell.tokens, visit);
  }
}

const lexed = new Map<string, Token[]>();
function tokensOf(file: string): Token[] {
  if (!lexed.has(file)) lexed.set(file, Lexer.lex(read(file), { gfm: true }));
  return lexed.get(file)!;
}

/** GitHub's anchors of a Markdown file's headings (a repeated heading gets -1, -2...). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  walk(tokensOf(file), (token) => {
    if (token.type !== "heading") return;
    const base = slug((token as Tokens.Heading).text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  return anchors;
}

function linksOf(file: string): string[] {
  const links: string[] = [];
  walk(tokensOf(file), (token) => {
    if (token.type === "link" || token.type === "image") links.push((token as Tokens.Link).href);
  });
  return links;
}

/** What is wrong with a link of `file`, or undefined. */
function linkProblem(file: string, href: string): string | undefined {
  const isGuide = file.startsWith(`${GUIDES}/`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    if (isGuide && /your-provider|example\.invalid/.test(href)) return "a placeholder address";
    if (isGuide && /^https?:\/\/github\.com\/[^/]+\/bank-api-contracts\b/.test(href))
      return "this repository by URL: link the file relatively";
    return undefined;
  }
  const [path, anchor] = href.split("#", 2);
  const target = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)));
  if (target.startsWith("..")) return "outside the repository";
  if (!existsSync(join(repoRoot, target))) return `no file ${target}`;
  if (isGuide && !(target.startsWith(`${GUIDES}/`) || /^specs\/[^/]+\/CHANGELOG\.md$/.test(target))) {
    return `${target} is not shipped beside the guides (link guides and changelogs only)`;
  }
  if (anchor !== undefined) {
    if (statSync(join(repoRoot, target)).isDirectory() || !target.endsWith(".md")) return `an anchor into ${target}, which is not Markdown`;
    if (!anchorsOf(target).has(anchor)) return `no heading #${anchor} in ${target}`;
  }
  return undefined;
}

describe("links", () => {
  it.each(DOCUMENTS)("%s: every link resolves", (file) => {
    const links = linksOf(file);
    const problems = links.flatMap((href) => {
      const problem = linkProblem(file, href);
      return problem ? [`${href}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("the guides link one another (every guide has a link to it from another guide or the index)", () => {
    const linked = new Set(
      guideFiles.flatMap((file) =>
        linksOf(file)
          .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith("#"))
          .map((href) => posix.normalize(posix.join(GUIDES, href.split("#")[0]))),
      ),
    );
    expect(guideFiles.filter((file) => !file.endsWith("/README.md") && !linked.has(file))).toEqual([]);
  });

  it("the checker finds broken links (a table of made-up cases)", () => {
    const cases: Array<[string, string, string | undefined]> = [
      ["docs/guides/clients.md", "retries.md", undefined],
      ["docs/guides/clients.md", "retries.md#which-calls-are-retried", undefined],
      ["docs/guides/clients.md", "retries.md#no-such-heading", "no heading #no-such-heading in docs/guides/retries.md"],
      ["docs/guides/clients.md", "missing.md", "no file docs/guides/missing.md"],
      [
        "docs/guides/clients.md",
        "../../CONTRIBUTING.md",
        "CONTRIBUTING.md is not shipped beside the guides (link guides and changelogs only)",
      ],
      ["docs/guides/clients.md", "../../specs/pay/CHANGELOG.md", undefined],
      ["docs/guides/clients.md", "https://github.com/your-provider/x", "a placeholder address"],
      [
        "docs/guides/clients.md",
        "https://github.com/acme/bank-api-contracts/blob/main/x",
        "this repository by URL: link the file relatively",
      ],
      ["docs/guides/clients.md", "#time-limits", undefined],
      ["CONTRIBUTING.md", "bench/RESULTS.md", undefined],
      ["CONTRIBUTING.md", "../outside.md", "outside the repository"],
    ];
    for (const [file, href, problem] of cases) expect(linkProblem(file, href), `${file} -> ${href}`).toBe(problem);
  });
});

/** The shell blocks of a document. */
function shellBlocks(file: string): string[] {
  const blocks: string[] = [];
  walk(tokensOf(file), (token) => {
    if (token.type === "code" && /^(sh|bash|shell|console)$/.test((token as Tokens.Code).lang ?? ""))
      blocks.push((token as Tokens.Code).text);
  });
  return blocks;
}

/** A block's commands: lines joined at a trailing backslash, comments cut, a `$ ` prompt's lines only when the block has one. */
function commandLines(block: string): string[] {
  const joined = block.replace(/[ \t]*\\\n\s*/g, " ").split("\n");
  const prompted = joined.filter((line) => line.startsWith("$ "));
  return (prompted.length > 0 ? prompted.map((line) => line.slice(2)) : joined)
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter(Boolean);
}

/** Shell words and operators of a command line: quotes kept together, `&&`, `||`, `|`, `;`, `&` apart. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(&&|\|\||[|;&])|([^\s'"|;&]+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
}

const OPERATORS = new Set(["&&", "||", "|", ";", "&"]);
const cli = createProgram();
const aliases = new Set(loadRegistry().map((entry) => entry.alias));
const scripts = new Set(Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>));

/** What is wrong with the words after `bank-api-contracts`, or undefined. */
function cliProblem(args: string[]): string | undefined {
  let command: Command = cli;
  let rest = args;
  while (rest.length > 0) {
    const sub = command.commands.find((c) => c.name() === rest[0] || c.aliases().includes(rest[0]));
    if (!sub) break;
    command = sub;
    rest = rest.slice(1);
  }
  if (command === cli && !(rest[0] === "--help" || rest[0] === "--version")) return `no command ${rest[0] ?? "(none)"}`;
  const flags = new Set(command.options.flatMap((o) => [o.long, o.short]).concat("--help", "-h"));
  for (const word of rest) {
    if (word.startsWith("-") && word !== "-" && !flags.has(word.split("=")[0]))
      return `${command.name()} has no option ${word.split("=")[0]}`;
    if (/^[a-z][a-z-]*@\d/.test(word) && !aliases.has(word)) return `no API ${word}`;
  }
  return undefined;
}

/** What is wrong with one command line of a shell block, or undefined. */
function commandProblem(line: string): string | undefined {
  const all = words(line);
  const commands: string[][] = [[]];
  for (const word of all) {
    if (OPERATORS.has(word)) commands.push([]);
    else commands.at(-1)!.push(word);
  }
  for (const command of commands) {
    const at = command.indexOf("bank-api-contracts");
    if (at !== -1) {
      const problem = cliProblem(command.slice(at + 1));
      if (problem) return problem;
    }
    // `npx ... -c 'exec bank-api-contracts ...'`: the quoted command line.
    for (const word of command) {
      if (word.includes(" ") && /\bbank-api-contracts\b/.test(word)) {
        const problem = commandProblem(word);
        if (problem) return problem;
      }
    }
    if (command[0] === "npm" && command[1] === "run" && command[2] !== undefined && !scripts.has(command[2]))
      return `no npm script ${command[2]}`;
  }
  return undefined;
}

describe("command blocks", () => {
  const withBlocks = DOCUMENTS.filter((file) => shellBlocks(file).length > 0);

  it("the documents hold shell blocks to check", () => {
    expect(withBlocks).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", `${GUIDES}/quick-start.md`, `${GUIDES}/hosting.md`]),
    );
  });

  it.each(withBlocks)("%s: every command names what the CLI and package.json have", (file) => {
    const problems = shellBlocks(file)
      .flatMap(commandLines)
      .flatMap((line) => {
        const problem = commandProblem(line);
        return problem ? [`${line}: ${problem}`] : [];
      });
    expect(problems).toEqual([]);
  });

  it("the checker finds wrong commands (a table of made-up cases)", () => {
    const cases: Array<[string, string | undefined]> = [
      ["npx bank-api-contracts mock pay@1.3.0 balance@1.0.0 &", undefined],
      ["npx bank-api-contracts mock --sandbox --port-base 4010", undefined],
      ["npx bank-api-contracts workflows run pay@1.3.0 --input token=x", undefined],
      ["npx bank-api-contracts mocks pay@1.3.0", "no command mocks"],
      ["npx bank-api-contracts mock --sandbx", "mock has no option --sandbx"],
      ["npx bank-api-contracts mock pay@9.9.9", "no API pay@9.9.9"],
      ["curl -s x | npx bank-api-contracts validate pay@1.3.0 --operaton getMerchant -", "validate has no option --operaton"],
      ["npx --yes --package ./p.tgz -c 'exec bank-api-contracts mock --port-bse 4010' &", "mock has no option --port-bse"],
      ["npm run test:quick", undefined],
      ["npm run tset", "no npm script tset"],
      ["npm ci && npm start", undefined],
    ];
    for (const [line, problem] of cases) expect(commandProblem(line), line).toBe(problem);
  });

  it("reads a block's commands: continued lines joined, comments cut, prompts only where a block has them", () => {
    expect(commandLines("a \\\n  --b 1   # note\n\n# only a comment\nc")).toEqual(["a --b 1", "c"]);
    expect(commandLines("$ npx x --y\noutput line\n  #1 more output")).toEqual(["npx x --y"]);
  });
});

describe("the guides", () => {
  it.each(guideFiles)("%s: at most 15 KB, opening with what it teaches", (file) => {
    const text = read(file);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(15 * 1024);
    const tokens = tokensOf(file).filter((t) => t.type !== "space" && t.type !== "html");
    expect(tokens[0]?.type, "a # title first").toBe("heading");
    expect((tokens[0] as Tokens.Heading).depth).toBe(1);
    expect(tokens[1]?.type, "then a paragraph saying what the guide teaches").toBe("paragraph");
  });

  it("the guides' index links every guide", () => {
    const index = `${GUIDES}/README.md`;
    const linked = new Set(linksOf(index).map((href) => posix.join(GUIDES, href)));
    expect(guideFiles.filter((file) => file !== index && !linked.has(file))).toEqual([]);
  });

  it("the documents checked are where they are said to be", () => {
    for (const file of DOCUMENTS) expect(existsSync(join(repoRoot, file)), file).toBe(true);
    expect(relative(repoRoot, dirname(join(repoRoot, guideFiles[0])))).toBe(GUIDES);
    expect(guideFiles.length).toBeGreaterThanOrEqual(16);
  });
});
