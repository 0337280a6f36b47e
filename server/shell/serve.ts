// `clawscope serve`: starts the Hono app on 127.0.0.1 (by default) and optionally opens a browser.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { serve } from "@hono/node-server";
import { isLoopbackName } from "../../shared/loopback.ts";
import { createApp } from "../http/app.ts";
import { createStaticHandler } from "../http/static-files.ts";
import { DIST_WEB_DIR } from "../package-root.ts";
import { prepareZstd } from "../sources/sqlite/zstd-decoders.ts";
import type { ServeOptions } from "./config.ts";
import { guardProcess } from "./crash-guard.ts";
import type { Runtime } from "./runtime.ts";

/** The port the server listens on: the one asked for, or (`--port 0`) the one the system chose, once known. */
class ListeningAddress {
  port: number | null;
  constructor(asked: number) {
    this.port = asked === 0 ? null : asked;
  }
}

/** `--allow-remote`: said loudly, with the address really bound (issue 20). */
function remoteWarning(shownHost: string, port: number, wildcard: boolean): string {
  const where = wildcard ? "every network interface" : "a network address";
  const bar = "!".repeat(78);
  return [
    bar,
    `clawscope: WARNING: listening on ${shownHost}:${port} — ${where} (--allow-remote).`,
    "clawscope: there is no login: anyone who can reach this address can read every OpenClaw session in this",
    "clawscope: state dir. The Host check only stops DNS rebinding; it is not access control.",
    bar,
    "",
  ].join("\n");
}

function openBrowser(url: string): void {
  const cmd = process.platform === "darwin" ? "open" : process.platform === "win32" ? "cmd" : "xdg-open";
  const args = process.platform === "win32" ? ["/c", "start", "", url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true });
    child.on("error", () => process.stderr.write(`clawscope: open ${url} in your browser\n`));
    child.unref();
  } catch {
    process.stderr.write(`clawscope: open ${url} in your browser\n`);
  }
}

export async function startServer(rt: Runtime, opts: ServeOptions): Promise<void> {
  const { host, port } = opts;
  guardProcess();
  // The SPA is prebuilt (`npm run build`, `prepack`; `npm start` in a clone rebuilds what is stale): serving
  // never builds, so an installed package needs no dev dependency and a test's server never empties dist/web.
  if (!existsSync(path.join(DIST_WEB_DIR, "index.html"))) {
    process.stderr.write(
      `clawscope: the web app is not built (${DIST_WEB_DIR} has no index.html): run \`npm run build\`, or \`npm start\` in a clone\n`,
    );
  }
  const listening = new ListeningAddress(port);
  const app = createApp({
    service: rt.service,
    boundHost: host,
    port: port === 0 ? null : port,
    boundPort: () => listening.port,
    staticHandler: createStaticHandler(DIST_WEB_DIR),
  });
  const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
    listening.port = info.port;
    const shownHost = host.includes(":") ? `[${host}]` : host;
    const wildcard = host === "0.0.0.0" || host === "::";
    const url = `http://${wildcard ? "127.0.0.1" : shownHost}:${info.port}/`;
    if (opts.allowRemote && !isLoopbackName(host))
      process.stderr.write(remoteWarning(shownHost, info.port, wildcard));
    process.stderr.write(
      `clawscope: serving ${rt.state.demo ? "the DEMO state dir" : rt.state.stateDir} at ${url}\n`,
    );
    // Machine-readable line for scripts/tests that start the server on port 0.
    process.stdout.write(`listening ${url}\n`);
    if (opts.open ?? process.stdout.isTTY) openBrowser(url);
  });
  server.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE") {
      process.stderr.write(
        `clawscope: port ${port} on ${host} is in use; pick another with --port N (or --port 0)\n`,
      );
      process.exit(1);
    }
    throw err;
  });
  // A long-lived server may see its first SQLite store appear later (an OpenClaw upgrade while it runs): the
  // WebAssembly zstd decoder is ready for it anyway (~5 ms once; prepareRuntime covered a dir that has one now).
  void prepareZstd();
  // Live updates are a convenience: a state dir the watcher cannot take in says so and is still served.
  try {
    rt.service.startWatching();
  } catch (e) {
    process.stderr.write(`clawscope: live updates are off: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  const stop = () => {
    rt.service.close();
    server.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
