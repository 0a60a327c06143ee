/**
 * A store's address (src/sandbox/store/open.ts): the forms accepted, one-line errors naming the bad
 * part, where it comes from (option, environment variable, default) and the store it opens.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../../src/registry.js";
import { FileBackend } from "../../../../../src/sandbox/store/file.js";
import {
  describeStoreAddress,
  installLine,
  openBackend,
  parseStoreAddress,
  redactUrl,
  STORE_ENV,
  urlSecrets,
  StoreAddressError,
  storeAddressFrom,
} from "../../../../../src/sandbox/store/open.js";
import { occupyPort } from "../../../../helpers/ports.js";
import { credentialKey } from "./conformance.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "store-open-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FORMS = "accepted: memory, file:<dir>, postgres://user:password@host:port/database";

describe("parseStoreAddress", () => {
  it("reads memory, file: (a path or a file URL, relative to the working directory) and postgres URLs", () => {
    const cases: [string, unknown][] = [
      ["memory", { kind: "memory" }],
      [" memory ", { kind: "memory" }],
      ["file:/var/lib/sandbox", { kind: "file", dir: "/var/lib/sandbox" }],
      ["file:state", { kind: "file", dir: "/work/project/state" }],
      ["file:./a/../state", { kind: "file", dir: "/work/project/state" }],
      ["file:///srv/sandbox%20state", { kind: "file", dir: "/srv/sandbox state" }],
      ["FILE:/x", { kind: "file", dir: "/x" }],
      ["postgres://sandbox:pw@db.internal:5432/sandbox", { kind: "postgres", url: "postgres://sandbox:pw@db.internal:5432/sandbox" }],
      ["postgresql://db/sandbox?sslmode=require", { kind: "postgres", url: "postgresql://db/sandbox?sslmode=require" }],
      ["postgres:///sandbox?host=/var/run/postgresql", { kind: "postgres", url: "postgres:///sandbox?host=/var/run/postgresql" }],
    ];
    expect(cases).toHaveLength(10);
    for (const [text, expected] of cases) expect(parseStoreAddress(text, "--sandbox-store", "/work/project"), text).toEqual(expected);
  });

  it("refuses anything else in one line naming where it came from, the bad part and the forms accepted", () => {
    const cases: [string, string][] = [
      ["", `--sandbox-store "": empty; ${FORMS}`],
      ["   ", `--sandbox-store "   ": empty; ${FORMS}`],
      ["file:", `--sandbox-store "file:": no directory after "file:"; ${FORMS}`],
      ["Memory", `--sandbox-store "Memory": not a store address (a directory is written file:Memory); ${FORMS}`],
      ["./state", `--sandbox-store "./state": not a store address (a directory is written file:./state); ${FORMS}`],
      ["C:\\state", `--sandbox-store "C:\\\\state": not a store address (a directory is written file:C:\\state); ${FORMS}`],
      ["redis://user:pw@cache/0", `--sandbox-store "redis://user:***@cache/0": unknown kind of store "redis:"; ${FORMS}`],
      ["postgres:///sandbox", `--sandbox-store "postgres:///sandbox": no host (postgres://user:password@host:port/database); ${FORMS}`],
      [
        "postgres://user:pw@db:99999/x",
        `--sandbox-store "postgres://user:***@db:99999/x": not a valid URL (postgres://user:password@host:port/database); ${FORMS}`,
      ],
      [
        "postgres://user:p@w:d@/x",
        `--sandbox-store "postgres://user:***@/x": not a valid URL (postgres://user:password@host:port/database); ${FORMS}`,
      ],
      ["postgres://user:pw@db/x#frag", `--sandbox-store "postgres://user:***@db/x#frag": a "#" part means nothing here; ${FORMS}`],
      [
        "file://host/share",
        `--sandbox-store "file://host/share": not a file URL with an absolute path (File URL host must be "localhost" or empty on linux); ${FORMS}`,
      ],
    ];
    expect(cases).toHaveLength(12);
    for (const [text, message] of cases) {
      const error = (() => {
        try {
          parseStoreAddress(text, "--sandbox-store");
        } catch (caught) {
          return caught as Error;
        }
      })();
      expect(error, text).toBeInstanceOf(StoreAddressError);
      expect(error!.message, text).toBe(message);
      expect(error!.message).not.toContain("\n");
      expect(error!.message).not.toMatch(/:pw@|p@w:d/);
    }
  });

  it("shows an address without its password", () => {
    expect(redactUrl("postgres://u:s3cr%2Ft@h:5/d")).toBe("postgres://u:***@h:5/d");
    expect(redactUrl("postgres://u@h/d")).toBe("postgres://u@h/d");
    expect(redactUrl("postgres://u:pa/ss@h/d")).toBe("postgres://u:***@h/d");
    // pg reads ?password= and ?sslpassword= too.
    expect(redactUrl("postgres://u@h/d?sslmode=require&password=s3cr3t&sslpassword=k3y")).toBe(
      "postgres://u@h/d?sslmode=require&password=***&sslpassword=***",
    );
    expect(redactUrl("postgres://u@h:99999/d?password=s3cr3t")).toBe("postgres://u@h:99999/d?password=***");
    expect(urlSecrets("postgres://u:a%2Fb@h/d?password=c%20d&user=u")).toEqual(["a%2Fb", "a/b", "c d", "c%20d"]);
    expect(describeStoreAddress({ kind: "postgres", url: "postgresql://u:p@h/d" })).toBe("postgresql://u:***@h/d");
    expect(describeStoreAddress({ kind: "file", dir: "/srv/x" })).toBe("file:/srv/x");
    expect(describeStoreAddress({ kind: "memory" })).toBe("memory");
  });
});

describe("storeAddressFrom", () => {
  it("takes the option, else the environment variable, else memory; an error names the one it came from", () => {
    expect(STORE_ENV).toBe("BANK_API_CONTRACTS_SANDBOX_STORE");
    const env = { BANK_API_CONTRACTS_SANDBOX_STORE: "file:/from/env" };
    expect(storeAddressFrom("file:/from/option", env)).toEqual({ kind: "file", dir: "/from/option" });
    expect(storeAddressFrom(undefined, env)).toEqual({ kind: "file", dir: "/from/env" });
    expect(storeAddressFrom(undefined, {})).toEqual({ kind: "memory" });
    expect(storeAddressFrom(undefined, { BANK_API_CONTRACTS_SANDBOX_STORE: "" })).toEqual({ kind: "memory" });
    expect(() => storeAddressFrom(undefined, { BANK_API_CONTRACTS_SANDBOX_STORE: "file:" })).toThrow(
      `BANK_API_CONTRACTS_SANDBOX_STORE "file:": no directory after "file:"; ${FORMS}`,
    );
    expect(() => storeAddressFrom("nowhere", env, "startMock's store")).toThrow(`startMock's store "nowhere": not a store address`);
  });
});

describe("openBackend", () => {
  it("opens nothing for memory, and the file store for file:", async () => {
    expect(await openBackend("memory")).toBeUndefined();
    const dir = join(scratch, "opened");
    const backend = await openBackend({ kind: "file", dir });
    try {
      expect(backend).toBeInstanceOf(FileBackend);
      expect(backend!.kind).toBe("file");
      expect(backend!.shared).toBe(false);
      expect(
        (await backend!.transact(credentialKey("o"), undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: null }, result: 7 })))
          .result,
      ).toBe(7);
    } finally {
      await backend!.close();
    }
  });

  it("fails naming the Postgres store without its password when it cannot connect", async () => {
    const closed = await occupyPort();
    await closed.close();
    const failure = await openBackend(`postgres://sandbox:hunter2@127.0.0.1:${closed.port}/sandbox`, {
      postgres: { connectTimeoutMs: 5_000 },
    }).catch((error: Error) => error);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^postgres store postgres://sandbox:\\*\\*\\*@127\\.0\\.0\\.1:${closed.port}/sandbox: open: cannot connect: .*ECONNREFUSED`,
      ),
    );
    expect((failure as Error).message).not.toContain("hunter2");
  });

  it("names the line that installs a store's library, at the version the package pins", () => {
    expect(installLine("lmdb")).toBe("npm install --save-dev lmdb@3.5.6");
    expect(installLine("pg")).toBe("npm install --save-dev pg@8.23.1");
  });

  it("is the version the guides tell partners to install", () => {
    for (const guide of ["docs/guides/sandbox-state.md", "docs/guides/keeping-state.md"]) {
      const text = readFileSync(join(repoRoot, guide), "utf8");
      for (const library of ["lmdb", "pg"] as const)
        expect([guide, text.includes(installLine(library).split(" ").at(-1)!)]).toEqual([guide, true]);
    }
  });
});
