/**
 * Hosted mode on the durable stores, as processes (`mock pay@1.3.0 --sandbox --hosted
 * --sandbox-store <address>`):
 *
 * - `file:`: the start says what survives; partners, their quotas and their state survive a
 *   restart (a partner issued before it is served after it, its invoice there);
 * - Postgres (a private cluster, tests/helpers/postgres.ts), two instances on one database: a
 *   partner issued through one is served through the other; revoked through one, it is refused
 *   through the other from its next request; its records quota holds over both; and its request
 *   rate is counted once for both (the counters in the database): requests split over the two
 *   instances are let through no more than one instance alone lets through.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { type PostgresCluster, startPostgres } from "../../helpers/postgres.js";
import { apiOf, type Hosted, issue, operator, send, startHosted } from "./process.js";

const TOKEN = "operator-token-of-the-stores-e2e-0042";
const PAY = apiOf("pay@1.3.0");
const started: Hosted[] = [];
afterAll(async () => {
  await Promise.all(started.map((hosted) => hosted.stop()));
});

async function start(address: string): Promise<Hosted> {
  const hosted = await startHosted(TOKEN, [PAY.entry.alias], ["--sandbox-store", address]);
  started.push(hosted);
  return hosted;
}

const invoice = (hosted: Hosted, credential: string) =>
  send(hosted.url(PAY.entry.alias), PAY, PAY.op("createInvoice"), credential, { amount: { cur: "IDR", amt: "150000" }, item_id: "SKU-1" });
const invoices = async (hosted: Hosted, credential: string) =>
  JSON.parse((await send(hosted.url(PAY.entry.alias), PAY, PAY.op("listInvoices"), credential)).text);

describe("file: partners and their state outlive the process", { timeout: 120_000 }, () => {
  const folder = mkdtempSync(join(repoRoot, ".tmp", "hosted-file-e2e-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("serves after a restart the partner issued before it, its quotas and its invoice kept", async () => {
    const first = await start(`file:${folder}`);
    expect(first.run.stderr()).toContain(
      "Hosted mode, store file: partners, their quotas and every partner's state are kept across restarts.",
    );
    const partner = await issue(first, "Kept", { records: 7 });
    const created = JSON.parse((await invoice(first, partner.credential)).text);
    expect(await first.stop()).toBe(0);

    const second = await start(`file:${folder}`);
    const listed = await operator(second, "GET", "/_sandbox/partners");
    expect(listed.body.partners).toEqual([expect.objectContaining({ id: partner.id, name: "Kept", overridden: ["records"] })]);
    const kept = await invoices(second, partner.credential);
    expect(JSON.stringify(kept)).toContain(created.invoice_id);
    expect((await invoice(second, "made-up-after-restart")).status).toBe(401);
  });
});

describe("postgres: two instances on one database serve the same partners under the same quotas", { timeout: 120_000 }, () => {
  let cluster: PostgresCluster | undefined;
  let a: Hosted;
  let b: Hosted;
  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    [a, b] = await Promise.all([start(url), start(url)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cluster?.stop();
  });

  it("serves through one instance a partner issued through the other, and refuses it through the other once revoked", async () => {
    expect(a.run.stderr()).toContain(
      "Hosted mode, store postgres: partners, their quotas and every partner's state are kept across restarts.",
    );
    const partner = await issue(a, "Both");
    expect((await invoice(b, partner.credential)).status).toBe(200);
    expect((await operator(b, "GET", "/_sandbox/partners")).body.partners.map((p: { id: string }) => p.id)).toContain(partner.id);
    expect((await operator(a, "DELETE", `/_sandbox/partners/${partner.id}`)).status).toBe(200);
    expect((await invoice(b, partner.credential)).status).toBe(401);
    expect((await invoice(a, partner.credential)).status).toBe(401);
  });

  it("holds a partner's records quota over both instances", async () => {
    // Four records: the merchant Pay's sandbox keeps for every credential, and three invoices.
    const partner = await issue(a, "Four records", { records: 4 });
    const statuses = [];
    for (const hosted of [a, b, a, b]) statuses.push((await invoice(hosted, partner.credential)).status);
    expect(statuses).toEqual([200, 200, 200, 507]);
  });

  it("counts a partner's request rate once for both instances", async () => {
    // 1 a second and 5 more within 10 s: spread over two instances with counters of their own, 20
    // requests at once would get through 12 times (6 each); counted together, at most the seconds
    // they span plus 5.
    const partner = await issue(a, "Rated", { requests_per_second: 1, burst: 5 });
    const list = PAY.op("listInvoices");
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send((i % 2 === 0 ? a : b).url(PAY.entry.alias), PAY, list, partner.credential)),
    );
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const admitted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 429)).toBe(true);
    expect(seconds).toBeLessThanOrEqual(3);
    expect(admitted).toBeGreaterThanOrEqual(1);
    expect(admitted).toBeLessThanOrEqual(seconds + 1 + 5);
  });
});
