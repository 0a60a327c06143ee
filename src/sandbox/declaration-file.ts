/**
 * Where an API's declaration lives, and the hash that names the bytes of a declaration or a document
 * (./start.ts remembers a declaration that passed its check by these hashes; ./declaration.ts reads
 * one that passed without checking it again).
 */
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import type { ApiEntry } from "../registry.js";

/** Where an API's declaration lives: `sandbox.yaml` beside its root spec. */
export function declarationPath(entry: ApiEntry): string {
  return join(dirname(entry.rootPath), "sandbox.yaml");
}

/** SHA-256 (hex) of some bytes: a declaration's, a document's. */
export const bytesHash = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
