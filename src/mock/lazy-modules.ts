/**
 * Start-up: when @stoplight/prism-http loads, it requires modules that the mock needs only in rare
 * cases, and that took much of its start-up time:
 * - @faker-js/faker (thousands of locale files, about a second) and json-schema-faker (with its own
 *   ref parser, js-yaml and esprima), used only to generate dynamic answers (the
 *   `Prefer: dynamic=true` request header);
 * - @stoplight/http-spec's Postman and OpenAPI 2 converters, used only when the spec given is a
 *   Postman collection or a Swagger 2 document;
 * - the forwarder's node-fetch and proxy agents, used only when Prism forwards a request (the proxy);
 * - prism-core's pino, used only to create a logger (the mock passes its own, silent one);
 * - seedrandom (a seeded dynamic answer) and lodash/fp (a whole second lodash, converted), used only
 *   by Prism's security check and server, which the mock replaces with its own;
 * - Prism's reading of a spec file (getHttpOperationsFromSpec: the YAML parser, the $ref parser and
 *   http-spec's OpenAPI 3 converter), not needed when the operations come from the cache
 *   (operations-cache.ts).
 * This module, imported before Prism, puts a stand-in for each into the CommonJS module cache; a
 * stand-in loads the real module the first time one of its members is read (or it is called).
 * Behaviour does not change: a request for dynamic data loads faker and json-schema-faker then.
 * Must be imported before any module that loads @stoplight/prism-http.
 */
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const cache = require.cache;

export type Exports = Record<string | symbol, unknown>;

/**
 * Replaces the module `path` in the cache by a stand-in; `shape` builds its exports from a loader of
 * the real ones. `modules` and `requireReal` are the CommonJS module cache and `require` (given
 * others only by tests).
 */
export function defer(
  path: string,
  shape: (load: () => Exports) => Exports,
  modules: NodeJS.Dict<NodeJS.Module> = cache,
  requireReal: (path: string) => unknown = require,
): void {
  if (modules[path]) return; // already loaded: nothing to save
  let real: Exports | undefined;
  const load = () => {
    if (!real) {
      delete modules[path];
      real = requireReal(path) as Exports;
    }
    return real;
  };
  const standIn = new Module(path) as Module & { filename: string; loaded: boolean; exports: unknown };
  standIn.filename = path;
  standIn.loaded = true;
  standIn.exports = shape(load);
  modules[path] = standIn as unknown as NodeJS.Module;
}

/** Exports whose members are read from the real module when first read. */
export const members = (load: () => Exports): Exports => new Proxy({}, { get: (_, key) => (key === "__esModule" ? true : load()[key]) });

/** A module whose exports are a function (`module.exports = fn`): called, constructed or read, it loads the real one. */
export const callable = (load: () => Exports): Exports =>
  new Proxy(function standIn() {}, {
    apply: (_, self, args) => Reflect.apply(load() as unknown as (...a: unknown[]) => unknown, self, args),
    construct: (_, args) => Reflect.construct(load() as unknown as new (...a: unknown[]) => object, args),
    get: (_, key) => load()[key],
  }) as unknown as Exports;

const fromPrism = createRequire(require.resolve("@stoplight/prism-http"));

/**
 * @faker-js/faker's stand-in. Prism hands `require("@faker-js/faker").default` to json-schema-faker
 * as it loads, which reads members of it only when a schema asks for faker data: the default export
 * is a lazy object too.
 */
export const fakerShape = (load: () => Exports): Exports => {
  const faker = new Proxy({}, { get: (_, key) => (load().default as Exports)[key] });
  return new Proxy({}, { get: (_, key) => (key === "__esModule" ? true : key === "default" ? faker : load()[key]) });
};

/**
 * json-schema-faker's stand-in. Prism's mocker calls `JSONSchemaFaker.extend("faker", ...)` and
 * `JSONSchemaFaker.option({...})` as it loads, and the rest only to generate an answer: those calls
 * are kept and made, in order, on the real one when it loads.
 */
export const jsonSchemaFakerShape = (load: () => Exports): Exports => {
  const calls: Array<[string, unknown[]]> = [];
  let ready: Exports | undefined;
  const real = () => {
    if (!ready) {
      ready = load().JSONSchemaFaker as Exports;
      for (const [name, args] of calls) (ready[name] as (...a: unknown[]) => unknown).apply(ready, args);
    }
    return ready;
  };
  const jsf: Exports = new Proxy(
    {},
    {
      get: (_, key) => {
        if (!ready && (key === "extend" || key === "option")) {
          return (...args: unknown[]) => {
            // option(name) alone reads an option: only the real one can answer.
            if (key === "option" && args.length === 1 && typeof args[0] !== "object")
              return (real().option as (...a: unknown[]) => unknown)(...args);
            calls.push([key, args]);
            return jsf;
          };
        }
        const value = real()[key];
        return typeof value === "function" ? value.bind(ready) : value;
      },
    },
  );
  return new Proxy({}, { get: (_, key) => (key === "__esModule" ? true : key === "JSONSchemaFaker" ? jsf : load()[key]) });
};

/**
 * The stand-in of Prism's getHttpOperationsFromSpec and what it needs to read a spec. An ES module
 * importing prism-http reads every export as it links: the function is a stand-in that loads the
 * real one when called.
 */
export const operationsShape = (load: () => Exports): Exports => {
  const getHttpOperationsFromSpec = (...args: unknown[]) => (load().getHttpOperationsFromSpec as (...a: unknown[]) => unknown)(...args);
  return new Proxy(
    {},
    { get: (_, key) => (key === "__esModule" ? true : key === "getHttpOperationsFromSpec" ? getHttpOperationsFromSpec : load()[key]) },
  );
};

/** What is deferred: each module's path, and the shape of its stand-in's exports. */
export const DEFERRED: ReadonlyArray<readonly [path: string, shape: (load: () => Exports) => Exports]> = [
  [fromPrism.resolve("@faker-js/faker"), fakerShape],
  [fromPrism.resolve("json-schema-faker"), jsonSchemaFakerShape],
  // Read by Prism's getHttpOperationsFromSpec only for a Postman collection or a Swagger 2 document.
  [fromPrism.resolve("@stoplight/http-spec/postman/operation"), members],
  [fromPrism.resolve("@stoplight/http-spec/oas2/operation"), members],
  [join(dirname(fromPrism.resolve("@stoplight/prism-http")), "utils/operations.js"), operationsShape],
  // The forwarder's HTTP client and proxy agents, called only to forward a request.
  [fromPrism.resolve("node-fetch"), members],
  [fromPrism.resolve("http-proxy-agent"), callable],
  [fromPrism.resolve("https-proxy-agent"), callable],
  // Called only to generate an answer from a seed (seedrandom) and by Prism's own security check and
  // server (lodash/fp), which the mock replaces by validate.ts and server.ts.
  [fromPrism.resolve("seedrandom"), callable],
  [fromPrism.resolve("lodash/fp"), callable],
  // prism-core's createLogger; the mock and the proxy hand Prism a logger of their own.
  [createRequire(fromPrism.resolve("@stoplight/prism-core")).resolve("pino"), callable],
];
for (const [path, shape] of DEFERRED) defer(path, shape);
