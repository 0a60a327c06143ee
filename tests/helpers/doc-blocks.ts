/**
 * The code blocks of the partners' documentation: README.md and every guide in docs/guides/*.md
 * (whatever files are there), for the tests that compile and run them.
 *
 * - `docSources()`: the documents, README first, then the guides by name.
 * - `fencedBlocks(lang)`: every ```<lang> block of them, in that order, each with its document; a
 *   fence that does not close fails (so that a block lost to a broken fence is never silently skipped).
 * - `markedBlock(test, what)`: the block after a marker comment `<!-- <test> ... <what> ... -->`,
 *   wherever it is (exactly one marker of that test holding `what` in all the documents).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "../../src/registry.js";

export interface DocSource {
  /** Relative to the repository: `README.md`, `docs/guides/<name>.md`. */
  path: string;
  text: string;
}

export function docSources(root = repoRoot): DocSource[] {
  const guides = join(root, "docs/guides");
  const files = [
    join(root, "README.md"),
    ...(existsSync(guides)
      ? readdirSync(guides)
          .filter((f) => f.endsWith(".md"))
          .sort()
          .map((f) => join(guides, f))
      : []),
  ];
  return files.map((file) => ({ path: relative(root, file), text: readFileSync(file, "utf8") }));
}

export interface Block {
  /** The document holding it. */
  path: string;
  /** Its position among the blocks of that language in that document, from 1. */
  index: number;
  code: string;
}

/** Every fenced block of `lang` in `sources`, in order; throws on a ```lang fence that never closes. */
export function fencedBlocks(lang: string, sources: DocSource[] = docSources()): Block[] {
  const blocks: Block[] = [];
  for (const { path, text } of sources) {
    const found = [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1]);
    const opened = text.match(new RegExp(`^\`\`\`${lang}$`, "gm"))?.length ?? 0;
    if (opened !== found.length) throw new Error(`${path}: ${opened} \`\`\`${lang} fences open but ${found.length} blocks close`);
    found.forEach((code, i) => blocks.push({ path, index: i + 1, code }));
  }
  return blocks;
}

/** The ```lang block right after the marker comment that starts with `<!-- <test>` and holds `what`. */
export function markedBlock(test: string, what: string, lang = "sh", sources: DocSource[] = docSources()): Block {
  const hits = sources.flatMap(({ path, text }) => {
    const lines = text.split("\n");
    return lines
      .map((line, at) => ({ line, at }))
      .filter(({ line }) => line.startsWith(`<!-- ${test}`) && line.includes(what))
      .map(({ at }) => ({ path, rest: lines.slice(at + 1).join("\n") }));
  });
  const where = sources.map((s) => s.path).join(", ");
  if (hits.length !== 1) throw new Error(`${hits.length} "<!-- ${test} ... ${what}" markers in ${where}; expected exactly one`);
  const block = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "m").exec(hits[0].rest);
  // The block must follow its marker directly (blank lines aside), not somewhere further down.
  if (!block || hits[0].rest.slice(0, block.index).trim() !== "")
    throw new Error(`${hits[0].path}: no \`\`\`${lang} block right after the "${what}" marker`);
  return { path: hits[0].path, index: 0, code: block[1] };
}
