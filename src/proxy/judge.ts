/**
 * The proxy's middle stage: Prism's own engine routes the request, checks its security and
 * validates it, forwards it (with a forwarder that sends the bytes as received, never follows a
 * redirect and never replaces an answer: upstream.ts) and validates the upstream's answer. What
 * comes out is the upstream's answer with the findings, or the failure that left none to pass back.
 */
import type { IncomingMessage } from "node:http";
import { createInstance } from "@stoplight/prism-http";
import { proxyConfig, silentLogger } from "../mock/prism.js";
import { endToEnd, headerObject, parsedCopy } from "./message.js";
import type { Diagnostic, Either, Outcome, PrismInput, PrismOutput, ProxyViolation, UpstreamAnswer } from "./types.js";
import { ProxyFailure } from "./types.js";
import { callUpstream, type Upstream } from "./upstream.js";

/** One request as received: what the forwarder sends (the bytes, not Prism's parsed copy). */
export interface Received {
  incoming: IncomingMessage;
  body: Buffer;
  hasBody: boolean;
  /** Aborted when the client goes away. */
  aborted: AbortSignal;
}

/** What the judge found: the upstream's answer (or the failure that left none) and the findings, request's first. */
export interface Judged {
  answer?: UpstreamAnswer;
  failure?: ProxyFailure;
  violations: ProxyViolation[];
}

/** Judges one request: routes and validates it, forwards it, validates the answer. */
export type Judge = (input: PrismInput, received: Received) => Promise<Judged>;

const SEVERITIES = ["Error", "Warning", "Information", "Hint"];

/** As prism-http-server builds the sl-violations entries. */
export const violation =
  (prefix: string) =>
  (d: Diagnostic): ProxyViolation => ({
    location: [prefix, ...(d.path ?? [])],
    severity: SEVERITIES[d.severity] ?? String(d.severity),
    code: d.code ?? "",
    message: d.message,
  });

/** The finding of an answer whose body its media type says is JSON and is not. */
const notJsonViolation = (reason: string): ProxyViolation => ({
  location: ["response", "body"],
  severity: "Error",
  code: "invalid-json",
  message: `is not valid JSON: ${reason}`,
});

/** Why a JSON answer's body does not parse, if it does not. */
const notJsonOf = (answer: UpstreamAnswer) => parsedCopy(answer.body, headerObject(endToEnd(answer.rawHeaders))["content-type"]).notJson;

/** Per request: what it was received as, and what the forwarder got for it. */
interface Forwarded extends Received {
  answer?: UpstreamAnswer;
  notJson?: string;
}

/** Prism's engine for `upstream`'s API (`operations`), with the proxy's forwarder. */
export function createJudge(upstream: Upstream, operations: unknown): Judge {
  // Prism hands the forwarder its own parsed copy of the request: the request as received is found by it.
  const forwarded = new WeakMap<object, Forwarded>();
  const prism = createInstance(
    proxyConfig(upstream.url) as never,
    {
      logger: silentLogger as never,
      forward:
        ({ data }: { data: PrismInput }) =>
        () =>
        async (): Promise<Either<Error, PrismOutput>> => {
          const exchange = forwarded.get(data)!;
          try {
            const answer = await callUpstream(upstream, exchange.incoming, exchange.body, exchange.hasBody, exchange.aborted);
            exchange.answer = answer;
            const headers = headerObject(endToEnd(answer.rawHeaders));
            const { value, notJson } = parsedCopy(answer.body, headers["content-type"]);
            exchange.notJson = notJson;
            return { _tag: "Right", right: { statusCode: answer.status, headers, body: value } };
          } catch (error) {
            return { _tag: "Left", left: error as Error };
          }
        },
    } as never,
  ) as unknown as { request(input: PrismInput, resources: unknown, config?: unknown): () => Promise<Outcome> };

  return async (input, received) => {
    const exchange: Forwarded = { ...received };
    forwarded.set(input, exchange);
    let violations: ProxyViolation[] = [];
    let failure: ProxyFailure | undefined;
    try {
      const outcome = await prism.request(input, operations)();
      if (outcome._tag === "Right") {
        violations = [
          ...outcome.right.validations.input.map(violation("request")),
          ...outcome.right.validations.output.map(violation("response")),
        ];
      } else if (outcome.left instanceof ProxyFailure) {
        failure = outcome.left;
      } else {
        // Prism could not route or validate; the upstream's answer, if any, still goes back as it is.
        violations = [{ location: ["request"], severity: "Error", code: "prism", message: outcome.left.message }];
      }
    } catch (error) {
      violations = [
        { location: ["response"], severity: "Error", code: "prism", message: `could not be validated: ${(error as Error).message}` },
      ];
    }
    if (!exchange.answer && !failure) {
      // Prism failed before forwarding (a header it cannot parse, say): the request still goes upstream.
      try {
        exchange.answer = await callUpstream(upstream, received.incoming, received.body, received.hasBody, received.aborted);
        exchange.notJson = notJsonOf(exchange.answer);
      } catch (error) {
        failure = error instanceof ProxyFailure ? error : new ProxyFailure(502, (error as Error).message);
      }
    }
    if (exchange.answer && exchange.notJson !== undefined) violations.push(notJsonViolation(exchange.notJson));
    return { answer: exchange.answer, failure, violations };
  };
}
