// Node's on-disk cache of compiled JavaScript (`module.enableCompileCache`, Node ≥ 22.1; OpenClaw's own
// engines are Node ≥ 24): the code of every module loaded after this call is compiled from the cache instead
// of from source. The service chunk alone is ~730 KB; on Node 24.22 a `cost --json` of a small session took
// 119 → 103 ms (8 alternating runs). On Node 20 the function does not exist and nothing happens.
// The cache lives in clawscope's cache dir (never in the state dir: refused there like every cache), is
// keyed by Node on the source text and its version, and is safe to delete; `--no-cache` skips it.

import module from "node:module";
import path from "node:path";
import { isInsideReal } from "../sources/fs-safety.ts";

type EnableCompileCache = (dir: string) => unknown;

function enabler(m: unknown): EnableCompileCache | null {
  // node:module's default export is the Module class: a function with the API as static members
  if ((typeof m !== "object" && typeof m !== "function") || m === null || !("enableCompileCache" in m))
    return null;
  const f: unknown = m.enableCompileCache;
  return typeof f === "function" ? (dir) => f.call(m, dir) : null;
}

/** Compile what is imported from now on through the cache under `cacheDir` (null: no cache). */
export function enableCompileCache(cacheDir: string | null, stateDir: string): void {
  const enable = enabler(module);
  if (!enable || cacheDir === null || isInsideReal(path.resolve(cacheDir), stateDir)) return;
  try {
    enable(path.join(cacheDir, "v8-compile"));
  } catch {
    // an unwritable cache dir only costs the compile time it would have saved
  }
}
