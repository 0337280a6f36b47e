// Cache-TTL pruning replay (spec pruning.md §5): walks a session's active branch, rebuilds the
// model-context list of every model call (transcript.md §7), runs the TTL gate with the call's start
// time and the generation's pruner (≤2026.7.1 stateless §1.6, 2026.9.x sticky §2.4), and reports per
// call what every tool result looked like on the wire. `next` answers "would pruning fire if the next
// message came at time T?" (§5.5). Per-message estimates are prepared once per transcript and
// generation (WeakMap cache), so what-if re-runs with other knobs only redo the cheap part.
// Pure: the SHA-256 used for snapshot source hashes is injected.

import { isObject, type JsonObject, num, str } from "../../shared/json.ts";
import type {
  PruneAlgorithm,
  PruneCallDetailDTO,
  PruneCallDTO,
  PruneGate,
  PruneNextDTO,
  PruneOverrides,
  PruneReplayDTO,
  PruneRound,
  PruneSettingsDTO,
  PruneToolResultDTO,
  SnapshotMismatchDTO,
  ToolResultPreviewDTO,
  ToolResultWireState,
} from "../../shared/prune.ts";
import { ContextBuilder, toContextMessage } from "../model/context-messages.ts";
import { modelCallsOf } from "../model/model-calls.ts";
import type { ContextMessage, LoadedSession, Transcript, TranscriptEntry } from "../model/session.ts";
import {
  contentTextIsAscii,
  type EstimateFlavor,
  estimateMessageChars,
  weightedChars,
} from "../openclaw/estimate.ts";
import { resolveContextWindow } from "../openclaw/pruning/context-window.ts";
import { type Eligibility, resolveEligibility } from "../openclaw/pruning/eligibility.ts";
import type {
  PrunerInput,
  PrunerResult,
  PrunerSettings,
  PrunerToolResult,
} from "../openclaw/pruning/pruner-input.ts";
import { resolvePruneSettings } from "../openclaw/pruning/settings.ts";
import {
  type JoinedToolText,
  joinToolResultText,
  softTrimNote,
  softTrimText,
} from "../openclaw/pruning/soft-trim.ts";
import { pruneStateless } from "../openclaw/pruning/stateless-2026-7.ts";
import {
  cacheTouchOf,
  type Projection,
  type ProjectionSnapshot,
  parseProjectionSnapshot,
  projectionBaseKey,
  pruneSticky,
  restoreProjections,
  sourceHash,
} from "../openclaw/pruning/sticky-2026-9.ts";
import { makeToolPredicate } from "../openclaw/pruning/tool-glob.ts";

