/**
 * The packed package, as a partner gets it: the release tarball (`npm run release`, made once per
 * content of the repository for every package test) installed by the install guide's lines in the
 * run's partner project (tests/helpers/package.ts, `partnerProject()`, made once per run and shared
 * with install.test.ts). Two folders of this file build on it, each with a node_modules of links
 * into the partner's (so its tree is the one the lines installed, and nothing is installed again):
 *
 * - client only (the copy of the partner's folder taken after its first line, the tarball alone):
 *   exactly its three dependencies arrived, every client imports, `list` works, and `mock` and
 *   `validate` name the optional peers they need;
 * - with the test tools (after both lines), and the partner's dev tools (typescript, vitest,
 *   @types/node, @tsconfig/strictest) linked from this repository: `tsc` type-checks every ```ts
 *   block of the README and the guides and a file using every API's client, each with a wrong call
 *   marked `@ts-expect-error`; the same client file and the README's and quick start's blocks
 *   compile again under `@tsconfig/strictest` (`exactOptionalPropertyTypes`,
 *   `noUncheckedIndexedAccess` and the rest), with the package's declarations checked too
 *   (`skipLibCheck: false`); vitest runs every block (the vitest example as a test file, each other one
 *   to its end, against mocks the project's global setup starts through the CLI on free ports), and
 *   a test that starts the mock through the CLI, calls every API through its client, checks each
 *   answer with `toMatchContract` and stops the mock.
 *
 * publint and are-the-types-wrong check the tarball. Timings and sizes go to test-output/package.json.
 *
 * The checks after the setup are independent of each other and run concurrently.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientNames, loadRegistry, repoRoot } from "../../../src/registry.js";
import { jsonRequest, operations, successResponse } from "../../../src/document/index.js";
import { requestParams } from "../../../src/testing/requests.js";
import { fencedBlocks } from "../../helpers/doc-blocks.js";
import { freePortRange } from "../../helpers/ports.js";
import { bundled } from "../../helpers/registry.js";
import {
  cleanEnv,
  exec as run,
  installedPartnerProject,
  type TarballContents,
  tarballContents,
  scratchFolder,
} from "../../helpers/package.js";

const registry = loadRegistry();
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const bin = (name: string) => join(repoRoot, "node_modules/.bin", name);

/** Runs `file args` in `cwd`, with the environment of this process less what `npm test` and vitest set for themselves. */
const exec = (file: string, args: string[], cwd: string) => run(file, args, { cwd, env: cleanEnv() });

/** Top-level package names in a node_modules folder. */
function installed(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(nodeModules, name)).map((sub) => `${name}/${sub}`) : [name]))
    .sort();
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/**
 * A folder of this file's whose node_modules links every top-level entry of `from`'s (scopes
 * entry by entry, `.bin` included), then each of `tools` not among them to `<repo>/node_modules/<tool>`.
 * A linked package's own imports resolve where it really is: the partner's tree, or the repository's.
 */
function linkedProject(dir: string, from: string, tools: string[] = []): void {
  const modules = join(dir, "node_modules");
  mkdirSync(modules, { recursive: true });
  const link = (name: string, target: string) => {
    if (name.startsWith("@") && !name.includes("/")) {
      mkdirSync(join(modules, name), { recursive: true });
      for (const sub of readdirSync(target)) link(`${name}/${sub}`, join(target, sub));
    } else if (!lstatSync(join(modules, name), { throwIfNoEntry: false })) {
      if (name.includes("/")) mkdirSync(join(modules, name.split("/")[0]), { recursive: true });
      symlinkSync(target, join(modules, name), "dir");
    }
  };
  for (const name of readdirSync(join(from, "node_modules"))) link(name, join(from, "node_modules", name));
  for (const tool of tools) link(tool, join(repoRoot, "node_modules", tool));
}

/** Every ```ts block of the README and the guides (docs/guides/*.md), in order; a broken fence fails. */
const readmeBlocks = () => fencedBlocks("ts");
/** The documents whose blocks also compile under @tsconfig/strictest: the first ones a partner copies. */
const STRICTEST_DOCS = ["README.md", "docs/guides/quick-start.md"];
/** The project's files compiled under @tsconfig/strictest (clients.ts and the blocks of STRICTEST_DOCS). */
let strictestFiles: string[] = [];
/** How many there are, counted when the project is written. */
let README_BLOCKS = 0;

