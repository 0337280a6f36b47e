// The tokenizer ("Tokenizer" size mode) side of clawscope's map: which texts to count, by node id; a leaf's
// count (+ chars/4 of its non-text parts); group totals once nothing below is pending; the mode's progress.

import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import type { TruncationReportDTO } from "../../../shared/truncation.ts";
import type { ContextMessage, LoadedSession } from "../../model/session.ts";
import type { SystemPromptReport } from "../../model/system-prompt-report.ts";
import { tokensFromChars } from "../../openclaw/token-estimate.ts";
import type { TokenTextItem } from "../../tokens/tokenizer.ts";
import { IdAllocator, idSegment, type LeafSpec } from "./leaf-spec.ts";
import { conversationLeaves } from "./leaves.ts";
import { MAP_GROUPS } from "./nodes.ts";

/**
 * The texts to count for the tiktoken size mode, keyed by the node ids `buildContextMap` gives the conversation
 * leaves. Report leaves have no text in the report: callers may add their own items under the same ids
 * (`workspace/<idSegment(file name)>`, `skills/<idSegment(name)>`, `tools/<idSegment(name)>`, `system/base-instructions`).
 */
export function contextMapTokenTexts(
  session: LoadedSession,
  contextMessages: readonly ContextMessage[],
  sentToolResultText?: ReadonlyMap<string, string>,
): TokenTextItem[] {
  // Conversation ids live under `conversation/`, so they never collide with report ids: a fresh allocator gives
  // the same ids (and the same `~n` suffixes for repeated tool-call ids) as buildContextMap.
  return conversationLeaves(session, contextMessages, new IdAllocator(), sentToolResultText)
    .filter((l) => l.text !== undefined && l.text !== "")
    .map((l) =>
      l.lazy ? { id: l.id, key: l.lazy.key, load: l.lazy.load } : { id: l.id, text: l.text ?? "" },
    );
}

/**
 * Each workspace file's injected text by name, from the bootstrap-truncation report with the session's own caps:
 * the recomputed segments joined, for files unchanged since the report whose recomputation matches it.
 */
export function injectedTextsOf(truncation: TruncationReportDTO): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of truncation.files) {
    const sim = f.simulation;
    if (sim?.matchesReport !== true || f.current.changedSinceReport !== false) continue;
    out.set(f.name, sim.segments.map((seg) => seg.text).join(""));
  }
  return out;
}

/**
 * The workspace files' tiles as texts to count (issue 15): a file's injected text as OpenClaw's bootstrap rules
 * build it from the file on disk now (the truncation report's segments, `injectedTexts`), counted only when its
 * length is the report's `injectedChars` — the tile's chars — so a file edited since the run stays at chars/4
 * rather than being counted on other text. Ids as report-leaves.ts gives them (`workspace/<idSegment(name)>`).
 */
export function workspaceTokenTexts(
  report: SystemPromptReport | null,
  injectedTexts: ReadonlyMap<string, string> | undefined,
): TokenTextItem[] {
  if (!report || !injectedTexts) return [];
  const out: TokenTextItem[] = [];
  for (const f of report.files) {
    const text = injectedTexts.get(f.name);
    if (f.nativeUnverified || text === undefined || text === "" || text.length !== f.injectedChars) continue;
    out.push({ id: `workspace/${idSegment(f.name)}`, text });
  }
  return out;
}

/**
 * Leaf tokenizer count: the caller's count for its id (+ chars/4 of non-text parts); chars/4 alone for a leaf with
 * no text at all (images only); null while pending or when there is no text to count (report leaves).
 */
export function leafNode(l: LeafSpec, tiktoken: ReadonlyMap<string, number> | undefined): MapNode {
  const counted = tiktoken?.get(l.id);
  let tik: number | null = null;
  if (tiktoken !== undefined) {
    if (counted !== undefined) tik = counted + tokensFromChars(l.nonTextChars);
    else if (l.text === "") tik = tokensFromChars(l.nonTextChars);
  }
  return {
    id: l.id,
    name: l.name,
    group: l.group,
    chars: l.chars,
    estTokens: tokensFromChars(l.chars),
    tiktokenTokens: tik,
    source: l.source,
  };
}

/** Whether a leaf still waits for a tokenizer count (it has text, and no count was supplied yet). */
export function isPending(l: LeafSpec, tiktoken: ReadonlyMap<string, number> | undefined): boolean {
  return tiktoken !== undefined && l.text !== undefined && l.text !== "" && !tiktoken.has(l.id);
}

/**
 * Group tokenizer totals, bottom-up: null while any leaf below is pending; otherwise Σ children, where a leaf
 * without text to count (report leaves the caller gave no text for) contributes its chars/4 estimate.
 */
function fillGroupTiktoken(node: MapNode, pending: ReadonlySet<string>): boolean {
  if (!node.children?.length) return pending.has(node.id);
  let anyPending = false;
  let sum = 0;
  for (const c of node.children) {
    if (fillGroupTiktoken(c, pending)) anyPending = true;
    sum += c.tiktokenTokens ?? c.estTokens;
  }
  node.tiktokenTokens = anyPending ? null : sum;
  return anyPending;
}

/** Fills the groups' tokenizer totals of the finished tree and says how far the counting is. */
export function tokenizerState(
  root: MapNode,
  leaves: readonly LeafSpec[],
  tiktoken: ReadonlyMap<string, number> | undefined,
  encoding: string | undefined,
): ContextMapDTO["tokenizer"] {
  const tokenizable = leaves.filter(
    (l) => tiktoken !== undefined && ((l.text ?? "") !== "" || tiktoken.has(l.id)),
  );
  const pending = new Set(leaves.filter((l) => isPending(l, tiktoken)).map((l) => l.id));
  if (tiktoken !== undefined) fillGroupTiktoken(root, pending);
  const counted = tokenizable.length - pending.size;
  // A leaf counts as chars/4 when there is no text to count (and no count given) or it has non-text parts.
  const estimated = new Set(
    leaves
      .filter(
        (l) => l.nonTextChars > 0 || tiktoken === undefined || ((l.text ?? "") === "" && !tiktoken.has(l.id)),
      )
      .map((l) => l.group),
  );
  return {
    state: tiktoken === undefined ? "unavailable" : counted === tokenizable.length ? "ready" : "pending",
    encoding: tiktoken === undefined ? null : (encoding ?? "cl100k_base"),
    progress: tokenizable.length > 0 ? counted / tokenizable.length : 1,
    estimatedGroups: MAP_GROUPS.filter((g) => estimated.has(g.key)).map((g) => g.name),
  };
}
