/**
 * The bench's hosted part (`npm run bench -- --only hosted`, section 1c of bench/RESULTS.md): hosted
 * mode's CPU cost per request beside the local sandbox's, on the same requests, as a ratio.
 *
 * Two servers, each in its own process (scripts/bench-serve.ts), both started as startMocks starts
 * them: the local sandbox (`mock --sandbox`) and hosted mode (`mock --sandbox --hosted`: every
 * request through the credential gate, the partner's rate counted, its state bounded by its quotas,
 * one JSON log line written, the metrics counted, the connections guarded), the bench's 900
 * credentials issued to partners whose rate never stops them. For each request of SANDBOX_REQUESTS,
 * rounds of the local sandbox then hosted mode, one after the other, under the same load
 * (scripts/bench-sandbox.ts `measureSandboxThroughput`); the server CPU time per request comes from
 * /proc/<pid>/stat. The ratio is hosted mode's CPU per request over the local sandbox's, per round;
 * the load average at the start and the end of the part says how busy the machine was.
 */
import { loadavg } from "node:os";
import { type BundledApi, median, startServer } from "./bench-measure.js";
import { measureSandboxThroughput, type SandboxThroughput, sandboxRequests } from "./bench-sandbox.js";

/** Rounds per request, the two servers alternating (as the sandbox part's). */
const ROUNDS = 10;
const MIN_ROUND_SECONDS = 0.5;

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");

/** Measures SANDBOX_REQUESTS of `apis` (those it holds) on both servers and returns the report's section (Markdown). */
export async function hostedSection({
  apis,
  duration,
  connections,
  log,
}: {
  apis: BundledApi[];
  /** Seconds of measured load per server and request, cut into ROUNDS rounds. */
  duration: number;
  connections: number;
  log: (message: string) => void;
}): Promise<string> {
  const seconds = Math.max(MIN_ROUND_SECONDS, duration / ROUNDS);
  const chosen = sandboxRequests(apis);
  if (chosen.length === 0) return "## 1c. Hosted mode beside the local sandbox\n\nNone of the measured APIs is in the registry run.";
  const aliases = chosen.map((c) => c.api.entry.alias);
  const loadAtStart = loadavg();
  const [local, hosted] = await Promise.all([
    startServer({ type: "start", kind: "sandbox-local", aliases }),
    startServer({ type: "start", kind: "sandbox-hosted", aliases }),
  ]);
  const results: SandboxThroughput[] = [];
  try {
    for (const { api, request } of chosen) {
      const alias = api.entry.alias;
      log(`  ${alias} ${request.operationId} at ${connections} connections`);
      results.push(
        await measureSandboxThroughput(
          {
            static: { url: local.urls[alias], pid: local.pid, call: local.call },
            sandbox: { url: hosted.urls[alias], pid: hosted.pid, call: hosted.call },
          },
          request,
          { connections, seconds, rounds: ROUNDS },
        ),
      );
    }
  } finally {
    await Promise.all([local.stop(), hosted.stop()]);
  }
  const loadAtEnd = loadavg();
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" / ");
  const ratios = results.map((r) => median(r.cpuRatios));
  return [
    "## 1c. Hosted mode beside the local sandbox",
    "",
    "The same requests sent to the local sandbox (`mock --sandbox` on loopback) and to hosted mode (`mock --sandbox",
    "--hosted`: each request through the credential gate, its partner looked up and its rate counted, its state bounded",
    "by the partner's quotas, one JSON log line written (to /dev/null here), the request counted in the metrics, the",
    "connections guarded), each server in its own process, both started as `startMocks` starts them. Each request is",
    "the operation's spec example and carries the next of 900 credentials in turn, each issued to a partner in hosted",
    "mode (at the highest rate and burst a partner can have: counted, never refused). autocannon at",
    `${connections} connections, ${ROUNDS} rounds of the local sandbox then hosted mode, ${seconds} s each (after 1 s on`,
    "each not measured). CPU µs/request: the server process's user + system time (`/proc/<pid>/stat`) over the",
    "requests it answered, median of the rounds; the ratio is hosted mode's over the local sandbox's, per round: the",
    "median and, in brackets, the lowest and highest round. Other threads and GC pauses as in section 1b.",
    "",
    `Load average (1 / 5 / 15 min) at the start of this part: ${load(loadAtStart)}; at its end: ${load(loadAtEnd)}`,
    `(${loadAtStart[0] > 2 || loadAtEnd[0] > 2 ? "a loaded machine: both servers slowed alike, the ratio is the figure to read" : "a quiet machine"}).`,
    "",
    [
      "| API | request | local req/s | hosted req/s | p99 ms local / hosted | CPU µs/request local / hosted | of which other threads local / hosted | GC pauses µs/request local / hosted | hosted CPU of local (rounds) |",
      "|---|---|---|---|---|---|---|---|---|",
      ...results.map(
        (r, i) =>
          `| ${r.alias} | ${r.request} | ${n0(r.staticRps)} | ${n0(r.sandboxRps)} | ${r.staticP99} / ${r.sandboxP99} | ` +
          `${r.staticCpu.toFixed(1)} / ${r.sandboxCpu.toFixed(1)} | ${r.staticOtherCpu.toFixed(1)} / ${r.sandboxOtherCpu.toFixed(1)} | ` +
          `${r.staticGc.toFixed(1)} / ${r.sandboxGc.toFixed(1)} | **${x(ratios[i])}** (${x(Math.min(...r.cpuRatios))}-${x(Math.max(...r.cpuRatios))}) |`,
      ),
    ].join("\n"),
    "",
    `Hosted mode costs ${x(Math.min(...ratios))} to ${x(Math.max(...ratios))} the local sandbox's CPU per request: ` +
      results.map((r) => `${r.alias} ${(r.sandboxCpu - r.staticCpu).toFixed(0)} µs more`).join(", ") +
      ".",
  ].join("\n");
}
