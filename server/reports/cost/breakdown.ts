// "Where the money went" (issue 14 §2): one cause per call, decided from everything on disk before `unknown`,
// and the session's spend summed by cause (Σ breakdown costUsd = totals.costUsd: each priced call counts once).
//
// The verdict (openclaw/cache/verdict.ts) already names the transcript signals (reset, compaction, pruning
// round, thinking change, merged user messages, model switch, TTL, minimum). A miss none of them explains is
// looked at once more, on the first call of a new run only (OpenClaw builds the system prompt once per run,
// openclaw/cache/prompt-inputs.ts): a write / edit / exec of an injected workspace file since the previous call's run
// (`bootstrap-edited`), the agent's stored run reports differing in files, skills or tools across the gap
// (`system-prompt-changed`), the local date turning over where the date is in the prompt (`date-rollover`), the
// run coming from another chat, channel or sender (`channel-switch`: the inbound context is a prompt input), and
// the run cutting older images from the replayed history (`images-pruned`); on an OpenAI Responses API, a read that
// stops where the previous run's reasoning began (`reasoning-dropped`). What is still unexplained goes to
// provider-dropped.ts: a mid-run miss, or a new run whose read or whose session's record of earlier runs shows
// the prompt went out unchanged, is the provider not serving its cache; the rest stays `unknown`.

import type { CallCauseDTO, PrefixChangeCause, SpendCause } from "../../../shared/cost.ts";
import { fmtInt } from "../../../shared/format.ts";
import { type JsonObject, obj, str } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import { NearestAncestor } from "../../model/nearest-ancestor.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { entryIndexById, extendParentIndexes, parentIndexes, visitAncestors } from "../../model/tree.ts";
import type { RuleFamily } from "../../openclaw/bootstrap/files-and-limits.ts";
import {
  type HistoryMessage,
  historyMessage,
  newlyCutImages,
} from "../../openclaw/cache/history-image-cut.ts";
import {
  changedInboundFields,
  inboundContext,
  inboundContextPlacement,
  switchLeavesReadablePrefix,
} from "../../openclaw/cache/inbound-context.ts";
import { carriesContextCapNotice, liveCapMayDiffer } from "../../openclaw/cache/live-tool-result-cap.ts";
import { entryLabel } from "../../openclaw/cache/prefix-signals.ts";
import {
  isResponsesApi,
  type RunCall,
  reasoningDropped,
} from "../../openclaw/cache/previous-turn-reasoning.ts";
import {
  dateEntersPrompt,
  injectedFileNames,
  localDate,
  type PromptShape,
  promptDifferences,
  promptShape,
  toolCallBlocks,
  touchedInjectedFile,
  userTimezone,
} from "../../openclaw/cache/prompt-inputs.ts";
import type { SessionRelease } from "../../openclaw/cache/system-cache-point.ts";
import type { CallVerdict } from "../../openclaw/cache/verdict.ts";
import { isTranscriptOnlyAssistant } from "../../openclaw/transcript-only.ts";
import { historyResent, providerDropped, ServedRuns, servedBefore } from "./provider-dropped.ts";
import { isUserPrompt, runPrompts, userText } from "./run-prompts.ts";

const SIGNAL_CAUSE: Record<PrefixChangeCause, SpendCause> = {
  compaction: "compaction",
  "pruning-round": "pruning",
  "unpruned-after-round": "pruning",
  "merged-user-messages": "merged-user-messages",
  "thinking-level-change": "thinking-change",
  unknown: "unknown",
};

export interface CauseInput {
  transcript: Transcript;
  family: RuleFamily;
  /** The release that wrote the session, when the state dir records it (VersionInfo.appVersion). */
  appVersion?: string | null;
  config: JsonObject | null;
  /** The session's stored run report (its injected file names). */
  report: SystemPromptReport | null;
  /** Stored run reports of the agent's sessions (each SessionEntry keeps its last run's), any order. */
  agentReports?: readonly SystemPromptReport[];
  sessionKey: string | null;
}

/**
 * The kind of session a key names (`agent:<id>:<kind>…`: main, subagent, cron, a channel): runs of one kind share
 * prompt mode and tool policy, so only their reports are compared (a sub-agent's minimal prompt has fewer files).
 */
export function sessionKind(key: string | null): string {
  return key?.split(":")[2] ?? "";
}

/** Turns of history the image-cut check looks back over (history-image-cut.ts needs ≤ 5). */
const HISTORY_TURNS = 12;

