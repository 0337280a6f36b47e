// A package-lock.json for "an empty project that depends on the packed tarball", made from the repo's own lock:
// the tarball's entry (file: path, sha512 integrity, bin, dependencies from its manifest) plus the closure of its
// dependencies exactly as the repo's lock resolves and hoists them. With it `npm ci --offline` installs the
// package from the npm cache that `npm ci` filled — that cache holds tarballs only, no packuments, so a plain
// `npm install <tarball> --offline` fails with ENOTCACHED (research deps.md §4.3), and so does a locked entry
// without `resolved` (the repo's lock has none): each one gets its registry URL. If the tarball's dependencies
// ever drift from the lock, npm refuses the install ("missing from lock file"): the test says so loudly.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isObject, type JsonObject, type JsonValue } from "../../shared/json.ts";

function objectAt(v: JsonValue | undefined, what: string): JsonObject {
  if (!isObject(v)) throw new Error(`${what} is not a JSON object`);
  return v;
}

function names(v: JsonValue | undefined): string[] {
  return isObject(v) ? Object.keys(v) : [];
}

/** Node's resolution from `from` (a lock key): `<from>/node_modules/<name>`, then each parent, then the top. */
function resolveKey(packages: JsonObject, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[key] !== undefined) return key;
    if (!dir) return null;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut >= 0 ? dir.slice(0, cut) : "";
  }
}

/**
 * The entry with its registry tarball URL when the repo's lock leaves it out: without `resolved`, an offline
 * install asks for the packument first, and a cache that only `npm ci` filled holds none (ENOTCACHED); with
 * it, npm reads the tarball the cache holds under that URL.
 */
function withResolved(key: string, entry: JsonObject, registry: string): JsonObject {
  const version = entry.version;
  if (entry.resolved !== undefined || typeof version !== "string" || entry.link === true) return entry;
  const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
  const base = name.slice(name.lastIndexOf("/") + 1);
  return { ...entry, resolved: `${registry.replace(/\/?$/, "/")}${name}/-/${base}-${version}.tgz` };
}

/**
 * Write package.json + package-lock.json into `projectDir` for a project depending on `tarball`, whose own
 * package.json (`manifest`) is given. Returns the number of locked packages.
 */
export function writePackLock(opts: {
  repoLock: string;
  tarball: string;
  manifest: JsonObject;
  projectDir: string;
  /** The registry the cache was filled from (`npm config get registry`). */
  registry: string;
}): number {
  const lock = objectAt(JSON.parse(fs.readFileSync(opts.repoLock, "utf8")), "package-lock.json");
  const repoPackages = objectAt(lock.packages, "package-lock.json packages");
  const rel = `file:${path.relative(opts.projectDir, opts.tarball)}`;
  const integrity = `sha512-${createHash("sha512").update(fs.readFileSync(opts.tarball)).digest("base64")}`;
  const { manifest } = opts;
  const packages: Record<string, JsonValue> = {
    "": { name: "pack-install-test", dependencies: { clawscope: rel } },
    "node_modules/clawscope": {
      version: manifest.version ?? null,
      resolved: rel,
      integrity,
      license: manifest.license ?? null,
      dependencies: manifest.dependencies ?? {},
      bin: manifest.bin ?? {},
      engines: manifest.engines ?? {},
    },
  };
  const required = (from: string, name: string): string => {
    const key = resolveKey(repoPackages, from, name);
    if (key === null)
      throw new Error(`${name} (needed by ${from || "the tarball"}) is not in package-lock.json`);
    return key;
  };
  const todo = names(manifest.dependencies).map((n) => required("", n));
  for (let key = todo.pop(); key !== undefined; key = todo.pop()) {
    if (packages[key] !== undefined) continue;
    const entry = objectAt(repoPackages[key], `lock entry ${key}`);
    packages[key] = withResolved(key, entry, opts.registry);
    for (const n of names(entry.dependencies)) todo.push(required(key, n));
    // Optional dependencies (per-platform binaries) the lock does not hold are skipped by npm as well.
    for (const n of names(entry.optionalDependencies)) {
      const found = resolveKey(repoPackages, key, n);
      if (found !== null) todo.push(found);
    }
  }
  const pkg = { name: "pack-install-test", private: true, dependencies: { clawscope: rel } };
  fs.writeFileSync(path.join(opts.projectDir, "package.json"), JSON.stringify(pkg, null, 2));
  const out = { name: "pack-install-test", lockfileVersion: 3, requires: true, packages };
  fs.writeFileSync(path.join(opts.projectDir, "package-lock.json"), JSON.stringify(out, null, 2));
  return Object.keys(packages).length - 1;
}
