// `npx clawscope` as a user gets it (issue 17): `npm pack` the repo, install the tarball with
// `npm install --omit=dev` into an empty project with an empty HOME, then run the installed bin — `--version`,
// `sessions --json` (no state dir in HOME: the bundled demo), `serve --port 0 --no-open` and the map in Chromium.
// No network: npm runs `--offline` on the cache `npm ci` filled. That cache holds tarballs but no packuments, so
// the project gets a lock made from the repo's own (test/helpers/pack-lock.ts). Install scripts are skipped
// (`--ignore-scripts`): without network better-sqlite3's would compile SQLite for minutes; the test first runs
// the CLI WITHOUT the native addon (what a user sees when neither a prebuilt binary nor a toolchain is there),
// then copies in the addon `npm ci` already built for this Node ABI and platform.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIfNeeded } from "../../server/shell/build-if-needed.ts";
import { isObject, type JsonObject } from "../../shared/json.ts";
import { writePackLock } from "../helpers/pack-lock.ts";
import {
  chromiumAvailable,
  launchBrowser,
  REPO,
  type RunningServer,
  screenshot,
  startServer,
} from "./harness.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clawscope-pack-"));
const HOME = path.join(tmp, "home");
const PROJECT = path.join(tmp, "project");
const INSTALLED = path.join(PROJECT, "node_modules", "clawscope");
const BIN = path.join(PROJECT, "node_modules", ".bin", "clawscope");
const ADDON = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
const SETUP_MS = 600_000;

/** The environment of a user with nothing configured: an empty HOME, no OpenClaw variables, no CI flag. */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(OPENCLAW_|CLAWDBOT_|CLAWSCOPE_|npm_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, HOME, XDG_CACHE_HOME: path.join(HOME, ".cache") };
}

function run(args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: PROJECT,
    env: userEnv(),
    encoding: "utf8",
    timeout: 60_000,
  });
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let manifest: JsonObject = {};

beforeAll(() => {
  // The tarball holds the build (`prepack` = `npm run build`); `npm test` has just built, so this is a no-op there
  // and rebuilds only what is stale in a focused run. Packed with --ignore-scripts not to build twice.
  buildIfNeeded(REPO);
  const cache = npm(["config", "get", "cache"], REPO).trim();
  fs.mkdirSync(HOME);
  fs.mkdirSync(PROJECT);
  const name = npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", tmp], REPO).trim();
  const tarball = path.join(tmp, name);
  const parsed: unknown = JSON.parse(
    execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }),
  );
  if (!isObject(parsed)) throw new Error("the tarball's package.json is not an object");
  manifest = parsed;
  const registry = npm(["config", "get", "registry"], REPO).trim();
  writePackLock({
    repoLock: path.join(REPO, "package-lock.json"),
    tarball,
    manifest,
    projectDir: PROJECT,
    registry,
  });
  const flags = [
    "--offline",
    "--omit=dev",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--no-update-notifier",
  ];
  execFileSync("npm", ["install", ...flags, "--cache", cache, "--logs-dir", path.join(tmp, "npm-logs")], {
    cwd: PROJECT,
    env: { ...userEnv(), npm_config_cache: cache },
    stdio: ["ignore", "pipe", "pipe"],
  });
}, SETUP_MS);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the packed package, installed with npm install --omit=dev", () => {
  it("ships what runs: the compiled server, the built web app, the demo state, README, LICENSE — no sources, no tests", () => {
    expect(manifest.bin).toEqual({ clawscope: "dist/server/main.js" });
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const d of fs.readdirSync(path.join(INSTALLED, dir), { withFileTypes: true })) {
        const rel = path.posix.join(dir, d.name);
        if (d.isDirectory()) walk(rel);
        else files.push(rel);
      }
    };
    walk(".");
    expect(files).toContain("dist/server/main.js");
    expect(files).toContain("dist/web/index.html");
    expect(files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json"]));
    expect(files.filter((f) => /\.(ts|tsx)$/.test(f))).toEqual([]);
    const tops = new Set(
      files.map((f) =>
        f
          .split("/")
          .slice(0, f.startsWith("server/") ? 3 : 2)
          .join("/"),
      ),
    );
    expect([...tops].sort()).toEqual([
      "LICENSE",
      "README.md",
      "dist/server",
      "dist/web",
      "package.json",
      "server/demo/README.md",
      "server/demo/state",
    ]);
    expect(fs.readFileSync(path.join(INSTALLED, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    // No dev dependency came along: nothing at run time may need one.
    for (const dev of ["vite", "tsx", "typescript", "vitest", "react"])
      expect(fs.existsSync(path.join(PROJECT, "node_modules", dev)), dev).toBe(false);
  });

  it("without better-sqlite3's native addon: a clear message per SQLite store, the JSONL session still listed", () => {
    expect(fs.existsSync(path.join(PROJECT, ADDON))).toBe(false);
    const r = run(["sessions", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const rows: unknown = JSON.parse(r.stdout);
    expect(rows).toEqual([expect.objectContaining({ agentId: "legacy", storage: "jsonl" })]);
    expect(r.stderr).toContain("better-sqlite3's native module cannot load");
    expect(r.stderr).toContain("python3, make and a C/C++ compiler");
  });

  describe("with the addon npm ci built here", () => {
    let server: RunningServer | null = null;
    beforeAll(async () => {
      fs.mkdirSync(path.dirname(path.join(PROJECT, ADDON)), { recursive: true });
      fs.copyFileSync(path.join(REPO, ADDON), path.join(PROJECT, ADDON));
      server = await startServer([], userEnv(), { file: BIN, cwd: PROJECT });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("clawscope --version prints the package's version", () => {
      const r = run(["--version"]);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(manifest.version);
    });

    it("clawscope sessions --json lists the bundled demo (an empty HOME has no state dir)", () => {
      const r = run(["sessions", "--json"]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(path.join(INSTALLED, "server", "demo", "state"));
      const rows: unknown = JSON.parse(r.stdout);
      expect(rows).toEqual([
        expect.objectContaining({ agentId: "legacy", storage: "jsonl" }),
        expect.objectContaining({ agentId: "main", storage: "sqlite" }),
        expect.objectContaining({ agentId: "research", storage: "sqlite" }),
      ]);
    });

    it("clawscope serve --port 0 --no-open serves the dashboard: the map renders in Chromium", async () => {
      expect(chromiumAvailable()).toBe(true);
      if (!server) throw new Error("server not started");
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        await page.goto(`${server.url}sessions/main/bc255ab3-b341-464a-a811-4d1115e16ed8`);
        await page.locator('[data-testid="treemap-leaf"]').first().waitFor({ timeout: 30_000 });
        expect(await page.locator('[data-testid="treemap-leaf"]').count()).toBeGreaterThan(10);
        await screenshot(page, "pack-install-map");
      } finally {
        await browser.close();
      }
    });
  });
});
