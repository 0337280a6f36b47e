// "Where the money went" (issue 14 §2): one cause per call, decided from everything on disk before `unknown`,
// and the session's spend summed by cause (Σ breakdown costUsd = totals.costUsd: each priced call counts once).
//
// The verdict (openclaw/cache/verdict.ts) already names the transcript signals (reset, compaction, pruning
// round, thinking change, merged user messages, model switch, TTL, minimum). A miss none of them explains is
// looked at once more, on the first call of a new run only (OpenClaw builds the system prompt once per run,
// openclaw-facts.md §5): a write / edit / exec of an injected workspace file since the previous call's run
// (`bootstrap-edited`), the agent's stored run reports differing in files, skills or tools across the gap
// (`system-prompt-changed`), the local date turning over where the date is in the prompt (`date-rollover`).

import type {
  CallCauseDTO,
  CostBreakdownRowDTO,
  CostCallDTO,
  PrefixChangeCause,
  SpendCause,
  UnknownMissDTO,
} from "../../../shared/cost.ts";
import { type JsonObject, obj, str } from "../../../shared/json.ts";
import type { ModelCall } from "../../model/model-calls.ts";
import type { Transcript, TranscriptEntry } from "../../model/session.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { entryIndexById, visitAncestors } from "../../model/tree.ts";
import type { RuleFamily } from "../../openclaw/bootstrap/files-and-limits.ts";
import { entryLabel } from "../../openclaw/cache/prefix-signals.ts";
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
import type { CallVerdict } from "../../openclaw/cache/verdict.ts";

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

function isUserPrompt(e: TranscriptEntry): boolean {
  const m = e.type === "message" ? obj(e.raw, "message") : undefined;
  return m !== undefined && str(m, "role") === "user" && m.excludeFromContext !== true;
}

/** Decides each call's cause, call by call in append order (like the classifier it follows). */
export class CauseAttributor {
  private entries: readonly TranscriptEntry[];
  private byId: ReadonlyMap<string, number>;
  private readonly callsById = new Map<string, ModelCall>();
  private readonly names: string[];
  private readonly tz: { tz: string; source: string };
  /** Run reports by time, one shape per report. */
  private readonly shapes: PromptShape[];

  constructor(private readonly input: CauseInput) {
    this.entries = input.transcript.entries;
    this.byId = entryIndexById(input.transcript.entries, "transcript");
    this.names = injectedFileNames(input.family, input.report);
    this.tz = userTimezone(input.config);
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
  }

