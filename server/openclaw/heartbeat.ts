// Heartbeats (spec cache-and-cost.md §7): OpenClaw's HEARTBEAT_OK acknowledgement rule, which calls of a
// session are heartbeats, and what the heartbeat cadence does to the cache and to pruning. Pure.
//
// The acknowledgement rule reproduces OpenClaw 2026.9.6 `src/auto-reply/heartbeat.ts` stripHeartbeatToken
// (the token stripped at the start/end, markup-wrapped tokens like `**HEARTBEAT_OK**` too): mode "message"
// decides whether a reply still says anything (compaction's real-conversation count, compactable-count.ts),
// mode "heartbeat" whether it is only an acknowledgement (≤ 300 more chars, DEFAULT_HEARTBEAT_ACK_MAX_CHARS).

import type { HeartbeatFlag } from "../../shared/cost.ts";
import { fmtDuration } from "../../shared/format.ts";
import { isObject, type JsonObject, str } from "../../shared/json.ts";
import { escapeRegExp } from "../../shared/text-match.ts";
import { NearestAncestor } from "../model/nearest-ancestor.ts";
import type { Transcript, TranscriptEntry } from "../model/session.ts";

export const HEARTBEAT_TOKEN = "HEARTBEAT_OK";
/** The file OpenClaw's default heartbeat prompt (≤ 2026.7) asks the model to read. */
const HEARTBEAT_FILE = "HEARTBEAT.md";
/** OpenClaw's DEFAULT_HEARTBEAT_ACK_MAX_CHARS. */
export const DEFAULT_HEARTBEAT_ACK_MAX_CHARS = 300;

const TOKEN_AT_END = new RegExp(`${escapeRegExp(HEARTBEAT_TOKEN)}[^\\w]{0,4}$`);

/** OpenClaw's stripTokenAtEdges: the token removed from the start and the end (up to 4 trailing non-word chars). */
function stripTokenAtEdges(raw: string): { text: string; didStrip: boolean } {
  let text = raw.trim();
  if (!text.includes(HEARTBEAT_TOKEN)) return { text, didStrip: false };
  let didStrip = false;
  let changed = true;
  while (changed) {
    changed = false;
    const next = text.trim();
    if (next.startsWith(HEARTBEAT_TOKEN)) {
      text = next.slice(HEARTBEAT_TOKEN.length).trimStart();
      didStrip = true;
      changed = true;
      continue;
    }
    if (TOKEN_AT_END.test(next)) {
      const at = next.lastIndexOf(HEARTBEAT_TOKEN);
      const before = next.slice(0, at).trimEnd();
      text = before ? `${before}${next.slice(at + HEARTBEAT_TOKEN.length).trimStart()}`.trimEnd() : "";
      didStrip = true;
      changed = true;
    }
  }
  return { text: text.replace(/\s+/g, " ").trim(), didStrip };
}

export interface StrippedReply {
  /** Nothing left worth delivering. */
  shouldSkip: boolean;
  /** What is left after stripping. */
  text: string;
  /** The token was found at an edge and removed. */
  didStrip: boolean;
}

/** OpenClaw's stripHeartbeatToken(raw, {mode, maxAckChars}). */
export function stripHeartbeatToken(
  raw: string,
  opts: { mode?: "message" | "heartbeat"; maxAckChars?: number } = {},
): StrippedReply {
  const trimmed = raw.trim();
  if (!trimmed) return { shouldSkip: true, text: "", didStrip: false };
  if (!trimmed.includes(HEARTBEAT_TOKEN)) return { shouldSkip: false, text: trimmed, didStrip: false };
  const unwrapped = trimmed
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/gi, " ")
    .replace(/^[*`~_]+/, "")
    .replace(/[*`~_]+$/, "");
  const original = stripTokenAtEdges(trimmed);
  const picked = original.didStrip && original.text ? original : stripTokenAtEdges(unwrapped);
  if (!picked.didStrip) return { shouldSkip: false, text: trimmed, didStrip: false };
  if (!picked.text) return { shouldSkip: true, text: "", didStrip: true };
  const rest = picked.text.trim();
  const maxAck = Math.max(0, opts.maxAckChars ?? DEFAULT_HEARTBEAT_ACK_MAX_CHARS);
  if (opts.mode === "heartbeat" && rest.length <= maxAck)
    return { shouldSkip: true, text: "", didStrip: true };
  return { shouldSkip: false, text: rest, didStrip: true };
}

