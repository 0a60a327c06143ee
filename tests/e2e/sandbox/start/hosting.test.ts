/**
 * What the sandbox needs of hosted mode (src/sandbox/hosting.ts): which errors are the operator's
 * input refused by hosted mode's partners (answered with their status and member), and the service a
 * hosted sandbox's options must carry. Pure functions, over hand-made errors and options.
 */
import { describe, expect, it } from "vitest";
import { type HostedSandbox, hostedService, isPartnerInputError } from "../../../../src/sandbox/hosting.js";

/** An Error named `name`, with the members given. */
const error = (name: string, members: Record<string, unknown>) => Object.assign(Object.assign(new Error("refused"), { name }), members);

describe("isPartnerInputError", () => {
  it("is true for an Error named PartnerError with a numeric status", () => {
    expect(isPartnerInputError(error("PartnerError", { status: 400, field: "name" }))).toBe(true);
    expect(isPartnerInputError(error("PartnerError", { status: 409, field: "quotas" }))).toBe(true);
  });

  it("is false for anything else: another error's name, a status that is not a number, an object that is not an Error", () => {
    const cases: Array<[string, unknown]> = [
      ["a TypeError with a status", error("TypeError", { status: 400, field: "name" })],
      ["an Error with a status", error("Error", { status: 400 })],
      ["a PartnerError whose status is a string", error("PartnerError", { status: "400", field: "name" })],
      ["a PartnerError without a status", error("PartnerError", { field: "name" })],
      ["a plain object shaped like one", { name: "PartnerError", status: 400, field: "name", message: "refused" }],
      ["undefined", undefined],
    ];
    for (const [what, value] of cases) expect(isPartnerInputError(value), what).toBe(false);
  });
});

describe("hostedService", () => {
  const service = { operator: {} } as unknown as HostedSandbox;

  it("is undefined when the sandbox is not hosted", () => {
    expect(hostedService(undefined, "pay@1.3.0")).toBeUndefined();
    expect(hostedService(false, "pay@1.3.0")).toBeUndefined();
  });

  it("is the service the options carry", () => {
    expect(hostedService({ service }, "pay@1.3.0")).toBe(service);
  });

  it("throws a TypeError naming the API and where the service is made when hosted without one", () => {
    for (const option of [true, {}] as const) {
      let thrown: unknown;
      try {
        hostedService(option, "pay@1.3.0");
      } catch (caught) {
        thrown = caught;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      const message = (thrown as Error).message;
      expect(message.startsWith("pay@1.3.0: hosted mode's service is made when the mock starts")).toBe(true);
      expect(message).toContain("hosted: true");
      expect(message).toContain("createSandbox takes one made already");
    }
  });
});
