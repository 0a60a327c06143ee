/**
 * Large bodies (over LARGE_BODY_BYTES, judged by the mock's worker, src/mock/judge.ts) get the same
 * judgement in static and in sandbox mode: a 50,000-deep JSON body the 400 of deep JSON, an invalid
 * one its 4xx; a valid one Prism's answer in static mode and, on an operation the sandbox answers
 * from state, its 507: the sandbox keeps no body over one record's bound (LIMITS.recordBytes), and
 * such a body never crosses back from the worker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeMocks, type MockServer, startMocks } from "../../../src/mock/index.js";
import { LARGE_BODY_BYTES, MAX_JSON_DEPTH } from "../../../src/mock/limits.js";
import { LIMITS } from "../../../src/sandbox/store/limits.js";
import { bundled } from "../../helpers/registry.js";

const api = bundled.find((a) => a.entry.alias === "statement@1.0.0")!;
const HEADERS = { "x-api-key": "large-bodies", "content-type": "application/json" };
/** initStatement with `count` bank codes (the only one the sandbox takes), or numbers where codes belong. */
const init = (count: number, item: unknown = "DUMMY_BANK_PERSONAL") =>
  JSON.stringify({ bank_codes: Array.from({ length: count }, () => item), callback_url: "https://example.com/cb" });
const deep = `{"pad":"${" ".repeat(LARGE_BODY_BYTES)}","deep":${"[".repeat(50_000)}${"]".repeat(50_000)}}`;

describe.each([
  ["static", false],
  ["sandbox", true],
])("large bodies (%s mode)", (_, sandbox) => {
  let mock: MockServer;
  beforeAll(async () => {
    [mock] = await startMocks([api.entry], { freePorts: true, sandbox });
  }, 60_000);
  afterAll(() => closeMocks([mock]));
  const post = async (body: string) => {
    const response = await fetch(`${mock.url}/v1/statement-init`, { method: "POST", headers: HEADERS, body });
    return { status: response.status, text: await response.text(), violations: response.headers.get("sl-violations") ?? "" };
  };

  it(`a 50,000-deep JSON body over ${LARGE_BODY_BYTES} bytes gets the 400 of JSON nested deeper than ${MAX_JSON_DEPTH}`, async () => {
    expect(deep.length).toBeGreaterThan(LARGE_BODY_BYTES);
    const answer = await post(deep);
    // initStatement declares a 400 (no body): that answer, with the finding (DEVIATIONS invalidJson).
    expect(answer.status).toBe(400);
    expect(answer.text).toBe("");
    expect(JSON.parse(answer.violations)).toEqual([
      {
        location: ["request", "body"],
        severity: "Error",
        code: "invalid_json",
        message: `Request body is JSON nested deeper than ${MAX_JSON_DEPTH} levels, which the mock does not read`,
      },
    ]);
  });

  it("an invalid large body gets its 4xx with its first violation", async () => {
    const body = init(60_000, 12345);
    expect(body.length).toBeGreaterThan(LARGE_BODY_BYTES);
    const answer = await post(body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.violations).toContain("bank_codes");
  });

  it(sandbox ? "a valid body over one record's bound gets the sandbox's 507" : "a valid large body gets Prism's answer", async () => {
    const body = init(20_000);
    expect(body.length).toBeGreaterThan(LIMITS.recordBytes);
    const answer = await post(body);
    if (!sandbox) {
      expect(answer.status).toBe(200);
      return;
    }
    expect(answer.status).toBe(507);
    expect(JSON.parse(answer.text)).toMatchObject({
      status: 507,
      detail: `a request body of ${body.length} bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record: it is not kept`,
    });
    // A small one is kept as ever.
    expect((await post(init(2))).status).toBe(200);
  });
});
