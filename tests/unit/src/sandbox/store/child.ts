/**
 * The child process of the stores' spawn tests (file.spawn.test.ts, postgres.spawn.test.ts): a
 * second sandbox process, which the tests kill or run beside their own. One line on stdout per
 * event the test waits for.
 *
 *   child.ts file-writer <dir>       writes credentials k0, k1, ... (8 at a time) and prints "ack <i>"
 *                                    once each write is acknowledged, until killed (at most 100,000)
 *   child.ts file-hold <dir>         opens the store, prints "open", closes it when stdin ends
 *   child.ts file-open <dir>         opens and closes the store; prints "opened" or "refused: <error>"
 *   child.ts postgres-hold <url> <key> <now>
 *                                    claims the due credentials at <now> for a minute, prints
 *                                    "claimed <keys>", then holds <key> in a transaction whose work
 *                                    never ends (after printing "in work"), until killed
 */
import { writeSync } from "node:fs";
import { FileBackend } from "../../../../../src/sandbox/store/file.js";
import { PostgresBackend } from "../../../../../src/sandbox/store/postgres.js";
import { credentialKey } from "./conformance.js";

/** Written at once (fd 1, synchronously): the line is out before anything that follows. */
const say = (line: string) => writeSync(1, `${line}\n`);

const [mode, target, key, now] = process.argv.slice(2);

if (mode === "file-writer") {
  const store = new FileBackend(target!);
  await store.open();
  say("open");
  for (let round = 0; round < 100_000 / 8; round++) {
    await Promise.all(
      Array.from({ length: 8 }, async (_, j) => {
        const i = round * 8 + j;
        await store.transact(credentialKey(`k${i}`), undefined, () => ({
          changes: { puts: [{ collection: "record", id: `r${i}`, value: { i, text: "x".repeat(200) } }], deletes: [], wakeAt: null },
          result: undefined,
        }));
        say(`ack ${i}`);
      }),
    );
  }
} else if (mode === "file-hold") {
  const store = new FileBackend(target!);
  await store.open();
  say("open");
  process.stdin.resume();
  process.stdin.on("end", () => void store.close());
} else if (mode === "file-open") {
  const store = new FileBackend(target!);
  try {
    await store.open();
    await store.close();
    say("opened");
  } catch (error) {
    say(`refused: ${(error as Error).message}`);
  }
} else if (mode === "postgres-hold") {
  const store = new PostgresBackend(target!);
  await store.open();
  say(`claimed ${(await store.claimDue(Number(now), "child", 60_000, 10)).join(" ")}`);
  await store.transact(key!, undefined, () => {
    say("in work");
    for (;;) {}
  });
} else {
  say(`unknown mode ${mode}`);
  process.exitCode = 2;
}
