/**
 * One attempt's way to the server and back: the request sent, never with fetch following a
 * redirect; the redirects that stay on the request's origin followed as fetch would, one to another
 * origin returned as the answer; the answer's body bounded.
 */
import { DeferredRequest } from "./deferred-request.js";
import { ResponseTooLargeError } from "./errors.js";
import type { FetchFunction } from "./types.js";

export const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** As fetch: at most 20 redirects are followed. */
const MAX_REDIRECTS = 20;
/** Headers describing a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** Sends one request, never following a redirect: the global fetch takes a DeferredRequest's URL and init as they are; an injected fetch gets a real Request. */
export function sendOnce(input: Request, ext: RequestInit | undefined, custom: FetchFunction | undefined): Promise<Response> {
  if (!custom && DeferredRequest.is(input)) return input.send(ext);
  const manual: RequestInit = { ...ext, redirect: "manual" };
  return (custom ?? globalThis.fetch)(DeferredRequest.is(input) ? input.materialize() : input, manual);
}

/** A body that may have to go again after a 307/308, taken before the request is sent: the DeferredRequest's own (a string for JSON), else a copy of the stream. */
export interface SentBody {
  deferredBody: BodyInit | null | undefined;
  spare: Request | undefined;
}

const NO_BODY: SentBody = { deferredBody: undefined, spare: undefined };

export function sentBody(input: Request): SentBody {
  if (DeferredRequest.is(input)) {
    const given = input.bodyInit;
    return given == null ? NO_BODY : { deferredBody: given, spare: undefined };
  }
  return input.body ? { deferredBody: undefined, spare: input.clone() } : NO_BODY;
}

/**
 * Follows the redirects of `response` (the answer to `input`) that stay on its origin, as fetch
 * would (method rewriting, the body again for 307/308); a redirect to another origin is returned as
 * the answer, unfollowed. Called only when the first answer is a redirect.
 */
export async function followSameOrigin(
  input: Request,
  ext: RequestInit | undefined,
  custom: FetchFunction | undefined,
  progress: { answers: number },
  first: Response,
  { deferredBody, spare }: SentBody,
): Promise<Response> {
  const deferred = DeferredRequest.is(input) ? input : undefined;
  const hasBody = deferredBody != null || spare !== undefined;
  let replay: BodyInit | null | undefined = deferredBody instanceof ReadableStream ? undefined : deferredBody;
  const signal = ext?.signal ?? (deferred ? deferred.initSignal : input.signal);
  let current = input;
  let response = first;
  for (let hop = 0; hop < MAX_REDIRECTS && REDIRECTS.has(response.status); hop++) {
    const location = response.headers.get("location");
    if (location === null) break;
    let target: URL;
    try {
      target = new URL(location, current.url);
    } catch {
      break;
    }
    if (target.origin !== new URL(current.url).origin) break; // never followed: the 3xx is the answer
    if (target.username !== "" || target.password !== "") break; // fetch refuses such a URL, quoting it: the 3xx is the answer
    const toGet =
      (response.status === 303 && current.method !== "GET" && current.method !== "HEAD") ||
      ((response.status === 301 || response.status === 302) && current.method === "POST");
    const headers = new Headers(current.headers);
    let body: BodyInit | null = null;
    if (toGet) {
      for (const name of BODY_HEADERS) headers.delete(name);
    } else if (hasBody && current.method !== "GET" && current.method !== "HEAD") {
      if (replay == null && !spare) break; // a stream body cannot be sent again: the 307/308 is the answer
      replay ??= await spare!.arrayBuffer();
      body = replay;
    }
    await response.body?.cancel().catch(() => undefined);
    current = new Request(target, { method: toGet ? "GET" : current.method, headers, body, signal, redirect: "manual" });
    response = await sendOnce(current, ext, custom);
    progress.answers++;
  }
  return response;
}

/**
 * The answer with its body bounded: a declared Content-Length over `limit` throws at once (the body
 * is not read); a body without one is cut off with a ResponseTooLargeError once it exceeds `limit`.
 * An answer with a declared length within the limit is returned as it is (fetch enforces the length).
 */
export function bounded(response: Response, limit: number): Response {
  if (!response.body) return response;
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    if (Number(declared) <= limit) return response;
    response.body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  let size = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new ResponseTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const wrapped = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(wrapped, "url", { value: response.url });
  return wrapped;
}
