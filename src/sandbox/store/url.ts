/**
 * A Postgres store's address as messages and logs may show it: the secrets it carries (its
 * password, its password parameters) and the address with them replaced. Shared by the address
 * parser (./open.ts) and the Postgres store (./postgres.ts), which imports nothing of the parser.
 */

const SECRET_PARAMETER = /password/i;
/** In an address that does not parse, the end of the userinfo is unsure: its password runs from the user's ":" to the last "@". */
const UNPARSED_PASSWORD = /\/\/([^/:@]*):(.*)@/;
/** In an address that does not parse: a password parameter (its name and "=", then its value). */
const UNPARSED_PARAMETER = /([?&][^=&]*password[^=&]*=)([^&]*)/gi;

/**
 * The secrets `url` carries, as written and decoded: its userinfo's password and the values of its
 * password parameters (each of which `pg` honours). Of an address that does not parse: what
 * redactUrl replaces in it (the userinfo from the user's ":" to the last "@", the values of the
 * password parameters).
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const written = [UNPARSED_PASSWORD.exec(url)?.[2] ?? "", ...Array.from(url.matchAll(UNPARSED_PARAMETER), (match) => match[2])];
    return distinct(written.flatMap(writtenAndDecoded));
  }
  const parameters = [...parsed.searchParams].filter(([name]) => SECRET_PARAMETER.test(name));
  return distinct([...writtenAndDecoded(parsed.password), ...parameters.flatMap(([, value]) => [value, encodeURIComponent(value)])]);
}

/** A secret as written and, when it decodes, decoded. */
function writtenAndDecoded(secret: string): string[] {
  try {
    return [secret, decodeURIComponent(secret)];
  } catch {
    return [secret];
  }
}

/** Each secret once, none empty. */
const distinct = (secrets: string[]) => [...new Set(secrets)].filter((secret) => secret.length > 0);

/** `url` with its password and password parameters replaced by `***` (for messages and logs), even when it is not a valid URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, "***");
    return parsed.href;
  } catch {
    // Not parsed, the end of the userinfo is unsure: everything from the user's ":" to the last "@" goes.
    return url.replace(UNPARSED_PASSWORD, "//$1:***@").replace(UNPARSED_PARAMETER, "$1***");
  }
}