/**
 * A README block as it runs here: the mocks' default ports (4010-4016, in registry order) moved to
 * the free ones this test started them on, and a receiver's fixed port to a free one.
 */
function runnable(block: string, portBase: number): string {
  return block
    .replace(/127\.0\.0\.1:40(1\d)\b/g, (_, n: string) => `127.0.0.1:${portBase + Number(n) - 10}`)
    .replace(/\.listen\(3000\)/g, ".listen(0)");
}

const work = scratchFolder("consumer");
const full = join(work, "project");
const clientOnly = join(work, "client-only");
const measured: Record<string, number | string> = {};
let tarball = "";
let packed: TarballContents & { filename: string };
let mockPortBase = 0;
/** The mocks README's blocks call (their own, started by the vitest project's global setup). */
let readmePortBase = 0;
/** README's blocks as files of the project: `readme-<n>.ts`, or `readme-<n>.test.ts` for a vitest test file. */
let readmeFiles: string[] = [];
/** For the tests that run tools (tsc, vitest, attw): minutes when the machine is busy (4 under a load of 20 on 2 cores). */
const SLOW = 600_000;

beforeAll(async () => {
  const started = Date.now();
  const partner = await installedPartnerProject();
  tarball = partner.release.tarball;
  packed = { filename: partner.release.filename, ...tarballContents(tarball) };
  Object.assign(measured, {
    releaseMs: partner.release.run.ms,
    tarballBytes: packed.size,
    unpackedBytes: packed.unpackedSize,
    files: packed.entryCount,
  });

  linkedProject(clientOnly, partner.clientOnly);
  linkedProject(full, partner.dir, ["typescript", "vitest", "@types/node", "@tsconfig/strictest"]);
  const lines = JSON.parse(readFileSync(join(partner.dir, "package.json"), "utf8"));
  // An ES module project (the README's blocks use top-level await), depending on what the lines installed.
  writeFileSync(
    join(full, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: lines.dependencies,
      devDependencies: lines.devDependencies,
    }),
  );
  Object.assign(measured, {
    installClientOnlyMs: partner.runs[0].result.ms,
    installClientOnlyPackages: installed(join(partner.clientOnly, "node_modules")).length,
    installClientOnlyBytes: folderBytes(join(partner.clientOnly, "node_modules")),
    installWithTestToolsMs: partner.runs[1].result.ms,
    installWithTestToolsPackages: installed(join(partner.dir, "node_modules")).length,
    installWithTestToolsBytes: folderBytes(join(partner.dir, "node_modules")),
  });
  mockPortBase = await freePortRange(registry.length);
  do readmePortBase = await freePortRange(registry.length);
  while (Math.abs(readmePortBase - mockPortBase) < registry.length);
  cases = await apiCases();
  writeProjectFiles();
  measured.setupMs = Date.now() - started;
}, 900_000);

afterAll(() => {
  mkdirSync(join(repoRoot, "test-output"), { recursive: true });
  writeFileSync(join(repoRoot, "test-output/package.json"), `${JSON.stringify(measured, null, 2)}\n`);
  rmSync(work, { recursive: true, force: true });
});

/** Per API: how to build its client and call its first operation, for the generated files. */
async function apiCases() {
  return Promise.all(
    bundled.map(async ({ entry, doc }, index) => {
      const generated = (await import(pathToFileURL(entry.clientPath).href)) as { auth: { option?: "accessToken" | "apiKey" } };
      const option = generated.auth.option;
      const credential: Record<string, string> = option ? { [option]: "consumer-test-credential" } : {};
      const wrongCredential: Record<string, string> = option === "accessToken" ? { apiKey: "x" } : { accessToken: "x" };
      const op = operations(doc)[0];
      return {
        index,
        alias: entry.alias,
        service: entry.service,
        subpath: `bank-api-contracts/${entry.service}/${entry.release}`,
        latest: entry.latest,
        names: clientNames(entry),
        credential,
        wrongCredential,
        firstPath: Object.keys(doc.paths)[0],
        call: {
          method: op.method.toUpperCase(),
          path: op.path,
          params: requestParams(doc, op),
          body: jsonRequest(doc, op)?.examples[0]?.value,
          operationId: op.operationId,
          status: successResponse(op).status,
        },
      };
    }),
  );
}

