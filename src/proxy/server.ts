/**
 * One proxy server: each request runs through the stages in order, as the mock's server does
 * (src/mock/server.ts): receive (receive.ts: the body within its bound, Prism's copy), judge
 * (judge.ts: Prism routes, validates, forwards upstream, validates the answer), write (write.ts: the
 * upstream's answer with its findings, or the proxy's own), then the exchange reported once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Judge } from "./judge.js";
import { hasBody, prismInput, receive } from "./receive.js";
import { type ProxyExchange, ProxyFailure, type ProxyViolation } from "./types.js";
import { writeAnswer, writeFailure } from "./write.js";

/** What every request of one proxy shares. */
export interface ProxyContext {
  alias: string;
  maxBody: number;
  judge: Judge;
  /** Told of every exchange (options.onExchange, or a line on standard error for one that failed). */
  report: (exchange: ProxyExchange) => void;
}

/** The reporter when there is no onExchange: an exchange the proxy answered itself is written to standard error. */
export const reportFailures =
  (alias: string) =>
  (exchange: ProxyExchange): void => {
    if (exchange.error)
      process.stderr.write(`${alias} proxy: ${exchange.method} ${exchange.url} -> ${exchange.status}: ${exchange.error}\n`);
  };

/** Reports one exchange; a reporter that throws breaks no exchange (the answer is sent already) and is named once per call. */
function finish(context: ProxyContext, exchange: ProxyExchange): void {
  try {
    context.report(exchange);
  } catch (error) {
    process.stderr.write(
      `${context.alias} proxy: onExchange threw on ${exchange.method} ${exchange.url}: ${(error as Error)?.message ?? String(error)}\n`,
    );
  }
}

/** One request through the stages. */
export async function handle(context: ProxyContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = (request.method ?? "GET").toUpperCase();
  const url = request.url ?? "/";
  const done = new AbortController();
  response.once("close", () => done.abort());
  const answerItself = (failure: ProxyFailure, violations: ProxyViolation[]) => {
    writeFailure(response, context.alias, failure);
    finish(context, { method, url, status: failure.status, violations, error: failure.message });
  };

  let body: Buffer;
  try {
    body = await receive(request, context.maxBody);
  } catch (error) {
    answerItself(error instanceof ProxyFailure ? error : new ProxyFailure(502, (error as Error).message), []);
    request.resume();
    return;
  }
  const input = prismInput(request, method, url, body);
  const { answer, failure, violations } = await context.judge(input, {
    incoming: request,
    body,
    hasBody: hasBody(request),
    aborted: done.signal,
  });
  if (!answer) {
    answerItself(failure ?? new ProxyFailure(502, violations[0]?.message ?? "no answer from the upstream"), violations);
    return;
  }
  writeAnswer(response, method, answer, violations);
  finish(context, { method, url, status: answer.status, violations });
}

/** The node:http server of one proxy; an unexpected failure is a 502 without details (they could name the upstream). */
export function createProxyServer(context: ProxyContext): Server {
  return createServer((request, response) => {
    handle(context, request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(502, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: `${context.alias} proxy: the exchange failed` }));
      }
      process.stderr.write(`${context.alias} proxy: ${request.method} ${request.url}: ${(error as Error).message}\n`);
    });
  });
}
