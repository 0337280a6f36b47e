// The state dirs of a tree of fixtures: every folder holding an `agents/` dir (the folder itself counts).

import fs from "node:fs";
import path from "node:path";

/** Every folder holding an `agents/` dir, up to `depth` levels below `root`, sorted; [] when `root` is absent. */
export function stateDirs(root: string, depth = 3): string[] {
  if (!fs.existsSync(root)) return [];
  if (fs.existsSync(path.join(root, "agents"))) return [root];
  if (depth === 0) return [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => stateDirs(path.join(root, d.name), depth - 1))
    .sort();
}

/** Copy `src` into the new dir `dir` and make every copy writable (bundled files may be read-only). */
export function writableCopy(src: string, dir: string): string {
  fs.cpSync(src, dir, { recursive: true });
  const chmod = (p: string) => {
    const st = fs.statSync(p);
    fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) chmod(path.join(p, n));
  };
  chmod(dir);
  return dir;
}
