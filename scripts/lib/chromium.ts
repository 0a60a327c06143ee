/**
 * Debian's Chromium, as the docs benchmark (scripts/docs/bench.ts) and the docs site's browser
 * tests launch it: where it is (`CHROMIUM_PATH` overrides) and its flags: headless, without the
 * sandbox a container cannot give it, and without background networking, without which Chromium
 * calls Google's hosts at start (the site's tests fail on any request outside the machine).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
