// OpenClaw's bootstrap files and their caps, per rule family — spec bootstrap.md §1 (file list and order) and §2
// (limits and defaults). Pure.

import type { VersionInfo } from "../../model/session.ts";

export type RuleFamily = VersionInfo["family"];

export interface BootstrapLimits {
  /** `bootstrapMaxChars`: cap per file. */
  maxPerFile: number;
  /** `bootstrapTotalMaxChars`: budget shared by all files, consumed in injection order. */
  maxTotal: number;
}

/** Defaults when neither report nor config names a value — spec bootstrap.md §2. */
export const DEFAULT_LIMITS: Record<RuleFamily, BootstrapLimits> = {
  "2026.3": { maxPerFile: 20_000, maxTotal: 150_000 },
  "2026.7": { maxPerFile: 20_000, maxTotal: 60_000 },
  "2026.9": { maxPerFile: 20_000, maxTotal: 60_000 },
};

/** 2026.9.x: USER.md is capped at min(bootstrapMaxChars, 4000) — spec bootstrap.md §2. */
export const USER_MD_FIXED_CAP = 4_000;
/** Files at ≥ 85 % of their limit are "near limit" — spec bootstrap.md §6. */
export const NEAR_LIMIT_RATIO = 0.85;
/** The loop stops when fewer than 64 chars remain for a non-missing file — spec §3. */
export const MIN_FILE_BUDGET = 64;

/** 2026.7.1's files, in injection (= report) order — spec bootstrap.md §1. */
const FILES_2026_7: readonly string[] = [
  "AGENTS.md",
  "SOUL.md",
  "TOOLS.md",
  "IDENTITY.md",
  "USER.md",
  "HEARTBEAT.md",
  "BOOTSTRAP.md",
  "MEMORY.md",
];

/**
 * Bootstrap file names in injection (= report) order — spec bootstrap.md §1.
 * 2026.3.2 injects 2026.7.1's files and additionally accepts a lower-case `memory.md` (deduplicated by real path);
 * 2026.9.x retired TOOLS.md and HEARTBEAT.md.
 */
export function bootstrapFileNames(family: RuleFamily): readonly string[] {
  switch (family) {
    case "2026.3":
      return [...FILES_2026_7, "memory.md"];
    case "2026.7":
      return FILES_2026_7;
    case "2026.9":
      return ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md", "MEMORY.md"];
  }
}

/**
 * Files listed only when they exist (never as `missing`) — spec §1: the memory files; from 2026.8.1 USER.md too
 * (`loadWorkspaceBootstrapFiles` skips a missing MEMORY.md or USER.md: dist 8.1 `workspace-*.js`, 9.6
 * `workspace-*.mjs`; 7.1 lists a missing USER.md).
 */
export function isOptionalBootstrapFile(name: string, family: RuleFamily): boolean {
  return name === "MEMORY.md" || name === "memory.md" || (family === "2026.9" && name === "USER.md");
}

/** AGENTS.md (any case) gets the policy digest instead of a head/tail cut in 2026.7.1+ — spec §4.3. */
export function isAgentsFile(name: string): boolean {
  return name.toLowerCase() === "agents.md";
}

function isUserFile(name: string): boolean {
  return name.toLowerCase() === "user.md";
}

/**
 * Effective per-file limit L — spec bootstrap.md §2/§6: 2026.9.x caps USER.md at
 * min(bootstrapMaxChars, 4000); every other file (and every file before 9.x) gets bootstrapMaxChars.
 */
export function effectiveFileLimit(family: RuleFamily, name: string, maxPerFile: number): number {
  return family === "2026.9" && isUserFile(name) ? Math.min(maxPerFile, USER_MD_FIXED_CAP) : maxPerFile;
}

/** True when the file's limit is the fixed USER.md cap rather than bootstrapMaxChars. */
export function isFixedUserCap(family: RuleFamily, name: string, maxPerFile: number): boolean {
  return family === "2026.9" && isUserFile(name) && USER_MD_FIXED_CAP < maxPerFile;
}
