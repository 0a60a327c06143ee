/**
 * The webhooks (callbacks the provider sends) of the registry's APIs, read from each bundled spec's
 * OpenAPI 3.1 `webhooks:` section: name, method, operationId, the Idempotency-Key header when the
 * spec names it, the payload's media type, its named examples and its status variants
 * (`x-status-codes`). Shared by the callback handler, the callback sender, the CLI and the tests.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
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

type Node = Record<string, any>;
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Follows local `$ref`s (at most 32) from `node`. */
export function resolveRef(doc: Node, node: Node | undefined): Node | undefined {
  for (let i = 0; node && typeof node.$ref === "string" && i < 32; i++) {
    const ref: string = node.$ref;
    if (!ref.startsWith("#/")) return node;
    node = ref
      .slice(2)
      .split("/")
      .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((n: Node | undefined, key) => n?.[key], doc);
  }
  return node;
}

const cache = new Map<string, WebhookInfo[]>();
const documents = new Map<string, Node>();

/** The API's bundled spec, parsed (once per file and process). */
export function bundleOf(entry: ApiEntry): Node {
  let doc = documents.get(entry.bundlePath);
  if (!doc) {
    try {
      doc = parse(readFileSync(entry.bundlePath, "utf8")) as Node;
    } catch (error) {
      throw new Error(`${entry.alias}: cannot read the bundled spec ${entry.bundlePath}: ${(error as Error).message}`);
    }
    documents.set(entry.bundlePath, doc);
  }
  return doc;
}

/** The webhooks of one API (alias or registry entry), in document order. */
export function webhooksOf(api: string | ApiEntry, registryPath?: string): WebhookInfo[] {
  const entry = typeof api === "string" ? findApi(api, loadRegistry(registryPath)) : api;
  const cached = cache.get(entry.bundlePath);
  if (cached) return cached;
  const doc = bundleOf(entry);
  const found: WebhookInfo[] = [];
  for (const [name, rawItem] of Object.entries<Node>(doc.webhooks ?? {})) {
    const item = resolveRef(doc, rawItem) ?? {};
    for (const method of METHODS) {
      const op = resolveRef(doc, item[method]);
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Node) => resolveRef(doc, p) ?? {});
      const header = parameters.find((p) => p.in === "header" && String(p.name).toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase());
      const body = resolveRef(doc, op.requestBody);
      const content: Node = body?.content ?? {};
      const contentType =
        Object.keys(content).find((m) => /^application\/(.+\+)?json$/i.test(m)) ?? Object.keys(content)[0] ?? "application/json";
      const media: Node = content[contentType] ?? {};
      const examples: WebhookExample[] = Object.entries<Node>(media.examples ?? {}).map(([exampleName, raw]) => {
        const example = resolveRef(doc, raw) ?? {};
        return { name: exampleName, summary: example.summary, value: example.value };
      });
      if (examples.length === 0 && media.example !== undefined) examples.push({ name: "example", value: media.example });
      const statuses: WebhookStatus[] = Array.isArray(op["x-status-codes"])
        ? op["x-status-codes"].map((s: Node) => ({ code: s.code, status: String(s.status), meaning: s.meaning }))
        : [];
      found.push({
        alias: entry.alias,
        name,
        method: method.toUpperCase(),
        operationId: op.operationId ?? `${method.toUpperCase()} ${name}`,
        summary: op.summary,
        idempotencyKey: header ? { name: String(header.name), required: Boolean(header.required) } : undefined,
        contentType,
        bodyRequired: Boolean(body?.required),
        examples,
        statuses,
      });
    }
  }
  cache.set(entry.bundlePath, found);
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
