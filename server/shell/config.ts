// The process's configuration: the ONLY module that reads `process.env` and the OS home dir (readEnvironment;
// enforced by Biome's noProcessEnv and test/arch.test.ts). Everything else gets what it needs as parameters:
// the state dir (spec storage.md §1, the 2026.3.2 and 2026.9.6 rules, probing the 3.2 legacy names too; the
// resolution itself is pure — env, home dir and an `exists` probe are injected), the serve options, and the
// environment the OpenClaw config lookup needs ($OPENCLAW_CONFIG_PATH).

import { statSync } from "node:fs";
import { homedir as osHomedir } from "node:os";
import path from "node:path";
import { isLoopbackName } from "../../shared/loopback.ts";
import { DEMO_STATE_DIR } from "../package-root.ts";
import type { SqliteDriverChoice } from "../sources/sqlite/sql-database.ts";
import { expandUserPath, nonEmpty, resolveHome, type UserEnvironment } from "../sources/user-path.ts";

export interface ResolveStateDirOptions {
  /** `--state-dir PATH` (wins over everything). */
  stateDir?: string;
  /** `--profile NAME` (`--dev` = profile `dev`); `default` means `<home>/.openclaw`. */
  profile?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `os.homedir()` of this process (last home fallback, storage.md §1). */
  homedir: string;
  /** True when the path exists as a directory. */
  exists: (p: string) => boolean;
}

/** Which rule chose the path (shown in the UI next to the reason). */
export type StateDirSource = "flag" | "env" | "profile" | "default" | "legacy" | "none";

export interface ResolvedStateDir {
  /** Absolute state dir, or null when nothing exists (the caller then serves the bundled demo). */
  path: string | null;
  /** Human explanation of why this path (or none) was chosen. */
  reason: string;
  /** Every path considered, in the order they were tried. */
  candidates: string[];
  source: StateDirSource;
}

/** Legacy default dirs probed after `~/.openclaw` (2026.3.2 probes all three; 9.6 only `.clawdbot`). */
const LEGACY_DIR_NAMES = [".clawdbot", ".moldbot", ".moltbot"] as const;

/**
 * Resolve the state dir: `--state-dir` > `$OPENCLAW_STATE_DIR` > `$CLAWDBOT_STATE_DIR` (3.2 legacy) >
 * `--profile NAME` (`<home>/.openclaw-NAME`, `default` → `<home>/.openclaw`) > `<home>/.openclaw` >
 * legacy `<home>/.clawdbot`, `.moldbot`, `.moltbot`.
 *
 * An explicit choice (flag, env, profile) that does not exist is NOT silently replaced by a default:
 * OpenClaw itself would use (and create) that dir, so reading another one would show the wrong data.
 * The result is then `path: null` with a reason naming the missing dir.
 */
