// `npm start` builds the SPA when dist/web is missing or older than the web sources, so a fresh clone
// needs only `npm install` + `npm start`.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(p) : st.mtimeMs);
  }
  return newest;
}

export function buildWebIfNeeded(repoRoot: string, distIndex: string): void {
  const webDir = path.join(repoRoot, "web");
  if (!existsSync(webDir)) return; // installed package: dist is prebuilt
  const stale =
    !existsSync(distIndex) ||
    newestMtime(webDir) > statSync(distIndex).mtimeMs ||
    newestMtime(path.join(repoRoot, "shared")) > statSync(distIndex).mtimeMs;
  if (!stale) return;
  process.stderr.write("clawscope: building the web app (vite build)…\n");
  const vite = path.join(repoRoot, "node_modules", "vite", "bin", "vite.js");
  const r = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: repoRoot,
    stdio: ["ignore", 2, 2],
  });
  if (r.status !== 0) throw new Error("vite build failed");
}
