// The map tab: size-mode switch, search, zoom with breadcrumbs, legend, footer, PNG export and the
// "OpenClaw map" toggle. URL state: size, zoom, q, oc.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ContextMapDTO, MapNode, SizeMode } from "../../../shared/map.ts";
import { css } from "../../../shared/openclaw-colors.ts";
import {
  indexTree,
  layoutTreemap,
  pathTo,
  searchTree,
  sizeOf,
  subtreeSize,
} from "../../../shared/treemap-layout.ts";
import { fallbackColor, groupColors } from "../../../shared/treemap-style.ts";
import { mapQuery } from "../../api/queries.ts";
import { setParams } from "../../router.ts";
import { CACHE_COLORS, CACHE_LABELS, CACHE_STATES } from "../../treemap/colors.ts";
import { exportMapPng } from "../../treemap/export-png.ts";
import { OpenClawMapView } from "../../treemap/openclaw-map-view.tsx";
import { formatSize, Treemap } from "../../treemap/treemap.tsx";
import { useMeasuredWidth } from "../../treemap/use-size.ts";
import { fmtInt, fmtPct } from "../../ui/format.ts";
import { isTyping } from "../../ui/shortcuts.tsx";
import { QueryPanel } from "../../ui/status.tsx";
import { useRedactor } from "../../ui/use-redact.ts";
import type { SessionTabProps } from "../session-tab.ts";

const MODES: { key: SizeMode; label: string; hint: string }[] = [
  { key: "chars", label: "Chars", hint: "JS string length (UTF-16 code units)" },
  { key: "estTokens", label: "Est. tokens", hint: "OpenClaw's estimate: ceil(chars / 4)" },
  { key: "tiktoken", label: "Tokenizer", hint: "Counted with a real tokenizer (js-tiktoken)" },
  {
    key: "cache",
    label: "Cache state",
    hint: "Est. tokens, coloured by prompt-cache state at the last call",
  },
];

function parseMode(v: string | null): SizeMode {
  return v === "estTokens" || v === "tiktoken" || v === "cache" ? v : "chars";
}

export function MapView({ agentId, sessionId, params }: SessionTabProps) {
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
  const shown = useMemo(() => {
    if (!r.on) return dto;
    // OpenClaw's own map picture carries its leaf labels as drawn text runs: not shown in redacted mode.
    const { openclaw: _picture, ...rest } = dto;
    return {
      ...rest,
      root: r.mapTree(dto.root),
      untracked: { ...dto.untracked, reason: r.sentence(dto.untracked.reason) },
    };
  }, [dto, r]);
  return <MapPanel dto={shown} agentId={r.agent(agentId)} sessionId={r.id(sessionId)} params={params} />;
}

