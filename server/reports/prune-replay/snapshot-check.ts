// 2026.9.x: the replayed projections compared with the persisted `openclaw.cache-ttl` snapshot OpenClaw wrote
// before the request (pruning.md §5.4, transcript.md §9.1). A disagreement is reported, never hidden.

import type { PruneCallDTO, SnapshotMismatchDTO } from "../../../shared/prune.ts";
import type { Projection, ProjectionSnapshot } from "../../openclaw/pruning/sticky-2026-9.ts";
import type { ToolResultInfo } from "./prepared.ts";
import type { PrunerList } from "./pruner-list.ts";

export type SnapshotCheck = PruneCallDTO["snapshotCheck"];

/** Compare `live` with `snap` over the tool results of `list`; flags explain what the call's wire differs by. */
export function checkSnapshot(
  snap: ProjectionSnapshot,
  list: PrunerList,
  live: ReadonlyMap<number, Projection>,
  infoOf: (entryIndex: number) => ToolResultInfo | undefined,
  flags: string[],
): SnapshotCheck {
  const ambiguous = new Set(snap.ambiguousBaseKeys);
  const mismatches: SnapshotMismatchDTO[] = [];
  const seen = new Set<number>();
  for (const mark of snap.pruned) {
    const entryIndex = list.keyIndex.get(mark.key);
    if (entryIndex === undefined || ambiguous.has(mark.key)) continue;
    seen.add(entryIndex);
    const replayMode = live.get(entryIndex)?.mode ?? "none";
    if (replayMode !== mark.mode) {
      mismatches.push({
        key: mark.key,
        toolCallId: infoOf(entryIndex)?.toolCallId ?? null,
        replay: replayMode,
        snapshot: mark.mode,
      });
    }
  }
  for (const [entryIndex, p] of live) {
    if (seen.has(entryIndex) || !list.positionOf.has(entryIndex)) continue;
    const info = infoOf(entryIndex);
    const key = info?.baseKey;
    if (!info || !key || ambiguous.has(key)) continue;
    mismatches.push({ key, toolCallId: info.toolCallId, replay: p.mode, snapshot: "none" });
  }
  for (const f of snap.frozen) {
    if (!f.hasTexts) continue;
    const entryIndex = list.keyIndex.get(f.key);
    if (entryIndex === undefined) continue;
    flags.push(
      `tool result ${infoOf(entryIndex)?.toolCallId ?? f.key} has a recorded non-TTL projection (aggregate tool-result budget): its wire text differs from the stored one`,
    );
  }
  if (mismatches.length) {
    flags.push(
      `replay disagrees with the persisted openclaw.cache-ttl snapshot for ${mismatches.length} tool result(s)`,
    );
  }
  return { status: mismatches.length ? "mismatch" : "match", mismatches };
}
