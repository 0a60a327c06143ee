/**
 * A hosted sandbox's readiness, for `GET /_sandbox/health`: starting (until every mock listens),
 * ready, then draining (from SIGTERM or close, while requests in flight finish). A load balancer
 * sends traffic only on 200, which only `ready` answers; the others answer 503. The moves go one
 * way: starting to ready or draining, ready to draining; draining is the end.
 */

export type HealthState = "starting" | "ready" | "draining";

export interface HealthAnswer {
  status: 200 | 503;
  body: { status: HealthState };
}

export class Health {
  private current: HealthState = "starting";
  private readonly listeners = new Set<(state: HealthState) => void>();

  get state(): HealthState {
    return this.current;
  }

  /** Every mock listens: ready. A sandbox already draining stays draining (false). */
  ready(): boolean {
    return this.move("ready", ["starting"]);
  }

  /** Stopping: from now on the health check answers 503. False when it was draining already. */
  drain(): boolean {
    return this.move("draining", ["starting", "ready"]);
  }

  /** What `GET /_sandbox/health` answers now. */
  answer(): HealthAnswer {
    return { status: this.current === "ready" ? 200 : 503, body: { status: this.current } };
  }

  /** Calls `listener` on each move (the log's lines); returns its removal. */
  onChange(listener: (state: HealthState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private move(to: HealthState, from: HealthState[]): boolean {
    if (!from.includes(this.current)) return false;
    this.current = to;
    for (const listener of this.listeners) listener(to);
    return true;
  }
}
