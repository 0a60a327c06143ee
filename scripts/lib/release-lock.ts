/**
 * Frozen releases. `releases.lock.yaml` records, for every released API of the registry, a content
 * hash of its bundled spec (generated/<service>/<release>/openapi.yaml) and one hash per part
 * (operation, webhook, component, top-level section), so that a change can be named.
 *
 * The hash is taken over a normalised bundle: the YAML is parsed and re-serialised as JSON with
 * sorted keys, so whitespace, comments, key order and quoting do not count; every value does
 * (a changed description is a change a partner sees).
 *
 * A deliberate correction to a released spec is recorded as a `corrections` entry (date, reason,
 * hash before and after) by `npm run release:lock -- correct <alias> --reason "..."`; the changelog
 * (scripts/changelog.ts) renders the lock's corrections, so the entry is in both places.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { isHttpMethod } from "../../src/document/index.js";
import { type ApiEntry, repoRoot } from "../../src/registry.js";

export const LOCK_PATH = join(repoRoot, "releases.lock.yaml");

export interface Correction {
  /** ISO date, YYYY-MM-DD. */
  date: string;
  reason: string;
  /** Hash of the release before the correction. */
  from: string;
  /** Hash of the release after the correction. */
  to: string;
}

export interface LockedRelease {
  hash: string;
  /** Short hash per part: `GET /v1/invoice`, `webhook invoicePaid`, `schemas/Invoice`, `info`, ... */
  parts: Record<string, string>;
  corrections?: Correction[];
}

export interface ReleaseLock {
  releases: Record<string, LockedRelease>;
}

const HEADER = [
  "# Frozen releases: a content hash of every released API's bundled spec (normalised: parsed and",
  "# re-serialised with sorted keys, so whitespace and comments do not count). `npm test` fails when a",
  "# released contract changes. Do not edit by hand: `npm run release:lock -- --help`.",
  "",
].join("\n");

/** JSON with object keys sorted at every level: the normal form that is hashed. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The parts a bundled spec is split into for naming changes. */
export function specParts(doc: Record<string, unknown>): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === "paths" && value && typeof value === "object") {
      for (const [path, item] of Object.entries(value as Record<string, Record<string, unknown>>)) {
        const shared: Record<string, unknown> = {};
        for (const [field, op] of Object.entries(item ?? {})) {
          if (isHttpMethod(field)) parts[`${field.toUpperCase()} ${path}`] = op;
          else shared[field] = op;
        }
        if (Object.keys(shared).length > 0) parts[`path ${path}`] = shared;
      }
    } else if (key === "webhooks" && value && typeof value === "object") {
      for (const [name, item] of Object.entries(value as Record<string, unknown>)) parts[`webhook ${name}`] = item;
    } else if (key === "components" && value && typeof value === "object") {
      for (const [kind, members] of Object.entries(value as Record<string, Record<string, unknown>>)) {
        for (const [name, member] of Object.entries(members ?? {})) parts[`${kind}/${name}`] = member;
      }
    } else {
      parts[key] = value;
    }
  }
  return parts;
}

