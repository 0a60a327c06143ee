/**
 * Every OpenAPI link of every registered API, followed on its sandbox as a stateful tester
 * (Schemathesis' stateful phase) follows it: the link's source operation is called with its first
 * request example on a sandbox mock in this process, the link's runtime expressions are evaluated on
 * that real request and answer, and the target operation is called with what the link gives (its
 * parameters, its request body) and the target's own examples for the rest. Both answer 2xx, and the
 * target's answer shows what the source created: each value the link carries, or, for a link that
 * carries none, the value SETUP names.
 *
 * The links are read as OpenAPI 3.1 defines them: a parameter's value and a `requestBody` are each a
 * literal or one runtime expression (or, in a string, `{expression}` parts); an expression nested in
 * an object `requestBody` is not one, and a strict tool sends it as the literal text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deref, type Doc, type Json, jsonRequest, type Operation, operations } from "../../../src/document/index.js";
import { type ApiAlias, type ContractMock, startMock } from "../../../src/testing/index.js";
import { credentialHeaders, requestParams } from "../../../src/testing/requests.js";
import { bundled, named } from "../../helpers/registry.js";

/** The links of the registered APIs, counted by hand from the specs. */
const LINK_COUNT = 10;

/**
 * Per link (`<alias> <operationId> <link name>`), written by hand: `body`, members set in the source
 * request's example (a sandbox test value, docs/guides/sandbox.md), and `shows`, for a link that
 * carries no value, the runtime expression whose value the target's answer must show.
 */
const SETUP: Record<string, { body?: Record<string, Json>; shows?: string; answersNothing?: true }> = {
  // Only a Flagged invoice takes a status update; the sandbox's test value flags it at creation.
  "pay@1.3.0 createInvoice UpdateInvoiceStatus": { body: { item_id: "sandbox_flagged" } },
  "pay@1.3.0 createInvoice ListInvoices": { shows: "$response.body#/invoice_id" },
  "pay@1.3.0 createInvoice ReportInvoice": { answersNothing: true },
  "pay@1.2.0 createInvoice ListInvoices": { shows: "$response.body#/invoice_id" },
  "balance@1.0.0 retrieveBalance ListBalances": { shows: "$response.body#/request_id" },
  // The whole answer is the inquiry's body; the inquiry answers the application's status and its reference_id.
  "account-opening@1.0.0 openAccount InquireApplicationStatus": { shows: "$response.body#/reference_id" },
};

interface Link {
  name: string;
  alias: string;
  doc: Doc;
  source: Operation;
  status: string;
  link: Record<string, Json>;
}

/** Every link of every response of every operation of the registered APIs. */
const links: Link[] = bundled.flatMap(({ entry, doc }) =>
  operations(doc).flatMap((source) =>
    Object.entries(source.responses).flatMap(([status, located]) => {
      const response = deref(doc, located.value, located.at).value as Json;
      return Object.entries((response?.links ?? {}) as Record<string, Json>).map(([name, link]) => ({
        name: `${entry.alias} ${source.operationId} ${name}`,
        alias: entry.alias,
        doc,
        source,
        status,
        link: deref(doc, link, `${located.at}/links/${name}`).value as Record<string, Json>,
      }));
    }),
  ),
);

/** What a link's runtime expressions are evaluated on: the source's request and answer. */
interface Exchange {
  url: string;
  method: string;
  request: { path: Record<string, Json>; query: Record<string, Json>; header: Record<string, string>; body: Json };
  response: { status: number; header: Headers; body: Json };
}

/** The value at a JSON pointer (`/a/0/b`), undefined where there is none. */
function at(value: Json, pointer: string): Json {
  let here = value;
  for (const token of pointer.split("/").slice(1)) {
    if (here === null || typeof here !== "object") return undefined;
    here = here[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return here;
}

/** One runtime expression (OpenAPI 3.1, "Runtime Expressions") evaluated on the exchange. */
function evaluate(expression: string, x: Exchange): Json {
  if (expression === "$url") return x.url;
  if (expression === "$method") return x.method;
  if (expression === "$statusCode") return x.response.status;
  const body = /^\$(request|response)\.body(?:#(.*))?$/.exec(expression);
  if (body) return at(x[body[1] as "request" | "response"].body, body[2] ?? "");
  const part = /^\$request\.(path|query|header)\.(.+)$/.exec(expression);
  if (part) return part[1] === "header" ? x.request.header[part[2].toLowerCase()] : x.request[part[1] as "path" | "query"][part[2]];
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) return x.response.header.get(header[1]) ?? undefined;
  throw new Error(`"${expression}" is not a runtime expression`);
}

/** A link's value: one runtime expression, a string with `{expression}` parts, else the literal as it is. */
function linkValue(value: Json, x: Exchange, carried: Json[]): Json {
  if (typeof value !== "string") return value;
  if (value.startsWith("$")) {
    const result = evaluate(value, x);
    carried.push(result);
    return result;
  }
  return value.replace(/\{(\$[^}]+)\}/g, (_, expression: string) => {
    const result = evaluate(expression, x);
    carried.push(result);
    return String(result);
  });
}

/** Runtime expressions nested in a value that is not itself one (an object or array `requestBody`). */
function nestedExpressions(value: Json): string[] {
  if (typeof value === "string") return value.startsWith("$") || /\{\$[^}]+\}/.test(value) ? [value] : [];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(nestedExpressions);
}

