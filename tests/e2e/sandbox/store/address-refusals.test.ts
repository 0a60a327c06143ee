/**
 * A store's address (src/sandbox/store/open.ts) on what the quick tier's file leaves out: the
 * refusal's name and where it says the address came from when the caller names nothing (`sandbox
 * store`; `--sandbox-store` for storeAddressFrom); an address that is no string (a JavaScript caller
 * of startMock) refused as empty, never a TypeError; a path with a colon inside is a path, not a
 * scheme; a directory with a NUL character refused in both forms of `file:`.
 */
import { describe, expect, it } from "vitest";
import { parseStoreAddress, StoreAddressError, storeAddressFrom } from "../../../../src/sandbox/store/open.js";

const FORMS = "accepted: memory, file:<dir>, postgres://user:password@host:port/database";

/** The error `run` throws (or undefined). */
function refusal(run: () => unknown): Error | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("the refusal of an address", () => {
  it("is a StoreAddressError, named so in its text", () => {
    const error = refusal(() => parseStoreAddress("nowhere", "--sandbox-store"));
    expect(error).toBeInstanceOf(StoreAddressError);
    expect(error?.name).toBe("StoreAddressError");
    expect(String(error)).toBe(
      `StoreAddressError: --sandbox-store "nowhere": not a store address (a directory is written file:nowhere); ${FORMS}`,
    );
  });

  it("names the sandbox store when the caller names no origin, --sandbox-store for the option, the variable for the environment", () => {
    expect(refusal(() => parseStoreAddress("nowhere"))?.message).toBe(
      `sandbox store "nowhere": not a store address (a directory is written file:nowhere); ${FORMS}`,
    );
    expect(refusal(() => storeAddressFrom("nowhere", {}))?.message).toBe(
      `--sandbox-store "nowhere": not a store address (a directory is written file:nowhere); ${FORMS}`,
    );
    // The environment variable the guides name, by its name.
    expect(refusal(() => storeAddressFrom(undefined, { BANK_API_CONTRACTS_SANDBOX_STORE: "nowhere" }))?.message).toBe(
      `BANK_API_CONTRACTS_SANDBOX_STORE "nowhere": not a store address (a directory is written file:nowhere); ${FORMS}`,
    );
  });

  it("of something that is no string says it is empty", () => {
    for (const value of [undefined, null]) {
      const error = refusal(() => parseStoreAddress(value as unknown as string, "startMock's sandboxStore"));
      expect(error).toBeInstanceOf(StoreAddressError);
      expect(error?.message).toBe(`startMock's sandboxStore "": empty; ${FORMS}`);
    }
  });
});

describe("what an address is", () => {
  it("takes a scheme only at its start: a path with a colon inside is refused as a path", () => {
    for (const path of ["/srv/file:state", "./data:store", "state/postgres://db/x"]) {
      expect(refusal(() => parseStoreAddress(path, "--sandbox-store"))?.message).toBe(
        `--sandbox-store ${JSON.stringify(path)}: not a store address (a directory is written file:${path}); ${FORMS}`,
      );
    }
  });

  it("refuses a directory holding a NUL character, written as a path or as a file URL", () => {
    expect(refusal(() => parseStoreAddress("file:/srv/a\0b", "--sandbox-store"))?.message).toBe(
      `--sandbox-store "file:/srv/a\\u0000b": the directory holds a NUL character; ${FORMS}`,
    );
    expect(refusal(() => parseStoreAddress("file:///srv/a%00b", "--sandbox-store"))?.message).toBe(
      `--sandbox-store "file:///srv/a%00b": the directory holds a NUL character; ${FORMS}`,
    );
  });
});
