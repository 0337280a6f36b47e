// The run report (issue 2): what OpenClaw's `/context` says about a session, byte-identical for the session's
// rule family, plus the conversation actually sent and the billed prompt of the last call, so tracked vs actual
// can be reconciled. Spec: context-report.md §1–§7, transcript.md §7–§8. Pure: LoadedSession in, DTO out.

import type { ContextNumbersDTO } from "../../shared/context-numbers.ts";
import { fmtInt } from "../../shared/format.ts";
import { isObject, type JsonObject, num, obj, str } from "../../shared/json.ts";
import type {
  BootstrapFileStatus,
  CharsAndTokens,
  ContextTexts,
  LastCallUsageDTO,
  Reconciliation,
  RunReportDTO,
  RunReportTotals,
  StoredReport,
} from "../../shared/run-report.ts";
import { buildContextMessages } from "../model/context-messages.ts";
import { modelCallsOf } from "../model/model-calls.ts";
import type { ContextMessage, LoadedSession, Transcript } from "../model/session.ts";
import {
  readSystemPromptReport,
  type SystemPromptReport,
  storedRunReport,
} from "../model/system-prompt-report.ts";
import { countTranscriptMessages, userMessageText } from "../openclaw/compactable-count.ts";
import { NO_RUN_REPORT_NOTICE, renderContextText } from "../openclaw/context-text/context-text.ts";
import { freshTotalTokens, trackedPromptChars } from "../openclaw/context-text/session-tokens.ts";
import { contextHelpText } from "../openclaw/texts.ts";
import { tokensFromChars } from "../openclaw/token-estimate.ts";
import { buildContextMap } from "./context-map/context-map.ts";
import { IMAGE_CHARS } from "./context-numbers.ts";
import { conversationBreakdown } from "./conversation-breakdown.ts";
import { reportOwner } from "./report-owner.ts";
import { storedContextText } from "./stored-context.ts";

function ct(chars: number): CharsAndTokens {
  return { chars, estTokens: tokensFromChars(chars) };
}

/**
 * Usage of the last model call on the active branch: the last billed call (transcript-only assistants and
 * message-tool mirrors excluded, transcript.md §8) that carries a `usage` object.
 */
export function lastCallUsage(transcript: Transcript): LastCallUsageDTO | null {
  const call = modelCallsOf(transcript).lastOnActiveBranch((c) => c.hasUsage);
  if (!call) return null;
  return {
    entryIndex: call.entryIndex,
    entryId: call.entryId,
    timestamp: transcript.entries[call.entryIndex]?.timestamp ?? null,
    provider: call.provider,
    model: call.model,
    stopReason: call.stopReason,
    input: call.usage.input,
    output: call.usage.output,
    cacheRead: call.usage.cacheRead,
    cacheWrite: call.usage.cacheWrite,
    promptTokens: call.promptTokens,
  };
}

function fileStatus(
  f: SystemPromptReport["files"][number],
  family: RunReportDTO["version"]["family"],
): BootstrapFileStatus {
  if (family === "2026.9" && f.nativeUnverified) return "NATIVE/UNVERIFIED";
  return f.missing ? "MISSING" : f.truncated ? "TRUNCATED" : "OK";
}

function reportTotals(view: SystemPromptReport, family: RunReportDTO["version"]["family"]): RunReportTotals {
  const turn = view.currentTurn;
  const tracked = trackedPromptChars(view);
  const injected = view.files.filter((f) => !f.missing).reduce((s, f) => s + f.injectedChars, 0);
  return {
    systemPrompt: ct(view.systemPromptChars),
    projectContext: ct(view.projectContextChars),
    nonProjectContext: ct(view.nonProjectContextChars),
    skills: { ...ct(view.skillsPromptChars), count: new Set(view.skills.map((s) => s.name)).size },
    toolList: ct(view.toolListChars),
    toolSchemas: { ...ct(view.toolSchemaChars), count: view.tools.length },
    files: view.files.map((f) => ({
      name: f.name,
      path: f.path,
      status: fileStatus(f, family),
      raw: ct(f.missing ? 0 : f.rawChars),
      injected: ct(f.missing ? 0 : f.injectedChars),
    })),
    filesInjected: ct(injected),
    currentTurn: turn
      ? {
          prompt: turn.promptChars,
          runtimeContext: turn.runtimeContextChars,
          modelOnlyPrompt: turn.modelOnlyPromptChars,
        }
      : null,
    openclawTracked: ct(tracked),
  };
}

