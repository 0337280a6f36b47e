// The chat a run came from, as far as its user message shows it — one of the system prompt's inputs
// (docs/openclaw-facts.md §5.2). OpenClaw builds each run's prompt with the inbound message's context:
// - 2026.3.x (`buildInboundMetaSystemPrompt` in `pi-embedded-*.js`): a `## Inbound Context (trusted metadata)` JSON
//   block with `chat_id, account_id, channel, provider, surface, chat_type` goes into `extraSystemPrompt`, inside
//   the one system block — a run from another chat or channel re-writes the whole prompt;
// - 2026.4.5 – 2026.7 (`## Inbound Context (trusted metadata)` in 4.29 / 6.5, `###` in 7.1; group / sub-agent
//   context; docs/openclaw-facts.md §5.2) and 2026.9 (`channel=` of the Runtime line, the Messaging section) put it
//   after the cache boundary — where the provider caches the stable prefix apart (switchLeavesReadablePrefix) it is
//   read, and every message breakpoint after it misses.
// The same context is mirrored, untrusted, at the top of the run's user message (`buildInboundUserContextPrefix`):
// `Conversation info (untrusted metadata):` and `Sender (untrusted metadata):` JSON blocks. Their chat and sender
// fields (not the per-message ones: message id, reply id, timestamp, mention, history) identify where the run came
// from; a main session that takes DMs from several channels (session.dmScope "main") switches between them.
// Headers and keys are matched by name and by their letter shape (letters → `x`, digits and punctuation kept), so a
// scrubbed export that keeps lengths and character classes is read the same way.

import { compareRelease, type Release } from "../../../shared/release-order.ts";
import { letterShape as shape } from "../../../shared/text-match.ts";
import type { SessionRelease } from "./system-cache-point.ts";

const CONVERSATION_INFO = shape("Conversation info");
const SENDER = shape("Sender");

/**
 * Conversation-info fields that identify the chat or the sender (the rest change per message, or are display text
 * — sender names, group subjects and labels are untrusted context, not part of the prompt's Inbound Context).
 */
const CHAT_FIELD_NAMES = ["chat_id", "sender_id", "topic_id", "is_forum", "is_group_chat"];
const CHAT_FIELDS = new Set(CHAT_FIELD_NAMES.map(shape));
const LABEL = shape("conversation_label");

/** One metadata block: `<Header> (untrusted metadata):` + a fenced JSON object. */
const BLOCK = /(?:^|\n)([^\n]{1,40}) \(([^\n()]{1,40})\):\n```[A-Za-z]*\n(\{[\s\S]*?\})\n```/gu;

export interface InboundContext {
  /** Chat / sender field (by OpenClaw's name, `Sender.` for the sender block) → its JSON value. */
  fields: Map<string, string>;
  /** Whether the message carried any chat / sender metadata (webchat, TUI and internal runs may carry none). */
  hasMetadata: boolean;
  /**
   * A group chat (`is_group_chat` or a conversation label): members take turns in one chat, and the prompt's
   * Inbound Context names the group (chat_id), not the sender — so senders are not compared.
   */
  group: boolean;
}

/** Sender-block fields that identify the sender (label, name, username and tag are display text). */
const SENDER_FIELDS = ["id", "e164"];
const SENDER_KEPT = new Set(SENDER_FIELDS.map(shape));
/** Letter shape → OpenClaw's field name, to name a scrubbed field in the detail. */
const FIELD_NAMES = new Map([...CHAT_FIELD_NAMES, ...SENDER_FIELDS].map((n) => [shape(n), n]));

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v))
      : null;
  } catch {
    return null;
  }
}