/** Decides each call's cause, call by call in append order (like the classifier it follows). */
export class CauseAttributor {
  private entries: readonly TranscriptEntry[];
  private byId: ReadonlyMap<string, number>;
  private parents: Int32Array; // per entry its parent's index: walks up read an array, not a Map of ids
  private readonly callsById = new Map<string, ModelCall>();
  /** The user prompt that started each entry's run (memoised). */
  private readonly promptAbove = new NearestAncestor(
    isUserPrompt,
    this.parentOf.bind(this),
    () => this.entries.length,
  );
  /** Each call's previous call of its lineage (the verdict's `previousCallEntryId`). */
  private readonly previousOf = new Map<ModelCall, ModelCall>();
  private readonly names: string[];
  /** The user's time zone, resolved on the first date check (a session whose prompt has no date never needs Intl). */
  private zone: { tz: string; source: string } | null = null;
  /** The release that wrote the session: its family, and its version when the state dir records it. */
  private readonly release: SessionRelease;
  /** Run reports by time, one shape per report. */
  private readonly shapes: PromptShape[];
  /** How the session's earlier new runs fared when nothing on disk had changed their prompt. */
  private readonly servedRuns = new ServedRuns();

  constructor(private readonly input: CauseInput) {
    this.entries = input.transcript.entries;
    this.byId = entryIndexById(input.transcript.entries, "transcript");
    this.parents = parentIndexes(input.transcript.entries, "transcript");
    this.names = injectedFileNames(input.family, input.report);
    this.release = { family: input.family, appVersion: input.appVersion ?? null };
    this.shapes = (input.agentReports ?? (input.report ? [input.report] : []))
      .map(promptShape)
      .filter(
        (s): s is PromptShape => s !== null && sessionKind(s.sessionKey) === sessionKind(input.sessionKey),
      )
      .sort((a, b) => a.generatedAt - b.generatedAt);
  }

  /** The transcript grew by appended entries (the calls attributed so far keep their causes). */
  extendTo(transcript: Transcript, byId: ReadonlyMap<string, number>): void {
    this.entries = transcript.entries;
    this.byId = byId;
    this.parents = extendParentIndexes(this.parents, transcript.entries, byId);
  }

  attribute(n: ModelCall, v: CallVerdict): CallCauseDTO {
    if (n.entryId !== null) this.callsById.set(n.entryId, n);
    const ev = v.evidence;
    const previous = ev.previousCallEntryId !== null ? this.callsById.get(ev.previousCallEntryId) : undefined;
    if (previous) this.previousOf.set(n, previous);
    const own = (cause: SpendCause, detail = ev.summary, entryIds = ev.signalEntryIds) => ({
      cause,
      detail,
      entryIds,
    });
    switch (v.verdict) {
      case "hit":
        this.noteIfNewRun(n);
        return own("hit");
      case "no-usage":
        return own("no-usage");
      case "not-cached":
        return own("not-cached");
      case "below-minimum":
        return own("below-min-cacheable");
      case "model-switch":
        return own("model-switch");
      case "ttl-expired":
        return own("ttl-expired");
      case "cold-start":
        return ev.signalEntryIds.some((id) => this.entryOf(id)?.type === "reset")
          ? own("reset")
          : own("cold-start");
      case "prefix-changed":
        if (ev.cause !== null && ev.cause !== "unknown") return own(SIGNAL_CAUSE[ev.cause]);
        return this.unsignalled(n, v);
      case "unexplained":
        return this.unsignalled(n, v);
    }
  }

  private entryOf(label: string): TranscriptEntry | undefined {
    const i = label.startsWith("#") ? Number(label.slice(1)) : this.byId.get(label);
    return i === undefined ? undefined : this.entries[i];
  }

  private parentOf(e: TranscriptEntry): TranscriptEntry | undefined {
    const i = this.parents[e.index] ?? -1;
    return i < 0 ? undefined : this.entries[i];
  }

  /**
   * The entries on n's path back to the user prompt that started m's run (m = the previous call of n's
   * lineage), newest first, and whether a new run started after m.
   */
  private pathSince(n: ModelCall, m: ModelCall): { path: TranscriptEntry[]; newRun: boolean } {
    const path: TranscriptEntry[] = [];
    let newRun = false;
    visitAncestors(this.entries[n.entryIndex], this.parentOf.bind(this), (e) => {
      path.push(e);
      if (!isUserPrompt(e)) return true;
      if (e.index > m.entryIndex) newRun = true;
      return e.index > m.entryIndex;
    });
    return { path, newRun };
  }

