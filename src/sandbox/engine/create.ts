/**
 * Makes a sandbox's engine: its context (./context.ts) with the scheduler of scheduled moves wired
 * to the clock's stage (./clock.ts `wake`), a state a durable store brings in taken into the
 * schedulers (./resume.ts), and the store started (a durable store takes in the work left due).
 */
import type { Doc } from "../../document/index.js";
import type { ApiEntry } from "../../registry.js";
import type { SandboxOptions } from "../options.js";
import { wake } from "./clock.js";
import { EngineContext } from "./context.js";
import { resume } from "./resume.js";

export function createEngine(entry: ApiEntry, doc: Doc, options: SandboxOptions = {}, specPath = entry.bundlePath): EngineContext {
  const engine: EngineContext = new EngineContext(entry, doc, options, specPath, {
    onWake: (key) => wake(engine, key),
    onLoad: (state) => resume(engine, state),
  });
  engine.store.start();
  return engine;
}
