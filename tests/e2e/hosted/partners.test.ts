/**
 * Hosted mode as a process (`mock --sandbox --hosted`, every API, one process for the file): who is
 * served, and that no partner can take the service from the others.
 *
 * - A credential no one issued gets, on every operation of every API, the answer a request without
 *   any credential gets (the 401 its contract declares), by every method, reads included, and no
 *   state is made for it (the operator's listing of every API's states stays empty).
 * - An issued credential is served on every API, as the bearer token or the API key its scheme
 *   names; revoked, it gets 401 at once, on the API and on the control API.
 * - A partner past its request rate gets 429 with Retry-After while another partner is answered.
 * - The filler attack: 20 made-up credentials sending 1,320 creates of 250 KB, which on a shared
 *   sandbox filled its memory budget and left every partner a 507, are all refused 401, hold no
 *   memory, and a partner creating meanwhile is answered every time; 20 issued partners filling
 *   their byte quotas leave another partner creating too.
 * - Nothing the process writes carries a credential or the operator's token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requiresCredentials } from "../../../src/document/index.js";
import { apiOf, type Hosted, issue, operator, type Partner, send, startHosted } from "./process.js";
import { registry } from "../../helpers/registry.js";

const TOKEN = "operator-token-of-the-partners-e2e-0042";
const MADE_UP = "made-up-credential-of-the-e2e-0001";
const PAY = apiOf("pay@1.3.0");
const FILLER_BYTES = 250 * 1000;

let hosted: Hosted;
const partners: Partner[] = [];
beforeAll(async () => {
  hosted = await startHosted(TOKEN, []);
}, 120_000);
afterAll(async () => {
  await hosted?.stop();
});

/** Every API's states, as the operator lists them (labels), by alias. */
async function statesByApi(): Promise<Record<string, unknown[]>> {
  const listed: Record<string, unknown[]> = {};
  for (const entry of registry)
    listed[entry.alias] = (await operator(hosted, "GET", "/_sandbox/state/all", undefined, hosted.url(entry.alias))).body.credentials;
  return listed;
}

/** A Pay 1.3.0 invoice create with `credential`, its description `bytes` long. */
const createInvoice = (credential: string, bytes = 10) =>
  send(hosted.url(PAY.entry.alias), PAY, PAY.op("createInvoice"), credential, {
    amount: { cur: "IDR", amt: "150000" },
    item_id: "SKU-1",
    description: "d".repeat(bytes),
  });

/** Runs `tasks` with at most `width` in flight; resolves to their results in order. */
async function pooled<T>(tasks: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

describe("a credential no one issued", () => {
  it("gets each operation's answer to a request without a credential, on every API and by every method, and makes no state", async () => {
    const before = await statesByApi();
    let compared = 0;
    for (const entry of registry) {
      const api = apiOf(entry.alias);
      for (const op of api.ops) {
        const without = await send(hosted.url(entry.alias), api, op, undefined);
        const madeUp = await send(hosted.url(entry.alias), api, op, MADE_UP);
        const where = `${entry.alias} ${op.operationId}`;
        expect(without.status, where).toBe(requiresCredentials(api.doc, op) ? 401 : without.status);
        expect([madeUp.status, madeUp.headers.get("content-type"), madeUp.headers.get("sl-violations"), madeUp.text], where).toEqual([
          without.status,
          without.headers.get("content-type"),
          without.headers.get("sl-violations"),
          without.text,
        ]);
        compared++;
      }
    }
    // Every operation of every API, counted by hand from the specs: Pay 1.3.0 20, Pay 1.2.0 8, payment
    // initiation 4, statement 4, balance 3, disbursement 4, account opening 3.
    expect(compared).toBe(46);
    expect(await statesByApi()).toEqual(before);
  });
});

describe("an issued credential", () => {
  it("is served on every API, as the bearer token or the API key its scheme names", async () => {
    const partner = await issue(hosted, "Everywhere");
    partners.push(partner);
    for (const entry of registry) {
      const api = apiOf(entry.alias);
      const op =
        api.ops.find((o) => o.method === "get" && requiresCredentials(api.doc, o)) ?? api.ops.find((o) => requiresCredentials(api.doc, o))!;
      const answer = await send(hosted.url(entry.alias), api, op, partner.credential);
      expect([entry.alias, op.operationId, answer.status]).not.toEqual([entry.alias, op.operationId, 401]);
    }
  });

  it("revoked, gets 401 at once on every API and on the control API", async () => {
    const partner = await issue(hosted, "Revoked");
    partners.push(partner);
    expect((await createInvoice(partner.credential)).status).toBe(200);
    expect((await operator(hosted, "DELETE", `/_sandbox/partners/${partner.id}`)).status).toBe(200);
    expect((await createInvoice(partner.credential)).status).toBe(401);
    const disbursement = apiOf("disbursement@1.0.0");
    expect((await send(hosted.url(disbursement.entry.alias), disbursement, disbursement.ops[0], partner.credential)).status).toBe(401);
    const control = await fetch(`${hosted.url(PAY.entry.alias)}/_sandbox/state`, {
      headers: { authorization: `Bearer ${partner.credential}` },
    });
    expect(control.status).toBe(401);
  });
});

describe("a partner's rate", () => {
  it("answers it 429 with Retry-After past its rate, while another partner is answered", async () => {
    const noisy = await issue(hosted, "Noisy", { requests_per_second: 2, burst: 0 });
    const quiet = await issue(hosted, "Quiet");
    partners.push(noisy, quiet);
    const list = PAY.op("listInvoices");
    const [noisyAnswers, quietAnswer] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => send(hosted.url(PAY.entry.alias), PAY, list, noisy.credential))),
      send(hosted.url(PAY.entry.alias), PAY, list, quiet.credential),
    ]);
    const limited = noisyAnswers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    for (const answer of limited) {
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(JSON.parse(answer.headers.get("sl-violations")!)[0].code).toBe("sandbox-rate-limit");
    }
    expect(quietAnswer.status).toBe(200);
  });
});

