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

/** The value as an error may show it: anything between `//` and `@` (a user and password) masked. */
export const withoutUserinfo = (value: string): string => value.replace(/\/\/[^/?#\s'"]*@/g, "//***@");

/** An http or https URL, normalised (`new URL(value).href`). Errors never echo a password given in it. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`not a URL: "${withoutUserinfo(value)}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(`must be an http or https URL, got "${withoutUserinfo(value)}"`);
  }
  return url.href;
}

/** A duration option in whole seconds within bounds given in ms (`{ min, max }`), e.g. `seconds("--request-timeout", { min: 1000, max: 3_600_000 })`. */
export function seconds(name: string, bounds: { min: number; max: number }) {
  return integer(name, Math.ceil(bounds.min / 1000), Math.floor(bounds.max / 1000));
}
