/**
 * The proxy's sl-violations header alone (src/proxy/write.ts): every violation goes out as JSON a
 * header can carry (a character outside Latin-1 or DEL as its JSON escape, so the value parses back
 * to the same findings), and a list too long for prism-http-server's limit keeps whole violations
 * from the start plus one entry counting the rest, so that it still parses.
 */
import { describe, expect, it } from "vitest";
import { MAX_SAFE_HEADER_LENGTH } from "../../../../src/mock/limits.js";
import type { ProxyViolation } from "../../../../src/proxy/index.js";
import { violationsHeader } from "../../../../src/proxy/write.js";

/** What Node lets a header value hold: tab, visible ASCII, 0x80-0xFF. */
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

const finding = (message: string, field = "name"): ProxyViolation => ({
  location: ["response", "body", field],
  severity: "Error",
  code: "additionalProperties",
  message,
});

describe("the proxy's sl-violations header", () => {
  it("is absent when there is no finding", () => {
    expect(violationsHeader([])).toBeUndefined();
  });

  it.each([
    ["Japanese", "must NOT have additional properties; found '名前'", "名前"],
    ["an emoji", "must be number, got 'ok 😀'", "😀"],
    ["a lone surrogate", "Unexpected token '\ud83d'", "\ud83d"],
    ["DEL", "control \x7f here", "x"],
  ])("writes %s as a JSON escape, and parses back to the same findings", (_, message, field) => {
    const violations = [finding(message, field), finding("plain ASCII and Latin-1: café")];
    const header = violationsHeader(violations)!;
    expect(header).toMatch(HEADER_SAFE);
    expect(JSON.parse(header)).toEqual(violations);
  });

  it("keeps Latin-1 as it is (a header carries it)", () => {
    expect(violationsHeader([finding("café")])).toBe(
      '[{"location":["response","body","name"],"severity":"Error","code":"additionalProperties","message":"café"}]',
    );
  });

  it("drops whole violations from the end and counts them when the list is too long, and still parses", () => {
    const violations = Array.from({ length: 400 }, (_, i) => finding(`finding ${i}: 名前 ${"x".repeat(40)}`, `field${i}`));
    const header = violationsHeader(violations)!;
    expect(header.length).toBeLessThanOrEqual(MAX_SAFE_HEADER_LENGTH);
    expect(header).toMatch(HEADER_SAFE);
    const parsed: ProxyViolation[] = JSON.parse(header);
    const last = parsed.at(-1)!;
    const kept = parsed.length - 1;
    expect(kept).toBeGreaterThan(0);
    expect(parsed.slice(0, kept)).toEqual(violations.slice(0, kept));
    expect(last).toEqual({ location: [], severity: "Information", code: "truncated", message: `${400 - kept} more violation(s)` });
  });
});