  attribute(n: ModelCall, v: CallVerdict): CallCauseDTO {
    if (n.entryId !== null) this.callsById.set(n.entryId, n);
    const ev = v.evidence;
    const own = (cause: SpendCause, detail = ev.summary, entryIds = ev.signalEntryIds) => ({
      cause,
      detail,
      entryIds,
    });
    switch (v.verdict) {
      case "hit":
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
    if (e.parentId === null) return undefined;
    const i = this.byId.get(e.parentId);
    return i === undefined ? undefined : this.entries[i];
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
    const m = ev.previousCallEntryId !== null ? this.callsById.get(ev.previousCallEntryId) : undefined;
    if (!m) return { cause: "unknown", detail: ev.summary, entryIds: [] };
    const { path, newRun } = this.pathSince(n, m);
    if (!newRun) {
      return {
        cause: "unknown",
        detail: `${ev.summary}; mid-run (the system prompt is built once per run), no transcript signal`,
        entryIds: [],
      };
    }
    return (
      this.bootstrapEdit(path) ??
      this.reportChange(m, n) ??
      this.dateRollover(m, n) ?? {
        cause: "unknown",
        detail: `${ev.summary}; first call of a new run, no edit of an injected file, no differing run report${dateEntersPrompt(this.input.family) ? ", same local date" : ""}`,
        entryIds: [],
      }
    );
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

  private dateRollover(m: ModelCall, n: ModelCall): CallCauseDTO | null {
    if (!dateEntersPrompt(this.input.family) || m.atMs === null || n.atMs === null) return null;
    const a = localDate(m.atMs, this.tz.tz);
    const b = localDate(n.atMs, this.tz.tz);
    if (a === b) return null;
    return {
      cause: "date-rollover",
      detail: `local date ${a} → ${b} in ${this.tz.tz} (${this.tz.source}): the prompt's "Current date" line changed`,
      entryIds: [],
    };
  }
}

/**
 * A Bedrock cross-region inference profile (`us.` / `eu.` / `apac.` … model ids) routes requests to several
 * regions; a prompt cache is kept per region, so a miss can be a region change — the serving region is not on disk.
 */
const CROSS_REGION = /^(us|eu|apac|jp|au|ca|global)\./u;

/** What would decide an `unknown` call, from what it looks like. */
function wouldDecide(c: CostCallDTO): string {
  const region = CROSS_REGION.test(c.model ?? "")
    ? " (Bedrock cross-region inference profile: the region that served each call, not recorded, would decide whether it was routed to another region's cache)"
    : "";
  if (c.cause.detail.includes("mid-run"))
    return `mid-run misses without a transcript signal: provider eviction or routing — a request capture would decide${region}`;
  return c.cacheRead === 0
    ? `first calls of a run that read nothing, not even the tool/system prefix: the tools or system prompt changed, or the cache was dropped — a run report per run (OpenClaw keeps only the last one) or a request capture would decide${region}`
    : `first calls of a run that read only an early prefix: an early message or the system prompt changed — a request capture would decide${region}`;
}

const callTokens = (c: CostCallDTO) => c.input + c.output + c.cacheRead + c.cacheWrite;

/** The spend by cause, costliest first; Σ costUsd = totalCostUsd. */
export function breakdownByCause(calls: readonly CostCallDTO[], totalCostUsd: number): CostBreakdownRowDTO[] {
  const fold = new BreakdownFold();
  for (const c of calls) fold.add(c);
  return fold.rows(totalCostUsd);
}

/** breakdownByCause as a fold that only grows (a continued cost run adds its new calls, in order). */
export class BreakdownFold {
  private readonly byCause = new Map<SpendCause, CostBreakdownRowDTO>();

  add(c: CostCallDTO): void {
    let row = this.byCause.get(c.cause.cause);
    if (!row) {
      row = {
        cause: c.cause.cause,
        calls: 0,
        tokens: 0,
        costUsd: 0,
        unpricedCalls: 0,
        missCostUsd: 0,
        shareOfSpend: null,
      };
      this.byCause.set(c.cause.cause, row);
    }
    row.calls++;
    row.tokens += callTokens(c);
    if (c.costUsd === null) row.unpricedCalls++;
    else row.costUsd += c.costUsd;
    row.missCostUsd += c.missCostUsd ?? 0;
  }

  /** The rows so far with their share of `totalCostUsd`, most spend first (new objects each time). */
  rows(totalCostUsd: number): CostBreakdownRowDTO[] {
    const out = [...this.byCause.values()].map((r) => ({
      ...r,
      shareOfSpend: totalCostUsd > 0 ? r.costUsd / totalCostUsd : null,
    }));
    return out.sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls);
  }
}

/** How much of the miss cost is still `unknown`, and what evidence would decide it. */
export function unknownMiss(calls: readonly CostCallDTO[]): UnknownMissDTO {
  let all = 0;
  let unknown = 0;
  const hints = new Map<string, number>();
  for (const c of calls) {
    all += c.missCostUsd ?? 0;
    if (c.cause.cause !== "unknown") continue;
    unknown += c.missCostUsd ?? 0;
    const h = wouldDecide(c);
    hints.set(h, (hints.get(h) ?? 0) + (c.missCostUsd ?? 0));
  }
  return {
    missCostUsd: unknown,
    shareOfMissCost: all > 0 ? unknown / all : null,
    wouldDecide: [...hints.entries()].sort((a, b) => b[1] - a[1]).map(([h]) => h),
  };
}
