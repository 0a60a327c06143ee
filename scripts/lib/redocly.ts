/** Removes the boxed notice (Node-version end-of-life banner) that the Redocly CLI prints on stderr. */
export function withoutRedoclyBanner(text: string): string {
  return text.replace(/^.*[╔║╚═╗╝].*$\n?/gm, "").trim();
}
