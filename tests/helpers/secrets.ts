/**
 * Finds credential-shaped strings in spec examples. A value is suspect when it has the shape of a
 * known secret format (private key block, JWT, provider key prefixes, a Bearer/Basic credential) or
 * when it sits under a secret-named key (secret, password, token, api key, signature, ...) and is a
 * long random-looking string. Obvious placeholders (`<your-api-key>`, `EXAMPLE_...`, `xxxx`,
 * `REDACTED`, ...) are allowed: they are what examples should hold.
 */
import { pointer } from "../../src/document/index.js";

export interface Finding {
  /** JSON pointer of the string inside the bundled document. */
  at: string;
  value: string;
  why: string;
}

const SECRET_KEY =
  /(secret|passw(or)?d|passcode|pin$|token|api[_-]?key|private[_-]?key|access[_-]?key|signature|credential|authorization)/i;

const PLACEHOLDER =
  /(<[^<>]+>|\{\{[^}]+\}\}|\$\{[^}]+\}|example|placeholder|your[_-]|redacted|changeme|replace[_-]?me|dummy|sample|x{4,}|\*{3,}|\.\.\.|…|not[_-]?a[_-]?real|fake)/i;

const SHAPES: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key block"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, "a JSON Web Token"],
  [/\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{10,}/, "a provider secret-key prefix"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key id"],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/, "a GitHub token"],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\bAIza[0-9A-Za-z_-]{30,}/, "a Google API key"],
  [/^(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{16,}$/, "an Authorization credential"],
];

/** Shannon entropy of a string, in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

/** True for a long, random-looking token: 16+ characters, no spaces, mixed classes, high entropy. */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || /\s/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && entropy(value) >= 3.5;
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || /^(.)\1*$/.test(value);
}

/** Why `value` (found under `key`) looks like a real credential, or undefined. */
export function suspicion(key: string, value: string): string | undefined {
  if (isPlaceholder(value)) return undefined;
  for (const [shape, why] of SHAPES) if (shape.test(value)) return `has the shape of ${why}`;
  if (SECRET_KEY.test(key) && (looksRandom(value) || value.length >= 24)) {
    return `a secret-named field ("${key}") holds a value that is not an obvious placeholder`;
  }
  return undefined;
}

/** Every string inside every `example`/`examples` of a document, with the key it sits under. */
export function exampleStrings(doc: unknown): Array<{ at: string; key: string; value: string }> {
  const found: Array<{ at: string; key: string; value: string }> = [];
  const collect = (node: unknown, path: Array<string | number>, key: string) => {
    if (typeof node === "string") found.push({ at: pointer(...path), key, value: node });
    else if (Array.isArray(node)) node.forEach((item, i) => collect(item, [...path, i], key));
    else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) collect(v, [...path, k], /^\d+$/.test(k) ? key : k);
    }
  };
  const walk = (node: unknown, path: Array<string | number>, parentKey: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i], parentKey));
    else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "example" || k === "examples") collect(v, [...path, k], parentKey);
        else walk(v, [...path, k], k);
      }
    }
  };
  walk(doc, [], "");
  return found;
}

export function findSecrets(doc: unknown): Finding[] {
  return exampleStrings(doc).flatMap(({ at, key, value }) => {
    const why = suspicion(key, value);
    return why ? [{ at, value, why }] : [];
  });
}
