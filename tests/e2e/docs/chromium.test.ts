/**
 * Without Chromium the browser tests fail (never skip) with the command that installs it.
 */
import { describe, expect, it } from "vitest";
import { requireChromium } from "./browser.js";

describe("requireChromium", () => {
  it("fails with the install command when the browser is missing", () => {
    expect(() => requireChromium("/nonexistent/chromium")).toThrow(
      /Chromium not found at \/nonexistent\/chromium\. .*install it with `apt-get install -y chromium`/,
    );
  });
});