export interface ReplayInput {
  session: LoadedSession;
  /** Parsed openclaw.json (JSON5), or null when unknown. */
  config: JsonObject | null;
  overrides?: PruneOverrides;
  /** Time (ms) for the `next` prediction; default: the newest entry's time. */
  at?: number;
  sha256Base64Url: (s: string) => string;
  /**
   * 2026.9.x: restore projections from the persisted `openclaw.cache-ttl` snapshot at every attempt
   * start, as OpenClaw does. Default: true without overrides (faithful replay), false with overrides
   * (a what-if run replays from scratch).
   */
  useSnapshots?: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Per transcript + generation preparation (estimates computed once)

interface ToolResultInfo {
  entryIndex: number;
  toolCallId: string;
  toolName: string;
  joined: JoinedToolText;
  ascii: boolean;
  baseKey: string | null;
  /** 2026.7: `read` capped live (details.truncation.truncated) — first wire form can differ. */
  liveCapped: boolean;
  chars: number;
}

interface Prepared {
  /** Shape of the transcript when prepared: a live tail that appends in place invalidates it. */
  shape: string;
  /** entryIndex → estimate of a message entry (NaN for other entries). */
  chars: Float64Array;
  toolResults: Map<number, ToolResultInfo>;
  hashes: Map<number, string>;
  /** Memoised context message per entry index (null = not in context). */
  contextMessages: Map<number, ContextMessage | null>;
}

const preparedCache = new WeakMap<Transcript, Map<EstimateFlavor, Prepared>>();

/**
 * `from`: the Prepared of a transcript this one extends (same entries, active branch continued — see
 * ReplayRun.extend): its estimates are kept (its maps are shared: entry indexes do not change) and only the
 * new branch entries are estimated.
 */
function prepare(transcript: Transcript, flavor: EstimateFlavor, from?: Prepared): Prepared {
  let perFlavor = preparedCache.get(transcript);
  if (!perFlavor) {
    perFlavor = new Map();
    preparedCache.set(transcript, perFlavor);
  }
  const shape = `${transcript.entries.length}:${transcript.activeBranch.length}:${transcript.leafIndex}`;
  const cached = perFlavor.get(flavor);
  if (cached && cached.shape === shape) return cached;
  const chars = new Float64Array(transcript.entries.length).fill(Number.NaN);
  if (from) chars.set(from.chars.subarray(0, Math.min(from.chars.length, chars.length)));
  const known = from ? from.chars.length : 0;
  const toolResults = from?.toolResults ?? new Map<number, ToolResultInfo>();
  for (const idx of transcript.activeBranch) {
    if (idx < known) continue;
    const entry = transcript.entries[idx];
    if (entry?.type !== "message") continue;
    const message = entry.raw.message;
    if (!isObject(message)) continue;
    const role = str(message, "role") ?? "";
    const c = estimateMessageChars(role, message, flavor);
    chars[idx] = c;
    if (role === "toolResult") {
      const joined = joinToolResultText(message.content, flavor !== "2026.3");
      const truncation = isObject(message.details) ? message.details.truncation : undefined;
      toolResults.set(idx, {
        entryIndex: idx,
        toolCallId: str(message, "toolCallId") ?? "",
        toolName: str(message, "toolName") ?? "",
        joined,
        ascii: contentTextIsAscii(message.content),
        baseKey: projectionBaseKey(message),
        liveCapped:
          str(message, "toolName") === "read" && isObject(truncation) && truncation.truncated === true,
        chars: c,
      });
    }
  }
  const prepared: Prepared = {
    shape,
    chars,
    toolResults,
    hashes: from?.hashes ?? new Map(),
    contextMessages: from?.contextMessages ?? new Map(),
  };
  perFlavor.set(flavor, prepared);
  return prepared;
}

// ---------------------------------------------------------------------------------------------------
// The incrementally maintained pruner view of the current context list

interface ListState {
  generation: number;
  synced: number;
  perMessage: number[];
  rawTotal: number;
  assistantPositions: number[];
  firstUserPosition: number | null;
  toolResults: (PrunerToolResult & { info: ToolResultInfo })[];
  /** entryIndex → position, for tool results in the list. */
  positionOf: Map<number, number>;
  /** Projection base key → entryIndex, for tool results in the list. */
  keyIndex: Map<string, number>;
}

function emptyList(generation: number): ListState {
  return {
    generation,
    synced: 0,
    perMessage: [],
    rawTotal: 0,
    assistantPositions: [],
    firstUserPosition: null,
    toolResults: [],
    positionOf: new Map(),
    keyIndex: new Map(),
  };
}

function messageChars(m: ContextMessage, prepared: Prepared, flavor: EstimateFlavor): number {
  const pre = prepared.chars[m.entryIndex];
  if (
    (m.role === "user" || m.role === "assistant" || m.role === "toolResult") &&
    pre !== undefined &&
    !Number.isNaN(pre)
  )
    return pre;
  return estimateMessageChars(m.role, m.message, flavor);
}

/** Bring `list` in line with the builder (append, or rebuild after a compaction/reset). */
function syncList(
  list: ListState,
  builder: ContextBuilder,
  prepared: Prepared,
  flavor: EstimateFlavor,
): ListState {
  let l = list;
  if (builder.generation !== l.generation) l = emptyList(builder.generation);
  const msgs = builder.messages;
  for (let pos = l.synced; pos < msgs.length; pos++) {
    const m = msgs[pos];
    if (!m) continue;
    const c = messageChars(m, prepared, flavor);
    l.perMessage.push(c);
    l.rawTotal += c;
    if (m.role === "assistant") l.assistantPositions.push(pos);
    else if (m.role === "user" && l.firstUserPosition === null) l.firstUserPosition = pos;
    else if (m.role === "toolResult") {
      const info = prepared.toolResults.get(m.entryIndex);
      if (info) {
        l.toolResults.push({
          position: pos,
          entryIndex: info.entryIndex,
          toolCallId: info.toolCallId,
          toolName: info.toolName,
          chars: c,
          hasImage: info.joined.hasImage,
          info,
        });
        l.positionOf.set(info.entryIndex, pos);
        if (info.baseKey !== null) l.keyIndex.set(info.baseKey, info.entryIndex);
      }
    }
  }
  l.synced = msgs.length;
  return l;
}

// ---------------------------------------------------------------------------------------------------

function algorithmFor(
  session: LoadedSession,
  overrides: PruneOverrides | undefined,
): {
  algorithm: PruneAlgorithm;
  source: "auto" | "override";
  reason: string;
} {
  const o = overrides?.algorithm;
  if (o && o !== "auto") return { algorithm: o, source: "override", reason: `algorithm forced to ${o}` };
  return {
    algorithm: session.version.family,
    source: "auto",
    reason: `from the session's OpenClaw version: ${session.version.reason}`,
  };
}

function hasEffectiveOverrides(o: PruneOverrides | undefined): boolean {
  if (!o) return false;
  return Object.entries(o).some(([k, v]) => v !== undefined && !(k === "algorithm" && v === "auto"));
}

function entryTime(entry: TranscriptEntry): number | null {
  const m = entry.raw.message;
  if (isObject(m)) {
    const t = num(m, "timestamp");
    if (t !== undefined) return t;
  }
  if (entry.type === "custom" && isObject(entry.raw.data)) {
    const t = num(entry.raw.data, "timestamp");
    if (t !== undefined) return t;
  }
  const parsed = entry.timestamp === null ? Number.NaN : Date.parse(entry.timestamp);
  return Number.isNaN(parsed) ? null : parsed;
}

function markerKey(provider: string | null, modelId: string | null): string {
  return `${(provider ?? "").toLowerCase()}/${(modelId ?? "").toLowerCase()}`;
}

function formatDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${m % 60}m`;
}

const GATE_TEXT: Record<PruneGate, string> = {
  "mode-off": "contextPruning.mode is not cache-ttl: no new rounds",
  "not-eligible": "provider/model not cache-TTL eligible: no rounds",
  "server-side": "direct Anthropic API: server-side clearing instead of local rounds",
  "ttl-disabled": "ttl is 0: rounds disabled",
  "no-cache-touch": "no cache-touch marker yet (first run of the session never prunes)",
  "ttl-not-expired": "TTL not expired since the last cache touch",
  "no-window": "no positive context window",
  "too-few-assistants": "fewer assistant messages than keepLastAssistants",
  "no-user-message": "no user message in the context list",
  "below-soft-trim-ratio": "gate open, but the context is below the soft-trim ratio",
  open: "gate open: pruning round ran",
};

const NO_CHANGES: ReadonlyMap<number, { state: "soft-trim" | "hard-clear"; chars: number }> = new Map();

function roundOf(result: PrunerResult | null): PruneRound {
  if (!result || result.changes.size === 0) return "none";
  for (const c of result.changes.values()) if (c.state === "hard-clear") return "hard-clear";
  return "soft-trim";
}

function projState(p: Projection | undefined): ToolResultWireState {
  if (!p) return "full";
  return p.mode === "hard" ? "hard-clear" : "soft-trim";
}

/** Provider/model/api of the last model call on the active branch, else the SessionEntry's. */
function lastCallModel(session: LoadedSession): {
  provider: string | null;
  modelId: string | null;
  api: string | null;
} {
  const provider: string | null = str(session.entry, "modelProvider") ?? session.summary.provider;
  const modelId: string | null = str(session.entry, "model") ?? session.summary.model;
  const last = modelCallsOf(session.transcript).lastOnActiveBranch();
  if (!last) return { provider, modelId, api: null };
  return { provider: last.provider ?? provider, modelId: last.model ?? modelId, api: last.api };
}

/**
 * A replay that can be continued when entries are appended (issue 9: append → report). Every piece of replay
 * state — context builder, tool-result list, projections and their history, TTL clock, calls — only grows
 * with the active branch, so a transcript that continues the replayed one is replayed from where it
 * stopped, with the result a fresh replay of it would give (test/unit/prune-replay-extend.test.ts).
 */
export interface ReplayRun {
  /**
   * Continue over the entries `session` appended to the replayed transcript. False (the run is unchanged)
   * when `session` does not simply continue it, or when what the replay derives from the whole session —
   * the last call's provider/model/api, hence settings, eligibility and context window — changed.
   */
  extend(session: LoadedSession): boolean;
  /** The DTO of the transcript replayed so far (each call returns a new one; earlier ones stay valid). */
  finish(): PruneReplayDTO;
}

/** Replay cache-TTL pruning over a session (see file header). */
export function replayPruning(input: ReplayInput): PruneReplayDTO {
  return startReplay(input).finish();
}

/** Start a replay that can be continued (ReplayRun). */
export function startReplay(input: ReplayInput): ReplayRun {
  const { config, overrides } = input;
  let session = input.session;
  let transcript = session.transcript;
  let modelCalls = modelCallsOf(transcript);
  const algo = algorithmFor(session, overrides);
  const algorithm = algo.algorithm;
  const flavor: EstimateFlavor = algorithm;
  const sticky = algorithm === "2026.9";
  const whatIf = hasEffectiveOverrides(overrides);
  const useSnapshots = input.useSnapshots ?? !whatIf;

  // Provider/model: the last real call, else the SessionEntry.
  const { provider, modelId, api } = lastCallModel(session);

  const settings: PruneSettingsDTO = resolvePruneSettings({
    config,
    algorithm,
    ...(overrides ? { overrides } : {}),
    anthropicSmartDefaults: (provider ?? "").toLowerCase() === "anthropic",
  });
  const cw =
    overrides?.contextWindow !== undefined && overrides.contextWindow > 0
      ? { tokens: Math.floor(overrides.contextWindow), source: "override" }
      : resolveContextWindow({ config, provider, modelId, entry: session.entry, family: algorithm });
  const charWindow = cw.tokens * 4;

  const eligibilityCache = new Map<string, Eligibility>();
  const eligibilityOf = (p: string | null, m: string | null, a: string | null): Eligibility => {
    const key = `${p}\u0000${m}\u0000${a}`;
    let e = eligibilityCache.get(key);
    if (!e) {
      e = resolveEligibility({ algorithm, provider: p, modelId: m, api: a, config });
      eligibilityCache.set(key, e);
    }
    return e;
  };
  const sessionEligibility = eligibilityOf(provider, modelId, api);

  let prepared = prepare(transcript, flavor);
  const prunableCache = new Map<string, boolean>();
  const predicate = makeToolPredicate(settings.tools.allow, settings.tools.deny);
  const isToolPrunable = (name: string): boolean => {
    let v = prunableCache.get(name);
    if (v === undefined) {
      v = predicate(name);
      prunableCache.set(name, v);
    }
    return v;
  };
  const softCfg = settings.softTrim;
  const softCache = new Map<number, number | null>();
  const softTrimCharsOf = (info: ToolResultInfo): number | null => {
    const hit = softCache.get(info.entryIndex);
    if (hit !== undefined) return hit;
    let chars: number | null;
    if (flavor === "2026.3" && info.joined.hasImage) chars = null;
    else {
      const n = info.joined.text.length;
      const short = n <= softCfg.maxChars || softCfg.headChars + softCfg.tailChars >= n;
      if (short)
        chars = flavor !== "2026.3" && info.joined.hasImage ? weightedChars(info.joined.text, flavor) : null;
      else if (info.ascii) {
        chars =
          softCfg.headChars +
          5 +
          softCfg.tailChars +
          softTrimNote(softCfg.headChars, softCfg.tailChars, n).length;
      } else {
        const text = softTrimText(info.joined, softCfg, {
          utf16Safe: flavor === "2026.9",
          imagesForceRewrite: flavor !== "2026.3",
        });
        chars = text === null ? null : weightedChars(text, flavor);
      }
    }
    softCache.set(info.entryIndex, chars);
    return chars;
  };
  const placeholderChars = (p: string): number => weightedChars(p, flavor);
  const prunerSettings: PrunerSettings = {
    keepLastAssistants: settings.keepLastAssistants,
    softTrimRatio: settings.softTrimRatio,
    hardClearRatio: settings.hardClearRatio,
    minPrunableToolChars: settings.minPrunableToolChars,
    softTrim: softCfg,
    hardClearEnabled: settings.hardClear.enabled,
    placeholder: settings.hardClear.placeholder,
    isToolPrunable,
    flavor,
    softTrimChars: (tr) => {
      const info = prepared.toolResults.get(tr.entryIndex);
      return info ? softTrimCharsOf(info) : null;
    },
  };
  const hashOf = (info: ToolResultInfo): string => {
    let h = prepared.hashes.get(info.entryIndex);
    if (h === undefined) {
      const e = transcript.entries[info.entryIndex];
      const m = e?.raw.message;
      h = sourceHash(isObject(m) ? m.content : undefined, input.sha256Base64Url);
      prepared.hashes.set(info.entryIndex, h);
    }
    return h;
  };

  // --- replay state ---
  const builder = new ContextBuilder((entry) => {
    let m = prepared.contextMessages.get(entry.index);
    if (m === undefined) {
      m = toContextMessage(entry);
      prepared.contextMessages.set(entry.index, m);
    }
    return m;
  });
  let list = emptyList(builder.generation);
  const proj = new Map<number, Projection>();
  let projDelta = 0;
  let projDeltaGeneration = list.generation;
  const recomputeProjDelta = (): void => {
    projDeltaGeneration = list.generation;
    projDelta = 0;
    for (const [entryIndex, p] of proj) {
      if (list.positionOf.has(entryIndex))
        projDelta += p.chars - (prepared.toolResults.get(entryIndex)?.chars ?? 0);
    }
  };
  /**
   * Sticky state history: per tool result, every projection change with the call index it applies
   * from. Per-call states are derived from it on demand (a call's `toolResults` / `details` are lazy),
   * so a replay stays linear in the session size.
   */
  const transitions = new Map<number, { call: number; state: ToolResultWireState; chars: number }[]>();
  const setProjection = (entryIndex: number, p: Projection | undefined, call: number): void => {
    if (p) proj.set(entryIndex, p);
    else proj.delete(entryIndex);
    const state = projState(p);
    const full = prepared.toolResults.get(entryIndex)?.chars ?? 0;
    let list2 = transitions.get(entryIndex);
    if (!list2) {
      list2 = [];
      transitions.set(entryIndex, list2);
    }
    const last = list2[list2.length - 1];
    const chars = p ? p.chars : full;
    if (last && last.call === call) {
      last.state = state;
      last.chars = chars;
    } else if (!last || last.state !== state || last.chars !== chars) {
      list2.push({ call, state, chars });
    }
  };
  /** Stateless (≤7.1) changes per call index. */
  const callChanges: (ReadonlyMap<number, { state: "soft-trim" | "hard-clear"; chars: number }> | null)[] =
    [];
  const stateAt = (entryIndex: number, call: number): { state: ToolResultWireState; chars: number } => {
    const full = prepared.toolResults.get(entryIndex)?.chars ?? 0;
    if (call < 0) return { state: "full", chars: full };
    if (!sticky) return callChanges[call]?.get(entryIndex) ?? { state: "full", chars: full };
    const tl = transitions.get(entryIndex);
    if (!tl) return { state: "full", chars: full };
    for (let i = tl.length - 1; i >= 0; i--) {
      const x = tl[i];
      if (x && x.call <= call) return { state: x.state, chars: x.chars };
    }
    return { state: "full", chars: full };
  };

  // TTL clock: cache-touch markers over the full entry list, in append order (transcript.md §9.1).
  let markerPtr = 0;
  let newestTouchAny: number | null = null;
  const newestTouchByKey = new Map<string, number>();
  let attemptMarkers: { any: number | null; byKey: Map<string, number> } | null = null;
  /** Copy of the marker clock for attempt starts, reused until a new marker arrives. */
  let attemptMarkersCopy: { any: number | null; byKey: Map<string, number> } | null = null;
  let attemptPending = false;
  let currentRunId: string | null = null;
  let lastTouch: number | null = null;
  let latestSnapshot: ProjectionSnapshot | null = null;
  /** The newest snapshot when the current attempt started (what OpenClaw restores from). */
  let attemptSnapshot: ProjectionSnapshot | null = null;
  const firstSendSeen = new Set<number>();
  let sentPtr = 0;
  let sentPtrGeneration = list.generation;
  const calls: PruneCallDTO[] = [];
  let mismatchCalls = 0;
  let rounds = 0;
  const warnings = [...settings.warnings];

  const advanceMarkers = (uptoIndex: number): void => {
    for (; markerPtr <= uptoIndex && markerPtr < transcript.entries.length; markerPtr++) {
      const e = transcript.entries[markerPtr];
      if (e?.type !== "custom" || str(e.raw, "customType") !== "openclaw.cache-ttl") continue;
      const touch = cacheTouchOf(e.raw.data);
      if (!touch) continue;
      newestTouchAny = touch.timestamp;
      newestTouchByKey.set(markerKey(touch.provider, touch.modelId), touch.timestamp);
      attemptMarkersCopy = null;
    }
  };
  const clockFor = (
    markers: { any: number | null; byKey: Map<string, number> },
    p: string | null,
    m: string | null,
  ) =>
    // 2026.3.2 ignores provider/model; 2026.7.1+ match them (case-insensitive).
    algorithm === "2026.3" ? markers.any : (markers.byKey.get(markerKey(p, m)) ?? null);

  /** Replace the projection state by the one restored from `snapshot` (pruning.md §2.6). */
  const restoreFromSnapshot = (snapshot: ProjectionSnapshot | null, call: number): void => {
    const restored = snapshot
      ? restoreProjections(
          snapshot,
          (key) => {
            const entryIndex = list.keyIndex.get(key);
            const info = entryIndex === undefined ? undefined : prepared.toolResults.get(entryIndex);
            if (!info) return undefined;
            return { entryIndex: info.entryIndex, key, hash: hashOf(info), softChars: softTrimCharsOf(info) };
          },
          placeholderChars,
        )
      : new Map<number, Projection>();
    for (const entryIndex of [...proj.keys()]) {
      if (!restored.has(entryIndex)) setProjection(entryIndex, undefined, call);
    }
    for (const [entryIndex, p] of restored) {
      const old = proj.get(entryIndex);
      if (!old || old.mode !== p.mode || old.chars !== p.chars) setProjection(entryIndex, p, call);
    }
    recomputeProjDelta();
  };

  const makeView = (extraUser: boolean): PrunerInput => {
    const count = builder.messages.length + (extraUser ? 1 : 0);
    return {
      count,
      totalChars: list.rawTotal + (sticky ? projDelta : 0),
      charWindow,
      assistantPositions: list.assistantPositions,
      firstUserPosition: list.firstUserPosition ?? (extraUser ? builder.messages.length : null),
      toolResults: list.toolResults,
    };
  };

  const runRound = (view: PrunerInput): PrunerResult =>
    sticky
      ? pruneSticky(view, proj, prunerSettings)
      : pruneStateless(view, prunerSettings, algorithm === "2026.3");

  const gateFor = (
    t: number,
    touch: number | null,
    elig: Eligibility,
  ): { gate: PruneGate; ttlExpired: boolean; idleMs: number | null } => {
    const idleMs = touch === null ? null : t - touch;
    const ttlExpired = touch !== null && settings.ttlMs > 0 && t - touch >= settings.ttlMs;
    let gate: PruneGate = "open";
    if (settings.mode !== "cache-ttl") gate = "mode-off";
    else if (elig.path === "none") gate = "not-eligible";
    else if (elig.path === "server-side") gate = "server-side";
    else if (settings.ttlMs <= 0) gate = "ttl-disabled";
    else if (touch === null) gate = "no-cache-touch";
    else if (!ttlExpired) gate = "ttl-not-expired";
    return { gate, ttlExpired, idleMs };
  };

  /** Compare the replayed projections with the snapshot written before this request (2026.9.x). */
  const checkSnapshot = (flags: string[]): PruneCallDTO["snapshotCheck"] => {
    if (!sticky || whatIf) return { status: "not-applicable", mismatches: [] };
    const snap = latestSnapshot;
    if (!snap) return { status: "no-snapshot", mismatches: [] };
    const ambiguous = new Set(snap.ambiguousBaseKeys);
    const mismatches: SnapshotMismatchDTO[] = [];
    const seen = new Set<number>();
    for (const mark of snap.pruned) {
      const entryIndex = list.keyIndex.get(mark.key);
      if (entryIndex === undefined || ambiguous.has(mark.key)) continue;
      seen.add(entryIndex);
      const replayMode = proj.get(entryIndex)?.mode ?? "none";
      if (replayMode !== mark.mode) {
        mismatches.push({
          key: mark.key,
          toolCallId: prepared.toolResults.get(entryIndex)?.toolCallId ?? null,
          replay: replayMode,
          snapshot: mark.mode,
        });
      }
    }
    for (const [entryIndex, p] of proj) {
      if (seen.has(entryIndex) || !list.positionOf.has(entryIndex)) continue;
      const info = prepared.toolResults.get(entryIndex);
      const key = info?.baseKey;
      if (!info || !key || ambiguous.has(key)) continue;
      mismatches.push({ key, toolCallId: info.toolCallId, replay: p.mode, snapshot: "none" });
    }
    for (const f of snap.frozen) {
      if (!f.hasTexts) continue;
      const entryIndex = list.keyIndex.get(f.key);
      if (entryIndex === undefined) continue;
      flags.push(
        `tool result ${prepared.toolResults.get(entryIndex)?.toolCallId ?? f.key} has a recorded non-TTL projection (aggregate tool-result budget): its wire text differs from the stored one`,
      );
    }
    if (mismatches.length) {
      mismatchCalls++;
      flags.push(
        `replay disagrees with the persisted openclaw.cache-ttl snapshot for ${mismatches.length} tool result(s)`,
      );
    }
    return { status: mismatches.length ? "mismatch" : "match", mismatches };
  };

  let branchPos = 0;
  const advance = (): void => {
    for (; branchPos < transcript.activeBranch.length; branchPos++) {
      const idx = transcript.activeBranch[branchPos] ?? -1;
      const entry = transcript.entries[idx];
      if (!entry) continue;
      advanceMarkers(idx);

      if (entry.type === "custom" && str(entry.raw, "customType") === "openclaw.cache-ttl") {
        const snap = parseProjectionSnapshot(entry.raw.data);
        if (snap) latestSnapshot = snap;
      }
      if (entry.type === "reset") {
        // Projections do not survive a reset (transcript.md §6).
        latestSnapshot = null;
        attemptSnapshot = null;
        for (const entryIndex of [...proj.keys()]) setProjection(entryIndex, undefined, calls.length);
        projDelta = 0;
      }

      const message = entry.type === "message" ? entry.raw.message : undefined;
      const role = isObject(message) ? str(message, "role") : undefined;

      if (isObject(message) && role === "user" && message.excludeFromContext !== true) {
        const key = str(message, "idempotencyKey");
        const runId = key?.endsWith(":user") ? key.slice(0, -":user".length) : (key ?? null);
        if (runId === null || runId !== currentRunId) {
          // A new attempt: the clock starts from the newest cache-touch marker (pruning.md §1.8, §2.4 step 9).
          currentRunId = runId;
          attemptMarkersCopy ??= { any: newestTouchAny, byKey: new Map(newestTouchByKey) };
          attemptMarkers = attemptMarkersCopy;
          attemptSnapshot = latestSnapshot;
          attemptPending = true;
        }
      }

      // A pruner request: an assistant that entered the context list (transcript.md §8).
      const modelCall = role === "assistant" ? modelCalls.at(entry.index) : undefined;
      if (modelCall && !modelCall.transcriptOnly && !modelCall.excludeFromContext) {
        const callIndex = calls.length;
        const t = modelCall.atMs ?? 0;
        const callProvider = modelCall.provider ?? provider;
        const callModel = modelCall.model ?? modelId;
        const elig = eligibilityOf(callProvider, callModel, modelCall.api ?? api);
        list = syncList(list, builder, prepared, flavor);
        // A compaction/reset rebuilt the list: recompute the projected delta over the new window.
        if (list.generation !== projDeltaGeneration) recomputeProjDelta();
        if (attemptPending) {
          attemptPending = false;
          lastTouch = attemptMarkers ? clockFor(attemptMarkers, callProvider, callModel) : null;
          // Without any snapshot (older data, synthetic sessions) the simulated state is kept.
          if (sticky && useSnapshots && attemptSnapshot) restoreFromSnapshot(attemptSnapshot, callIndex);
        }
        const touchAtGate = lastTouch;
        const g = gateFor(t, lastTouch, elig);
        const view = makeView(false);
        let result: PrunerResult | null = null;
        let gate = g.gate;
        if (gate === "open") {
          result = runRound(view);
          if (result.reason !== "pruned" && result.reason !== "no-change") gate = result.reason;
        }
        const round = roundOf(result);
        if (round !== "none") rounds++;
        const changes = result?.changes ?? NO_CHANGES;
        let softNow = 0;
        let hardNow = 0;
        for (const [entryIndex, ch] of changes) {
          if (ch.state === "soft-trim") softNow++;
          else hardNow++;
          if (sticky) {
            const full = prepared.toolResults.get(entryIndex)?.chars ?? 0;
            const before = proj.get(entryIndex);
            projDelta -= before ? before.chars - full : 0;
            const p: Projection =
              ch.state === "hard-clear"
                ? { mode: "hard", chars: ch.chars, placeholder: settings.hardClear.placeholder }
                : { mode: "soft", chars: ch.chars };
            setProjection(entryIndex, p, callIndex);
            projDelta += p.chars - full;
          }
        }
        callChanges.push(sticky || changes.size === 0 ? null : changes);
        if (changes.size > 0) lastTouch = t;
        const stop = modelCall.stopReason;
        const failed = stop === "error" || stop === "aborted";
        // 2026.9.x: every successful request refreshes the clock (§2.4 step 8).
        if (sticky && !failed) lastTouch = t;
        const totalAfter = sticky ? list.rawTotal + projDelta : (result?.totalAfter ?? view.totalChars);

        // First sends (2026.7 live-capped reads): only the results appended since the previous call.
        const flags: string[] = [];
        let liveForm: Set<number> | null = null;
        if (sentPtrGeneration !== list.generation) {
          sentPtrGeneration = list.generation;
          sentPtr = 0;
        }
        for (; sentPtr < list.toolResults.length; sentPtr++) {
          const tr = list.toolResults[sentPtr];
          if (!tr || firstSendSeen.has(tr.entryIndex)) continue;
          firstSendSeen.add(tr.entryIndex);
          if (algorithm === "2026.7" && tr.info.liveCapped) {
            liveForm ??= new Set<number>();
            liveForm.add(tr.entryIndex);
            flags.push(
              `read result ${tr.toolCallId} was capped live: its first wire form can differ from the stored text (2026.7; later calls replay the stored form)`,
            );
          }
        }
        const snapshotCheck = checkSnapshot(flags);
        if (elig.path === "server-side") flags.push(elig.reason);
        if (sticky && failed)
          flags.push(`request ended with stopReason ${stop}: the TTL clock is not refreshed`);

        const trs = list.toolResults;
        const trCount = trs.length;
        const cutoff = result?.cutoff ?? null;
        const start = result?.start ?? null;
        let toolResultsCache: Record<string, ToolResultWireState> | null = null;
        let detailsCache: PruneToolResultDTO[] | null = null;
        calls.push({
          entryId: entry.id,
          responseId: modelCall.responseId,
          timestamp: t,
          lastCacheTouchAt: touchAtGate,
          idleMs: g.idleMs,
          ttlExpired: g.ttlExpired,
          round,
          messageChars: totalAfter,
          get toolResults(): Record<string, ToolResultWireState> {
            if (!toolResultsCache) {
              const rec: Record<string, ToolResultWireState> = {};
              for (let i = 0; i < trCount; i++) {
                const tr = trs[i];
                if (tr) rec[tr.toolCallId] = stateAt(tr.entryIndex, callIndex).state;
              }
              toolResultsCache = rec;
            }
            return toolResultsCache;
          },
          entryIndex: entry.index,
          gate,
          gateText: GATE_TEXT[gate],
          messageCount: view.count,
          totalCharsBefore: view.totalChars,
          totalCharsAfter: totalAfter,
          charWindow,
          ratioBefore: charWindow > 0 ? view.totalChars / charWindow : 0,
          ratioAfter: charWindow > 0 ? totalAfter / charWindow : 0,
          charsRemoved: view.totalChars - totalAfter,
          softTrimmedNow: softNow,
          hardClearedNow: hardNow,
          get details(): PruneToolResultDTO[] {
            if (!detailsCache) {
              const out: PruneToolResultDTO[] = [];
              for (let i = 0; i < trCount; i++) {
                const tr = trs[i];
                if (!tr) continue;
                const now = stateAt(tr.entryIndex, callIndex);
                const prev = stateAt(tr.entryIndex, callIndex - 1);
                const changedThisCall = changes.has(tr.entryIndex) || now.state !== prev.state;
                const live = liveForm?.has(tr.entryIndex) === true;
                const d: PruneToolResultDTO = {
                  toolCallId: tr.toolCallId,
                  toolName: tr.toolName,
                  entryIndex: tr.entryIndex,
                  state: now.state,
                  charsFull: tr.chars,
                  charsSent: now.chars,
                  changedThisCall,
                  inPrunableRange:
                    start !== null && cutoff !== null && tr.position >= start && tr.position < cutoff,
                  toolAllowed: isToolPrunable(tr.toolName),
                };
                if (live) d.liveFormMayDiffer = true;
                out.push(d);
              }
              detailsCache = out;
            }
            return detailsCache;
          },
          snapshotCheck,
          flags,
        });
      }

      builder.push(entry);
    }
  };
  advance();

  /** False once finish() restored a snapshot into the live projections (2026.9): no continuing after that. */
  let resumable = true;

  const extend = (next: LoadedSession): boolean => {
    const t = next.transcript;
    const n = transcript.entries.length;
    const b = transcript.activeBranch.length;
    if (!resumable || t.entries.length < n || t.activeBranch.length < b) return false;
    if (n > 0 && t.entries[n - 1] !== transcript.entries[n - 1]) return false;
    // a path from the root is unique: the same entry at the old leaf's position means the same prefix
    if (b > 0 && t.activeBranch[b - 1] !== transcript.activeBranch[b - 1]) return false;
    // only appended entries continue the branch (an older side entry joining it was never estimated, and
    // the TTL clock has already read every marker of the old entries)
    for (let i = b; i < t.activeBranch.length; i++) if ((t.activeBranch[i] ?? -1) < n) return false;
    if (algorithmFor(next, overrides).algorithm !== algorithm) return false;
    const m = lastCallModel(next);
    if (m.provider !== provider || m.modelId !== modelId || m.api !== api) return false;
    const cwNext =
      overrides?.contextWindow !== undefined && overrides.contextWindow > 0
        ? cw
        : resolveContextWindow({ config, provider, modelId, entry: next.entry, family: algorithm });
    if (cwNext.tokens !== cw.tokens || cwNext.source !== cw.source) return false;
    session = next;
    transcript = t;
    modelCalls = modelCallsOf(t);
    prepared = prepare(t, flavor, prepared);
    advance();
    return true;
  };

  const finish = (): PruneReplayDTO => {
    // --- next: a hypothetical user message at `at` (pruning.md §5.5); nothing is mutated for real ---
    advanceMarkers(transcript.entries.length - 1);
    list = syncList(list, builder, prepared, flavor);
    if (list.generation !== projDeltaGeneration) recomputeProjDelta();
    let lastEntryTime: number | null = null;
    for (let i = transcript.activeBranch.length - 1; i >= 0 && lastEntryTime === null; i--) {
      const e = transcript.entries[transcript.activeBranch[i] ?? -1];
      if (e) lastEntryTime = entryTime(e);
    }
    const at = input.at ?? lastEntryTime ?? 0;
    const nextTouch = clockFor({ any: newestTouchAny, byKey: newestTouchByKey }, provider, modelId);
    if (sticky && useSnapshots && latestSnapshot) {
      restoreFromSnapshot(latestSnapshot, calls.length);
      resumable = false;
    }
    const g = gateFor(at, nextTouch, sessionEligibility);
    const view = makeView(true);
    const hypothetical =
      settings.mode === "cache-ttl" && sessionEligibility.path === "client" && settings.ttlMs > 0;
    const result = hypothetical ? runRound(view) : null;
    let nextGate: PruneGate = g.gate;
    if (nextGate === "open" && result && result.reason !== "pruned" && result.reason !== "no-change")
      nextGate = result.reason;
    const wouldPrune = g.gate === "open" && result !== null && result.changes.size > 0;
    const nextStates: Record<string, ToolResultWireState> = {};
    for (const tr of list.toolResults) {
      const ch = wouldPrune ? result?.changes.get(tr.entryIndex) : undefined;
      nextStates[tr.toolCallId] = ch ? ch.state : sticky ? projState(proj.get(tr.entryIndex)) : "full";
    }
    const totalAfterIfRound = result && result.changes.size > 0 ? result.totalAfter : view.totalChars;
    const next: PruneNextDTO = {
      at,
      ttlExpired: g.ttlExpired,
      wouldPrune,
      toolResults: nextStates,
      lastCacheTouchAt: nextTouch,
      msUntilTtlExpiry: nextTouch === null ? null : nextTouch + settings.ttlMs - at,
      gate: nextGate,
      round: wouldPrune ? roundOf(result) : "none",
      totalChars: view.totalChars,
      ratio: charWindow > 0 ? view.totalChars / charWindow : 0,
      totalCharsAfter: wouldPrune ? totalAfterIfRound : view.totalChars,
      ratioAfter: charWindow > 0 ? (wouldPrune ? totalAfterIfRound : view.totalChars) / charWindow : 0,
      prediction: predictionText(settings, g, nextTouch, at, result, view, charWindow),
    };

    return {
      algorithm,
      settings,
      contextWindowTokens: cw.tokens,
      calls: calls.slice(),
      next,
      algorithmSource: algo.source,
      algorithmReason: algo.reason,
      contextWindowSource: cw.source,
      charWindow,
      eligibility: sessionEligibility,
      snapshotMismatchCalls: mismatchCalls,
      rounds,
      warnings: warnings.slice(),
    };
  };

  return { extend, finish };
}

function predictionText(
  settings: PruneSettingsDTO,
  g: { gate: PruneGate; ttlExpired: boolean },
  touch: number | null,
  at: number,
  result: PrunerResult | null,
  view: PrunerInput,
  charWindow: number,
): string {
  if (settings.mode !== "cache-ttl")
    return "Pruning is off (contextPruning.mode is not cache-ttl): no round will open.";
  if (g.gate === "not-eligible") return "The provider/model is not cache-TTL eligible: no round will open.";
  if (g.gate === "server-side")
    return "Direct Anthropic API: 2026.9.x clears tool uses server-side; no local round.";
  if (settings.ttlMs <= 0) return "ttl is 0: pruning rounds are disabled.";
  const ratio = charWindow > 0 ? view.totalChars / charWindow : 0;
  const ratioText = `${(ratio * 100).toFixed(1)}% of the char window (soft-trim at ${Math.round(settings.softTrimRatio * 100)}%, hard-clear at ${Math.round(settings.hardClearRatio * 100)}%)`;
  const effect = (() => {
    if (!result || result.changes.size === 0) return `nothing would change (context at ${ratioText})`;
    let soft = 0;
    let hard = 0;
    for (const c of result.changes.values()) {
      if (c.state === "soft-trim") soft++;
      else hard++;
    }
    const parts = [soft ? `soft-trim ${soft}` : "", hard ? `hard-clear ${hard}` : ""]
      .filter(Boolean)
      .join(" and ");
    const after = charWindow > 0 ? (result.totalAfter / charWindow) * 100 : 0;
    return `a round would ${parts} tool result(s): ${(ratio * 100).toFixed(1)}% → ${after.toFixed(1)}% of the char window`;
  })();
  if (touch === null)
    return `No cache-touch marker yet: the next call cannot prune; once the TTL runs, ${effect}.`;
  const remaining = touch + settings.ttlMs - at;
  if (remaining > 0) return `TTL expires in ${formatDuration(remaining)}; a message after that: ${effect}.`;
  return `TTL expired ${formatDuration(remaining)} ago; the next message: ${effect}.`;
}

// ---------------------------------------------------------------------------------------------------
// Summary + one call (UI): per-call tool-result states are O(calls × tool results) — tens of MB of JSON for a
// long session — so the UI gets the calls without them and asks for the selected call's.

/** A call without its per-tool-result states (its lazy `toolResults` / `details` are never built). */
function callSummary(c: PruneCallDTO): PruneCallDTO {
  return {
    entryId: c.entryId,
    responseId: c.responseId,
    timestamp: c.timestamp,
    lastCacheTouchAt: c.lastCacheTouchAt,
    idleMs: c.idleMs,
    ttlExpired: c.ttlExpired,
    round: c.round,
    messageChars: c.messageChars,
    toolResults: {},
    entryIndex: c.entryIndex,
    gate: c.gate,
    gateText: c.gateText,
    messageCount: c.messageCount,
    totalCharsBefore: c.totalCharsBefore,
    totalCharsAfter: c.totalCharsAfter,
    charWindow: c.charWindow,
    ratioBefore: c.ratioBefore,
    ratioAfter: c.ratioAfter,
    charsRemoved: c.charsRemoved,
    softTrimmedNow: c.softTrimmedNow,
    hardClearedNow: c.hardClearedNow,
    details: [],
    snapshotCheck: c.snapshotCheck,
    flags: c.flags,
  };
}

/** The replay with every call's `toolResults` / `details` left empty (`callsDetail: "summary"`). */
export function pruneReplaySummary(replay: PruneReplayDTO): PruneReplayDTO {
  return { ...replay, calls: replay.calls.map(callSummary), callsDetail: "summary" };
}

/** One call's tool-result states, or null for an index outside the replay. */
export function pruneCallDetail(replay: PruneReplayDTO, index: number): PruneCallDetailDTO | null {
  const call = replay.calls[index];
  if (!call) return null;
  return { index, toolResults: call.toolResults, details: call.details };
}

// ---------------------------------------------------------------------------------------------------
// Per-call preview of one tool result (UI)

export type ToolResultPreview = ToolResultPreviewDTO;

/** Wire text of a tool result message in a state (soft-trim: head … tail + note; hard-clear: placeholder). */
export function toolResultWireText(
  message: JsonObject,
  state: ToolResultWireState,
  settings: PruneSettingsDTO,
  algorithm: PruneAlgorithm,
): string {
  if (state === "hard-clear") return settings.hardClear.placeholder;
  const joined = joinToolResultText(message.content, algorithm !== "2026.3", true);
  if (state === "soft-trim") {
    return (
      softTrimText(joined, settings.softTrim, {
        utf16Safe: algorithm === "2026.9",
        imagesForceRewrite: algorithm !== "2026.3",
      }) ?? joined.text
    );
  }
  return joined.text;
}

/** Before/after text of one tool result at one replayed call (index into `replay.calls`). */
export function previewToolResultAtCall(input: {
  session: LoadedSession;
  replay: PruneReplayDTO;
  callIndex: number;
  toolCallId: string;
}): ToolResultPreview | null {
  const call = input.replay.calls[input.callIndex];
  const state = call?.toolResults[input.toolCallId];
  if (!call || !state) return null;
  const transcript = input.session.transcript;
  let message: JsonObject | null = null;
  for (const idx of transcript.activeBranch) {
    const m = transcript.entries[idx]?.raw.message;
    if (isObject(m) && m.role === "toolResult" && m.toolCallId === input.toolCallId) message = m;
  }
  if (!message) return null;
  const before = joinToolResultText(message.content, input.replay.algorithm !== "2026.3", true).text;
  const after = toolResultWireText(message, state, input.replay.settings, input.replay.algorithm);
  const note =
    state === "full"
      ? "sent in full"
      : state === "soft-trim"
        ? `soft-trimmed: ${before.length} → ${after.length} chars`
        : `hard-cleared: replaced by the placeholder (${after.length} chars)`;
  return {
    toolCallId: input.toolCallId,
    toolName: str(message, "toolName") ?? "",
    state,
    before,
    after,
    note,
  };
}