/**
 * The reply is a HEARTBEAT_OK acknowledgement: an assistant message of text only (thinking aside; a tool call
 * or any other block makes it a real reply), whose text is the token plus at most 300 chars (OpenClaw's
 * isHeartbeatOkResponse, heartbeat-filter.ts 2026.9.6). Unlike OpenClaw's check, an empty or `NO_REPLY`
 * reply does not count: both also end runs that are no heartbeat, so they are no signal of one.
 */
export function isHeartbeatAckReply(message: JsonObject): boolean {
  if (str(message, "role") !== "assistant") return false;
  const content = message.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) return false;
      const type = str(block, "type");
      if (type === "thinking" || type === "reasoning" || type === "redacted_thinking") continue;
      if (type !== "text" && type !== "input_text" && type !== "output_text") return false;
      const t = str(block, "text");
      if (t === undefined) return false;
      text += t;
    }
  } else return false;
  const r = stripHeartbeatToken(text, { mode: "heartbeat" });
  return r.didStrip && r.shouldSkip;
}

// ---- which calls are heartbeats ----

/** The signals the cost report looks for, in words (shown with the heartbeat totals). */
export const HEARTBEAT_SIGNALS = [
  "session key contains `:cron:` → cron run",
  `run prompt mentions ${HEARTBEAT_FILE} / ${HEARTBEAT_TOKEN} → heartbeat call`,
  `reply is a ${HEARTBEAT_TOKEN} acknowledgement → heartbeat call`,
];

/** A cron run's session key (`agent:<id>:cron:<job>`). */
export function isCronSessionKey(sessionKey: string | null): boolean {
  return sessionKey?.includes(":cron:") === true;
}

function messageOf(e: TranscriptEntry | undefined): JsonObject | undefined {
  const m = e?.type === "message" ? e.raw.message : undefined;
  return isObject(m) ? m : undefined;
}

function textOf(m: JsonObject): string {
  const c = m.content;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  const parts: string[] = [];
  for (const b of c) if (isObject(b) && str(b, "type") === "text") parts.push(str(b, "text") ?? "");
  return parts.join("\n");
}

/**
 * Heartbeat signals per call (documented, text-based, UNVERIFIED against every OpenClaw version):
 * - the run's prompt (the nearest user message on the call's parent chain) mentions HEARTBEAT.md or
 *   HEARTBEAT_OK (OpenClaw's ≤ 2026.7 default heartbeat prompt asks to read HEARTBEAT.md and reply HEARTBEAT_OK);
 * - the call's reply is a HEARTBEAT_OK acknowledgement (isHeartbeatAckReply).
 * The parent walk is memoised (model/nearest-ancestor.ts), so every call of a turn pays each link once.
 */
export class HeartbeatDetector {
  /** The walk to each call's prompt (the nearest user message, memoised per entry). */
  private readonly above = new NearestAncestor(
    (e) => str(messageOf(e), "role") === "user",
    (e) => this.parentOf(e),
    () => this.transcript.entries.length,
  );
  private readonly mentions = new Map<number, boolean>();

  constructor(
    private transcript: Transcript,
    private byId: ReadonlyMap<string, number>,
  ) {}

  /** The transcript grew by appended entries: the walks memoised so far stay valid (old parents unchanged). */
  extendTo(transcript: Transcript, byId: ReadonlyMap<string, number>): void {
    this.transcript = transcript;
    this.byId = byId;
  }

  signalsOf(entryIndex: number): string[] {
    const signals: string[] = [];
    const e = this.transcript.entries[entryIndex];
    const m = messageOf(e);
    if (m && isHeartbeatAckReply(m)) signals.push(`reply is a ${HEARTBEAT_TOKEN} acknowledgement`);
    const prompt = e ? this.promptAbove(e) : undefined;
    if (prompt !== undefined && this.promptMentions(prompt)) {
      signals.push(`prompt mentions ${HEARTBEAT_FILE} / ${HEARTBEAT_TOKEN}`);
    }
    return signals;
  }

  private promptMentions(userIndex: number): boolean {
    let v = this.mentions.get(userIndex);
    if (v === undefined) {
      const pm = messageOf(this.transcript.entries[userIndex]);
      const t = pm ? textOf(pm) : "";
      v = t.includes(HEARTBEAT_FILE) || t.includes(HEARTBEAT_TOKEN);
      this.mentions.set(userIndex, v);
    }
    return v;
  }

