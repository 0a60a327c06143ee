/**
 * Hosted mode (`mock --sandbox --hosted`, `startMock(alias, { sandbox: { hosted: true } })`): the
 * sandbox run by a provider for its partners, said explicitly rather than guessed from the bind
 * address. One `HostedService` serves every mock of a process (the CLI's mocks share one):
 *
 * - the operator's token, without which hosted mode does not start (src/sandbox/operator.ts);
 * - partners and their credentials (./partners.ts), their quotas (./quotas.ts) and request rate
 *   (./rate-limit.ts);
 * - the guards of every server's connections (./connections.ts, applied by src/mock/listen.ts);
 * - the request log (./request-log.ts), the metrics (./metrics.ts) and the health state
 *   (./health.ts), fed by the mock's per-request hook (`observe`);
 * - what the sandbox asks of it (src/sandbox/hosting.ts `HostedSandbox`, which it implements): the
 *   credential gate (`admit`), each partner's bounds (`boundsOf`: its quotas), the health answer,
 *   the metrics' text and feeds.
 *
 * It loads only in hosted mode: a local sandbox never imports pino, prom-client or
 * rate-limiter-flexible (optional peer dependencies of the package, as Prism is).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { DestinationStream } from "pino";
import type { ConnectionGuards } from "../mock/listen.js";
import type { ObservedRequest } from "../mock/server.js";
import type { DeliveryOutcome } from "../sandbox/delivery/deliverer.js";
import type { HostedSandbox, Holdings } from "../sandbox/hosting.js";
import { OPERATOR_HEADER, OPERATOR_TOKEN_ENV, OperatorToken } from "../sandbox/operator.js";
import type { CredentialBounds } from "../sandbox/store/limits.js";
import { type ConnectionSettings, connectionSettings } from "./connections.js";
import { Health } from "./health.js";
import { HostedMetrics } from "./metrics.js";
import { MemoryPartnerStore, type PartnerRow, Partners, type PartnerStore } from "./partners.js";
import type { Quotas } from "./quotas.js";
import { type LimiterFactory, PartnerRateLimiter, rateDetail } from "./rate-limit.js";
import { OPERATOR, RequestLog, UNISSUED } from "./request-log.js";

export { Health, type HealthState } from "./health.js";
export { HostedMetrics } from "./metrics.js";
export { MemoryPartnerStore, Partners, type PartnerStore } from "./partners.js";
export { DEFAULT_QUOTAS, QUOTAS } from "./quotas.js";
export { PartnerRateLimiter, tooManyRequests } from "./rate-limit.js";
export { RequestLog } from "./request-log.js";
export { CONNECTION_SETTINGS, DEFAULT_CONNECTIONS } from "./connections.js";

/** Where the sandbox's state (and its partners) lives: memory keeps nothing across a restart. */
export type StoreKind = "memory" | "file" | "postgres";

/** The options of hosted mode (`sandbox: { hosted: { ... } }`); `hosted: true` takes every default. */
export interface HostedOptions {
  /** Caps and timeouts of the connections; each one given replaces its default (./connections.ts). */
  connections?: Partial<ConnectionSettings>;
  /** Where the JSON log lines go. Default: standard output. */
  log?: DestinationStream;
  /** Where partners are kept. Default: memory; `openHostedService` gives the sandbox's durable store. */
  partners?: PartnerStore;
  /** The store the sandbox runs on, as the start notice names it. Default "memory". */
  store?: StoreKind;
  /** The rate limiter's counters (default: memory; rate-limiter-flexible's Postgres store to share them). */
  limiter?: LimiterFactory;
  /** The service several mocks share: startMocks makes one for all the mocks it starts. */
  service?: HostedService;
  /** Called once when the service closes, after its last line (what `openHostedService` opened for it). */
  onClose?: () => Promise<void>;
}

/**
 * What the credential gate decides for a request to an API (`HostedService.admit`): an issued
 * credential within its partner's rate goes on (the request is tagged with the partner); one no one
 * issued, or revoked, gets its API's 401 and creates nothing; one over its rate gets 429.
 */
export type Admission =
  | { outcome: "admitted"; partner: PartnerRow; quotas: Quotas }
  | { outcome: "unissued" }
  | { outcome: "limited"; partner: PartnerRow; quotas: Quotas; retryAfterSeconds: number; detail: string };

/** Partners whose bounds are kept at most (one per partner admitted lately): past it, the kept ones are dropped and found again. */
const MAX_KEPT_BOUNDS = 4096;

/** A partner's quotas as the bounds of its state in the sandbox (src/sandbox/store/limits.ts). */
const boundsOf = (quotas: Quotas): CredentialBounds => ({
  records: quotas.records,
  bytes: quotas.bytes,
  events: quotas.events,
  queuedCallbacks: quotas.queuedCallbacks,
  named: "this partner's quota",
});