  /** A miss no transcript signal explains: look at what changes the system prompt between two runs. */
  private unsignalled(n: ModelCall, v: CallVerdict): CallCauseDTO {
    const ev = v.evidence;
    const m = this.previousOf.get(n);
    if (!m) return { cause: "unknown", detail: ev.summary, entryIds: [] };
    const resent = this.cappedResultResent(n, m);
    if (resent) return resent;
    const { path, newRun } = this.pathSince(n, m);
    if (!newRun)
      return providerDropped(
        n,
        m,
        `${ev.summary}; mid-run`,
        "OpenClaw re-sent the same system prompt, tools and history (no pruning round, compaction, thinking or model change in between)",
      );
    // a read that reaches the previous run's reasoning also shows nothing before it changed
    const dropped = isResponsesApi(n.api) ? reasoningDropped(n, m, this.runOf(m)) : null;
    if (dropped) return dropped;
    // What the read allows: a cut image leaves the prefix before it readable, and so does a chat switch after the
    // cached stable prefix (switchLeavesReadablePrefix); inside the one cached system block nothing is read.
    const read = n.usage.cacheRead > 0;
    const readable = switchLeavesReadablePrefix(this.release, n.api);
    const structural = () =>
      (read ? this.imageCut(path, m) : null) ??
      (readable === read ? this.channelSwitch(path, m, readable) : null);
    const decided =
      this.bootstrapEdit(path) ?? this.reportChange(m, n) ?? this.dateRollover(m, n) ?? structural();
    if (decided) return decided;
    const cause = historyResent(n, m, { ...this.input, release: this.release }) ??
      servedBefore(n, m, this.servedRuns) ?? {
        cause: "unknown",
        detail: `${ev.summary}; first call of a new run, no edit of an injected file, no differing run report${dateEntersPrompt(this.input.family) ? ", same local date" : ""}, same chat and sender; ${this.servedRuns.describe()}: too few to vouch for the prompt`,
        entryIds: [],
      };
    this.servedRuns.noteMissed();
    return cause;
  }

  /** m's run: m and the calls before it back to the run's first, newest first, each with its entry. */
  private runOf(m: ModelCall): RunCall[] {
    const run: RunCall[] = [];
    for (let c: ModelCall | undefined = m; c; ) {
      run.push({ call: c, entry: this.entries[c.entryIndex] });
      const before = this.previousOf.get(c);
      c = before && !this.startsNewRun(c, before) ? before : undefined;
    }
    return run;
  }

  /** A hit on the first call of a new run goes on the served-runs record. */
  private noteIfNewRun(n: ModelCall): void {
    const m = this.previousOf.get(n);
    if (m && this.startsNewRun(n, m)) this.servedRuns.noteServed();
  }

  /**
   * m was the first call to carry a tool result cut to the live cap, and n, the call after it, replays the stored
   * form (openclaw/cache/live-tool-result-cap.ts): a miss whose read stops before that result (at most the prompt
   * of the call that asked for it) is that re-send.
   */
  private cappedResultResent(n: ModelCall, m: ModelCall): CallCauseDTO | null {
    const k = liveCapMayDiffer(this.input.family) ? this.previousOf.get(m) : undefined;
    if (!k || n.usage.cacheRead > k.promptTokens) return null;
    let capped: TranscriptEntry | undefined;
    visitAncestors(this.entries[m.entryIndex], this.parentOf.bind(this), (e) => {
      if (e.index <= k.entryIndex) return false;
      if (carriesContextCapNotice(e)) capped = e;
      return true;
    });
    if (!capped) return null;
    const label = entryLabel(capped);
    return {
      cause: "tool-result-resent",
      detail: `tool result ${label} was cut to the live cap ("[... N more characters truncated; …]"): ${this.input.family} cuts the copy it sends with the first call that carries it (${m.entryId ?? "the previous call"}) and the copy it stores separately, and every later call replays the stored one; this call read ${fmtInt(n.usage.cacheRead)} tokens, no more than the ${fmtInt(k.promptTokens)} of the prompt before that result`,
      entryIds: [label],
    };
  }

  /** Whether a user prompt after m lies on n's path (a parent is always stored before its child). */
  private startsNewRun(n: ModelCall, m: ModelCall): boolean {
    const e = this.entries[n.entryIndex];
    const parent = e ? this.parentOf(e) : undefined;
    return parent !== undefined && this.promptAbove.of(parent) > m.entryIndex;
  }

  private bootstrapEdit(path: readonly TranscriptEntry[]): CallCauseDTO | null {
    for (const e of path) {
      const message = e.type === "message" ? obj(e.raw, "message") : undefined;
      if (!message || str(message, "role") !== "assistant") continue;
      for (const block of toolCallBlocks(message)) {
        const file = touchedInjectedFile(block, this.names);
        if (!file) continue;
        const call = str(block, "id") ?? "?";
        return {
          cause: "bootstrap-edited",
          detail: `${file} changed by ${str(block, "name")} call ${call} (entry ${entryLabel(e)}) since the previous call: the next run injects the new content`,
          entryIds: [entryLabel(e)],
        };
      }
    }
    return null;
  }

