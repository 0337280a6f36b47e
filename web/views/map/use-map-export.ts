// "Export PNG" of the map as shown: the treemap (or OpenClaw's picture) framed with title, legend and footer.

import { type RefObject, useState } from "react";
import type { SizeMode } from "../../../shared/context-map.ts";
import { fmtPct } from "../../../shared/format.ts";
import { exportMapPng } from "../../treemap/export-png.ts";
import { formatSize } from "../../treemap/treemap.tsx";
import type { Legend } from "./legend.ts";
import { MODES } from "./map-toolbar.tsx";

export interface MapExportInput {
  svgHost: RefObject<HTMLDivElement | null>;
  /** OpenClaw's picture is shown (exported as its own 1280 × 860 frame). */
  native: boolean;
  agentId: string;
  sessionId: string;
  /** Names of the zoom path below the root, and the zoomed node's id as shown in file names. */
  zoomPath: string[];
  zoomId: string;
  mode: SizeMode;
  exact: boolean;
  legend: Legend;
  footer: string;
}

/** The export state ("Exporting…", an error message, or null) and the action. */
export function useMapExport(input: MapExportInput): { exporting: string | null; onExport: () => void } {
  const [exporting, setExporting] = useState<string | null>(null);
  const run = async () => {
    const svg = input.svgHost.current?.querySelector("svg");
    if (!svg) return;
    setExporting("Exporting…");
    const { legend, mode, exact, native } = input;
    const zoom = input.zoomPath.length > 0 ? ` / ${input.zoomPath.join(" › ")}` : "";
    const zoomFile = input.zoomId ? `-${input.zoomId.replace(/[^A-Za-z0-9._-]+/g, "_")}` : "";
    try {
      await exportMapPng({
        svg,
        native,
        title: native ? "OpenClaw context map" : "Context map",
        subtitle: `${input.agentId} / ${input.sessionId}${zoom} — sized by ${MODES.find((m) => m.key === mode)?.label ?? mode}`,
        legend: legend.items.map((l) => ({
          label: l.label,
          color: l.color,
          detail: `${fmtPct(legend.total > 0 ? l.value / legend.total : null, 0)} · ${formatSize(l.value, mode, exact)}`,
        })),
        footer: input.footer,
        filename: `clawscope-${native ? "openclaw-" : ""}map-${input.agentId}-${input.sessionId}${zoomFile}.png`,
      });
      setExporting(null);
    } catch (e) {
      setExporting(e instanceof Error ? e.message : String(e));
    }
  };
  return { exporting, onExport: () => void run() };
}
