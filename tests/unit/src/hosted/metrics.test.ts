/**
 * The hosted sandbox's Prometheus metrics (src/hosted/metrics.ts): a registry of its own, the names,
 * types and help a Prometheus user expects, requests by API, operation and status, the latency
 * histogram, what the sandbox holds read when scraped, deliveries by outcome, refused connections;
 * every label value bounded.
 */
import { register as globalRegistry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HostedMetrics } from "../../../../src/hosted/metrics.js";

/** The samples of a text exposition: `name{labels} value` lines, by their name and labels. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

/** `# TYPE name type` lines, by name. */
function types(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
}

const P = "bank_api_contracts_sandbox_";

describe("the metrics", () => {
  it("are the documented ones, of the types Prometheus expects, each with help", async () => {
    const metrics = new HostedMetrics({ processMetrics: false });
    const { body, contentType } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(Object.fromEntries(types(body))).toEqual({
      [`${P}requests_total`]: "counter",
      [`${P}request_duration_seconds`]: "histogram",
      [`${P}callback_deliveries_total`]: "counter",
      [`${P}connections_refused_total`]: "counter",
      [`${P}partners`]: "gauge",
      [`${P}records`]: "gauge",
      [`${P}record_bytes`]: "gauge",
      [`${P}callbacks_queued`]: "gauge",
    });
    for (const name of types(body).keys()) expect(body).toMatch(new RegExp(`^# HELP ${name} \\S.*$`, "m"));
  });

  it("live in a registry of their own, never the library's global one", async () => {
    const before = await globalRegistry.metrics();
    const metrics = new HostedMetrics();
    metrics.request({ api: "pay@1.3.0", operation: "getMerchant", status: 200, seconds: 0.01 });
    expect(await globalRegistry.metrics()).toBe(before);
    expect(await globalRegistry.metrics()).not.toContain(P);
    // Two in one process do not mix.
    const other = new HostedMetrics();
    expect(
      samples((await other.render()).body).get(`${P}requests_total{api="pay@1.3.0",operation="getMerchant",status="200"}`),
    ).toBeUndefined();
  });

  it("include the process's own under the usual names", async () => {
    const { body } = await new HostedMetrics().render();
    expect(body).toMatch(/^process_cpu_seconds_total \d/m);
    expect(body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
  });

  it("count requests by API, operation and status, and their latency", async () => {
    const metrics = new HostedMetrics({ processMetrics: false });
    metrics.request({ api: "pay@1.3.0", operation: "getMerchant", status: 200, seconds: 0.004 });
    metrics.request({ api: "pay@1.3.0", operation: "getMerchant", status: 200, seconds: 0.2 });
    metrics.request({ api: "pay@1.3.0", operation: "getMerchant", status: 401, seconds: 0.001 });
    metrics.request({ api: "balance@1.0.0", operation: undefined, status: 404, seconds: 0.0001 });
    const found = samples((await metrics.render()).body);
    expect(found.get(`${P}requests_total{api="pay@1.3.0",operation="getMerchant",status="200"}`)).toBe(2);
    expect(found.get(`${P}requests_total{api="pay@1.3.0",operation="getMerchant",status="401"}`)).toBe(1);
    expect(found.get(`${P}requests_total{api="balance@1.0.0",operation="none",status="404"}`)).toBe(1);
    expect(found.get(`${P}request_duration_seconds_count{api="pay@1.3.0",operation="getMerchant"}`)).toBe(3);
    expect(found.get(`${P}request_duration_seconds_sum{api="pay@1.3.0",operation="getMerchant"}`)).toBeCloseTo(0.205, 6);
    expect(found.get(`${P}request_duration_seconds_bucket{le="0.005",api="pay@1.3.0",operation="getMerchant"}`)).toBe(2);
    expect(found.get(`${P}request_duration_seconds_bucket{le="+Inf",api="pay@1.3.0",operation="getMerchant"}`)).toBe(3);
  });

  it("read what the sandboxes hold when scraped, every source added, until it is removed", async () => {
    const metrics = new HostedMetrics({ processMetrics: false });
    let records = 3;
    const remove = metrics.holdings(() => [{ api: "pay@1.3.0", records, bytes: 1200, queuedCallbacks: 2 }]);
    metrics.holdings(() => [{ api: "balance@1.0.0", records: 1, bytes: 10, queuedCallbacks: 0 }]);
    let found = samples((await metrics.render()).body);
    expect(found.get(`${P}records{api="pay@1.3.0"}`)).toBe(3);
    expect(found.get(`${P}record_bytes{api="pay@1.3.0"}`)).toBe(1200);
    expect(found.get(`${P}callbacks_queued{api="pay@1.3.0"}`)).toBe(2);
    expect(found.get(`${P}records{api="balance@1.0.0"}`)).toBe(1);
    records = 7;
    expect(samples((await metrics.render()).body).get(`${P}records{api="pay@1.3.0"}`)).toBe(7);
    remove();
    found = samples((await metrics.render()).body);
    expect(found.get(`${P}records{api="pay@1.3.0"}`)).toBeUndefined();
    expect(found.get(`${P}records{api="balance@1.0.0"}`)).toBe(1);
  });

  it("count deliveries by outcome, anything unknown as `other`, and refused connections by reason", async () => {
    const metrics = new HostedMetrics({ processMetrics: false });
    metrics.delivery("pay@1.3.0", "delivered");
    metrics.delivery("pay@1.3.0", "delivered");
    metrics.delivery("pay@1.3.0", "failed");
    metrics.delivery("pay@1.3.0", "http://attacker.test/?a=1");
    metrics.refused("max-connections-per-address");
    metrics.countPartners(async () => 4);
    const found = samples((await metrics.render()).body);
    expect(found.get(`${P}callback_deliveries_total{api="pay@1.3.0",outcome="delivered"}`)).toBe(2);
    expect(found.get(`${P}callback_deliveries_total{api="pay@1.3.0",outcome="failed"}`)).toBe(1);
    expect(found.get(`${P}callback_deliveries_total{api="pay@1.3.0",outcome="other"}`)).toBe(1);
    expect(found.get(`${P}connections_refused_total{reason="max-connections-per-address"}`)).toBe(1);
    expect(found.get(`${P}partners`)).toBe(4);
  });
});
