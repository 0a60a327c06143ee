/**
 * The registry loader lives in src/registry.ts, where the published package can use it too; the
 * scripts and tests keep importing it from here.
 */
export * from "../../src/registry.js";
