// OpenClaw's fixed `/context` replies, byte-exact per rule family (spec context-report.md §5): the help text, the
// reply to an unknown sub-command and the `/context map` reply when no run report is stored. Each text has this one
// home; `/context` (context-text/) and OpenClaw's map (context-map.ts, reports/map-tree.ts) import it.

import type { VersionInfo } from "../model/session.ts";

type Family = VersionInfo["family"];

/** OpenClaw's reply to `/context map` when no `run` report is stored (exact, every release with a map). */
export const MAP_UNAVAILABLE_TEXT = [
  "Context treemap unavailable.",
  "No actual run context is cached for this session yet.",
  "Send a normal message, then run /context map again.",
].join("\n");

/** Reply to an unknown `/context` sub-command (2026.3.2 has no `map`, so its `/context map` lands here too). */
export function unknownModeText(family: Family): string {
  return [
    "Unknown /context mode.",
    family === "2026.3"
      ? "Use: /context, /context list, /context detail, or /context json"
      : "Use: /context, /context list, /context detail, /context map, or /context json",
  ].join("\n");
}

/** `/context map` in this family when no picture can be drawn: 2026.3.2's unknown-mode reply, else the above. */
export function mapUnavailableText(family: Family): string {
  return family === "2026.3" ? unknownModeText(family) : MAP_UNAVAILABLE_TEXT;
}

/** Help text (`/context` or `/context help`). 2026.3.2 has no map line and a shorter detail line (§5). */
export function contextHelpText(family: Family): string {
  const detail =
    family === "2026.3"
      ? "- /context detail (per-file + per-tool + per-skill + system prompt size)"
      : "- /context detail (per-file + per-tool + per-skill + system prompt size + compactable transcript counts)";
  return [
    "🧠 /context",
    "",
    "What counts as context (high-level), plus a breakdown mode.",
    "",
    "Try:",
    "- /context list   (short breakdown)",
    detail,
    ...(family === "2026.3" ? [] : ["- /context map    (WinDirStat-style treemap image)"]),
    "- /context json   (same, machine-readable)",
    "",
    "Inline shortcut = a command token inside a normal message (e.g. “hey /status”). It runs immediately (allowlisted senders only) and is stripped before the model sees the remaining text.",
  ].join("\n");
}
