// The export's one way to build markup (issue 8, "Share"): the `html` tagged template passes every interpolated
// value through the ONE escape function `esc` (also inside SVG <text>/<title> and attribute values) unless the
// value is itself markup built by `html`. `esc` also encodes `:` and `=` so no data text forms a literal
// `javascript:`, `http://` or `onerror=` in the source (harmless as text, but a grep for them must find nothing).

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  ":": "&#58;",
  "=": "&#61;",
};

/** THE escape function: every piece of data that reaches the document goes through here. */
export function esc(value: string): string {
  return value.replace(/[&<>"':=]/g, (c) => ESCAPES[c] ?? c);
}

/** Markup built by `html` (already escaped), or the renderer's own constant markup (`trusted`). */
export class Html {
  constructor(readonly value: string) {}
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function part(p: Part): string {
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return p.map(part).join("");
  if (p === null || p === undefined || p === false) return "";
  if (typeof p === "number") return esc(Number.isFinite(p) ? String(Math.round(p * 100) / 100) : "0");
  return esc(String(p));
}

/** Tagged template: literal markup stays, every interpolation is escaped (or is nested `html`). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += part(v) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** Shown for a value the redaction removed or that is unknown. */
export function text(s: string | null | undefined, fallback = "—"): string {
  return s === null || s === undefined || s === "" ? fallback : s;
}
