/** Option parsers shared by the CLI's commands: each throws commander's InvalidArgumentError. */
import { InvalidArgumentError } from "commander";

/** An integer option within [min, max], e.g. `integer("--port", 0, 65535)`. */
export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return n;
  };
}

/** An http or https URL, normalised (`new URL(value).href`). */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`not a URL: "${value}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError(`must be an http or https URL, got "${value}"`);
  return url.href;
}
