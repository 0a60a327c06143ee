/**
 * A sandbox mock's start-up (src/sandbox/start.ts): the declaration is checked at start, a broken one
 * fails the start naming the file, line and member, every time (a check that passed is remembered
 * only for the exact bytes it read: a change of the declaration or of the document checks it again);
 * the engine and the control API are made on the first request that needs them, and a declaration
 * that passed is then read without being checked again (src/sandbox/declaration.ts `trustDeclaration`).
 * The store (`store`, else BANK_API_CONTRACTS_SANDBOX_STORE): opened at start, a bad one failing the
 * start naming it; a mock's close() answers the sandbox's requests in flight before it stops.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { loadDeclaration, trustDeclaration } from "../../../../src/sandbox/declaration.js";
import { bytesHash, checkDeclaration, declarationPath, startSandbox } from "../../../../src/sandbox/start.js";
import { STORE_ENV } from "../../../../src/sandbox/store/open.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const fixture = readFileSync(join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"), "utf8");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let made = 0;
const fresh = (name: string) => join(work, `${name}-${made++}`);
const writeDeclaration = (text: string) => {
  const path = `${fresh("declaration")}.yaml`;
  writeFileSync(path, text);
  return path;
};
/** A copy of the shop's bundled document, which a test may change. */
const documentCopy = () => {
  const path = `${fresh("openapi")}.yaml`;
  copyFileSync(shop.bundlePath, path);
  return path;
};
/** The marks kept in a cache folder (it also keeps the parsed documents). */
const marks = (dir: string) => readdirSync(dir).filter((file) => file.startsWith("mark-"));
const BROKEN = fixture.replace("initial: CREATED", "initial: SHIPPED");
const BROKEN_LINE = BROKEN.split("\n").findIndex((line) => line.includes("initial: SHIPPED")) + 1;
const BROKEN_MESSAGE = 'resources.order.status.initial: "SHIPPED" is not a status #/components/schemas/Order allows';

