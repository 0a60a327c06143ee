/**
 * `bank-api-contracts callback` against a local handler (createCallbackHandler on node:http), for
 * every webhook of the registry; and its misuse (exit 2 with the usage) and failures (exit 1).
 */
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createCallbackHandler, type CallbackEvent, listWebhooks } from "../../../../src/callbacks/index.js";
import { loadRegistry } from "../../../../src/registry.js";
import { cliInProcess } from "../../../helpers/cli.js";

const webhooks = listWebhooks();

/** The webhooks the source documents describe, by API (hand-written; every other API has none). */
const SOURCE_WEBHOOKS: Record<string, string[]> = {
  "pay@1.3.0": ["invoicePaid"],
  "payment-initiation@1.0.0": ["transactionCompleted"],
  "statement@1.0.0": ["statementStatusChanged"],
};

it("the registry's webhooks are the ones the sources describe", () => {
  const expected = loadRegistry().flatMap((e) => (SOURCE_WEBHOOKS[e.alias] ?? []).map((name) => `${e.alias} ${name}`));
  expect(webhooks.map((w) => `${w.alias} ${w.name}`)).toEqual(expected);
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks` };
}

/** Runs the CLI in-process; returns the exit code and what it wrote. */
const cli = (...argv: string[]) => cliInProcess(argv);

afterEach(() => vi.restoreAllMocks());

describe.each(webhooks.map((w) => [`${w.alias} ${w.name}`, w] as const))("callback %s", (_label, webhook) => {
  const events: CallbackEvent[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await listen(
      createCallbackHandler(webhook.alias, webhook.name, (e) => void events.push(e), { acceptUnverified: true }),
    ));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends a schema-valid callback the handler accepts; --repeat 2 re-sends it with the same key", async () => {
    events.length = 0;
    const key = webhook.idempotencyKey ? [] : ["--key", `cli-${Date.now()}`];
    const { code, stdout } = await cli("callback", webhook.alias, webhook.name, "--to", url, "--repeat", "2", ...key);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${webhook.alias} ${webhook.name}: sending .+ to ${url}$`));
    const keys = lines.slice(1, 4).map((line) => /Idempotency-Key: (\S+) -> 200 \(\d+ ms\)$/.exec(line)?.[1]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBeTruthy();
    expect(new Set(keys).size).toBe(1);
    expect(lines[4]).toBe(`${webhook.alias} ${webhook.name}: 3 deliveries, every one answered 2xx`);
    expect(events).toHaveLength(1);
    expect(events[0].idempotencyKey).toBe(keys[0]);
  });

  it("sends a fresh key each run", async () => {
    if (!webhook.idempotencyKey) {
      // The spec does not name the header: the CLI sends none unless asked (--key).
      const { code, stdout } = await cli("callback", webhook.alias, webhook.name, "--to", url);
      expect(code).toBe(0);
      expect(stdout).toContain("(no Idempotency-Key: the spec does not name the header) -> 200");
      return;
    }
    events.length = 0;
    expect((await cli("callback", webhook.alias, webhook.name, "--to", url)).code).toBe(0);
    expect((await cli("callback", webhook.alias, webhook.name, "--to", url)).code).toBe(0);
    expect(events).toHaveLength(2);
    expect(events[0].idempotencyKey).not.toBe(events[1].idempotencyKey);
  });
});

describe("callback, status variants", () => {
  const withStatuses = webhooks.filter((w) => w.statuses.length > 0);

  it("some webhook of the registry lists status codes", () => {
    expect(withStatuses.length).toBeGreaterThan(0);
  });

  it.each(withStatuses.flatMap((w) => w.statuses.map((s) => [`${w.alias} ${w.name} ${s.code} ${s.status}`, w, s] as const)))(
    "--status picks %s",
    async (_label, webhook, status) => {
      const events: CallbackEvent[] = [];
      const { server, url } = await listen(
        createCallbackHandler(webhook.alias, webhook.name, (e) => void events.push(e), { acceptUnverified: true }),
      );
      try {
        const byName = await cli("callback", webhook.alias, webhook.name, "--to", url, "--status", status.status);
        expect(byName.code).toBe(0);
        expect(byName.stdout).toContain(`status ${status.code} ${status.status}`);
        const byCode = await cli("callback", webhook.alias, webhook.name, "--to", url, "--status", String(status.code));
        expect(byCode.code).toBe(0);
        expect(events.map((e) => (e.payload as Record<string, unknown>).status)).toEqual([status.status, status.status]);
      } finally {
        server.close();
      }
    },
  );
});