/** Hosted mode refused to start; the message says what to give. */
export class HostedConfigError extends Error {
  override readonly name = "HostedConfigError";
}

/** What a missing operator token is told, by where the token may come from. */
export const NO_OPERATOR_TOKEN = `hosted mode needs an operator token: set $${OPERATOR_TOKEN_ENV} (the CLI also reads --operator-token-file <path>)`;

/** The line that says which store hosted mode runs on and what survives a restart. */
export function storeNotice(store: StoreKind): string {
  return store === "memory"
    ? "store memory: nothing is kept across a restart (partners, their quotas, every partner's state)"
    : `store ${store}: partners, their quotas and every partner's state are kept across restarts`;
}

/** The operator's token of `options`, else of the environment; HostedConfigError without one. */
function operatorTokenOf(options: { operatorToken?: string }, env: NodeJS.ProcessEnv): string {
  const token = (options.operatorToken ?? env[OPERATOR_TOKEN_ENV] ?? "").trim();
  if (token === "") throw new HostedConfigError(NO_OPERATOR_TOKEN);
  return token;
}

/**
 * Hosted mode's service over the store the sandbox runs on (`store`: the sandbox's store option,
 * else the BANK_API_CONTRACTS_SANDBOX_STORE environment variable, else memory; src/sandbox/store/open.ts):
 * on a durable one, partners are kept in it (shared by every API's sandbox of the store, and by
 * every instance on the same Postgres), and on Postgres the request rates are counted in it too
 * (rate-limiter-flexible's RateLimiterPostgres), so that a partner's rate holds across instances.
 * Without an operator token it fails before opening anything. What it opened is closed with it.
 */
export async function openHostedService(
  options: HostedOptions & { operatorToken?: string },
  store: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  closesWithMocks = true,
): Promise<HostedService> {
  operatorTokenOf(options, env);
  const { acquireBackend, storeAddressFrom } = await import("../sandbox/store/open.js");
  const address = storeAddressFrom(store, env, "the sandbox's store option");
  const lease = await acquireBackend(address);
  if (!lease) return new HostedService(options, env, closesWithMocks);
  const closers: Array<() => Promise<void>> = [lease.release];
  try {
    let limiter = options.limiter;
    if (address.kind === "postgres" && !limiter) {
      const { postgresLimiter } = await import("./rate-limit.js");
      const opened = await postgresLimiter(address.url);
      limiter = opened.limiter;
      closers.unshift(opened.close);
    }
    const close = async () => {
      for (const closer of closers) await closer().catch(() => {});
      await options.onClose?.();
    };
    return new HostedService({ ...options, partners: lease.backend, store: address.kind, limiter, onClose: close }, env, closesWithMocks);
  } catch (error) {
    for (const closer of closers) await closer().catch(() => {});
    throw error;
  }
}

export class HostedService implements HostedSandbox {
  readonly operator: OperatorToken;
  readonly partners: Partners;
  readonly rates: PartnerRateLimiter;
  readonly metrics: HostedMetrics;
  readonly log: RequestLog;
  readonly health = new Health();
  readonly connections: ConnectionSettings;
  readonly store: StoreKind;
  private readonly requesters = new WeakMap<IncomingMessage, string>();
  /** The credential headers of requests the gate took them off (the log must still know their values). */
  private readonly received = new WeakMap<IncomingMessage, IncomingMessage["headers"]>();
  /** The bounds of each partner's state by its credential's key, as its last admitted request found its quotas. */
  private readonly bounds = new Map<string, CredentialBounds>();
  private attached = 0;
  private closing: Promise<void> | undefined;
  private readonly onClose: (() => Promise<void>) | undefined;

  /**
   * The service of `options`, its operator token from `operatorToken` else the environment. Throws
   * HostedConfigError without a token, TypeError on a token too short, RangeError on a connection
   * setting out of its bounds.
   */
  constructor(
    options: HostedOptions & { operatorToken?: string } = {},
    env: NodeJS.ProcessEnv = process.env,
    /** True when the mocks attached to it close it with the last of them (startMock, startMocks make it so). */
    readonly closesWithMocks = false,
  ) {
    const token = operatorTokenOf(options, env);
    this.operator = new OperatorToken(token);
    this.onClose = options.onClose;
    this.connections = connectionSettings(options.connections);
    this.store = options.store ?? "memory";
    this.partners = new Partners(options.partners ?? new MemoryPartnerStore());
    this.rates = new PartnerRateLimiter(options.limiter);
    this.metrics = new HostedMetrics();
    this.log = new RequestLog({ destination: options.log, secrets: [token] });
    this.metrics.countPartners(async () => (await this.partners.store.listPartners()).length);
    this.log.event("sandbox starting", { hosted: true, store: this.store, durable: this.store !== "memory" });
    this.health.onChange((state) => this.log.event(`sandbox ${state}`, { health: state }));
  }

