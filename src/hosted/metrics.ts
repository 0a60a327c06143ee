/**
 * The Prometheus metrics of a hosted sandbox, with prom-client, in a registry of its own (never the
 * library's global one: two sandboxes in one process, or a partner's own metrics, do not mix), and
 * rendered in the text format for `GET /_sandbox/metrics` (behind the operator token).
 *
 * Every label has a bounded set of values: the API's alias and the operation's id come from the
 * registry and the documents, never from a request (a request no operation matches is counted as
 * operation "none"); a status is three digits; an outcome is one of DELIVERY_OUTCOMES. What the
 * sandbox holds (records, bytes, queued callbacks) is read from it when scraped (`holdings`).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Holdings } from "../sandbox/hosting.js";

const PREFIX = "bank_api_contracts_sandbox_";

/** How a callback delivery ended, as the sandbox's delivery log names it; anything else is counted as "other". */
export const DELIVERY_OUTCOMES = ["delivered", "failed", "skipped", "refused"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Why a connection was refused or closed by the server's guards (src/mock/listen.ts). */
export const REFUSAL_REASONS = ["max-connections", "max-connections-per-address", "timeout"] as const;

/** Latency buckets, seconds: from a fast-path answer to a large body's judgement. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the sandbox of one API holds, every partner together, when scraped (the sandbox's own type). */
export type { Holdings };

/** One request as the per-request hook reports it. */
export interface RequestObservation {
  api: string;
  /** The operation's id; undefined when no operation matched (404, 405, the control API). */
  operation: string | undefined;
  status: number;
  seconds: number;
}

export class HostedMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"api" | "operation" | "status">;
  private readonly latency: Histogram<"api" | "operation">;
  private readonly deliveries: Counter<"api" | "outcome">;
  private readonly refusals: Counter<"reason">;
  private readonly sources = new Set<() => Holdings[]>();
  private partnerCount: (() => Promise<number> | number) | undefined;

  constructor({ processMetrics = true }: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: `${PREFIX}requests_total`,
      help: "Requests answered, by API, operation and HTTP status.",
      labelNames: ["api", "operation", "status"],
      registers,
    });
    this.latency = new Histogram({
      name: `${PREFIX}request_duration_seconds`,
      help: "Time from a request's arrival to the end of its answer, in seconds, by API and operation.",
      labelNames: ["api", "operation"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.deliveries = new Counter({
      name: `${PREFIX}callback_deliveries_total`,
      help: "Callback deliveries ended, by API and outcome (delivered, failed, skipped, refused).",
      labelNames: ["api", "outcome"],
      registers,
    });
    this.refusals = new Counter({
      name: `${PREFIX}connections_refused_total`,
      help: "Connections the server refused or closed to protect the others, by reason.",
      labelNames: ["reason"],
      registers,
    });
    const partnerCount = () => this.partnerCount;
    new Gauge({
      name: `${PREFIX}partners`,
      help: "Partners holding an issued credential.",
      registers,
      async collect() {
        const source = partnerCount();
        if (source) this.set(await source());
      },
    });
    const sources = this.sources;
    const held = (name: string, help: string, pick: (h: Holdings) => number) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        labelNames: ["api"],
        registers,
        collect() {
          this.reset();
          for (const source of sources) for (const holding of source()) this.inc({ api: holding.api }, pick(holding));
        },
      });
    held("records", "Records held, every partner together, by API.", (h) => h.records);
    held("record_bytes", "Bytes of records held (their JSON size), every partner together, by API.", (h) => h.bytes);
    held("callbacks_queued", "Callbacks waiting to be delivered, every partner together, by API.", (h) => h.queuedCallbacks);
    // The process's own (process_cpu_seconds_total, nodejs_eventloop_lag_seconds...), under the names every Node.js exporter uses.
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one answered request and its latency. */
  request({ api, operation, status, seconds }: RequestObservation): void {
    const op = operation ?? "none";
    this.requests.inc({ api, operation: op, status: String(status) });
    this.latency.observe({ api, operation: op }, seconds);
  }

  /** Counts one ended callback delivery. */
  delivery(api: string, outcome: string): void {
    this.deliveries.inc({ api, outcome: (DELIVERY_OUTCOMES as readonly string[]).includes(outcome) ? outcome : "other" });
  }

  /** Counts one connection refused or closed by the guards. */
  refused(reason: (typeof REFUSAL_REASONS)[number]): void {
    this.refusals.inc({ reason });
  }

  /** Where the number of partners is read from when scraped. */
  countPartners(source: () => Promise<number> | number): void {
    this.partnerCount = source;
  }

  /** Adds a source of what a sandbox holds, read at each scrape; returns its removal. */
  holdings(source: () => Holdings[]): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  /** The metrics in Prometheus's text format, with its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