export function resolveStateDir(opts: ResolveStateDirOptions): ResolvedStateDir {
  const home = resolveHome(opts.env, opts.homedir);
  const candidates: string[] = [];

  const explicit = (raw: string, source: StateDirSource, label: string): ResolvedStateDir => {
    const p = expandUserPath(raw, home);
    candidates.push(p);
    if (opts.exists(p)) return { path: p, reason: `${label} = ${p}`, candidates, source };
    return { path: null, reason: `${label} names ${p}, which does not exist`, candidates, source: "none" };
  };

  const flag = nonEmpty(opts.stateDir);
  if (flag) return explicit(flag, "flag", "--state-dir");
  const envDir = nonEmpty(opts.env.OPENCLAW_STATE_DIR);
  if (envDir) return explicit(envDir, "env", "$OPENCLAW_STATE_DIR");
  // 2026.3.2 still honours the pre-rename variable; 2026.9.6 dropped it (storage.md §1).
  const legacyEnvDir = nonEmpty(opts.env.CLAWDBOT_STATE_DIR);
  if (legacyEnvDir) return explicit(legacyEnvDir, "env", "$CLAWDBOT_STATE_DIR (legacy)");

  const profile = nonEmpty(opts.profile);
  if (profile) {
    if (/[/\\]/.test(profile) || profile === "." || profile === "..") {
      return {
        path: null,
        reason: `--profile ${profile} is not a valid profile name`,
        candidates,
        source: "none",
      };
    }
    // `openclaw --profile default` keeps the plain dir; any other name gets its own dir (storage.md §1).
    const p = path.join(home, profile === "default" ? ".openclaw" : `.openclaw-${profile}`);
    candidates.push(p);
    if (opts.exists(p))
      return { path: p, reason: `--profile ${profile} → ${p}`, candidates, source: "profile" };
    return {
      path: null,
      reason: `--profile ${profile} → ${p}, which does not exist`,
      candidates,
      source: "none",
    };
  }

  const primary = path.join(home, ".openclaw");
  candidates.push(primary);
  if (opts.exists(primary)) {
    return { path: primary, reason: `default state dir ${primary}`, candidates, source: "default" };
  }
  for (const name of LEGACY_DIR_NAMES) {
    const p = path.join(home, name);
    candidates.push(p);
    if (opts.exists(p)) {
      return {
        path: p,
        reason: `${primary} does not exist; using legacy state dir ${p}`,
        candidates,
        source: "legacy",
      };
    }
  }
  return {
    path: null,
    reason: `no state dir found (tried ${candidates.join(", ")}); pass --state-dir or set OPENCLAW_STATE_DIR`,
    candidates,
    source: "none",
  };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The environment, read once: clawscope's only look at `process.env` and the OS home dir. */
export function readEnvironment(): UserEnvironment {
  return Object.freeze({ env: Object.freeze({ ...process.env }), homedir: osHomedir() });
}

/**
 * clawscope's persistent cache dir (issue 18): `$XDG_CACHE_HOME/clawscope`, else `~/.cache/clawscope` (the XDG
 * base-directory rule; a relative `$XDG_CACHE_HOME` is ignored, as the spec says). Never the state dir: the
 * cache refuses a dir inside it (server/sources/jsonl/scan-store.ts). Safe to delete.
 */
export function cacheDir(environment: UserEnvironment): string {
  const xdg = nonEmpty(environment.env.XDG_CACHE_HOME);
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(environment.homedir, ".cache");
  return path.join(base, "clawscope");
}

/** What the state-dir flags ask for (`--state-dir`, `--profile`, `--dev`, `--demo`). */
export interface StateDirRequest {
  stateDir?: string | undefined;
  profile?: string | undefined;
  demo?: boolean | undefined;
  dev?: boolean | undefined;
}

export interface StateChoice {
  stateDir: string;
  demo: boolean;
  reason: string;
}

/**
 * The state dir to read: the resolved one, or the bundled demo when nothing exists and nothing was named.
 * An explicitly named state dir that does not exist throws (it is not a reason to show the demo).
 */
export function chooseStateDir(req: StateDirRequest, environment: UserEnvironment): StateChoice {
  if (req.demo) return { stateDir: DEMO_STATE_DIR, demo: true, reason: "Started with --demo." };
  // OpenClaw's `--dev` is the `dev` profile (~/.openclaw-dev) — spec storage.md §1.
  const profile = req.profile ?? (req.dev ? "dev" : undefined);
  const { env, homedir } = environment;
  const input: ResolveStateDirOptions = { env, homedir, exists: isDirectory };
  if (req.stateDir !== undefined) input.stateDir = req.stateDir;
  if (profile !== undefined) input.profile = profile;
  const resolved = resolveStateDir(input);
  if (resolved.path) return { stateDir: resolved.path, demo: false, reason: resolved.reason };
  const explicit =
    req.stateDir !== undefined ||
    profile !== undefined ||
    Boolean(env.OPENCLAW_STATE_DIR) ||
    Boolean(env.CLAWDBOT_STATE_DIR);
  if (explicit) throw new Error(resolved.reason);
  return { stateDir: DEMO_STATE_DIR, demo: true, reason: `Looked at ${resolved.candidates.join(", ")}.` };
}

/** `clawscope serve`'s options: flag > environment > default. */
export interface ServeOptions {
  host: string;
  port: number;
  /** Open a browser: true/false as asked, null = when stdout is a terminal (false under CI: `$CI` set). */
  open: boolean | null;
  /** `--allow-remote`: a non-loopback `host` was asked for knowingly (serve then warns loudly). */
  allowRemote: boolean;
}

export function serveOptions(
  flags: {
    host?: string | undefined;
    port?: string | undefined;
    open?: boolean | undefined;
    noOpen?: boolean | undefined;
    allowRemote?: boolean | undefined;
  },
  environment: UserEnvironment,
): ServeOptions {
  const { env } = environment;
  const host = flags.host ?? env.CLAWSCOPE_HOST ?? "127.0.0.1";
  const port = Number(flags.port ?? env.CLAWSCOPE_PORT ?? 4470);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${flags.port}`);
  const allowRemote = flags.allowRemote === true;
  // The Host check stops DNS rebinding, it is not access control: anyone who reaches a non-loopback address
  // reads every session. Binding one must be asked for by name (issue 20).
  if (!allowRemote && !isLoopbackName(host))
    throw new Error(
      `--host ${host} is not a loopback address: every machine that can reach it could read your OpenClaw sessions (there is no login). Pass --allow-remote to bind it anyway.`,
    );
  const asked = flags.open === true ? true : flags.noOpen === true || flags.open === false ? false : null;
  // CI runners often give the job a pseudo-terminal; a browser is never wanted there.
  const ci = nonEmpty(env.CI) !== undefined && env.CI !== "false" && env.CI !== "0";
  return { host, port, open: asked ?? (ci ? false : null), allowRemote };
}

/**
 * `CLAWSCOPE_SQLITE_DRIVER`: which SQLite driver reads the stores (sqlite-driver.ts) — `auto` (default:
 * better-sqlite3, else Node's node:sqlite), `better-sqlite3` or `node:sqlite` alone. Anything else: an error.
 */
const SQLITE_DRIVER_CHOICES: readonly SqliteDriverChoice[] = ["auto", "better-sqlite3", "node:sqlite"];

export function sqliteDriverChoice(environment: UserEnvironment): SqliteDriverChoice {
  const v = nonEmpty(environment.env.CLAWSCOPE_SQLITE_DRIVER);
  if (v === undefined) return "auto";
  const choice = SQLITE_DRIVER_CHOICES.find((c) => c === v);
  if (choice === undefined)
    throw new Error(`CLAWSCOPE_SQLITE_DRIVER=${v}: expected one of ${SQLITE_DRIVER_CHOICES.join(", ")}`);
  return choice;
}
