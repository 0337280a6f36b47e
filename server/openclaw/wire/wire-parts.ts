// The converted pieces of a call's request that later calls reuse (wire-run.ts): the final prefix of history′
// (grows across runs), the rest of history′ (one per run) and the closed segments of the run's tool loop (an
// assistant and its results, closed once the next message arrives). A piece is valid while the pruning states
// (`version`) and what the history-image cut changes (`imagesPruned`) stay the same; growing pieces are
// extended in place, so a session's calls convert each message about once. Pure.

import type { AgentMessage } from "./agent-message.ts";
import type { ToolResultWire } from "./tool-result-projection.ts";
import { boundaryPart, type WirePart, type WirePolicy, wirePart } from "./wire-pipeline.ts";

export interface PartContext {
  policy: WirePolicy;
  projectionOf: (m: AgentMessage) => ToolResultWire | undefined;
  imageCut: number;
  imagesPruned: number;
}

export function emptyPart(): WirePart {
  return { messages: [], carrierIndexes: new Set(), chars: 0 };
}

/** Convert `messages` (at `offset` in the call's whole list) as one part. */
export function convertPart(
  messages: readonly AgentMessage[],
  offset: number,
  promptIndex: number,
  ctx: PartContext,
  opts: { tail: boolean; carrierLast: boolean },
): WirePart {
  if (!messages.length) return emptyPart();
  const msgs = boundaryPart(
    { messages, offset, imageCut: ctx.imageCut, projectionOf: ctx.projectionOf, promptIndex },
    ctx.policy,
  );
  return wirePart(msgs, ctx.policy, opts);
}

/** Append `b` to `a` in place. */
function appendPart(a: WirePart, b: WirePart): void {
  for (const i of b.carrierIndexes) a.carrierIndexes.add(i + a.messages.length);
  for (const m of b.messages) a.messages.push(m);
  a.chars += b.chars;
}

/** A part converted up to `count` messages of a growing list, extended while its key holds. */
export class GrowingPart {
  private key = "";
  private count = 0;
  private part: WirePart = emptyPart();

  /** The part covering list[0..end) (converting only what was not yet), for a list valid under `key`. */
  upTo(
    list: readonly AgentMessage[],
    end: number,
    key: string,
    offset: number,
    ctx: PartContext,
    firstIsPrompt: boolean,
  ): WirePart {
    if (key !== this.key || end < this.count) {
      this.key = key;
      this.count = 0;
      this.part = emptyPart();
    }
    if (end > this.count) {
      const promptIndex = this.count === 0 && firstIsPrompt ? 0 : -1;
      const seg = list.slice(this.count, end);
      appendPart(
        this.part,
        convertPart(seg, offset + this.count, promptIndex, ctx, { tail: false, carrierLast: false }),
      );
      this.count = end;
    }
    return this.part;
  }
}
