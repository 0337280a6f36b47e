// Small text-matching helpers the rules share. Pure.

/**
 * A text's letter shape: ASCII letters → `x`, digits → `0`, everything else kept. The corpus exports are scrubbed
 * that way (lengths and character classes kept), so a header or notice matched by its shape reads the same in
 * real and scrubbed state dirs.
 */
export function letterShape(s: string): string {
  return s.replace(/[A-Za-z]/gu, "x").replace(/[0-9]/gu, "0");
}

/** `s` as a literal inside a RegExp source. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}
