// Reading `clawscope prune --json` (the linear shape, issue 18) back into the complete per-call maps, the way
// a consumer of the contract would: a tool result is `full` from `firstCall` until its first transition.

import type { PruneLinearReplayDTO, ToolResultWireState } from "../../shared/prune.ts";

/** The per-call toolCallId → state maps a linear replay describes (calls 1-based, rows per stay). */
export function statesFromLinear(dto: PruneLinearReplayDTO): Record<string, ToolResultWireState>[] {
  const maps: Record<string, ToolResultWireState>[] = dto.calls.map(() => ({}));
  for (const row of dto.toolResults) {
    let state: ToolResultWireState = "full";
    let t = 0;
    for (let call = row.firstCall; call <= row.lastCall; call++) {
      while (t < row.transitions.length && (row.transitions[t]?.call ?? Infinity) <= call) {
        state = row.transitions[t]?.state ?? state;
        t++;
      }
      const map = maps[call - 1];
      if (map) map[row.toolCallId] = state;
    }
  }
  return maps;
}
