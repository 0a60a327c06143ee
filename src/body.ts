/**
 * Reading an HTTP body whole within a bound, for the proxy (requests and upstream answers) and the
 * callback receiver. The bound is checked as the bytes arrive, so an oversized body is refused
 * without being held.
 */
import type { IncomingMessage } from "node:http";

/**
 * `stream`'s body, up to `limit` bytes. Past the limit it rejects with `tooLarge()` at once, stops
 * reading and pauses the stream (the rest is left to the caller: resume to drain it, or destroy
 * it). `brokenOff()`: the error when the stream is aborted before its end (else only its `error`).
 */
export function readBounded(stream: IncomingMessage, limit: number, tooLarge: () => Error, brokenOff?: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.off("data", onData);
        stream.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    stream.on("data", onData);
    stream.once("end", () => resolve(Buffer.concat(chunks)));
    stream.once("error", reject);
    if (brokenOff) stream.once("aborted", () => reject(brokenOff()));
  });
}