let cases: Awaited<ReturnType<typeof apiCases>> = [];

function writeProjectFiles(): void {
  writeFileSync(
    join(full, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: ["node"],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        include: ["clients.ts", "readme-*.ts"],
      },
      null,
      2,
    ),
  );
  const blocks = readmeBlocks();
  if (blocks.length === 0) throw new Error("README.md and docs/guides/ have no ```ts block");
  README_BLOCKS = blocks.length;
  readmeFiles = blocks.map((block, index) => {
    const file = `readme-${index + 1}${/from "vitest"/.test(block.code) ? ".test" : ""}.ts`;
    writeFileSync(join(full, file), runnable(block.code, readmePortBase));
    return file;
  });
  strictestFiles = ["clients.ts", ...readmeFiles.filter((_, index) => STRICTEST_DOCS.includes(blocks[index].path))];
  // The strictest common settings a partner's project has: @tsconfig/strictest as it is, declarations checked.
  writeFileSync(
    join(full, "tsconfig.strictest.json"),
    JSON.stringify(
      {
        extends: "@tsconfig/strictest/tsconfig.json",
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          types: ["node"],
          noEmit: true,
          skipLibCheck: false,
        },
        files: strictestFiles,
      },
      null,
      2,
    ),
  );
  // Each block that is not a test file of its own runs to its end in a test.
  writeFileSync(
    join(full, "readme-blocks.test.mjs"),
    `import { test } from "vitest";\n${readmeFiles
      .filter((file) => !file.endsWith(".test.ts"))
      .map((file) => `test(${JSON.stringify(`README block ${file} runs to its end`)}, async () => {\n  await import("./${file}");\n});`)
      .join("\n")}\n`,
  );
  // The mocks the blocks call, on free ports, for the whole vitest run.
  writeFileSync(join(full, "vitest.config.mjs"), `export default { test: { globalSetup: ["./readme-mocks.mjs"] } };\n`);
  writeFileSync(
    join(full, "readme-mocks.mjs"),
    `import { spawn } from "node:child_process";
export default async function () {
  const mock = spawn("node_modules/.bin/bank-api-contracts", ["mock", "--port-base", "${readmePortBase}"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  mock.stdout.on("data", (chunk) => (output += chunk));
  mock.stderr.on("data", (chunk) => (output += chunk));
  const until = Date.now() + 60_000;
  while (!output.includes("ready")) {
    if (mock.exitCode !== null || Date.now() > until) throw new Error("the README's mocks did not start: " + output);
    await new Promise((r) => setTimeout(r, 50));
  }
  return async () => {
    const exit = new Promise((resolve) => mock.on("exit", resolve));
    mock.kill("SIGTERM");
    await exit;
  };
}
`,
  );

  const lines = ["// Every API's client from its subpath (and each service's newest from bank-api-contracts/<service>)."];
  /** `{ baseUrl: "...", accessToken: "..." }` as source text: an object literal, so that an excess property is an error. */
  const options = (credential: Record<string, string>) =>
    `{ ${[`baseUrl: "http://127.0.0.1:4010"`, ...Object.entries(credential).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].join(", ")} }`;
  for (const c of cases) {
    lines.push(
      ``,
      `import { create${c.names.versioned}Client as create${c.index}, type paths as Paths${c.index} } from "${c.subpath}";`,
      `const client${c.index} = create${c.index}(${options(c.credential)});`,
      `const path${c.index}: keyof Paths${c.index} = ${JSON.stringify(c.firstPath)};`,
      `// @ts-expect-error "/not/in/the/contract" is no path of ${c.alias}`,
      `void client${c.index}.GET("/not/in/the/contract");`,
      `void path${c.index};`,
    );
    if (c.latest) {
      lines.push(
        `import { create${c.names.service}Client as newest${c.index} } from "bank-api-contracts/${c.service}";`,
        `void newest${c.index}(${options(c.credential)});`,
        `// @ts-expect-error ${c.alias} takes ${Object.keys(c.credential)[0] ?? "no credential"}, not ${Object.keys(c.wrongCredential)[0]}`,
        `void newest${c.index}(${options(c.wrongCredential)});`,
      );
    }
  }
  writeFileSync(join(full, "clients.ts"), `${lines.join("\n")}\n`);

  const calls = cases.map((c) => ({ ...c, port: mockPortBase + c.index }));
  writeFileSync(
    join(full, "cli-mock.test.mjs"),
    `// Starts every API's mock through the package's CLI, calls each through its client, checks the answers.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { toMatchContract } from "bank-api-contracts/testing";

expect.extend({ toMatchContract });
const cases = ${JSON.stringify(calls, null, 2)};
let mock;
let output = "";
beforeAll(async () => {
  mock = spawn("node_modules/.bin/bank-api-contracts", ["mock", "--port-base", "${mockPortBase}"], { stdio: ["ignore", "pipe", "pipe"] });
  mock.stdout.on("data", (chunk) => (output += chunk));
  mock.stderr.on("data", (chunk) => (output += chunk));
  const until = Date.now() + 60_000;
  while (!output.includes("ready")) {
    if (mock.exitCode !== null || Date.now() > until) throw new Error("the mock did not start: " + output);
    await new Promise((r) => setTimeout(r, 50));
  }
});
afterAll(() => {
  if (mock.exitCode === null) mock.kill("SIGKILL");
});

for (const c of cases) {
  test(c.alias + " " + c.call.operationId + " through " + c.subpath, async () => {
    expect(output).toContain(c.alias);
    const module = await import(c.subpath);
    const client = module["create" + c.names.versioned + "Client"]({ baseUrl: "http://127.0.0.1:" + c.port, ...c.credential });
    const result = await client[c.call.method](c.call.path, { params: c.call.params, ...(c.call.body === undefined ? {} : { body: c.call.body }) });
    expect(result).toMatchContract(c.alias, c.call.operationId, c.call.status);
  });
}

test("the installed package runs the sandbox: its control API document is served, state is kept", async () => {
  const { startMock, sandboxControl } = await import("bank-api-contracts/testing");
  const sandbox = await startMock("pay@1.3.0", { sandbox: true });
  try {
    const document = await fetch(sandbox.url + "/_sandbox/openapi.yaml");
    expect(document.status).toBe(200);
    expect(await document.text()).toContain("openapi: 3.1");
    const headers = { authorization: "Bearer installed", "content-type": "application/json" };
    const created = await fetch(sandbox.url + "/v1/invoice", { method: "POST", headers, body: JSON.stringify({ amount: { cur: "IDR", amt: "1000" } }) });
    const { invoice_id } = await created.json();
    expect((await sandboxControl(sandbox.url, "installed").record("invoice", invoice_id)).status).toBe("Created");
  } finally {
    await sandbox.close();
  }
});

test("the installed mock judges a body over 256 KB in its worker thread (the compiled worker module loads)", async () => {
  const { startMock } = await import("bank-api-contracts/testing");
  const mock = await startMock("pay@1.3.0", { port: 0 });
  try {
    // An array where the operation takes an object: invalid at its first value, validated no further.
    const body = JSON.stringify(Array.from({ length: 100_000 }, () => 1234));
    const answer = await fetch(mock.url + "/v1/invoice", {
      method: "POST",
      headers: { authorization: "Bearer installed", "content-type": "application/json" },
      body,
    });
    const text = (answer.headers.get("sl-violations") ?? "") + (await answer.text());
    expect(answer.status).toBe(400); // pay@1.3.0's declared answer to a bad request
    expect(text).toContain("validation-stopped");
  } finally {
    await mock.close();
  }
});

test("the mock stops on SIGTERM and exits 0", async () => {
  const exit = new Promise((resolve) => mock.on("exit", resolve));
  mock.kill("SIGTERM");
  expect(await exit).toBe(0);
  expect(output).toContain("SIGTERM: stopping the mocks");
});
`,
  );
}

