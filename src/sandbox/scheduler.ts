/**
 * The in-process scheduler of work that falls due without a request: each credential with work
 * ahead has one due time (ms, real clock), and one timer, unref'd (it never keeps the process
 * alive), waits for the earliest of them. When it fires, each credential due is handed to `onDue`
 * (and forgotten until given a time again). The work itself is data in the credential's state
 * (store/types.ts); the delivery queue (delivery/deliverer.ts) and the moves test values schedule
 * (engine/clock.ts) each have a scheduler.
 */

/** The longest a timer waits at once (setTimeout's bound); a later time is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Scheduler {
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private closed = false;

  constructor(
    private readonly onDue: (key: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sets when credential `key` next has work due (undefined or null: none). */
  at(key: string, when: number | null | undefined): void {
    if (this.closed) return;
    if (when === undefined || when === null) this.due.delete(key);
    else this.due.set(key, when);
    this.arm();
  }

  /** When credential `key` next has work due, if it has. */
  when(key: string): number | undefined {
    return this.due.get(key);
  }

  /** Stops: no timer left, nothing handed over any more. */
  close(): void {
    this.closed = true;
    this.due.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const when of this.due.values()) if (when < earliest) earliest = when;
    if (earliest === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = earliest;
    if (earliest === Number.POSITIVE_INFINITY) return;
    const timer = setTimeout(() => this.fire(), Math.min(MAX_TIMER_MS, Math.max(0, earliest - this.now())));
    timer.unref();
    this.timer = timer;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    const ready: string[] = [];
    for (const [key, when] of this.due) if (when <= now) ready.push(key);
    for (const key of ready) this.due.delete(key);
    try {
      for (const key of ready) this.onDue(key);
    } finally {
      this.arm();
    }
  }
}
