/**
 * The operator token alone (src/sandbox/operator.ts), as docs/guides/shared-sandbox.md describes it:
 * at least 16 characters (exactly 16 is enough), from the option before the environment variable,
 * none when both are empty or blank; it matches only the same text (surrounding blanks aside, as an
 * HTTP header value carries none), never a prefix, an extension, another case; of a repeated header
 * the first value counts; it is never shown.
 */
import { describe, expect, it } from "vitest";
import { OPERATOR_TOKEN_ENV, OperatorToken } from "../../../../src/sandbox/operator.js";

const SIXTEEN = "0123456789abcdef";

describe("the operator token", () => {
  it("needs 16 characters: 15 are refused, 16 accepted", () => {
    expect(() => new OperatorToken(SIXTEEN.slice(0, 15))).toThrow(/^the sandbox operator token must have at least 16 characters$/);
    expect(() => new OperatorToken("")).toThrow(TypeError);
    expect(new OperatorToken(SIXTEEN).matches(SIXTEEN)).toBe(true);
  });

  it("comes from the option first, else from the environment; blank is none", () => {
    const env = { [OPERATOR_TOKEN_ENV]: "token-from-the-environment" };
    expect(OperatorToken.from("token-from-the-option-value", env)?.matches("token-from-the-option-value")).toBe(true);
    expect(OperatorToken.from("token-from-the-option-value", env)?.matches("token-from-the-environment")).toBe(false);
    expect(OperatorToken.from(undefined, env)?.matches("token-from-the-environment")).toBe(true);
    expect(OperatorToken.from(undefined, {})).toBeUndefined();
    expect(OperatorToken.from("   ", {})).toBeUndefined();
    expect(OperatorToken.from(undefined, { [OPERATOR_TOKEN_ENV]: " \t" })).toBeUndefined();
    // Blanks around a token (a file's final newline) are not part of it.
    expect(OperatorToken.from(`  ${SIXTEEN}\n`, {})?.matches(SIXTEEN)).toBe(true);
    // A short token after trimming is refused, not padded by its blanks.
    expect(() => OperatorToken.from(`   ${SIXTEEN.slice(0, 15)}   `, {})).toThrow(/at least 16 characters/);
  });

  it("matches the same text only", () => {
    const token = new OperatorToken(SIXTEEN);
    for (const other of [`${SIXTEEN}0`, SIXTEEN.slice(0, -1), SIXTEEN.toUpperCase(), "", "x"])
      expect(token.matches(other), other).toBe(false);
    expect(token.matches(` ${SIXTEEN} `)).toBe(true);
    expect(token.matches(undefined)).toBe(false);
    expect(token.matches([])).toBe(false);
  });

  it("of a repeated header, takes the first value", () => {
    const token = new OperatorToken(SIXTEEN);
    expect(token.matches([SIXTEEN, "something-else-entirely"])).toBe(true);
    expect(token.matches(["something-else-entirely", SIXTEEN])).toBe(false);
  });

  it("never shows the token in JSON or as text", () => {
    const token = new OperatorToken(SIXTEEN);
    expect(JSON.stringify({ token })).toBe('{"token":"[operator token]"}');
    expect(String(Object.values(token))).not.toContain(SIXTEEN);
  });
});
