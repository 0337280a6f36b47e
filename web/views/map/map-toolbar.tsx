// The map's toolbar: size-mode switch, tile search, the "OpenClaw map" toggle and the PNG export.

import type { ContextMapDTO, SizeMode } from "../../../shared/context-map.ts";
import { setParams } from "../../router.ts";

export const MODES: { key: SizeMode; label: string; hint: string }[] = [
  { key: "chars", label: "Chars", hint: "JS string length (UTF-16 code units)" },
  { key: "estTokens", label: "Est. tokens", hint: "OpenClaw's estimate: ceil(chars / 4)" },
  { key: "tiktoken", label: "Tokenizer", hint: "Counted with a real tokenizer (js-tiktoken)" },
  {
    key: "cache",
    label: "Cache state",
    hint: "Est. tokens, coloured by prompt-cache state at the last call",
  },
];

export function parseMode(v: string | null): SizeMode {
  return v === "estTokens" || v === "tiktoken" || v === "cache" ? v : "chars";
}

/** Why the OpenClaw toggle is off: OpenClaw's own reply, or the redacted mode that hides the picture. */
function toggleTitle(dto: ContextMapDTO): string {
  if (dto.openclaw?.available) return "Draw OpenClaw's own five-group map (binary split)";
  return dto.openclaw
    ? `OpenClaw's reply to /context map: ${dto.openclaw.text}`
    : "OpenClaw's map is not shown in redacted mode";
}

export interface MapToolbarProps {
  dto: ContextMapDTO;
  mode: SizeMode;
  showOc: boolean;
  query: string;
  onQuery: (q: string) => void;
  /** Number of matching tiles, null when no search is active. */
  matches: number | null;
  /** The matched tiles' size and its share of the map, in the size mode ("12,345 chars, 23.4% of the map"). */
  matchedTotal: string | null;
  /** The tree table is shown instead of the treemap (`?view=table`). */
  tableView: boolean;
  onExport: () => void;
  /** "Exporting…" while a PNG is made, an error message after a failed one, else null. */
  exporting: string | null;
}

/** The tile search box (`/` focuses it: data-search-box); the latest map's and the map at a call's. */
export function TileSearch(p: {
  value: string;
  onChange: (q: string) => void;
  label: string;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <input
      type="search"
      placeholder="Find tiles…  ( / )"
      aria-label={p.label}
      value={p.value}
      data-search-box
      data-testid={p.testId}
      disabled={p.disabled}
      onChange={(e) => p.onChange(e.target.value)}
    />
  );
}

/** Treemap / Table: the same tree drawn as tiles or as the tree table (`?view=table`). */
export function ViewToggle({ tableView, disabled = false }: { tableView: boolean; disabled?: boolean }) {
  return (
    <fieldset className="segmented" aria-label="Show the map as">
      {(["treemap", "table"] as const).map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={tableView === (v === "table")}
          className={tableView === (v === "table") ? "active" : undefined}
          disabled={disabled}
          onClick={() => setParams({ view: v === "table" ? "table" : null }, { replace: true })}
          data-testid={`map-view-${v}`}
        >
          {v === "table" ? "Table" : "Treemap"}
        </button>
      ))}
    </fieldset>
  );
}

export function MapToolbar(p: MapToolbarProps) {
  const canOc = p.dto.openclaw?.available === true;
  return (
    <div className="toolbar">
      <fieldset className="segmented" aria-label="Size tiles by">
        {MODES.map((m) => (
          <button
            key={m.key}
            type="button"
            aria-pressed={p.mode === m.key}
            className={p.mode === m.key ? "active" : undefined}
            title={m.hint}
            disabled={p.showOc}
            onClick={() => setParams({ size: m.key === "chars" ? null : m.key }, { replace: true })}
            data-testid={`size-${m.key}`}
          >
            {m.label}
          </button>
        ))}
      </fieldset>
      <ViewToggle tableView={p.tableView} disabled={p.showOc} />
      <TileSearch
        value={p.query}
        onChange={p.onQuery}
        label="Search tiles"
        testId="map-search"
        disabled={p.showOc}
      />
      {p.matches !== null ? (
        <span className="muted small" data-testid="map-search-count">
          {p.matches} match{p.matches === 1 ? "" : "es"}
        </span>
      ) : null}
      {p.matches !== null && p.matchedTotal !== null ? (
        <span className="muted small" data-testid="map-search-total" title="A matched group counts once">
          {p.matchedTotal}
        </span>
      ) : null}
      <span className="spacer" />
      <label className="checkbox" title={toggleTitle(p.dto)}>
        <input
          type="checkbox"
          checked={p.showOc}
          disabled={!canOc}
          onChange={(e) => setParams({ oc: e.target.checked ? "1" : null })}
          data-testid="map-openclaw-toggle"
        />{" "}
        OpenClaw map
      </label>
      <button
        type="button"
        onClick={p.onExport}
        data-testid="map-export-png"
        title={p.tableView && !p.showOc ? "Switch to the treemap to export it as a PNG" : undefined}
        disabled={p.exporting === "Exporting…" || (p.tableView && !p.showOc)}
      >
        Export PNG
      </button>
      {p.exporting && p.exporting !== "Exporting…" ? (
        <span className="error-text small">{p.exporting}</span>
      ) : null}
    </div>
  );
}
