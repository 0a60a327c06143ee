/**
 * `bank-api-contracts proxy` as a process, for the first API, in front of a small node:http
 * upstream answering the operation's example (`x-variant: invalid`: its wrong-typed copy): the ready
 * line, one printed line per exchange with its violations, exit 0 on SIGTERM with the port freed;
 * an upstream URL's userinfo is printed nowhere. The proxy itself is tested in process in
 * tests/unit/src/proxy.
 */
import { createServer, type Server } from "node:http";
import { describe, expect, it } from "vitest";
import { requestParams, requestUrl, sendExample } from "../../../../src/testing/requests.js";
import { cli, escapeRegExp, waitFor } from "../../../helpers/cli.js";
import { isPortFree } from "../../../helpers/ports.js";
import { type ContractCase, contractCases } from "./cases.js";

const [c] = contractCases;
const SECRET = "s3cr3t-pw-7431";

/** An upstream answering every request with the case's status and example (`x-variant: invalid`: the wrong-typed copy). */
async function upstream(): Promise<{ url: string; port: number; server: Server; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const body = request.headers["x-variant"] === "invalid" ? c.invalid : c.valid;
    response.writeHead(c.status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://127.0.0.1:${port}`, port, server, close };
}

const call = (c: ContractCase, base: string, headers: Record<string, string> = {}) => sendExample(base, c.api.doc, c.op, { headers });
const pathOf = (c: ContractCase) => requestUrl(c.op, requestParams(c.api.doc, c.op)).split("?")[0];

describe("bank-api-contracts proxy", () => {
  it("prints each exchange with its violations, and exits 0 on SIGTERM with the port freed", async () => {
    const up = await upstream();
    const run = cli(["proxy", c.alias, "--upstream", up.url, "--port", "0"]);
    try {
      await waitFor(run, "Ctrl+C stops.");
      const url = /proxy ready: (http:\/\/127\.0\.0\.1:\d+) -> /.exec(run.stdout())?.[1];
      expect(url, run.stdout()).toBeDefined();
      expect(run.stdout()).toContain(`${c.alias} proxy ready: ${url} -> ${up.url}/`);

      expect((await call(c, url!)).status).toBe(c.status);
      const line = `${c.op.method.toUpperCase()} ${pathOf(c)}`;
      await waitFor(run, `-> ${c.status}: ok`);
      expect(run.stdout()).toMatch(new RegExp(`^${escapeRegExp(line)}\\S* -> ${c.status}: ok$`, "m"));

      const invalid = await call(c, url!, { "x-variant": "invalid" });
      expect(invalid.headers.get("sl-violations")).toContain(`"location":["response","body","${c.field}"]`);
      await waitFor(run, "violation(s)");
      expect(run.stdout()).toMatch(
        new RegExp(
          `^${escapeRegExp(line)}\\S* -> ${c.status}: \\d+ violation\\(s\\)\\n(    .*\\n)*    response\\.body\\.${escapeRegExp(c.field)}: `,
          "m",
        ),
      );

      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
      expect(run.stdout()).toContain("SIGTERM: stopping the proxy");
      expect(await isPortFree(Number(new URL(url!).port))).toBe(true);
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGTERM");
      await up.close();
    }
  });

  it("prints an upstream URL's userinfo neither in its ready line nor in its failure lines", async () => {
    const refused = await upstream();
    const port = refused.port;
    await refused.close();
    const run = cli(["proxy", c.alias, "--upstream", `http://user:${SECRET}@127.0.0.1:${port}`, "--port", "0"]);
    try {
      await waitFor(run, "Ctrl+C stops.");
      const url = /proxy ready: (http:\/\/127\.0\.0\.1:\d+) -> /.exec(run.stdout())?.[1];
      expect(run.stdout()).toContain(`-> http://127.0.0.1:${port}/.`);
      expect((await call(c, url!)).status).toBe(502);
      await waitFor(run, "-> 502: failed:");
      run.child.kill("SIGTERM");
      expect(await run.exit).toBe(0);
      expect(run.stdout() + run.stderr()).not.toContain(SECRET);
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGTERM");
    }
  });
});
