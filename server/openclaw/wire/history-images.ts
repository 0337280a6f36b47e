// Images in replayed history and the current turn's attachments (wire-format.md §2 steps 9–10):
//  * openclaw@2026.9.6 src/agents/embedded-agent-runner/run/history-image-prune.ts `pruneProcessedHistoryImages`
//    (2026.7.1: selection.js, same name): before the start of the 3rd most recent completed turn, image blocks of
//    user/toolResult messages become `[image data removed - already processed by model]` and textual media
//    references `[media reference removed - already processed by model]`; a 2026.9 user message's persisted
//    media facts are dropped with them. 9.6 counts only completed turns (the running one never) and needs ≥ 4;
//    7.1 counts the trailing turn once it has a reply and cuts at starts[len − 3].
//  * images.ts `materializePromptMediaMessages` (9.6): a user message with media facts gets its images from the
//    state dir's media store appended after its text blocks (the caller loads them; resizing is not reproduced).
//  * media-note.ts (9.6): the CURRENT turn's text is prefixed `[media attached: <staged path> (<type>)]\n`.
// Pure; media bytes and staged paths come in through `MediaAccess`.

import type { AgentMessage, ImagePart, MediaFact, Part } from "./agent-message.ts";

export const PRUNED_IMAGE_TEXT = "[image data removed - already processed by model]";
export const PRUNED_MEDIA_REF_TEXT = "[media reference removed - already processed by model]";

export type ImageFamily = "2026.9" | "2026.7";

/**
 * resolvePruneBeforeIndex: index before which history images are replaced, or -1. The list is given as the
 * concatenation of `lists` (no joined copy is made).
 */
export function imagePruneBeforeIndex(
  lists: readonly (readonly Pick<AgentMessage, "role">[])[],
  family: ImageFamily,
): number {
  const starts: number[] = [];
  let cur = -1;
  let replied = false;
  let i = -1;
  for (const list of lists)
    for (const m of list) {
      i++;
      const role = m.role;
      if (role === "user") {
        if (cur >= 0 && replied) {
          if (family === "2026.9" && starts.length > 3) starts.shift();
          starts.push(cur);
        }
        cur = i;
        replied = false;
      } else if (role === "toolResult") {
        if (cur < 0) cur = i;
      } else if (role === "assistant" && cur >= 0) replied = true;
    }
  if (family === "2026.7" && cur >= 0 && replied) starts.push(cur);
  if (starts.length <= 3) return -1;
  return starts[starts.length - 3] ?? -1;
}

function replaceMediaRefs(text: string): string {
  return text
    .replace(/\[media attached(?:\s+\d+\/\d+)?:\s*[^\]]+\]/gi, PRUNED_MEDIA_REF_TEXT)
    .replace(/\[Image:\s*source:\s*[^\]]+\]/gi, PRUNED_MEDIA_REF_TEXT)
    .replace(/\bmedia:\/\/inbound\/[^\]\s/\\]+/g, PRUNED_MEDIA_REF_TEXT);
}

/** One user/toolResult message before the cut, with its images and media references replaced. */
export function pruneMessageImages(m: AgentMessage, family: ImageFamily): AgentMessage {
  if (m.role !== "user" && m.role !== "toolResult") return m;
  const owned = family === "2026.9" && m.role === "user" && (m.media?.length ?? 0) > 0;
  const keepText = owned || (family === "2026.9" && m.mediaImagePruned === true);
  const fixText = (t: string): string => (keepText ? t : replaceMediaRefs(t));
  let changed = false;
  let content: AgentMessage["content"];
  if (typeof m.content === "string") {
    content = fixText(m.content);
    changed = content !== m.content;
  } else {
    content = m.content.map((p): Part => {
      if (p.type === "image") {
        changed = true;
        return { type: "text", text: PRUNED_IMAGE_TEXT };
      }
      if (p.type !== "text") return p;
      const text = fixText(p.text);
      if (text === p.text) return p;
      changed = true;
      return { type: "text", text };
    });
  }
  if (owned) {
    const { media: _dropped, ...rest } = m;
    return { ...rest, content: changed ? content : m.content, mediaImagePruned: true };
  }
  return changed ? { ...m, content } : m;
}

