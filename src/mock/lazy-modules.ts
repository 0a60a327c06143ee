/**
 * Start-up: when @stoplight/prism-http loads, it requires two large modules that the mock needs only
 * in rare cases, and that took most of its start-up time:
 * - @faker-js/faker (thousands of locale files, about a second), used only to generate dynamic
 *   answers (the `Prefer: dynamic=true` request header);
 * - @stoplight/http-spec's Postman converter (postman-collection and a faker of its own), used only
 *   when the spec given is a Postman collection.
 * This module, imported before Prism, puts a stand-in for each into the CommonJS module cache; a
 * stand-in loads the real module the first time one of its members is read. Behaviour does not
 * change: a request for dynamic data loads faker then. Must be imported before any module that
 * loads @stoplight/prism-http.
 */
import { createRequire, Module } from "node:module";

const require = createRequire(import.meta.url);
const cache = require.cache;

type Exports = Record<string | symbol, unknown>;

/** Replaces the module `path` in the cache by a stand-in; `shape` builds its exports from a loader of the real ones. */
function defer(path: string, shape: (load: () => Exports) => Exports): void {
  if (cache[path]) return; // already loaded: nothing to save
  let real: Exports | undefined;
  const load = () => {
    if (!real) {
      delete cache[path];
      real = require(path) as Exports;
    }
    return real;
  };
  const standIn = new Module(path) as Module & { filename: string; loaded: boolean; exports: unknown };
  standIn.filename = path;
  standIn.loaded = true;
  standIn.exports = shape(load);
  cache[path] = standIn as unknown as NodeJS.Module;
}

/** Exports whose members are read from the real module when first read. */
const members = (load: () => Exports): Exports => new Proxy({}, { get: (_, key) => (key === "__esModule" ? true : load()[key]) });

const fromPrism = createRequire(require.resolve("@stoplight/prism-http"));

// Prism hands `require("@faker-js/faker").default` to json-schema-faker as it loads, which reads
// members of it only when a schema asks for faker data: the default export is a lazy object too.
defer(fromPrism.resolve("@faker-js/faker"), (load) => {
  const faker = new Proxy({}, { get: (_, key) => (load().default as Exports)[key] });
  return new Proxy({}, { get: (_, key) => (key === "__esModule" ? true : key === "default" ? faker : load()[key]) });
});

// Read by Prism's getHttpOperationsFromSpec only for a Postman collection.
defer(fromPrism.resolve("@stoplight/http-spec/postman/operation"), members);