  /** The agent's stored run reports: one at or before m, a later one up to n, differing in what they record. */
  private reportChange(m: ModelCall, n: ModelCall): CallCauseDTO | null {
    if (m.atMs === null || n.atMs === null) return null;
    const mAt = m.atMs;
    const nAt = n.atMs;
    const before = this.shapes.filter((s) => s.generatedAt <= mAt).at(-1);
    const after = this.shapes.filter((s) => s.generatedAt > mAt && s.generatedAt <= nAt).at(-1);
    if (!before || !after) return null;
    const diff = promptDifferences(before, after);
    if (diff.length === 0) return null;
    const at = (ms: number) => new Date(ms).toISOString();
    return {
      cause: "system-prompt-changed",
      detail: `${diff.join("; ")} (run reports of ${at(before.generatedAt)} and ${at(after.generatedAt)})`,
      entryIds: [],
    };
  }

  /** The replayed history up to and with `prompt` (oldest first), back to the last compaction or reset. */
  private historyThrough(prompt: TranscriptEntry): { history: HistoryMessage[]; complete: boolean } {
    const out: HistoryMessage[] = [];
    let users = 0;
    let complete = true;
    const add = (e: TranscriptEntry): boolean => {
      if (e.type === "compaction" || e.type === "reset") return false;
      const message = e.type === "message" ? obj(e.raw, "message") : undefined;
      if (!message || message.excludeFromContext === true || isTranscriptOnlyAssistant(message)) return true;
      const h = historyMessage(message, entryLabel(e));
      if (h) out.push(h);
      // Both cuts fall within the last few turns (before the last reply; before the 3rd newest completed turn):
      // a suffix that starts at a user message HISTORY_TURNS turns back places them alike, and keeps this walk
      // from costing O(history) on every unexplained miss of a long session.
      if (h?.role === "user") users++;
      if (users < HISTORY_TURNS) return true;
      complete = false;
      return false;
    };
    add(prompt);
    visitAncestors(prompt, this.parentOf.bind(this), add);
    return { history: out.reverse(), complete };
  }

  /** This run cut images from the history that the previous run still sent (openclaw/cache/history-image-cut.ts). */
  private imageCut(path: readonly TranscriptEntry[], m: ModelCall): CallCauseDTO | null {
    const runs = runPrompts(path, m);
    if (!runs) return null;
    const { before, now } = runs;
    const { history, complete } = this.historyThrough(now);
    const at = history.findIndex((h) => h.label === entryLabel(before));
    if (at < 0) return null;
    const cut = newlyCutImages(history.slice(0, at + 1), history, this.input.family, complete);
    if (!cut) return null;
    return {
      cause: "images-pruned",
      detail: `this run replaced ${cut.images} image(s) of ${cut.labels.join(", ")} with "[image data removed - already processed by model]" (${cut.rule}): the prompt changed at that message, only what precedes it could be read`,
      entryIds: cut.labels,
    };
  }

  /**
   * The new run came from another chat, channel or sender than the previous one: its user message's chat / sender
   * metadata differs from the one that started m's run (openclaw/cache/inbound-context.ts).
   */
  private channelSwitch(
    path: readonly TranscriptEntry[],
    m: ModelCall,
    readable: boolean,
  ): CallCauseDTO | null {
    const runs = runPrompts(path, m);
    if (!runs) return null;
    const { before, now } = runs;
    const a = inboundContext(userText(before));
    const b = inboundContext(userText(now));
    const changed = changedInboundFields(a, b, this.input.family);
    if (changed.length === 0) return null;
    return {
      cause: "channel-switch",
      detail: `this run's message ${entryLabel(now)} came from another chat or sender than the previous run's ${entryLabel(before)} (${changed.join(", ")}): ${inboundContextPlacement(readable)}`,
      entryIds: [entryLabel(before), entryLabel(now)],
      // `chat`: two direct chats in one session (what session.dmScope decides); anything else is `internal`
      channelSwitch: a.hasMetadata && b.hasMetadata && !a.group && !b.group ? "chat" : "internal",
    };
  }

  private dateRollover(m: ModelCall, n: ModelCall): CallCauseDTO | null {
    if (!dateEntersPrompt(this.input.family) || m.atMs === null || n.atMs === null) return null;
    this.zone ??= userTimezone(this.input.config);
    const zone = this.zone;
    const a = localDate(m.atMs, zone.tz);
    const b = localDate(n.atMs, zone.tz);
    if (a === b) return null;
    return {
      cause: "date-rollover",
      detail: `local date ${a} → ${b} in ${zone.tz} (${zone.source}): the prompt's "Current date" line changed`,
      entryIds: [],
    };
  }
}
