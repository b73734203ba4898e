// Starts a predmarket-server process for a test file (node and e2e alike)
// and resolves once it says where it listens. One copy, because each test
// file that needed a server of its own (a proxy, a recorder, a silent
// stream) had grown its own: the server's "listening on URL" line is the
// one thing they all wait for, and a server that dies before it must fail
// the test at once, not after the ceiling.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * Spawns `bin` with `--addr 127.0.0.1:0` and `args`.
 *
 * @param {string} bin the predmarket-server binary
 * @param {string[]} args its arguments after the address
 * @param {{ env?: Record<string, string>, onLine?: (line: string) => void, ceilingMs?: number, what?: string }} [options]
 *   `env` is added to this process's environment; `onLine` sees every
 *   line the server writes to stderr after the listening line (its logs);
 *   `what` names the server in errors.
 * @returns {Promise<{ url: string, child: import("node:child_process").ChildProcess }>}
 */
export function startServer(bin, args, { env = {}, onLine, ceilingMs = 60_000, what = "the server" } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--addr", "127.0.0.1:0", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...env },
    });
    let url = null;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${what} did not start within ${ceilingMs / 1000} s`));
    }, ceilingMs);
    createInterface({ input: child.stderr }).on("line", (line) => {
      if (url !== null) {
        onLine?.(line);
        return;
      }
      // `… listening on http://127.0.0.1:PORT` (the proxy adds
      // `, upstream …`).
      const at = /listening on (http:\/\/[^\s,]+)/.exec(line)?.[1];
      if (at) {
        url = at;
        clearTimeout(timer);
        resolve({ url, child });
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      if (url !== null) return;
      clearTimeout(timer);
      reject(new Error(`${what} exited before listening (${signal ?? `exit code ${code}`})`));
    });
  });
}
