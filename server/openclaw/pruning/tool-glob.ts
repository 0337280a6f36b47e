// Tool-name matching for contextPruning.tools.allow / deny, all versions (spec pruning.md §4;
// OpenClaw src/agents/glob-pattern.ts). Names and patterns are trimmed and lower-cased, empty patterns
// dropped, `*` alone matches everything, a pattern with `*` is an anchored glob (every other character
// literal), otherwise an exact match. Deny wins; an empty allow list allows everything.

//
// OpenClaw compiles a glob to `new RegExp("^" + escaped.replaceAll("\\*", ".*") + "$")` (no flags; identical in
// 2026.7.1 and 2026.9.6): `*` is any run of characters except a line terminator (`.` never matches \n, \r, U+2028,
// U+2029). The same semantics are matched here without a RegExp and in linear time (issue 20: `*a*a*a…b` or a
// thousand `*` made V8's backtracking take minutes to forever on one tool name): the pattern is split at `*` into
// literal segments (runs of `*` collapse), the first anchored at the start, the last at the end, the middle ones
// found leftmost in order (KMP) — or, when the name holds a line terminator, by a sweep that keeps every gap free
// of one (test/unit/tool-glob-linear.test.ts checks both against OpenClaw's RegExp).

type CompiledPattern =
  | { kind: "all" }
  | { kind: "exact"; value: string }
  | { kind: "glob"; first: string; middle: string[]; last: string };

export function compileGlob(pattern: string): CompiledPattern | null {
  const normalized = pattern.trim().toLowerCase();
  if (!normalized) return null;
  if (normalized === "*") return { kind: "all" };
  if (!normalized.includes("*")) return { kind: "exact", value: normalized };
  const parts = normalized.split("*");
  return {
    kind: "glob",
    first: parts[0] ?? "",
    middle: parts.slice(1, -1).filter((p) => p !== ""),
    last: parts[parts.length - 1] ?? "",
  };
}

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** KMP failure table of `pat`. */
function failureTable(pat: string): Int32Array {
  const f = new Int32Array(pat.length);
  for (let i = 1, k = 0; i < pat.length; i++) {
    while (k > 0 && pat.charCodeAt(i) !== pat.charCodeAt(k)) k = f[k - 1] ?? 0;
    if (pat.charCodeAt(i) === pat.charCodeAt(k)) k++;
    f[i] = k;
  }
  return f;
}

/** Start of the first occurrence of `pat` (non-empty) in `text[from, limit)`, or -1. Linear (KMP). */
function indexOfWithin(text: string, pat: string, from: number, limit: number): number {
  const f = failureTable(pat);
  for (let i = from, k = 0; i < limit; i++) {
    while (k > 0 && text.charCodeAt(i) !== pat.charCodeAt(k)) k = f[k - 1] ?? 0;
    if (text.charCodeAt(i) === pat.charCodeAt(k)) k++;
    if (k === pat.length) return i - pat.length + 1;
  }
  return -1;
}

/** Every start of `pat` (non-empty) in `text`, as flags per position. Linear (KMP). */
function occurrences(text: string, pat: string): Uint8Array {
  const at = new Uint8Array(text.length + 1);
  const f = failureTable(pat);
  for (let i = 0, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== pat.charCodeAt(k)) k = f[k - 1] ?? 0;
    if (text.charCodeAt(i) === pat.charCodeAt(k)) k++;
    if (k === pat.length) {
      at[i - pat.length + 1] = 1;
      k = f[k - 1] ?? 0;
    }
  }
  return at;
}

function hasLineTerminator(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isLineTerminator(s.charCodeAt(i))) return true;
  return false;
}

function globMatch(p: Extract<CompiledPattern, { kind: "glob" }>, name: string): boolean {
  const end = name.length - p.last.length;
  if (end < p.first.length || !name.startsWith(p.first) || !name.endsWith(p.last)) return false;
  if (!hasLineTerminator(name)) {
    // Every gap may hold anything: the leftmost occurrence of each segment leaves the most room for the rest.
    let pos = p.first.length;
    for (const seg of p.middle) {
      const at = indexOfWithin(name, seg, pos, end);
      if (at < 0) return false;
      pos = at + seg.length;
    }
    return true;
  }
  return sweepMatch(p, name, end);
}

/**
 * A name with a line terminator: no gap may hold one. `reach[i]` = the segments so far can end at i; a sweep per
 * segment carries "some reachable end with no line terminator since" forward. O(name × segments).
 */
function sweepMatch(p: Extract<CompiledPattern, { kind: "glob" }>, name: string, end: number): boolean {
  let reach = new Uint8Array(name.length + 1);
  reach[p.first.length] = 1;
  for (const seg of p.middle) {
    const starts = occurrences(name, seg);
    const next = new Uint8Array(name.length + 1);
    let open = false;
    for (let i = 0; i <= end; i++) {
      if (reach[i]) open = true;
      if (open && starts[i] && i + seg.length <= end) next[i + seg.length] = 1;
      if (i < name.length && isLineTerminator(name.charCodeAt(i))) open = false;
    }
    reach = next;
  }
  let open = false;
  for (let i = 0; i <= end; i++) {
    if (reach[i]) open = true;
    if (i === end) return open;
    if (isLineTerminator(name.charCodeAt(i))) open = false;
  }
  return false;
}

function matchesAny(name: string, patterns: CompiledPattern[]): boolean {
  for (const p of patterns) {
    if (p.kind === "all") return true;
    if (p.kind === "exact" && p.value === name) return true;
    if (p.kind === "glob" && globMatch(p, name)) return true;
  }
  return false;
}

/** Does one glob pattern match a tool name (case-insensitive, trimmed)? */
export function globMatches(pattern: string, toolName: string): boolean {
  const compiled = compileGlob(pattern);
  return compiled !== null && matchesAny(toolName.trim().toLowerCase(), [compiled]);
}

/** A predicate `isPrunable(toolName)` for allow/deny glob lists: deny wins, empty allow = all. */
export function makeToolPredicate(
  allow: readonly string[],
  deny: readonly string[],
): (toolName: string) => boolean {
  const allowPatterns = allow.map(compileGlob).filter((p): p is CompiledPattern => p !== null);
  const denyPatterns = deny.map(compileGlob).filter((p): p is CompiledPattern => p !== null);
  return (toolName: string): boolean => {
    const name = toolName.trim().toLowerCase();
    if (matchesAny(name, denyPatterns)) return false;
    if (allowPatterns.length === 0) return true;
    return matchesAny(name, allowPatterns);
  };
}
