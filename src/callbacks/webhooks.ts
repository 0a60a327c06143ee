/**
 * The webhooks (callbacks the provider sends) of the registry's APIs, read from each bundled spec's
 * OpenAPI 3.1 `webhooks:` section: name, method, operationId, the Idempotency-Key header when the
 * spec names it, the payload's media type, its named examples and its status variants
 * (`x-status-codes`). Shared by the callback handler, the callback sender, the CLI and the tests.
 */
import { type Doc, isJsonMediaType, loadDocument, requestContents, webhooks } from "../document/index.js";
import { type ApiEntry, findApi, loadRegistry } from "../registry.js";

/** The header the provider uses to mark a delivery; repeated deliveries of one event carry the same value. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

export interface WebhookExample {
  name: string;
  summary?: string;
  value: unknown;
}

/** One status the webhook can report, from the spec's `x-status-codes` list. */
export interface WebhookStatus {
  code: number | string;
  status: string;
  meaning?: string;
}

export interface WebhookInfo {
  alias: string;
  /** The key under `webhooks:`, e.g. `transactionCompleted`. */
  name: string;
  /** Upper case, e.g. `POST`. */
  method: string;
  operationId: string;
  summary?: string;
  /** The Idempotency-Key header parameter, when the spec declares it. */
  idempotencyKey?: { name: string; required: boolean };
  /** Media type of the payload, e.g. `application/json`. */
  contentType: string;
  /** Whether the spec requires a body. */
  bodyRequired: boolean;
  examples: WebhookExample[];
  statuses: WebhookStatus[];
}

const cache = new Map<string, { doc: object; webhooks: WebhookInfo[] }>();

/** The webhooks of one API (alias or registry entry), in document order. */
export function webhooksOf(api: string | ApiEntry, registryPath?: string): WebhookInfo[] {
  const entry = typeof api === "string" ? findApi(api, loadRegistry(registryPath)) : api;
  let doc: Doc;
  try {
    doc = loadDocument(entry.bundlePath);
  } catch (error) {
    throw new Error(`${entry.alias}: cannot read the bundled spec ${(error as Error).message}`);
  }
  const cached = cache.get(entry.bundlePath);
  if (cached?.doc === doc) return cached.webhooks;
  const found = webhooks(doc).map((op): WebhookInfo => {
    const header = op.parameters.find(
      (p) => p.value.in === "header" && String(p.value.name).toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase(),
    );
    const contents = requestContents(doc, op);
    const media = contents.find((c) => isJsonMediaType(c.mediaType)) ?? contents[0];
    const codes = op.value["x-status-codes"];
    return {
      alias: entry.alias,
      name: op.path,
      method: op.method.toUpperCase(),
      operationId: op.operationId,
      summary: op.value.summary,
      idempotencyKey: header ? { name: String(header.value.name), required: Boolean(header.value.required) } : undefined,
      contentType: media?.mediaType ?? "application/json",
      bodyRequired: Boolean(op.requestBody?.value.required),
      examples: (media?.examples ?? []).map(({ name, summary, value }) => ({ name, summary, value })),
      statuses: Array.isArray(codes)
        ? codes.map((s: Record<string, any>) => ({ code: s.code, status: String(s.status), meaning: s.meaning }))
        : [],
    };
  });
  cache.set(entry.bundlePath, { doc, webhooks: found });
  return found;
}

/** Every webhook of every API of the registry, in registry order. */
export function listWebhooks(registryPath?: string): WebhookInfo[] {
  return loadRegistry(registryPath).flatMap((entry) => webhooksOf(entry));
}

/** One webhook, by its name under `webhooks:` or its operationId; the error lists the API's webhooks. */
export function findWebhook(api: string | ApiEntry, webhook: string, registryPath?: string): WebhookInfo {
  const all = webhooksOf(api, registryPath);
  const found = all.find((w) => w.name === webhook) ?? all.find((w) => w.operationId === webhook);
  if (!found) {
    const alias = typeof api === "string" ? api : api.alias;
    throw new Error(
      all.length === 0
        ? `${alias} declares no webhooks`
        : `${alias} has no webhook "${webhook}"; known: ${all.map((w) => w.name).join(", ")}`,
    );
  }
  return found;
}
