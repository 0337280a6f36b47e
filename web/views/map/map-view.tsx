// The map tab: clawscope's treemap of the context (shared/treemap-layout.ts) with size modes, search, zoom with
// breadcrumbs, legend, footer and PNG export, or OpenClaw's own picture as the server drew it (the "OpenClaw
// map" toggle). URL state: size, zoom, q, oc, view (`table`: the tree table, map-table.tsx). The pieces: map-toolbar.tsx, map-parts.tsx, legend.ts,
// map-footer.tsx, use-debounced-param.ts, use-map-export.ts.

import { useQuery } from "@tanstack/react-query";
import { type RefObject, useCallback, useEffect, useMemo, useRef } from "react";
import type { ContextMapDTO, MapNode } from "../../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type { OpenClawMapPicture } from "../../../shared/openclaw-picture.ts";
import { namedWithStates, type TilePruning } from "../../../shared/tile-pruning.ts";
import {
  indexTree,
  layoutTreemap,
  matchedSize,
  pathTo,
  searchTree,
  subtreeSize,
} from "../../../shared/treemap-layout.ts";
import { groupColors } from "../../../shared/treemap-style.ts";
import { mapQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { OpenClawPictureView } from "../../treemap/openclaw-picture-view.tsx";
import { formatSize, Treemap } from "../../treemap/treemap.tsx";
import { useMeasuredWidth } from "../../treemap/use-size.ts";
import { isTyping } from "../../ui/shortcuts.tsx";
import { QueryPanel } from "../../ui/status.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";
import { legendTarget, mapLegend } from "./legend.ts";
import { footerText, MapFooter } from "./map-footer.tsx";
import {
  Breadcrumbs,
  CacheBasisNote,
  LegendPanel,
  OpenClawMapNote,
  PruneStatesNote,
  TokenizerNote,
} from "./map-parts.tsx";
import { MapTable } from "./map-table.tsx";
import { MapToolbar, parseMode } from "./map-toolbar.tsx";
import { SentMapPanel } from "./sent-map.tsx";
import { parseCallParam, SentScrubber } from "./sent-scrubber.tsx";
import { useDebouncedParam } from "./use-debounced-param.ts";
import { useLatestPruning } from "./use-latest-pruning.ts";
import { useMapExport } from "./use-map-export.ts";

export function MapView({ agentId, sessionId, params }: SessionTabProps) {
  // issue 16: `?call=N` shows the map as sent at that call (sent-map.tsx) under the turn scrubber
  const call = parseCallParam(params.get("call"));
  return (
    <>
      <SentScrubber agentId={agentId} sessionId={sessionId} params={params} />
      {call !== null ? (
        <SentMapPanel agentId={agentId} sessionId={sessionId} params={params} call={call} />
      ) : (
        <LatestMap agentId={agentId} sessionId={sessionId} params={params} />
      )}
    </>
  );
}

function LatestMap({ agentId, sessionId, params }: SessionTabProps) {
  const query = useQuery(mapQuery(agentId, sessionId));
  return (
    <QueryPanel query={query} label="the context map">
      {(dto) => <RedactedMapPanel dto={dto} agentId={agentId} sessionId={sessionId} params={params} />}
    </QueryPanel>
  );
}

/** In redacted mode the panel draws a masked copy of the tree (names/sources) and masked ids in its titles. */
function RedactedMapPanel({ dto, agentId, sessionId, params }: SessionTabProps & { dto: ContextMapDTO }) {
  const r = useRedactor();
  // the tool results' states at the last call: named in their tiles, hatched, in their details (issue 15)
  const pruning = useLatestPruning(agentId, sessionId, dto.root);
  const shown = useMemo(() => {
    const root = namedWithStates(dto.root, pruning);
    if (!r.on) return root === dto.root ? dto : { ...dto, root };
    // OpenClaw's own map picture carries its leaf labels as drawn text runs: not shown in redacted mode.
    const { openclaw: _picture, ...rest } = dto;
    return {
      ...rest,
      root: r.mapTree(root),
      untracked: { ...dto.untracked, reason: r.sentence(dto.untracked.reason) },
    };
  }, [dto, r, pruning]);
  return (
    <MapPanel
      dto={shown}
      agentId={r.agent(agentId)}
      sessionId={r.id(sessionId)}
      params={params}
      pruning={pruning}
    />
  );
}

/** Esc / Backspace zooms out one level (unless typing or a dialog is open). */
function useZoomOutKeys(atRoot: boolean, zoomOut: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e.target) || document.querySelector("dialog[open]")) return;
      if ((e.key === "Escape" || e.key === "Backspace") && !atRoot) {
        e.preventDefault();
        zoomOut();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [zoomOut, atRoot]);
}

