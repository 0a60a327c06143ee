/**
 * Closing the memory store (src/sandbox/store/memory.ts `close`): every state is dropped, each
 * handed to `onDrop` (what was queued for it is cancelled there), and the memory budget its records
 * took is given back to the budget it shares with other stores.
 */
import { describe, expect, it } from "vitest";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { MemoryStore } from "../../../../src/sandbox/store/memory.js";

describe("MemoryStore close", () => {
  it("drops every state, each handed to onDrop, and gives its memory back", () => {
    const budget = new SandboxBudget(100_000);
    const dropped: string[] = [];
    const store = new MemoryStore({ budget, onDrop: (state) => dropped.push(state.label) });
    const neighbour = new MemoryStore({ budget });
    const a = store.forCredential("a");
    const b = store.forCredential("b");
    a.add("order", "o-1", { order_id: "o-1" });
    b.add("order", "o-2", { order_id: "o-2" });
    neighbour.forCredential("c").add("order", "o-3", { order_id: "o-3" });
    const neighbourBytes = neighbour.states()[0].bytes;
    expect(budget.used).toBe(a.bytes + b.bytes + neighbourBytes);

    store.close();
    expect(store.size).toBe(0);
    expect(store.states()).toEqual([]);
    expect(dropped).toEqual([a.label, b.label]);
    // The neighbour's records are still counted; the closed store's are not.
    expect(budget.used).toBe(neighbourBytes);
  });
});
