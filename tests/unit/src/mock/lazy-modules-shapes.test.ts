/**
 * src/mock/lazy-modules.ts's stand-ins, each over a loader of the test's own (no module registry of
 * their own needed, unlike lazy-modules.test.ts): a stand-in loads nothing until a member is read or
 * it is called, then answers what the real module answers; json-schema-faker's keeps Prism's
 * `extend` and `option` calls and makes them, in order, on the real one when it loads. What is
 * deferred names files of the installed packages (a path a package update moved would leave the
 * module loaded at start-up, silently).
 */
import { statSync } from "node:fs";
import { Module } from "node:module";
import { describe, expect, it } from "vitest";
import { callable, defer, type Exports, fakerShape, jsonSchemaFakerShape, operationsShape } from "../../../../src/mock/lazy-modules.js";
import { freshModule } from "../../../helpers/fresh-module.js";

/** A loader of `real`, counting its loads. */
function loader<T extends object>(real: T) {
  const counter = {
    loads: 0,
    load: () => {
      counter.loads++;
      return real as unknown as Exports;
    },
  };
  return counter;
}

describe("DEFERRED, from a module loaded anew", () => {
  it("names a file of the installed packages for each module deferred, with the stand-in its exports need", async () => {
    const fresh = await freshModule<typeof import("../../../../src/mock/lazy-modules.js")>("src/mock/lazy-modules.ts");
    const named = new Map<unknown, string>([
      [fresh.fakerShape, "fakerShape"],
      [fresh.jsonSchemaFakerShape, "jsonSchemaFakerShape"],
      [fresh.operationsShape, "operationsShape"],
      [fresh.members, "members"],
      [fresh.callable, "callable"],
    ]);
    const deferred = fresh.DEFERRED.map(([path, shape]) => {
      expect(statSync(path).isFile(), `${path} is a file`).toBe(true);
      return [path.replaceAll("\\", "/").replace(/^.*?\/node_modules\//, ""), named.get(shape)];
    });
    expect(deferred).toEqual([
      ["@faker-js/faker/dist/cjs/index.js", "fakerShape"],
      ["json-schema-faker/dist/main.cjs", "jsonSchemaFakerShape"],
      ["@stoplight/http-spec/postman/operation.js", "members"],
      ["@stoplight/http-spec/oas2/operation.js", "members"],
      ["@stoplight/prism-http/dist/utils/operations.js", "operationsShape"],
      ["node-fetch/lib/index.js", "members"],
      ["http-proxy-agent/dist/index.js", "callable"],
      ["https-proxy-agent/dist/index.js", "callable"],
      ["seedrandom/index.js", "callable"],
      ["lodash/fp.js", "callable"],
      ["@stoplight/prism-core/node_modules/pino/pino.js", "callable"],
    ]);
  });
});

describe("defer", () => {
  it("puts a loaded module in the cache whose exports the shape builds, and requires the real one (out of the cache) on first use only", () => {
    const modules: NodeJS.Dict<NodeJS.Module> = {};
    const real = { answer: 42 };
    const required: Array<{ path: string; cached: boolean }> = [];
    const requireReal = (path: string) => {
      required.push({ path, cached: path in modules });
      return real;
    };
    let load: (() => Exports) | undefined;
    const exported = { stand: "in" };
    defer(
      "/x/real.js",
      (given) => {
        load = given;
        return exported;
      },
      modules,
      requireReal,
    );
    const entry = modules["/x/real.js"] as NodeJS.Module;
    expect(entry).toBeInstanceOf(Module);
    expect(entry).toMatchObject({ id: "/x/real.js", filename: "/x/real.js", loaded: true });
    expect(entry.exports).toBe(exported);
    expect(required).toEqual([]);
    expect(load?.()).toBe(real);
    expect(required).toEqual([{ path: "/x/real.js", cached: false }]);
    expect(load?.()).toBe(real);
    expect(required).toHaveLength(1);
  });

  it("leaves a module already in the cache as it is", () => {
    const loaded = new Module("/x/loaded.js") as NodeJS.Module;
    const modules: NodeJS.Dict<NodeJS.Module> = { "/x/loaded.js": loaded };
    let shaped = 0;
    defer(
      "/x/loaded.js",
      () => ({ shaped: ++shaped }),
      modules,
      () => ({}),
    );
    expect(modules["/x/loaded.js"]).toBe(loaded);
    expect(shaped).toBe(0);
  });
});

describe("members", () => {
  it("says it is an ES module without loading, and reads every other member from the real module", async () => {
    // A new instance of the module, evaluated in this test (its stand-ins are made as it loads).
    const fresh = await freshModule<typeof import("../../../../src/mock/lazy-modules.js")>("src/mock/lazy-modules.ts");
    expect(fresh.members).toBeTypeOf("function");
    const real = loader({ fetch: "the real fetch", Headers: "the real Headers" });
    const exports = fresh.members(real.load);
    expect(exports.__esModule).toBe(true);
    expect(real.loads).toBe(0);
    expect(exports.fetch).toBe("the real fetch");
    expect(exports.Headers).toBe("the real Headers");
    expect(real.loads).toBeGreaterThan(0);
  });
});

describe("callable", () => {
  it("is called, constructed and read as the real function, loading it only then", () => {
    class Agent {
      constructor(readonly proxy: string) {}
      static kind = "agent";
    }
    function real(this: unknown, ...args: unknown[]) {
      return { self: this, args };
    }
    const fn = loader(Object.assign(real, { Agent }));
    const standIn = callable(fn.load) as unknown as typeof real & { Agent: typeof Agent };
    expect(fn.loads).toBe(0);
    const self = { me: true };
    expect(Reflect.apply(standIn, self, [1, "two"])).toEqual({ self, args: [1, "two"] });
    expect(fn.loads).toBe(1);
    expect(standIn.Agent).toBe(Agent);

    const ctor = loader(Agent);
    const AgentStandIn = callable(ctor.load) as unknown as typeof Agent;
    const made = new AgentStandIn("http://proxy.test");
    expect(made).toBeInstanceOf(Agent);
    expect(made.proxy).toBe("http://proxy.test");
    expect((AgentStandIn as unknown as { kind: string }).kind).toBe("agent");
  });
});

describe("fakerShape", () => {
  it("gives a default export read from the real one's default only when a member of it is read", () => {
    const real = loader({ default: { person: "the real person module" }, faker: "named export" });
    const exports = fakerShape(real.load);
    expect(exports.__esModule).toBe(true);
    const faker = exports.default as Exports;
    expect(typeof faker).toBe("object");
    expect(real.loads).toBe(0);
    expect(faker.person).toBe("the real person module");
    expect(exports.faker).toBe("named export");
  });
});

/** A stand-in of json-schema-faker's JSONSchemaFaker, recording its calls and the `this` of each. */
function fakeJsonSchemaFaker() {
  const calls: unknown[][] = [];
  const selves: unknown[] = [];
  const options: Record<string, unknown> = { alwaysFakeOptionals: false };
  const JSONSchemaFaker = {
    version: "0.5-test",
    extend(this: unknown, ...args: unknown[]) {
      calls.push(["extend", ...args]);
      selves.push(this);
      return this;
    },
    option(this: unknown, ...args: unknown[]) {
      calls.push(["option", ...args]);
      selves.push(this);
      if (args.length === 1 && typeof args[0] === "string") return options[args[0]];
      return this;
    },
    generate(this: unknown, schema: unknown) {
      calls.push(["generate", schema]);
      selves.push(this);
      return "generated";
    },
  };
  return { calls, selves, JSONSchemaFaker };
}

describe("jsonSchemaFakerShape", () => {
  it("keeps extend and option calls made before it loads, and makes them in order on the real one when an answer is generated", () => {
    const fake = fakeJsonSchemaFaker();
    const real = loader({ JSONSchemaFaker: fake.JSONSchemaFaker, other: "named export" });
    const exports = jsonSchemaFakerShape(real.load);
    expect(exports.__esModule).toBe(true);
    const jsf = exports.JSONSchemaFaker as typeof fake.JSONSchemaFaker;
    const fakerFn = () => "faker";
    // As Prism's mocker calls them as it loads (json-schema-faker's extend takes a name and a function).
    expect(jsf.extend("faker", fakerFn)).toBe(jsf);
    expect(jsf.option({ alwaysFakeOptionals: true })).toBe(jsf);
    expect(jsf.option("maxItems", 20)).toBe(jsf);
    expect(jsf.extend("chance")).toBe(jsf);
    expect(real.loads).toBe(0);
    expect(fake.calls).toEqual([]);

    expect(jsf.generate({ type: "string" })).toBe("generated");
    expect(fake.calls).toEqual([
      ["extend", "faker", fakerFn],
      ["option", { alwaysFakeOptionals: true }],
      ["option", "maxItems", 20],
      ["extend", "chance"],
      ["generate", { type: "string" }],
    ]);
    expect(fake.selves.every((self) => self === fake.JSONSchemaFaker)).toBe(true);
    expect(jsf.version).toBe("0.5-test");

    // Once loaded, calls go to the real one at once.
    expect(jsf.option({ maxLength: 5 })).toBe(fake.JSONSchemaFaker);
    expect(fake.calls.at(-1)).toEqual(["option", { maxLength: 5 }]);
    expect(fake.calls).toHaveLength(6);
    expect(exports.other).toBe("named export");
  });

  it("answers option(name) alone from the real one, which it loads, after the calls kept", () => {
    const fake = fakeJsonSchemaFaker();
    const real = loader({ JSONSchemaFaker: fake.JSONSchemaFaker });
    const jsf = jsonSchemaFakerShape(real.load).JSONSchemaFaker as typeof fake.JSONSchemaFaker;
    jsf.option({ alwaysFakeOptionals: true });
    expect(real.loads).toBe(0);
    expect(jsf.option("alwaysFakeOptionals")).toBe(false);
    expect(real.loads).toBeGreaterThan(0);
    expect(fake.calls).toEqual([
      ["option", { alwaysFakeOptionals: true }],
      ["option", "alwaysFakeOptionals"],
    ]);
  });
});

describe("operationsShape", () => {
  it("gives getHttpOperationsFromSpec without loading, a function that loads the real one when called", async () => {
    const seen: unknown[][] = [];
    const real = loader({
      getHttpOperationsFromSpec: async (...args: unknown[]) => {
        seen.push(args);
        return ["operation"];
      },
      other: "named export",
    });
    const exports = operationsShape(real.load);
    expect(exports.__esModule).toBe(true);
    const read = exports.getHttpOperationsFromSpec as (...args: unknown[]) => Promise<unknown[]>;
    expect(typeof read).toBe("function");
    expect(real.loads).toBe(0);
    expect(await read("/specs/openapi.yaml")).toEqual(["operation"]);
    expect(seen).toEqual([["/specs/openapi.yaml"]]);
    expect(exports.other).toBe("named export");
  });
});
