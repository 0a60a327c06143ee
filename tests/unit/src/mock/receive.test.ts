/**
 * The receive stage's decoding (src/mock/receive.ts) on hand-written bodies: what prism-http-server
 * hands Prism (parsed JSON for `application/json` and `application/*+json`, else the text), bad
 * JSON and JSON nested deeper than the bound told apart (DEVIATIONS jsonDepth), nesting counted
 * through arrays and objects but never inside strings (escaped quotes and backslashes included), and
 * a body that is a view into a larger buffer decoded as that view only. Reading: chunks joined, the
 * 10 MB bound (declared or reached), a body over it read on and dropped up to the drain bound, then
 * the connection destroyed; micri's 413 sent once the client has sent its body or after the drain's
 * time limit (DEVIATIONS bodyLimit), any other refusal at once.
 */
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES, MAX_DRAIN_BYTES, MAX_DRAIN_MS, MAX_JSON_DEPTH } from "../../../../src/mock/limits.js";
import { BodyError, decodeBody, nestsDeeperThan, parseBody, readBody, refuseBody } from "../../../../src/mock/receive.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

// Tests are named in words, not by their JSON: a mutation tester selects tests by name.
describe("nesting", () => {
  const NESTING: Array<[string, string, number, boolean]> = [
    ["arrays at the bound", "[[[1]]]", 3, false],
    ["arrays past the bound", "[[[[1]]]]", 3, true],
    ["objects at the bound", '{"a":{"b":{"c":1}}}', 3, false],
    ["objects past the bound", '{"a":{"b":{"c":{"d":1}}}}', 3, true],
    ["arrays and objects mixed past the bound", '[{"a":[{"b":1}]}]', 3, true],
    ["siblings closed before the next opens", "[[],[],[],[],[[]]]", 3, false],
    ["siblings of mixed depth", "[1,[2,[3]],[4,[5]],[6,[7]]]", 3, false],
    ["brackets in a string", '["[[[[[[[[[[[["]', 3, false],
    ["braces in a string", '{"k":"{{{{{{{{{{{{"}', 3, false],
    ["an escaped quote that does not end the string", '["\\"[[[[[[[[[[["]', 3, false],
    ["an escaped backslash that lets the string end", '["\\\\",[[[1]]]]', 3, true],
    ["an escaped backslash then blanks", '["a\\\\"  ,  [[[1]]] ]', 3, true],
    ["closing brackets in a string, which do not un-nest", '[["]]]"],[[[1]]]]', 3, true],
    // Not JSON (decodeBody parses first), but the scan must not take a backslash outside a string for a quote.
    ["a backslash outside a string, which opens no string", "\\[[[[1]]]]", 3, true],
  ];
  for (const [what, text, max, deeper] of NESTING)
    it(`${what}: ${deeper ? "deeper" : "not deeper"} than ${max}`, () => expect(nestsDeeperThan(bytes(text), max), text).toBe(deeper));
});

