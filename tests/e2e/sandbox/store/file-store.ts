/**
 * What the `file-*` tests share: whether a `file:` store opens (src/sandbox/store/file.ts), and its
 * named databases read and written with lmdb directly, to look at what it keeps on disk (in one
 * process, lmdb-js shares an open environment, so a store open in the test is read as it is).
 */
import { join } from "node:path";
import { open as openLmdb } from "lmdb";
import { FILE_NAME, FileBackend } from "../../../../src/sandbox/store/file.js";

/** Runs `work` on the named database `name` of the store in `dir`, as text, and closes it after. */
async function withDatabase<T>(dir: string, name: string, work: (db: ReturnType<typeof openDatabase>["db"]) => T | Promise<T>): Promise<T> {
  const { root, db } = openDatabase(dir, name);
  try {
    return await work(db);
  } finally {
    await root.close();
  }
}

function openDatabase(dir: string, name: string) {
  const root = openLmdb({ path: join(dir, FILE_NAME), encoding: "string" });
  return { root, db: root.openDB<string, string>({ name, encoding: "string" }) };
}

/** Every entry of the named database `name` (keys as lmdb orders them, values as written). */
export const entries = (dir: string, name: string): Promise<[unknown, string][]> =>
  withDatabase(dir, name, (db) => Array.from(db.getRange(), ({ key, value }): [unknown, string] => [key, value]));

/** The store's own entries (`format`, and `owner` while an instance holds the directory), by name. */
export const storeEntries = async (dir: string): Promise<Record<string, string>> =>
  Object.fromEntries((await entries(dir, "store")).map(([key, value]) => [String(key), value]));

/** The store's `owner` entry, parsed. */
export const owner = async (dir: string): Promise<Record<string, unknown> | undefined> => {
  const text = (await storeEntries(dir)).owner;
  return text === undefined ? undefined : JSON.parse(text);
};

/** Writes the store's `owner` entry. */
export const setOwner = (dir: string, value: Record<string, unknown>): Promise<void> =>
  withDatabase(dir, "store", async (db) => {
    await db.put("owner", JSON.stringify(value));
  });

/** Removes the store's `owner` entry (another process took the claim over and released it). */
export const removeOwner = (dir: string): Promise<void> =>
  withDatabase(dir, "store", async (db) => {
    await db.remove("owner");
  });

/** Writes entry `key` of the named database `name`. */
export const putEntry = (dir: string, name: string, key: string, value: string): Promise<void> =>
  withDatabase(dir, name, async (db) => {
    await db.put(key, value);
  });

/** "opened" when a store on `dir` opens (it is closed again), else the refusal's message. */
export async function opens(dir: string): Promise<string> {
  const store = new FileBackend(dir);
  try {
    await store.open();
  } catch (error) {
    return (error as Error).message;
  }
  await store.close();
  return "opened";
}
