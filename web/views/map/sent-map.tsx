// The context map as sent at one call (issue 16): the call's tiles drawn inside the session's fixed slot layout
// (shared/sent-layout.ts), so neighbouring calls keep every tile in place; tool results carry their pruning state
// at the call in their name; a line states the call's totals and states. `?view=table` shows the call's tree as the
// tree table (map-table.tsx) with each tool result's state at this call.

import { useQuery } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import type { SizeMode } from "../../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type { ToolResultWireState } from "../../../shared/prune.ts";
import { layoutAtCall } from "../../../shared/sent-layout.ts";
import { namedWithStates, tilePruningAt } from "../../../shared/tile-pruning.ts";
import {
  indexTree,
  layoutTreemap,
  matchedSize,
  searchTree,
  subtreeSize,
} from "../../../shared/treemap-layout.ts";
import { groupColors } from "../../../shared/treemap-style.ts";
import { sentCallQuery, sentSlotsQuery } from "../../api/sent-queries.ts";
import { formatSize, Treemap } from "../../treemap/treemap.tsx";
import { useMeasuredWidth } from "../../treemap/use-size.ts";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { MapTable } from "./map-table.tsx";
import { TileSearch, ViewToggle } from "./map-toolbar.tsx";
import { useDebouncedParam } from "./use-debounced-param.ts";

function stateCounts(states: Record<string, ToolResultWireState>): string {
  const n = { full: 0, "soft-trim": 0, "hard-clear": 0 };
  for (const s of Object.values(states)) n[s]++;
  return `${fmtInt(n.full)} full, ${fmtInt(n["soft-trim"])} soft-trimmed, ${fmtInt(n["hard-clear"])} hard-cleared`;
}

/** The call's tree (named with its tool results' states), laid out in the session's slots, and its search. */
function useSentMap({ agentId, sessionId, params, call }: SessionTabProps & { call: number }) {
  const slots = useQuery(sentSlotsQuery(agentId, sessionId));
  const view = useQuery(sentCallQuery(agentId, sessionId, call));
  const red = useRedactor();
  const mode: SizeMode = params.get("size") === "chars" ? "chars" : "estTokens";
  const boxRef = useRef<HTMLDivElement>(null);
  const measured = useMeasuredWidth(boxRef);
  const width = Math.max(320, measured ?? 0);
  const height = Math.max(360, Math.min(760, Math.round(width * 0.56), window.innerHeight - 250));
  const slotRoot = useMemo(
    () => (slots.data ? (red.on ? red.mapTree(slots.data.root) : slots.data.root) : null),
    [slots.data, red],
  );
  const pruning = useMemo(
    () => (view.data ? tilePruningAt(view.data.map.root, view.data) : null),
    [view.data],
  );
  const callRoot = useMemo(() => {
    if (!view.data || !pruning) return null;
    const named = namedWithStates(view.data.map.root, pruning);
    return red.on ? red.mapTree(named) : named;
  }, [view.data, pruning, red]);
  const slotLayout = useMemo(
    () => (slotRoot && measured !== null ? layoutTreemap(slotRoot, { width, height, mode }) : null),
    [slotRoot, measured, width, height, mode],
  );
  const layout = useMemo(
    () => (slotLayout && callRoot ? layoutAtCall(slotLayout, callRoot, mode) : null),
    [slotLayout, callRoot, mode],
  );
  const colors = useMemo(
    () => groupColors(view.data?.map.groups ?? slots.data?.groups ?? []),
    [view.data, slots.data],
  );
  // the latest map's search (`q`), kept while the scrubber moves: find a tool result and follow it call by call
  const q = params.get("q") ?? "";
  const [qDraft, setQDraft] = useDebouncedParam("q", q);
  const index = useMemo(() => (callRoot ? indexTree(callRoot) : null), [callRoot]);
  const search = useMemo(() => (index && q.trim() !== "" ? searchTree(index, q) : null), [index, q]);
  const matched =
    index && search && search.matches.size > 0 && callRoot ? matchedSize(index, search.matches, mode) : null;
  const total = callRoot ? subtreeSize(callRoot, mode) : 0;
  return {
    view: view.data,
    error: slots.error ?? view.error,
    red,
    mode,
    boxRef,
    height,
    pruning,
    callRoot,
    layout,
    colors,
    qDraft,
    setQDraft,
    search,
    matched,
    total,
  };
}

export function SentMapPanel(props: SessionTabProps & { call: number }) {
  const { agentId, sessionId, params, call } = props;
  const m = useSentMap(props);
  const { view, red, mode, search, callRoot } = m;
  // `?view=table`: the same call's tree as the tree table (issue 15's accessible alternative, at this call)
  const tableView = params.get("view") === "table";
  const title = `Context map of ${red.agent(agentId)}/${red.id(sessionId)} as sent at call ${call}`;
  return (
    <div className="map-view sent-map" data-testid="sent-map" data-call={view?.call.call ?? ""}>
      {m.error ? (
        <div className="error-panel">
          The map at call {call}: {m.error.message}
        </div>
      ) : null}
      {view && callRoot ? (
        <div className="muted small" data-testid="sent-map-summary">
          As sent at call {fmtInt(view.call.call)}: {fmtInt(view.map.trackedChars)} chars of tiles (≈
          {fmtInt(subtreeSize(callRoot, "estTokens"))} tokens, OpenClaw's chars/4 estimate); tool results:{" "}
          {stateCounts(view.toolResults)} (soft-trimmed tiles hatched ╱, hard-cleared cross-hatched ╳, each at
          its sent size). Tiles stay where the session's largest context put them.
        </div>
      ) : null}
      <div className="toolbar">
        <ViewToggle tableView={tableView} />
        <TileSearch
          value={m.qDraft}
          onChange={m.setQDraft}
          label="Search tiles at this call"
          testId="sent-map-search"
        />
        {search ? (
          <span className="muted small" data-testid="sent-map-search-count">
            {fmtInt(search.matches.size)} match{search.matches.size === 1 ? "" : "es"}
            {m.matched !== null
              ? ` — ${formatSize(m.matched, mode, false)}, ${fmtPct(m.total > 0 ? m.matched / m.total : null, 1)} of the map at this call`
              : ""}
          </span>
        ) : null}
      </div>
      <div className="map-canvas" ref={m.boxRef}>
        {tableView && callRoot && m.pruning ? (
          <MapTable
            viewRoot={callRoot}
            mode={mode}
            exact={false}
            grandTotal={m.total}
            search={search}
            pruning={m.pruning}
            billed={null}
            title={`${title}, as a table`}
            pruningHeading={`Pruning at call ${fmtInt(call)}`}
          />
        ) : !tableView && m.layout && m.colors ? (
          <Treemap
            layout={m.layout}
            mode={mode}
            colors={m.colors}
            grandTotal={m.layout.total}
            search={search}
            onZoom={() => {}}
            viewRootId=""
            title={title}
            exact={false}
            pruning={m.pruning ?? undefined}
            zoomable={false}
          />
        ) : (
          <div style={{ height: m.height }} />
        )}
      </div>
    </div>
  );
}
