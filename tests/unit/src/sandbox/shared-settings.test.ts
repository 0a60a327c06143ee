/**
 * The settings of a shared sandbox (src/sandbox/shared.ts `sharedSettings`) at two edges, pure
 * functions only:
 * - each numeric option's bounds are inclusive ("The bounds of the numeric options, inclusive"):
 *   the least and the greatest value are taken as given. The table is written here by hand: one
 *   second to a week of idleness, 1 to 10,000 callbacks waiting per credential, 1 to 100,000 per mock;
 * - hosted mode (docs/guides/hosting.md): its service is the settings' own, its operator's token
 *   the service's (whatever the option or the environment say), and each partner's bounds are the
 *   service's quotas, handed out by the budget (src/sandbox/store/limits.ts `withBounds`).
 */
import { describe, expect, it } from "vitest";
import type { HostedSandbox } from "../../../../src/sandbox/hosting.js";
import { OperatorToken } from "../../../../src/sandbox/operator.js";
import { sharedSettings } from "../../../../src/sandbox/shared.js";
import { type CredentialBounds, DEFAULT_BOUNDS, SandboxBudget } from "../../../../src/sandbox/store/limits.js";

describe("a numeric option at its bound", () => {
  const WEEK = 7 * 24 * 3600;
  // [option, least, greatest, the other options that let the greatest be taken]
  const bounds: Array<[string, number, number, Record<string, number>]> = [
    ["evictIdleSeconds", 1, WEEK, {}],
    ["deliveryQueue", 1, 10_000, { deliveryQueueTotal: 10_000 }],
    ["deliveryQueueTotal", 1, 100_000, {}],
  ];
  const taken = (settings: ReturnType<typeof sharedSettings>, name: string) =>
    name === "evictIdleSeconds"
      ? settings.evictIdleSeconds
      : name === "deliveryQueue"
        ? settings.queue.perCredential
        : settings.queue.total;

  it("has the expected number of options", () => expect(bounds).toHaveLength(3));

  it.each(bounds)("%s takes its least value, %d", (name, least) => {
    expect(taken(sharedSettings({ [name]: least }, {}), name)).toBe(least);
  });

  it.each(bounds)("%s takes its greatest value, and not one more", (name, _least, greatest, others) => {
    expect(taken(sharedSettings({ ...others, [name]: greatest }, {}), name)).toBe(greatest);
    expect(() => sharedSettings({ ...others, [name]: greatest + 1 }, {})).toThrow(`the sandbox's ${name} must be an integer`);
  });
});

describe("hosted mode's service", () => {
  const operator = new OperatorToken("the-hosted-service-operator-token");
  const quota: CredentialBounds = { records: 3, bytes: 4096, events: 5, queuedCallbacks: 2, named: "partner p-1's quota" };
  const asked: string[] = [];
  const service = {
    operator,
    boundsOf: (key: string) => {
      asked.push(key);
      return key === "key-of-p-1" ? quota : undefined;
    },
  } as unknown as HostedSandbox;
  const budget = new SandboxBudget(1_000_000);

  it("is the settings' own, its operator's token the service's, over the option's and the environment's", () => {
    const settings = sharedSettings(
      { hosted: { service }, operatorToken: "an-option-token-never-used", budget },
      { BANK_API_CONTRACTS_OPERATOR_TOKEN: "an-environment-token-never-used" },
    );
    expect(settings.hosted).toBe(service);
    expect(settings.operator).toBe(operator);
    expect(settings.targets.mode).toBe("shared");
  });

  it("hands each partner its quotas through the budget, in the same memory; a key it does not know gets the sandbox's limits", () => {
    const settings = sharedSettings({ hosted: { service }, budget }, {});
    asked.length = 0;
    expect(settings.budget.boundsOf("key-of-p-1")).toEqual(quota);
    expect(settings.budget.boundsOf("key-of-nobody")).toEqual(DEFAULT_BOUNDS);
    expect(asked).toEqual(["key-of-p-1", "key-of-nobody"]);
    expect(settings.budget.limit).toBe(1_000_000);
    settings.budget.add(100);
    expect(budget.used).toBe(100);
  });

  it("is none without hosted mode: the budget given is the budget used, with the sandbox's limits", () => {
    const settings = sharedSettings({ budget }, {});
    expect(settings.hosted).toBeUndefined();
    expect("hosted" in settings).toBe(false);
    expect(settings.budget).toBe(budget);
    expect(settings.budget.boundsOf("key-of-p-1")).toEqual(DEFAULT_BOUNDS);
  });
});
