/**
 * What the docs index says about one API, read from its bundled spec: title, base address forms
 * (one per server, with the variables' defaults filled in), authentication, operation and webhook
 * counts. Generic: nothing here knows an API.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { ApiEntry } from "../lib/registry.js";

type Json = any;
export type OpenApiDoc = Record<string, Json>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

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

export function loadBundledDoc(entry: ApiEntry): OpenApiDoc {
  let text: string;
  try {
    text = readFileSync(entry.bundlePath, "utf8");
  } catch {
    throw new Error(`${entry.alias}: bundled spec ${entry.generatedDir}/openapi.yaml not found; run \`npm run generate\` first`);
  }
  const doc = parse(text) as OpenApiDoc;
  if (!doc || typeof doc !== "object" || typeof doc.openapi !== "string") {
    throw new Error(`${entry.alias}: ${entry.generatedDir}/openapi.yaml is not an OpenAPI document (no "openapi" field)`);
  }
  return doc;
}

/** Follows local `$ref`s (`#/components/pathItems/X`, ...); other values are returned as they are. */
export function resolveRef(doc: OpenApiDoc, value: Json): Json {
  const seen = new Set<string>();
  while (value && typeof value === "object" && typeof value.$ref === "string" && value.$ref.startsWith("#/")) {
    if (seen.has(value.$ref)) throw new Error(`$ref cycle through ${value.$ref}`);
    seen.add(value.$ref);
    value = value.$ref
      .slice(2)
      .split("/")
      .map((s: string) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node: Json, key: string) => node?.[key], doc);
  }
  return value;
}

/** Every operation of a section (`paths` or `webhooks`): item x HTTP method, path items' `$ref`s followed. */
export function operationsOf(doc: OpenApiDoc, section: "paths" | "webhooks"): OperationRef[] {
  return Object.entries(doc[section] ?? {}).flatMap(([path, raw]) => {
    const item = resolveRef(doc, raw) ?? {};
    return HTTP_METHODS.filter((method) => item[method] && typeof item[method] === "object").map((method) => ({
      section,
      path,
      method,
      operationId: item[method].operationId,
      summary: item[method].summary,
    }));
  });
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

function describeScheme(scheme: Json): string {
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

/** The schemes the API's requirements name (root and operations), in order of first use. */
export function authSchemes(doc: OpenApiDoc): AuthScheme[] {
  const names: string[] = [];
  const add = (requirements: Json) => {
    for (const requirement of requirements ?? [])
      for (const name of Object.keys(requirement ?? {})) if (!names.includes(name)) names.push(name);
  };
  add(doc.security);
  for (const op of operationsOf(doc, "paths")) add(resolveRef(doc, doc.paths[op.path])[op.method].security);
  const schemes = doc.components?.securitySchemes ?? {};
  return names.map((name) => ({ name, text: describeScheme(resolveRef(doc, schemes[name])) }));
}

export function summarize(entry: ApiEntry, doc: OpenApiDoc = loadBundledDoc(entry)): ApiSummary {
  const operations = operationsOf(doc, "paths");
  const webhooks = operationsOf(doc, "webhooks");
  const deprecatedOperations = operations.filter((op) => resolveRef(doc, doc.paths[op.path])[op.method].deprecated === true).length;
  return {
    entry,
    title: String(doc.info?.title ?? entry.service),
    ...(typeof doc.info?.summary === "string" ? { summary: doc.info.summary } : {}),
    servers: serverForms(doc),
    auth: authSchemes(doc),
    operations,
    webhooks,
    deprecatedOperations,
  };
}