/** What the treemap, its table and the legend share: the tree index, the zoomed root, search and totals. */
function useMapModel(dto: ContextMapDTO, params: URLSearchParams) {
  const mode = parseMode(params.get("size"));
  const q = params.get("q") ?? "";
  const index = indexTree(dto.root);
  const viewRoot: MapNode = index.byId.get(params.get("zoom") ?? "") ?? dto.root;
  const crumbs = pathTo(index, dto.root, viewRoot.id);
  const colors = useMemo(() => groupColors(dto.groups), [dto]);
  const search = useMemo(() => (q.trim() === "" ? null : searchTree(index, q)), [index, q]);
  const grandTotal = useMemo(() => subtreeSize(dto.root, mode), [dto, mode]);
  const exact = dto.tokenizer.state === "ready";
  const matchedTotal = useMemo(() => {
    if (search === null || search.matches.size === 0) return null;
    const size = matchedSize(index, search.matches, mode);
    return `${formatSize(size, mode, exact)}, ${fmtPct(grandTotal > 0 ? size / grandTotal : null, 1)} of the map`;
  }, [search, index, mode, exact, grandTotal]);
  const legend = useMemo(() => mapLegend(dto, mode, viewRoot, colors), [dto, mode, colors, viewRoot]);
  const zoomTo = useCallback((id: string) => setParams({ zoom: id === "" ? null : id }), []);
  const zoomOut = useCallback(() => {
    const parent = index.parentOf.get(viewRoot.id);
    if (parent !== undefined && parent !== null) zoomTo(parent);
  }, [index, viewRoot.id, zoomTo]);
  useZoomOutKeys(viewRoot.id === dto.root.id, zoomOut);
  return { mode, q, viewRoot, crumbs, colors, search, grandTotal, exact, matchedTotal, legend, zoomTo };
}

