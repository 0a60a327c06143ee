/**
 * What the sandbox needs of hosted mode (src/hosted/, whose `HostedService` is one), said here so
 * that the sandbox depends on no module of hosted mode: hosted mode builds on the sandbox, never the
 * reverse, and a local sandbox loads nothing of it (pino, prom-client and rate-limiter-flexible are
 * optional peer dependencies). src/mock/index.ts gives the service to the sandbox it starts
 * (`hosted: { service }`).
 *
 * In hosted mode the sandbox:
 * - lets only an issued credential's request through (`admit`, ./control/gate.ts): one no one
 *   issued gets its API's declared 401 and creates nothing, one over its partner's rate gets 429;
 * - bounds each partner's state by its quotas (`boundsOf`, through the budget: ./store/limits.ts);
 * - serves the operator's routes (partners, metrics) and the health check (./control/operations/);
 * - feeds the metrics with what each API's sandbox holds and how its deliveries end.
 */
import type { IncomingMessage } from "node:http";
import type { DeliveryOutcome } from "./delivery/deliverer.js";
import type { OperatorToken } from "./operator.js";
import type { CredentialBounds } from "./store/limits.js";

/** What the credential gate decides for a request (HostedService `admit`). */
export type Admission =
  | { outcome: "admitted"; partner: { id: string } }
  | { outcome: "unissued" }
  | { outcome: "limited"; partner: { id: string }; retryAfterSeconds: number; detail: string };

/** What one API's sandbox holds, every partner together (read when the metrics are scraped). */
export interface Holdings {
  api: string;
  records: number;
  bytes: number;
  queuedCallbacks: number;
}

/** The operator's input refused by hosted mode's partners: the status (400, 409), the member at fault. */
export interface PartnerInputError extends Error {
  name: "PartnerError";
  status: number;
  field: string;
}

/** True for a PartnerInputError. */
export const isPartnerInputError = (error: unknown): error is PartnerInputError =>
  error instanceof Error && error.name === "PartnerError" && typeof (error as { status?: unknown }).status === "number";

/** The partners as the operator's routes reach them (bodies as sent, views as shown). */
export interface HostedPartners {
  /** A new partner and, this once, its credential; throws a PartnerInputError. */
  issue(body: unknown): Promise<object>;
  list(): Promise<object[]>;
  /** The partner, or undefined when there is none of that id. */
  get(id: string): Promise<object | undefined>;
  /** False when there was no such partner. */
  revoke(id: string): Promise<boolean>;
  /** The partner after the operator's merge patch, undefined when there is none; throws a PartnerInputError. */
  update(id: string, patch: unknown): Promise<object | undefined>;
}

/** Hosted mode's service, as the sandbox uses it. */
export interface HostedSandbox {
  /** The operator's token: hosted mode always has one. */
  readonly operator: OperatorToken;
  readonly partners: HostedPartners;
  /** The credential gate: the partner holding the credential whose key is `credentialKey`, counted against its rate. */
  admit(request: IncomingMessage, credentialKey: string | undefined): Promise<Admission>;
  /**
   * The request's credential headers, as received, before the gate took them off an unissued
   * credential's request (so that the log still knows the values it must never write).
   */
  keepHeaders(request: IncomingMessage, headers: IncomingMessage["headers"]): void;
  /** The bounds of a partner's state by its credential's key (its quotas), undefined for a key no partner holds. */
  boundsOf(credentialKey: string): CredentialBounds | undefined;
  /** What the health check answers now. */
  healthAnswer(): { status: number; body: unknown };
  /** The metrics, in Prometheus's text format. */
  renderMetrics(): Promise<{ contentType: string; body: string }>;
  /** Adds a source of what a sandbox holds, read at each scrape; returns its removal. */
  holdings(source: () => Holdings[]): () => void;
  /** Counts one ended callback delivery of API `api`. */
  delivery(api: string, outcome: DeliveryOutcome): void;
  /**
   * Logs a failure of API `api`'s sandbox that it does not foresee, with its message, and gives the
   * id it is logged under: a partner's answer names the id, never the message.
   */
  failed(api: string, error: unknown): string;
}

/** Hosted mode as the sandbox's options give it: `true` (startMock makes the service), or its service. */
export type HostedOption = boolean | { service?: HostedSandbox };

/** The service of a hosted sandbox's options; undefined when it is not hosted. Throws when hosted without one. */
export function hostedService(option: HostedOption | undefined, where: string): HostedSandbox | undefined {
  if (!option) return undefined;
  const service = option === true ? undefined : option.service;
  if (!service)
    throw new TypeError(
      `${where}: hosted mode's service is made when the mock starts (startMock, startMocks or startSandbox with hosted: true): createSandbox takes one made already`,
    );
  return service;
}
