/**
 * A Postgres store's address as messages and logs may show it: the secrets it carries (its
 * password, its password parameters) and the address with them replaced. Shared by the address
 * parser (./open.ts) and the Postgres store (./postgres.ts), which imports nothing of the parser.
 */

const SECRET_PARAMETER = /password/i;

/**
 * The secrets `url` carries, as written and decoded: its userinfo's password and the values of its
 * password parameters (each of which `pg` honours).
 */
export function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const secrets = [parsed.password];
  try {
    secrets.push(decodeURIComponent(parsed.password));
  } catch {}
  for (const [name, value] of parsed.searchParams) if (SECRET_PARAMETER.test(name)) secrets.push(value, encodeURIComponent(value));
  return [...new Set(secrets)].filter((secret) => secret.length > 0);
}

/** `url` with its password and password parameters replaced by `***` (for messages and logs), even when it is not a valid URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, "***");
    return parsed.href;
  } catch {
    // Not parsed, the end of the userinfo is unsure: everything from the user's ":" to the last "@" goes.
    return url.replace(/\/\/([^/:@]*):.*@/, "//$1:***@").replace(/([?&][^=&]*password[^=&]*=)[^&]*/gi, "$1***");
  }
}
