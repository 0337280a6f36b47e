// The stored run reports of one agent's sessions (issue 14 §2 `system-prompt-changed`): each SessionEntry keeps
// the `systemPromptReport` of its last run (context-report.md §1), so the agent's entries together are a timeline
// of what its system prompts held (file sizes, skills, tools). JSONL era: `agents/<id>/sessions/sessions.json`
// through the store reader's cache (by size + mtime). The SQLite era's `session_nodes.entry_json` is not read
// here yet: its sessions fall back to their own report. Never throws.

import path from "node:path";
import { type SystemPromptReport, storedRunReport } from "../model/system-prompt-report.ts";
import { readSessionsStore } from "./jsonl/sessions-store.ts";

export function agentRunReports(sessionsDir: string | null): SystemPromptReport[] {
  if (!sessionsDir) return [];
  const file = path.join(sessionsDir, "sessions.json");
  const { entries } = readSessionsStore(file, path.basename(file));
  return entries.flatMap(([, entry]) => storedRunReport(entry).report ?? []);
}
