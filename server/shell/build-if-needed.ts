// `npm start` and `npm run bench` in a clone run this first (through tsx): it rebuilds each half of the build
// — the SPA (dist/web) and the compiled server + CLI (dist/server) — whose output is missing or older than
// one of its inputs, so a fresh clone needs only `npm install` + `npm start` and an edit shows on the next
// start. An installed package never runs it: it ships its build (`prepack`), and serving never builds.
//
// "Older" compares modification times: the newest file OR directory under the inputs (a directory's mtime
// changes when a file in it is added, deleted or renamed) against the output file.

import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../package-root.ts";

export interface BuildStep {
  name: string;
  /** The file whose mtime stands for the whole output. */
  output: string;
  /** Files and folders (relative to the package root) the output is built from. */
  inputs: readonly string[];
  /** `vite …` arguments. */
  viteArgs: readonly string[];
}

/** Dependency changes (`npm install`) rebuild both halves too. */
const PACKAGE_FILES = ["package.json", "package-lock.json", "tsconfig.json"];

/** The two halves of `npm run build`, in its order (package.json `build`). */
export const BUILD_STEPS: readonly BuildStep[] = [
  {
    name: "web app",
    output: "dist/web/index.html",
    inputs: ["web", "shared", "vite.config.ts", ...PACKAGE_FILES],
    viteArgs: ["build", "--logLevel", "warn"],
  },
  {
    name: "server + CLI",
    output: "dist/server/main.js",
    inputs: ["server", "shared", "vite.server.config.ts", ...PACKAGE_FILES],
    viteArgs: ["build", "--config", "vite.server.config.ts"],
  },
];

/** Data shipped as it is, never built: its files do not make the build stale. */
const NOT_INPUTS = new Set(["server/demo/state"]);

function mtimeOrNull(p: string): number | null {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return null;
  }
}

/** Newest mtime of `rel` and everything below it (0 when it does not exist). */
function newestMtime(root: string, rel: string): number {
  if (NOT_INPUTS.has(rel)) return 0;
  const abs = path.join(root, rel);
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(abs);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(abs))
    newest = Math.max(newest, newestMtime(root, path.posix.join(rel, name)));
  return newest;
}

/** The steps whose output is missing or older than one of its inputs. */
export function staleSteps(root: string, steps: readonly BuildStep[] = BUILD_STEPS): BuildStep[] {
  return steps.filter((step) => {
    const built = mtimeOrNull(path.join(root, step.output));
    return built === null || step.inputs.some((input) => newestMtime(root, input) > built);
  });
}

/** Rebuild the stale steps with the clone's vite; throws when a build fails. */
export function buildIfNeeded(root: string = PACKAGE_ROOT): void {
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  for (const step of staleSteps(root)) {
    process.stderr.write(`clawscope: building the ${step.name} (vite ${step.viteArgs.join(" ")})…\n`);
    const r = spawnSync(process.execPath, [vite, ...step.viteArgs], { cwd: root, stdio: ["ignore", 2, 2] });
    if (r.status !== 0) throw new Error(`building the ${step.name} failed (vite exit ${r.status})`);
  }
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  try {
    buildIfNeeded();
  } catch (e) {
    process.stderr.write(`clawscope: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}
