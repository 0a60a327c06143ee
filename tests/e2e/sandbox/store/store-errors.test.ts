/**
 * The errors of the store (src/sandbox/store/store.ts `StoreUnavailable`) as a log or a caller
 * without the class sees them: named by their class, so that a line of the log says a durable store
 * could not read or write.
 */
import { describe, expect, it } from "vitest";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";

describe("StoreUnavailable", () => {
  it("is named StoreUnavailable in its text and its stack", () => {
    const error = new StoreUnavailable("file store /srv/x: the disk is full");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("StoreUnavailable");
    expect(String(error)).toBe("StoreUnavailable: file store /srv/x: the disk is full");
    expect(error.stack?.split("\n")[0]).toBe("StoreUnavailable: file store /srv/x: the disk is full");
  });
});
