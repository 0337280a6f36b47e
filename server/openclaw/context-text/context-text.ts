// Byte-identical reproduction of OpenClaw's `/context` replies (help, list, detail, json, map-unavailable)
// for the three rule families 2026.3 (reference 2026.3.2), 2026.7 (2026.7.1) and 2026.9 (2026.9.x).
// Source of the rules: spec context-report.md §3–§6 and bootstrap.md §6 (`commands-context-report.ts`,
// `bootstrap-budget.ts` of each release); verified against the fixture replies in test/golden.
// Split by reply: breakdown.ts (list, detail), json.ts, bootstrap-warning.ts, session-tokens.ts; OpenClaw's fixed
// replies (help, unknown mode, map unavailable) are ../texts.ts. Pure: SessionEntry (+ transcript counts) in, text out.

import { num } from "../../../shared/json.ts";
import { storedRunReport } from "../../model/system-prompt-report.ts";
import { contextHelpText, mapUnavailableText, unknownModeText } from "../texts.ts";
import { renderBreakdown } from "./breakdown.ts";
import { contextJsonText } from "./json.ts";
import type { ContextTextInput } from "./types.ts";

/**
 * clawscope's OWN text (not OpenClaw's) for list/detail/json when no `source:"run"` report is stored.
 * OpenClaw then builds a `source:"estimate"` report on the fly from the live workspace, instantiated tools and
 * scanned skills (spec context-report.md §1); that cannot be reproduced offline, so clawscope says so instead.
 */
export const NO_RUN_REPORT_NOTICE = [
  "clawscope: no stored run report for this session.",
  "OpenClaw would answer this /context command with an on-the-fly estimate (“System prompt (estimate)”, source “estimate”). To reproduce it clawscope lacks what only the running gateway has: the tools it would instantiate (names, descriptions and parameter schemas from its plugins and config), the skills it would scan, and the base system prompt text of the running release (rebuilt with host/os “unknown”). The workspace files are known: the truncation view shows them and what the caps would inject.",
  "The next normal message through OpenClaw stores a run report (source “run”).",
].join("\n");

/**
 * `clawscope context --mode json` without a stored run report: clawscope's JSON (OpenClaw would print an
 * estimate report built on the fly), so json mode always prints JSON.
 */
export function noRunReportJson(session: { sessionKey: string | null; sessionId: string }): string {
  const body = {
    available: false,
    reason: "no stored run report",
    sessionKey: session.sessionKey,
    sessionId: session.sessionId,
  };
  return JSON.stringify(body, null, 2);
}

/**
 * Renders one `/context` reply. Without a stored `run` report, list/detail/json return clawscope's
 * NO_RUN_REPORT_NOTICE (OpenClaw would print an unreproducible estimate) and map returns OpenClaw's exact
 * MAP_UNAVAILABLE_TEXT. `map-unavailable` returns that text (2026.3.2 has no map: its unknown-mode reply);
 * `unknown` returns the two-line unknown-mode reply.
 */
export function renderContextText(input: ContextTextInput): string {
  const { mode, family, entry } = input;
  if (mode === "help") return contextHelpText(family);
  if (mode === "unknown") return unknownModeText(family);
  if (mode === "map-unavailable") return mapUnavailableText(family);
  const { report } = storedRunReport(entry);
  if (!report) return NO_RUN_REPORT_NOTICE;
  const contextTokens =
    input.contextTokens !== undefined ? input.contextTokens : (num(entry, "contextTokens") ?? null);
  if (mode === "json") return contextJsonText(report.stored, entry, family, contextTokens);
  return renderBreakdown(report, input, mode === "detail", contextTokens);
}
