// Tool-name matching for contextPruning.tools.allow / deny, all versions (spec pruning.md §4;
// OpenClaw src/agents/glob-pattern.ts). Names and patterns are trimmed and lower-cased, empty patterns
// dropped, `*` alone matches everything, a pattern with `*` is an anchored glob (every other character
// literal), otherwise an exact match. Deny wins; an empty allow list allows everything.

type CompiledPattern = { kind: "all" } | { kind: "exact"; value: string } | { kind: "regex"; value: RegExp };

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(ch) ? `\\${ch}` : ch;
}

export function compileGlob(pattern: string): CompiledPattern | null {
  const normalized = pattern.trim().toLowerCase();
  if (!normalized) return null;
  if (normalized === "*") return { kind: "all" };
  if (!normalized.includes("*")) return { kind: "exact", value: normalized };
  let source = "";
  for (const ch of normalized) source += ch === "*" ? ".*" : escapeRegex(ch);
  return { kind: "regex", value: new RegExp(`^${source}$`) };
}

function matchesAny(name: string, patterns: CompiledPattern[]): boolean {
  for (const p of patterns) {
    if (p.kind === "all") return true;
    if (p.kind === "exact" && p.value === name) return true;
    if (p.kind === "regex" && p.value.test(name)) return true;
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