describe.concurrent("the tarball", () => {
  it("holds the build, the bundled specs, the changelogs and the registry, and no sources or tests", () => {
    const files = packed.files.map((f) => f.path);
    for (const entry of registry) {
      for (const file of ["client.js", "client.d.ts", "schema.d.ts"]) expect(files).toContain(`dist/${entry.generatedDir}/${file}`);
      expect(files).toContain(`${entry.generatedDir}/openapi.yaml`);
      expect(files).toContain(`specs/${entry.service}/CHANGELOG.md`);
      // The sandbox's declaration of the API's behaviour: read at run time by `mock --sandbox`.
      expect(files).toContain(`specs/${entry.service}/${entry.release}/sandbox.yaml`);
    }
    for (const file of [
      "package.json",
      "README.md",
      "redocly.yaml",
      "dist/src/cli/bin.js",
      "dist/src/testing/index.js",
      "dist/src/client/index.d.ts",
      "src/sandbox/openapi.yaml",
    ]) {
      expect(files).toContain(file);
    }
    const shipped = (f: string) =>
      /^specs\/[^/]+\/CHANGELOG\.md$/.test(f) || /^specs\/[^/]+\/[^/]+\/sandbox\.yaml$/.test(f) || f === "src/sandbox/openapi.yaml";
    expect(
      files.filter((f) => !shipped(f) && (/^(src|scripts|tests|specs|spectral)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)))),
    ).toEqual([]);
  });

  it(
    "passes publint, warnings and suggestions included",
    async () => {
      const result = await exec(bin("publint"), ["run", tarball, "--strict", "--level", "suggestion"], work);
      expect(result.stdout + result.stderr).toContain("All good!");
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  it(
    "has types that resolve for ESM consumers on every entry (are-the-types-wrong)",
    async () => {
      const specs = Object.keys(manifest.exports).filter((subpath) => subpath.endsWith(".yaml"));
      const result = await exec(
        bin("attw"),
        [tarball, "--profile", "esm-only", "--format", "json", "--exclude-entrypoints", ...specs],
        work,
      );
      const report = JSON.parse(result.stdout) as {
        analysis: {
          entrypoints: Record<string, { resolutions: Record<string, { resolution?: { isTypeScript: boolean; fileName: string } }> }>;
        };
        problems: Record<string, Array<{ resolutionKind?: string; entrypoint?: string }>>;
      };
      // esm-only: ESM consumers (node16/nodenext from ESM, bundlers); `require` is covered by require(esm) on the Node versions in engines.
      const problems = Object.values(report.problems)
        .flat()
        .filter((p) => !["node10", "node16-cjs"].includes(p.resolutionKind ?? ""));
      expect(problems).toEqual([]);
      const entrypoints = Object.keys(manifest.exports).filter((s) => !s.endsWith(".yaml") && s !== "./package.json");
      for (const subpath of entrypoints) {
        for (const kind of ["node16-esm", "bundler"]) {
          expect(report.analysis.entrypoints[subpath]?.resolutions[kind]?.resolution?.isTypeScript, `${subpath} (${kind})`).toBe(true);
        }
      }
      expect(result.code).toBe(0);
    },
    SLOW,
  );
});

