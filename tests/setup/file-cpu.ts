/**
 * Each test file's CPU time, when `TEST_CPU_REPORT=<file>` is set (vitest.config.ts runs this before
 * every test file of every project; without the variable it does nothing): one JSON line per test
 * file appended to <file>, `{file, pid, self, children, wall}`, seconds from the moment this runs
 * (before the file's imports) to the end of its last test. `self` is the worker's own CPU (user +
 * system; a worker runs one file at a time, so it is that file's, including the first load of the
 * modules it shares with later files), `children` the CPU of the processes it started and waited
 * for (a CLI, npm, tsc, a server it stopped), from Linux's /proc/self/stat. A browser or server
 * started by a global setup is in no file's line.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll } from "vitest";

const report = process.env.TEST_CPU_REPORT;
/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

function now() {
  const own = process.cpuUsage();
  const stat = readFileSync("/proc/self/stat", "utf8");
  // After the command's name in parentheses: field 3 (state) onwards; cutime and cstime are fields 16 and 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    self: (own.user + own.system) / 1e6,
    children: (Number(fields[13]) + Number(fields[14])) / TICKS,
    wall: performance.now() / 1000,
  };
}

if (report) {
  const start = now();
  // biome-ignore lint/correctness/noEmptyPattern: vitest passes the suite as the hook's second argument only
  afterAll(({}, suite) => {
    const end = now();
    const seconds = (key: keyof typeof end) => Number((end[key] - start[key]).toFixed(2));
    const line = {
      file: suite.file.filepath,
      pid: process.pid,
      self: seconds("self"),
      children: seconds("children"),
      wall: seconds("wall"),
    };
    appendFileSync(report, `${JSON.stringify(line)}\n`);
  });
}