  /** Which store the sandbox runs on, and whether it survives a restart. */
  storeNotice(): string {
    return storeNotice(this.store);
  }

  /** The guards of a server's connections, reporting what they refuse to the log and the metrics. */
  guards(): ConnectionGuards {
    return {
      ...this.connections,
      onRefused: (refusal) => {
        this.metrics.refused(refusal.reason);
        this.log.refused(refusal);
      },
    };
  }

  /**
   * The credential gate: the partner holding the credential whose SHA-256 is `credentialKey` (the
   * key the sandbox computes for its state), counted against its rate. An admitted request is tagged
   * with its partner for its log line.
   */
  async admit(request: IncomingMessage, credentialKey: string | undefined): Promise<Admission> {
    const partner = credentialKey === undefined ? undefined : await this.partners.byKey(credentialKey);
    if (!partner) {
      if (credentialKey !== undefined) this.bounds.delete(credentialKey);
      return { outcome: "unissued" };
    }
    this.tag(request, partner.id);
    const quotas = this.partners.quotasOf(partner);
    if (this.bounds.size >= MAX_KEPT_BOUNDS && !this.bounds.has(partner.credentialKey)) this.bounds.clear();
    this.bounds.set(partner.credentialKey, boundsOf(quotas));
    const decision = await this.rates.take(partner.id, quotas);
    if (decision.allowed) return { outcome: "admitted", partner, quotas };
    const { retryAfterSeconds } = decision;
    return { outcome: "limited", partner, quotas, retryAfterSeconds, detail: rateDetail(quotas, retryAfterSeconds) };
  }

  /**
   * The bounds of the state of the partner holding the credential whose key is `credentialKey`: its
   * quotas as its last admitted request found them (every request is admitted first, so a change
   * holds from the partner's next request); undefined for a key no partner was admitted with.
   */
  boundsOf(credentialKey: string): CredentialBounds | undefined {
    return this.bounds.get(credentialKey);
  }

  keepHeaders(request: IncomingMessage, headers: IncomingMessage["headers"]): void {
    this.received.set(request, headers);
  }

  healthAnswer(): { status: number; body: unknown } {
    return this.health.answer();
  }

  renderMetrics(): Promise<{ contentType: string; body: string }> {
    return this.metrics.render();
  }

  holdings(source: () => Holdings[]): () => void {
    return this.metrics.holdings(source);
  }

  delivery(api: string, outcome: DeliveryOutcome): void {
    this.metrics.delivery(api, outcome);
  }

  failed(api: string, error: unknown): string {
    const id = randomUUID();
    this.log.event("sandbox failed", { failure: id, api, cause: error instanceof Error ? error.message : String(error) });
    return id;
  }

  /** Marks the request as one of a partner's (the credential gate does, once it found the partner). */
  tag(request: IncomingMessage, partnerId: string): void {
    this.requesters.set(request, partnerId);
  }

  /** Who made a request, for its log line: the partner it was tagged with, the operator, or "unissued". */
  requester(request: IncomingMessage): string {
    const partner = this.requesters.get(request);
    if (partner !== undefined) return partner;
    const token = request.headers[OPERATOR_HEADER];
    return token !== undefined && this.operator.matches(token) ? OPERATOR : UNISSUED;
  }

  /** The per-request hook of API `api`'s server: one log line and the metrics of each request. */
  observe(api: string): (done: ObservedRequest) => void {
    return ({ request, status, seconds, operationId, aborted }) => {
      this.metrics.request({ api, operation: operationId, status, seconds });
      this.log.request({
        api,
        operation: operationId,
        method: request.method ?? "",
        target: request.url ?? "",
        status,
        ms: seconds * 1000,
        partner: this.requester(request),
        headers: this.received.get(request) ?? request.headers,
        aborted,
      });
    };
  }

  /** A mock uses the service; the returned function is its release (the last release closes a service that closes with its mocks). */
  attach(): () => Promise<void> {
    this.attached++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.attached--;
      if (this.attached === 0 && this.closesWithMocks) await this.close();
    };
  }

  /** Draining, then the log's last lines written, then what was opened for it closed (once). */
  close(): Promise<void> {
    if (!this.closing) {
      this.health.drain();
      this.log.event("sandbox stopped");
      this.closing = this.log.close().then(() => this.onClose?.());
    }
    return this.closing;
  }
}
