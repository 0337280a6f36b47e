// The pruning replay's answers to the API's and the CLI's questions (`prune`, `prune --call N`, the call drawer,
// the before/after preview): the query's parameters checked, the replay asked, a located error when it has no
// such call or tool result. The service loads the session and runs the replay; these only read it.

import type { GapCostDTO } from "../../shared/cost.ts";
import type {
  PruneCallDetailDTO,
  PruneCallDTO,
  PruneReplayDTO,
  ToolResultPreviewDTO,
} from "../../shared/prune.ts";
import { lastValue } from "../../shared/prune-params.ts";
import { fail, ok, type Result } from "../../shared/result.ts";
import type { LoadedSession } from "../model/session.ts";
import { previewToolResultAtCall } from "../reports/prune-replay/preview.ts";
import type { ReplayResult } from "../reports/prune-replay/replay-result.ts";

export type QueryValue = string | string[];
const firstValue = (v: QueryValue | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export interface Replayed {
  session: LoadedSession;
  replay: ReplayResult;
}

/**
 * `calls=summary` leaves every call's `toolResults` / `details` empty (see PruneReplayDTO.callsDetail); the
 * timeline's marks join the session's compactions / resets and the cost report's `gapCosts` to the calls.
 */
export function pruneDTO(
  { replay }: Replayed,
  query: { calls?: QueryValue },
  gapCosts: readonly GapCostDTO[],
): Result<PruneReplayDTO> {
  const dto = lastValue(query.calls) === "summary" ? replay.summary() : replay.full();
  return ok({ ...dto, marks: replay.timelineMarks(gapCosts) });
}

/** `clawscope prune --call N`: call N (1-based, as in the linear shape) with its tool-result states. */
export function pruneCallRecord({ replay }: Replayed, call: number): Result<PruneCallDTO> {
  const record = replay.callAt(call - 1);
  const why = `no call ${call} in the replay (it has ${replay.calls.length}, numbered from 1)`;
  return record ? ok(record) : fail("not-found", why, 404);
}

/** One call's tool-result states (`call` = index into the replay's calls). */
export function pruneCallDetail(
  { replay }: Replayed,
  query: { call?: QueryValue },
): Result<PruneCallDetailDTO> {
  const callIndex = Number(firstValue(query.call));
  if (!Number.isInteger(callIndex)) return fail("bad-request", "call (index) is required", 400);
  const detail = replay.callDetail(callIndex);
  return detail ? ok(detail) : fail("not-found", `no call ${callIndex} in the replay`, 404);
}

/** Before/after text of one tool result at one call (`call` = index into the replay's calls). */
export function prunePreview(
  replayed: Replayed,
  query: { call?: QueryValue; toolCallId?: QueryValue },
): Result<ToolResultPreviewDTO> {
  const callIndex = Number(firstValue(query.call));
  const toolCallId = firstValue(query.toolCallId);
  if (!Number.isInteger(callIndex) || !toolCallId)
    return fail("bad-request", "call (index) and toolCallId are required", 400);
  const preview = previewToolResultAtCall({ ...replayed, callIndex, toolCallId });
  return preview ? ok(preview) : fail("not-found", `no tool result ${toolCallId} at call ${callIndex}`, 404);
}
