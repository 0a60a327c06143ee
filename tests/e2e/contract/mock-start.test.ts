/**
 * How src/mock/index.ts starts mocks, beyond serving (tests/unit/src/mock/index.test.ts): the
 * credentials it names for each kind of security scheme, Prism's reading kept between starts for a
 * registry bundle and never for a spec given by path, no sandbox unless asked for, the store it
 * reports, the store hosted mode keeps its partners in (the sandbox's store option, else the
 * environment's), a shared hosted service that is never ready when one of its mocks fails to start,
 * and the registry read for aliases and for "all". Against the fixture registry in
 * tests/fixtures/mock/ and specs written here.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeMocks, startMock, startMocks } from "../../../src/mock/index.js";
import { defaultCacheDir, mark, marked } from "../../../src/mock/operations-cache.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { freePortRange, occupyPort } from "../../helpers/ports.js";

const fixtures = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const [shop, vault] = fixtures;
const work = mkdtempSync(join(repoRoot, ".tmp", "mock-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const OPERATOR_TOKEN = "operator-token-for-mock-start-tests";

/** A log destination keeping the messages written. */
function messages() {
  const seen: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) seen.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  return { stream, seen };
}

it("names the credential of each kind of security scheme: an HTTP scheme by its Authorization value, an API key by where it goes, others by type", async () => {
  const spec = join(work, "schemes.yaml");
  const operation = (path: string, scheme: string) => [
    `  ${path}:`,
    "    get:",
    `      security: [{ ${scheme}: [] }]`,
    "      responses:",
    "        '200': { description: OK }",
  ];
  writeFileSync(
    spec,
    [
      "openapi: 3.1.0",
      "info: { title: schemes, version: 1.0.0 }",
      "paths:",
      ...operation("/basic", "basicAuth"),
      ...operation("/oauth", "oauth"),
      ...operation("/key", "queryKey"),
      ...operation("/bearer", "bearerAuth"),
      "components:",
      "  securitySchemes:",
      "    basicAuth: { type: http, scheme: basic }",
      "    bearerAuth: { type: http, scheme: bearer }",
      "    queryKey: { type: apiKey, in: query, name: api_key }",
      "    oauth:",
      "      type: oauth2",
      "      flows: { clientCredentials: { tokenUrl: 'https://auth.example.test/token', scopes: {} } }",
      "",
    ].join("\n"),
  );
  const mock = await startMock(shop, { port: 0, specPath: spec });
  await mock.close();
  expect(mock.auth).toEqual(["Authorization: basic", "oauth2", "api_key (query)", "Authorization: Bearer"]);
});

it("close() resolves once the request in flight has ended", async () => {
  const mock = await startMock(shop, { port: 0 });
  const socket = connect({ host: "127.0.0.1", port: mock.port });
  socket.on("error", () => {});
  // The server says "100 Continue" once it has the request's head: the request is then in flight.
  const continued = new Promise<Buffer>((resolve) => socket.once("data", resolve));
  socket.write(
    "POST /v1/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
  );
  expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
  const order: string[] = [];
  const closing = mock.close().then(() => order.push("closed"));
  await new Promise(setImmediate); // what close() does at once is done
  order.push("request ended");
  socket.end("{}");
  await closing;
  socket.destroy();
  expect(order).toEqual(["request ended", "closed"]);
});

describe("Prism's reading kept between starts", () => {
  /** A copy of the shop fixture's bundle whose first summary is a text found nowhere else. */
  function probeSpec(name: string) {
    const probe = `Probe ${randomUUID()}`;
    const path = join(work, name);
    copyFileSync(shop.bundlePath, path);
    writeFileSync(path, readFileSync(path, "utf8").replace("summary: Create an order", `summary: ${probe}`));
    return { path, probe };
  }
  /** The files of the default cache folder that hold `text`. */
  const holding = (text: string) =>
    readdirSync(defaultCacheDir(), { withFileTypes: true })
      .filter((file) => file.isFile())
      .map((file) => join(defaultCacheDir(), file.name))
      .filter((file) => readFileSync(file).includes(text));

  it("is kept for a registry entry's bundle, and never for a spec given by path", async () => {
    // The default folder is usable here (a mark is kept), or nothing could be kept at all.
    mark("mock-start test", "usable");
    expect(marked("mock-start test", "usable")).toBe(true);

    const bundle = probeSpec("bundle.yaml");
    const mock = await startMock({ ...shop, bundlePath: bundle.path }, { port: 0 });
    await mock.close();
    const kept = holding(bundle.probe);
    for (const file of kept) rmSync(file);
    expect(kept).toHaveLength(1);

    const given = probeSpec("given.yaml");
    const byPath = await startMock(shop, { port: 0, specPath: given.path });
    await byPath.close();
    expect(holding(given.probe)).toEqual([]);
  });
});

