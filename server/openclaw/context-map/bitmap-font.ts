// OpenClaw's `/context map` text: its 5×7 bitmap font's character set, label sanitising and fitting (spec
// context-report.md §5.4 drawing details). Source: `src/auto-reply/reply/context-treemap.ts` (7.1, 9.6). Pure.

import type { DrawText, Rect } from "../../../shared/openclaw-picture.ts";

export const FONT_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -./:_";

/** Label sanitising: runs outside `[A-Za-z0-9/_.:-]` → one space, whitespace collapsed, trimmed, upper-cased. */
export function sanitizeLabel(text: string): string {
  return text
    .replace(/[^A-Za-z0-9/_.:-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
}

/** Fits label lines into a box: max chars floor((w−12)/(6s)), max lines floor((h−12)/(9s)); origin (x+7, y+7+line·9s). */
export function fitLabel(box: Rect, lines: readonly string[], scale: number, color: string): DrawText[] {
  const maxChars = Math.floor((box.width - 12) / (6 * scale));
  const maxLines = Math.floor((box.height - 12) / (9 * scale));
  if (maxChars < 4 || maxLines < 1) return [];
  return lines.slice(0, maxLines).map((line, i) => {
    const s = sanitizeLabel(line);
    return {
      x: box.x + 7,
      y: box.y + 7 + i * 9 * scale,
      scale,
      text: s.length > maxChars ? s.slice(0, maxChars - 1) : s,
      color,
    };
  });
}

/** Unsanitised text (header title, footer): upper-cased; characters outside the font become blanks. */
export function rawDrawText(text: string): string {
  let out = "";
  for (const ch of text) {
    const u = ch.toUpperCase(); // per code point, as OpenClaw looks each glyph up ("ß" → "SS" → blank)
    out += u.length === 1 && FONT_CHARS.includes(u) ? u : " ";
  }
  return out;
}
