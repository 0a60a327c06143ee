/**
 * The worker of judge-thread.ts: decodes a large request body and validates the request against its
 * operation with the functions the mock runs on smaller bodies. One message in, one reply out.
 */
import "./lazy-modules.js"; // first: before anything loads Prism
import { parentPort } from "node:worker_threads";
import type { JudgeReply, JudgeRequest, Judgement } from "./judge-thread.js";
import { ERROR } from "./prism-parts.js";
import { decodeBody } from "./receive.js";
import { BODY_BYTES, type Element, type Operation } from "./types.js";
import { inputFindings } from "./validate.js";

const operations = new Map<number, Operation>();

/** The JSON size of a decoded body (a text's size as sent). */
const jsonSize = (value: unknown, bytes: Uint8Array) =>
  typeof value === "string" ? bytes.byteLength : Buffer.byteLength(JSON.stringify(value) ?? "");

function judge({ operation, element, bytes, wantBody, maxBodyBytes = Number.POSITIVE_INFINITY }: JudgeRequest): Judgement {
  // Kept before anything else: the main thread sends an operation once, whatever this body turns out to be.
  if (operation?.value) operations.set(operation.key, operation.value);
  const decoded = decodeBody(bytes, element.headers?.["content-type"] as string | undefined);
  if (decoded === "invalid") return { invalidJson: true };
  if (decoded === "tooDeep") return { invalidJson: true, tooDeep: true };
  const op = operation ? operations.get(operation.key) : undefined;
  if (operation && !op) throw new Error(`operation ${operation.key} was never sent to this worker`);
  const full: Element = { ...element, body: decoded.value, [BODY_BYTES]: bytes.byteLength };
  const findings = op ? inputFindings(op, full) : undefined;
  const valid = !findings?.some((finding) => finding.severity === ERROR);
  if (!wantBody || !valid) return { invalidJson: false, findings };
  // A body the answer cannot use (the sandbox would not keep it) does not cross back: only its size does.
  const size = Number.isFinite(maxBodyBytes) ? jsonSize(decoded.value, bytes) : 0;
  return size > maxBodyBytes ? { invalidJson: false, findings, withheld: size } : { invalidJson: false, findings, body: decoded.value };
}

parentPort!.on("message", (request: JudgeRequest) => {
  let reply: JudgeReply;
  try {
    reply = { id: request.id, judgement: judge(request) };
  } catch (error) {
    reply = { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
// Modules loaded and the listener set: from now on each judgement's time limit runs (judge-thread.ts).
parentPort!.postMessage({ ready: true } satisfies JudgeReply);