function MapPanel({ dto, agentId, sessionId, params }: SessionTabProps & { dto: ContextMapDTO }) {
  const red = useRedactor();
  const mode = parseMode(params.get("size"));
  const q = params.get("q") ?? "";
  // Typing edits a draft; the URL (and the highlight) follow after a short pause.
  const [qDraft, setQDraft] = useState(q);
  useEffect(() => setQDraft(q), [q]);
  useEffect(() => {
    if (qDraft === q) return;
    const t = setTimeout(() => setParams({ q: qDraft }, { replace: true }), 200);
    return () => clearTimeout(t);
  }, [qDraft, q]);
  // OpenClaw's own picture, drawn as the server laid it out (null: unavailable, or hidden when redacted).
  const openclaw = dto.openclaw?.available ? dto.openclaw.picture : null;
  const showOc = params.get("oc") === "1" && openclaw !== null;
  const index = indexTree(dto.root);
  const zoomParam = params.get("zoom") ?? "";
  const viewRoot: MapNode = index.byId.get(zoomParam) ?? dto.root;
  const crumbs = pathTo(index, dto.root, viewRoot.id);

  const colors = useMemo(() => groupColors(dto.groups), [dto]);

  const boxRef = useRef<HTMLDivElement>(null);
  const svgHost = useRef<HTMLDivElement>(null);
  const measured = useMeasuredWidth(boxRef);
  const mapWidth = Math.max(320, measured ?? 0);
  const mapHeight = Math.max(360, Math.min(760, Math.round(mapWidth * 0.56), window.innerHeight - 250));
  const layout = useMemo(
    () =>
      measured === null
        ? { rects: [], total: 0, width: 0, height: 0, culled: 0 }
        : layoutTreemap(viewRoot, { width: mapWidth, height: mapHeight, mode }),
    [viewRoot, mapWidth, mapHeight, mode, measured],
  );
  const search = useMemo(() => (q.trim() === "" ? null : searchTree(index, q)), [index, q]);
  const grandTotal = useMemo(() => subtreeSize(dto.root, mode), [dto, mode]);
  const exact = dto.tokenizer.state === "ready";

  const zoomTo = useCallback((id: string) => setParams({ zoom: id === "" ? null : id }), []);
  const zoomOut = useCallback(() => {
    const parent = index.parentOf.get(viewRoot.id);
    if (parent !== undefined && parent !== null) zoomTo(parent);
  }, [index, viewRoot.id, zoomTo]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e.target) || document.querySelector("dialog[open]")) return;
      if ((e.key === "Escape" || e.key === "Backspace") && viewRoot.id !== dto.root.id) {
        e.preventDefault();
        zoomOut();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [zoomOut, viewRoot.id, dto.root.id]);

  const legend = useMemo(() => {
    if (mode === "cache") {
      const sums = new Map<string, number>();
      const add = (k: string, v: number) => sums.set(k, (sums.get(k) ?? 0) + v);
      const walk = (n: MapNode) => {
        if (n.children && n.children.length > 0) n.children.forEach(walk);
        else if (n.cacheTokens) {
          add("read", n.cacheTokens.read);
          add("write", n.cacheTokens.write);
          add("uncached", n.cacheTokens.uncached);
        } else add(n.cache ?? "unknown", sizeOf(n, mode));
      };
      walk(viewRoot);
      return CACHE_STATES.map((k) => ({
        key: k,
        label: CACHE_LABELS[k],
        color: css(CACHE_COLORS[k]),
        value: sums.get(k) ?? 0,
      }));
    }
    return dto.groups.map((g, i) => {
      let value = 0;
      for (const c of dto.root.children ?? []) if (c.group === g.key) value += subtreeSize(c, mode);
      return { key: g.key, label: g.name, color: css(colors.get(g.key) ?? fallbackColor(i)), value };
    });
  }, [dto, mode, colors, viewRoot]);
  // Legend entries zoom into their group (map mode only; cache-mode entries are states, not groups).
  const legendTarget = (key: string): string | null => {
    if (mode === "cache") return null;
    const n = dto.root.children?.find(
      (c) => c.group === key && c.children !== undefined && c.children.length > 0,
    );
    return n && n.id !== viewRoot.id ? n.id : null;
  };
  const legendTotal = mode === "cache" ? subtreeSize(viewRoot, mode) : grandTotal;

  const trackedTok = Math.ceil(dto.trackedChars / 4);
  const footer = `${fmtInt(dto.trackedChars)} chars tracked (~${fmtInt(trackedTok)} tok) / actual ctx ${
    dto.actualTokens === null ? "unknown" : `${fmtInt(dto.actualTokens)} tok`
  } / window ${dto.windowTokens === null || dto.windowTokens <= 0 ? "unknown" : `${fmtInt(dto.windowTokens)} tok`}`;

  const [exporting, setExporting] = useState<string | null>(null);
  const onExport = async () => {
    const svg = svgHost.current?.querySelector("svg");
    if (!svg) return;
    setExporting("Exporting…");
    try {
      await exportMapPng({
        svg,
        native: showOc,
        title: showOc ? "OpenClaw context map" : "Context map",
        subtitle: `${agentId} / ${sessionId}${viewRoot.id ? ` / ${crumbs.map((c) => c.name).join(" › ")}` : ""} — sized by ${
          MODES.find((m) => m.key === mode)?.label ?? mode
        }`,
        legend: legend.map((l) => ({
          label: l.label,
          color: l.color,
          detail: `${fmtPct(legendTotal > 0 ? l.value / legendTotal : null, 0)} · ${formatSize(l.value, mode, exact)}`,
        })),
        footer,
        filename: `clawscope-${showOc ? "openclaw-" : ""}map-${agentId}-${sessionId}${viewRoot.id ? `-${(red.on ? red.id(viewRoot.id).slice(1) : viewRoot.id).replace(/[^A-Za-z0-9._-]+/g, "_")}` : ""}.png`,
      });
      setExporting(null);
    } catch (e) {
      setExporting(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <div className="map-view">
      <div className="toolbar">
        <fieldset className="segmented" aria-label="Size tiles by">
          {MODES.map((m) => (
            <button
              key={m.key}
              type="button"
              aria-pressed={mode === m.key}
              className={mode === m.key ? "active" : undefined}
              title={m.hint}
              disabled={showOc}
              onClick={() => setParams({ size: m.key === "chars" ? null : m.key }, { replace: true })}
              data-testid={`size-${m.key}`}
            >
              {m.label}
            </button>
          ))}
        </fieldset>
        <input
          type="search"
          placeholder="Find tiles…  ( / )"
          aria-label="Search tiles"
          value={qDraft}
          data-search-box
          data-testid="map-search"
          disabled={showOc}
          onChange={(e) => setQDraft(e.target.value)}
        />
        {search ? (
          <span className="muted small" data-testid="map-search-count">
            {search.matches.size} match{search.matches.size === 1 ? "" : "es"}
          </span>
        ) : null}
        <span className="spacer" />
        <label
          className="checkbox"
          title={
            openclaw
              ? "Draw OpenClaw's own five-group map (binary split)"
              : dto.openclaw && !dto.openclaw.available
                ? `OpenClaw's reply to /context map: ${dto.openclaw.text}`
                : "OpenClaw's map is not shown in redacted mode"
          }
        >
          <input
            type="checkbox"
            checked={showOc}
            disabled={openclaw === null}
            onChange={(e) => setParams({ oc: e.target.checked ? "1" : null })}
            data-testid="map-openclaw-toggle"
          />{" "}
          OpenClaw map
        </label>
        <button
          type="button"
          onClick={() => void onExport()}
          data-testid="map-export-png"
          disabled={exporting === "Exporting…"}
        >
          Export PNG
        </button>
        {exporting && exporting !== "Exporting…" ? (
          <span className="error-text small">{exporting}</span>
        ) : null}
      </div>

      {mode === "tiktoken" && !showOc ? <TokenizerNote dto={dto} /> : null}
      {mode === "cache" && !showOc ? (
        <p className="note small" data-testid="cache-basis-note">
          Estimated tokens coloured by prompt-cache state at the last call. {dto.cacheBasis ?? ""}
        </p>
      ) : null}

      {!showOc ? (
        <nav className="breadcrumbs" aria-label="Zoom path" data-testid="map-breadcrumbs">
          {crumbs.map((c, i) => (
            <span key={c.id}>
              {i > 0 ? <span className="crumb-sep"> › </span> : null}
              {i === crumbs.length - 1 ? (
                <span className="crumb current" aria-current="page">
                  {c.id === "" ? "All context" : c.name}
                </span>
              ) : (
                <button
                  type="button"
                  className="crumb link"
                  onClick={() => zoomTo(c.id)}
                  data-testid={`breadcrumb-${i}`}
                >
                  {c.id === "" ? "All context" : c.name}
                </button>
              )}
            </span>
          ))}
          {crumbs.length > 1 ? <span className="muted small"> — Esc / Backspace to zoom out</span> : null}
        </nav>
      ) : null}

      <div className="map-body">
        <div className="map-canvas" ref={boxRef}>
          <div ref={svgHost}>
            {showOc && openclaw ? (
              <OpenClawMapView picture={openclaw} width={mapWidth} />
            ) : measured === null ? (
              <div style={{ height: mapHeight }} />
            ) : layout.rects.length === 0 ? (
              <div className="empty-map" data-testid="map-empty">
                Nothing to draw: every tile is 0 in this size mode.
              </div>
            ) : (
              <Treemap
                layout={layout}
                mode={mode}
                colors={colors}
                grandTotal={grandTotal}
                search={search}
                onZoom={zoomTo}
                viewRootId={viewRoot.id}
                title={`Context map of ${agentId}/${sessionId}`}
                exact={exact}
              />
            )}
          </div>
          {layout.culled > 0 && !showOc ? (
            <div className="muted small" data-testid="map-culled">
              {fmtInt(layout.culled)} tile{layout.culled === 1 ? "" : "s"} too small to draw at this size —
              zoom in to see them.
            </div>
          ) : null}
        </div>
        {!showOc ? (
          <aside className="legend" aria-label="Legend" data-testid="map-legend">
            <h3>Legend</h3>
            <ul>
              {legend.map((l) => (
                <li key={l.key} data-testid={`legend-${l.key}`}>
                  <span className="swatch" style={{ background: l.color }} />
                  {legendTarget(l.key) ? (
                    <button
                      type="button"
                      className="legend-label link"
                      onClick={() => zoomTo(legendTarget(l.key) ?? "")}
                      data-testid={`legend-zoom-${l.key}`}
                      title={`Zoom into ${l.label}`}
                    >
                      {l.label}
                    </button>
                  ) : (
                    <span className="legend-label">{l.label}</span>
                  )}
                  <span className="legend-pct">
                    {fmtPct(legendTotal > 0 ? l.value / legendTotal : null, 1)}
                  </span>
                  <span className="legend-size muted small">{formatSize(l.value, mode, exact)}</span>
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
      </div>
      <footer className="map-footer" data-testid="map-footer">
        <span>{footer}</span>
        <span className="muted" title={dto.untracked.reason}>
          {" "}
          · untracked{" "}
          {dto.untracked.tokens === null
            ? `unknown (${dto.untracked.reason})`
            : `${fmtInt(dto.untracked.tokens)} tok`}
        </span>
      </footer>
    </div>
  );
}

function TokenizerNote({ dto }: { dto: ContextMapDTO }) {
  const t = dto.tokenizer;
  if (t.state === "ready")
    return (
      <p className="note small" data-testid="tokenizer-note">
        Exact tokenizer counts ({t.encoding ?? "tokenizer"}).
      </p>
    );
  if (t.state === "unavailable")
    return (
      <p className="note small" data-testid="tokenizer-note">
        Tokenizer counts are not available for this session; tiles use OpenClaw's estimate (chars / 4).
      </p>
    );
  return (
    <p className="note small" data-testid="tokenizer-note">
      Estimate until exact counts arrive ({t.encoding ?? "tokenizer"} counting…){" "}
      <progress max={1} value={t.progress} aria-label="Tokenizer progress" data-testid="tokenizer-progress" />{" "}
      {fmtPct(t.progress, 0)}
    </p>
  );
}
