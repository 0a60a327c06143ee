/**
 * The Redocly CLI (`@redocly/cli`), located once for every caller: the workflow runner (Respect),
 * and the maintainers' bundling, linting and docs scripts. In the published package it is an
 * optional peer dependency, so a missing one is named with the line that installs it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The folder of the installed @redocly/cli package; `purpose` says what needs it when it is missing. */
export function redoclyPackageDir(purpose = "this command"): string {
  try {
    return dirname(require.resolve("@redocly/cli/package.json"));
  } catch {
    throw new Error(
      `${purpose} needs @redocly/cli (an optional peer dependency of bank-api-contracts), which is not installed:\n  npm install --save-dev @redocly/cli@2.77.0`,
    );
  }
}

/** Absolute path of the Redocly CLI's entry script, run with `process.execPath`. */
export function redoclyCli(purpose?: string): string {
  const dir = redoclyPackageDir(purpose);
  const bin =
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin?.redocly ?? "bin/cli.js";
  return join(dir, bin);
}

/** Removes the boxed notice (the Node.js end-of-life banner) that the Redocly CLI prints on stderr. */
export function withoutRedoclyBanner(text: string): string {
  return text.replace(/^.*[╔║╚═╗╝].*$\n?/gm, "").trim();
}
