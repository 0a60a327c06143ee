/**
 * What the docs index says about one API, read from its bundled spec: title, base address forms
 * (one per server, with the variables' defaults filled in), authentication, operation and webhook
 * counts. Generic: nothing here knows an API.
 */
import { authSchemes, type Doc, loadDocument, type Operation, operations, webhooks } from "../../src/document/index.js";
import type { ApiEntry } from "../../src/registry.js";

type Json = any;
export type OpenApiDoc = Doc;

export interface ServerForm {
  /** `sandbox`, `live`, ... from the server's `x-environment`, else guessed from its URL, else `server N`. */
  label: string;
  /** The URL as the spec writes it, e.g. `https://sandbox.{pay_domain}`. */
  template: string;
  /** The URL with every variable replaced by its default, e.g. `https://sandbox.pay.example.com`. */
  example: string;
  description?: string;
}

export interface AuthScheme {
  name: string;
  /** How a caller authenticates, e.g. `Authorization: Bearer <token>` or `x-api-key header`. */
  text: string;
}

export interface OperationRef {
  section: "paths" | "webhooks";
  /** The path, or the webhook's name. */
  path: string;
  method: string;
  operationId?: string;
  summary?: string;
}

export interface ApiSummary {
  entry: ApiEntry;
  title: string;
  summary?: string;
  servers: ServerForm[];
  auth: AuthScheme[];
  /** Operations under `paths` (path x method). */
  operations: OperationRef[];
  /** Operations under `webhooks` (name x method). */
  webhooks: OperationRef[];
  deprecatedOperations: number;
}

function serverLabel(server: Json, index: number): string {
  if (typeof server["x-environment"] === "string") return server["x-environment"];
  const url = String(server.url ?? "");
  if (/sandbox|staging|test/i.test(url) || /^sandbox\b/i.test(String(server.description ?? ""))) return "sandbox";
  return `server ${index + 1}`;
}

export function serverForms(doc: OpenApiDoc): ServerForm[] {
  return (doc.servers ?? []).map((server: Json, index: number) => {
    const template = String(server.url ?? "/");
    const example = template.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const value = server.variables?.[name]?.default;
      return value === undefined ? whole : String(value);
    });
    return {
      label: serverLabel(server, index),
      template,
      example,
      ...(typeof server.description === "string" ? { description: server.description } : {}),
    };
  });
}

/** How a caller authenticates with a scheme, in the docs index's words. */
function schemeText(scheme: Json): string {
  if (!scheme || typeof scheme !== "object") return "undeclared scheme";
  switch (scheme.type) {
    case "http": {
      const kind = String(scheme.scheme ?? "").toLowerCase();
      if (kind === "bearer") return `Authorization: Bearer <token>${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ""}`;
      if (kind === "basic") return "Authorization: Basic (HTTP Basic)";
      return `HTTP ${scheme.scheme}`;
    }
    case "apiKey":
      return `API key in the ${scheme.name} ${scheme.in === "header" ? "header" : `${scheme.in} parameter`}`;
    case "oauth2":
      return `OAuth 2.0 (${Object.keys(scheme.flows ?? {}).join(", ") || "no flows"}), sent as Authorization: Bearer`;
    case "openIdConnect":
      return "OpenID Connect, sent as Authorization: Bearer";
    case "mutualTLS":
      return "Mutual TLS";
    default:
      return String(scheme.type);
  }
}

const operationRef = (op: Operation): OperationRef => ({
  section: op.section,
  path: op.path,
  method: op.method,
  operationId: op.value.operationId,
  summary: op.value.summary,
});

export function summarize(entry: ApiEntry, doc: OpenApiDoc = loadDocument(entry.bundlePath)): ApiSummary {
  const deprecatedOperations = operations(doc).filter((op) => op.value.deprecated === true).length;
  return {
    entry,
    title: String(doc.info?.title ?? entry.service),
    ...(typeof doc.info?.summary === "string" ? { summary: doc.info.summary } : {}),
    servers: serverForms(doc),
    auth: authSchemes(doc).map((scheme) => ({ name: scheme.name, text: schemeText(scheme.value) })),
    operations: operations(doc).map(operationRef),
    webhooks: webhooks(doc).map(operationRef),
    deprecatedOperations,
  };
}
