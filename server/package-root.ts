// Where clawscope's own files are: the package root (the folder of the package.json named `clawscope`) and the
// data it ships beside the code — the bundled demo state dir and the built SPA. Found by walking up from this
// module, so the answer is the same from the sources (tsx, tests), from dist/server/ of a build and from an
// installed package (node_modules/clawscope/…): a bundler moves this code into another file and folder, a path
// relative to `import.meta.url` would not survive that.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isObject } from "../shared/json.ts";

const PACKAGE_NAME = "clawscope";

interface PackageRoot {
  dir: string;
  version: string;
}

function readManifest(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  } catch {
    return null;
  }
}

function findPackageRoot(from: string): PackageRoot {
  for (let dir = from; ; ) {
    const manifest = readManifest(dir);
    if (isObject(manifest) && manifest.name === PACKAGE_NAME) {
      return { dir, version: typeof manifest.version === "string" ? manifest.version : "0.0.0" };
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json named "${PACKAGE_NAME}" above ${from}`);
    dir = parent;
  }
}

const root = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of the package (the repo in a clone, `…/node_modules/clawscope` when installed). */
export const PACKAGE_ROOT = root.dir;

/** `version` of clawscope's package.json (`clawscope --version`). */
export const PACKAGE_VERSION = root.version;

/** The bundled demo state dir: real OpenClaw captures (see server/demo/README.md). */
export const DEMO_STATE_DIR = path.join(PACKAGE_ROOT, "server", "demo", "state");

/** The built SPA (`vite build`), served by `clawscope serve`. */
export const DIST_WEB_DIR = path.join(PACKAGE_ROOT, "dist", "web");
