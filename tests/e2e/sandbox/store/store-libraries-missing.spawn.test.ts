/**
 * Opening a durable store whose library is not installed (src/sandbox/store/open.ts `openBackend`):
 * `lmdb` and `pg` are optional peer dependencies, so a partner who names `file:<dir>` or a Postgres
 * URL without having installed its library gets one line naming the store (a Postgres password never
 * repeated) and the line that installs the library at the version package.json pins, and nothing is
 * created. Run in a process of its own whose module resolution cannot find `lmdb` and `pg` (a resolve
 * hook asks Node for them from a folder with no node_modules: Node's own ERR_MODULE_NOT_FOUND), as a
 * project without them would; the other libraries resolve as they do here.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { cleanEnv } from "../../../helpers/package.js";

const peers = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { peerDependencies: Record<string, string> })
  .peerDependencies;
const scratch = mkdtempSync(join(tmpdir(), "store-libraries-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Resolves `lmdb` and `pg` from a folder with no node_modules, where Node finds neither. */
const HIDE_LIBRARIES = `export async function resolve(specifier, context, next) {
  if (specifier === "lmdb" || specifier === "pg") return next(specifier, { ...context, parentURL: "file:///nowhere/hidden.js" });
  return next(specifier, context);
}`;

/** Opens each address in a process without the stores' libraries; each one's error message (or "opened"). */
async function openWithoutLibraries(addresses: string[]): Promise<string[]> {
  const code = `
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(HIDE_LIBRARIES)}));
const { openBackend } = await import("./src/sandbox/store/open.ts");
const lines = [];
for (const address of ${JSON.stringify(addresses)}) {
  try {
    await (await openBackend(address)).close();
    lines.push("opened");
  } catch (error) {
    lines.push(error.message);
  }
}
process.stdout.write(JSON.stringify(lines));
`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: repoRoot,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exit = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (exit !== 0) throw new Error(`the process opening ${addresses.join(", ")} exited ${exit}:\n${stderr}`);
  return JSON.parse(stdout) as string[];
}

describe("a durable store whose library is not installed", () => {
  it("is refused naming the store and the line that installs its library at the version package.json pins; nothing is created", async () => {
    const dir = join(scratch, "store");
    const postgres = "postgres://sandbox:s3cret-Pw@127.0.0.1:1/sandbox";
    const messages = await openWithoutLibraries([`file:${dir}`, postgres]);
    expect(messages).toEqual([
      `file:${dir}: this store needs lmdb (an optional peer dependency of bank-api-contracts), which is not installed: npm install --save-dev lmdb@${peers.lmdb}`,
      `postgres://sandbox:***@127.0.0.1:1/sandbox: this store needs pg (an optional peer dependency of bank-api-contracts), which is not installed: npm install --save-dev pg@${peers.pg}`,
    ]);
    expect(messages.join("\n")).not.toContain("s3cret-Pw");
    expect(existsSync(dir)).toBe(false);
    expect([peers.lmdb, peers.pg].every((version) => /^\d+\.\d+\.\d+$/.test(version))).toBe(true);
  });
});
