/**
 * Frozen releases (releases.lock.yaml): the repository's released contracts match their lock, and a
 * change to a released spec in a scratch copy fails the check with a message naming the API and the
 * part that changed, while whitespace and comment edits do not.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { checkLock, correct, fingerprintFile, readLock, release, writeLock } from "../../../scripts/lib/release-lock.js";
import { type ApiEntry, loadRegistry, repoRoot } from "../../../src/registry.js";

const run = promisify(execFile);
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** A scratch registry holding copies of every bundled spec of the repository's registry. */
function scratchCopy(): { dir: string; config: string; entries: ApiEntry[] } {
  const dir = mkdtempSync(join(tmpdir(), "release-lock-"));
  scratchDirs.push(dir);
  const entries = loadRegistry();
  const apis: Record<string, { root: string }> = {};
  for (const entry of entries) {
    apis[entry.alias] = { root: entry.root };
    const target = join(dir, entry.generatedDir, "openapi.yaml");
    mkdirSync(dirname(target), { recursive: true });
    cpSync(entry.bundlePath, target);
  }
  const config = join(dir, "redocly.yaml");
  writeFileSync(config, stringify({ apis }));
  return { dir, config, entries: loadRegistry(config) };
}

function editBundle(entry: ApiEntry, edit: (doc: any) => void): void {
  const doc = parse(readFileSync(entry.bundlePath, "utf8"));
  edit(doc);
  writeFileSync(entry.bundlePath, stringify(doc));
}

describe("the repository's released APIs", () => {
  it("every registered API is locked and its bundled contract still has the locked hash", () => {
    const problems = checkLock(loadRegistry(), readLock());
    expect(problems.map((p) => p.message)).toEqual([]);
  });

  it("every correction in the lock has a date, a reason and the hashes it moves between; the last one ends at the release's hash", () => {
    const releases = Object.entries(readLock().releases);
    // The fidelity pass of 2026-11-23 corrected each of the seven released contracts once, the
    // OpenAPI links of 2026-11-26 once more, four links a stateful tester follows
    // on 2026-11-28, and payment initiation's example expiry moved far ahead the same day.
    const corrections = releases.flatMap(([, locked]) => locked.corrections ?? []);
    expect(corrections).toHaveLength(19);
    expect(corrections.filter((c) => c.date === "2026-11-26" && /OpenAPI links/.test(c.reason))).toHaveLength(7);
    expect(corrections.filter((c) => c.date === "2026-11-28" && /link/.test(c.reason))).toHaveLength(4);
    for (const [alias, locked] of releases) {
      const last = locked.corrections?.at(-1);
      if (last) expect(last.to, `${alias}: the last correction ends at the locked hash`).toBe(locked.hash);
      for (const c of locked.corrections ?? []) {
        expect(c.date, alias).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(c.reason.trim().length, alias).toBeGreaterThan(10);
        expect(c.from, alias).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(c.to, alias).toMatch(/^sha256:[0-9a-f]{64}$/);
      }
    }
  });
});

describe("a released spec changed in a scratch copy", () => {
  const lockFor = (entries: ApiEntry[]) => release({ releases: {} }, entries);

  it("a changed schema fails the check, naming the API and the component", () => {
    const { entries } = scratchCopy();
    const lock = lockFor(entries);
    const target = entries[0];
    editBundle(target, (doc) => {
      const [name, schema] = Object.entries<any>(doc.components.schemas)[0];
      schema.description = `${schema.description ?? ""} (edited)`;
      doc["x-edited"] = name;
    });
    const problems = checkLock(entries, lock);
    expect(problems).toHaveLength(1);
    expect(problems[0].alias).toBe(target.alias);
    expect(problems[0].message).toContain(`${target.alias} is released, but its contract changed`);
    expect(problems[0].message).toMatch(/changed schemas\/\w+/);
    expect(problems[0].message).toContain("added x-edited");
  });

  it("a removed operation is named", () => {
    const { entries } = scratchCopy();
    const lock = lockFor(entries);
    const target = entries.at(-1)!;
    let removed = "";
    editBundle(target, (doc) => {
      const [path, item] = Object.entries<any>(doc.paths)[0];
      const method = Object.keys(item).find((k) => ["get", "post", "put", "patch", "delete"].includes(k))!;
      removed = `${method.toUpperCase()} ${path}`;
      delete item[method];
    });
    const [problem] = checkLock(entries, lock);
    expect(problem.message).toContain(`removed ${removed}`);
  });

  it("re-indenting, reordering keys and adding comments do not count as a change", () => {
    const { entries } = scratchCopy();
    const lock = lockFor(entries);
    for (const entry of entries) {
      const doc = parse(readFileSync(entry.bundlePath, "utf8"));
      const reordered = Object.fromEntries(Object.entries(doc).reverse());
      writeFileSync(entry.bundlePath, `# a comment\n${stringify(reordered, { indent: 4 })}# trailing comment\n`);
    }
    expect(checkLock(entries, lock)).toEqual([]);
  });

  it("an API missing from the lock, or locked but gone from the registry, is reported", () => {
    const { entries } = scratchCopy();
    const lock = lockFor(entries.slice(1));
    lock.releases["gone@9.9.9"] = { hash: "sha256:0", parts: {} };
    const messages = checkLock(entries, lock).map((p) => p.message);
    expect(messages).toEqual([
      expect.stringContaining(`${entries[0].alias} is in the registry but not in releases.lock.yaml`),
      expect.stringContaining("gone@9.9.9 is in releases.lock.yaml but no longer in the registry"),
    ]);
  });

  it("a recorded correction accepts the change and keeps the old and new hashes", () => {
    const { entries } = scratchCopy();
    const target = entries[0];
    const before = lockFor(entries);
    editBundle(target, (doc) => {
      doc.info.description = `${doc.info.description} Corrected.`;
    });
    expect(() => correct(before, target, " ", "2026-11-21")).toThrow(/needs a reason/);
    const after = correct(before, target, "Typo in the description of the API", "2026-11-21");
    expect(checkLock(entries, after)).toEqual([]);
    expect(after.releases[target.alias].corrections).toEqual([
      {
        date: "2026-11-21",
        reason: "Typo in the description of the API",
        from: before.releases[target.alias].hash,
        to: fingerprintFile(target.bundlePath).hash,
      },
    ]);
    expect(() => correct(after, target, "again", "2026-11-22")).toThrow(/has not changed/);
  });

  it("the release:lock CLI exits 1 naming the API, and 2 with one line and the hint on a bad command", async () => {
    const { dir, config, entries } = scratchCopy();
    const lockPath = join(dir, "releases.lock.yaml");
    writeLock(lockFor(entries), lockPath);
    const script = join(repoRoot, "scripts", "release-lock.ts");
    const node = process.execPath; // tsx as the loader: one process (the tsx command starts a second)
    const [ok, misuse] = await Promise.all([
      run(node, ["--import", "tsx", script, "--config", config, "--lock", lockPath, "check"]),
      run(node, ["--import", "tsx", script, "--config", config, "--lock", lockPath, "frobnicate"]).catch((e) => e),
    ]);
    expect(ok.stdout).toContain(`${entries.length} released APIs unchanged`);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toBe("error: too many arguments for 'check'. Expected 0 arguments but got 1.\n(add --help for usage)\n");

    editBundle(entries[0], (doc) => {
      doc.info.title = `${doc.info.title} (changed)`;
    });
    const failed = await run(node, ["--import", "tsx", script, "--config", config, "--lock", lockPath]).catch((e) => e);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${entries[0].alias} is released, but its contract changed: changed info`);
  });
});
