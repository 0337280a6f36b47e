// The per-message timestamp prefix of user turns (wire-format.md §3.1): openclaw@2026.9.6
// src/agents/embedded-agent-runner/run/attempt-llm-boundary.ts `normalizeUserMessagesForLlmBoundary` (2026.7.1:
// attempt.llm-boundary.ts, same rule) with gateway/server-methods/agent-timestamp.ts `buildTimestampPrefix` and
// format-datetime.ts `formatZonedTimestamp`. Every role:user message gets `[DOW YYYY-MM-DD HH:MM TZ] ` from ITS
// OWN stored timestamp on its first text block (a one-text-block array collapses to a string first), so history
// bytes never change between calls (OpenClaw issue #3658). Skipped: blank text, text already starting with an
// envelope, cron text (`Current time: `), inter-session messages. Later text blocks of history messages lose a
// leading stamp (`stripInboundMetadata`, its leading-stamp part only — the ⟦openclaw:ctx⟧ block strip is not
// ported). Zone: `agents.defaults.userTimezone`, else the Gateway host's zone (not on disk — the caller passes
// its own and says so), else UTC (date-time.ts `resolveUserTimezone`). Pure.

import type { AgentMessage, Part } from "./agent-message.ts";

const ENVELOPE_RE = /^\[.*\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;
const LEADING_STAMP_RE = /^\[[A-Za-z]{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]]*\] */;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string, seconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${seconds}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      ...(seconds ? {} : { weekday: "short" }),
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      ...(seconds ? { second: "2-digit" } : {}),
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formatters.set(key, f);
  }
  return f;
}

function parts(ms: number, timeZone: string, seconds: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatterFor(timeZone, seconds).formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** `[Mon 2026-11-30 00:27 UTC] ` — formatZonedTimestamp(date, {timeZone, displayWeekday: true}). */
export function timestampPrefix(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone, false);
  const tz = p.timeZoneName?.trim();
  return `[${p.weekday} ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${tz ? ` ${tz}` : ""}] `;
}

/** `2026-11-30 00:27:05 UTC` — formatZonedTimestamp(date, {displaySeconds: true}) (system-event lines). */
export function secondsStamp(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone, true);
  const tz = p.timeZoneName?.trim();
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}${tz ? ` ${tz}` : ""}`;
}

/** resolveUserTimezone: a valid IANA zone from the config, else the host's. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function stampText(text: string, ms: number | undefined, timeZone: string): string {
  if (!text.trim() || LEADING_STAMP_RE.test(text)) return text;
  if (ENVELOPE_RE.test(text) || text.includes("Current time: ")) return text;
  if (text.startsWith("[Inter-session message]")) return text;
  if (ms === undefined) return text;
  return timestampPrefix(ms, timeZone) + text;
}

function stripLeadingStamp(text: string): string {
  return text.replace(LEADING_STAMP_RE, "");
}

function stampMessage(m: AgentMessage, timeZone: string, active: boolean): AgentMessage {
  if (typeof m.content === "string") {
    const text = stampText(m.content, m.timestamp, timeZone);
    return text === m.content ? m : { ...m, content: text };
  }
  const only = m.content.length === 1 ? m.content[0] : undefined;
  if (only?.type === "text") return { ...m, content: stampText(only.text, m.timestamp, timeZone) };
  let first = true;
  let touched = false;
  const content = m.content.map((p): Part => {
    if (p.type !== "text") return p;
    const text = first
      ? stampText(p.text, m.timestamp, timeZone)
      : active
        ? p.text
        : stripLeadingStamp(p.text);
    first = false;
    if (text === p.text) return p;
    touched = true;
    return { type: "text", text };
  });
  return touched ? { ...m, content } : m;
}

const stamped = new WeakMap<AgentMessage, Map<string, AgentMessage>>();

/**
 * The stamped form of one user message (memoised per message object and zone: the stamp depends only on the
 * message). `active`: the run's current prompt (its later blocks keep inbound metadata).
 */
export function stampUserMessage(m: AgentMessage, timeZone: string, active: boolean): AgentMessage {
  if (m.role !== "user") return m;
  const key = `${timeZone}|${active}`;
  let perKey = stamped.get(m);
  const hit = perKey?.get(key);
  if (hit) return hit;
  const out = stampMessage(m, timeZone, active);
  if (!perKey) {
    perKey = new Map();
    stamped.set(m, perKey);
  }
  perKey.set(key, out);
  return out;
}
