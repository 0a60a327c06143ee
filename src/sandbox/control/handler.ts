/**
 * What a control operation's handler (./operations/) is given and how it reaches a credential's
 * state. Each handler names its operation and its access: `public` (no credential), `operator` (the
 * operations over every credential: the operator's token), `hosted` (the operator's, in hosted mode
 * only: 404 elsewhere) or `credential` (the caller's own state).
 * A credential's handler runs its work through `onState`: the store's one path (as an API request
 * does), the clock's due moves first (../engine/clock.ts), the work undone if it fails.
 */
import type { IncomingMessage } from "node:http";
import type { ResourceDeclaration } from "../declaration.js";
import { tick } from "../engine/clock.js";
import type { EngineContext } from "../engine/context.js";
import { type HostedSandbox, isPartnerInputError } from "../hosting.js";
import { singleton } from "../engine/records.js";
import type { CredentialState } from "../store/state.js";
import type { StoredRecord } from "../store/types.js";
import type { Json } from "../values.js";
import { ControlError } from "./errors.js";
import { decodeParam } from "./router.js";

/** A control call as its handler sees it. */
export interface ControlCall {
  engine: EngineContext;
  /** Hosted mode's service; undefined in a local or shared sandbox. */
  hosted: HostedSandbox | undefined;
  request: IncomingMessage;
  url: URL;
  /** The body, checked against the operation's schema (credential operations that take one). */
  body: Json;
  /** The credential's key (credential operations). */
  key: string;
  /** A path parameter, percent-decoded (400 naming it when it cannot be). */
  param(name: string): string;
}

/** What a handler answers: JSON, or a text of its own type. */
export type ControlResult = { status: number; body: Json } | { status: 200; text: string; contentType: string };

export interface ControlHandler {
  operationId: string;
  access: "public" | "operator" | "hosted" | "credential";
  handle(call: ControlCall): ControlResult | Promise<ControlResult>;
}

/** A path parameter reader over a route's segments. */
export const paramReader =
  (segments: Record<string, string>) =>
  (name: string): string =>
    decodeParam(segments[name], name);

/**
 * Runs `work` on the caller's state through the store's one path: what is due on its clock first,
 * then the work, undone if it throws. A refusal the work throws is thrown once the store is done
 * (what the clock moved is kept, as a durable store writes it).
 */
export async function onState(call: ControlCall, work: (state: CredentialState) => ControlResult): Promise<ControlResult> {
  const { engine } = call;
  const outcome = await engine.store.run(call.key, (state): { result: ControlResult } | { refused: unknown } => {
    tick(engine, state, "expiry");
    try {
      return { result: state.atomically(() => work(state)) };
    } catch (error) {
      return { refused: error };
    }
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.result;
}

/** The record `id` of resource `resourceName` of the caller's state; 404 naming what is missing. */
export function requireRecord(engine: EngineContext, state: CredentialState, resourceName: string, id: string): StoredRecord {
  const resources = engine.declaration?.resources ?? {};
  const resource: ResourceDeclaration | undefined = resources[resourceName];
  if (!resource) {
    const known = Object.keys(resources);
    throw new ControlError(
      404,
      `${engine.entry.alias} has no sandbox resource "${resourceName}"${known.length > 0 ? `; resources: ${known.join(", ")}` : " (it has no sandbox declaration)"}`,
      "resource",
    );
  }
  const record = resource.singleton ? singleton(engine, state, resource.name) : state.get(resource.name, id);
  if (!record || record.id !== id) throw new ControlError(404, `this credential has no ${resource.name} "${id}"`, "id");
  return record;
}

/** A webhook whose URL is registered through the control API; 404 or 400 naming why not. */
export function requireWebhook(engine: EngineContext, name: string): string {
  const names = Object.keys(engine.doc.webhooks ?? {});
  if (!names.includes(name)) {
    throw new ControlError(
      404,
      `${engine.entry.alias} has no webhook "${name}"${names.length > 0 ? `; webhooks: ${names.join(", ")}` : " (it declares none)"}`,
      "webhook",
    );
  }
  for (const resource of Object.values(engine.declaration?.resources ?? {})) {
    const rule = resource.callbacks.find((c) => c.webhook === name);
    if (rule && !JSON.stringify(rule.url).includes("$callbackUrl")) {
      throw new ControlError(
        400,
        `the URL of ${name} is not registered in a dashboard: the sources say it comes from ${JSON.stringify(rule.url)} (${rule.source}); set it through the API`,
        "webhook",
      );
    }
  }
  return name;
}

/** Hosted mode's service of a call to a `hosted` operation (the control API routes none elsewhere). */
export function hostedOf(call: ControlCall): HostedSandbox {
  if (!call.hosted) throw new ControlError(404, "this operation exists only in hosted mode (mock --sandbox --hosted)");
  return call.hosted;
}

/** `work`'s result; the operator's input hosted mode's partners refuse, as a ControlError naming the member. */
export async function partnerInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPartnerInputError(error)) throw new ControlError(error.status, error.message, error.field);
    throw error;
  }
}

/** The partner `id` names: 404 naming it when there is none. */
export function noSuchPartner(id: string): ControlError {
  return new ControlError(404, `this sandbox has no partner "${id}" (GET /_sandbox/partners lists them)`, "id");
}