function MapPanel({
  dto,
  agentId,
  sessionId,
  params,
  pruning,
}: SessionTabProps & { dto: ContextMapDTO; pruning: ReadonlyMap<string, TilePruning> }) {
  const red = useRedactor();
  const m = useMapModel(dto, params);
  const { mode, viewRoot, crumbs } = m;
  const [qDraft, setQDraft] = useDebouncedParam("q", m.q);
  // OpenClaw's own picture, drawn as the server laid it out (null: unavailable, or hidden when redacted).
  const openclaw = dto.openclaw?.available ? dto.openclaw.picture : null;
  const showOc = params.get("oc") === "1" && openclaw !== null;
  const tableView = params.get("view") === "table" && !showOc;
  const svgHost = useRef<HTMLDivElement>(null);
  const { exporting, onExport } = useMapExport({
    svgHost,
    native: showOc,
    agentId,
    sessionId,
    zoomPath: viewRoot.id ? crumbs.map((c) => c.name) : [],
    zoomId: viewRoot.id ? (red.on ? red.id(viewRoot.id).slice(1) : viewRoot.id) : "",
    mode,
    exact: m.exact,
    legend: m.legend,
    footer: footerText(dto),
  });

  return (
    <div className="map-view">
      <MapToolbar
        dto={dto}
        mode={mode}
        showOc={showOc}
        query={qDraft}
        onQuery={setQDraft}
        matches={m.search ? m.search.matches.size : null}
        matchedTotal={m.matchedTotal}
        tableView={tableView}
        onExport={onExport}
        exporting={exporting}
      />
      {dto.reportOwner ? (
        <p className="warn-note" data-testid="map-report-owner">
          {red.sentence(dto.reportOwner.note)}
        </p>
      ) : null}
      {mode === "tiktoken" && !showOc ? <TokenizerNote dto={dto} /> : null}
      {!showOc ? <PruneStatesNote pruning={pruning} /> : null}
      {showOc && openclaw ? (
        <OpenClawMapNote picture={openclaw} billed={dto.numbers.billedPromptTokens} />
      ) : null}
      {mode === "cache" && !showOc ? <CacheBasisNote dto={dto} /> : null}
      {!showOc ? <Breadcrumbs crumbs={crumbs} onZoom={m.zoomTo} /> : null}
      <div className="map-body">
        <MapCanvas
          dto={dto}
          model={m}
          pruning={pruning}
          svgHost={svgHost}
          picture={showOc ? openclaw : null}
          tableView={tableView}
          title={`Context map of ${agentId}/${sessionId}`}
        />
        {!showOc ? (
          <LegendPanel
            legend={m.legend}
            mode={mode}
            exact={m.exact}
            targetOf={(key) => legendTarget(dto, mode, viewRoot.id, key)}
            onZoom={m.zoomTo}
          />
        ) : null}
      </div>
      <MapFooter dto={dto} />
    </div>
  );
}

/** The drawing: OpenClaw's own picture, the tree table, or the treemap laid out to the measured width. */
function MapCanvas({
  dto,
  model: m,
  pruning,
  svgHost,
  picture,
  tableView,
  title,
}: {
  dto: ContextMapDTO;
  model: ReturnType<typeof useMapModel>;
  pruning: ReadonlyMap<string, TilePruning>;
  svgHost: RefObject<HTMLDivElement | null>;
  picture: OpenClawMapPicture | null;
  tableView: boolean;
  title: string;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const measured = useMeasuredWidth(boxRef);
  const mapWidth = Math.max(320, measured ?? 0);
  const mapHeight = Math.max(360, Math.min(760, Math.round(mapWidth * 0.56), window.innerHeight - 250));
  const { viewRoot, mode } = m;
  const layout = useMemo(
    () =>
      measured === null
        ? { rects: [], total: 0, width: 0, height: 0, culled: 0 }
        : layoutTreemap(viewRoot, { width: mapWidth, height: mapHeight, mode }),
    [viewRoot, mapWidth, mapHeight, mode, measured],
  );
  // what the treemap and its tree table both show: one tree, one size mode, one search
  const shared = { mode, exact: m.exact, grandTotal: m.grandTotal, search: m.search, pruning };
  return (
    <div className="map-canvas" ref={boxRef}>
      <div ref={svgHost}>
        {picture ? (
          <OpenClawPictureView picture={picture} width={mapWidth} />
        ) : tableView ? (
          <MapTable
            viewRoot={viewRoot}
            {...shared}
            billed={dto.numbers.billedPromptTokens}
            title={`${title} as a table`}
          />
        ) : measured === null ? (
          <div style={{ height: mapHeight }} />
        ) : layout.rects.length === 0 ? (
          <div className="empty-map" data-testid="map-empty">
            Nothing to draw: every tile is 0 in this size mode.
          </div>
        ) : (
          <Treemap
            layout={layout}
            {...shared}
            colors={m.colors}
            onZoom={m.zoomTo}
            viewRootId={viewRoot.id}
            title={title}
          />
        )}
      </div>
      {layout.culled > 0 && !picture && !tableView ? (
        <div className="muted small" data-testid="map-culled">
          {fmtInt(layout.culled)} tile{layout.culled === 1 ? "" : "s"} too small to draw at this size — zoom
          in to see them.
        </div>
      ) : null}
    </div>
  );
}
