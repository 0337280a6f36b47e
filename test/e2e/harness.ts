// Shared e2e harness: starts the real server (built SPA in dist/web) as a child process on a free port,
// launches Debian's headless Chromium through playwright-core, and keeps screenshots as test artifacts.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, "..", "..");
export const ARTIFACTS = path.join(REPO, "test-results", "e2e");
export const FIXTURES = path.join(REPO, "test", "fixtures");
export const SHARED_FIXTURES = path.resolve(REPO, "..", "shared", "fixtures");

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM) && existsSync(path.join(REPO, "dist", "web", "index.html"));
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Which clawscope to start: the sources through tsx (default), or e.g. an installed package's bin. */
export interface ServerEntry {
  file: string;
  cwd: string;
}
const SOURCES: ServerEntry = { file: path.join(REPO, "server", "bin.mjs"), cwd: REPO };

/** Start `clawscope serve` on port 0 and wait for its `listening <url>` line (no fixed sleeps). */
export function startServer(
  args: string[],
  env: Record<string, string> = {},
  entry: ServerEntry = SOURCES,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry.file, "serve", "--port", "0", "--no-open", ...args], {
      cwd: entry.cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`server did not start in 60 s\n${stderr}`));
    }, 60_000);
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.stdout?.on("data", (d: Buffer) => {
      buffered += d.toString();
      const m = /listening (\S+)/.exec(buffered);
      if (m?.[1]) {
        clearTimeout(timer);
        const url = m[1];
        resolve({
          url,
          child,
          stderr: () => stderr,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}\n${stderr}`));
    });
  });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The server and browser of one describe block (set by withE2eServer's beforeAll). */
export interface E2eSetup {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * The one e2e scaffolding: inside a describe block, starts `clawscope serve … args` and Chromium before its
 * tests and stops both after them (and runs `cleanup`, e.g. removing a temp state dir). `args` may be a
 * function, run in the beforeAll (to build a state dir first). A missing Chromium or app build fails loudly.
 */
export function withE2eServer(
  args: string[] | (() => string[]),
  opts: { cleanup?: () => void; timeoutMs?: number } = {},
): E2eSetup {
  let server: RunningServer | null = null;
  let browser: Browser | null = null;
  beforeAll(async () => {
    if (!chromiumAvailable()) {
      throw new Error(
        "e2e needs /usr/bin/chromium (apt-get install -y chromium) and a built app (npm run build → dist/web)",
      );
    }
    server = await startServer(typeof args === "function" ? args() : args);
    browser = await launchBrowser();
  }, opts.timeoutMs);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    opts.cleanup?.();
  });
  return {
    get server(): RunningServer {
      if (!server) throw new Error("the e2e server is not started (used outside a test?)");
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error("the e2e browser is not launched (used outside a test?)");
      return browser;
    },
  };
}
