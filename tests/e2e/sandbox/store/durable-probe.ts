/**
 * A durable backend for the durable store's tests (tests/e2e/sandbox/store/durable-*.test.ts): a
 * `file:` store's namespace, opened in a scratch directory, behind a probe that records each call
 * (method and arguments), fails a method on demand (a transaction fails after its work ran, as a
 * full disk or a lost database would: nothing is written), holds a method's calls until released,
 * and tells when a method is called and when a call settles (no sleeps: a test waits for the call).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChangeSet, DurableBackend, PartnerRow, StoredCredential } from "../../../../src/sandbox/store/backend.js";
import { FileBackend } from "../../../../src/sandbox/store/file.js";

export type Method = "transact" | "remove" | "claimDue" | "scheduled" | "loadAll" | "close";

export interface Call {
  method: Method;
  args: unknown[];
}

/** A scratch directory with one `file:` store in it, and the views of it handed out (closed by `close`). */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), "durable-store-"));
  private stores = 0;
  private readonly roots: FileBackend[] = [];

  /** A new `file:` store, opened, in a directory of its own. */
  async store(): Promise<FileBackend> {
    const root = new FileBackend(join(this.dir, `store-${++this.stores}`));
    await root.open();
    this.roots.push(root);
    return root;
  }

  /** A probe over a new view of `root`'s namespace `namespace`. */
  async probe(root: FileBackend, options: { namespace?: string; shared?: boolean } = {}): Promise<Probe> {
    const view = root.scope(options.namespace ?? "shop@1.0.0");
    await view.open();
    return new Probe(view, options.shared ?? false);
  }

  async close(): Promise<void> {
    for (const root of this.roots.splice(0)) await root.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export class Probe implements DurableBackend {
  readonly calls: Call[] = [];
  /** Methods that fail, with the error they fail with; `transact` fails after its work ran. */
  readonly fail: Partial<Record<Method, Error>> = {};
  private readonly holds = new Map<Method, { promise: Promise<void>; release: () => void }>();
  private readonly waiters: Array<{ method: Method; settled: () => void }> = [];
  private readonly callers: Array<{ method: Method; called: () => void }> = [];

  constructor(
    readonly inner: DurableBackend,
    readonly shared: boolean,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  /** The calls of one method, their arguments. */
  of(method: Method): unknown[][] {
    return this.calls.filter((call) => call.method === method).map((call) => call.args);
  }

  /** Resolves once the next call of `method` has settled (resolved or rejected). */
  settled(method: Method): Promise<void> {
    return new Promise((settled) => this.waiters.push({ method, settled }));
  }

  /** Resolves once `method` is next called (before the call runs). */
  called(method: Method): Promise<void> {
    return new Promise((called) => this.callers.push({ method, called }));
  }

  /** Holds the calls of `method` from now until `release()` (they start, then wait). */
  hold(method: Method): { release: () => void } {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.holds.set(method, { promise, release });
    return {
      release: () => {
        this.holds.delete(method);
        release();
      },
    };
  }

  private async call<T>(method: Method, args: unknown[], run: () => Promise<T>): Promise<T> {
    this.calls.push({ method, args });
    for (const caller of this.callers.splice(0))
      if (caller.method === method) caller.called();
      else this.callers.push(caller);
    try {
      await this.holds.get(method)?.promise;
      const failure = this.fail[method];
      if (failure && method !== "transact") throw failure;
      return await run();
    } finally {
      // After the caller's own continuation: a waiter sees what the settled call led to.
      setImmediate(() => {
        for (const waiter of this.waiters.splice(0))
          if (waiter.method === method) waiter.settled();
          else this.waiters.push(waiter);
      });
    }
  }

  open(): Promise<void> {
    return this.inner.open();
  }

  close(): Promise<void> {
    return this.call("close", [], () => this.inner.close());
  }

  scope(namespace: string): DurableBackend {
    return new Probe(this.inner.scope(namespace), this.shared);
  }

  async *loadAll(): AsyncIterable<StoredCredential> {
    this.calls.push({ method: "loadAll", args: [] });
    const failure = this.fail.loadAll;
    if (failure) throw failure;
    yield* this.inner.loadAll();
  }

  transact<T>(
    key: string,
    known: number | undefined,
    work: (stored: StoredCredential | undefined) => { changes: ChangeSet; result: T },
  ): Promise<{ result: T; version: number }> {
    return this.call("transact", [key, known], () =>
      this.inner.transact(key, known, (stored) => {
        const outcome = work(stored);
        const failure = this.fail.transact;
        if (failure) throw failure;
        return outcome;
      }),
    );
  }

  remove(key: string): Promise<void> {
    return this.call("remove", [key], () => this.inner.remove(key));
  }

  claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<string[]> {
    return this.call("claimDue", [now, owner, leaseMs, limit], () => this.inner.claimDue(now, owner, leaseMs, limit));
  }

  scheduled(limit: number): Promise<string[]> {
    return this.call("scheduled", [limit], () => this.inner.scheduled(limit));
  }

  putPartner(partner: PartnerRow): Promise<void> {
    return this.inner.putPartner(partner);
  }

  deletePartner(id: string): Promise<boolean> {
    return this.inner.deletePartner(id);
  }

  listPartners(): Promise<PartnerRow[]> {
    return this.inner.listPartners();
  }

  partnerByCredential(credentialKey: string): Promise<PartnerRow | undefined> {
    return this.inner.partnerByCredential(credentialKey);
  }
}
