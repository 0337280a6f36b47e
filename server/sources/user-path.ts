// OpenClaw's home dir and `~` expansion (spec storage.md §1), shared by the state-dir resolution
// (server/shell/config.ts) and the config-file lookup (openclaw-config.ts). Pure: the environment and the OS home
// dir are handed in by the one module that reads them.

import path from "node:path";

/** The environment variables and OS home dir of the process (read once, by server/shell/config.ts). */
export interface UserEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
}

export function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

/** `~` / `~/x` → home-based path; everything made absolute (storage.md §1: "`~` expanded, made absolute"). */
export function expandUserPath(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.resolve(home, p.slice(2));
  return path.resolve(p);
}

/**
 * Home dir per storage.md §1: `$OPENCLAW_HOME` (leading `~` expanded against the OS home) →
 * `$HOME` → `$USERPROFILE` → `os.homedir()`.
 */
export function resolveHome(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  const osHome = nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? homedir;
  const override = nonEmpty(env.OPENCLAW_HOME);
  if (override) return expandUserPath(override, osHome);
  return path.resolve(osHome);
}
