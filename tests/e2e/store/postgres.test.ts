/**
 * The Postgres store through the command line, on a private cluster (tests/helpers/postgres.ts):
 * the scenario of ./file.test.ts (SIGKILL during a burst of creates, SIGTERM with a callback attempt
 * in flight and a delayed move ahead; the guide's pg_dump and pg_restore lines in between, the tables
 * dropped first), then two instances on one database acting as one: what is created, moved,
 * registered or queued through one is seen through the other at once; 20 concurrent updates paying
 * one invoice, split over both, let exactly one through; a credential's bound holds over both; and
 * an instance killed while a receiver holds its callback attempt leaves the delivery to the other,
 * made with the event's same key.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { markedBlock } from "../../helpers/doc-blocks.js";
import { type PostgresCluster, startPostgres } from "../../helpers/postgres.js";
import { waitUntil } from "../../helpers/processes.js";
import {
  control,
  type Instance,
  invoiceBody,
  payCall,
  processOfConnection,
  receiver,
  restartScenario,
  sandboxArgs,
  startInstance,
  stop,
} from "./instances.js";

const MARKER = "tests/e2e/store/postgres.test.ts";
const backUp = markedBlock(MARKER, "back up").code;
const restore = markedBlock(MARKER, "restore").code;

const folder = mkdtempSync(join(repoRoot, ".tmp", "postgres-store-e2e-"));
const instances: Instance[] = [];
let cluster: PostgresCluster | undefined;
let url = "";

beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase();
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => stop(instance, "SIGKILL")));
  await cluster?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** The database of the test, as its name in the URL. */
const database = () => new URL(url).pathname.slice(1);

describe("postgres: the sandbox's state outlives its process", { timeout: 120_000 }, () => {
  restartScenario(
    () => startInstance(sandboxArgs(url)),
    instances,
    async () => {
      const env = { ...process.env, DATABASE_URL: url };
      execFileSync("sh", ["-ec", backUp], { cwd: folder, env, stdio: "pipe", timeout: 60_000 });
      // Lost: the next start reads what the guide's restore puts back.
      await cluster!.query("DROP TABLE sandbox_rows, sandbox_credentials, sandbox_partners, sandbox_schema_version", [], database());
      execFileSync("sh", ["-ec", restore], { cwd: folder, env, stdio: "pipe", timeout: 60_000 });
    },
  );
});

describe("postgres: two instances on one database act as one", { timeout: 120_000 }, () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance(sandboxArgs(url)), startInstance(sandboxArgs(url))]);
    instances.push(a, b);
  });

  it("shows through one instance at once what was created, moved, registered or queued through the other", async () => {
    const credential = "seen-by-both";
    const hook = await receiver();
    try {
      expect((await payCall(a, credential, "createMerchant", { body: { name: "Shop", webhook_url: hook.url } })).status).toBe(200);
      const id = (await payCall(a, credential, "createInvoice", { body: invoiceBody() })).body.invoice_id;
      expect((await control(b, credential).record("invoice", id)).status).toBe("Created");
      expect((await payCall(b, credential, "getMerchant")).body.webhook_url).toBe(hook.url);
      await control(b, credential).act("invoice", id, "pay");
      expect((await control(a, credential).record("invoice", id)).status).toBe("Success");
      // Its callback: made by one instance, once.
      const [delivered] = await hook.count(1);
      expect(delivered!.body).toMatchObject({ invoice_id: id, status: "Success" });
      // An error queued through one instance is used up by the next call, through the other.
      await control(a, credential).queueError("createInvoice", 500, 1);
      expect((await payCall(b, credential, "createInvoice", { body: invoiceBody() })).status).toBe(500);
      expect((await payCall(a, credential, "createInvoice", { body: invoiceBody() })).status).toBe(200);
      expect(await control(b, credential).errors()).toEqual({ errors: [] });
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it("serialises 20 concurrent updates paying one invoice through both instances: exactly one succeeds", async () => {
    const credential = "paid-once";
    const id = (await payCall(a, credential, "createInvoice", { body: invoiceBody() })).body.invoice_id;
    await control(b, credential).act("invoice", id, "flag");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        payCall(i % 2 ? a : b, credential, "updateInvoiceStatus", {
          path: { invoice_id: id },
          body: { invoice_id: id, status: "Success" },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    // The other 19: refused, as the API refuses an update of an invoice that is not Flagged.
    expect(statuses.filter((status) => status === 400)).toHaveLength(19);
    const events = await control(a, credential).events({ resourceId: id });
    expect(events.map((event) => event.type)).toEqual(["invoice.flag", "invoice.pay"]);
  });

  it("holds a credential's bounds across instances: 20 error rules queued through both, the 21st refused", async () => {
    const credential = "bounded";
    for (let i = 0; i < 20; i++) await control(i % 2 ? a : b, credential).queueError("createInvoice", 500, 1);
    const refused = await control(a, credential)
      .queueError("createInvoice", 500, 1)
      .catch((error: Error & { status?: number }) => error);
    expect(refused).toMatchObject({ status: 409 });
    expect((refused as Error).message).toMatch(/20 error rules are queued for this credential, the limit/);
    expect((await control(b, credential).errors()).errors).toHaveLength(20);
  });

  it("leaves the callback of an instance killed during its attempt to the other, made with the event's key", async () => {
    const credential = "mid-delivery";
    // The first attempt is held until its instance is killed; the next is answered.
    const hook = await receiver((n) => (n === 0 ? "hold" : 200));
    try {
      await payCall(a, credential, "createMerchant", { body: { name: "Shop", webhook_url: hook.url } });
      const id = (await payCall(a, credential, "createInvoice", { body: invoiceBody() })).body.invoice_id;
      await control(a, credential).act("invoice", id, "pay");
      const [first] = await hook.count(1);
      // Either instance may make the attempt (the one that raised it, or one that found it due): the one holding the connection is killed.
      const maker = processOfConnection(first!.remotePort, [a.pid, b.pid]);
      expect(maker, "the process making the attempt").toBeDefined();
      const [killed, survivor] = maker === a.pid ? [a, b] : [b, a];
      expect(await stop(killed, "SIGKILL")).toBe(null);

      // Made again once the attempt's lease ended, by the one instance left.
      const [, second] = await hook.count(2);
      expect(second).toMatchObject({ key: first!.key, body: { invoice_id: id, status: "Success" } });
      // The receiver has answered; the survivor records the answer once it reads it.
      const delivered = async () => (await control(survivor, credential).deliveries())[0];
      await waitUntil(async () => (await delivered())?.state === "delivered", "the second attempt recorded as delivered");
      const delivery = await delivered();
      expect(delivery).toMatchObject({ resource_id: id, state: "delivered", idempotency_key: first!.key });
      expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([0, 200]);
      expect(delivery!.attempts[0]!.error).toMatch(/no outcome: the sandbox process making this attempt stopped/);
      expect(hook.received).toHaveLength(2);
    } finally {
      await hook.close();
    }
  });
});
