// Session sharing toolbar (issue 8, "Share"): Copy link (the URL holds every view's state), Export HTML (one
// self-contained file from the server), Copy as issue (the server's Markdown block), PNG of the open view, and
// the Redact toggle that masks on screen what the redacted export hides. Exports are redacted by default
// (`redact` absent → screen plain, exports redacted; `redact=1` → both redacted); an unredacted export needs
// the explicit "unredacted" link or `redact=0` in the URL.

import { useState } from "react";
import { exportHref as exportLink, fetchIssueMarkdown } from "../api/queries.ts";
import { setParams, type Tab } from "../router.ts";
import { downloadBlob, fileSlug, renderPanelPng } from "../ui/export-view-png.ts";
import type { Redactor } from "../ui/redact.ts";
import { copyText, showToast } from "../ui/toast.tsx";
import { UpdatedCue } from "../ui/updated-cue.tsx";

export interface ShareToolbarProps {
  agentId: string;
  sessionId: string;
  tab: Tab;
  tabLabel: string;
  /** URL value of `redact`: "1" on, "0" explicitly off (exports too), null unset (screen plain, exports redacted). */
  redactParam: string | null;
  r: Redactor;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The toolbar's three actions and which one is running (its button is disabled meanwhile). */
function useShareActions(
  { agentId, sessionId, tab, tabLabel, r }: ShareToolbarProps,
  exportRedacted: boolean,
) {
  const [busy, setBusy] = useState<"issue" | "png" | null>(null);
  const copyLink = async () => {
    try {
      await copyText(window.location.href);
      showToast("Link copied");
    } catch (e) {
      showToast(`Could not copy the link: ${errorText(e)}`, "error");
    }
  };

  const copyIssue = async () => {
    setBusy("issue");
    try {
      const md = await fetchIssueMarkdown(agentId, sessionId, exportRedacted);
      await copyText(md);
      showToast(exportRedacted ? "Issue text copied (redacted)" : "Issue text copied (NOT redacted)");
    } catch (e) {
      showToast(`Could not copy the issue text: ${errorText(e)}`, "error");
    } finally {
      setBusy(null);
    }
  };

  const exportPng = async () => {
    const panel = document.querySelector<HTMLElement>('[role="tabpanel"]');
    if (!panel) return;
    setBusy("png");
    try {
      const title = `clawscope · ${tabLabel} · ${r.agent(agentId)} / ${r.id(sessionId)}${r.on ? " · redacted" : ""}`;
      const blob = await renderPanelPng(panel, title);
      downloadBlob(blob, `clawscope-${tab}-${fileSlug(r.agent(agentId))}-${fileSlug(r.id(sessionId))}.png`);
      showToast("PNG saved");
    } catch (e) {
      showToast(`Could not export the PNG: ${errorText(e)}`, "error");
    } finally {
      setBusy(null);
    }
  };

  return { busy, copyLink, copyIssue, exportPng };
}

export function ShareToolbar(props: ShareToolbarProps) {
  const { agentId, sessionId, tab, redactParam, r } = props;
  // Exports are redacted unless the user explicitly switched redaction off (`redact=0`).
  const exportRedacted = redactParam !== "0";
  const exportHref = exportLink(agentId, sessionId, exportRedacted);
  const { busy, copyLink, copyIssue, exportPng } = useShareActions(props, exportRedacted);
  return (
    <div className="share-toolbar" role="toolbar" aria-label="Share this session" data-testid="share-toolbar">
      <button
        type="button"
        onClick={() => void copyLink()}
        data-testid="copy-link"
        title="Copy a link to exactly this view (tab, zoom, filters, theme and redaction are in the URL)"
      >
        Copy link
      </button>
      <a
        className="button"
        href={exportHref}
        download
        data-testid="export-html"
        title={
          exportRedacted
            ? "Download one self-contained HTML file of this session, redacted: no message text, tool output, file contents, paths or names — sizes, timings and usage stay"
            : "Download one self-contained HTML file of this session, NOT redacted (redaction was switched off)"
        }
      >
        Export HTML{exportRedacted ? "" : " (unredacted)"}
      </a>
      {exportRedacted ? (
        <a
          className="small muted unredacted-link"
          href={exportLink(agentId, sessionId, false)}
          download
          data-testid="export-html-unredacted"
          title="The same file WITH message text, tool output and paths — for your own use, not for sharing"
        >
          unredacted
        </a>
      ) : null}
      <button
        type="button"
        onClick={() => void copyIssue()}
        disabled={busy === "issue"}
        data-testid="copy-issue"
        title="Copy a Markdown block for a bug report: OpenClaw version, effective pruning/bootstrap settings and the key numbers"
      >
        Copy as issue
      </button>
      {tab !== "map" ? (
        <button
          type="button"
          onClick={() => void exportPng()}
          disabled={busy === "png"}
          data-testid="export-view-png"
          title="Save this view as a PNG image (as shown, so switch Redact on first for a shareable screenshot)"
        >
          PNG
        </button>
      ) : null}
      <label
        className="checkbox redact-toggle"
        title="Redacted mode hides message text, tool output, file contents, paths and names on screen (sizes, timings, usage, tool names and bootstrap file names stay). Off by default on screen; exports (HTML, Copy as issue) are always redacted by default, whatever this toggle says."
      >
        <input
          type="checkbox"
          checked={r.on}
          data-testid="redact-toggle"
          onChange={(e) => setParams({ redact: e.target.checked ? "1" : null }, { replace: true })}
        />{" "}
        Redact
      </label>
      <UpdatedCue agentId={agentId} sessionId={sessionId} />
    </div>
  );
}
