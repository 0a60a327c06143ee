/**
 * Every registered API's mock (src/mock), started on free ports before the tests of the file (or of
 * the `describe` that calls it) and closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { closeMocks, type MockServer, startMocks } from "../../src/mock/index.js";
import { bundled } from "./registry.js";

/** The mocks by alias, filled before the first test runs. */
export function mocksOfEveryApi(): Map<string, MockServer> {
  const mocks = new Map<string, MockServer>();
  beforeAll(async () => {
    for (const mock of await startMocks(
      bundled.map((api) => api.entry),
      { freePorts: true },
    ))
      mocks.set(mock.alias, mock);
  }, 60_000);
  afterAll(() => closeMocks([...mocks.values()]));
  return mocks;
}

/** How many times a test asks for a dynamic answer where generated data may vary. */
export const DYNAMIC_TRIES = 5;

/** A request with `Prefer: dynamic=true` (Prism generates the answer from the schema), its answer parsed. */
export async function dynamic(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), prefer: "dynamic=true" } });
  const text = await response.text();
  return { status: response.status, violations: response.headers.get("sl-violations"), body: text ? JSON.parse(text) : undefined };
}
