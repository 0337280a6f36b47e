// Per call, the tool-result states the request was built with, as wire projections: WHICH state a tool result
// had is the pruning replay's answer (reports/prune-replay: one definition); HOW that state reads on the wire is
// openclaw/wire/tool-result-projection.ts. 2026.9.x persists the projection it sent (`openclaw.cache-ttl`
// snapshots, spec transcript.md §9.1): a hard-clear's recorded placeholder and a recorded non-TTL projection's
// texts (`frozenToolResults[].texts`, the aggregate tool-result budget) come from the newest snapshot on the
// path before the call. Pure.

import { arr, isObject, str } from "../../../shared/json.ts";
import type { PruneAlgorithm, PruneToolResultDTO } from "../../../shared/prune.ts";
import type { Transcript } from "../../model/session.ts";
import { estimateFlavorOf, isSticky } from "../../openclaw/pruning/generation.ts";
import { softTrimRulesOf } from "../../openclaw/pruning/soft-trim.ts";
import { parseProjectionSnapshot, projectionBaseKey } from "../../openclaw/pruning/sticky-2026-9.ts";
import type { ToolResultWire } from "../../openclaw/wire/tool-result-projection.ts";
import type { CallProjections } from "../../openclaw/wire/wire-run.ts";
import type { ReplayResult } from "../prune-replay/replay-result.ts";

interface Snapshot {
  placeholders: Map<string, string>;
  texts: Map<string, readonly string[]>;
}

function readSnapshot(data: unknown): Snapshot | null {
  if (!isObject(data) || !parseProjectionSnapshot(data)) return null;
  const placeholders = new Map<string, string>();
  for (const p of arr(data, "prunedToolResults") ?? []) {
    if (!isObject(p) || p.mode !== "hard") continue;
    const key = str(p, "key");
    const placeholder = str(p, "placeholder");
    if (key && placeholder !== undefined) placeholders.set(key, placeholder);
  }
  const texts = new Map<string, readonly string[]>();
  for (const f of arr(data, "frozenToolResults") ?? []) {
    const key = isObject(f) ? str(f, "key") : undefined;
    const t = isObject(f) ? f.texts : undefined;
    if (key && Array.isArray(t))
      texts.set(
        key,
        t.map((x) => (typeof x === "string" ? x : "")),
      );
  }
  return { placeholders, texts };
}

/** Walks the active branch alongside the calls; answers each call's projections in order. */
export class ReplayProjections {
  private branchPos = 0;
  private snapshot: Snapshot | null = null;
  private lastSignature = "";
  private version = 0;
  private readonly soft: ToolResultWire;
  private readonly placeholder: string;
  private readonly algorithm: PruneAlgorithm;
  private readonly hardByPlaceholder = new Map<string, ToolResultWire>();
  /** Calls whose first send of a live-capped read may differ from the stored text (2026.7, residual R1). */
  readonly liveForm = new Map<number, string[]>();

  constructor(
    private readonly transcript: Transcript,
    private readonly replay: ReplayResult,
  ) {
    const { settings, algorithm } = replay.summary();
    this.placeholder = settings.hardClear.placeholder;
    this.algorithm = algorithm;
    const s = settings.softTrim;
    this.soft = {
      state: "soft-trim",
      softTrim: { maxChars: s.maxChars, headChars: s.headChars, tailChars: s.tailChars },
      utf16Safe: softTrimRulesOf(estimateFlavorOf(algorithm)).utf16Safe,
    };
  }

  private hard(placeholder: string): ToolResultWire {
    let w = this.hardByPlaceholder.get(placeholder);
    if (!w) {
      w = { state: "hard-clear", placeholder };
      this.hardByPlaceholder.set(placeholder, w);
    }
    return w;
  }

  private advanceTo(entryIndex: number): void {
    const branch = this.transcript.activeBranch;
    for (; this.branchPos < branch.length; this.branchPos++) {
      const idx = branch[this.branchPos] ?? -1;
      if (idx >= entryIndex) break;
      const e = this.transcript.entries[idx];
      if (!e) continue;
      if (e.type === "reset") this.snapshot = null;
      else if (e.type === "custom" && str(e.raw, "customType") === "openclaw.cache-ttl") {
        const snap = readSnapshot(e.raw.data);
        if (snap) this.snapshot = snap;
      }
    }
  }

  private keyOf(d: PruneToolResultDTO): string | null {
    const m = this.transcript.entries[d.entryIndex]?.raw.message;
    return isObject(m) ? projectionBaseKey(m) : null;
  }

  private wireOf(d: PruneToolResultDTO, sticky: boolean): ToolResultWire | undefined {
    if (d.state === "soft-trim") return this.soft;
    const key = sticky && this.snapshot ? this.keyOf(d) : null;
    if (d.state === "hard-clear") {
      const recorded = key ? this.snapshot?.placeholders.get(key) : undefined;
      return this.hard(recorded ?? this.placeholder);
    }
    const texts = key ? this.snapshot?.texts.get(key) : undefined;
    return texts ? { state: "changed", texts } : undefined;
  }

  /** The projections of call `callIndex` (calls must be asked in order). */
  at(callIndex: number): CallProjections {
    const call = this.replay.calls[callIndex];
    const byEntry = new Map<number, ToolResultWire>();
    if (!call) return { byEntry, version: this.version };
    this.advanceTo(call.entryIndex);
    const sticky = isSticky(this.algorithm);
    const sig: string[] = [];
    for (const d of this.replay.statesAt(callIndex)?.details ?? []) {
      if (d.liveFormMayDiffer) {
        const list = this.liveForm.get(callIndex) ?? [];
        list.push(d.toolCallId);
        this.liveForm.set(callIndex, list);
      }
      const w = this.wireOf(d, sticky);
      if (!w) continue;
      byEntry.set(d.entryIndex, w);
      sig.push(
        `${d.entryIndex}:${w.state}:${w.state === "hard-clear" ? w.placeholder : ""}:${w.state === "changed" ? w.texts.length : ""}`,
      );
    }
    const signature = sig.join("|");
    if (signature !== this.lastSignature) {
      this.lastSignature = signature;
      this.version++;
    }
    return { byEntry, version: this.version };
  }
}
