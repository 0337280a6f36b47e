// The AGENTS.md policy digest of 2026.7.1 and 2026.9.x — spec bootstrap.md §4.3 steps 2–3: which lines are
// candidates (headings, list items, policy words; 9.x adds CJK/emoji words and pairs a candidate with the prose
// line before it) and which fit the digest budget, high priority first. Pure.

import type { RuleFamily } from "./files-and-limits.ts";
import { safeEnd } from "./segments.ts";

export interface PolicyDigest {
  text: string;
  /** Candidate lines (9.x: units, possibly two lines) considered. */
  candidates: number;
  selected: number;
  omittedLines: number;
  /** Digest budget D after any shrinking. */
  budget: number;
}

const POLICY_WORDS =
  /\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|owner|security|secret|credential|test|validation|command|commit|push|github|pr)\b/iu;
const HIGH_PRIORITY_WORDS =
  /\b(?:AGENTS\.md|scoped|required|must|never|do not|before subtree|read scoped|security|secret|credential)\b/iu;
// 2026.9.x adds CJK / emoji policy words. `\b` never matches next to CJK characters, so these
// are matched as plain substrings (as the 9.x digest does).
const POLICY_WORDS_CJK = /(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿|必須|務必|一律|紅線)/u;
const HIGH_PRIORITY_CJK = /(?:🔴|禁止|嚴禁|不得|絕不|絕對不|切勿)/u;
const STRUCTURAL_LINE = /^(?:#{1,6}|\s*[-*+]|\s*\d+[.)])\s+\S/u;
const FENCE_LINE = /^\s*(?:`{3,}|~{3,})/u;
const DIGEST_MAX_LINE = 240;

function normalizeDigestLine(line: string): string {
  const normalized = line.trim().replace(/\s+/gu, " ");
  if (normalized.length <= DIGEST_MAX_LINE) return normalized;
  return `${normalized.slice(0, safeEnd(normalized, DIGEST_MAX_LINE - 1))}…`;
}

interface DigestCandidate {
  index: number;
  text: string;
  high: boolean;
}

function isCandidate(family: RuleFamily, line: string): boolean {
  if (STRUCTURAL_LINE.test(line) || POLICY_WORDS.test(line)) return true;
  return family === "2026.9" && POLICY_WORDS_CJK.test(line);
}

function isHighPriority(family: RuleFamily, line: string): boolean {
  if (HIGH_PRIORITY_WORDS.test(line)) return true;
  return family === "2026.9" && HIGH_PRIORITY_CJK.test(line);
}

/**
 * Candidate lines of the digest. 2026.7.1: single normalised lines. 2026.9.x: a candidate directly
 * preceded by a prose line (non-candidate, non-fence, non-empty) becomes the unit "prose\nline";
 * empty lines and code fences reset the previous prose line — spec bootstrap.md §4.3.
 */
export function policyDigestCandidates(family: RuleFamily, content: string): DigestCandidate[] {
  const out: DigestCandidate[] = [];
  let prose: string | null = null;
  const lines = content.split(/\r?\n/u);
  for (let index = 0; index < lines.length; index += 1) {
    const line = normalizeDigestLine(lines[index] ?? "");
    if (line.length === 0) {
      prose = null;
      continue;
    }
    if (family === "2026.9" && FENCE_LINE.test(line)) {
      prose = null;
      continue;
    }
    if (!isCandidate(family, line)) {
      prose = line;
      continue;
    }
    const text = family === "2026.9" && prose !== null ? `${prose}\n${line}` : line;
    out.push({ index, text, high: isHighPriority(family, line) });
    prose = null;
  }
  return out;
}

/** Select digest lines: high priority first, then the rest, each only if it still fits in `budget`. */
export function buildPolicyDigest(family: RuleFamily, content: string, budget: number): PolicyDigest {
  if (budget <= 0) return { text: "", candidates: 0, selected: 0, omittedLines: 0, budget };
  const candidates = policyDigestCandidates(family, content);
  const selected = new Set<number>();
  let used = 0;
  const trySelect = (c: DigestCandidate) => {
    const sep = selected.size > 0 ? 1 : 0;
    if (used + sep + c.text.length > budget) return;
    selected.add(c.index);
    used += sep + c.text.length;
  };
  for (const c of candidates) if (c.high) trySelect(c);
  for (const c of candidates) if (!selected.has(c.index)) trySelect(c);
  const lines = candidates.filter((c) => selected.has(c.index)).map((c) => c.text);
  return {
    text: lines.join("\n"),
    candidates: candidates.length,
    selected: lines.length,
    omittedLines: Math.max(0, candidates.length - lines.length),
    budget,
  };
}