  private parentOf(e: TranscriptEntry): TranscriptEntry | undefined {
    const pi = e.parentId === null ? undefined : this.byId.get(e.parentId);
    return pi === undefined ? undefined : this.transcript.entries[pi];
  }

  /** The nearest user message strictly above `start` on its parent chain. */
  private promptAbove(start: TranscriptEntry): number | undefined {
    const parent = this.parentOf(start);
    const found = parent ? this.above.of(parent) : -1;
    return found === -1 ? undefined : found;
  }
}

// ---- cadence vs cache TTL vs pruning ttl (cache-and-cost.md §7 table) ----

export interface CadenceInput {
  /** heartbeat.every as configured (undefined = not set) and parsed. */
  every: { value: unknown; ms: number | null };
  cacheTtlMs: number | null;
  pruning: { mode: string | null; ttlMs: number | null };
  /** Provider of the session's main model (the smart-default warning names Anthropic's API-key trap). */
  mainProvider: string | null;
  /**
   * The cache lifetime the session's own usage shows, as a bracket: the longest gap after which the prefix was
   * still read … the shortest gap after which nothing was (ObservedTtlDTO). Null: not observed.
   */
  observed?: { maxHitGapMs: number | null; minFullMissGapMs: number } | null;
}

/** Where heartbeat.every came from when it is not set. */
export const HEARTBEAT_EVERY_UNSET = "unset: smart defaults may apply (30m API key, 1h OAuth; spec §7)";

/** The §7 consequences of the configured cadence, as flags. */
export function heartbeatCadenceFlags(input: CadenceInput): HeartbeatFlag[] {
  const { every, cacheTtlMs, pruning } = input;
  const flags: HeartbeatFlag[] = [];
  const pruningTtl = pruning.mode === "cache-ttl" ? pruning.ttlMs : null;
  if (every.value === undefined) {
    flags.push({
      kind: "heartbeat-unknown",
      severity: "info",
      message:
        input.mainProvider === "anthropic"
          ? "heartbeat.every is not set; smart defaults may apply — with API-key auth they are 30 min heartbeats, a 5-minute cache and a 1 h pruning ttl: the re-write-every-heartbeat cost trap (spec §7)"
          : "heartbeat.every is not set; smart defaults may apply",
    });
  } else if (every.ms === 0) {
    flags.push({ kind: "heartbeat-off", severity: "info", message: "heartbeat.every is 0: heartbeats off" });
  } else if (every.ms !== null && cacheTtlMs !== null) {
    if (every.ms < cacheTtlMs) {
      flags.push({
        kind: "heartbeat-keeps-cache-warm",
        severity: "info",
        message: `heartbeat every ${fmtDuration(every.ms)} < cache TTL ${fmtDuration(cacheTtlMs)}: the cache stays warm; pruning never fires while heartbeats run; cost = the heartbeat calls (mostly reads)`,
      });
    } else if (pruningTtl !== null && every.ms < pruningTtl) {
      flags.push({
        kind: "cost-trap-rewrite-every-heartbeat",
        severity: "warning",
        message: `cache TTL ${fmtDuration(cacheTtlMs)} < heartbeat every ${fmtDuration(every.ms)} < pruning ttl ${fmtDuration(pruningTtl)}: every heartbeat re-writes the whole unpruned prompt (×1.25) and pruning never fires`,
      });
    }
  }
  // The observed lifetime is only known to lie inside its bracket: a pruning ttl inside it matches as well as
  // the bracket can tell (the demo's 10 s ttl inside 8.0 … 11.0 s); outside it, or against a configured TTL, it is
  // compared with the TTL itself.
  const o = input.observed ?? null;
  const outside =
    pruningTtl === null
      ? false
      : o
        ? (o.maxHitGapMs !== null && pruningTtl < o.maxHitGapMs) || pruningTtl > o.minFullMissGapMs
        : cacheTtlMs !== null && pruningTtl !== cacheTtlMs;
  if (pruningTtl !== null && cacheTtlMs !== null && outside) {
    flags.push({
      kind: "pruning-ttl-mismatch",
      severity: "warning",
      message: `pruning ttl ${fmtDuration(pruningTtl)} ≠ cache TTL ${fmtDuration(cacheTtlMs)}: pruning ${pruningTtl < cacheTtlMs ? "busts a still-warm cache" : "fires too late to save the re-write"}; match ttl to the cache TTL`,
    });
  }
  return flags;
}
