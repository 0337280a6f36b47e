// PNG export of the current map view: title band, the treemap as drawn (zoom, size mode, search highlight),
// legend and footer, on a 1280 × 860 canvas — the same frame as OpenClaw's `/context map` image
// (spec context-report.md §5.4) so the two can be compared side by side. The SVG carries its styles as
// presentation attributes, so serialising it keeps what the user sees.

export interface ExportLegendItem {
  label: string;
  color: string;
  detail: string;
}

export interface ExportOptions {
  svg: SVGSVGElement;
  title: string;
  subtitle: string;
  legend: ExportLegendItem[];
  footer: string;
  filename: string;
}

const W = 1280;
const H = 860;
const SVG_NS = "http://www.w3.org/2000/svg";
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

function el(name: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Build the standalone export SVG (pure DOM construction; no network, no external fonts). */
export function buildExportSvg(opts: Omit<ExportOptions, "filename">): SVGSVGElement {
  const root = document.createElementNS(SVG_NS, "svg");
  root.setAttribute("xmlns", SVG_NS);
  root.setAttribute("width", String(W));
  root.setAttribute("height", String(H));
  root.setAttribute("viewBox", `0 0 ${W} ${H}`);
  root.setAttribute("font-family", FONT);
  root.appendChild(el("rect", { x: 0, y: 0, width: W, height: H, fill: "rgb(238,241,245)" }));
  root.appendChild(el("rect", { x: 0, y: 0, width: W, height: 88, fill: "rgb(20,26,34)" }));
  root.appendChild(
    el(
      "text",
      { x: 22, y: 44, "font-size": 26, "font-weight": 700, fill: "rgb(248,250,252)" },
      clip(opts.title, 80),
    ),
  );
  root.appendChild(
    el("text", { x: 22, y: 72, "font-size": 14, fill: "rgb(176,196,222)" }, clip(opts.subtitle, 150)),
  );

  // The treemap as displayed, scaled into OpenClaw's treemap area (22, 110, 940 × 674).
  const clone = opts.svg.cloneNode(true);
  if (clone instanceof SVGSVGElement) {
    for (const skip of Array.from(clone.querySelectorAll("[data-export-skip]"))) skip.remove();
    clone.setAttribute("x", "22");
    clone.setAttribute("y", "110");
    clone.setAttribute("width", "940");
    clone.setAttribute("height", "674");
    clone.setAttribute("preserveAspectRatio", "xMidYMid meet");
    root.appendChild(clone);
  }

  root.appendChild(
    el("rect", {
      x: 984,
      y: 110,
      width: 274,
      height: 674,
      fill: "rgb(245,247,250)",
      stroke: "rgb(213,220,228)",
    }),
  );
  root.appendChild(
    el("text", { x: 1002, y: 140, "font-size": 18, "font-weight": 700, fill: "rgb(30,41,59)" }, "Legend"),
  );
  let y = 168;
  for (const item of opts.legend.slice(0, 11)) {
    root.appendChild(
      el("rect", { x: 1002, y, width: 18, height: 18, fill: item.color, stroke: "rgb(15,23,42)" }),
    );
    root.appendChild(
      el(
        "text",
        { x: 1030, y: y + 13, "font-size": 14, "font-weight": 600, fill: "rgb(30,41,59)" },
        clip(item.label, 26),
      ),
    );
    root.appendChild(
      el("text", { x: 1030, y: y + 31, "font-size": 12, fill: "rgb(51,65,85)" }, clip(item.detail, 32)),
    );
    y += 54;
  }
  root.appendChild(
    el("text", { x: 22, y: 836, "font-size": 14, fill: "rgb(51,65,85)" }, clip(opts.footer, 160)),
  );
  return root;
}

/** Render the export SVG to a PNG blob at 1280 × 860. */
export async function renderPng(svg: SVGSVGElement): Promise<Blob> {
  const xml = new XMLSerializer().serializeToString(svg);
  const url = URL.createObjectURL(new Blob([xml], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const img = new Image();
    img.decoding = "sync";
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("The map could not be rendered to an image"));
      img.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = W;
    canvas.height = H;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("Canvas 2D is not available");
    ctx.drawImage(img, 0, 0, W, H);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("PNG encoding failed"))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The OpenClaw map is already a 1280 × 860 frame: export it as drawn, at its native size. */
export function nativeFrame(svg: SVGSVGElement): SVGSVGElement {
  const clone = svg.cloneNode(true);
  if (!(clone instanceof SVGSVGElement)) return svg;
  clone.setAttribute("width", String(W));
  clone.setAttribute("height", String(H));
  return clone;
}

/** Build, render and download the PNG (`native`: the SVG already is the full frame). */
export async function exportMapPng(opts: ExportOptions & { native?: boolean }): Promise<void> {
  const blob = await renderPng(opts.native ? nativeFrame(opts.svg) : buildExportSvg(opts));
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = opts.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
