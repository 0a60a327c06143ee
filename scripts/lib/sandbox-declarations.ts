/**
 * generated/sandbox/declarations.ts: the names of each API's sandbox declaration
 * (`specs/<service>/<release>/sandbox.yaml`) as literal types, for the testing entry's
 * `sandboxControl(url, credential, { api })`: its resources, and for each the statuses its
 * lifecycle names and its actions. An unknown resource, status or action then fails to compile.
 * The declarations are read as data here; src/sandbox/declaration.ts checks them when a sandbox starts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import type { ApiEntry } from "../../src/registry.js";

export const SANDBOX_DECLARATION_TYPES = join("generated", "sandbox", "declarations.ts");

type Json = any;

const union = (values: Iterable<string>) => {
  const sorted = [...new Set(values)].sort();
  return sorted.length === 0 ? "never" : sorted.map((v) => JSON.stringify(v)).join(" | ");
};

/** The statuses a resource's declaration names: initial, values, final, and every move's and the expiry's. */
function statuses(resource: Json): string[] {
  const status = resource?.status;
  if (!status) return [];
  const out = [status.initial, ...(status.values ?? []), ...(status.final ?? [])];
  for (const move of Object.values<Json>(status.moves ?? {})) out.push(move.to, ...(Array.isArray(move.from) ? move.from : []));
  if (resource.expiry) out.push(resource.expiry.to, ...resource.expiry.from);
  return out.filter((s) => typeof s === "string");
}

export function generateSandboxDeclarationTypes(registry: ApiEntry[], regenerate: string): { path: string; content: string } {
  const lines = [
    `// Generated from the sandbox declarations (specs/*/*/sandbox.yaml) by \`${regenerate}\` (scripts/generate.ts). Do not edit.`,
    "",
    "/** Each API's sandbox resources, by alias: the statuses its lifecycle names and its actions. */",
    "export interface SandboxDeclarations {",
  ];
  for (const entry of registry) {
    const path = join(dirname(entry.rootPath), "sandbox.yaml");
    const resources: Record<string, Json> = existsSync(path) ? (parse(readFileSync(path, "utf8"))?.resources ?? {}) : {};
    lines.push(`  ${JSON.stringify(entry.alias)}: {`);
    for (const [name, resource] of Object.entries(resources)) {
      const actions = Object.keys(resource?.status?.moves ?? {});
      lines.push(`    ${name}: { statuses: ${union(statuses(resource))}; actions: ${union(actions)} };`);
    }
    lines.push("  };");
  }
  lines.push("}", "");
  return { path: SANDBOX_DECLARATION_TYPES, content: lines.join("\n") };
}