/** The run report's view of the stored report (model/system-prompt-report.ts decides what counts). */
function storedReport(entry: JsonObject | null): StoredReport {
  const r = storedRunReport(entry);
  return r.report
    ? { available: true, report: r.report.stored }
    : { available: false, report: r.stored, reason: r.reason };
}

/** Index of the last model call (any branch, append order), or -1. */
function lastModelCallIndex(transcript: Transcript): number {
  return modelCallsOf(transcript).lastBilled?.entryIndex ?? -1;
}

/**
 * Latest user message that is one of `commands`, if it comes after `afterIndex`; else null.
 * Same answer as the max over commands of findCommandMessageIndex (the last match of each), found by one
 * backward scan that stops at `afterIndex` — a long session costs the entries after the last call only.
 */
function latestCommandAfter(transcript: Transcript, commands: string[], afterIndex: number): number | null {
  const wanted = new Set(commands);
  const entries = transcript.entries;
  for (let p = entries.length - 1; p >= 0; p--) {
    const e = entries[p];
    if (!e) continue;
    if (e.index <= afterIndex) break;
    const text = userMessageText(e);
    if (text !== null && wanted.has(text.trim())) return e.index;
  }
  return null;
}

/** Text of the gateway-injected reply to the command at `commandIndex` (its child assistant message). */
function storedReplyText(transcript: Transcript, commandIndex: number): string | null {
  const cmd = transcript.entries[commandIndex];
  if (!cmd?.id) return null;
  for (let i = commandIndex + 1; i < transcript.entries.length; i++) {
    const e = transcript.entries[i];
    if (e?.type !== "message" || e.parentId !== cmd.id) continue;
    const m = obj(e.raw, "message");
    if (!m || modelCallsOf(transcript).at(e.index)?.transcriptOnly !== true) continue;
    const blocks = Array.isArray(m.content) ? m.content : [];
    return blocks.map((b) => (isObject(b) ? (str(b, "text") ?? "") : "")).join("");
  }
  return null;
}

function compareStoredReply(
  transcript: Transcript,
  commands: string[],
  afterIndex: number,
  rendered: string,
): boolean | null {
  const idx = latestCommandAfter(transcript, commands, afterIndex);
  if (idx === null) return null;
  const stored = storedReplyText(transcript, idx);
  return stored === null ? null : stored === rendered;
}

/** `/context list|detail|json` as OpenClaw renders them for the stored report, checked against its replies. */
function storedTexts(
  session: LoadedSession,
  entry: JsonObject,
  help: string,
  redactEntry: ((entry: JsonObject) => JsonObject) | undefined,
): ContextTexts {
  const family = session.version.family;
  // The run report only changes on a model run. When the latest `/context detail` came after the last
  // model call, its counts (messages before the command's own user message, context-report.md §5.2)
  // are OpenClaw's answer for this stored state; otherwise count as if the command were sent now.
  const transcript = session.transcript;
  const lastModelCall = lastModelCallIndex(transcript);
  const detailCmd = latestCommandAfter(transcript, ["/context detail", "/context deep"], lastModelCall);
  const appVersion = session.version.appVersion;
  const transcriptCounts = countTranscriptMessages(transcript, family, detailCmd ?? undefined, appVersion);
  const list = storedContextText("list", entry, family, session.summary).text;
  const detail = renderContextText({ mode: "detail", family, entry, transcriptCounts, appVersion });
  const json = storedContextText("json", entry, family, session.summary).text;
  // The same replies over the entry with paths and free text masked (the caller's rule table).
  const masked = redactEntry?.(entry);
  const redacted = masked && {
    list: storedContextText("list", masked, family, session.summary).text,
    detail: renderContextText({ mode: "detail", family, entry: masked, transcriptCounts }),
    json: storedContextText("json", masked, family, session.summary).text,
  };
  const cmdEntry = detailCmd === null ? undefined : transcript.entries[detailCmd];
  return {
    available: true,
    list,
    detail,
    json,
    help,
    detailAsOf: cmdEntry
      ? { kind: "last-invocation", entryId: cmdEntry.id, timestamp: cmdEntry.timestamp }
      : { kind: "now" },
    matchesStoredReply: {
      list: compareStoredReply(transcript, ["/context list", "/context show"], lastModelCall, list),
      detail: compareStoredReply(transcript, ["/context detail", "/context deep"], lastModelCall, detail),
      json: compareStoredReply(transcript, ["/context json"], lastModelCall, json),
    },
    ...(redacted ? { redacted } : {}),
  };
}