const MEDIA_REF_HINT = /\[media attached|\[Image:\s*source:|media:\/\/inbound\//i;
const mayPruneMemo = new WeakMap<AgentMessage, boolean>();

/**
 * Whether the history-image prune can change this message (or any projection of it): images, media facts or
 * media references. A cut that moves across messages without any changes nothing.
 */
export function mayPruneImages(m: AgentMessage): boolean {
  if (m.role !== "user" && m.role !== "toolResult") return false;
  let hit = mayPruneMemo.get(m);
  if (hit === undefined) {
    hit =
      (m.media?.length ?? 0) > 0 ||
      (typeof m.content === "string"
        ? MEDIA_REF_HINT.test(m.content)
        : m.content.some((p) => p.type === "image" || (p.type === "text" && MEDIA_REF_HINT.test(p.text))));
    mayPruneMemo.set(m, hit);
  }
  return hit;
}

/** What the shell knows about the state dir's media store. */
export interface MediaAccess {
  /** The image bytes of a fact (`media://inbound/<name>` → `<stateDir>/media/inbound/<name>`), base64. */
  loadImage?(fact: MediaFact): { data: string; mimeType: string } | null;
  /** The staged copy OpenClaw named in the note: `<workspace>/media/inbound/openclaw-staged-<uuid>/input-<name>`. */
  stagedPath?(fact: MediaFact): string | null;
}

function isImageFact(f: MediaFact): boolean {
  return f.kind === "image" || (f.contentType ?? "").startsWith("image/");
}

/**
 * materializePromptMediaMessages: user messages with image facts get the images appended after their text
 * blocks. Without `loadImage` (clawscope never needs the bytes) an image of unknown data stands in, so the
 * message shape and counts stay exact.
 */
export function hydrateMedia(
  messages: readonly AgentMessage[],
  access: MediaAccess,
): readonly AgentMessage[] {
  let touched = false;
  const out = messages.map((m) => {
    if (m.role !== "user" || !m.media) return m;
    const facts = m.media.filter(isImageFact);
    if (!facts.length) return m;
    const texts: Part[] =
      typeof m.content === "string"
        ? [{ type: "text", text: m.content }]
        : m.content.filter((p) => p.type === "text");
    const images: ImagePart[] = [];
    for (const f of facts) {
      const loaded = access.loadImage
        ? access.loadImage(f)
        : { data: "", mimeType: f.contentType ?? "image/png" };
      if (loaded) images.push({ type: "image", data: loaded.data, mimeType: loaded.mimeType });
    }
    touched = true;
    return { ...m, content: [...texts, ...images] };
  });
  return touched ? out : messages;
}

/** The UUID OpenClaw puts in a staged directory name, when the directory is gone: same length, stated. */
export const UNKNOWN_STAGED_UUID = "00000000-0000-0000-0000-000000000000";

/** media-note.ts: `[media attached: <path> (<type>)]`, or a counted list for several files. */
export function mediaNote(facts: readonly MediaFact[], access: MediaAccess): string {
  const line = (f: MediaFact, k?: number, n?: number): string => {
    const p = access.stagedPath?.(f) ?? f.path ?? f.url ?? "";
    const type = f.contentType ?? f.kind;
    return `${k ? `[media attached ${k}/${n}: ` : "[media attached: "}${p}${type ? ` (${type})` : ""}]`;
  };
  const first = facts[0];
  if (facts.length === 1 && first) return line(first);
  return [
    `[media attached: ${facts.length} files]`,
    ...facts.map((f, i) => line(f, i + 1, facts.length)),
  ].join("\n");
}

/** The current prompt with its media note (first text block, or the string content). */
export function withMediaNote(prompt: AgentMessage, note: string): AgentMessage {
  if (typeof prompt.content === "string") return { ...prompt, content: `${note}\n${prompt.content}` };
  const content = prompt.content.map(
    (p, j): Part => (j === 0 && p.type === "text" ? { type: "text", text: `${note}\n${p.text}` } : p),
  );
  return { ...prompt, content };
}

/** inbound-meta.ts: the source modality of a turn's media (image/audio/video; application/text → document). */
export function sourceModality(facts: readonly MediaFact[] | undefined): string | undefined {
  for (const f of facts ?? []) {
    const t = f.contentType ?? f.kind ?? "";
    const k = (t.includes("/") ? t.slice(0, t.indexOf("/")) : t).toLowerCase();
    if (k === "application" || k === "text") return "document";
    if (k === "image" || k === "audio" || k === "video" || k === "document") return k;
  }
  return undefined;
}
