/**
 * The callback URL rules of src/sandbox/delivery/policy.ts on text that is no URL at all: nothing to
 * show, no userinfo, no reserved example host (each answers its "no" rather than throwing, so the
 * deliverer's refusals read the same on any input).
 */
import { describe, expect, it } from "vitest";
import { displayUrl, hasUserinfo, isExampleHost } from "../../../../src/sandbox/delivery/policy.js";

const NOT_URLS = ["", "not a url", "http://", "//example.com/x", "https://[::1"];

describe("the URL rules on text that is no URL", () => {
  it.each(NOT_URLS)("%j: nothing to show, no userinfo, no example host", (text) => {
    expect(displayUrl(text)).toBeUndefined();
    expect(hasUserinfo(text)).toBe(false);
    expect(isExampleHost(text)).toBe(false);
  });

  it("tells the same URLs apart once they parse", () => {
    expect(displayUrl("https://user:pw@hooks.partner.test/x")).toBe("https://hooks.partner.test/x");
    expect(hasUserinfo("https://user:pw@hooks.partner.test/x")).toBe(true);
    expect(hasUserinfo("https://:pw@hooks.partner.test/x")).toBe(true);
    expect(hasUserinfo("https://user@hooks.partner.test/x")).toBe(true);
    expect(hasUserinfo("https://hooks.partner.test/x")).toBe(false);
    expect(isExampleHost("https://hooks.example.net./x")).toBe(true);
    expect(isExampleHost("https://example/x")).toBe(true);
    expect(isExampleHost("https://invalid/x")).toBe(true);
    expect(isExampleHost("https://myexample.com/x")).toBe(false);
    expect(isExampleHost("https://hooks.invalid.partner.test/x")).toBe(false);
    expect(isExampleHost("https://shop.example.partner.test/x")).toBe(false);
  });
});