interface ReconcileInput {
  hasReport: boolean;
  /** The session's headline numbers (context-numbers.ts): tracked and untracked are theirs. */
  numbers: ContextNumbersDTO;
  lastCall: LastCallUsageDTO | null;
  entryTotal: number | null;
  /** Tool results counted as sent at the last call (else as stored). */
  asSent: boolean;
}

/** Tracked vs billed: what OpenClaw's and clawscope's counts leave unexplained of the last call's prompt. */
function reconcile(r: ReconcileInput): Reconciliation {
  const { numbers: n, entryTotal } = r;
  const actual = r.lastCall?.promptTokens ?? null;
  const notes: string[] = [];
  if (!r.hasReport)
    notes.push("No stored run report: the system prompt and tool schemas are not in the tracked total.");
  notes.push(
    r.asSent
      ? "Tool results are counted as sent at the last call (the pruning replay's soft-trim/hard-clear states)."
      : "Tool results are counted as stored; cache-TTL pruning may have sent them shorter (see the pruning replay).",
  );
  if (n.images.count > 0) {
    notes.push(
      `${n.images.count} image block(s) in the prompt count ${fmtInt(IMAGE_CHARS)} chars each (OpenClaw's image estimate).`,
    );
  }
  if (actual !== null && entryTotal !== null && actual !== entryTotal) {
    notes.push(
      `The SessionEntry's totalTokens (${entryTotal}) differs from the last call's billed prompt (${actual}) — e.g. after a compaction or /new, or a call outside the active branch.`,
    );
  }
  return {
    actualTokens: actual,
    entryTotalTokens: entryTotal,
    openclawUntrackedTokens: n.openclaw?.untrackedTokens ?? null,
    clawscopeTracked: { chars: n.trackedChars, estTokens: n.trackedTokens },
    clawscopeUntrackedTokens: n.untrackedTokens,
    notes,
  };
}

/**
 * The headline numbers when the caller has none: the context map's (context-numbers.ts) over the same messages,
 * with the SessionEntry's window (the service passes the map's own, with the pruner's window).
 */
function numbersOf(
  session: LoadedSession,
  sentMessages: readonly ContextMessage[] | undefined,
  lastCall: LastCallUsageDTO | null,
): ContextNumbersDTO {
  return buildContextMap({
    session,
    report: storedRunReport(session.entry).report?.stored ?? null,
    contextMessages: sentMessages ? [...sentMessages] : buildContextMessages(session.transcript),
    lastCallUsage: lastCall,
    windowTokens: num(session.entry, "contextTokens") ?? null,
  }).numbers;
}

/**
 * `sentMessages`: the context list with tool results in the state they were sent at the last call
 * (pruning projections applied by the caller); without it, tool results count as stored. `numbers`: the
 * session's headline numbers (the map's), computed here when not given.
 */
export function buildRunReport(
  session: LoadedSession,
  sentMessages?: readonly ContextMessage[],
  numbers?: ContextNumbersDTO,
  /** Masks an entry for the redacted `/context` texts (the export's rule table); none: no redacted texts. */
  redactEntry?: (entry: JsonObject) => JsonObject,
): RunReportDTO {
  const family = session.version.family;
  const entry = session.entry;
  const stored = storedReport(entry);
  const help = contextHelpText(family);
  const view = stored.available ? readSystemPromptReport(stored.report) : null;
  const texts: ContextTexts =
    stored.available && entry
      ? storedTexts(session, entry, help, redactEntry)
      : {
          available: false,
          notice: NO_RUN_REPORT_NOTICE,
          json: storedContextText("json", entry, family, session.summary).text,
          mapUnavailable: renderContextText({ mode: "map-unavailable", family, entry: entry ?? {} }),
          help,
        };
  const totals = view && entry ? reportTotals(view, family) : null;
  const lastCall = lastCallUsage(session.transcript);
  const conversation = conversationBreakdown(session, sentMessages, lastCall);
  const entryTotal = entry ? (freshTotalTokens(entry, family) ?? null) : null;
  const n = numbers ?? numbersOf(session, sentMessages, lastCall);
  return {
    session: session.summary,
    version: session.version,
    systemPromptReport: stored,
    reportOwner: reportOwner(view, {
      sessionId: session.summary.sessionId,
      entrySessionId: str(entry, "sessionId") ?? null,
    }),
    texts,
    totals,
    conversation,
    lastCall,
    contextWindowTokens: n.contextWindow.assumed ? null : n.contextWindow.tokens,
    reconciliation: reconcile({
      hasReport: view !== null,
      numbers: n,
      lastCall,
      entryTotal,
      asSent: sentMessages !== undefined,
    }),
    numbers: n,
  };
}
