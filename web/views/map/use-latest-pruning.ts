// The latest map's tool-result states (issue 15): the tiles of the latest map are the tool results as sent at
// the session's last call, so their pruning state and stored / sent sizes are that call's (GET …/sent/call,
// the same view the turn scrubber shows). Empty until both queries answer, or when the session has no call.

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { MapNode } from "../../../shared/context-map.ts";
import { type TilePruning, tilePruningAt } from "../../../shared/tile-pruning.ts";
import { sentCallQuery, sentQuery } from "../../api/sent-queries.ts";

const NONE: ReadonlyMap<string, TilePruning> = new Map();

export function useLatestPruning(
  agentId: string,
  sessionId: string,
  root: MapNode,
): ReadonlyMap<string, TilePruning> {
  const calls = useQuery(sentQuery(agentId, sessionId));
  const last = calls.data?.calls.at(-1)?.call ?? 0;
  const view = useQuery({ ...sentCallQuery(agentId, sessionId, last), enabled: last > 0 });
  return useMemo(
    () => (view.data && view.data.call.call === last ? tilePruningAt(root, view.data) : NONE),
    [view.data, last, root],
  );
}
