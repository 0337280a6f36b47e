// Export wiring (issue 8, "Share"): gathers the report DTOs through the session service (the same numbers the
// UI and the other CLI commands show), redacts them when asked, renders the self-contained HTML or the
// "Copy as issue" Markdown. writeExport is clawscope's ONLY file write: to the path the user chose, and never
// inside the OpenClaw state dir (clawscope is read-only towards it).

import { ok, type Result } from "../../shared/result.ts";
import type { SessionService } from "../service/session-service.ts";
import { isInsideReal as isInside } from "../sources/fs-safety.ts";
import { renderIssueMarkdown } from "./issue-markdown.ts";
import { type ExportData, redactExportData } from "./redact.ts";
import { renderExportHtml } from "./render-html.ts";
import { UnsafeTargetError, writeOutsideStateDir } from "./safe-write.ts";

export interface ExportOptions {
  redact: boolean;
  /** ISO time printed in the export (defaults to now). */
  generatedAt?: string;
}

/** Loads every DTO the export shows, with the default (as-configured) settings — no what-if overrides. */
export function gatherExportData(
  service: SessionService,
  agentId: string,
  sessionId: string,
): Result<ExportData> {
  const report = service.runReport(agentId, sessionId);
  if (!report.ok) return report;
  const map = service.contextMap(agentId, sessionId);
  if (!map.ok) return map;
  const truncation = service.truncation(agentId, sessionId, {});
  if (!truncation.ok) return truncation;
  // The export shows calls, not per-call tool-result states (O(calls × results), tens of MB on long sessions).
  const prune = service.prune(agentId, sessionId, { calls: ["summary"] });
  if (!prune.ok) return prune;
  const cost = service.cost(agentId, sessionId);
  if (!cost.ok) return cost;
  return ok({
    summary: report.value.session,
    report: report.value,
    map: map.value,
    truncation: truncation.value,
    prune: prune.value,
    cost: cost.value,
  });
}

/** The export page for `GET /api/sessions/:agent/:session/export?redact=1|0` and the CLI. */
export function buildExportHtml(
  service: SessionService,
  agentId: string,
  sessionId: string,
  opts: ExportOptions,
): Result<string> {
  const data = gatherExportData(service, agentId, sessionId);
  if (!data.ok) return data;
  const d = opts.redact ? redactExportData(data.value) : data.value;
  return ok(
    renderExportHtml({
      ...d,
      redacted: opts.redact,
      generatedAt: opts.generatedAt ?? new Date().toISOString(),
    }),
  );
}

/** The "Copy as issue" Markdown for `GET /api/sessions/:agent/:session/issue.md?redact=1|0`. */
export function buildIssueMarkdown(
  service: SessionService,
  agentId: string,
  sessionId: string,
  opts: { redact: boolean },
): Result<string> {
  const data = gatherExportData(service, agentId, sessionId);
  if (!data.ok) return data;
  const d = opts.redact ? redactExportData(data.value) : data.value;
  return ok(renderIssueMarkdown({ ...d, redacted: opts.redact }));
}

/** A suggested download name, safe as a header value; a redacted export does not name the session. */
export function exportFileName(sessionId: string, redact: boolean): string {
  return redact
    ? "clawscope-report-redacted.html"
    : `clawscope-report-${sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 12)}.html`;
}

/** `child` is `parent` or inside it, through symlinks of the longest existing prefix (one definition: fs-safety.ts). */
export { isInside };

export class ExportError extends Error {}

export async function writeExport(
  service: SessionService,
  stateDir: string,
  ref: { agentId: string; sessionId: string },
  outPath: string,
  opts: ExportOptions,
): Promise<void> {
  if (isInside(outPath, stateDir))
    throw new ExportError(
      `refusing to write ${outPath}: it is inside the OpenClaw state dir ${stateDir} (clawscope never writes there)`,
    );
  const r = buildExportHtml(service, ref.agentId, ref.sessionId, opts);
  if (!r.ok) throw new ExportError(r.error.message);
  try {
    await writeOutsideStateDir(outPath, stateDir, r.value);
  } catch (e) {
    if (e instanceof UnsafeTargetError) throw new ExportError(e.message);
    throw e;
  }
}
