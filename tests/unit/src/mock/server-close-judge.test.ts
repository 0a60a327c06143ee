/**
 * A mock server's close() (src/mock/server.ts) ends the worker thread that judges its large bodies
 * (src/mock/judge-thread.ts): nothing it started outlives it. A body over LARGE_BODY_BYTES starts
 * the worker; its client leaves before the judgement, so the server can close at once; the worker is
 * ended by close(), not later by its idle timer. Seen through node:worker_threads' Worker methods,
 * which the judge calls on its worker.
 */
import { connect } from "node:net";
import { Worker } from "node:worker_threads";
import { afterEach, expect, it, vi } from "vitest";
import { LARGE_BODY_BYTES } from "../../../../src/mock/limits.js";
import { createPrismServer } from "../../../../src/mock/server.js";
import type { Operation } from "../../../../src/mock/types.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const operation = {
  id: "post-things",
  method: "post",
  path: "/v1/things",
  responses: [{ id: "r", code: "200", contents: [], headers: [] }],
  servers: [],
  security: [],
  request: { body: { contents: [{ mediaType: "application/json", schema: { type: "array" } }] } },
} as unknown as Operation;

it("close() ends the worker that was judging a large body", async () => {
  const terminated = vi.spyOn(Worker.prototype, "terminate");
  let sent!: () => void;
  const judging = new Promise<void>((resolve) => (sent = resolve));
  const post = Worker.prototype.postMessage;
  vi.spyOn(Worker.prototype, "postMessage").mockImplementation(function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
    post.apply(this, args);
    sent();
  });

  const server = createPrismServer([operation]);
  const url = new URL(await server.listen(0, "127.0.0.1"));
  const body = `[${"1,".repeat(LARGE_BODY_BYTES / 2)}1]`;
  const socket = connect(Number(url.port), "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write(`POST /v1/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  await judging;
  expect(terminated).not.toHaveBeenCalled();
  socket.destroy();
  await server.close();
  expect(terminated).toHaveBeenCalled();
});
