/**
 * Which answer a request gets (src/mock/answer.ts), on a stand-in of Prism's engine and a response
 * that records what is written: a request without Accept is of the same kind as one with an empty
 * Accept (Prism's mocker reads an empty Accept as none: mocker/index.js negotiates only a truthy
 * one), so the answer kept for either answers the other; and the `answer` hook (MockHooks) is asked
 * only for a 2xx, never for an informational answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { answerRequest, sendAnswer } from "../../../../src/mock/answer.js";
import type { Exchange, MockContext } from "../../../../src/mock/context.js";
import { createFastPath } from "../../../../src/mock/fast-path.js";
import { requestElement } from "../../../../src/mock/route.js";
import type { Answer, Element, MockHooks, Operation } from "../../../../src/mock/types.js";

const operation = { id: "get-order", method: "get", path: "/v1/order", responses: [], servers: [], security: [] } as unknown as Operation;

/** A response that records the status and body written. */
function exchangeOf(headers: Record<string, string>): { exchange: Exchange; written: { status?: number; body?: string } } {
  const written: { status?: number; body?: string } = {};
  const response = {
    statusCode: 200,
    headersSent: false,
    setHeader() {},
    writeHead(this: { headersSent: boolean }, status: number) {
      written.status = status;
      this.headersSent = true;
    },
    end(this: { statusCode: number }, body?: Buffer) {
      written.status ??= this.statusCode;
      if (body !== undefined) written.body = body.toString("utf8");
    },
  } as unknown as ServerResponse;
  const request = { method: "GET", url: "/v1/order", headers } as unknown as IncomingMessage;
  return { exchange: { request, response, raw: undefined as never }, written };
}

const inputOf = (headers: Record<string, string>) => ({ ...requestElement("GET", "/v1/order", headers, 0), body: undefined }) as Element;

describe("a request without Accept and one with an empty Accept", () => {
  it.each([
    ["no Accept first, then an empty one", {}, { accept: "" }],
    ["an empty Accept first, then none", { accept: "" }, {}],
  ])("%s: Prism is asked once, the second is answered from the kept answer", async (_, first, second) => {
    const asked: unknown[] = [];
    const context = {
      operations: [operation],
      hooks: {},
      router: { allowed: () => ["GET"], operation: () => operation },
      prism: {
        request: (input: unknown) => async () => {
          asked.push(input);
          return {
            _tag: "Right",
            right: {
              output: { statusCode: 200, headers: { "Content-Type": "application/json" }, body: { id: "o-1" } },
              validations: { input: [], output: [] },
            },
          };
        },
      },
      fast: createFastPath([operation], () => ({ _tag: "Left" }) as never),
      responses: undefined,
      counts: { fast: 0, prism: 0, cache: 0 },
      judge: undefined,
    } as unknown as MockContext;

    const one = exchangeOf(first);
    await answerRequest(context, one.exchange, inputOf(first), operation);
    const two = exchangeOf(second);
    await answerRequest(context, two.exchange, inputOf(second), operation);
    expect(asked).toHaveLength(1);
    expect(context.counts).toEqual({ fast: 1, prism: 1, cache: 0 });
    expect([one.written, two.written]).toEqual([
      { status: 200, body: '{"id":"o-1"}' },
      { status: 200, body: '{"id":"o-1"}' },
    ]);
  });
});

describe("the answer hook", () => {
  const answerWith = (status: number): Answer => ({
    status,
    headers: [["Content-Type", "application/json"]],
    body: Buffer.from('{"from":"Prism"}'),
    problem: false,
    listsFindings: false,
    outputFindings: [],
    example: { from: "Prism" },
  });
  const hooked = () => {
    const hook = vi.fn<NonNullable<MockHooks["answer"]>>(() => ({ status: 201, body: { from: "hook" } }));
    return { hook, context: { hooks: { answer: hook } } as unknown as MockContext };
  };

  it.each([100, 103, 199])("is not asked for an informational answer (%i): Prism's is sent", (status) => {
    const { hook, context } = hooked();
    const { exchange, written } = exchangeOf({});
    sendAnswer(context, exchange, answerWith(status), [], operation, inputOf({}), undefined);
    expect(hook).not.toHaveBeenCalled();
    expect(written).toEqual({ status, body: '{"from":"Prism"}' });
  });

  it.each([200, 299])("is asked for a 2xx (%i), and its answer is sent", (status) => {
    const { hook, context } = hooked();
    const { exchange, written } = exchangeOf({});
    sendAnswer(context, exchange, answerWith(status), [], operation, inputOf({}), undefined);
    expect(hook).toHaveBeenCalledTimes(1);
    expect(written).toEqual({ status: 201, body: '{"from":"hook"}' });
  });
});
