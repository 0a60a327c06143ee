/**
 * The change tracking of a durable store's states (./state.ts `track`): which rows (./backend.ts)
 * a state's changes touched since they were last taken, in the order of their first change. A
 * request undone forgets the marks it made (`truncate` to where it began).
 */
import type { ChangeSet, Collection, Row, RowKey } from "./backend.js";

export class ChangeTracker {
  private readonly order: string[] = [];
  private readonly marked = new Set<string>();

  /** How many rows are marked: where a request begins, to forget its marks if it is undone. */
  get length(): number {
    return this.order.length;
  }

  mark(collection: Collection, id: string): void {
    const key = `${collection}:${id}`;
    if (this.marked.has(key)) return;
    this.marked.add(key);
    this.order.push(key);
  }

  /** Forgets the marks made after the first `length`. */
  truncate(length: number): void {
    for (const key of this.order.splice(length)) this.marked.delete(key);
  }

  /**
   * The change set of the rows marked, each read from the state now (`row`: undefined when it is
   * gone): a row still there is put with its value now, one gone is deleted; with `wakeAt` (asked
   * only when a row is marked: nothing changed leaves it as stored). The marks are then forgotten.
   */
  take(row: (collection: Collection, id: string) => Row | undefined, wakeAt: () => number | null): ChangeSet {
    if (this.order.length === 0) return { puts: [], deletes: [] };
    const puts: Row[] = [];
    const deletes: RowKey[] = [];
    for (const key of this.order) {
      const colon = key.indexOf(":");
      const collection = key.slice(0, colon) as Collection;
      const id = key.slice(colon + 1);
      const current = row(collection, id);
      if (current) puts.push(current);
      else deletes.push({ collection, id });
    }
    this.truncate(0);
    return { puts, deletes, wakeAt: wakeAt() };
  }
}