describe("the filler attack", () => {
  it("20 made-up credentials sending 1,320 creates of 250 KB: all refused, no memory held, a partner answered all along", async () => {
    const honest = await issue(hosted, "Honest");
    partners.push(honest);
    const used = async () => (await operator(hosted, "GET", "/_sandbox")).body.memory.used_bytes as number;
    const before = await used();
    let attacking = true;
    const honestStatuses: number[] = [];
    const honestLoop = (async () => {
      while (attacking) honestStatuses.push((await createInvoice(honest.credential)).status);
    })();
    const attack = Array.from(
      { length: 1320 },
      (_, i) => () => createInvoice(`made-up-filler-${i % 20}`, FILLER_BYTES).then((a) => a.status),
    );
    const statuses = await pooled(attack, 20);
    attacking = false;
    await honestLoop;
    expect(statuses).toHaveLength(1320);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(honestStatuses.length).toBeGreaterThanOrEqual(3);
    expect(new Set(honestStatuses)).toEqual(new Set([200]));
    // Only the honest partner's small invoices were kept.
    expect((await used()) - before).toBeLessThan(honestStatuses.length * 2000);
  }, 180_000);

  it("20 issued partners filling their byte quota with 250 KB creates: each refused 507 at its quota, another partner creates on", async () => {
    const fillers = await Promise.all(Array.from({ length: 20 }, (_, i) => issue(hosted, `Filler ${i}`)));
    partners.push(...fillers);
    const quota = fillers[0].quotas.bytes;
    const perPartner = Math.ceil(quota / FILLER_BYTES) + 1;
    const tasks = fillers.flatMap((filler) =>
      Array.from({ length: perPartner }, () => () => createInvoice(filler.credential, FILLER_BYTES)),
    );
    const answers = await pooled(tasks, 10);
    // 4 MiB (4,194,304 bytes) holds 16 records of a little over 250,000 bytes, not 17.
    expect([quota, perPartner]).toEqual([4 * 1024 * 1024, 18]);
    for (let p = 0; p < fillers.length; p++) {
      const mine = answers.slice(p * perPartner, (p + 1) * perPartner);
      expect(mine.map((a) => a.status).sort(), fillers[p].name).toEqual([...Array(16).fill(200), 507, 507]);
      for (const refused of mine.filter((a) => a.status === 507)) expect(JSON.parse(refused.text).detail).toContain("this partner's quota");
    }
    const other = await issue(hosted, "After the fillers");
    partners.push(other);
    expect((await createInvoice(other.credential)).status).toBe(200);
    expect((await createInvoice(other.credential, FILLER_BYTES)).status).toBe(200);
  }, 180_000);
});

describe("what the process writes", () => {
  it("holds no credential, issued or made up, and not the operator's token", async () => {
    expect(await hosted.stop()).toBe(0);
    const written = hosted.run.stdout() + hosted.run.stderr();
    expect(hosted.lines().filter((line) => line.msg === "request").length).toBeGreaterThan(1400);
    for (const secret of [TOKEN, MADE_UP, "made-up-filler-", ...partners.map((p) => p.credential)]) expect(written).not.toContain(secret);
  });
});
