// What the treemap says about one tile: the hover tooltip's body, and the same table in the pinned detail panel
// a keyboard user opens with Enter on a tile (closed with Escape, focus back on the tile).

import { type KeyboardEvent, useEffect, useRef } from "react";
import type { MapNode, SizeMode } from "../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../shared/format.ts";
import { pruningPreviewParams, type TilePruning } from "../../shared/tile-pruning.ts";
import type { TileRect } from "../../shared/treemap-layout.ts";
import { setParams } from "../router.ts";
import { useRedactor } from "../ui/use-redact.ts";
import { switchTab } from "../views/tab-switch.ts";
import { CACHE_LABELS } from "./colors.ts";
import { PRUNE_STATE_LABEL } from "./prune-hatch.tsx";

/** A tool result's pruning state at the call and its size stored vs as sent (issue 15). */
function PruningRows({ p }: { p: TilePruning }) {
  return (
    <>
      <tr data-testid="tile-prune-state" data-state={p.state}>
        <th>at call {fmtInt(p.call)}</th>
        <td>
          {p.state === "full" && p.sentChars !== p.storedChars
            ? "not pruned; sent as OpenClaw recorded it (2026.9 projection)"
            : PRUNE_STATE_LABEL[p.state]}
        </td>
      </tr>
      <tr>
        <th>stored chars</th>
        <td data-testid="tile-prune-stored">{fmtInt(p.storedChars)}</td>
      </tr>
      <tr>
        <th>sent chars</th>
        <td data-testid="tile-prune-sent">{fmtInt(p.sentChars)}</td>
      </tr>
    </>
  );
}

export function TileDetails({
  r,
  mode,
  viewTotal,
  grandTotal,
  pruning,
}: {
  r: TileRect;
  mode: SizeMode;
  viewTotal: number;
  grandTotal: number;
  pruning?: TilePruning | undefined;
}) {
  const n: MapNode = r.node;
  // The id addresses the zoom level (URL); in redacted mode it is shown with its data segments hashed.
  const red = useRedactor();
  return (
    <div className="tile-details">
      <div className="tile-name">{n.name}</div>
      <div className="mono small muted">{red.mapId(n.id)}</div>
      <table>
        <tbody>
          <tr>
            <th>chars</th>
            <td>{fmtInt(n.chars)}</td>
          </tr>
          <tr>
            <th>est. tokens</th>
            <td>~{fmtInt(n.estTokens)}</td>
          </tr>
          <tr>
            <th>tokenizer</th>
            <td>{n.tiktokenTokens === null ? "pending / n.a." : fmtInt(n.tiktokenTokens)}</td>
          </tr>
          {pruning ? <PruningRows p={pruning} /> : null}
          {n.cache ? (
            <tr>
              <th>cache</th>
              <td>{CACHE_LABELS[n.cache]}</td>
            </tr>
          ) : null}
          {r.depth > 1 ? (
            <tr>
              <th>share of group</th>
              <td>{fmtPct(r.parentValue > 0 ? r.value / r.parentValue : null)}</td>
            </tr>
          ) : null}
          {viewTotal !== grandTotal ? (
            <tr>
              <th>share of view</th>
              <td>{fmtPct(viewTotal > 0 ? r.value / viewTotal : null)}</td>
            </tr>
          ) : null}
          <tr>
            <th>share of total</th>
            <td>{fmtPct(grandTotal > 0 ? r.value / grandTotal : null)}</td>
          </tr>
        </tbody>
      </table>
      <div className="small">
        <span className="muted">source: </span>
        {n.source}
      </div>
      {r.isGroup ? <div className="small muted">{mode === "cache" ? "" : "Click to zoom in"}</div> : null}
    </div>
  );
}

/** A workspace file's leaf (report-leaves.ts ids `workspace/<name>`; the project-context frame is not a file). */
function isWorkspaceFile(n: MapNode): boolean {
  return n.id.startsWith("workspace/") && n.id !== "workspace/project-context-frame" && !n.children?.length;
}

/** Panel width used to keep the pinned panel inside the map. */
const PANEL_WIDTH = 300;

/**
 * The details of one tile, pinned next to it (inside the map, positioned from the tile's layout box). It takes
 * focus when it opens so a screen reader reads it; Escape or Close calls onClose (which returns focus to the tile).
 */
export function PinnedDetails({
  r,
  mode,
  viewTotal,
  grandTotal,
  mapWidth,
  pruning,
  onClose,
}: {
  r: TileRect;
  mode: SizeMode;
  viewTotal: number;
  grandTotal: number;
  mapWidth: number;
  pruning?: TilePruning | undefined;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };
  const left = Math.max(0, Math.min(r.x + 8, mapWidth - PANEL_WIDTH));
  const top = r.y + Math.min(r.h, 24);
  return (
    <div
      ref={ref}
      className="tile-popover"
      role="dialog"
      aria-label={`Details of ${r.name}`}
      tabIndex={-1}
      style={{ left, top, width: PANEL_WIDTH }}
      onKeyDown={onKeyDown}
      data-testid="treemap-detail"
    >
      <TileDetails r={r} mode={mode} viewTotal={viewTotal} grandTotal={grandTotal} pruning={pruning} />
      {pruning ? (
        <button
          type="button"
          className="small"
          onClick={() => setParams(pruningPreviewParams(pruning))}
          data-testid="treemap-detail-pruning"
        >
          Open its pruning preview at call {fmtInt(pruning.call)} →
        </button>
      ) : null}
      {isWorkspaceFile(r.node) ? (
        <button
          type="button"
          className="small"
          onClick={() => switchTab("truncation", { file: r.node.name, zoom: null })}
          data-testid="treemap-detail-truncation"
        >
          Open its bootstrap truncation →
        </button>
      ) : null}{" "}
      <button type="button" className="small" onClick={onClose} data-testid="treemap-detail-close">
        Close (Esc)
      </button>
    </div>
  );
}