/** The run's chat context from the text of its user message. */
export function inboundContext(text: string): InboundContext {
  const fields = new Map<string, string>();
  let blocks = 0;
  let labelled = false;
  for (const m of text.matchAll(BLOCK)) {
    const header = shape((m[1] ?? "").trim());
    const sender = header === SENDER;
    const body = sender || header === CONVERSATION_INFO ? parseObject(m[3] ?? "") : null;
    if (!body) continue;
    blocks++;
    for (const [k, v] of Object.entries(body)) {
      if (!sender && shape(k) === LABEL) labelled = true;
      if (!(sender ? SENDER_KEPT : CHAT_FIELDS).has(shape(k))) continue;
      const name = FIELD_NAMES.get(shape(k)) ?? k;
      fields.set(sender ? `Sender.${name}` : name, JSON.stringify(v));
    }
  }
  // OpenClaw labels only non-direct chats (`conversation_label: isDirect ? undefined : …`)
  const group = fields.get("is_group_chat") === "true" || labelled;
  return { fields, hasMetadata: blocks > 0, group };
}

/**
 * What differs between two runs' contexts in what enters the family's prompt, in words ([] = no prompt change seen).
 * Metadata present vs absent (an internal or webchat run vs a channel's) and direct vs group change every family's
 * Inbound Context; the chat and sender themselves only 2026.3's (its block carries `chat_id`, a DM's being the
 * sender; 2026.5+ keep account_id / channel / provider / surface / chat_type only). In a group, members taking turns
 * are the same chat.
 */
export function changedInboundFields(a: InboundContext, b: InboundContext, family: string): string[] {
  if (a.hasMetadata !== b.hasMetadata)
    return [
      b.hasMetadata
        ? "the previous run's message carried no chat / sender metadata (an internal run such as sub-agent results, or webchat), this one does"
        : "this run's message carries no chat / sender metadata (an internal run such as sub-agent results, or webchat), the previous run's did",
    ];
  if (a.group !== b.group)
    return [a.group ? "a group chat, then a direct one" : "a direct chat, then a group"];
  if (family !== "2026.3") return [];
  const isSender = (n: string) => n === "sender_id" || n.startsWith("Sender.");
  const names = new Set(
    [...a.fields.keys(), ...b.fields.keys()].filter((n) => !(a.group && b.group && isSender(n))),
  );
  const differ = [...names].filter((n) => a.fields.get(n) !== b.fields.get(n));
  return differ.length > 0 ? [`${differ.join(", ")} differ`] : [];
}

/** The first release whose dist has `SYSTEM_PROMPT_CACHE_BOUNDARY` (absent in 2026.4.2; dist system-prompt-cache-boundary-*.js). */
const CACHE_BOUNDARY_SINCE: Release = [2026, 4, 5];

/**
 * Whether a chat switch leaves a prefix the provider still reads. It does where the Inbound Context sits after a
 * cache point — the 2026.7 / 2026.9 families, and from 2026.4.5 the Anthropic API, whose payload policy splits
 * the system prompt at SYSTEM_PROMPT_CACHE_BOUNDARY into a cached stable block and the rest (dist
 * anthropic-payload-policy-*.js, 2026.4.29) — and where the provider caches prefixes automatically (the
 * OpenAI-style APIs read up to the first changed token, wherever the block sits). Bedrock (its cache point follows
 * the one system block: system-cache-point.ts) and older Anthropic requests read nothing after a switch.
 * A release the state dir does not record is judged by its family.
 */
export function switchLeavesReadablePrefix(release: SessionRelease, api: string | null): boolean {
  if (api?.startsWith("openai-")) return true;
  if (release.family !== "2026.3") return true;
  if (api !== "anthropic-messages" || release.appVersion === null) return false;
  const order = compareRelease(release.appVersion, CACHE_BOUNDARY_SINCE);
  return order !== null && order >= 0;
}

/** Where the inbound context sits as far as the cache goes (switchLeavesReadablePrefix), for the cause's detail. */
export function inboundContextPlacement(readable: boolean): string {
  return readable
    ? "the run's channel and chat context sit after the cached stable system prefix, so that prefix is read and the rest is re-written"
    : "the run's Inbound Context (channel, chat, chat type) is inside the one cached system block, so the whole prompt is re-written";
}
