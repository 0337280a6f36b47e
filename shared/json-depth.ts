// How deep a stored JSON value may nest (issue 20). V8's JSON.parse takes any depth, but JSON.stringify and
// every recursive walk of a value (the reports' content sizes, the cut restorer, the watcher's entry signatures)
// overflow the stack on ~10,000 levels: one hostile message ended `context`/`export` with a stack, made the API
// answer unlocated 500s and `serve` exit at start-up. So depth is bounded where values enter: a value nested
// deeper than MAX_JSON_DEPTH is refused at parse time — a located per-entry issue — and nothing downstream ever
// sees one. OpenClaw's own rows nest a dozen levels; tool arguments are the model's JSON, rarely past 20.

export const MAX_JSON_DEPTH = 256;

/**
 * True when the JSON text nests arrays/objects deeper than `max`. A scan of the brackets outside strings (string
 * bodies are skipped with indexOf, so a long tool result costs next to nothing); text too short to nest that deep
 * is not scanned at all. The text need not be valid JSON (JSON.parse decides that).
 */
export function textNestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max || !hasMoreOpenersThan(text, max)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Nesting deeper than `max` needs more than `max` `[`/`{` in the text: counted with indexOf (a native scan), it
 * rules out almost every real line before the character loop runs.
 */
function hasMoreOpenersThan(text: string, max: number): boolean {
  let count = 0;
  for (const opener of ["[", "{"]) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1))
      if (++count > max) return true;
  }
  return false;
}

/** Index of the quote closing the string opened at `open`, or -1 (unterminated). */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    for (let j = at - 1; text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** True when a parsed value nests deeper than `max` (an explicit stack: no recursion on hostile input). */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, d } = top;
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) return true;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const child of children)
      if (typeof child === "object" && child !== null) stack.push({ v: child, d: d + 1 });
  }
  return false;
}

export function tooDeepMessage(max = MAX_JSON_DEPTH): string {
  return `nested deeper than ${max} levels (refused: walking it would overflow the stack)`;
}
