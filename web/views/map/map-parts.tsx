// The smaller pieces of the map tab: zoom breadcrumbs, the legend panel and the size-mode notes.

import type { ContextMapDTO, MapNode, SizeMode } from "../../../shared/context-map.ts";
import { fmtInt, fmtPct } from "../../../shared/format.ts";
import type { OpenClawMapPicture } from "../../../shared/openclaw-picture.ts";
import type { TilePruning } from "../../../shared/tile-pruning.ts";
import { formatSize } from "../../treemap/treemap.tsx";
import type { Legend } from "./legend.ts";

export function Breadcrumbs({
  crumbs,
  onZoom,
}: {
  crumbs: readonly MapNode[];
  onZoom: (id: string) => void;
}) {
  const label = (c: MapNode) => (c.id === "" ? "All context" : c.name);
  return (
    <nav className="breadcrumbs" aria-label="Zoom path" data-testid="map-breadcrumbs">
      {crumbs.map((c, i) => (
        <span key={c.id}>
          {i > 0 ? <span className="crumb-sep"> › </span> : null}
          {i === crumbs.length - 1 ? (
            <span className="crumb current" aria-current="page">
              {label(c)}
            </span>
          ) : (
            <button
              type="button"
              className="crumb link"
              onClick={() => onZoom(c.id)}
              data-testid={`breadcrumb-${i}`}
            >
              {label(c)}
            </button>
          )}
        </span>
      ))}
      {crumbs.length > 1 ? <span className="muted small"> — Esc / Backspace to zoom out</span> : null}
    </nav>
  );
}

export interface LegendPanelProps {
  legend: Legend;
  mode: SizeMode;
  exact: boolean;
  /** The group a row zooms into, or null. */
  targetOf: (key: string) => string | null;
  onZoom: (id: string) => void;
}

export function LegendPanel({ legend, mode, exact, targetOf, onZoom }: LegendPanelProps) {
  return (
    <aside className="legend" aria-label="Legend" data-testid="map-legend">
      <h3>Legend</h3>
      <ul>
        {legend.items.map((l) => {
          const target = targetOf(l.key);
          return (
            <li key={l.key} data-testid={`legend-${l.key}`}>
              <span className="swatch" style={{ background: l.color }} />
              {target ? (
                <button
                  type="button"
                  className="legend-label link"
                  onClick={() => onZoom(target)}
                  data-testid={`legend-zoom-${l.key}`}
                  title={`Zoom into ${l.label}`}
                >
                  {l.label}
                </button>
              ) : (
                <span className="legend-label">{l.label}</span>
              )}
              <span className="legend-pct">
                {fmtPct(legend.total > 0 ? l.value / legend.total : null, 1)}
              </span>
              <span className="legend-size muted small">{formatSize(l.value, mode, exact)}</span>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

export function TokenizerNote({ dto }: { dto: ContextMapDTO }) {
  const t = dto.tokenizer;
  // cl100k_base / o200k_base approximate the provider's own tokenizer: "counts", never "exact" (issue 15).
  const estimated =
    t.estimatedGroups.length > 0
      ? ` Still OpenClaw's estimate (chars / 4), in whole or in part: ${t.estimatedGroups.join(", ")} — the run report stores their sizes, not their text (images count as chars / 4 too). Workspace files are counted on their injected text as rebuilt from the files on disk, where its length is the report's.`
      : "";
  if (t.state === "ready")
    return (
      <p className="note small" data-testid="tokenizer-note">
        Tokenizer counts ({t.encoding ?? "tokenizer"}, an approximation of the provider's tokenizer) for the
        text clawscope has.{estimated}
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
      OpenClaw's estimate until the tokenizer counts arrive ({t.encoding ?? "tokenizer"} counting…){" "}
      <progress max={1} value={t.progress} aria-label="Tokenizer progress" data-testid="tokenizer-progress" />{" "}
      {fmtPct(t.progress, 0)}
    </p>
  );
}

export function CacheBasisNote({ dto }: { dto: ContextMapDTO }) {
  return (
    <p className="note small" data-testid="cache-basis-note">
      Estimated tokens coloured by prompt-cache state at the last call. {dto.cacheBasis ?? ""}
    </p>
  );
}

/** What the hatching on tool-result tiles means, with the counts at the call (issue 15); nothing when none is cut. */
export function PruneStatesNote({ pruning }: { pruning: ReadonlyMap<string, TilePruning> }) {
  let soft = 0;
  let hard = 0;
  let call = 0;
  for (const p of pruning.values()) {
    call = p.call;
    if (p.state === "soft-trim") soft++;
    else if (p.state === "hard-clear") hard++;
  }
  if (soft + hard === 0) return null;
  return (
    <p className="muted small" data-testid="map-prune-note">
      Tool results as sent at the last call ({fmtInt(call)}): {fmtInt(soft)} soft-trimmed (hatched ╱),{" "}
      {fmtInt(hard)} hard-cleared (cross-hatched ╳), each drawn at its sent size — click one for stored vs
      sent and its pruning preview.
    </p>
  );
}

/**
 * Why OpenClaw's own map is so much bigger than the context sent (ux-notes Context map H): what its groups count,
 * by release (spec context-report.md §5.4), beside the last call's billed prompt.
 */
export function OpenClawMapNote({ picture, billed }: { picture: OpenClawMapPicture; billed: number | null }) {
  const tok = Math.ceil(picture.trackedChars / 4);
  const sent =
    billed === null
      ? ""
      : ` The last call's billed prompt was ${fmtInt(billed)} tokens (${fmtPct(tok > 0 ? billed / tok : null, 0)} of this).`;
  const what =
    picture.family === "2026.9"
      ? "Its Conversation group sums the whole session's transcript messages by OpenClaw's map estimate — tool-result text counts twice its length (a weight-2 floor) and images 16,000 chars — so it is not the context the model was sent."
      : "It draws the stored run report only: system prompt, workspace files, tool schemas, skills and the current turn — not the conversation.";
  return (
    <p className="note small" data-testid="openclaw-map-note">
      OpenClaw's own <code>/context map</code>, as OpenClaw {picture.family} draws it:{" "}
      {fmtInt(picture.trackedChars)} chars, ~{fmtInt(tok)} tokens by its chars / 4. {what}
      {sent} Switch the toggle off for the context as sent.
    </p>
  );
}