/** The error `promise` rejects with (undefined when it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error | undefined> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("the declaration check at start", () => {
  it("passes the declarations of the registry, and of the fixture, remembering each (one mark a declaration)", async () => {
    const dir = fresh("cache");
    for (const entry of loadRegistry()) {
      const passed = await checkDeclaration(declarationPath(entry), entry.bundlePath, dir);
      expect(passed, entry.alias).toEqual({
        declaration: bytesHash(readFileSync(declarationPath(entry))),
        document: bytesHash(readFileSync(entry.bundlePath)),
      });
    }
    expect(marks(dir)).toHaveLength(loadRegistry().length);
  });

  it("has nothing to check for an API without a declaration", async () => {
    expect(await checkDeclaration(join(work, "none.yaml"), shop.bundlePath, fresh("cache"))).toBeUndefined();
  });

  it("fails a broken declaration at every start, naming the file, line and member, and remembers nothing of it", async () => {
    const dir = fresh("cache");
    const path = writeDeclaration(BROKEN);
    for (let start = 0; start < 2; start++) {
      const error = await failure(checkDeclaration(path, shop.bundlePath, dir));
      expect(error?.name).toBe("DeclarationError");
      expect(error?.message).toContain(`${relative(repoRoot, path)}:${BROKEN_LINE}:`);
      expect(error?.message).toContain(BROKEN_MESSAGE);
    }
    expect(marks(dir)).toHaveLength(0);
  });

  it("checks a declaration again when it changes after it passed: a broken change fails the start", async () => {
    const dir = fresh("cache");
    const path = writeDeclaration(fixture);
    expect(await checkDeclaration(path, shop.bundlePath, dir)).toBeDefined();
    writeFileSync(path, BROKEN);
    const error = await failure(checkDeclaration(path, shop.bundlePath, dir));
    expect(error?.message).toContain(`${relative(repoRoot, path)}:${BROKEN_LINE}:`);
    expect(error?.message).toContain(BROKEN_MESSAGE);
  });

  it("checks a declaration again when the document changes after it passed: a schema gone fails the start", async () => {
    const dir = fresh("cache");
    const path = writeDeclaration(fixture);
    const spec = documentCopy();
    expect(await checkDeclaration(path, spec, dir)).toBeDefined();
    writeFileSync(spec, readFileSync(spec, "utf8").replaceAll("schemas/Order", "schemas/Parcel").replace("    Order:", "    Parcel:"));
    const error = await failure(checkDeclaration(path, spec, dir));
    expect(error?.name).toBe("DeclarationError");
    expect(error?.message).toContain("resources.order.schema: #/components/schemas/Order is not a schema of the API's document");
  });

  it("startMock with a broken declaration fails, naming the file, line and member", async () => {
    const path = writeDeclaration(BROKEN);
    const error = await failure(startMock(shop, { port: 0, sandbox: { declarationPath: path, registry: registryPath } }));
    expect(error?.name).toBe("DeclarationError");
    expect(error?.message).toContain(`${relative(repoRoot, path)}:${BROKEN_LINE}:`);
    expect(error?.message).toContain(BROKEN_MESSAGE);
  });

  it("startMock with options out of bounds fails at start", async () => {
    const error = await failure(startMock(shop, { port: 0, sandbox: { registry: registryPath, deliveryQueue: 0 } }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error?.message).toContain("deliveryQueue");
  });
});

describe("the engine and control API, made on first use", () => {
  const controlRequest = (url: string) => {
    const written: { status?: number; body?: string } = {};
    const response = {
      setHeader() {},
      writeHead(status: number) {
        written.status = status;
      },
      end(body: string) {
        written.body = body;
      },
    } as unknown as ServerResponse;
    const request = { method: "GET", url, headers: {} } as unknown as IncomingMessage;
    return { request, response, written };
  };

  it("are not made at start; the first control request makes them once, and answers", async () => {
    const path = writeDeclaration(fixture);
    const sandbox = await startSandbox(shop, { declarationPath: path, registry: registryPath }, shop.bundlePath, fresh("cache"));
    try {
      expect(sandbox.made()).toBeUndefined();
      const first = controlRequest("/_sandbox");
      const second = controlRequest("/_sandbox");
      const hooks = sandbox.hooks;
      expect(hooks.mayIntercept?.(first.request)).toBe(true);
      expect(hooks.mayIntercept?.({ url: "/orders" } as IncomingMessage)).toBe(false);
      await Promise.all([
        hooks.intercept!(first.request, first.response, Buffer.alloc(0)),
        hooks.intercept!(second.request, second.response, Buffer.alloc(0)),
      ]);
      const engine = sandbox.made()?.engine;
      expect(engine).toBeDefined();
      expect(Object.keys(engine!.declaration!.resources)).toEqual(["order"]);
      expect(first.written.status).toBe(200);
      expect(JSON.parse(first.written.body!)).toEqual(JSON.parse(second.written.body!));
    } finally {
      await sandbox.close();
    }
  });
});

describe("the store, opened at start", () => {
  const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
  const order = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };
  const json = { authorization: "Bearer start-store", "content-type": "application/json" };
  const create = (url: string) => fetch(`${url}/v1/order`, { method: "POST", headers: json, body: JSON.stringify(order) });
  const read = async (url: string, id: string) => (await fetch(`${url}/v1/order/${id}`, { headers: json })).status;

  it("keeps the state where the option says, named by the mock; a mock started next on it reads it back", async () => {
    const dir = fresh("store");
    const first = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath, store: `file:${dir}` } });
    expect(first.store).toBe(`file:${dir}`);
    const id = (await (await create(first.url)).json()).order_id;
    await first.close();
    const second = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath, store: `file:${dir}` } });
    try {
      expect(await read(second.url, id)).toBe(200);
    } finally {
      await second.close();
    }
    const memory = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath } });
    expect(memory.store).toBe("memory");
    await memory.close();
  });

  it("takes the environment variable's address when the option gives none", async () => {
    const dir = fresh("store-env");
    const before = process.env[STORE_ENV];
    process.env[STORE_ENV] = `file:${dir}`;
    try {
      const mock = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath } });
      expect(mock.store).toBe(`file:${dir}`);
      await mock.close();
    } finally {
      if (before === undefined) delete process.env[STORE_ENV];
      else process.env[STORE_ENV] = before;
    }
  });

  it("fails the start naming the store: a bad address, a store that cannot be opened", async () => {
    const bad = await failure(startMock(shop, { port: 0, sandbox: { registry: registryPath, store: "redis://cache:6379" } }));
    expect(bad?.message).toBe(
      `the sandbox's store option "redis://cache:6379": unknown kind of store "redis:"; accepted: memory, file:<dir>, postgres://user:password@host:port/database`,
    );
    const file = `${fresh("a-file")}.txt`;
    writeFileSync(file, "");
    const unopened = await failure(startMock(shop, { port: 0, sandbox: { registry: registryPath, store: `file:${file}` } }));
    expect(unopened?.message).toBe(
      `file store ${file}: is a file, not a directory (file:<dir> names the directory the store keeps its files in)`,
    );
  });

  it("answers the sandbox's requests in flight when the mock closes, then stops: their changes kept", async () => {
    const dir = fresh("store-drain");
    const sandbox = { declarationPath, registry: registryPath, store: `file:${dir}` };
    const mock = await startMock(shop, { port: 0, sandbox });
    // The next create is held a second by a queued latency: closing starts while it is in flight.
    const rule = await fetch(`${mock.url}/_sandbox/errors`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ operation_id: "createOrder", latency_ms: 1000 }),
    });
    expect(rule.status).toBe(201);
    const inFlight = create(mock.url);
    // In flight once the sandbox has taken its rule (then it waits out the latency).
    const rules = async () => (await (await fetch(`${mock.url}/_sandbox/errors`, { headers: json })).json()).errors.length;
    while ((await rules()) > 0);
    const closed = mock.close();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    const id = (await answer.json()).order_id;
    await closed;
    const again = await startMock(shop, { port: 0, sandbox });
    try {
      expect(await read(again.url, id)).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe("a declaration that passed its check", () => {
  const doc = loadDocument(shop.bundlePath);

  it("is read without checking it again for the bytes that passed, and checked for any other", () => {
    const path = writeDeclaration(BROKEN);
    expect(() => loadDeclaration(path, doc)).toThrow(BROKEN_MESSAGE);
    // What a mark says of these bytes (here untrue, to show that the check is not run again).
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    expect(loadDeclaration(path, doc).resources.order.status?.initial).toBe("SHIPPED");
    writeFileSync(path, `${BROKEN}\n`);
    expect(() => loadDeclaration(path, doc)).toThrow(BROKEN_MESSAGE);
  });

  it("is read as the full check reads it", () => {
    const path = writeDeclaration(fixture);
    const checked = loadDeclaration(path, doc);
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    const trusted = loadDeclaration(path, doc);
    expect(JSON.stringify(trusted)).toBe(JSON.stringify(checked));
  });
});
