/**
 * Validation independent of Prism (Ajv 2020 + ajv-formats over a whole bundled document): the
 * package's own validator core, src/validation/spec.ts, shared by the tests and the testing entry.
 */
export { specValidator, type SpecValidator } from "../../src/validation/spec.js";
