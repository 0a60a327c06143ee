/**
 * Fuzzing the sandbox's control API (scripts/lib/fuzz/control.ts) as Schemathesis does from its
 * document (src/sandbox/openapi.yaml): every operation under /_sandbox gets valid, mutated and
 * hostile requests (bounded and seeded); no answer is a 5xx, every status is one the operation
 * declares, every body validates against the document. `npm run fuzz` runs the same at length.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeMocks, type MockServer, startMocks } from "../../../src/mock/index.js";
import { type ControlCase, controlCases, controlDocument, runControl } from "../../../scripts/lib/fuzz/control.js";
import { bundled } from "../../helpers/registry.js";

const SEED = 20251126;
/** Generated requests per operation and kind. */
const PER_KIND = 3;
/** A case not answered in this long fails by name. */
const ANSWER_MS = 10_000;

const cases = controlCases(SEED, PER_KIND);
const api = bundled.find((a) => a.entry.alias === "pay@1.3.0")!;

describe("fuzzing the sandbox control API", () => {
  let mock: MockServer;
  beforeAll(async () => {
    [mock] = await startMocks([api.entry], { freePorts: true, sandbox: { operatorToken: "operator-token-of-the-fuzz-run" } });
  }, 60_000);
  afterAll(() => closeMocks([mock]));

  it("generates valid, mutated and hostile cases for every operation under /_sandbox", () => {
    const { ops } = controlDocument();
    expect(ops.length).toBe(27);
    for (const op of ops) {
      const kinds = new Set(cases.filter((c) => c.operationId === op.operationId).map((c) => c.kind.replace(/:.*/, "")));
      expect([...kinds], op.operationId).toEqual(expect.arrayContaining(["valid", "hostile", "control"]));
    }
    const mutated = cases.filter((c) => !["valid", "hostile", "control"].includes(c.kind.replace(/:.*/, "")));
    expect(new Set(mutated.map((c) => c.kind))).toEqual(new Set(["wrong-type", "missing-required", "oversized-string", "broken-json"]));
    expect(cases.length).toBeGreaterThan(200);
  });

  it("answers every case with a declared status and a body its document describes, never a 5xx", async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const send = async (c: ControlCase) => {
      const outcome = await runControl(mock.url, c, ANSWER_MS);
      if (outcome.status) statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.failure) failures.push(outcome.failure);
    };
    // A few in flight at once, as a fuzzer sends them.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < cases.length) await send(cases[next++]);
      }),
    );
    expect(failures).toEqual([]);
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  }, 60_000);
});
