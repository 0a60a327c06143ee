/**
 * `mock --hosted`'s flags in process (src/cli/mock.ts): each connection guard flag needs --hosted,
 * keeps its bounds, and the headers' timeout must not exceed the request's; --hosted needs --sandbox
 * and an operator token. Each misuse is one line and the hint, exit 2, nothing on standard output.
 * The started process is mock-hosted.spawn.test.ts's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cliInProcess } from "../../../helpers/cli.js";

beforeEach(() => {
  vi.stubEnv("BANK_API_CONTRACTS_OPERATOR_TOKEN", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("misuse", () => {
  it.each([
    ["--hosted without --sandbox", ["mock", "--hosted"], "error: --hosted needs --sandbox"],
    [
      "--hosted without an operator token",
      ["mock", "--sandbox", "--hosted"],
      "error: --hosted needs an operator token: set $BANK_API_CONTRACTS_OPERATOR_TOKEN or give --operator-token-file <path>",
    ],
    ["--max-connections without --hosted", ["mock", "--sandbox", "--max-connections", "10"], "error: --max-connections needs --hosted"],
    ["--headers-timeout without --hosted", ["mock", "--headers-timeout", "5"], "error: --headers-timeout needs --hosted"],
    [
      "--max-connections-per-address without --hosted",
      ["mock", "--sandbox", "--max-connections-per-address", "0"],
      "error: --max-connections-per-address needs --hosted",
    ],
    [
      "a headers timeout out of range",
      ["mock", "--sandbox", "--hosted", "--headers-timeout", "0"],
      "error: option '--headers-timeout <seconds>' argument '0' is invalid. --headers-timeout must be an integer from 1 to 600, got \"0\"",
    ],
    [
      "a request timeout that is not a number",
      ["mock", "--sandbox", "--hosted", "--request-timeout", "soon"],
      "error: option '--request-timeout <seconds>' argument 'soon' is invalid. --request-timeout must be an integer from 1 to 3600, got \"soon\"",
    ],
    [
      "a keep-alive timeout out of range",
      ["mock", "--sandbox", "--hosted", "--keep-alive-timeout", "601"],
      "error: option '--keep-alive-timeout <seconds>' argument '601' is invalid. --keep-alive-timeout must be an integer from 1 to 600, got \"601\"",
    ],
    [
      "no connection at all",
      ["mock", "--sandbox", "--hosted", "--max-connections", "0"],
      "error: option '--max-connections <n>' argument '0' is invalid. --max-connections must be an integer from 1 to 1000000, got \"0\"",
    ],
  ])("%s", async (_, args, line) => {
    const { code, stderr, stdout } = await cliInProcess(args);
    expect(stderr).toBe(`${line}\n(add --help for usage)\n`);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("a headers timeout longer than the request's, given or by default", async () => {
    vi.stubEnv("BANK_API_CONTRACTS_OPERATOR_TOKEN", "operator-token-0123456789");
    for (const [args, line] of [
      [["--headers-timeout", "20", "--request-timeout", "10"], "error: --headers-timeout (20) must not exceed --request-timeout (10)"],
      [["--headers-timeout", "31"], "error: --headers-timeout (31) must not exceed --request-timeout (30)"],
      [["--request-timeout", "9"], "error: --headers-timeout (10) must not exceed --request-timeout (9)"],
    ] as const) {
      const { code, stderr } = await cliInProcess(["mock", "--sandbox", "--hosted", ...args]);
      expect(stderr).toBe(`${line}\n(add --help for usage)\n`);
      expect(code).toBe(2);
    }
  });
});

describe("--help", () => {
  it("lists hosted mode's flags with their defaults", async () => {
    const { stdout, code } = await cliInProcess(["mock", "--help"]);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, " ");
    expect(help).toContain("--hosted sandbox run for partners: needs the operator token");
    expect(help).toContain("(default 10)");
    expect(help).toContain("(default 30)");
    expect(help).toContain("(default 4096)");
    expect(help).toContain("(default 64;");
  });
});
