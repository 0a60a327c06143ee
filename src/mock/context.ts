/**
 * What the stages of one mock server share (server.ts builds it once per server), and one request's
 * exchange as it goes through them. Each stage is a function of these two, so that a test can build
 * a context and run one stage alone.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { createInstance } from "@stoplight/prism-http";
import type { FastPath } from "./fast-path.js";
import type { Judge } from "./judge-thread.js";
import type { ResponseCache } from "./response-cache.js";
import type { Router } from "./route.js";
import type { MockHooks, Operation, RawBody } from "./types.js";

export interface MockContext {
  operations: Operation[];
  /** The layer attached to the mock (the sandbox), or none. */
  hooks: MockHooks;
  /** Prism's routing, its results kept. */
  router: Router;
  /** Prism's engine, with the mock's routing, security check and request validation as its components. */
  prism: ReturnType<typeof createInstance>;
  fast: FastPath;
  /** The response cache; undefined when off (`cache: false`, or an `answer` hook). */
  responses: ResponseCache | undefined;
  /** How the requests so far were answered (the server's stats). */
  counts: { fast: number; prism: number; cache: number };
  /** Judges large bodies off this thread; started on the first one. */
  judge: Judge | undefined;
}

/** One request, its response, and its body as received. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  raw: RawBody;
}
