// `/context list` and `/context json` from what is stored alone — the SessionEntry and the release family, no
// transcript (issue 17: `clawscope context --mode list` prints in ≤ 300 ms whatever the transcript size). The
// run report's texts (run-report.ts) come from the same function for these modes, so the CLI's stored path and
// the full report cannot disagree. `detail` counts transcript messages (context-report.md §5.2): it needs a load.

import { type JsonObject, str } from "../../shared/json.ts";
import type { ReportOwnerDTO } from "../../shared/run-report.ts";
import { storedRunReport } from "../model/system-prompt-report.ts";
import {
  NO_RUN_REPORT_NOTICE,
  noRunReportJson,
  renderContextText,
} from "../openclaw/context-text/context-text.ts";
import type { ContextFamily } from "../openclaw/context-text/types.ts";
import { reportOwner } from "./report-owner.ts";

export type StoredContextMode = "list" | "json";

export interface StoredContextText {
  /** A `source:"run"` report is stored: the text is OpenClaw's reply; else clawscope's notice / JSON. */
  available: boolean;
  text: string;
  /** Set when the stored report is another session id's (issue 13): said beside the text, never inside it. */
  owner?: ReportOwnerDTO;
}

/**
 * The text `/context <mode>` prints for this entry. Without a stored run report: clawscope's notice (`list`) or
 * `{"available": false, …}` (`json`), whatever the family. Null when a report is stored but the family is
 * unknown (`family` null): only a load can render it.
 */
export function storedContextText(
  mode: StoredContextMode,
  entry: JsonObject | null,
  family: ContextFamily,
  session: { sessionKey: string | null; sessionId: string },
): StoredContextText;
export function storedContextText(
  mode: StoredContextMode,
  entry: JsonObject | null,
  family: ContextFamily | null,
  session: { sessionKey: string | null; sessionId: string },
): StoredContextText | null;
export function storedContextText(
  mode: StoredContextMode,
  entry: JsonObject | null,
  family: ContextFamily | null,
  session: { sessionKey: string | null; sessionId: string },
): StoredContextText | null {
  const { report } = storedRunReport(entry);
  if (!entry || report === null) {
    return { available: false, text: mode === "json" ? noRunReportJson(session) : NO_RUN_REPORT_NOTICE };
  }
  if (family === null) return null;
  const text = renderContextText({ mode, family, entry });
  const owner = reportOwner(report, {
    sessionId: session.sessionId,
    entrySessionId: str(entry, "sessionId") ?? null,
  });
  return owner ? { available: true, text, owner } : { available: true, text };
}
