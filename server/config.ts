// State-dir resolution: the ONLY place that reads argv-derived options and env for finding the
// OpenClaw state dir. Reproduces spec storage.md §1 (2026.3.2 and 2026.9.6 rules, probing the 3.2
// legacy names too). The core is pure (env, home dir and an `exists` probe are injected); the thin
// `resolveStateDirFromProcess` wrapper binds them to the real process.

import { statSync } from "node:fs";
import { homedir as osHomedir } from "node:os";
import path from "node:path";

export interface ResolveStateDirOptions {
  /** `--state-dir PATH` (wins over everything). */
  stateDir?: string;
  /** `--profile NAME` (`--dev` = profile `dev`); `default` means `<home>/.openclaw`. */
  profile?: string;
  env: Record<string, string | undefined>;
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

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

/** `~` / `~/x` → home-based path; everything made absolute (storage.md §1: "`~` expanded, made absolute"). */
function expandUserPath(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.resolve(home, p.slice(2));
  return path.resolve(p);
}

/**
 * Home dir per storage.md §1: `$OPENCLAW_HOME` (leading `~` expanded against the OS home) →
 * `$HOME` → `$USERPROFILE` → `os.homedir()`.
 */
export function resolveHome(env: Record<string, string | undefined>, homedir: string): string {
  const osHome = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? homedir;
  const override = nonEmpty(env.OPENCLAW_HOME);
  if (override) return expandUserPath(override, osHome);
  return path.resolve(osHome);
}

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

/** `resolveStateDir` bound to `process.env`, `os.homedir()` and the real file system. */
export function resolveStateDirFromProcess(
  opts: { stateDir?: string; profile?: string } = {},
): ResolvedStateDir {
  const input: ResolveStateDirOptions = { env: process.env, homedir: osHomedir(), exists: isDirectory };
  if (opts.stateDir !== undefined) input.stateDir = opts.stateDir;
  if (opts.profile !== undefined) input.profile = opts.profile;
  return resolveStateDir(input);
}
