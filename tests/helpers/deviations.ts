/**
 * The mock's deliberate differences from stock Prism, written by hand: what src/mock/validate.ts's
 * DEVIATIONS must name. The deviations test shows each one against stock Prism (hosted mode's,
 * `rateLimit` and `hostedTimeouts`: tests/unit/src/hosted/deviations.slow.test.ts); the equivalence
 * test excuses exactly these (hosted mode's never arise there: it runs the static mock).
 */
export const EXPECTED_DEVIATIONS = [
  "allow",
  "bearerCase",
  "bodyLimit",
  "cors",
  "dynamicFallback",
  "emptyQueryValue",
  "headerEscape",
  "invalidJson",
  "jsonDepth",
  "largeBody",
  "malformedAccept",
  "malformedContentType",
  "pathEncoding",
  "rateLimit",
  "hostedTimeouts",
  "unknownMember",
  "violationCap",
];
