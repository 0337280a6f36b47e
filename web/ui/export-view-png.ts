// PNG export of any view (issue 8: "PNG export of any view"). The map has its own framed export
// (treemap/export-png.ts); every other panel is snapshotted as it looks on screen: the panel's DOM is cloned
// into an SVG <foreignObject> together with the page's own style sheets, drawn on a canvas and encoded as
// PNG. No dependency, no server round trip. The SVG root carries the page's `data-theme`, so the
// `:root[data-theme=…]` colour variables resolve inside the image as on screen.

/** Largest canvas side Chromium/Firefox reliably allocate. */
const MAX_SIDE = 16_000;

function pageCss(): string {
  let css = "";
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      for (const rule of Array.from(sheet.cssRules)) css += `${rule.cssText}\n`;
    } catch {
      // A cross-origin sheet cannot be read; the app serves only its own.
    }
  }
  return css;
}

function cloneEl(e: HTMLElement, deep: boolean): HTMLElement {
  const c = e.cloneNode(deep);
  return c instanceof HTMLElement ? c : document.createElement("div");
}

/** The panel wrapped in shallow copies of its ancestors, so descendant selectors keep matching. */
function cloneWithAncestors(panel: HTMLElement, width: number, title: string): HTMLElement {
  const body = getComputedStyle(document.body);
  const frame = document.createElement("div");
  frame.setAttribute(
    "style",
    `width:${width}px;padding:16px;box-sizing:border-box;background:${body.backgroundColor};color:${body.color};font-family:${body.fontFamily};font-size:${body.fontSize};line-height:${body.lineHeight}`,
  );
  const head = document.createElement("div");
  head.setAttribute("style", "font-weight:600;margin-bottom:10px;opacity:0.8");
  head.textContent = title;
  frame.appendChild(head);

  let inner = cloneEl(panel, true);
  // Live form values are properties, not attributes: copy them so inputs show what the user set.
  const src = panel.querySelectorAll("input, select, textarea");
  const dst = inner.querySelectorAll("input, select, textarea");
  src.forEach((s, i) => {
    const d = dst[i];
    if (s instanceof HTMLInputElement && d instanceof HTMLInputElement) {
      d.setAttribute("value", s.value);
      if (s.checked) d.setAttribute("checked", "");
    } else if (s instanceof HTMLSelectElement && d instanceof HTMLSelectElement) {
      for (const o of Array.from(d.options)) {
        if (o.value === s.value) o.setAttribute("selected", "");
        else o.removeAttribute("selected");
      }
    }
  });
  for (let a = panel.parentElement; a && a !== document.body; a = a.parentElement) {
    const shell = cloneEl(a, false);
    shell.removeAttribute("id");
    shell.style.margin = "0";
    shell.style.padding = "0";
    shell.style.maxWidth = "none";
    shell.appendChild(inner);
    inner = shell;
  }
  frame.appendChild(inner);
  return frame;
}

/** Snapshot `panel` (as laid out now) to a PNG blob. */
export async function renderPanelPng(panel: HTMLElement, title: string): Promise<Blob> {
  const rect = panel.getBoundingClientRect();
  const width = Math.ceil(Math.max(rect.width, panel.scrollWidth)) + 32;
  const frame = cloneWithAncestors(panel, width, title);

  // Measure the frame's height by laying it out off screen with the live styles.
  const probe = document.createElement("div");
  probe.setAttribute("style", `position:absolute;left:-100000px;top:0;width:${width}px`);
  probe.appendChild(frame);
  document.body.appendChild(probe);
  const height = Math.ceil(frame.getBoundingClientRect().height);
  probe.remove();

  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("xmlns", ns);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  const theme = document.documentElement.dataset.theme;
  if (theme) svg.setAttribute("data-theme", theme);
  const style = document.createElementNS(ns, "style");
  style.textContent = pageCss();
  svg.appendChild(style);
  const fo = document.createElementNS(ns, "foreignObject");
  fo.setAttribute("x", "0");
  fo.setAttribute("y", "0");
  fo.setAttribute("width", "100%");
  fo.setAttribute("height", "100%");
  fo.appendChild(frame);
  svg.appendChild(fo);

  const xml = new XMLSerializer().serializeToString(svg);
  // A data: URL (not a blob: URL) keeps the canvas origin-clean for foreignObject content in Chromium.
  const img = new Image();
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error("The view could not be rendered to an image"));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
  });
  const scale = Math.max(
    0.25,
    Math.min(window.devicePixelRatio || 1, 2, MAX_SIDE / width, MAX_SIDE / Math.max(1, height)),
  );
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("Canvas 2D is not available");
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0, width, height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("PNG encoding failed"))), "image/png"),
  );
}

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file-name-safe slug. */
export function fileSlug(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
}
