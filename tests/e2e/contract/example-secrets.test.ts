/**
 * No example in any spec holds something that looks like a real credential: every string under an
 * `example`/`examples` key of every bundled spec in the registry is scanned (tests/helpers/secrets.ts).
 */
import { describe, expect, it } from "vitest";
import { bundled, named } from "../../helpers/registry.js";
import { exampleStrings, findSecrets, suspicion } from "../../helpers/secrets.js";

// Built at run time so that no credential-shaped literal sits in the repository.
const random = (n: number) => Array.from({ length: n }, (_, i) => "aZ3kQ9xW7mP2vL8c"[(i * 7 + n) % 16]).join("");
const realistic: Array<[string, string]> = [
  ["api_key", `sk_${"live"}_${random(24)}`],
  ["value", `${"eyJ"}hbGciOiJIUzI1NiJ9.${"eyJ"}zdWIiOiIxMjM0NTY3ODkwIn0.${random(22)}`],
  ["client_secret", random(32)],
  ["password", "Tr0ub4dor-and-3-more-words"],
  ["authorization", `Bearer ${random(40)}`],
  ["note", `-----BEGIN ${"RSA PRIVATE KEY"}-----`],
  ["access_key_id", `AKIA${"ABCDEFGHIJKLMNOP"}`],
];
const placeholders: Array<[string, string]> = [
  ["api_key", "<your-api-key>"],
  ["client_secret", "EXAMPLE_CLIENT_SECRET"],
  ["password", "********"],
  ["token", "YOUR_ACCESS_TOKEN"],
  ["authorization", "Bearer <ACCESS_TOKEN>"],
  ["signature", "xxxxxxxxxxxxxxxxxxxxxxxx"],
  ["client_key_id", "ck_1"],
  ["invoice_id", "01HZX3K9QABCDEF0123456789"],
];

describe("the credential detector", () => {
  it.each(realistic)("flags a realistic %s", (key, value) => {
    expect(suspicion(key, value)).toBeDefined();
  });
  it.each(placeholders)("accepts the placeholder or plain id %s", (key, value) => {
    expect(suspicion(key, value)).toBeUndefined();
  });
  it("collects strings from named examples, schema examples and nested values", () => {
    const doc = {
      paths: {
        "/x": {
          post: {
            requestBody: {
              content: { "application/json": { examples: { a: { value: { creds: { client_secret: "s", list: ["t"] } } } } } },
            },
          },
        },
      },
      components: { schemas: { K: { properties: { api_key: { type: "string", examples: ["k"] } } } } },
    };
    expect(exampleStrings(doc).map(({ key, value }) => `${key}=${value}`)).toEqual(["client_secret=s", "list=t", "api_key=k"]);
  });
});

describe("examples of every registered API", () => {
  it.each(named(bundled.map((api) => ({ name: api.entry.alias, api }))))("%s holds no credential-shaped value", (_, { api }) => {
    const strings = exampleStrings(api.doc);
    expect(strings.length, `${api.entry.alias} has examples`).toBeGreaterThan(0);
    expect(findSecrets(api.doc)).toEqual([]);
  });
});
