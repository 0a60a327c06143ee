/**
 * The handler's two forms around its framework-independent core (`handle`): a Node.js `http`
 * request listener (honouring a body a framework already read) and a Fetch API handler. Both read
 * the body within `maxBodyBytes`, answering 413 as soon as it passes the bound without reading the
 * rest.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBounded } from "../body.js";
import { BodyTooLarge, json } from "./reply.js";
import type { CallbackDelivery, CallbackReply } from "./types.js";

type Handle = (delivery: CallbackDelivery) => Promise<CallbackReply>;

const tooLarge = (maxBody: number) => json(413, { error: `the body exceeds ${maxBody} bytes` }, { connection: "close" });

/** Reads a Fetch API body the same way: the stream is cancelled as soon as it passes `limit`. */
async function readFetchBody(request: Request, limit: number): Promise<Buffer | undefined> {
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * After a 413 to a body still arriving: Node ends its side of the connection and discards what
 * still comes, so that the client can read the answer before the connection goes (closing at once
 * would reset it, and a reset can take the unread answer with it); the discarding is bounded, by
 * `maxBytes` more bytes and 5 s, then the socket is destroyed.
 */
function closeAfterLinger(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const socket = req.socket;
  res.once("finish", () => {
    let discarded = 0;
    const timer = setTimeout(() => socket.destroy(), 5000);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) socket.destroy();
    });
    req.resume();
  });
}

/** The delivery's body as a Node.js request holds it: a framework's (`req.body`), or read within `maxBody`. */
async function nodeBody(req: IncomingMessage, maxBody: number): Promise<CallbackDelivery["body"]> {
  const preRead = (req as IncomingMessage & { body?: unknown }).body;
  if (typeof preRead === "string" || Buffer.isBuffer(preRead)) return preRead;
  if (preRead !== undefined && req.readableEnded) return { parsed: preRead };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBody) throw new BodyTooLarge();
  return readBounded(req, maxBody, () => new BodyTooLarge());
}

/** The Node.js `http` request listener. */
export function nodeListener(handle: Handle, maxBody: number): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    let reply: CallbackReply;
    try {
      const body = await nodeBody(req, maxBody);
      reply = await handle({ method: req.method ?? "GET", headers: req.headers, body });
    } catch (error) {
      reply =
        error instanceof BodyTooLarge ? tooLarge(maxBody) : json(400, { error: `cannot read the request: ${(error as Error).message}` });
    }
    if (!res.headersSent) {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
      if (reply.headers.connection === "close" && !req.readableEnded) closeAfterLinger(req, res, maxBody);
    }
  };
}

/** The Fetch API form (`Request` -> `Response`). */
export function fetchHandler(handle: Handle, maxBody: number): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const declared = Number(headers["content-length"]);
    let reply: CallbackReply;
    try {
      if (Number.isFinite(declared) && declared > maxBody) throw new BodyTooLarge();
      reply = await handle({ method: request.method, headers, body: await readFetchBody(request, maxBody) });
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        await request.body?.cancel().catch(() => undefined);
        reply = tooLarge(maxBody);
      } else reply = json(400, { error: `cannot read the request: ${(error as Error).message}` });
    }
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}
