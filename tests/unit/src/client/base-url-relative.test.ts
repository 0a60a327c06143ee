/**
 * A base URL that is not an absolute URL (src/client/options.ts `baseUrlOf`): a path such as `/api`,
 * which a browser's fetch resolves against the page's origin (a partner's front end calling through
 * its own server), is taken as given. Only a URL that parses is looked into for a user name or
 * password.
 */
import { expect, it } from "vitest";
import { baseUrlOf } from "../../../../src/client/options.js";
import type { ApiDefinition } from "../../../../src/client/types.js";

const shop: ApiDefinition = { name: "createShopClient", servers: [], auth: { kind: "none" } } as unknown as ApiDefinition;

it.each(["/api", "api/v1", "//"])("%s is taken as given", (baseUrl) => {
  expect(baseUrlOf(shop, { baseUrl })).toBe(baseUrl);
});