describe("decoding", () => {
  it("parses JSON for a JSON media type, whatever its parameters and suffix", () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/problem+json",
      "application/vnd.a+json",
    ])
      expect(decodeBody(bytes('{"a":[1,"x"]}'), type), type).toEqual({ value: { a: [1, "x"] } });
  });

  it("hands any other body to Prism as its text", () => {
    for (const type of [
      undefined,
      "text/plain",
      "application/xml",
      "application/jsonx",
      "text/json",
      "application/json-patch",
      "not a type",
    ])
      expect(decodeBody(bytes('{"a":1}'), type), String(type)).toEqual({ value: '{"a":1}' });
    expect(decodeBody(bytes("héllo"), "text/plain")).toEqual({ value: "héllo" });
  });

  it("tells bad JSON from JSON nested too deep, and takes JSON at the bound", () => {
    expect(decodeBody(bytes('{"a":'), "application/json")).toBe("invalid");
    expect(decodeBody(bytes(""), "application/json")).toBe("invalid");
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(decodeBody(bytes(nested(MAX_JSON_DEPTH + 1)), "application/json")).toBe("tooDeep");
    const atBound = decodeBody(bytes(nested(MAX_JSON_DEPTH)), "application/json");
    expect(atBound).not.toBe("tooDeep");
    expect(atBound).not.toBe("invalid");
    // Bad JSON is bad before it is deep.
    expect(decodeBody(bytes(`${"[".repeat(MAX_JSON_DEPTH + 1)}`), "application/json")).toBe("invalid");
  });

  it("decodes a body that is a view into a larger buffer as that view only", () => {
    const whole = bytes('xx{"a":1}yy');
    expect(decodeBody(whole.subarray(2, 9), "application/json")).toEqual({ value: { a: 1 } });
    expect(decodeBody(whole.subarray(2, 9), "text/plain")).toEqual({ value: '{"a":1}' });
  });

  it("gives Prism null for no body, the value for one, and micri's 400 for bad or too deep JSON", () => {
    const request = (type?: string) => ({ headers: type ? { "content-type": type } : {} }) as IncomingMessage;
    expect(parseBody(request("application/json"), { present: false, bytes: Buffer.alloc(0) })).toBeNull();
    expect(parseBody(request("application/json"), { present: true, bytes: bytes("[1]") })).toEqual([1]);
    expect(parseBody(request(), { present: true, bytes: bytes("") })).toBe("");
    const bad = (() => {
      try {
        parseBody(request("application/json"), { present: true, bytes: bytes("{") });
      } catch (error) {
        return error;
      }
    })();
    expect(bad).toBeInstanceOf(BodyError);
    expect(bad).toMatchObject({ status: 400, code: "invalid_json", message: "Invalid JSON" });
    expect(() =>
      parseBody(request("application/json"), {
        present: true,
        bytes: bytes(`${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`),
      }),
    ).toThrow(`Invalid JSON: nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});

/** A request stream with the given headers whose body arrives in `chunks`. */
function request(headers: Record<string, string>, chunks: Buffer[]): IncomingMessage {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(stream, { headers, method: "POST", url: "/" });
  queueMicrotask(() => {
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
  return stream;
}

const read = (message: IncomingMessage) =>
  new Promise<{ error?: BodyError; text?: string; present?: boolean }>((resolve) =>
    readBody(message, (error, raw) => resolve({ error, text: raw?.bytes.toString("utf8"), present: raw?.present })),
  );

describe("reading", () => {
  it("joins a body sent in several chunks, in order", async () => {
    expect(await read(request({ "transfer-encoding": "chunked" }, [bytes('{"a":'), bytes('"b",'), bytes('"c":1}')]))).toEqual({
      error: undefined,
      text: '{"a":"b","c":1}',
      present: true,
    });
  });

  it("takes Content-Length: 0 and no length at all as no body; a length without bytes as an empty one", async () => {
    expect(await read(request({ "content-length": "0" }, []))).toMatchObject({ present: false, text: "" });
    expect(await read(request({}, []))).toMatchObject({ present: false, text: "" });
    expect(await read(request({ "content-length": "5" }, []))).toMatchObject({ present: true, text: "" });
  });

  it("refuses a declared length over the bound at once, before any byte; exactly the bound is read", async () => {
    const over = await read(request({ "content-length": String(MAX_BODY_BYTES + 1) }, []));
    expect(over.error).toMatchObject({ status: 413, code: "request_entity_too_large", atOnce: true });
    const at = await read(request({ "content-length": String(MAX_BODY_BYTES) }, [Buffer.alloc(MAX_BODY_BYTES, 0x20)]));
    expect(at.error).toBeUndefined();
    expect(at.text).toHaveLength(MAX_BODY_BYTES);
  });

  it("reads a chunked body whatever Content-Length says: Transfer-Encoding overrides it (RFC 9112, 6.3)", async () => {
    const both = await read(request({ "transfer-encoding": "chunked", "content-length": String(MAX_BODY_BYTES + 1) }, [bytes('{"a":1}')]));
    expect(both).toEqual({ error: undefined, text: '{"a":1}', present: true });
  });

  it("answers a declared length over the bound once, whatever arrives after", async () => {
    const stream = request({ "content-length": String(MAX_BODY_BYTES + 1) }, [Buffer.alloc(1024), Buffer.alloc(1024)]);
    const answers: Array<BodyError | undefined> = [];
    await new Promise<void>((resolve) => {
      readBody(stream, (error) => answers.push(error));
      stream.once("end", () => resolve());
    });
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ status: 413, atOnce: true });
  });

  it("refuses a chunked body once its bytes pass the bound, not at once", async () => {
    const over = await read(request({ "transfer-encoding": "chunked" }, [Buffer.alloc(MAX_BODY_BYTES), Buffer.alloc(1)]));
    expect(over.error).toMatchObject({ status: 413, atOnce: false });
  });
});

describe("draining a body over the bound", () => {
  it("reads on, keeping nothing, and destroys the connection only past the drain bound", async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { headers: { "transfer-encoding": "chunked" } });
    let destroyed = false;
    stream.destroy = (() => {
      destroyed = true;
      return stream;
    }) as typeof stream.destroy;
    const errors: BodyError[] = [];
    readBody(stream, (error) => error && errors.push(error));
    const chunk = Buffer.alloc(MAX_BODY_BYTES / 2);
    stream.emit("data", chunk);
    stream.emit("data", chunk);
    expect(errors).toEqual([]);
    stream.emit("data", Buffer.alloc(1));
    expect(errors).toHaveLength(1);
    // The drain: up to MAX_DRAIN_BYTES more are read and dropped.
    let drained = 1;
    const piece = Buffer.alloc(MAX_DRAIN_BYTES / 4);
    for (let i = 0; i < 3; i++) {
      stream.emit("data", piece);
      drained += piece.length;
    }
    expect(drained).toBeLessThan(MAX_DRAIN_BYTES);
    expect(destroyed).toBe(false);
    stream.emit("data", Buffer.alloc(MAX_DRAIN_BYTES - drained));
    expect(destroyed).toBe(false); // exactly at the bound
    stream.emit("data", Buffer.alloc(1));
    expect(destroyed).toBe(true);
    // The end of the stream settles nothing more: one answer only.
    stream.emit("end");
    expect(errors).toHaveLength(1);
  });

  it("a read error is micri's 400 invalid_body", async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { headers: { "content-length": "10" } });
    const answer = new Promise<BodyError | undefined>((resolve) => readBody(stream, (error) => resolve(error)));
    stream.emit("error", new Error("aborted"));
    expect(await answer).toMatchObject({ status: 400, code: "invalid_body", message: "Invalid body" });
  });
});

/** A request that has (or has not) been sent whole, and a response that records what is written. */
function exchange(complete: boolean) {
  const request = Object.assign(new EventEmitter(), { complete, headers: {} }) as unknown as IncomingMessage;
  const written: Array<{ status: number; headers: string[]; body: string }> = [];
  const response = {
    writeHead(status: number, headers: string[]) {
      written.push({ status, headers, body: "" });
      return this;
    },
    end(body: string) {
      written[written.length - 1].body = String(body);
    },
  } as unknown as ServerResponse;
  return { request, response, written };
}

describe("refusing a body", () => {
  afterEach(() => vi.useRealTimers());
  const tooLarge = (atOnce: boolean) => new BodyError(413, "request_entity_too_large", "Body exceeded 10mb limit", atOnce);

  it("answers any refusal but a 413 at once, with micri's body", () => {
    const { request, response, written } = exchange(false);
    refuseBody(request, response, new BodyError(400, "invalid_json", "Invalid JSON"));
    expect(written).toHaveLength(1);
    expect(written[0].status).toBe(400);
    expect(JSON.parse(written[0].body)).toEqual({ error: { code: "invalid_json", message: "Invalid JSON" } });
    expect(written[0].headers).not.toContain("Connection");
  });

  it("answers a 413 at once for a declared length, or once the request is whole, closing the connection", () => {
    for (const [complete, atOnce] of [
      [false, true],
      [true, false],
    ]) {
      const { request, response, written } = exchange(complete);
      refuseBody(request, response, tooLarge(atOnce));
      expect(
        written.map((w) => w.status),
        `complete ${complete}, atOnce ${atOnce}`,
      ).toEqual([413]);
      const headers = written[0].headers;
      expect(headers[headers.indexOf("Connection") + 1]).toBe("close");
    }
  });

  it("waits for a 413's body to be sent, then answers once", () => {
    vi.useFakeTimers();
    const { request, response, written } = exchange(false);
    refuseBody(request, response, tooLarge(false));
    expect(written).toEqual([]);
    request.emit("end");
    expect(written.map((w) => w.status)).toEqual([413]);
    vi.advanceTimersByTime(MAX_DRAIN_MS);
    expect(written).toHaveLength(1);
  });

  it("answers a 413 after the drain's time limit when the body never ends, and not before", () => {
    vi.useFakeTimers();
    const { request, response, written } = exchange(false);
    refuseBody(request, response, tooLarge(false));
    vi.advanceTimersByTime(MAX_DRAIN_MS - 1);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written.map((w) => w.status)).toEqual([413]);
    request.emit("end");
    expect(written).toHaveLength(1);
  });
});
