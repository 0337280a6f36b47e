// Browser time-to-content rows of `npm run bench` (issue 18, "every tab shows content ≤ 1 s after navigation with
// a warm server"): the built server on the generated session, Debian's headless Chromium through playwright-core
// (a dev dependency: the bench runs from a checkout), each tab navigated to afresh — a new document, so no query
// cache survives — and timed from `goto` until its content is visible. Anchor in the same loop: the same
// navigation until the SPA shell (the session title) is visible, which every tab pays before its own data.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT } from "../package-root.ts";
import type { WrittenSession } from "./generate-session.ts";
import { add, log, median, ms } from "./measure.ts";

/** Each tab's content: the element a user waits for (the e2e suite's ready selectors). */
const TABS: readonly (readonly [tab: string, ready: string])[] = [
  ["map", '[data-testid="treemap-leaf"]'],
  ["context", '[data-testid="report-summary"]'],
  ["truncation", '[data-testid^="truncation-row-"]'],
  ["pruning", '[data-testid="prune-timeline"]'],
  ["cost", '[data-testid^="cost-call-row-"]'],
];
const SHELL = '[data-testid="session-title"]';
const LIMIT_MS = 1000;

class ServerProcess {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {}

  /** `clawscope serve --port 0` of the build; resolves on its `listening <url>` line. */
  static start(stateDir: string, env: Readonly<Record<string, string | undefined>>): Promise<ServerProcess> {
    const main = path.join(PACKAGE_ROOT, "dist", "server", "main.js");
    const args = [main, "serve", "--port", "0", "--no-open", "--state-dir", stateDir];
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    return new Promise((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /listening (\S+)/.exec(out);
        if (m?.[1]) resolve(new ServerProcess(m[1], child));
      });
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
  }

  stop(): void {
    this.child.kill("SIGTERM");
  }
}

export async function benchBrowser(
  s: WrittenSession,
  runs: number,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const chromiumPath = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromiumPath) || !existsSync(path.join(PACKAGE_ROOT, "dist", "web", "index.html"))) {
    log(`browser rows skipped: no Chromium at ${chromiumPath} or no built SPA (dist/web)`);
    return;
  }
  const { chromium } = await import("playwright-core");
  const server = await ServerProcess.start(s.stateDir, env);
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const at = (tab: string) =>
      `${server.url}sessions/${s.agentId}/${encodeURIComponent(s.sessionId)}?tab=${tab}`;
    const visit = async (tab: string, ready: string): Promise<{ shell: number; content: number }> => {
      await page.goto("about:blank");
      const t = performance.now();
      await page.goto(at(tab));
      await page.waitForSelector(SHELL, { state: "visible", timeout: 120_000 });
      const shell = performance.now() - t;
      await page.waitForSelector(ready, { state: "visible", timeout: 120_000 });
      return { shell, content: performance.now() - t };
    };
    log("browser: warming the server (every tab once)…");
    for (const [tab, ready] of TABS) await visit(tab, ready);
    const times = new Map<string, { shell: number[]; content: number[] }>();
    for (const [tab] of TABS) times.set(tab, { shell: [], content: [] });
    for (let i = 0; i < runs; i++)
      for (const [tab, ready] of TABS) {
        const r = await visit(tab, ready);
        times.get(tab)?.shell.push(r.shell);
        times.get(tab)?.content.push(r.content);
      }
    const size = `${s.stats.messages.toLocaleString("en")} messages (${(s.stats.bytes / 1024 ** 2).toFixed(0)} MB)`;
    for (const [tab, t] of times) {
      const content = median(t.content);
      const shell = median(t.shell);
      add({
        operation: `browser: \`${tab}\` tab, navigation → content visible (warm server, headless Chromium)`,
        size,
        median: ms(content),
        baseline: `SPA shell visible ${ms(shell)}`,
        ratio: `${(content / shell).toFixed(1)}×`,
        target: "≤ 1 s",
        verdict: content <= LIMIT_MS ? "met" : "MISSED",
      });
    }
  } finally {
    await browser.close();
    server.stop();
  }
}