describe("the sandbox and its store", () => {
  it("starts no sandbox unless asked, and reports the store of the one it starts", async () => {
    const plain = await startMock(shop, { port: 0 });
    const sandboxed = await startMock(shop, { port: 0, sandbox: true });
    try {
      // Without a sandbox, /_sandbox is a path the spec does not have: Prism's 404.
      expect((await fetch(`${plain.url}/_sandbox`)).status).toBe(404);
      expect((await fetch(`${sandboxed.url}/_sandbox`)).status).toBe(200);
      expect("store" in plain).toBe(false);
      expect(sandboxed.store).toBe("memory");
    } finally {
      await closeMocks([plain, sandboxed]);
    }
  });

  it("keeps hosted mode's partners in the sandbox's store option, else in the environment's store", async () => {
    const hostedStore = async (store: string | (() => never) | undefined) => {
      const mock = await startMock(shop, {
        port: 0,
        sandbox: { operatorToken: OPERATOR_TOKEN, store: store as string | undefined, hosted: { log: messages().stream } },
      });
      await mock.close();
      return mock.hosted?.store;
    };
    vi.stubEnv("BANK_API_CONTRACTS_SANDBOX_STORE", `file:${mkdtempSync(join(work, "environment-"))}`);
    try {
      expect(await hostedStore(`file:${mkdtempSync(join(work, "option-"))}`)).toBe("file");
      expect(await hostedStore(undefined)).toBe("file");
      // A store of the caller's own (a function making the sandbox's state stores): partners in memory.
      const own = () => {
        throw new Error("no state is made: no request reaches the sandbox");
      };
      expect(await hostedStore(own)).toBe("memory");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("startMocks", () => {
  it("in hosted mode, leaves the shared service unready and stops it when one of the mocks cannot start", async () => {
    const base = await freePortRange(fixtures.length);
    const held = await occupyPort(base + 1);
    const log = messages();
    try {
      await expect(
        startMocks(fixtures, { portBase: base, sandbox: { operatorToken: OPERATOR_TOKEN, hosted: { log: log.stream } } }),
      ).rejects.toThrow(`${vault.alias}: port ${base + 1}`);
    } finally {
      await held.close();
    }
    expect(log.seen).not.toContain("sandbox ready");
    expect(log.seen.at(-1)).toBe("sandbox stopped");
  });

  it("looks aliases up in the repository's registry, among entries given as they are, each on its registry port", async () => {
    const registry = loadRegistry();
    const known = registry.map((e) => e.alias).join(", ");
    const base = await freePortRange(registry.length);
    const [second] = await startMocks([registry[1].alias], { portBase: base });
    await second.close();
    expect(second).toMatchObject({ alias: registry[1].alias, port: base + 1 });
    await expect(startMocks([shop, "no-such-api@9.9.9"], { freePorts: true })).rejects.toThrow(
      `unknown API "no-such-api@9.9.9"; known: ${known}`,
    );
  });

  it('takes "all" as the whole registry (hosted mode without its operator token fails before any mock starts)', async () => {
    vi.stubEnv("BANK_API_CONTRACTS_OPERATOR_TOKEN", "");
    try {
      await expect(startMocks("all", { freePorts: true, sandbox: { hosted: true } })).rejects.toThrow(
        "hosted mode needs an operator token: set $BANK_API_CONTRACTS_OPERATOR_TOKEN",
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