/** Hash of a bundled spec document and of each of its parts. */
export function fingerprint(doc: Record<string, unknown>): { hash: string; parts: Record<string, string> } {
  const parts = Object.fromEntries(
    Object.entries(specParts(doc))
      .map(([name, value]) => [name, sha256(canonicalJson(value)).slice(0, 16)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { hash: `sha256:${sha256(canonicalJson(doc))}`, parts };
}

export function fingerprintFile(bundlePath: string): { hash: string; parts: Record<string, string> } {
  return fingerprint(parse(readFileSync(bundlePath, "utf8")) as Record<string, unknown>);
}

export function readLock(path = LOCK_PATH): ReleaseLock {
  if (!existsSync(path)) return { releases: {} };
  const lock = parse(readFileSync(path, "utf8")) as Partial<ReleaseLock> | null;
  return { releases: lock?.releases ?? {} };
}

export function writeLock(lock: ReleaseLock, path = LOCK_PATH): void {
  const sorted = Object.fromEntries(Object.entries(lock.releases).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(path, HEADER + stringify({ releases: sorted }, { lineWidth: 0 }));
}

/** What differs between the locked parts and the current ones, e.g. `changed GET /v1/invoice`. */
export function describeChange(locked: Record<string, string>, current: Record<string, string>): string[] {
  const changes: string[] = [];
  for (const [name, hash] of Object.entries(locked)) {
    if (!(name in current)) changes.push(`removed ${name}`);
    else if (current[name] !== hash) changes.push(`changed ${name}`);
  }
  for (const name of Object.keys(current)) if (!(name in locked)) changes.push(`added ${name}`);
  return changes;
}

export interface LockProblem {
  alias: string;
  message: string;
}

/**
 * Every registry API must be locked, and every locked API's bundle must still have its hash.
 * Returns one problem per API that breaks the rule, each naming the API and what changed.
 */
export function checkLock(entries: ApiEntry[], lock: ReleaseLock): LockProblem[] {
  const problems: LockProblem[] = [];
  for (const entry of entries) {
    const locked = lock.releases[entry.alias];
    if (!locked) {
      problems.push({
        alias: entry.alias,
        message:
          `${entry.alias} is in the registry but not in releases.lock.yaml; ` +
          `release it with \`npm run release:lock -- release ${entry.alias}\``,
      });
      continue;
    }
    if (!existsSync(entry.bundlePath)) {
      problems.push({ alias: entry.alias, message: `${entry.alias}: bundled spec missing; run \`npm run generate\`` });
      continue;
    }
    const current = fingerprintFile(entry.bundlePath);
    if (current.hash !== locked.hash) {
      const what = describeChange(locked.parts ?? {}, current.parts);
      problems.push({
        alias: entry.alias,
        message:
          `${entry.alias} is released, but its contract changed: ${what.join("; ") || "content changed"}. ` +
          `Publish the change as a new release (specs/${entry.service}/<release>/ and a redocly.yaml entry), ` +
          `or, for a deliberate correction, record it: ` +
          `\`npm run release:lock -- correct ${entry.alias} --reason "<why>"\` and \`npm run changelog\``,
      });
    }
  }
  const aliases = new Set(entries.map((e) => e.alias));
  for (const alias of Object.keys(lock.releases)) {
    if (!aliases.has(alias)) {
      problems.push({
        alias,
        message: `${alias} is in releases.lock.yaml but no longer in the registry: a released API cannot be withdrawn silently`,
      });
    }
  }
  return problems;
}

/** Locks APIs that are not locked yet. Throws for one that is (that needs `correct`). */
export function release(lock: ReleaseLock, entries: ApiEntry[]): ReleaseLock {
  const releases = { ...lock.releases };
  for (const entry of entries) {
    if (releases[entry.alias]) throw new Error(`${entry.alias} is already released; a change to it is a correction`);
    releases[entry.alias] = fingerprintFile(entry.bundlePath);
  }
  return { releases };
}

/** Records a deliberate correction: the new hash, with the date and the reason. */
export function correct(lock: ReleaseLock, entry: ApiEntry, reason: string, date: string): ReleaseLock {
  const locked = lock.releases[entry.alias];
  if (!locked) throw new Error(`${entry.alias} is not released; release it instead`);
  if (!reason.trim()) throw new Error("a correction needs a reason");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`date "${date}" is not YYYY-MM-DD`);
  const current = fingerprintFile(entry.bundlePath);
  if (current.hash === locked.hash) throw new Error(`${entry.alias} has not changed since it was locked; nothing to correct`);
  const corrections = [...(locked.corrections ?? []), { date, reason: reason.trim(), from: locked.hash, to: current.hash }];
  return { releases: { ...lock.releases, [entry.alias]: { ...current, corrections } } };
}