describe("callback, misuse and failures", () => {
  const [webhook] = webhooks;
  const withoutStatuses = webhooks.find((w) => w.statuses.length === 0);

  it("exits 2 with the usage for an unknown API, an unknown webhook, a missing --to, a bad --repeat", async () => {
    const unknownApi = await cli("callback", "nope@1.0.0", "x", "--to", "http://127.0.0.1:1/");
    expect(unknownApi.code).toBe(2);
    expect(unknownApi.stderr).toContain('unknown API "nope@1.0.0"');
    expect(unknownApi.stderr).toContain("Usage: bank-api-contracts callback");
    const unknownWebhook = await cli("callback", webhook.alias, "nope", "--to", "http://127.0.0.1:1/");
    expect(unknownWebhook.code).toBe(2);
    expect(unknownWebhook.stderr).toContain(`${webhook.alias} has no webhook "nope"; known: ${webhook.name}`);
    const noTo = await cli("callback", webhook.alias, webhook.name);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain("--to <url>");
    const badRepeat = await cli("callback", webhook.alias, webhook.name, "--to", "http://127.0.0.1:1/", "--repeat", "-1");
    expect(badRepeat.code).toBe(2);
  });

  // pay@1.2.0's source describes no webhook; statement's webhook lists no status variants.
  const quiet = loadRegistry().find((e) => e.alias === "pay@1.2.0");
  it("exits 2 for an API without webhooks", async () => {
    expect(quiet).toBeDefined();
    const result = await cli("callback", quiet!.alias, "anything", "--to", "http://127.0.0.1:1/");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${quiet!.alias} has no webhook "anything"; it declares no webhooks`);
  });

  it("exits 2 when --status is given for a webhook without status variants", async () => {
    expect(withoutStatuses?.name).toBe("invoicePaid");
    const result = await cli("callback", withoutStatuses!.alias, withoutStatuses!.name, "--to", "http://127.0.0.1:1/", "--status", "X");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("declares no status variants");
  });

  it("exits 1 and prints the answer when the endpoint does not answer 2xx", async () => {
    const { server, url } = await listen((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":"maintenance"}');
    });
    try {
      const result = await cli("callback", webhook.alias, webhook.name, "--to", url);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain("-> 503");
      expect(result.stdout).toContain('{"error":"maintenance"}');
      expect(result.stdout).toContain("not every one answered 2xx");
    } finally {
      server.close();
    }
  });
});

describe("callback --example and --data", () => {
  const withExample = webhooks.filter((w) => w.examples.length > 0);
  let server: Server;
  let url: string;
  const received: unknown[] = [];
  beforeAll(async () => {
    ({ server, url } = await listen((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        received.push(JSON.parse(text));
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    }));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("--example sends that named example, for every webhook that has one", async () => {
    expect(withExample.map((w) => `${w.alias} ${w.name}`)).toEqual([
      "payment-initiation@1.0.0 transactionCompleted",
      "statement@1.0.0 statementStatusChanged",
    ]);
    for (const webhook of withExample) {
      received.length = 0;
      const example = webhook.examples[0];
      const { code, stdout } = await cli("callback", webhook.alias, webhook.name, "--to", url, "--example", example.name);
      expect(code, stdout).toBe(0);
      expect(stdout).toContain(`sending example "${example.name}"`);
      expect(received).toEqual([example.value]);
    }
    const unknown = await cli("callback", withExample[0].alias, withExample[0].name, "--to", url, "--example", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('has no example "nope"; examples: placeholder');
  });

  it("--data sends the file's payload; a file that is not JSON, or --data with --example, is a misuse", async () => {
    const webhook = withExample[0];
    const dir = mkdtempSync(join(tmpdir(), "callback-data-"));
    try {
      const payload = structuredClone(webhook.examples[0].value) as Record<string, unknown>;
      const good = join(dir, "good.json");
      writeFileSync(good, JSON.stringify(payload));
      received.length = 0;
      const sent = await cli("callback", webhook.alias, webhook.name, "--to", url, "--data", good);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain("sending the given payload");
      expect(received).toEqual([payload]);

      // The sources show none of these payloads: their schemas accept any JSON, so no file payload is
      // invalid here (send.ts's tests check the validation on a fixture webhook with a schema).
      const notJson = join(dir, "not.json");
      writeFileSync(notJson, "{");
      const broken = await cli("callback", webhook.alias, webhook.name, "--to", url, "--data", notJson);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain(`${notJson} is not JSON`);

      const both = await cli("callback", webhook.alias, webhook.name, "--to", url, "--data", good, "--example", "placeholder");
      expect(both.code).toBe(2);
      expect(both.stderr).toContain("--data replaces the example");
      expect(received).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
