// The incrementally maintained pruner input of the current model-context list (pruning.md §5): the running
// estimate total, assistant / first-user positions and the tool results in the list. It follows the
// ContextBuilder: appended messages are added; a compaction or reset (a new builder generation) starts a new
// list. Each message is estimated once per transcript (prepared.ts).

import type { ContextBuilder } from "../../model/context-messages.ts";
import type { ContextMessage } from "../../model/session.ts";
import { type EstimateFlavor, estimateMessageChars } from "../../openclaw/estimate.ts";
import type { PrunerToolResult } from "../../openclaw/pruning/pruner-input.ts";
import type { Prepared, ToolResultInfo } from "./prepared.ts";

export type ListedToolResult = PrunerToolResult & { info: ToolResultInfo };

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

export class PrunerList {
  /** Builder messages already taken in. */
  private synced = 0;
  rawTotal = 0;
  readonly assistantPositions: number[] = [];
  firstUserPosition: number | null = null;
  readonly toolResults: ListedToolResult[] = [];
  /** entryIndex → position, for tool results in the list. */
  readonly positionOf = new Map<number, number>();
  /** Projection base key → entryIndex, for tool results in the list. */
  readonly keyIndex = new Map<string, number>();

  constructor(readonly generation: number) {}

  /** This list brought in line with the builder, or a new one when the builder rebuilt its list. */
  sync(builder: ContextBuilder, prepared: Prepared, flavor: EstimateFlavor): PrunerList {
    const l = builder.generation === this.generation ? this : new PrunerList(builder.generation);
    l.append(builder.messages, prepared, flavor);
    return l;
  }

  private append(msgs: readonly ContextMessage[], prepared: Prepared, flavor: EstimateFlavor): void {
    for (let pos = this.synced; pos < msgs.length; pos++) {
      const m = msgs[pos];
      if (!m) continue;
      const c = messageChars(m, prepared, flavor);
      this.rawTotal += c;
      if (m.role === "assistant") this.assistantPositions.push(pos);
      else if (m.role === "user" && this.firstUserPosition === null) this.firstUserPosition = pos;
      else if (m.role === "toolResult") {
        const info = prepared.toolResults.get(m.entryIndex);
        if (info) {
          this.toolResults.push({
            position: pos,
            entryIndex: info.entryIndex,
            toolCallId: info.toolCallId,
            toolName: info.toolName,
            chars: c,
            hasImage: info.joined.hasImage,
            info,
          });
          this.positionOf.set(info.entryIndex, pos);
          if (info.baseKey !== null) this.keyIndex.set(info.baseKey, info.entryIndex);
        }
      }
    }
    this.synced = msgs.length;
  }
}