describe.concurrent("installed without the test tools (client only)", () => {
  it("gets the package and its three dependencies, and none of Prism, Ajv or Redocly", () => {
    const names = installed(join(clientOnly, "node_modules"));
    expect(names).toEqual(expect.arrayContaining(["bank-api-contracts", "commander", "openapi-fetch", "yaml"]));
    expect(names.filter((n) => /^@stoplight\/|^ajv|^@redocly\/|^pino$/.test(n))).toEqual([]);
    expect(names.length).toBeLessThanOrEqual(6);
  });

  it(
    "imports every client (and the runtime) from its subpath",
    async () => {
      const checks = cases.map(
        (c) =>
          `if (typeof (await import(${JSON.stringify(c.subpath)})).create${c.names.versioned}Client !== "function") throw new Error(${JSON.stringify(c.subpath)});`,
      );
      writeFileSync(
        join(clientOnly, "check.mjs"),
        [
          ...checks,
          `const { unwrap, ApiError } = await import("bank-api-contracts");`,
          `console.log(typeof unwrap, typeof ApiError);`,
        ].join("\n"),
      );
      const result = await exec(process.execPath, ["check.mjs"], clientOnly);
      expect(result.stderr).toBe("");
      expect(result.stdout.trim()).toBe("function function");
    },
    SLOW,
  );

  it(
    "can be require()d from CommonJS (require of ES modules, on the Node versions in engines)",
    async () => {
      const [c] = cases;
      const script = `const m = require(${JSON.stringify(c.subpath)}); const { ApiError } = require("bank-api-contracts"); console.log(typeof m.create${c.names.versioned}Client, typeof ApiError);`;
      const result = await exec(process.execPath, ["-e", script], clientOnly);
      expect(result.stdout.trim()).toBe("function function");
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  it(
    "runs `list`; `mock` and `validate` exit 1 naming the optional peers to install",
    async () => {
      const cli = join(clientOnly, "node_modules/.bin/bank-api-contracts");
      writeFileSync(join(clientOnly, "body.json"), "{}");
      const [list, mock, validate] = await Promise.all([
        exec(cli, ["list"], clientOnly),
        exec(cli, ["mock", registry[0].alias, "--port-base", String(mockPortBase)], clientOnly),
        exec(cli, ["validate", registry[0].alias, "body.json", "--operation", cases[0].call.operationId, "--status", "200"], clientOnly),
      ]);
      expect(list.code).toBe(0);
      for (const entry of registry) expect(list.stdout).toContain(entry.alias);
      expect(mock.stderr).toContain(`npm install --save-dev @stoplight/prism-http@${manifest.peerDependencies["@stoplight/prism-http"]}`);
      expect(mock.code).toBe(1);
      expect(validate.stderr).toContain("needs ajv, ajv-formats");
      expect(validate.code).toBe(1);
    },
    SLOW,
  );
});

describe.concurrent("installed with the test tools", () => {
  it(
    "type-checks every TypeScript block of the README and every API's client, each with a wrong call marked @ts-expect-error",
    async () => {
      const result = await exec(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], full);
      measured.typecheckMs = result.ms;
      expect(result.stdout + result.stderr).toBe("");
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  it(
    "compiles under @tsconfig/strictest: every API's client, unwrap and the README's and quick start's blocks, the package's declarations included",
    async () => {
      // The settings are strictest's own: exactOptionalPropertyTypes among them.
      const settings = JSON.parse(readFileSync(join(full, "node_modules/@tsconfig/strictest/tsconfig.json"), "utf8"));
      expect(settings.compilerOptions).toMatchObject({ exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, strict: true });
      // README's blocks are among the files (its quick start's `unwrap` calls).
      expect(strictestFiles.length).toBeGreaterThan(2);
      const result = await exec(
        process.execPath,
        [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.strictest.json", "--listFilesOnly"],
        full,
      );
      const listed = result.stdout.split("\n");
      expect(listed.some((file) => /bank-api-contracts\/dist\/src\/client\/errors\.d\.ts$/.test(file))).toBe(true);
      const checked = await exec(
        process.execPath,
        [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.strictest.json"],
        full,
      );
      expect(checked.stdout + checked.stderr).toBe("");
      expect(checked.code).toBe(0);
    },
    SLOW,
  );

  it(
    "runs every TypeScript block of the README against mocks on free ports, and the CLI's mock called through every client and checked with toMatchContract",
    async () => {
      const result = await exec(
        process.execPath,
        [
          join(full, "node_modules/vitest/vitest.mjs"),
          "run",
          "--root",
          full,
          "--reporter",
          "json",
          "--outputFile",
          "vitest.json",
          "--testTimeout",
          "60000",
          "--hookTimeout",
          "120000",
        ],
        full,
      );
      measured.vitestMs = result.ms;
      const report = existsSync(join(full, "vitest.json")) ? JSON.parse(readFileSync(join(full, "vitest.json"), "utf8")) : undefined;
      expect(report, result.stdout + result.stderr).toBeDefined();
      const tests = report.testResults.flatMap(
        (file: { name: string; assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }) =>
          file.assertionResults.map((t) => ({
            file: file.name.slice(full.length + 1),
            name: t.fullName,
            status: t.status,
            failure: t.failureMessages.join("\n"),
          })),
      );
      expect(tests.filter((t: { status: string }) => t.status !== "passed")).toEqual([]);
      // The docs' blocks: each vitest example's tests ran (at least one each), and each other block ran to its end.
      const vitestBlocks = readmeFiles.filter((file) => file.endsWith(".test.ts"));
      expect(vitestBlocks.length).toBeGreaterThan(0);
      for (const file of vitestBlocks) expect(tests.filter((t: { file: string }) => t.file === file).length, file).toBeGreaterThan(0);
      expect(tests.filter((t: { file: string }) => t.file === "readme-blocks.test.mjs")).toHaveLength(README_BLOCKS - vitestBlocks.length);
      expect(tests.filter((t: { file: string }) => t.file === "cli-mock.test.mjs")).toHaveLength(registry.length + 3);
      expect(result.code).toBe(0);
    },
    SLOW,
  );
});
