/**
 * The mock's deliberate differences from stock Prism, written by hand: what src/mock/validate.ts's
 * DEVIATIONS must name. The deviations test shows each one against stock Prism; the equivalence
 * test excuses exactly these.
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
  "unknownMember",
  "violationCap",
];