/** A request's URL: the path template filled, the query with one pair per array item. */
function urlOf(op: Operation, path: Record<string, Json>, query: Record<string, Json>): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) search.append(name, String(item));
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

async function call(base: string, op: Operation, r: Exchange["request"]): Promise<{ response: Response; text: string; body: Json }> {
  const response = await fetch(base + urlOf(op, r.path, r.query), {
    method: op.method.toUpperCase(),
    headers: { ...r.header, ...(r.body === undefined ? {} : { "content-type": "application/json" }) },
    body: r.body === undefined ? undefined : JSON.stringify(r.body),
  });
  const text = await response.text();
  let body: Json;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { response, text, body };
}

describe("the links of every API", () => {
  it(`are ${LINK_COUNT}, and SETUP names only links that exist`, () => {
    expect(links.map((l) => l.name)).toHaveLength(LINK_COUNT);
    expect(Object.keys(SETUP).filter((name) => !links.some((l) => l.name === name))).toEqual([]);
  });

  it.each(named(links))("%s: each value is a literal or one runtime expression (none nested in an object)", (_, { link }) => {
    expect(
      Object.keys(link.parameters ?? {}).flatMap((key) =>
        nestedExpressions(typeof link.parameters[key] === "string" ? [] : link.parameters[key]),
      ),
    ).toEqual([]);
    if (link.requestBody !== undefined && typeof link.requestBody !== "string") expect(nestedExpressions(link.requestBody)).toEqual([]);
  });
});

describe.each(bundled.map(({ entry }) => [entry.alias] as const))("%s: links followed on the sandbox", (alias) => {
  const apiLinks = links.filter((l) => l.alias === alias);
  let mock: ContractMock;
  beforeAll(async () => {
    if (apiLinks.length > 0) mock = await startMock(alias as ApiAlias, { port: 0, sandbox: true });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
  });

  it.runIf(apiLinks.length > 0).each(named(apiLinks))("%s answers 2xx and shows what the source created", async (_, l) => {
    const { doc, source, link } = l;
    const setup = SETUP[l.name] ?? {};
    // A credential of its own: the link's state is its own.
    const credential = { token: `links-${l.name.replaceAll(" ", "-")}`, apiKey: `links-${l.name.replaceAll(" ", "-")}` };
    const sourceParams = requestParams(doc, source);
    const example = jsonRequest(doc, source)?.examples[0]?.value;
    const request: Exchange["request"] = {
      path: sourceParams.path,
      query: sourceParams.query,
      header: { ...(sourceParams.header as Record<string, string>), ...credentialHeaders(doc, source, credential) },
      body: example === undefined ? undefined : { ...example, ...setup.body },
    };
    const first = await call(mock.url, source, request);
    expect(first.response.status, `${l.name}: the source answered ${first.response.status} ${first.text.slice(0, 300)}`).toBe(
      Number(l.status),
    );
    const exchange: Exchange = {
      url: mock.url + urlOf(source, request.path, request.query),
      method: source.method.toUpperCase(),
      request: { ...request, header: Object.fromEntries(Object.entries(request.header).map(([k, v]) => [k.toLowerCase(), v])) },
      response: { status: first.response.status, header: first.response.headers, body: first.body },
    };

    const target = operations(doc).find((op) => op.operationId === link.operationId);
    expect(target, `${l.name}: operation ${link.operationId}`).toBeDefined();
    const params = requestParams(doc, target!);
    const carried: Json[] = [];
    for (const [key, raw] of Object.entries((link.parameters ?? {}) as Record<string, Json>)) {
      const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
      const param = target!.parameters.find((p) =>
        qualified ? p.value.in === qualified[1] && p.value.name === qualified[2] : p.value.name === key,
      );
      expect(param, `${l.name}: parameter ${key} of ${link.operationId}`).toBeDefined();
      const value = linkValue(raw, exchange, carried);
      const where = param!.value.in as "path" | "query" | "header";
      (params[where] as Record<string, Json>)[param!.value.name] = value;
    }
    const body =
      link.requestBody !== undefined ? linkValue(link.requestBody, exchange, carried) : jsonRequest(doc, target!)?.examples[0]?.value;
    const second = await call(mock.url, target!, {
      path: params.path,
      query: params.query,
      header: { ...(params.header as Record<string, string>), ...credentialHeaders(doc, target!, credential) },
      body,
    });
    const said = `${l.name}: ${link.operationId} answered ${second.response.status} ${second.text.slice(0, 400)} (sl-violations: ${second.response.headers.get("sl-violations")})`;
    expect(second.response.status >= 200 && second.response.status < 300, said).toBe(true);

    // What the source created shows in the target's answer: the values the link carried, else SETUP's.
    const shown = carried.flatMap((value) => [value].flat()).filter((value) => typeof value === "string" && value !== "");
    if (setup.answersNothing) {
      expect(second.body ?? {}, `${said}: SETUP says it answers no data`).toEqual({});
      return;
    }
    if (setup.shows) shown.push(evaluate(setup.shows, exchange));
    expect(shown.length, `${l.name}: a value carried, or SETUP's \`shows\``).toBeGreaterThan(0);
    for (const value of shown) expect(second.text, `${said}: ${JSON.stringify(value)} not in the answer`).toContain(String(value));
  });
});
