/**
 * A lock between test processes (vitest's workers, or two runs at once): a folder made with
 * `mkdir`, which only one process can create, holding its owner's pid so that a lock left by a
 * process that died is taken over instead of waited on forever.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Takes the lock folder `lock`, waiting while another live process holds it; resolves true once
 * taken, or false without taking it as soon as `done()` says the work is there already. Release it
 * with `rmSync(lock, { recursive: true, force: true })`.
 */
export async function takeLock(lock: string, done: () => boolean = () => false, pollMs = 250): Promise<boolean> {
  for (;;) {
    if (done()) return false;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      return true;
    } catch {
      const owner = Number(existsSync(join(lock, "pid")) ? readFileSync(join(lock, "pid"), "utf8") : Number.NaN);
      if (Number.isInteger(owner) && !isAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}
