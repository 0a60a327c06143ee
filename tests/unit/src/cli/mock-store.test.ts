/**
 * `mock --sandbox-store` (src/cli/mock.ts), in process: the address checked before anything starts,
 * a misuse one line and the hint, exit 2; a Postgres password on the command line refused and never
 * printed; a bad BANK_API_CONTRACTS_SANDBOX_STORE named as such. Starting on a store:
 * tests/e2e/store/.
 */
import { afterEach, describe, expect, it } from "vitest";
import { STORE_ENV } from "../../../../src/sandbox/store/open.js";
import { cliInProcess } from "../../../helpers/cli.js";

/** The forms accepted, as the CLI prints them (it shows no URL's userinfo: src/cli/options.ts withoutUserinfo). */
const FORMS = "accepted: memory, file:<dir>, postgres://***@host:port/database";

const before = process.env[STORE_ENV];
afterEach(() => {
  if (before === undefined) delete process.env[STORE_ENV];
  else process.env[STORE_ENV] = before;
});

/** Runs the CLI; its exit code and stderr's lines. */
async function misuse(args: string[]) {
  const { code, stdout, stderr } = await cliInProcess(args);
  return { code, stdout, lines: stderr.trimEnd().split("\n") };
}

describe("mock --sandbox-store", () => {
  it.each([
    ["without --sandbox", ["mock", "--sandbox-store", "file:state"], "error: --sandbox-store needs --sandbox"],
    [
      "an address that is no store's",
      ["mock", "--sandbox", "--sandbox-store", "state"],
      `error: --sandbox-store "state": not a store address (a directory is written file:state); ${FORMS}`,
    ],
    [
      "a kind of store it does not know",
      ["mock", "--sandbox", "--sandbox-store", "redis://cache:6379"],
      `error: --sandbox-store "redis://cache:6379": unknown kind of store "redis:"; ${FORMS}`,
    ],
  ])("%s: one line and the hint, exit 2", async (_, args, line) => {
    const { code, stdout, lines } = await misuse(args);
    expect(lines).toEqual([line, "(add --help for usage)"]);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("refuses a password on the command line, and never repeats it, in an address that parses or not", async () => {
    for (const address of [
      "postgres://sandbox:s3cret-pass@db:5432/sandbox",
      "postgres://sandbox@db/sandbox?password=s3cret-pass",
      // Not a URL (a port beyond 65535): the password is on the command line all the same.
      "postgres://sandbox:s3cret-pass@db:99999/sandbox",
      "postgres://sandbox@db:99999/sandbox?sslmode=require&password=s3cret-pass",
    ]) {
      const { code, lines } = await misuse(["mock", "--sandbox", "--sandbox-store", address]);
      expect(code).toBe(2);
      expect(lines).toEqual([
        `error: --sandbox-store: a password on the command line is visible to every user of the machine; put the address in $${STORE_ENV}, or the password in PGPASSWORD`,
        "(add --help for usage)",
      ]);
      expect(lines.join("\n")).not.toContain("s3cret");
    }
  });

  it("names the environment variable when its address is bad, without its password", async () => {
    process.env[STORE_ENV] = "postgres://sandbox:s3cret-pass@db:5432/sandbox#x";
    const { code, lines } = await misuse(["mock", "--sandbox"]);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `error: ${STORE_ENV} "postgres://***@db:5432/sandbox#x": a "#" part means nothing here; ${FORMS}`,
      "(add --help for usage)",
    ]);
  });
});
