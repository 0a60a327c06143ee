/**
 * The partners' guides: every `docs/guides/*.md` (Markdown that reads on its own on GitHub),
 * rendered into `guides/<name>.html`, whatever files are there, except the folder's index
 * (`README.md`), whose place on the site is `guides/index.html`. Links are rewritten for the site:
 *
 * - to another guide (`clients.md#retries`): its page (`clients.html#retries`); to the folder's index:
 *   `index.html`; to a guide that is not in the folder (yet): the file in the repository, so that no
 *   link on the site is broken;
 * - to a service changelog (`../../specs/<service>/CHANGELOG.md`): its page on the site;
 * - to any other file of the repository (`../../bench/RESULTS.md`): the file in the repository
 *   (package.json `repository`);
 * - absolute URLs and `#anchors` are kept.
 *
 * Headings get GitHub's anchors (`## Pay 1.2.0, for partners` -> `#pay-120-for-partners`), so a
 * link works the same on GitHub and on the site. Raw HTML is shown as text, never interpreted; HTML
 * comments (the tests' markers) are dropped.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, posix } from "node:path";
import { Marked, type Tokens } from "marked";

export const GUIDES_DIR = "docs/guides";
/** The folder's index for readers of the repository and the package (the site makes its own, guides/index.html). */
export const INDEX_FILE = "README.md";

/** The reading order of the guides the home page and the bar list; any other guide follows, by name. */
export const GUIDE_ORDER = [
  "quick-start",
  "installing",
  "clients",
  "retries",
  "apis",
  "contract-testing",
  "sandbox",
  "sandbox-test-values",
  "sandbox-apis",
  "sandbox-state",
  "hosting",
  "keeping-state",
  "callbacks",
  "workflows",
  "command-line",
  "mock-limits",
  "changes",
  "performance",
];

export interface Guide {
  /** File name without `.md`. */
  name: string;
  /** The guide's first `# ` heading (the file name when it has none). */
  title: string;
  /** Its first paragraph, as plain text (for the home page). */
  summary: string;
  source: string;
  /** Site path: `guides/<name>.html`. */
  page: string;
  /** Absolute path of the Markdown file. */
  file: string;
}

/** Every guide in `dir`, in reading order. */
export function findGuides(dir: string): Guide[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".md") && !f.startsWith(".") && f !== INDEX_FILE)
    .map((f) => basename(f, ".md"));
  const rank = (name: string) => (GUIDE_ORDER.includes(name) ? GUIDE_ORDER.indexOf(name) : GUIDE_ORDER.length);
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return names.map((name) => {
    const file = join(dir, `${name}.md`);
    const source = readFileSync(file, "utf8");
    const title = /^# (.+)$/m.exec(source)?.[1].trim() ?? name;
    const paragraph = source
      .replace(/<!--[\s\S]*?-->/g, "")
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .find((p) => p !== "" && !/^(#|```|\||- |\d+\. )/.test(p));
    const summary = (paragraph ?? "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*_]/g, "")
      .replace(/\s+/g, " ");
    return { name, title, summary, source, page: `guides/${name}.html`, file };
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export interface LinkContext {
  /** Names of the guides present. */
  guides: Set<string>;
  /** Services with a changelog page on the site. */
  changelogs: Set<string>;
  /** `https://github.com/<owner>/<repo>/blob/main/`: where repository files are linked. */
  repositoryFiles: string;
}

/** Where a link of a guide points on the site (see the module header). */
export function siteLink(href: string, context: LinkContext): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("//")) return href;
  const [path, hash = ""] = href.split(/(?=#)/);
  const fromRoot = posix.normalize(posix.join(GUIDES_DIR, path));
  const guide = /^docs\/guides\/([^/]+)\.md$/.exec(fromRoot);
  if (guide && context.guides.has(guide[1])) return `${guide[1]}.html${hash}`;
  if (fromRoot === `${GUIDES_DIR}/${INDEX_FILE}`) return `index.html${hash}`;
  const changelog = /^specs\/([^/]+)\/CHANGELOG\.md$/.exec(fromRoot);
  if (changelog && context.changelogs.has(changelog[1])) return `../changelogs/${changelog[1]}.html${hash}`;
  if (fromRoot.startsWith("..")) return href;
  return `${context.repositoryFiles}${fromRoot}${hash}`;
}

/** A guide's body as HTML. */
export function renderGuideHtml(source: string, context: LinkContext): string {
  const ids = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      html: (html: string) => (/^\s*<!--[\s\S]*-->\s*$/.test(html) ? "" : escapeHtml(html)),
      heading(text: string, level: number, raw: string) {
        const base = slug(raw);
        const n = ids.get(base) ?? 0;
        ids.set(base, n + 1);
        const id = n === 0 ? base : `${base}-${n}`;
        return `<h${level} id="${escapeHtml(id)}">${text}</h${level}>\n`;
      },
    },
    walkTokens(token) {
      if (token.type === "link") (token as Tokens.Link).href = siteLink((token as Tokens.Link).href, context);
    },
  });
  return marked.parse(source, { async: false }) as string;
}

/** `https://github.com/<owner>/<repo>/blob/main/` from package.json's `repository`. */
export function repositoryFiles(packageJson: { repository?: string | { url?: string } }): string {
  const url = typeof packageJson.repository === "string" ? packageJson.repository : (packageJson.repository?.url ?? "");
  const web = url
    .replace(/^git\+/, "")
    .replace(/\.git$/, "")
    .replace(/^git:/, "https:");
  if (!/^https:\/\//.test(web)) throw new Error(`package.json repository.url is not an https URL: ${url}`);
  return `${web}/blob/main/`;
}
